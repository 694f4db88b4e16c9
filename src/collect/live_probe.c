/* Live source, probing: which events open here, how they group, kernel mode, the mode facts. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/events.h"
#include "util/xalloc.h"

static int live_read_int(int rootfd, const char *path, int *v)
{
	char buf[64];
	long n = proc_read_file(rootfd, path, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 ? (int)n : -EINVAL;
	if (sscanf(buf, "%d", v) != 1)
		return -EINVAL;
	return 0;
}

/* Whether kernel-mode work may be counted: a task-clock without exclude_kernel opens. */
static bool live_kernel_permitted(struct live *l)
{
	struct perf_event_attr a;
	const struct perf_event_attr *ap = &a;
	struct counters_group g;
	int ev = 0, bad;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	if (counters_open_group(&g, l->ops, &ap, &ev, 1, 0, -1, 0, &bad))
		return false;
	counters_close_group(&g);
	return true;
}

/* Open a with one change to a task-clock on ourselves; 0 or -errno. */
static int live_try_attr(struct live *l, const struct perf_event_attr *base, unsigned inherit_thread,
			 uint64_t read_format)
{
	struct perf_event_attr a = *base;
	int fd;

	perf_compat_set_inherit_thread(&a, inherit_thread);
	a.read_format = read_format;
	fd = sysops_perf_open(l->ops, &a, 0, -1, -1);
	if (fd < 0)
		return fd;
	l->ops->close(l->ops->ctx, fd);
	return 0;
}

/*
 * Attributes newer than the oldest kernel pmctop runs on (5.10), probed
 * once as perf does: one the kernel refuses while the same event opens
 * without it is dropped, instead of failing every open later.
 */
static void live_probe_features(struct live *l)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.inherit = 1;
	a.exclude_kernel = !l->kernel;
	a.exclude_hv = 1;
	if (live_try_attr(l, &a, 0, 0))
		return;	/* nothing opens: the probes of the events say why */
	/* inherit_thread (5.13): else forked children count in their parent's row */
	if (live_try_attr(l, &a, 1, 0) == -EINVAL) {
		l->cflags |= COUNTERS_NO_INHERIT_THREAD;
		live_tell_err(l, ERRMSG_NO_INHERIT_THREAD, -EINVAL, "inherit_thread", 0);
	}
	/* PERF_FORMAT_LOST (6.0): the sampler's count of dropped samples */
	a.inherit = 0;
	if (live_try_attr(l, &a, 0, PERF_FORMAT_LOST) == -EINVAL)
		l->no_format_lost = true;
}

/* Try one group definition on ourselves; 0 or -errno with *bad the failing member. */
static int live_try_group(struct live *l, const int *ev, int nr, int pid, int cpu, unsigned flags,
			  int *bad)
{
	const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
	struct counters_group g;
	int r;

	for (int i = 0; i < nr; i++)
		a[i] = &l->attr[ev[i]];
	r = counters_open_group(&g, l->ops, a, ev, nr, pid, cpu, flags | l->cflags, bad);
	if (!r)
		counters_close_group(&g);
	return r;
}

/*
 * Find what this kernel and PMU accept: members that fail alone are marked
 * unsupported; a group that still fails whole (more events than counters)
 * is split into single events.
 */
static void live_probe_groups(struct live *l)
{
	struct evlist *ev = &l->base.ev;
	int ngroups = ev->ngroups;

	for (int g = 0; g < ngroups; g++) {
		int mem[COUNTERS_MAX_GROUP], nr = 0, bad, r, keep = 0;

		for (size_t i = 0; i < ev->n && nr < COUNTERS_MAX_GROUP; i++)
			if (ev->ev[i].group == g && !ev->ev[i].err)
				mem[nr++] = (int)i;
		if (!nr)
			continue;
		r = live_try_group(l, mem, nr, 0, -1, COUNTERS_INHERIT, &bad);
		if (!r)
			continue;
		for (int i = 0; i < nr; i++) {
			int one = mem[i];

			r = live_try_group(l, &one, 1, 0, -1, COUNTERS_INHERIT, &bad);
			if (r)
				ev->ev[one].err = r;
			else
				mem[keep++] = one;
		}
		if (keep > 1 && live_try_group(l, mem, keep, 0, -1, COUNTERS_INHERIT, &bad)) {
			for (int i = 1; i < keep; i++)
				ev->ev[mem[i]].group = ev->ngroups++;
		}
	}
}

