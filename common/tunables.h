/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tunables.h: the GLIBC_TUNABLES value a traced program starts with (shared
 * by ltruss, for the program it starts, and the interposer, for an exec).
 */
#ifndef LTRUSS_TUNABLES_H
#define LTRUSS_TUNABLES_H

#include <stddef.h>

#define LTR_TUNABLES "GLIBC_TUNABLES"
/* The user's GLIBC_TUNABLES, whose entry from offset 13 is theirs whole. */
#define LTR_ENV_SAVED_TUNABLES "LTRUSS_SAVED_GLIBC_TUNABLES"
#define LTR_SAVED_PREFIX_LEN (sizeof("LTRUSS_SAVED_") - 1)
#define LTR_TLS_TUNABLE "glibc.rtld.optional_static_tls"
#define LTR_TLS_DEFAULT 512 /* glibc's default optional_static_tls */
#define LTR_TLS_EXTRA 1536  /* what ltruss adds to it (tunables.c) */

/*
 * Bytes ltr_tunables_merge() writes for the user's value user (NULL when
 * GLIBC_TUNABLES is not set), its NUL included.
 */
size_t ltr_tunables_size(const char *user);

/*
 * Write "GLIBC_TUNABLES=" with ltruss's optional_static_tls, then the
 * user's other tunables, to d (ltr_tunables_size(user) bytes); returns
 * the end of it, past its NUL.
 */
char *ltr_tunables_merge(char *d, const char *user);

/* The optional_static_tls the program gets, for user (NULL: unset). */
unsigned long long ltr_tunables_tls(const char *user);

#endif
