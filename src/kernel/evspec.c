/* Every spelling of an event to a perf_event_attr: sysfs PMUs, tracepoints, libpfm4 and perf. */
#include "config.h"
#include "kernel/evspec.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "kernel/events.h"
#include "kernel/pmu.h"
#include "util/xalloc.h"

#define EVSPEC_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."

bool evspec_is_tracepoint(const char *name)
{
	size_t sub = strspn(name, EVSPEC_NAME_CHARS), ev;

	/* "INST_RETIRED:ANY_P" has this shape too: tracefs decides, then libpfm4 */
	if (!sub || name[sub] != ':' || name[0] == '.')
		return false;
	ev = strspn(name + sub + 1, EVSPEC_NAME_CHARS);
	return ev && !name[sub + 1 + ev] && name[sub + 1] != '.';
}

/* The directory of tracefs's events under sysfs into buf: mounted, or under debugfs. */
static const char *evspec_tracefs(const char *sysfs, char *buf, size_t size)
{
	struct stat st;

	snprintf(buf, size, "%s/kernel/tracing/events", sysfs ? sysfs : "/sys");
	if (stat(buf, &st) == 0 || errno == EACCES)
		return buf;
	snprintf(buf, size, "%s/kernel/debug/tracing/events", sysfs ? sysfs : "/sys");
	return buf;
}

/* A tracepoint's id from tracefs into a; 0, -ENOENT, -EACCES or -EINVAL. */
static int evspec_tracepoint(const struct sysops *ops, const char *sysfs, const char *name,
			     bool kernel, struct perf_event_attr *a)
{
	char dir[4096], path[4400], buf[32];
	size_t sub = strcspn(name, ":");
	unsigned long long id;
	char *end;
	long n;

	evspec_tracefs(sysfs, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%.*s/%s/id", dir, (int)sub, name, name + sub + 1);
	n = sysops_read_path(sysops_or_real(ops), path, 0, buf, sizeof(buf) - 1);
	if (n < 0)
		return n == -EACCES || n == -EPERM ? -EACCES : -ENOENT;
	buf[n] = '\0';
	errno = 0;
	id = strtoull(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || errno)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = id;
	/* a tracepoint fires in the kernel: left out, it would count nothing */
	a->exclude_kernel = !kernel;
	a->sample_period = 1;
	return 0;
}

int evspec_encode(const struct sysops *ops, const char *sysfs, const char *name, bool kernel,
		  struct perf_event_attr *a, enum evspec_kind *kind, bool *hw)
{
	int r;

	*hw = false;
	if (pmu_is_spec(name)) {
		*kind = EVSPEC_PMU;
		return pmu_encode(ops, sysfs, name, kernel, a);
	}
	if (evspec_is_tracepoint(name)) {
		*kind = EVSPEC_TRACEPOINT;
		r = evspec_tracepoint(ops, sysfs, name, kernel, a);
		if (r != -ENOENT)
			return r;
	}
	*kind = EVSPEC_NAMED;
	return events_encode(name, kernel, a, hw);
}

struct evspec_names {
	char **v;
	size_t n, cap;
};

static void evspec_names_add(struct evspec_names *ns, const char *name)
{
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? 2 * ns->cap : 64;
		ns->v = xrealloc(ns->v, ns->cap * sizeof(*ns->v));
	}
	ns->v[ns->n++] = xstrdup(name);
}

static int evspec_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort, print under section, free; returns how many. */
static size_t evspec_names_print(struct evspec_names *ns, FILE *f, const char *section,
				 const char **last, const char *desc)
{
	size_t n = ns->n;

	if (n > 1)
		qsort(ns->v, n, sizeof(*ns->v), evspec_cmp);
	for (size_t i = 0; i < ns->n; i++) {
		events_list_entry(f, section, last, ns->v[i], desc);
		free(ns->v[i]);
	}
	free(ns->v);
	memset(ns, 0, sizeof(*ns));
	return n;
}

/* The kernel's named events of every PMU in sysfs, spelled PMU/EVENT/. */
static void evspec_pmu_events(const char *sysfs, const char *pattern, struct evspec_names *ns)
{
	char dir[4096], sub[4400];
	struct dirent *de, *ee;
	DIR *d, *e;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", sysfs ? sysfs : "/sys");
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/events", dir, de->d_name);
		e = opendir(sub);
		if (!e)
			continue;
		while ((ee = readdir(e)) != NULL) {
			char name[600];

			/* NAME.scale, NAME.unit and the like describe NAME */
			if (ee->d_name[0] == '.' || strchr(ee->d_name, '.'))
				continue;
			snprintf(name, sizeof(name), "%s/%s/", de->d_name, ee->d_name);
			if (events_match(name, pattern))
				evspec_names_add(ns, name);
		}
		closedir(e);
	}
	closedir(d);
}

/* Every tracepoint SUBSYSTEM:EVENT whose name contains pattern; how many there are. */
static size_t evspec_tracepoints(const char *sysfs, const char *pattern, struct evspec_names *ns)
{
	char dir[4096], sub[4400];
	struct dirent *de, *ee;
	size_t n = 0;
	DIR *d, *e;

	d = opendir(evspec_tracefs(sysfs, dir, sizeof(dir)));
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		e = opendir(sub);
		if (!e)
			continue;
		while ((ee = readdir(e)) != NULL) {
			char name[600];

			/* the subsystem's own enable and filter files are not events */
			if (ee->d_name[0] == '.' || ee->d_type != DT_DIR)
				continue;
			snprintf(name, sizeof(name), "%s:%s", de->d_name, ee->d_name);
			n++;
			if (ns && events_match(name, pattern))
				evspec_names_add(ns, name);
		}
		closedir(e);
	}
	closedir(d);
	return n;
}

size_t evspec_list(FILE *f, const char *sysfs, const char *pattern)
{
	struct evspec_names ns = { NULL, 0, 0 };
	const char *last = NULL;
	size_t n;

	n = events_list_generic(f, pattern, &last);
	evspec_pmu_events(sysfs, pattern, &ns);
	n += evspec_names_print(&ns, f, "Kernel PMU events", &last, "[Kernel PMU event]");
	n += events_list_pmus(f, pattern, &last);
	if (pattern && *pattern) {
		evspec_tracepoints(sysfs, pattern, &ns);
		n += evspec_names_print(&ns, f, "Tracepoints", &last, "[Tracepoint event]");
	} else {
		size_t tp = evspec_tracepoints(sysfs, NULL, NULL);

		if (tp)
			fprintf(f,
				"\nTracepoints: %zu, listed with a pattern "
				"(--list-events=sched: lists those of sched)\n",
				tp);
	}
	return n;
}