static void live_build_gdefs(struct live *l, struct live_gdef **out, size_t *nout, bool for_cpu)
{
	const struct evlist *ev = &l->base.ev;

	*out = xcalloc((size_t)ev->ngroups + 1, sizeof(**out));
	*nout = 0;
	for (int g = 0; g < ev->ngroups; g++) {
		struct live_gdef *d = &(*out)[*nout];

		d->nr = 0;
		for (size_t i = 0; i < ev->n && d->nr < COUNTERS_MAX_GROUP; i++) {
			if (ev->ev[i].group != g || ev->ev[i].err)
				continue;
			if (for_cpu && ev->ev[i].role == EV_TASK_CLOCK)
				continue;
			d->ev[d->nr++] = (int)i;
		}
		if (d->nr)
			(*nout)++;
	}
}

/* The mode facts, the software-only fact, and one fact per event that cannot be counted. */
static void live_describe(struct live *l)
{
	const struct evlist *ev = &l->base.ev;
	int pmu_counters = 0;
	const char *pmu = events_hw_pmu(&pmu_counters);

	memset(&l->mode, 0, sizeof(l->mode));
	l->mode.kernel = l->kernel;
	snprintf(l->mode.pmu, sizeof(l->mode.pmu), "%s", pmu ? pmu : "");
	for (size_t i = 0; i < ev->n; i++) {
		if (!ev->ev[i].hw)
			continue;
		l->mode.hw_asked = true;
		if (ev->ev[i].err && !l->mode.why.err)
			errmsg_fact_set(&l->mode.why, ERRMSG_EVENT, ev->ev[i].err, ev->ev[i].name,
					l->paranoid, 0);
	}
	l->mode.hw = evlist_any_hw(ev);
	errmsg_mode(l->base.mode, sizeof(l->base.mode), &l->mode);
	if (!l->mode.hw && l->mode.hw_asked)
		live_tell_err(l, ERRMSG_NO_PMU, l->mode.why.err, l->mode.why.name, 0);
	for (size_t i = 0; i < ev->n; i++) {
		if (!ev->ev[i].err || (!ev->ev[i].user && ev->ev[i].hw))
			continue;
		live_tell_err(l, ERRMSG_EVENT, ev->ev[i].err, ev->ev[i].name, 0);
	}
}

int live_probe(struct live *l, const struct evlist *req, struct errmsg_fact *why)
{
	bool any = false;

	if (live_read_int(l->rootfd, "sys/kernel/perf_event_paranoid", &l->paranoid))
		l->paranoid = -2;
	l->kernel = live_kernel_permitted(l);
	live_probe_features(l);
	evlist_copy(&l->base.ev, req);
	l->attr = xcalloc(req->n ? req->n : 1, sizeof(*l->attr));
	for (size_t i = 0; i < req->n; i++) {
		bool hw;
		int r = events_encode(req->ev[i].name, l->kernel, &l->attr[i], &hw);

		if (r) {
			l->base.ev.ev[i].err = r;
			continue;
		}
		l->base.ev.ev[i].hw = hw;
		/* kernel registers only: read 0 in user mode, never a count */
		if (!l->kernel && req->ev[i].role == EV_MIGRATIONS)
			l->base.ev.ev[i].err = -EACCES;
		/* time spent in a hypervisor is not the task's */
		l->attr[i].exclude_hv = 1;
	}
	live_probe_groups(l);
	if (!l->kernel && req->role_idx[EV_CTX_SWITCHES] >= 0)
		live_tell_err(l, ERRMSG_USER_SWITCHES, -EACCES, "context-switches", 0);
	for (size_t i = 0; i < l->base.ev.n; i++)
		any |= !l->base.ev.ev[i].err;
	if (!any) {
		errmsg_fact_set(why, ERRMSG_NO_EVENT, l->base.ev.n ? l->base.ev.ev[0].err : -ENOENT,
				l->base.ev.n ? l->base.ev.ev[0].name : "", l->paranoid, 0);
		return why->err;
	}
	live_build_gdefs(l, &l->tg, &l->ntg, false);
	live_build_gdefs(l, &l->cg, &l->ncg, true);
	l->tmp = xcalloc(l->base.ev.n, sizeof(*l->tmp));
	for (size_t k = 0; k < l->ntg; k++)
		l->set_fds += (size_t)l->tg[k].nr;
	live_describe(l);
	return 0;
}
