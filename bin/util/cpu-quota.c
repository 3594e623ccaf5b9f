/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu-quota.c: the cgroup CPU quota ltruss runs under.
 *
 * A container's CPU limit (Kubernetes' limits.cpu, docker --cpus, a
 * systemd CPUQuota=) is a CFS quota on a cgroup, not an affinity: the
 * process still sees every core of the host in sched_getaffinity() and
 * their idle time in /proc/stat.  A pod limited to 2 cores on a 64-core
 * host would have -w and -o start 15 workers and find 60 cores idle,
 * spend more CPU an event apart than merged (trace-rounds.c), and have
 * the quota, which the traced program shares, throttle both.  So the
 * workers are as many as the quota's cores (segments.c), and rounds go
 * apart only if the quota too had room left (trace-rounds.c).
 *
 * The quota is the tightest of the process's cgroup and its ancestors up
 * to the hierarchy's mount (a pod's limit sits on a parent of the
 * container's cgroup): cgroup v2's cpu.max ("max 100000", "150000
 * 100000"), or v1's cpu.cfs_quota_us over cpu.cfs_period_us (-1: none).
 * Its cgroup's CPU time is v2's cpu.stat usage_usec, or v1's
 * cpuacct.usage when the cpuacct hierarchy has that cgroup too (mounted
 * with cpu, as usual); unknown otherwise.  Where a hierarchy is mounted
 * comes from /proc/self/mountinfo, and the process's cgroup from
 * /proc/self/cgroup, relative to the mount's root (a cgroup namespace
 * shows "/" for the container's own).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu-quota.h"

/* A cgroup hierarchy: where it is mounted, its root there, and this process's cgroup in it. */
struct hierarchy {
	char root[PATH_MAX];
	char mount[PATH_MAX];
	char path[PATH_MAX];
	bool mounted, member;
};

/* Is word an item of the comma-separated list? */
static bool listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

/* Into h[0], h[1]: v1's cpu and cpuacct hierarchies if the controllers list names them. */
static void v1_pick(const char *controllers, struct hierarchy *cpu,
		    struct hierarchy *acct, struct hierarchy **h)
{
	h[0] = listed(controllers, "cpu") ? cpu : NULL;
	h[1] = listed(controllers, "cpuacct") ? acct : NULL;
}

/* Note the first mount of each hierarchy: cgroup2, v1's cpu and cpuacct. */
static void mounts_read(const char *mountinfo, struct hierarchy *v2,
			struct hierarchy *cpu, struct hierarchy *acct)
{
	char line[4 * PATH_MAX], root[PATH_MAX], mount[PATH_MAX], type[32],
		super[1024];
	FILE *f = fopen(mountinfo, "re");
	const char *dash;

	while (f && fgets(line, sizeof(line), f)) {
		struct hierarchy *h[2] = { NULL, NULL };
		unsigned i;

		/* ID PARENT MAJ:MIN ROOT MOUNT OPTIONS [FIELDS...] - TYPE SOURCE SUPER */
		if (!(dash = strstr(line, " - ")) ||
		    sscanf(line, "%*s %*s %*s %4095s %4095s", root, mount) != 2 ||
		    sscanf(dash + 3, "%31s %*s %1023s", type, super) != 2)
			continue;
		if (strcmp(type, "cgroup2") == 0) {
			h[0] = v2;
		} else if (strcmp(type, "cgroup") == 0) {
			v1_pick(super, cpu, acct, h);
		}
		for (i = 0; i < 2; i++)
			if (h[i] && !h[i]->mounted) {
				memcpy(h[i]->root, root, sizeof(root));
				memcpy(h[i]->mount, mount, sizeof(mount));
				h[i]->mounted = true;
			}
	}
	if (f)
		fclose(f);
}

/* Note this process's cgroup in each hierarchy ("ID:CONTROLLERS:PATH" lines). */
static void paths_read(const char *cgroup, struct hierarchy *v2,
		       struct hierarchy *cpu, struct hierarchy *acct)
{
	char line[2 * PATH_MAX];
	FILE *f = fopen(cgroup, "re");

	while (f && fgets(line, sizeof(line), f)) {
		char *controllers = strchr(line, ':'), *path;
		struct hierarchy *h[2] = { NULL, NULL };
		unsigned i;

		if (!controllers || !(path = strchr(++controllers, ':')))
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (strcmp(line, "0:") == 0 && !*controllers) {
			h[0] = v2;
		} else {
			v1_pick(controllers, cpu, acct, h);
		}
		for (i = 0; i < 2; i++)
			if (h[i] && strlen(path) < sizeof(h[i]->path)) {
				strcpy(h[i]->path, path);
				h[i]->member = true;
			}
	}
	if (f)
		fclose(f);
}

/*
 * The directory of h's cgroup (below its mount): the path less the
 * mount's root, or the mount itself when the path lies outside it.
 */
static bool cgroup_dir(const struct hierarchy *h, char *dir)
{
	size_t r = strcmp(h->root, "/") == 0 ? 0 : strlen(h->root);
	const char *rest = h->path;

	if (!h->mounted || !h->member)
		return false;
	if (r && strncmp(h->path, h->root, r) == 0 &&
	    (h->path[r] == '/' || h->path[r] == '\0'))
		rest += r;
	else if (r)
		rest = "";
	return snprintf(dir, PATH_MAX, "%s%s", h->mount,
			strcmp(rest, "/") == 0 ? "" : rest) < PATH_MAX;
}

/* The first line of dir/name into buf; false if unreadable. */
static bool read_line(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX + 64];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "re")))
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	return ok;
}

