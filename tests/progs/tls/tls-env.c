/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tls-env.c: print GLIBC_TUNABLES as the program sees it, and any
 * variable ltruss gives the loader or the interposer.  "tls-env exec VALUE" sets GLIBC_TUNABLES to VALUE
 * ("-": unsets it) and execs "tls-env" again; "tls-env execve VALUE"
 * passes an environment of that one variable to execve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	const char *v = getenv("GLIBC_TUNABLES");
	char **e;

	printf("GLIBC_TUNABLES%s%s\n", v ? "=" : " unset", v ? v : "");
	for (e = environ; *e; e++)
		if (strncmp(*e, "LTRUSS_SESSION=", 15) == 0 ||
		    strncmp(*e, "LTRUSS_SAVED_", 13) == 0 ||
		    strncmp(*e, "LD_AUDIT=", 9) == 0)
			printf("leaked: %s\n", *e);
	fflush(stdout);
	if (argc == 3 && strcmp(argv[1], "exec") == 0) {
		if (strcmp(argv[2], "-") == 0)
			unsetenv("GLIBC_TUNABLES");
		else
			setenv("GLIBC_TUNABLES", argv[2], 1);
		execl("/proc/self/exe", "tls-env", (char *)NULL);
		return 127;
	}
	if (argc == 3 && strcmp(argv[1], "execve") == 0) {
		char var[4096], *env[] = { var, NULL };
		char *args[] = { (char *)"tls-env", NULL };

		snprintf(var, sizeof(var), "GLIBC_TUNABLES=%s", argv[2]);
		execve("/proc/self/exe", args, env);
		return 127;
	}
	return 0;
}
