/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debuginfo.c: where -k looks for an object's separate debug file, and
 * the debuginfod servers only when --debuginfod asks.
 *
 * libdw's own search (dwfl_standard_find_debuginfo) opens whatever name
 * an object's .gnu_debuglink or .gnu_debugaltlink gives, beside the
 * object and under /usr/lib/debug, with a plain open(): a FIFO there
 * blocks ltruss for good, "../../dev/..." reaches any file or device.
 * The objects are the traced program's, or, with --read, those a trace
 * file from anyone names.  With DEBUGINFOD_URLS set, libdw also asks the
 * servers about every object, each request up to 90 s.
 *
 * Here a debug file is looked for only where the GNU convention puts
 * it: by build ID, /usr/lib/debug/.build-id/xx/rest.debug; then by the
 * link's name, a plain file name (one with '/' is refused), in the
 * object's own directory, its .debug/ and /usr/lib/debug/ followed by
 * that directory.  Each candidate is opened as every file ltruss reads
 * (fd_open_regular: regular files only, never blocking, never a
 * terminal); libdwfl then checks its build ID against the object's.
 * The alternate file of a debug file's DWARF (dwz), by its build ID, by
 * a plain name as a link's, or by an absolute name under /usr/lib/debug/
 * without "." or "..", and only with the build ID the link gives.  When
 * it is not found, the module's source lines are not read at all:
 * libdw would look for it itself, with a plain open() (debuginfo_dwarf).
 *
 * The servers are asked only with --debuginfod, after the local search,
 * through libdebuginfod loaded then (as libdw loads it).  Without the
 * option DEBUGINFOD_URLS is taken out of ltruss's environment, once the
 * traced program's was built (it still sees the variable), so that no
 * part of libdw that ltruss does not call either asks the servers.
 */
#include "config.h"

#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debuginfo.h"
#include "error.h"
#include "fd-util.h"
#include "xmalloc.h"

#define DEBUG_DIR "/usr/lib/debug"

/* The marker a module's userdata holds when its alternate file is missing. */
static char alt_missing;

/*
 * The three functions of libdebuginfod.so.1 used, declared as its
 * debuginfod.h declares them (its API, stable under that soname), so
 * that building ltruss does not need the library's headers.
 */
typedef struct debuginfod_client debuginfod_client;
static struct {
	bool on;
	debuginfod_client *(*begin)(void);
	int (*find)(debuginfod_client *c, const unsigned char *id, int len,
		    char **path);
	void (*end)(debuginfod_client *c);
	debuginfod_client *client;
} servers;

void debuginfo_setup(bool debuginfod)
{
	void *so;

	if (!debuginfod) {
		unsetenv("DEBUGINFOD_URLS");
		return;
	}
	so = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (so) {
		servers.begin = (debuginfod_client * (*)(void))
			dlsym(so, "debuginfod_begin");
		servers.find = (int (*)(debuginfod_client *,
					const unsigned char *, int, char **))
			dlsym(so, "debuginfod_find_debuginfo");
		servers.end = (void (*)(debuginfod_client *))
			dlsym(so, "debuginfod_end");
	}
	if (!so || !servers.begin || !servers.find || !servers.end)
		error_msg_and_die("--debuginfod: cannot load libdebuginfod.so.1 (%s): install it (Debian: libdebuginfod1), or leave --debuginfod out",
				  dlerror());
	servers.on = true;
}

bool debuginfo_servers(void)
{
	return servers.on;
}

void debuginfo_done(void)
{
	if (servers.client)
		servers.end(servers.client);
	servers.client = NULL;
}

int debuginfo_find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		       Dwarf_Addr base, char **file_name, Elf **elfp)
{
	errno = ENOENT;
	return -1;
}

/* A descriptor of path, checked, its name in *name; or -1 (path freed). */
static int candidate(char *path, char **name)
{
	int fd = fd_open_regular(path);

	if (fd < 0) {
		free(path);
		return -1;
	}
	*name = path;
	return fd;
}

/* "DIR/.build-id/xx/rest.debug" for build ID id[0..n), or NULL. */
static char *build_id_path(const unsigned char *id, int n)
{
	char *path, *p;
	int i;

	if (n < 2 || n > 64)
		return NULL;
	path = xmalloc(sizeof(DEBUG_DIR "/.build-id//.debug") + 2 * (size_t)n);
	p = path + sprintf(path, DEBUG_DIR "/.build-id/%02x/", id[0]);
	for (i = 1; i < n; i++)
		p += sprintf(p, "%02x", id[i]);
	strcpy(p, ".debug");
	return path;
}

/* dir + a + b, allocated. */
static char *join(const char *dir, const char *a, const char *b)
{
	size_t n = strlen(dir) + strlen(a) + strlen(b) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s%s", dir, a, b);
	return s;
}

