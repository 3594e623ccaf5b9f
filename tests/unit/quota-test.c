/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quota-test.c: TAP unit tests of the cgroup CPU quota's lookup
 * (bin/util/cpu-quota.c) on made-up trees: a mountinfo and a
 * /proc/self/cgroup written into a temporary directory with the cgroup
 * files they name, for cgroup v2 (cpu.max, nested, "max"), v1 with cpu
 * and cpuacct mounted together or apart, a cgroup namespace's "/", and
 * files that are missing or say nonsense.  The real /proc/self's are
 * used by ltruss itself (tests/tracefile.bats runs it in a cgroup).
 */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bin/util/cpu-quota.h"
#include "tests/unit/tap.h"

static char top[] = "/tmp/ltruss-quota-test.XXXXXX";
static char mountinfo[PATH_MAX], cgroup[PATH_MAX];

/* Write text to top/path (printf-style path), making its directories. */
static void put(const char *text, const char *fmt, ...)
{
	char path[PATH_MAX], *p;
	va_list ap;
	FILE *f;
	int n;

	n = snprintf(path, sizeof(path), "%s/", top);
	va_start(ap, fmt);
	vsnprintf(path + n, sizeof(path) - (size_t)n, fmt, ap);
	va_end(ap);
	for (p = path + strlen(top) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* The mountinfo line of a cgroup mount: root in the hierarchy, at top/dir. */
static void mount_line(FILE *f, const char *root, const char *dir,
		       const char *type, const char *super)
{
	fprintf(f, "40 30 0:35 %s %s/%s rw,nosuid,nodev - %s %s rw,%s\n",
		root, top, dir, type, type, super);
}

/*
 * Start a new tree: one cgroup mount (root in the hierarchy, at top/dir;
 * more with mount_line(f, ...)) and the cgroup file's lines; the caller
 * closes both with look().
 */
static void tree(FILE **f, FILE **g, const char *root, const char *dir,
		 const char *type, const char *super, const char *lines)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/*", top);
	if (system(cmd) != 0)
		exit(1);
	*f = fopen(mountinfo, "w");
	*g = fopen(cgroup, "w");
	if (!*f || !*g)
		exit(1);
	fprintf(*f, "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
	mount_line(*f, root, dir, type, super);
	fputs(lines, *g);
}

/* v1's quota files in top/dir: quota (a line) every 100 ms. */
static void v1_quota(const char *dir, const char *quota)
{
	put(quota, "%s/cpu.cfs_quota_us", dir);
	put("100000\n", "%s/cpu.cfs_period_us", dir);
}

/* Close the tree's two files and look the quota up. */
static void look(FILE *f, FILE *g, struct cpu_quota *q)
{
	fclose(f);
	fclose(g);
	cpu_quota_find(mountinfo, cgroup, q);
}

/* Is q's usage file top/rel? */
static bool usage_is(const struct cpu_quota *q, const char *rel)
{
	char want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/%s", top, rel);
	return strcmp(q->usage, want) == 0;
}

int main(void)
{
	struct cpu_quota q;
	uint64_t ns = 0;
	FILE *f, *g;

	if (!mkdtemp(top))
		return 1;
	snprintf(mountinfo, sizeof(mountinfo), "%s.mountinfo", top);
	snprintf(cgroup, sizeof(cgroup), "%s.cgroup", top);

	/* v2: the pod's parent limits to 1.5 cores, the container says max. */
	tree(&f, &g, "/", "v2", "cgroup2", "nsdelegate", "0::/kubepods/pod1/c1\n");
	put("max 100000\n", "v2/kubepods/pod1/c1/cpu.max");
	put("150000 100000\n", "v2/kubepods/pod1/cpu.max");
	put("usage_usec 2500\nuser_usec 2000\n", "v2/kubepods/pod1/cpu.stat");
	put("max 100000\n", "v2/kubepods/cpu.max");
	look(f, g, &q);
	tap(q.cores == 1.5 && q.v2, "v2: the parent's 150000 100000 under the container's max: 1.5 cores");
	tap(usage_is(&q, "v2/kubepods/pod1/cpu.stat"), "v2: the usage is the limiting cgroup's cpu.stat");
	tap(cpu_quota_used_ns(&q, &ns) && ns == 2500000, "v2: usage_usec 2500 is 2.5 ms");

	/* v2, the tighter of two: the container's 0.5 under the pod's 4. */
	tree(&f, &g, "/", "v2", "cgroup2", "nsdelegate", "0::/pod/c\n");
	put("50000 100000\n", "v2/pod/c/cpu.max");
	put("400000 100000\n", "v2/pod/cpu.max");
	look(f, g, &q);
	tap(q.cores == 0.5 && usage_is(&q, "v2/pod/c/cpu.stat"), "v2: the tightest quota of the path wins");
	tap(!cpu_quota_used_ns(&q, &ns), "v2: no cpu.stat: usage unknown");

	/* v2 in a cgroup namespace: the mount's root is the container's own cgroup. */
	tree(&f, &g, "/", "v2", "cgroup2", "nsdelegate", "0::/\n");
	put("200000 100000\n", "v2/cpu.max");
	look(f, g, &q);
	tap(q.cores == 2 && usage_is(&q, "v2/cpu.stat"), "v2, a cgroup namespace: the mount's own cpu.max");

	/* v2, no limit anywhere. */
	tree(&f, &g, "/", "v2", "cgroup2", "nsdelegate", "0::/user.slice\n");
	put("max 100000\n", "v2/user.slice/cpu.max");
	look(f, g, &q);
	tap(q.cores == 0 && !q.usage[0], "v2: max everywhere: no quota");

	/* v1, cpu and cpuacct mounted together; the mount's root a docker cgroup. */
	tree(&f, &g, "/docker/abc", "cpu,cpuacct", "cgroup", "cpu,cpuacct",
	     "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n");
	v1_quota("cpu,cpuacct", "200000\n");
	put("123456789\n", "cpu,cpuacct/cpuacct.usage");
	look(f, g, &q);
	tap(q.cores == 2 && !q.v2, "v1: cfs_quota_us 200000 over cfs_period_us 100000: 2 cores, v1 before the v2 line");
	tap(cpu_quota_used_ns(&q, &ns) && ns == 123456789, "v1: cpuacct.usage in ns");

	/* v1, cpu and cpuacct apart (this kind of machine): usage unknown. */
	tree(&f, &g, "/", "cpu", "cgroup", "cpu", "2:cpuacct:/\n1:cpu:/lt\n");
	mount_line(f, "/", "cpuacct", "cgroup", "cpuacct");
	v1_quota("cpu", "-1\n");
	v1_quota("cpu/lt", "100000\n");
	put("99\n", "cpuacct/cpuacct.usage");
	look(f, g, &q);
	tap(q.cores == 1 && !q.usage[0], "v1, cpuacct elsewhere: 1 core, its usage unknown (not the root's)");
	tap(!cpu_quota_used_ns(&q, &ns), "v1, cpuacct elsewhere: cpu_quota_used_ns says unknown");

	/* v1, -1 everywhere: none. */
	tree(&f, &g, "/", "cpu", "cgroup", "cpu,cpuacct",
	     "1:cpu,cpuacct:/a/b\n");
	v1_quota("cpu/a/b", "-1\n");
	v1_quota("cpu/a", "-1\n");
	look(f, g, &q);
	tap(q.cores == 0, "v1: -1 everywhere: no quota");

	/* Nonsense and missing files: no quota, no crash. */
	tree(&f, &g, "/", "v2", "cgroup2", "x",
	     "garbage\n0::\n::::\n0::/q\n");
	put("0 100000\n", "v2/q/cpu.max");
	put("-5 0\n", "v2/cpu.max");
	look(f, g, &q);
	tap(q.cores == 0, "v2: a quota of 0 or a period of 0 is none; odd lines skipped");
	cpu_quota_find("/nonexistent/mountinfo", "/nonexistent/cgroup", &q);
	tap(q.cores == 0 && !q.usage[0], "no /proc files: no quota");

	/* The path outside the mount's root (another namespace's): the mount itself. */
	tree(&f, &g, "/other", "v2", "cgroup2", "x",
	     "0::/mine/deep\n");
	put("300000 100000\n", "v2/cpu.max");
	look(f, g, &q);
	tap(q.cores == 3, "v2: a path outside the mount's root reads the mount's own");

	{
		char cmd[3 * PATH_MAX + 64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s", top, mountinfo, cgroup);
		if (system(cmd) != 0)
			return 1;
	}
	printf("1..%u\n", tap_tests);
	return tap_failures != 0;
}
