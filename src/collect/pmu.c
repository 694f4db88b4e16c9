/* Core PMU discovery from sysfs: names, perf types and the CPUs each one counts on. */
#include "config.h"
#include "collect/pmu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pmu_cmp(const void *a, const void *b)
{
	const struct pmu_core *x = a, *y = b;

	return (x->type > y->type) - (x->type < y->type);
}

/* Add the PMU in directory dir named name when it is a core PMU. */
static void pmu_consider(struct pmu_set *s, const struct sysops *ops, const char *dir,
			 const char *name)
{
	char path[4096], buf[4096];
	struct pmu_core *p;
	unsigned long type;
	char *end;
	long n;

	if (s->n == PMU_MAX || strlen(name) >= sizeof(s->pmu[0].name))
		return;
	if (snprintf(path, sizeof(path), "%s/%s/type", dir, name) >= (int)sizeof(path))
		return;
	if (sysops_read_path(ops, path, 0, buf, sizeof(buf)) <= 0)
		return;
	errno = 0;
	type = strtoul(buf, &end, 10);
	if (end == buf || errno || type > UINT32_MAX)
		return;
	p = &s->pmu[s->n];
	memset(p, 0, sizeof(*p));
	if (snprintf(path, sizeof(path), "%s/%s/cpus", dir, name) >= (int)sizeof(path))
		return;
	n = sysops_read_path(ops, path, 0, buf, sizeof(buf));
	if (n >= 0) {
		if (cpumap_parse(buf, (size_t)n, &p->cpus) || !p->cpus.n) {
			cpumap_release(&p->cpus);
			return;
		}
	} else if (!strcmp(name, "cpu")) {
		p->all_cpus = true;
	} else {
		return;
	}
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = (uint32_t)type;
	s->n++;
}

int pmu_scan(struct pmu_set *s, const struct sysops *ops, const char *sysfs)
{
	char dir[4096];
	struct dirent *de;
	DIR *d;

	ops = sysops_or_real(ops);
	pmu_set_release(s);
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", sysfs ? sysfs : "/sys");
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			pmu_consider(s, ops, dir, de->d_name);
	closedir(d);
	qsort(s->pmu, s->n, sizeof(s->pmu[0]), pmu_cmp);
	return 0;
}

void pmu_set_release(struct pmu_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		cpumap_release(&s->pmu[i].cpus);
	s->n = 0;
}

bool pmu_has_cpu(const struct pmu_set *s, size_t i, int cpu)
{
	return i < s->n && (s->pmu[i].all_cpus || cpumap_has(&s->pmu[i].cpus, cpu));
}

int pmu_of_cpu(const struct pmu_set *s, int cpu)
{
	for (size_t i = 0; i < s->n; i++)
		if (pmu_has_cpu(s, i, cpu))
			return (int)i;
	return -1;
}

const char *pmu_names(const struct pmu_set *s, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < s->n && len < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%s", i ? "+" : "", s->pmu[i].name);

		if (w < 0)
			break;
		len += (size_t)w;
	}
	return buf;
}
