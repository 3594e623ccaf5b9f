/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patch-cache.c: what entry patching's scan of an object found, cached by
 * its build ID.
 *
 * Decoding a large object whole takes tens of milliseconds (python3.11:
 * about 100), at every start that patches it.  What the plans need of it
 * is small: the branches that land inside some function's first bytes,
 * and how many land on each entry (and on each PLT entry of the object's
 * own functions: patch-hints.c).  It is kept in
 * $XDG_CACHE_HOME/ltruss/patch/BUILD-ID (else ~/.cache/...), one binary
 * file per object: a build ID names the bytes that were decoded, so the
 * file is never stale; an object without one is decoded every time.  A
 * cache that cannot be read or written is ignored: the scan is redone.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-id.h"
#include "patch-cache.h"
#include "xmalloc.h"

#define MAGIC "LTRPSCN2"

/* The header of a cache file; the branches, then the hits, follow. */
struct header {
	char magic[8];
	uint64_t nbranches, nhits;
};

/* The cache file of the object at path, in buf; false if it has no build ID. */
static bool cache_path(const char *path, char *buf, size_t size, bool mkdirs)
{
	unsigned char id[BUILD_ID_MAX];
	const char *soname, *xdg = getenv("XDG_CACHE_HOME"), *home;
	size_t n = build_id_read(path, id, &soname), i, len;
	int w;

	if (!n)
		return false;
	if (xdg && *xdg)
		w = snprintf(buf, size, "%s/ltruss", xdg);
	else if ((home = getenv("HOME")) && *home)
		w = snprintf(buf, size, "%s/.cache/ltruss", home);
	else
		return false;
	if (w < 0 || (size_t)w + 8 + 2 * n + 1 > size)
		return false;
	if (mkdirs) {
		/* ~/.cache may not exist yet */
		char *slash = strrchr(buf, '/');

		*slash = '\0';
		mkdir(buf, 0700);
		*slash = '/';
		mkdir(buf, 0700);
	}
	len = (size_t)w;
	memcpy(buf + len, "/patch", 7);
	len += 6;
	if (mkdirs)
		mkdir(buf, 0700);
	buf[len++] = '/';
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "%02x", id[i]);
	return true;
}

/* Read n bytes into buf from fd; false if fewer came. */
static bool read_all(int fd, void *buf, size_t n)
{
	return n == 0 || read(fd, buf, n) == (ssize_t)n;
}

bool patch_cache_load(const char *path, struct patch_scan *sc)
{
	char file[4096];
	struct header h;
	struct stat st;
	bool ok;
	int fd;

	if (!cache_path(path, file, sizeof(file), false) ||
	    (fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	ok = fstat(fd, &st) == 0 && read_all(fd, &h, sizeof(h)) &&
	     memcmp(h.magic, MAGIC, 8) == 0 &&
	     h.nbranches < (1u << 28) && h.nhits < (1u << 28) &&
	     (uint64_t)st.st_size == sizeof(h) +
					     h.nbranches * sizeof(*sc->branches) +
					     h.nhits * sizeof(*sc->hits);
	if (ok) {
		sc->branches = xmalloc(h.nbranches * sizeof(*sc->branches) + 1);
		sc->hits = xmalloc(h.nhits * sizeof(*sc->hits) + 1);
		sc->nbranches = h.nbranches;
		sc->nhits = h.nhits;
		ok = read_all(fd, sc->branches, h.nbranches * sizeof(*sc->branches)) &&
		     read_all(fd, sc->hits, h.nhits * sizeof(*sc->hits));
		if (!ok) {
			free(sc->branches);
			free(sc->hits);
			memset(sc, 0, sizeof(*sc));
		}
	}
	close(fd);
	return ok;
}

void patch_cache_save(const char *path, const struct patch_scan *sc)
{
	struct header h = { MAGIC, sc->nbranches, sc->nhits };
	char file[4096], tmp[4200];
	size_t nb = sc->nbranches * sizeof(*sc->branches),
	       nh = sc->nhits * sizeof(*sc->hits);
	bool ok;
	int fd;

	if (!cache_path(path, file, sizeof(file), true))
		return;
	/* Written whole under another name, then renamed: never half a file. */
	snprintf(tmp, sizeof(tmp), "%s.%d", file, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     (nb == 0 || write(fd, sc->branches, nb) == (ssize_t)nb) &&
	     (nh == 0 || write(fd, sc->hits, nh) == (ssize_t)nh);
	if (close(fd) == 0 && ok && rename(tmp, file) == 0)
		return;
	unlink(tmp);
}
