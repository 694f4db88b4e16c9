/* Live source, CPUs: per-CPU groups on the online CPUs, following hotplug. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Tell a fact about one CPU. */
static void live_cpu_tell(struct live *l, enum fact_what what, int err, int cpu)
{
	struct fact f;

	fact_set(&f, what, err, NULL, l->paranoid)->cpu.cpu = cpu;
	live_tell(l, &f);
}

/* Open the per-CPU groups of c->cpu; permission errors are said once. */
static void live_open_cpu(struct live *l, struct live_cpu *c)
{
	c->err = 0;
	c->last_enabled = 0;
	if (!l->o.per_cpu) {
		c->err = -ENOENT;
		return;
	}
	c->g = xcalloc(l->ncg ? l->ncg : 1, sizeof(*c->g));
	c->gerr = xcalloc(l->ncg ? l->ncg : 1, sizeof(*c->gerr));
	for (size_t k = 0; k < l->ncg; k++) {
		const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
		int bad;

		/* a core PMU counts on its own CPUs only (elsewhere the kernel says ENOENT) */
		if (l->cg[k].pmu >= 0 && !pmu_has_cpu(&l->pmus, (size_t)l->cg[k].pmu, c->cpu)) {
			c->gerr[k] = -ENOENT;
			continue;
		}
		for (int m = 0; m < l->cg[k].nr; m++)
			a[m] = live_attr(l, &l->cg[k], m);
		c->gerr[k] = counters_open_group(&c->g[k], l->ops, a, l->cg[k].ev, l->cg[k].nr, -1,
						 c->cpu, 0, &bad);
		if (c->gerr[k] == -EACCES || c->gerr[k] == -EPERM) {
			for (size_t j = 0; j < k; j++)
				if (!c->gerr[j])
					counters_close_group(&c->g[j]);
			c->err = c->gerr[k];
			for (size_t j = 0; j < l->ncg; j++)
				c->gerr[j] = c->err;
			break;
		}
	}
	if (c->err && !l->told_cpu) {
		l->told_cpu = true;
		live_cpu_tell(l, FACT_CPUS, c->err, c->cpu);
	}
}

static void live_close_cpu(struct live *l, struct live_cpu *c)
{
	if (c->g && !c->err)
		for (size_t k = 0; k < l->ncg; k++)
			if (!c->gerr[k])
				counters_close_group(&c->g[k]);
	free(c->g);
	free(c->gerr);
	c->g = NULL;
	c->gerr = NULL;
}

static int live_cmp_cpu(const void *a, const void *b)
{
	const struct live_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * Follow CPU hotplug through the online map. Events of a CPU that went
 * offline are detached by the kernel and never come back, so a CPU that
 * returns gets new ones.
 */
static void live_sync_cpus(struct live *l, bool quiet)
{
	const struct cpumap *on = &l->online;

	for (size_t k = 0; k < l->ncpus; k++) {
		if (cpumap_has(on, l->cpus[k].cpu))
			continue;
		live_cpu_tell(l, FACT_CPU_OFFLINE, 0, l->cpus[k].cpu);
		live_close_cpu(l, &l->cpus[k]);
		l->cpus[k] = l->cpus[--l->ncpus];
		k--;
	}
	for (size_t i = 0; i < on->n; i++) {
		bool known = false;
		struct live_cpu *c;

		for (size_t k = 0; k < l->ncpus && !known; k++)
			known = l->cpus[k].cpu == on->cpu[i];
		if (known)
			continue;
		l->cpus = xgrow(l->cpus, &l->cpucap, l->ncpus + 1, sizeof(*l->cpus));
		c = &l->cpus[l->ncpus++];
		memset(c, 0, sizeof(*c));
		c->cpu = on->cpu[i];
		live_open_cpu(l, c);
		if (!quiet)
			live_cpu_tell(l, FACT_CPU_ONLINE, 0, c->cpu);
	}
	if (l->ncpus > 1)
		qsort(l->cpus, l->ncpus, sizeof(*l->cpus), live_cmp_cpu);
}

void live_open_cpus(struct live *l)
{
	if (!cpumap_online(&l->online, l->ops, l->o.sysfs_root, l->rootfd) && l->online.n)
		live_sync_cpus(l, true);
}

void live_read_cpus(struct live *l, struct snapshot *snap)
{
	/* a last line cut short (past 16 MiB) is not parsed: its numbers would be too small */
	long len = proc_kept_read_all(&l->kstat, l->rootfd, "stat", &l->kstat_buf, &l->kstat_cap);
	int n = len > 0 ? proc_parse_cpustat(l->kstat_buf, (size_t)len, &l->cs, &l->cscap)
			: -EINVAL;

	if (!cpumap_online_kept(&l->online, l->ops, l->o.sysfs_root, l->rootfd, &l->online_fd) &&
	    l->online.n)
		live_sync_cpus(l, false);
	for (int i = 0; i < n; i++) {
		struct snap_cpu *c = snapshot_add_cpu(snap, l->cs[i].cpu);
		struct live_cpu *lc = NULL;

		c->busy = l->cs[i].busy;
		c->total = l->cs[i].total;
		for (size_t k = 0; k < l->ncpus; k++)
			if (l->cpus[k].cpu == c->cpu)
				lc = &l->cpus[k];
		/* hardware events left out of the per-CPU sets: the counters went to processes */
		for (size_t e = 0; e < l->base.ev.n; e++)
			c->c[e].err = l->base.ev.ev[e].err ? l->base.ev.ev[e].err
				      : lc && lc->err	   ? lc->err
				      : l->base.ev.ev[e].hw && l->counters_free ? -EBUSY
										: -ENOENT;
		if (!lc || lc->err)
			continue;
		for (size_t k = 0; k < l->ncg; k++) {
			int r;

			if (l->cg[k].pmu >= 0 &&
			    !pmu_has_cpu(&l->pmus, (size_t)l->cg[k].pmu, lc->cpu))
				continue; /* its events are counted by the copy of this CPU's PMU */
			r = lc->gerr[k] ? lc->gerr[k] : counters_read_group(&lc->g[k], l->tmp);

			if (k == 0 && !r) {
				uint64_t en = l->tmp[l->cg[0].ev[0]].enabled;

				/* offline and back between two ticks: the old events are dead */
				if (lc->last_enabled && en == lc->last_enabled) {
					live_cpu_tell(l, FACT_CPU_BACK, 0, lc->cpu);
					live_close_cpu(l, lc);
					live_open_cpu(l, lc);
					for (int m = 0; m < l->cg[k].nr; m++)
						c->c[l->cg[k].ev[m]].err = -ENODEV;
					break;
				}
				lc->last_enabled = en;
			}
			for (int m = 0; m < l->cg[k].nr; m++) {
				int e = l->cg[k].ev[m];

				if (r)
					c->c[e].err = r;
				else
					c->c[e] = l->tmp[e];
			}
		}
		/* the CPU's own interval: its rates are divided by the time between its reads */
		c->t_ns = sysops_now(l->ops);
	}
}

void live_cpus_free(struct live *l)
{
	for (size_t i = 0; i < l->ncpus; i++)
		live_close_cpu(l, &l->cpus[i]);
	free(l->cpus);
	free(l->cs);
	if (l->online_fd >= 0)
		l->ops->close(l->ops->ctx, l->online_fd);
	l->online_fd = -1;
	cpumap_release(&l->online);
}
