/* Live source, probing: which events open here, how they group, kernel mode, the mode facts. */
#include "config.h"
#include "collect/live.h"
#include "collect/virt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/events.h"
#include "kernel/evspec.h"
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

/* A cycles event, steered to core PMU p when hybrid. */
static void live_cycles_attr(const struct live *l, size_t p, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	if (l->hybrid)
		a->config |= (uint64_t)l->pmus.pmu[p].type << 32;
	a->exclude_kernel = !l->kernel;
	a->exclude_hv = 1;
}

/*
 * The most cycles events one group of ours takes: the kernel checks a new
 * group against an empty PMU (x86 and arm_pmu validate_group) and refuses
 * one that can never fit with EINVAL. 0 when cycles do not open at all or
 * no limit shows (a PMU that does not validate).
 */
static int live_group_limit(struct live *l, size_t p)
{
	const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
	struct perf_event_attr cyc;
	int ev[COUNTERS_MAX_GROUP] = { 0 }, bad;

	live_cycles_attr(l, p, &cyc);
	for (int i = 0; i < COUNTERS_MAX_GROUP; i++)
		a[i] = &cyc;
	for (int n = 1; n <= COUNTERS_MAX_GROUP; n++) {
		struct counters_group g;

		if (counters_open_group(&g, l->ops, a, ev, n, 0, -1, 0, &bad))
			return n - 1;
		counters_close_group(&g);
	}
	return 0;
}

/*
 * Whether a pinned group of n cycles events gets onto the PMU while we run:
 * validation ignores what others hold (the NMI watchdog keeps one counter
 * pinned on every CPU), scheduling does not.
 */
static bool live_group_runs(struct live *l, size_t p, int n)
{
	const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
	struct perf_event_attr cyc;
	int ev[COUNTERS_MAX_GROUP] = { 0 }, bad, r;
	struct counters_group g;
	volatile unsigned long spin = 0;

	live_cycles_attr(l, p, &cyc);
	for (int i = 0; i < n; i++)
		a[i] = &cyc;
	if (counters_open_group(&g, l->ops, a, ev, n, 0, -1, COUNTERS_PINNED, &bad))
		return false;
	/* run a little: a tick at least, so that the group is scheduled in */
	for (unsigned long i = 0; i < 2000000; i++)
		spin += i;
	r = counters_read_group(&g, l->tmp);
	counters_close_group(&g);
	return !r && l->tmp[0].running > 0;
}

/*
 * How many hardware counters a group of ours can have and how many are
 * free of other users, the least over the core PMUs; then the budget: the
 * per-CPU sets keep the cycles group (the core pane's GHz and IPC) when
 * that leaves a ratio pair for the processes and does not by itself make
 * the processes' events time-share, and task groups are cut to what is
 * left, since the kernel serves the per-CPU groups first. With thread rows
 * a running thread carries its own set and its process's: both count.
 */
static void live_budget(struct live *l)
{
	const struct evlist *ev = &l->base.ev;
	int cyc = -1, task = 0;

	l->counters = 0;
	l->counters_free = 0;
	for (size_t p = 0; p < (l->hybrid ? l->pmus.n : 1); p++) {
		int n = live_group_limit(l, p), nf = n;

		while (nf > 1 && !live_group_runs(l, p, nf))
			nf--;
		if (!l->counters || (n && n < l->counters))
			l->counters = n;
		if (!l->counters_free || (nf && nf < l->counters_free))
			l->counters_free = nf;
	}
	l->cpu_hw = 0;
	l->task_cap = l->counters_free;
	if (!l->counters_free || !l->o.per_cpu)
		return;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->ev[i].role == EV_CYCLES && live_opens(l, i))
			cyc = ev->ev[i].group;
	if (cyc < 0)
		return;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->ev[i].group == cyc && ev->ev[i].hw && live_opens(l, i))
			l->cpu_hw++;
	for (size_t i = 0; i < ev->n; i++)
		task += ev->ev[i].hw && live_opens(l, i);
	if (l->o.threads)
		task *= 2;
	if (l->counters_free - l->cpu_hw < 2 ||
	    (task > l->counters_free - l->cpu_hw && task <= l->counters_free))
		l->cpu_hw = 0;
	l->task_cap = l->counters_free - l->cpu_hw;
}

