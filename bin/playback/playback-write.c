/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * playback-write.c: the text of a --playback program around its calls.
 *
 * The program includes no header of the library: it declares each
 * function it calls from the recorded prototype, every pointer as void *
 * (an opaque sqlite3 *, a z_streamp) and every integer by its width, which
 * is all the x86_64 calling convention asks; so `cc OUT.c -lLIB` builds it
 * with the library alone.  Then come the checks (ltr_check_*: the first
 * difference is printed and exits 1), the stub that stands for callbacks,
 * the handles, the arrays, one function per recorded thread, and main,
 * which runs the threads' functions one after the other, in the order
 * the threads made their first call.  Running them one after the other
 * keeps a playback deterministic; a library bug that needs two threads at
 * once is not reproduced by it.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "format.h"
#include "playback-internal.h"
#include "playback.h"
#include "xmalloc.h"

/* Functions declared so far (bit per function index). */
static unsigned char *declared;
static FILE *decls;
static char *decls_text;
static size_t decls_len;
/* The libraries called, for the build line ("-lsqlite3"). */
static char **libs;
static size_t nlibs;

void playback_init(const char *path, const char *file)
{
	pb.path = path;
	pb.file = file;
	/* Opened first: a path it cannot write fails before the replay. */
	pb.out = fopen(path, "w");
	if (!pb.out)
		perror_msg_and_die("cannot write the playback program '%s' (--playback)",
				   path);
	pb.data = open_memstream(&pb.data_text, &pb.data_len);
	decls = open_memstream(&decls_text, &decls_len);
	if (!pb.data || !decls)
		perror_msg_and_die("open_memstream");
	declared = xcalloc(LTR_MAX_FUNCS / 8 + 1, 1);
}

/* "-lsqlite3" of a library's short name ("libsqlite3", "libsqlite3.so.0"), or NULL. */
static char *lib_flag(const char *lib)
{
	const char *dot;
	char *flag;

	/* libc links by itself. */
	if (strncmp(lib, "lib", 3) != 0 || strcmp(lib, "libc") == 0 ||
	    strncmp(lib, "libc.so", 7) == 0)
		return NULL;
	dot = strstr(lib, ".so");
	flag = xmalloc(strlen(lib) + 3);
	sprintf(flag, "-l%.*s", (int)((dot ? dot : lib + strlen(lib)) - lib - 3),
		lib + 3);
	return flag;
}

void playback_declare(uint32_t fn, const struct proto *p)
{
	char type[32];
	char *flag;
	size_t i;

	if (fn >= LTR_MAX_FUNCS || (declared[fn / 8] & (1u << (fn % 8))))
		return;
	declared[fn / 8] |= (unsigned char)(1u << (fn % 8));
	playback_ctype(&p->ret, type, sizeof(type));
	fprintf(decls, "%s%s%s(", type, type[strlen(type) - 1] == '*' ? "" : " ",
		format_func_raw(fn));
	for (i = 0; i < p->nargs; i++) {
		/* An [out] one gets room of the program's: unsigned char[]. */
		if (p->args[i].out != OUT_NONE)
			snprintf(type, sizeof(type), "void *");
		else
			playback_ctype(&p->args[i].type, type, sizeof(type));
		fprintf(decls, "%s%s", i ? ", " : "", type);
	}
	fprintf(decls, "%s);\n", p->variadic ? ", ..." : p->nargs ? "" : "void");
	if (!(flag = lib_flag(format_lib(fn))))
		return;
	for (i = 0; i < nlibs; i++)
		if (strcmp(libs[i], flag) == 0) {
			free(flag);
			return;
		}
	libs = xrealloc(libs, (nlibs + 1) * sizeof(*libs));
	libs[nlibs++] = flag;
}

