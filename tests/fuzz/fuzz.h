/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h: what the fuzz harnesses share with fuzz-die.c. */
#ifndef LTRUSS_FUZZ_H
#define LTRUSS_FUZZ_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where bin/util/error.c's exit(2) jumps instead (fuzz-die.c).  A harness sets
 * fuzz_die_armed right after setjmp(fuzz_die_env) returned 0 and clears
 * it when the call returned; fuzz_die_count counts the errors.
 */
extern jmp_buf fuzz_die_env;
extern bool fuzz_die_armed;
extern unsigned fuzz_die_count;

/* Check that error.c's messages reach the wrappers; call once at start. */
void fuzz_die_init(void);

/* libFuzzer's entry points. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