/* Cut hardware groups larger than the budget into groups that fit, in order. */
static void live_fit_groups(struct live *l)
{
	struct evlist *ev = &l->base.ev;
	int ngroups = ev->ngroups;

	if (l->task_cap <= 0)
		return;
	for (int g = 0; g < ngroups; g++) {
		int nhw = 0, cur = g;

		for (size_t i = 0; i < ev->n; i++) {
			if (ev->ev[i].group != g || !live_opens(l, i) || !ev->ev[i].hw)
				continue;
			if (nhw && nhw % l->task_cap == 0)
				cur = ev->ngroups++;
			ev->ev[i].group = cur;
			nhw++;
		}
	}
}

bool live_opens(const struct live *l, size_t i)
{
	return !l->base.ev.ev[i].err && l->same[i] < 0;
}

/*
 * An -e event that encodes as a built-in one (-e instructions, -e
 * cpu-cycles) is not opened a second time: it shows the built-in counter.
 * Modifiers are part of the identity: -e instructions:k is a counter of its
 * own, never the built-in instructions (which count user mode too).
 */
static void live_find_same(struct live *l)
{
	const struct evlist *ev = &l->base.ev;

	l->same = xcalloc(ev->n ? ev->n : 1, sizeof(*l->same));
	for (size_t i = 0; i < ev->n; i++) {
		const struct perf_event_attr *a = &l->attr[i];

		l->same[i] = -1;
		if (!ev->ev[i].user || ev->ev[i].err)
			continue;
		for (size_t j = 0; j < ev->n; j++) {
			const struct perf_event_attr *b = &l->attr[j];

			if (ev->ev[j].user || ev->ev[j].err || !counters_attr_same(a, b))
				continue;
			l->same[i] = (int)j;
			break;
		}
	}
}

void live_copy_same(const struct live *l, struct snapshot *snap)
{
	for (size_t i = 0; i < l->base.ev.n; i++) {
		int j = l->same[i];

		if (j < 0)
			continue;
		for (size_t t = 0; t < snap->ntasks; t++)
			snap->tasks[t].c[i] = snap->tasks[t].c[j];
		for (size_t c = 0; c < snap->ncpus; c++)
			snap->cpus[c].c[i] = snap->cpus[c].c[j];
		for (size_t g = 0; g < snap->cg.n; g++)
			snap->cg.v[g].c[i] = snap->cg.v[g].c[j];
	}
}