/* The checks and the stub, as the program has them. */
static const char runtime[] =
	"/*\n"
	" * What the checks need of libc, under names of their own (no header):\n"
	" * the calls played may be libc's, declared as recorded.\n"
	" */\n"
	"extern void *ltr_stderr __asm__(\"stderr\");\n"
	"int ltr_fprintf(void *, const char *, ...) __asm__(\"fprintf\");\n"
	"void ltr_exit(int) __asm__(\"exit\") __attribute__((noreturn));\n"
	"int ltr_memcmp(const void *, const void *, size_t) __asm__(\"memcmp\");\n"
	"void *ltr_memcpy(void *, const void *, size_t) __asm__(\"memcpy\");\n"
	"int ltr_strncmp(const char *, const char *, size_t) __asm__(\"strncmp\");\n"
	"\n"
	"/* The first call that returns something else ends the playback. */\n"
	"static __attribute__((unused)) void ltr_differ(unsigned long call, const char *fn)\n"
	"{\n"
	"\tltr_fprintf(ltr_stderr, \"playback: call %lu, %s: \", call, fn);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) void ltr_check_int(unsigned long call, const char *fn,\n"
	"\t\t\t  long long expected, long long got)\n"
	"{\n"
	"\tif (got == expected)\n"
	"\t\treturn;\n"
	"\tltr_differ(call, fn);\n"
	"\tltr_fprintf(ltr_stderr, \"expected %lld, got %lld\\n\", expected, got);\n"
	"\tltr_exit(1);\n"
	"}\n"
	"\n"
	"static __attribute__((unused)) void ltr_check_double(unsigned long call, const char *fn,\n"
	"\t\t\t     double expected, double got)\n"
	"{\n"
	"\tif (got == expected || ltr_memcmp(&got, &expected, sizeof(got)) == 0)\n"
	"\t\treturn;\n"
	"\tltr_differ(call, fn);\n"
	"\tltr_fprintf(ltr_stderr, \"expected %.17g, got %.17g\\n\", expected, got);\n"
	"\tltr_exit(1);\n"
	"}\n"
	"\n"
	"/* A word of a struct of the program's ([struct:...]) on return. */\n"
	"static __attribute__((unused)) void ltr_check_word(unsigned long call, const char *fn,\n"
	"\t\t\t   unsigned arg, unsigned at, uint64_t expected,\n"
	"\t\t\t   const unsigned char *p)\n"
	"{\n"
	"\tuint64_t got;\n"
	"\n"
	"\tltr_memcpy(&got, p, sizeof(got));\n"
	"\tif (got == expected)\n"
	"\t\treturn;\n"
	"\tltr_differ(call, fn);\n"
	"\tltr_fprintf(ltr_stderr, \"argument %u at byte %u: expected %llu, got %llu\\n\", arg, at,\n"
	"\t\t(unsigned long long)expected, (unsigned long long)got);\n"
	"\tltr_exit(1);\n"
	"}\n"
	"\n"
	"/* A pointer is checked for being NULL or not: its value is the library's. */\n"
	"static __attribute__((unused)) void ltr_check_pointer(unsigned long call, const char *fn,\n"
	"\t\t\t      int expected, const void *got)\n"
	"{\n"
	"\tif ((got != NULL) == expected)\n"
	"\t\treturn;\n"
	"\tltr_differ(call, fn);\n"
	"\tltr_fprintf(ltr_stderr, \"expected %s, got %s\\n\", expected ? \"non-NULL\" : \"NULL\",\n"
	"\t\tgot ? \"non-NULL\" : \"NULL\");\n"
	"\tltr_exit(1);\n"
	"}\n"
	"\n"
	"/* A string returned: its len bytes (its first len when cut when recorded). */\n"
	"static __attribute__((unused)) void ltr_check_string(unsigned long call, const char *fn,\n"
	"\t\t\t     const char *expected, size_t len, int cut,\n"
	"\t\t\t     const void *got)\n"
	"{\n"
	"\tif (got && ltr_strncmp(got, expected, len) == 0 &&\n"
	"\t    (cut || ((const char *)got)[len] == '\\0'))\n"
	"\t\treturn;\n"
	"\tltr_differ(call, fn);\n"
	"\tltr_fprintf(ltr_stderr, \"expected \\\"%s\\\"%s, got \", expected, cut ? \"...\" : \"\");\n"
	"\tif (got)\n"
	"\t\tltr_fprintf(ltr_stderr, \"\\\"%.*s\\\"\\n\", (int)len + 64, (const char *)got);\n"
	"\telse\n"
	"\t\tltr_fprintf(ltr_stderr, \"NULL\\n\");\n"
	"\tltr_exit(1);\n"
	"}\n"
	"\n"
	"/* What a callback into the recorded program is played as. */\n"
	"static __attribute__((unused)) long ltr_stub(void)\n"
	"{\n"
	"\treturn 0;\n"
	"}\n";

