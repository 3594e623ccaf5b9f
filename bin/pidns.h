/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pidns.h: the pid ltruss sees for a process known by its pid in another pid namespace. */
#ifndef LTRUSS_PIDNS_H
#define LTRUSS_PIDNS_H

#include <stdint.h>
#include <sys/types.h>

/* The pid, as ltruss sees it, of the process that is local in pid namespace ns (inode); 0 if none. */
pid_t pidns_find(uint32_t ns, pid_t local);

#endif