/* Open a with one change to a task-clock on ourselves; 0 or -errno. */
static int live_try_attr(struct live *l, const struct perf_event_attr *base,
			 unsigned inherit_thread, uint64_t read_format)
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
		return; /* nothing opens: the probes of the events say why */
	/* inherit_thread (5.13): else forked children count in their parent's row */
	if (live_try_attr(l, &a, 1, 0) == -EINVAL) {
		l->cflags |= COUNTERS_NO_INHERIT_THREAD;
		live_tell_err(l, FACT_NO_INHERIT_THREAD, -EINVAL, "inherit_thread");
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

/* Mark the hardware events that fail alone, so the budget counts only what opens. */
static void live_probe_events(struct live *l)
{
	struct evlist *ev = &l->base.ev;

	for (size_t i = 0; i < ev->n; i++) {
		int one = (int)i, bad, r;

		if (!ev->ev[i].hw || !live_opens(l, i))
			continue;
		r = live_try_group(l, &one, 1, 0, -1, COUNTERS_INHERIT, &bad);
		if (r)
			ev->ev[i].err = r;
	}
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
			if (ev->ev[i].group == g && live_opens(l, i))
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

const struct perf_event_attr *live_attr(const struct live *l, const struct live_gdef *d, int m)
{
	int e = d->ev[m];

	return d->pmu >= 0 ? &l->pattr[(size_t)d->pmu * l->base.ev.n + (size_t)e] : &l->attr[e];
}

/* A generic hardware event: one the extended type can steer to a core PMU. */
static bool live_generic_hw(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE;
}

/*
 * Several core PMUs (hybrid x86, big.LITTLE arm64): a legacy per-task event
 * counts on one of them only, so each generic event gets a copy per PMU with
 * its type in the upper config bits (the extended type, 5.13+ on x86). Kept
 * when the kernel takes a cycles event so steered to each PMU.
 */
static void live_setup_hybrid(struct live *l)
{
	size_t nev = l->base.ev.n;
	struct perf_event_attr a;
	const struct perf_event_attr *ap = &a;
	int ev = 0, bad;

	if (l->pmus.n < 2)
		return;
	for (size_t p = 0; p < l->pmus.n; p++) {
		struct counters_group g;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_CPU_CYCLES | (uint64_t)l->pmus.pmu[p].type << 32;
		a.exclude_kernel = !l->kernel;
		a.exclude_hv = 1;
		if (counters_open_group(&g, l->ops, &ap, &ev, 1, 0, -1, 0, &bad))
			return;
		counters_close_group(&g);
	}
	l->hybrid = true;
	l->pattr = xcalloc(l->pmus.n * (nev ? nev : 1), sizeof(*l->pattr));
	for (size_t p = 0; p < l->pmus.n; p++) {
		for (size_t e = 0; e < nev; e++) {
			struct perf_event_attr *d = &l->pattr[p * nev + e];

			*d = l->attr[e];
			if (live_generic_hw(d))
				d->config = (d->config & 0xffffffffull) |
					    (uint64_t)l->pmus.pmu[p].type << 32;
		}
	}
}

/* Whether type is that of a core PMU, or one of the kernel's generic hardware types. */
static bool live_core_type(const struct live *l, uint32_t type)
{
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW)
		return true;
	for (size_t p = 0; p < l->pmus.n; p++)
		if (l->pmus.pmu[p].type == type)
			return true;
	return false;
}

/*
 * On several core PMUs, a hardware event that is not opened once per PMU
 * (a PMU's own event, a raw code, or any event when the kernel refuses the
 * extended type) counts on one of them only: say which, once.
 */
static void live_tell_one_pmu(struct live *l)
{
	const struct evlist *ev = &l->base.ev;

	if (l->pmus.n < 2)
		return;
	for (size_t i = 0; i < ev->n; i++) {
		const struct perf_event_attr *a = &l->attr[i];
		struct fact f;
		size_t on = 0;

		if (!ev->ev[i].hw || !live_opens(l, i) || (l->hybrid && live_generic_hw(a)))
			continue;
		/* a generic or raw event lands on the first core PMU that takes it */
		for (size_t p = 0; p < l->pmus.n; p++)
			if (l->pmus.pmu[p].type == a->type)
				on = p;
		fact_set(&f, FACT_ONE_PMU, 0, ev->ev[i].name, l->paranoid);
		f.one_pmu.no_extended = live_generic_hw(a);
		snprintf(f.one_pmu.pmu, sizeof(f.one_pmu.pmu), "%s", l->pmus.pmu[on].name);
		live_tell(l, &f);
	}
}

/* Whether group g is to be opened once per core PMU: generic hardware events only. */
static bool live_per_pmu(const struct live *l, int g)
{
	const struct evlist *ev = &l->base.ev;
	bool any = false;

	if (!l->hybrid)
		return false;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->ev[i].group != g || !live_opens(l, i) ||
		    l->attr[i].type == PERF_TYPE_SOFTWARE)
			continue;
		if (!live_generic_hw(&l->attr[i]))
			return false;
		any = true;
	}
	return any;
}

/* Whether group g has hardware events beyond the per-CPU budget. */
static bool live_cpu_over_budget(const struct live *l, int g)
{
	const struct evlist *ev = &l->base.ev;
	bool hw = false, cyc = false;

	if (!l->counters_free)
		return false;
	for (size_t i = 0; i < ev->n; i++) {
		if (ev->ev[i].group != g || !live_opens(l, i))
			continue;
		hw |= ev->ev[i].hw;
		cyc |= ev->ev[i].role == EV_CYCLES;
	}
	return hw && (!cyc || !l->cpu_hw);
}

static void live_build_gdefs(struct live *l, struct live_gdef **out, size_t *nout, bool for_cpu)
{
	const struct evlist *ev = &l->base.ev;
	size_t npmu = l->pmus.n ? l->pmus.n : 1;

	*out = xcalloc(((size_t)ev->ngroups + 1) * npmu, sizeof(**out));
	*nout = 0;
	for (int g = 0; g < ev->ngroups; g++) {
		struct live_gdef *d = &(*out)[*nout];
		int copies = live_per_pmu(l, g) ? (int)l->pmus.n : 1;

		d->nr = 0;
		d->pmu = -1;
		if (for_cpu && live_cpu_over_budget(l, g))
			continue;
		for (size_t i = 0; i < ev->n && d->nr < COUNTERS_MAX_GROUP; i++) {
			if (ev->ev[i].group != g || !live_opens(l, i))
				continue;
			if (for_cpu && ev->ev[i].role == EV_TASK_CLOCK)
				continue;
			d->ev[d->nr++] = (int)i;
		}
		if (!d->nr)
			continue;
		if (copies > 1)
			d->pmu = 0;
		(*nout)++;
		for (int p = 1; p < copies; p++) {
			(*out)[*nout] = *d;
			(*out)[(*nout)++].pmu = p;
		}
	}
}