/* The header comment: what this is, how to build it, what it leaves out. */
static void write_header(FILE *o)
{
	size_t i;

	fprintf(o, "/*\n * Generated by ltruss %s --playback from ",
		PACKAGE_VERSION);
	playback_comment(o, pb.file);
	fprintf(o, ".\n");
	fprintf(o, " * It makes the %lu recorded calls again, each thread's in a function of its\n"
		   " * own, the threads one after the other; each result is checked against\n"
		   " * the recorded one: the first difference is printed and exits 1.\n",
		pb.ncalls);
	fprintf(o, " *\n * Build: cc ");
	playback_comment(o, pb.path);
	for (i = 0; i < nlibs; i++)
		fprintf(o, " %s", libs[i]);
	fprintf(o, "\n");
	if (!pb.nnotes) {
		fprintf(o, " *\n * Every call is played as recorded.\n */\n");
		return;
	}
	fprintf(o, " *\n * Not played as recorded:\n");
	for (i = 0; i < pb.nnotes; i++) {
		fprintf(o, " *   call %lu %s%s: ", pb.notes[i].first,
			format_func_raw(pb.notes[i].fn),
			pb.notes[i].count > 1 ? " (and later calls)" : "");
		playback_comment(o, pb.notes[i].text);
		fputc('\n', o);
	}
	fprintf(o, " */\n");
}

/* The whole program into o. */
static void write_program(FILE *o)
{
	unsigned i;

	write_header(o);
	fprintf(o, "#include <stddef.h>\n#include <stdint.h>\n\n");
	fprintf(o, "/* The library's functions, as recorded (pointers as void *). */\n%s\n",
		decls_text);
	fprintf(o, "%s\n", runtime);
	if (pb.nhandles) {
		fprintf(o, "/* Handles: pointers the library gave. */\n");
		for (i = 1; i <= pb.nhandles; i++)
			fprintf(o, "static void *h%u;\n", i);
		fputc('\n', o);
	}
	if (pb.data_len)
		fprintf(o, "/* Strings and buffers as recorded, and room for outputs. */\n%s\n",
			pb.data_text);
	for (i = 0; i < pb.nthreads; i++) {
		fprintf(o, "/* Process %d, thread %d. */\nstatic void thread_%u(void)\n{\n%s}\n\n",
			pb.threads[i]->pid, pb.threads[i]->tid, i + 1,
			pb.threads[i]->text);
	}
	fprintf(o, "int main(void)\n{\n");
	for (i = 0; i < pb.nthreads; i++)
		fprintf(o, "\tthread_%u();\n", i + 1);
	if (pb.nleft) {
		/* The path as an argument: a '%' or a '"' in it stays text. */
		fprintf(o, "\tltr_fprintf(ltr_stderr, \"playback: %lu calls, %lu of them left out (see %%s), every result of the others as recorded\\n\",\n\t\t    ",
			pb.ncalls, pb.nleft);
		playback_write_bytes(o, (const unsigned char *)pb.path,
				     strlen(pb.path), "\t\t    ");
		fprintf(o, ");\n");
	} else
		fprintf(o, "\tltr_fprintf(ltr_stderr, \"playback: %lu calls, every result as recorded\\n\");\n",
			pb.ncalls);
	fprintf(o, "\treturn 0;\n}\n");
}

void playback_finish(void)
{
	FILE *o;
	size_t i;

	fclose(pb.data);
	fclose(decls);
	for (i = 0; i < pb.nthreads; i++)
		fclose(pb.threads[i]->body);
	o = pb.out;
	write_program(o);
	if (fclose(o) != 0)
		perror_msg_and_die("cannot write the playback program '%s'",
				   pb.path);
	for (i = 0; i < pb.nnotes; i++)
		warning_msg("playback: call %lu %s%s: %s", pb.notes[i].first,
			    format_func_raw(pb.notes[i].fn),
			    pb.notes[i].count > 1 ? " (and later calls)" : "",
			    pb.notes[i].text);
	for (i = 0; i < pb.nthreads; i++) {
		free(pb.threads[i]->text);
		free(pb.threads[i]);
	}
	for (i = 0; i < pb.nnotes; i++)
		free(pb.notes[i].text);
	for (i = 0; i < nlibs; i++)
		free(libs[i]);
	free(pb.threads);
	free(pb.notes);
	free(pb.data_text);
	free(decls_text);
	free(declared);
	free(libs);
	playback_bindings_free();
	playback_structs_free();
	memset(&pb, 0, sizeof(pb));
}
