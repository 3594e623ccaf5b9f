/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwm.c: an LD_PRELOAD library that appends each process's peak RSS to $BENCH_HWM_FILE at exit. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * /usr/bin/time reports the largest peak among a process and the children
 * it waited for, so under a tracer it cannot tell the tracer's memory from
 * the traced program's.  Loaded into both (the tracer passes LD_PRELOAD on),
 * this destructor reads VmHWM while the process still has its memory and
 * writes one line, "NAME PID KIB", NAME being the basename of the executable.
 */

/* Copy the number after "VmHWM:" in /proc/self/status into out, or "?" if missing. */
static void hwm_read(char *out, size_t size)
{
	char buf[4096], *p;
	ssize_t n;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	snprintf(out, size, "?");
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strstr(buf, "VmHWM:");
	if (p)
		snprintf(out, size, "%ld", strtol(p + 6, NULL, 10));
}

/* At exit: append "NAME PID KIB" to $BENCH_HWM_FILE, in one write. */
__attribute__((destructor)) static void hwm_report(void)
{
	const char *path = getenv("BENCH_HWM_FILE"), *name;
	char exe[4096], kib[32], line[4200];
	ssize_t n;
	int fd, len;

	if (!path)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	hwm_read(kib, sizeof(kib));
	len = snprintf(line, sizeof(line), "%s %d %s\n", name, (int)getpid(), kib);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = write(fd, line, (size_t)len); /* nothing to do if it fails */
	(void)n;
	close(fd);
}