/*
 * PMCTOP_SIM_GROUPS=N: the software group is followed by N - 1 groups of two
 * of its own events, opened, enabled and read on every thread like the
 * hardware ratio pairs of a real PMU and never summed, so that the cost of
 * such a layout can be measured on a machine without a PMU.
 */
static void live_add_sim_groups(struct live *l)
{
	size_t sw = l->ntg;

	for (size_t k = 0; k < l->ntg && sw == l->ntg; k++) {
		bool hw = false;

		for (int m = 0; m < l->tg[k].nr; m++)
			hw |= l->base.ev.ev[l->tg[k].ev[m]].hw;
		if (!hw)
			sw = k;
	}
	if (sw == l->ntg || l->sim_groups < 2)
		return;
	l->tg = xrealloc(l->tg, (l->ntg + (size_t)l->sim_groups) * sizeof(*l->tg));
	for (int i = 1; i < l->sim_groups; i++) {
		struct live_gdef *d = &l->tg[l->ntg++];

		*d = l->tg[sw];
		d->nr = d->nr < 2 ? d->nr : 2;
		d->sim = true;
	}
}

/* The hardware events among the members of d. */
static int live_gdef_hw(const struct live *l, const struct live_gdef *d)
{
	int n = 0;

	for (int m = 0; m < d->nr; m++)
		n += l->base.ev.ev[d->ev[m]].hw;
	return n;
}

static void live_gdef_append(struct live_gdef *to, const struct live_gdef *from)
{
	for (int m = 0; m < from->nr; m++)
		to->ev[to->nr++] = from->ev[m];
}

/*
 * Fewer groups per thread, so fewer reads a tick: the hardware groups,
 * each kept whole (a ratio's pair stays together), are packed in order into
 * as few groups as hold pack_cap hardware events each (what the PMU gives a
 * task group); and where they all fit one group, the software group rides
 * in it (the kernel moves a group with a hardware leader to the hardware
 * context), making one group and one read a thread. Where the hardware
 * groups time-share the counters the software group stays apart: in a
 * group off the PMU it would stop counting, and its exact counts would
 * become estimates. Not on hybrid machines, whose hardware groups are
 * copied per core PMU (a software event in each copy would count twice).
 */
static void live_pack_task_groups(struct live *l)
{
	struct live_gdef *out;
	size_t no = 0, nhw;

	if (l->hybrid || l->pack_cap <= 0 || l->ntg < 2)
		return;
	out = xcalloc(l->ntg, sizeof(*out));
	for (size_t k = 0; k < l->ntg; k++) {
		int hw = live_gdef_hw(l, &l->tg[k]);
		size_t j;

		if (!hw)
			continue;
		for (j = 0; j < no; j++)
			if (live_gdef_hw(l, &out[j]) + hw <= l->pack_cap &&
			    out[j].nr + l->tg[k].nr <= COUNTERS_MAX_GROUP)
				break;
		if (j == no)
			out[no++] = l->tg[k];
		else
			live_gdef_append(&out[j], &l->tg[k]);
	}
	nhw = no;
	for (size_t k = 0; k < l->ntg; k++) {
		if (live_gdef_hw(l, &l->tg[k]))
			continue;
		if (nhw == 1 && out[0].nr + l->tg[k].nr <= COUNTERS_MAX_GROUP)
			live_gdef_append(&out[0], &l->tg[k]);
		else
			out[no++] = l->tg[k];
	}
	free(l->tg);
	l->tg = out;
	l->ntg = no;
}

/* The group holding task-clock among n definitions, else 0; -1 when there is no gate. */
static int live_gate_of(const struct live *l, const struct live_gdef *tg, size_t n)
{
	if (l->o.read_all || (l->cflags & COUNTERS_NO_INHERIT_THREAD) || !n)
		return -1;
	for (size_t k = 0; k < n; k++)
		for (int m = 0; m < tg[k].nr; m++)
			if (!tg[k].sim && l->base.ev.ev[tg[k].ev[m]].role == EV_TASK_CLOCK)
				return (int)k;
	return 0;
}

/*
 * The software groups alone, as asked for (not ridden in a hardware group):
 * the sets of processes outside the hardware top. None when no hardware
 * event is counted, or no software one.
 */
