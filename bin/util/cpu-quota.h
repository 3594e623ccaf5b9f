/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu-quota.h: the cgroup CPU quota ltruss runs under, and the time spent against it. */
#ifndef LTRUSS_CPU_QUOTA_H
#define LTRUSS_CPU_QUOTA_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* The tightest CPU quota of this process's cgroup and its ancestors. */
struct cpu_quota {
	double cores;          /* quota / period; 0: no quota found */
	bool v2;               /* usage is a cgroup v2 cpu.stat */
	char usage[PATH_MAX];  /* the file of that cgroup's CPU time; "" if unknown */
};

/*
 * Find q from mountinfo (/proc/self/mountinfo) and cgroup
 * (/proc/self/cgroup); no quota (cores 0) when either cannot be read.
 */
void cpu_quota_find(const char *mountinfo, const char *cgroup,
		    struct cpu_quota *q);

/* This process's quota (cpu_quota_find of /proc/self's, looked up once). */
const struct cpu_quota *cpu_quota(void);

/* The CPU time the quota's cgroup has used, in ns; false if unknown. */
bool cpu_quota_used_ns(const struct cpu_quota *q, uint64_t *ns);

#endif