/* The quota of the cgroup at dir in cores; 0 if none. */
static double quota_at(const char *dir, bool v2)
{
	char a[64], b[64];
	long long quota, period;

	if (v2) {
		if (!read_line(dir, "cpu.max", a, sizeof(a)) ||
		    sscanf(a, "%lld %lld", &quota, &period) != 2)
			return 0; /* "max": none */
	} else if (!read_line(dir, "cpu.cfs_quota_us", a, sizeof(a)) ||
		   !read_line(dir, "cpu.cfs_period_us", b, sizeof(b)) ||
		   sscanf(a, "%lld", &quota) != 1 || sscanf(b, "%lld", &period) != 1) {
		return 0;
	}
	return quota > 0 && period > 0 ? (double)quota / (double)period : 0;
}

/*
 * The tightest quota along h's cgroup and its parents down to the mount;
 * its directory into at.
 */
static double quota_walk(const struct hierarchy *h, bool v2, char *at)
{
	char dir[PATH_MAX], *slash;
	double best = 0, c;
	size_t top = strlen(h->mount);

	if (!cgroup_dir(h, dir))
		return 0;
	for (;;) {
		if ((c = quota_at(dir, v2)) > 0 && (best == 0 || c < best)) {
			best = c;
			strcpy(at, dir);
		}
		if (strlen(dir) <= top || !(slash = strrchr(dir, '/')) ||
		    (size_t)(slash - dir) < top)
			break;
		*slash = '\0';
	}
	return best;
}

void cpu_quota_find(const char *mountinfo, const char *cgroup,
		    struct cpu_quota *q)
{
	static struct hierarchy v2, cpu, acct; /* large: not on the stack */
	char at[PATH_MAX];
	const char *rest;

	memset(q, 0, sizeof(*q));
	memset(&v2, 0, sizeof(v2));
	memset(&cpu, 0, sizeof(cpu));
	memset(&acct, 0, sizeof(acct));
	mounts_read(mountinfo, &v2, &cpu, &acct);
	paths_read(cgroup, &v2, &cpu, &acct);
	/* A controller is in one hierarchy: v1's cpu when it is mounted. */
	if (cpu.mounted && cpu.member) {
		if ((q->cores = quota_walk(&cpu, false, at)) == 0)
			return;
		/* The same cgroup in cpuacct's hierarchy (the same mount, usually). */
		rest = at + strlen(cpu.mount);
		if (acct.mounted &&
		    snprintf(q->usage, sizeof(q->usage), "%s%s/cpuacct.usage",
			     acct.mount, rest) < (int)sizeof(q->usage) &&
		    access(q->usage, R_OK) == 0)
			return;
		q->usage[0] = '\0';
	} else if ((q->cores = quota_walk(&v2, true, at)) > 0) {
		q->v2 = true;
		if (snprintf(q->usage, sizeof(q->usage), "%s/cpu.stat", at) >=
		    (int)sizeof(q->usage))
			q->usage[0] = '\0';
	}
}

const struct cpu_quota *cpu_quota(void)
{
	static struct cpu_quota q;
	static bool found;

	if (!found) {
		cpu_quota_find("/proc/self/mountinfo", "/proc/self/cgroup", &q);
		found = true;
	}
	return &q;
}

bool cpu_quota_used_ns(const struct cpu_quota *q, uint64_t *ns)
{
	char line[128];
	uint64_t v;
	FILE *f;
	bool ok = false;

	if (!q->usage[0] || !(f = fopen(q->usage, "re")))
		return false;
	while (!ok && fgets(line, sizeof(line), f))
		ok = sscanf(line, q->v2 ? "usage_usec %" SCNu64 : "%" SCNu64,
			    &v) == 1;
	fclose(f);
	if (ok)
		*ns = q->v2 ? v * 1000 : v; /* v2 counts microseconds */
	return ok;
}
