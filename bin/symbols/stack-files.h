/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack-files.h: the files -k unwinds with, each opened once. */
#ifndef LTRUSS_STACK_FILES_H
#define LTRUSS_STACK_FILES_H

#include <elfutils/libdwfl.h>

#include "stack-rules.h"

struct stack_file;

/* The file at path (an object's), made on first use; nothing opened yet. */
struct stack_file *files_of(const char *path);

/*
 * f's libdw module, loaded at its ELF addresses (bias 0), its file opened
 * on first use (and again if it was closed to make room); NULL if it
 * cannot be read.  Valid until the next files_module().
 */
Dwfl_Module *files_module(struct stack_file *f);

/* The call-frame rules of f's code (stack-rules.c). */
struct rule_cache *files_rules(struct stack_file *f);

/* Close every file, forget them all. */
void files_done(void);

#endif
