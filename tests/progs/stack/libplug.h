/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libplug.h: a plugin with its own static C++ runtime (libplug.cc). */
#ifndef LTRUSS_LIBPLUG_H
#define LTRUSS_LIBPLUG_H

#ifdef __cplusplus
extern "C" {
#endif

/* x, or a C++ exception for odd x. */
long plug_check(long x);

/* Sum plug_check(0..n-1), called through the PLT; count the throws caught. */
long plug_outer(long n, long *caught);

/* The same through bhv_apply (libbhv), which calls back into the plugin. */
long plug_roundtrip(long n, long *caught);

/* The same through host_apply (libplughost), which calls bhv_apply. */
long plug_via_host(long n, long *caught);

#ifdef __cplusplus
}
#endif

#endif
