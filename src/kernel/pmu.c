/* Core PMU discovery from sysfs: names, perf types and the CPUs each one counts on. */
#include "config.h"
#include "kernel/pmu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

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

/* A small sysfs file into buf, trailing blanks cut; its length or -errno. */
static long pmu_read(const struct sysops *ops, const char *path, char *buf, size_t size)
{
	long n = sysops_read_path(ops, path, 0, buf, size);

	if (n < 0)
		return n;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return n;
}

/*
 * Put value into the field a format file names: "config:0-7", "config1:0-15",
 * "config:21", or split as "config:0-7,32-35" (the low bits of value go to
 * the first range). 0, or -EINVAL when the format is not understood or value
 * does not fit.
 */
static int pmu_set_field(struct perf_event_attr *a, const char *format, uint64_t value)
{
	const char *p = strchr(format, ':');
	size_t wl = p ? (size_t)(p - format) : 0;
	__u64 *field;

	if (!p)
		return -EINVAL;
	if (wl == 6 && !strncmp(format, "config", 6))
		field = &a->config;
	else if (wl == 7 && !strncmp(format, "config1", 7))
		field = &a->config1;
	else if (wl == 7 && !strncmp(format, "config2", 7))
		field = &a->config2;
	else
		return -EINVAL;
	for (p++; *p;) {
		unsigned lo, hi, w;
		char *end;
		uint64_t mask;

		lo = (unsigned)strtoul(p, &end, 10);
		if (end == p)
			return -EINVAL;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = (unsigned)strtoul(p, &end, 10);
			if (end == p)
				return -EINVAL;
		}
		if (hi < lo || hi > 63 || (*end && *end != ','))
			return -EINVAL;
		w = hi - lo + 1;
		mask = w == 64 ? ~0ull : (1ull << w) - 1;
		*field = (*field & ~(mask << lo)) | (value & mask) << lo;
		value = w == 64 ? 0 : value >> w;
		p = *end ? end + 1 : end;
	}
	return value ? -EINVAL : 0;
}

static int pmu_terms(const struct sysops *ops, const char *dir, const char *terms,
		     struct perf_event_attr *a, bool aliases)
{
	char copy[256], path[4096], format[64];
	char *save = NULL;

	if (snprintf(copy, sizeof(copy), "%s", terms) >= (int)sizeof(copy))
		return -EINVAL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1; /* a bare term is a flag */
		char *end;
		int r;

		if (eq) {
			*eq = '\0';
			errno = 0;
			v = strtoull(eq + 1, &end, 0);
			if (end == eq + 1 || *end || errno)
				return -EINVAL;
		}
		if (!*t || strchr(t, '/') ||
		    snprintf(path, sizeof(path), "%s/format/%s", dir, t) >= (int)sizeof(path))
			return -EINVAL;
		if (pmu_read(ops, path, format, sizeof(format)) < 0) {
			struct perf_event_attr alias;

			/* not a format term: an alias of the PMU's events, as perf takes them */
			if (eq || !aliases || pmu_alias(ops, dir, a->type, t, &alias))
				return -ENOENT;
			a->config |= alias.config;
			a->config1 |= alias.config1;
			a->config2 |= alias.config2;
			continue;
		}
		r = pmu_set_field(a, format, v);
		if (r)
			return r;
	}
	return 0;
}

int pmu_apply_terms(const struct sysops *ops, const char *dir, const char *terms,
		    struct perf_event_attr *a)
{
	return pmu_terms(sysops_or_real(ops), dir, terms, a, true);
}

int pmu_alias(const struct sysops *ops, const char *dir, uint32_t type, const char *name,
	      struct perf_event_attr *a)
{
	char path[4096], terms[256];

	ops = sysops_or_real(ops);
	if (!*name || strchr(name, '/') ||
	    snprintf(path, sizeof(path), "%s/events/%s", dir, name) >= (int)sizeof(path))
		return -ENOENT;
	if (pmu_read(ops, path, terms, sizeof(terms)) < 0)
		return -ENOENT;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	/* an alias names format terms only; one naming another alias is not followed */
	return pmu_terms(ops, dir, terms, a, false);
}

bool pmu_is_spec(const char *name)
{
	const char *slash = strchr(name, '/'), *last = strrchr(name, '/');

	/* PMU/TERMS/ and the modifiers u (user mode only) and k (kernel mode only) */
	return slash && slash != name && last != slash && !last[1 + strspn(last + 1, "uk")];
}

int pmu_encode(const struct sysops *ops, const char *sysfs, const char *spec, bool kernel,
	       struct perf_event_attr *a)
{
	char pmu[64], terms[256], dir[4096], path[4200], buf[32];
	const char *slash = strchr(spec, '/'), *mods;
	size_t pl, tl;
	unsigned long type;
	char *end;
	int r;

	ops = sysops_or_real(ops);
	if (!pmu_is_spec(spec))
		return -EINVAL;
	pl = (size_t)(slash - spec);
	mods = strrchr(spec, '/') + 1;
	tl = (size_t)(mods - 1 - (slash + 1));
	if (pl >= sizeof(pmu) || tl >= sizeof(terms) || memchr(slash + 1, '/', tl))
		return -EINVAL;
	memcpy(pmu, spec, pl);
	pmu[pl] = '\0';
	memcpy(terms, slash + 1, tl);
	terms[tl] = '\0';
	if (!strcmp(pmu, ".") || !strcmp(pmu, ".."))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s", sysfs ? sysfs : "/sys", pmu);
	snprintf(path, sizeof(path), "%s/type", dir);
	if (pmu_read(ops, path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	errno = 0;
	type = strtoul(buf, &end, 10);
	if (end == buf || *end || errno || type > UINT32_MAX)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = (uint32_t)type;
	if (*terms) {
		r = pmu_apply_terms(ops, dir, terms, a);
		if (r)
			return r;
	}
	a->exclude_kernel = !kernel || (strchr(mods, 'u') && !strchr(mods, 'k'));
	a->exclude_user = strchr(mods, 'k') && !strchr(mods, 'u');
	/* kernel mode only, where kernel mode may not be counted: nothing would count */
	if (a->exclude_user && a->exclude_kernel)
		return -EACCES;
	return 0;
}
