/* Online-CPU map: a pure cpulist parser and the one reader of the online set. */
#include "config.h"
#include "kernel/cpumap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/proc.h"
#include "util/xalloc.h"

static int cpumap_number(const char **p, const char *end, int *out)
{
	long v = 0;
	const char *s = *p;

	if (s == end || *s < '0' || *s > '9')
		return -EINVAL;
	while (s < end && *s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		if (v > CPUMAP_MAX_CPU)
			return -EINVAL;
	}
	*p = s;
	*out = (int)v;
	return 0;
}

static void cpumap_add(struct cpumap *m, int cpu)
{
	m->cpu = xgrow(m->cpu, &m->cap, m->n + 1, sizeof(*m->cpu));
	m->cpu[m->n++] = cpu;
}

static int cpumap_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int cpumap_parse(const char *buf, size_t len, struct cpumap *m)
{
	const char *p = buf, *end = buf + len;
	size_t k = 0;

	m->n = 0;
	while (end > p && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\0'))
		end--;
	while (p < end) {
		int lo, hi;

		if (cpumap_number(&p, end, &lo))
			goto out_bad;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			if (cpumap_number(&p, end, &hi) || hi < lo)
				goto out_bad;
		}
		for (int c = lo; c <= hi; c++)
			cpumap_add(m, c);
		if (p == end)
			break;
		if (*p++ != ',' || p == end)
			goto out_bad;
	}
	if (m->n > 1) {
		/* the kernel writes them in order; a hand-made list may not be */
		qsort(m->cpu, m->n, sizeof(*m->cpu), cpumap_cmp);
		for (size_t i = 0; i < m->n; i++)
			if (!k || m->cpu[k - 1] != m->cpu[i])
				m->cpu[k++] = m->cpu[i];
		m->n = k;
	}
	return 0;
out_bad:
	m->n = 0;
	return -EINVAL;
}

/*
 * The cpuN lines of /proc/stat: the online CPUs before sysfs was asked.
 * The file is read whole (a line per CPU: past 64 KiB on a large machine).
 */
static int cpumap_from_procstat(struct cpumap *m, int procfd)
{
	struct proc_kept k;
	struct proc_cpustat *cs = NULL;
	size_t cap = 0, size = 0;
	char *buf = NULL;
	long len;
	int n;

	m->n = 0;
	proc_kept_init(&k, false);
	len = proc_kept_read_all(&k, procfd, "stat", &buf, &size);
	if (len < 0) {
		free(buf);
		return (int)len;
	}
	n = proc_parse_cpustat(buf, (size_t)len, &cs, &cap);
	for (int i = 0; i < n; i++)
		cpumap_add(m, cs[i].cpu);
	free(cs);
	free(buf);
	return n > 0 ? 0 : -ENOENT;
}

int cpumap_online_kept(struct cpumap *m, const struct sysops *ops, const char *sysfs, int procfd,
		       int *keep)
{
	char path[4096], buf[4096];
	long len;
	int fd = keep && !sysfs ? *keep : -1;

	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/online",
			 sysfs ? sysfs : "/sys");
		fd = ops->openat(ops->ctx, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return cpumap_from_procstat(m, procfd);
	len = ops->pread(ops->ctx, fd, buf, sizeof(buf) - 1, 0);
	if (keep && !sysfs && len > 0) {
		*keep = fd;
	} else {
		ops->close(ops->ctx, fd);
		if (keep && !sysfs)
			*keep = -1;
	}
	if (len <= 0 || cpumap_parse(buf, (size_t)len, m) || !m->n)
		return cpumap_from_procstat(m, procfd);
	return 0;
}

int cpumap_online(struct cpumap *m, const struct sysops *ops, const char *sysfs, int procfd)
{
	return cpumap_online_kept(m, ops, sysfs, procfd, NULL);
}

bool cpumap_has(const struct cpumap *m, int cpu)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->cpu[i] == cpu)
			return true;
	return false;
}

void cpumap_release(struct cpumap *m)
{
	free(m->cpu);
	m->cpu = NULL;
	m->n = m->cap = 0;
}
