/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libplughost.h: a C library between libplug and libbhv. */
#ifndef LTRUSS_LIBPLUGHOST_H
#define LTRUSS_LIBPLUGHOST_H

#include "../behaviour/libbhv.h"

/* bhv_apply(cb, x), called from this library. */
long host_apply(bhv_cb cb, long x);

#endif
