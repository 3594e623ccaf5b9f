/* SPDX-License-Identifier: GPL-2.0-or-later */
/* patch-cache.h: what entry patching's scan of an object found, cached by its build ID. */
#ifndef LTRUSS_PATCH_CACHE_H
#define LTRUSS_PATCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A direct branch that lands in a function's first bytes: where, from where. */
struct patch_branch {
	uint64_t target, from;
	uint64_t call; /* 1: a call, 0: a jmp or jcc */
};

/* How many direct branches land on a function's entry. */
struct patch_hits {
	uint64_t vaddr, n;
};

/* What a scan keeps of an object, sorted by target and by address. */
struct patch_scan {
	struct patch_branch *branches;
	size_t nbranches;
	struct patch_hits *hits;
	size_t nhits;
};

/* Read the scan of the file at path from the cache; false if none (or no build ID). */
bool patch_cache_load(const char *path, struct patch_scan *sc);

/* Keep the scan of the file at path in the cache (quietly nothing if it cannot). */
void patch_cache_save(const char *path, const struct patch_scan *sc);

#endif
