/* SPDX-License-Identifier: GPL-2.0-or-later */
/* patch-image.h: an object as entry patching reads it (patch-image.c). */
#ifndef LTRUSS_PATCH_IMAGE_H
#define LTRUSS_PATCH_IMAGE_H

#include <Zydis/Zydis.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/select.h"
#include "patch-cache.h"

/* An executable section of the object: its bytes and where they load. */
struct text {
	uint64_t addr, size;
	const uint8_t *data;
};

/* A function symbol. */
struct fn {
	uint64_t vaddr, size;
	const char *name;
	bool selected;
};

/* One object read for planning. */
struct image {
	const char *path;
	int fd;
	Elf *elf;
	struct sel_names names;
	char short_name[256];
	struct text *texts;
	size_t ntexts;
	struct fn *fns;
	size_t nfns;
	struct patch_scan scan; /* what image_scan keeps */
	uint64_t entry; /* e_entry: jumped to once, never called */
	bool stripped;  /* no .symtab: only the exported functions are named */
	struct fn *plts; /* PLT entries to its own functions, by address */
	size_t nplts;
	uint64_t *resolvers; /* IFUNC resolvers: the loader calls them */
	size_t nresolvers;
};

/* Set up the decoder (64-bit code), once before any decoding. */
void image_decoder_init(void);

/* Decode one instruction of the n bytes at bytes into in; false if none. */
bool image_decode(const uint8_t *bytes, size_t n, ZydisDecodedInstruction *in);

/* How image_open reads an object. */
#define IMAGE_MAIN 0x1u  /* it is the program (named "a.out") */
#define IMAGE_GUESS 0x2u /* program or library: its ELF headers say */
#define IMAGE_QUIET 0x4u /* no warning when it cannot be read */

/* Open path into im (IMAGE_* flags); false (and a warning) if it cannot be read. */
bool image_open(struct image *im, const char *path, unsigned how);

/* Read the executable sections and the function symbols of im. */
bool image_read(struct image *im);

/*
 * Find what matters to plans in im's code: from the cache, else by
 * decoding it whole.  With budget, decode only if its code is no bigger
 * than *budget bytes, then take them off; false: not scanned.
 */
bool image_scan(struct image *im, uint64_t *budget);

/* Release what image_open, image_read and image_scan took. */
void image_close(struct image *im);

/* The bytes of im at vaddr, and how many follow in its section; NULL if none. */
const uint8_t *text_at(const struct image *im, uint64_t vaddr, uint64_t *avail);

/* The target of a relative branch or RIP-relative operand, decoded at vaddr. */
uint64_t rel_target(const ZydisDecodedInstruction *in, uint64_t vaddr);

/* How many direct branches of im land on vaddr's entry (after image_scan). */
size_t entry_hits(const struct image *im, uint64_t vaddr);

/*
 * How many direct branches of im land on f's entry or on a PLT entry of
 * im that the loader binds to f (after image_scan): im's own calls of f.
 */
size_t image_calls_to(const struct image *im, const struct fn *f);

/* The first kept branch of im whose target is at or above vaddr (an index). */
size_t branch_from(const struct image *im, uint64_t vaddr);

#endif