static void live_build_sw_groups(struct live *l)
{
	bool hw = false;

	free(l->sw);
	l->sw = xcalloc(l->ntg + 1, sizeof(*l->sw));
	l->nsw = l->sw_fds = 0;
	for (size_t k = 0; k < l->ntg; k++) {
		if (live_gdef_hw(l, &l->tg[k])) {
			hw = true;
			continue;
		}
		l->sw[l->nsw++] = l->tg[k];
		l->sw_fds += (size_t)l->tg[k].nr;
	}
	if (!hw)
		l->nsw = l->sw_fds = 0;
	l->sw_gate = live_gate_of(l, l->sw, l->nsw);
}

/*
 * With simulated hardware groups and no real hardware event, the sets of
 * processes outside the hardware top are the real software groups alone,
 * as on a PMU: so a machine short of descriptors gives the busiest
 * processes the whole simulated layout and the rest the software group,
 * instead of leaving processes uncounted, and the simulation's cost is that
 * of a real PMU's fallback too.
 */
static void live_build_sim_lite(struct live *l)
{
	bool sim = false;

	for (size_t k = 0; k < l->ntg; k++)
		sim |= l->tg[k].sim;
	if (l->nsw || !sim)
		return;
	for (size_t k = 0; k < l->ntg; k++) {
		if (l->tg[k].sim)
			continue;
		l->sw[l->nsw++] = l->tg[k];
		l->sw_fds += (size_t)l->tg[k].nr;
	}
	l->sw_gate = live_gate_of(l, l->sw, l->nsw);
}

void live_build_task_groups(struct live *l)
{
	free(l->tg);
	live_build_gdefs(l, &l->tg, &l->ntg, false);
	live_build_sw_groups(l);
	live_pack_task_groups(l);
	live_add_sim_groups(l);
	live_build_sim_lite(l);
	l->set_fds = 0;
	for (size_t k = 0; k < l->ntg; k++)
		l->set_fds += (size_t)l->tg[k].nr;
	l->slots = l->ntg > l->nsw ? l->ntg : l->nsw;
	free(l->tg_en);
	l->tg_en = xcalloc(4 * l->ntg + 1, sizeof(*l->tg_en));
	l->tg_run = l->tg_en + l->ntg;
	l->tg_en0 = l->tg_run + l->ntg;
	l->tg_run0 = l->tg_en0 + l->ntg;
	free(l->tg_starved);
	l->tg_starved = xcalloc(l->ntg + 1, sizeof(*l->tg_starved));
	/*
	 * A task that did not run counted nothing: the enabled time of one of
	 * its groups tells (a task's events are enabled only while it runs,
	 * whether or not they got a counter), so the other groups of an idle
	 * process need not be read. The group holding task-clock is the gate
	 * where there is one. Not where forked children count in their
	 * parent's row (no inherit_thread): their time is not the parent's.
	 */
	l->gate_set = live_gate_of(l, l->tg, l->ntg);
}

/* The mode facts, the software-only fact, and one fact per event that cannot be counted. */
static void live_describe(struct live *l)
{
	const struct evlist *ev = &l->base.ev;
	const char *pmu = events_hw_pmu(NULL);

	memset(&l->mode, 0, sizeof(l->mode));
	l->mode.kernel = l->kernel;
	/* the kernel's names first: libpfm4 may know no table for this CPU, or the wrong one */
	if (l->pmus.n)
		pmu_names(&l->pmus, l->mode.pmu, sizeof(l->mode.pmu));
	else
		snprintf(l->mode.pmu, sizeof(l->mode.pmu), "%s", pmu ? pmu : "");
	for (size_t i = 0; i < ev->n; i++) {
		if (!ev->ev[i].hw)
			continue;
		l->mode.hw_asked = true;
		if (ev->ev[i].err && !l->mode.why.err) {
			l->mode.why.err = ev->ev[i].err;
			snprintf(l->mode.why.name, sizeof(l->mode.why.name), "%s", ev->ev[i].name);
			l->mode.why.paranoid = l->paranoid;
		}
	}
	l->mode.hw = evlist_any_hw(ev);
	l->mode.counters = l->counters;
	l->mode.counters_free = l->counters_free;
	l->mode.watchdog = l->watchdog;
	l->mode.cpu_hw = l->cpu_hw;
	l->mode.thread_sets = l->o.threads;
	l->mode.proc = l->be->counts == FACT_COUNTS_PROC;
	l->mode.bpf = l->be->counts == FACT_COUNTS_BPF;
	l->mode.per_task = l->be->counts == FACT_COUNTS_PERF;
	for (size_t k = 0; k < l->ntg; k++)
		for (int m = 0; m < l->tg[k].nr; m++)
			if (ev->ev[l->tg[k].ev[m]].hw && l->tg[k].pmu <= 0)
				l->mode.task_hw++;
	errmsg_mode(l->base.mode, sizeof(l->base.mode), &l->mode);
	if (!l->mode.hw && l->mode.hw_asked) {
		struct fact f;

		fact_set(&f, FACT_NO_PMU, l->mode.why.err, l->mode.why.name, l->paranoid);
		virt_detect(l->ops, l->o.proc_root, l->o.sysfs_root, l->o.kmsg, &f.virt);
		live_tell(l, &f);
	}
	for (size_t i = 0; i < ev->n; i++) {
		if (!ev->ev[i].err || (!ev->ev[i].user && ev->ev[i].hw))
			continue;
		live_tell_err(l, FACT_EVENT, ev->ev[i].err, ev->ev[i].name);
	}
}

