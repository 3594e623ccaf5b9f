/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libplughost.c: a C library that calls libbhv for libplug. */
#include "libplughost.h"

long host_apply(bhv_cb cb, long x)
{
	return bhv_apply(cb, x) * 2;
}