/*
 * Debug file name, a plain file name, for the object at file: beside
 * it, in its .debug/, under DEBUG_DIR and its directory; or -1.
 */
static int by_name(const char *file, const char *name, char **found)
{
	const char *slash = strrchr(file, '/');
	char *dir, *path;
	int fd = -1;

	if (!slash || !*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return -1;
	dir = xmalloc((size_t)(slash - file) + 2);
	memcpy(dir, file, (size_t)(slash - file) + 1);
	dir[slash - file + 1] = '\0';
	path = join(dir, name, "");
	/* The object itself is no debug file of its own. */
	if (strcmp(path, file) != 0)
		fd = candidate(path, found);
	else
		free(path);
	if (fd < 0)
		fd = candidate(join(dir, ".debug/", name), found);
	if (fd < 0 && dir[0] == '/')
		fd = candidate(join(DEBUG_DIR, dir, name), found);
	free(dir);
	return fd;
}

/* Is name absolute, under DEBUG_DIR/, without "." or ".." components? */
static bool under_debug_dir(const char *name)
{
	const char *p;

	if (strncmp(name, DEBUG_DIR "/", sizeof(DEBUG_DIR)) != 0)
		return false;
	for (p = name; (p = strchr(p, '/')); p++)
		if (p[1] == '/' || (p[1] == '.' && (!p[2] || p[2] == '/')) ||
		    (p[1] == '.' && p[2] == '.' && (!p[3] || p[3] == '/')))
			return false;
	return true;
}

/* Does the ELF file open at fd carry build ID id[0..n)? */
static bool has_build_id(int fd, const void *id, ssize_t n)
{
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	const void *got;
	bool same;

	same = elf && dwelf_elf_gnu_build_id(elf, &got) == n &&
	       memcmp(got, id, (size_t)n) == 0;
	elf_end(elf);
	return same;
}

/*
 * The alternate file of dw (dwz), whose DWARF is in file, or -1: its
 * userdata marked missing.  By build ID; by the name it gives, a plain
 * name where a debug link's is looked for, or an absolute one under
 * DEBUG_DIR/; only a file with the build ID asked for.
 */
static int alt_find(Dwarf *dw, const char *file, void **userdata,
		    char **found)
{
	const char *name;
	const void *id;
	ssize_t n = dwelf_dwarf_gnu_debugaltlink(dw, &name, &id);
	char *path;
	int fd = -1;

	if (n > 0 && (path = build_id_path(id, (int)n)))
		fd = candidate(path, found);
	if (fd < 0 && n > 0 && file)
		fd = by_name(file, name, found);
	if (fd < 0 && n > 0 && under_debug_dir(name))
		fd = candidate(xstrdup(name), found);
	if (fd >= 0 && !has_build_id(fd, id, n)) {
		close(fd);
		free(*found);
		*found = NULL;
		fd = -1;
	}
	if (fd < 0)
		*userdata = &alt_missing;
	return fd;
}

/* Ask the servers for the debug file of build ID id[0..n), or -1. */
static int ask_servers(const unsigned char *id, int n, char **found)
{
	struct stat st;
	char *path = NULL;
	int fd;

	if (!servers.client && !(servers.client = servers.begin()))
		return -1;
	fd = servers.find(servers.client, id, n, &path);
	if (fd < 0) {
		free(path);
		return -1;
	}
	/* In the client's cache: a file it wrote, checked as any other. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		free(path);
		return -1;
	}
	*found = path;
	return fd;
}

int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
		   Dwarf_Addr base, const char *file_name,
		   const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	Dwarf_Addr bias;
	Dwarf *dw;
	char *path;
	int n, fd = -1;

	/*
	 * libdwfl asks for the alternate file once the module's DWARF is
	 * set up, for the debug file while it is not (dwfl_module_getdwarf
	 * then answers NULL at once: its failure is already cached).
	 */
	dw = dwfl_module_getdwarf(mod, &bias);
	if (dw)
		return alt_find(dw, file_name, userdata, debuginfo_file_name);
	n = dwfl_module_build_id(mod, &id, &vaddr);
	if (n > 0 && (path = build_id_path(id, n)))
		fd = candidate(path, debuginfo_file_name);
	if (fd < 0 && file_name) {
		const char *slash = strrchr(file_name, '/');
		char *made = NULL;

		/* No link: the name the convention gives, OBJECT.debug. */
		if (!debuglink_file)
			debuglink_file = made = join(slash ? slash + 1 : file_name,
						     ".debug", "");
		fd = by_name(file_name, debuglink_file, debuginfo_file_name);
		free(made);
	}
	if (fd < 0 && servers.on && n > 0)
		fd = ask_servers(id, n, debuginfo_file_name);
	if (fd < 0)
		errno = ENOENT;
	return fd;
}

Dwarf *debuginfo_dwarf(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	void **userdata;

	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	return *userdata == &alt_missing ? NULL : dw;
}