void live_probe(struct live *l, const struct evlist *req)
{
	if (live_read_int(l->rootfd, "sys/kernel/perf_event_paranoid", &l->paranoid))
		l->paranoid = -2;
	l->kernel = live_kernel_permitted(l);
	live_probe_features(l);
	evlist_copy(&l->base.ev, req);
	l->attr = xcalloc(req->n ? req->n : 1, sizeof(*l->attr));
	l->tmp = xcalloc(req->n ? req->n : 1, sizeof(*l->tmp));
	pmu_scan(&l->pmus, l->ops, l->o.sysfs_root);
	for (size_t i = 0; i < req->n; i++) {
		enum evspec_kind kind;
		bool hw;
		int r = evspec_encode(l->ops, l->o.sysfs_root, req->ev[i].name, l->kernel,
				      &l->attr[i], &kind, &hw);

		if (r) {
			l->base.ev.ev[i].err = r;
			continue;
		}
		/* a PMU's own spelling: hardware when the PMU is a core one */
		if (kind == EVSPEC_PMU)
			hw = live_core_type(l, l->attr[i].type);
		l->base.ev.ev[i].hw = hw;
		/*
		 * kernel registers only, and tracepoints fire in the kernel: in
		 * user mode they read 0, never a count
		 */
		if (!l->kernel && (req->ev[i].role == EV_MIGRATIONS || kind == EVSPEC_TRACEPOINT))
			l->base.ev.ev[i].err = -EACCES;
		/*
		 * time spent in a hypervisor is not the task's; PMUs outside the core
		 * (msr, uncore) take no exclusion bits at all
		 */
		if (hw || l->attr[i].type == PERF_TYPE_SOFTWARE)
			l->attr[i].exclude_hv = 1;
	}
	live_find_same(l);
	live_setup_hybrid(l);
	if (live_read_int(l->rootfd, "sys/kernel/nmi_watchdog", &l->watchdog))
		l->watchdog = -1;
	live_probe_events(l);
	live_budget(l);
	/* with thread rows a running thread's set and its process's are on the PMU together */
	l->pack_cap = l->o.threads ? l->task_cap / 2 : l->task_cap;
	live_fit_groups(l);
	live_probe_groups(l);
}

int live_probe_finish(struct live *l, const struct evlist *req, struct fact *why)
{
	bool any = false;

	/* from /proc, switches include kernel mode: no workaround to tell */
	if (!l->kernel && !(l->be->flags & LIVE_BE_ALL_MODES) &&
	    req->role_idx[EV_CTX_SWITCHES] >= 0)
		live_tell_err(l, FACT_USER_SWITCHES, -EACCES, "context-switches");
	for (size_t i = 0; i < l->base.ev.n; i++)
		any |= !l->base.ev.ev[i].err;
	if (!any) {
		fact_set(why, FACT_NO_EVENT, l->base.ev.n ? l->base.ev.ev[0].err : -ENOENT,
			 l->base.ev.n ? l->base.ev.ev[0].name : "", l->paranoid);
		return why->err;
	}
	live_build_task_groups(l);
	live_build_gdefs(l, &l->cg, &l->ncg, true);
	live_describe(l);
	live_tell_one_pmu(l);
	/* recordings keep the facts, not this pmctop's sentence about them */
	l->base.facts = l->mode;
	l->base.have_facts = true;
	return 0;
}
