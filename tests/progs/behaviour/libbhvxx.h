/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbhvxx.h: the C++ fixture library, whose calls throw or let exceptions through. */
#ifndef LTRUSS_LIBBHVXX_H
#define LTRUSS_LIBBHVXX_H

extern "C" {
typedef long (*bhvxx_cb)(long x);

long bhvxx_invoke(bhvxx_cb cb, long x);
long bhvxx_check(long x);
}

#endif
