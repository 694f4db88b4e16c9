/* Live source, --bpf: process counts from the context-switch program instead of thread groups. */
#include "config.h"
#include "collect/live.h"
#include "collect/proc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* bpfcount's steps are told by errmsg under the same numbers */
_Static_assert((int)ERRMSG_BPF_NOT_BUILT == (int)BPFCOUNT_NOT_BUILT &&
		       (int)ERRMSG_BPF_MAP == (int)BPFCOUNT_MAP &&
		       (int)ERRMSG_BPF_LOAD == (int)BPFCOUNT_LOAD &&
		       (int)ERRMSG_BPF_TEST_RUN == (int)BPFCOUNT_TEST_RUN &&
		       (int)ERRMSG_BPF_READ == (int)BPFCOUNT_READ &&
		       (int)ERRMSG_BPF_KERNEL == (int)BPFCOUNT_KERNEL,
	       "errmsg_bpf_step and bpfcount_step differ");

static void live_bpf_refuse(struct live *l, enum errmsg_bpf_step step, int err, const char *name,
			    long long n2)
{
	struct errmsg_fact f;

	errmsg_fact_set(&f, ERRMSG_BPF, err, name, l->paranoid, step);
	f.n2 = n2;
	live_tell(l, &f);
}

static void live_bpf_init(struct live *l)
{
	const struct perf_event_attr *attrs[BPFPROG_MAX_EVENTS];
	struct bpfcount_why why;
	int nev = 0, r;

	if (!l->o.bpf)
		return;
	if (l->o.no_tasks) {
		/* --cgroups with -b or --listen: no process is counted, so nothing is summed */
		live_bpf_refuse(l, ERRMSG_BPF_NO_PROCS, 0, NULL, 0);
		return;
	}
	if (l->hybrid) {
		live_bpf_refuse(l, ERRMSG_BPF_HYBRID, -EOPNOTSUPP, NULL, 0);
		return;
	}
	for (size_t k = 0; k < l->ntg; k++)
		nev += l->tg[k].nr;
	if (nev > BPFPROG_MAX_EVENTS) {
		live_bpf_refuse(l, ERRMSG_BPF_EVENTS, -E2BIG, NULL, nev);
		return;
	}
	if (!nev)
		return; /* nothing is counted per process: nothing to sum */
	l->bpf_ev = xcalloc((size_t)nev, sizeof(*l->bpf_ev));
	nev = 0;
	for (size_t k = 0; k < l->ntg; k++)
		for (int i = 0; i < l->tg[k].nr; i++) {
			attrs[nev] = live_attr(l, &l->tg[k], i);
			l->bpf_ev[nev++] = l->tg[k].ev[i];
		}
	if (cpumap_online(&l->online, l->ops, l->o.sysfs_root, l->rootfd) || !l->online.n) {
		live_bpf_refuse(l, ERRMSG_BPF_POSSIBLE, -ENOENT, NULL, 0);
		goto out_free;
	}
	r = bpfcount_open(&l->bpf, l->ops, l->o.sysfs_root, attrs, nev, l->online.cpu, l->online.n,
			  &why);
	if (r) {
		bool ev = why.step == BPFCOUNT_EVENT || why.step == BPFCOUNT_ARRAY;

		live_bpf_refuse(l, (enum errmsg_bpf_step)why.step, why.err,
				ev && why.ev >= 0 ? l->base.ev.ev[l->bpf_ev[why.ev]].name : why.log,
				why.cpu);
		goto out_free;
	}
	l->bpf_nev = nev;
	l->fds_open += bpfcount_fds(l->bpf);
	/* no thread groups: nothing to gate on, and no per-thread rows to give */
	l->gate_set = -1;
	l->base.caps &= ~(unsigned)SOURCE_CAP_THREADS;
	l->mode.bpf = true;
	errmsg_mode(l->base.mode, sizeof(l->base.mode), &l->mode);
	return;
out_free:
	free(l->bpf_ev);
	l->bpf_ev = NULL;
}

static void live_bpf_read(struct live *l)
{
	struct bpfcount_why why;
	int r;

	if (!l->bpf)
		return;
	r = bpfcount_read(l->bpf, &why);
	l->bpf_read_ns = sysops_now(l->ops);
	l->bpf_err = r;
	if (r && !l->told_bpf_read) {
		l->told_bpf_read = true;
		live_bpf_refuse(l, ERRMSG_BPF_READ, r, NULL, 0);
	}
}

/* The enabled time of the first event: it grows whenever the process runs. */
static uint64_t live_bpf_gate(const uint64_t *s)
{
	return s ? s[1] : 0;
}

/* Whether p has not run since its last full read (its sums did not move). */
static bool live_bpf_idle(struct live *l, struct live_proc *p, bool clock_only)
{
	if (p->err || !p->cnt || p->idle >= LIVE_IDLE_REFRESH || l->bpf_err || l->o.read_all)
		return false;
	if (live_bpf_gate(bpfcount_get(l->bpf, p->pid)) != p->gate)
		return false;
	p->idle++;
	return true;
}

/* p->be: the sums of p's entry when it was first seen, its zero (nev x BPFPROG_FIELDS). */
static uint64_t *live_bpf_zero(const struct live_proc *p)
{
	return p->be;
}

/*
 * Take what p's entry holds now as its zero. The entry may hold the sums of
 * an exited process whose pid p reuses, or counts from before p was listed:
 * per thread, counting starts at the attach, when the process is first
 * seen, so a first row never shows more than since then.
 */
static void live_bpf_base(struct live *l, struct live_proc *p, const uint64_t *s)
{
	size_t n = (size_t)l->bpf_nev * BPFPROG_FIELDS;
	uint64_t *base = p->be;

	if (!base)
		p->be = base = xcalloc(n ? n : 1, sizeof(*base));
	for (size_t k = 0; k < n; k++)
		base[k] = s ? s[k] : 0;
}

/*
 * Fill p's counts from its sums, kept with the enabled time of the first
 * event as the gate of the idle skip; the time of the row is the read's.
 */
static void live_bpf_fill(struct live *l, struct live_proc *p, const struct proc_stat *st,
			  const struct snapshot *snap, struct snap_count *c, uint64_t *t_ns)
{
	size_t nf = (size_t)l->bpf_nev * BPFPROG_FIELDS;
	const uint64_t *s;

	s = bpfcount_get(l->bpf, p->pid);
	if (!l->bpf_err) {
		bool behind = false;

		/* an entry below its zero was dropped and begun again: it counts from 0 */
		for (size_t k = 0; live_bpf_zero(p) && k < nf; k++)
			behind |= (s ? s[k] : 0) < live_bpf_zero(p)[k];
		if (!live_bpf_zero(p))
			live_bpf_base(l, p, s);
		else if (behind)
			live_bpf_base(l, p, NULL);
	}
	for (int j = 0; j < l->bpf_nev; j++) {
		struct snap_count *d = &c[l->bpf_ev[j]];
		const uint64_t *b = live_bpf_zero(p) ? &live_bpf_zero(p)[j * BPFPROG_FIELDS] : NULL;
		uint64_t v[BPFPROG_FIELDS];

		/* no entry: it has not run since counting began */
		for (int f = 0; f < BPFPROG_FIELDS; f++)
			v[f] = (s ? s[j * BPFPROG_FIELDS + f] : 0) - (b ? b[f] : 0);
		d->err = l->bpf_err;
		d->value = v[0];
		d->enabled = v[1];
		d->running = v[2];
	}
	/* kept for the ticks it does not run: neither its stat nor its sums move then */
	live_keep_all(l, p, c, l->bpf_err != 0);
	if (p->cnt)
		p->gate = live_bpf_gate(s);
	*t_ns = l->bpf_read_ns;
}

/* Whether pid is in the last listing of /proc (all of it, whatever -p or -u keep). */
static bool live_bpf_listed(const struct live *l, int pid)
{
	return l->nids > 0 &&
	       bsearch(&pid, l->ids, (size_t)l->nids, sizeof(*l->ids), proc_cmp_int) != NULL;
}

/* Drop the sums of processes gone, after the scan. */
static void live_bpf_sweep(struct live *l)
{
	const int *keys;
	size_t n, na = 0;
	int *absent;

	if (!l->bpf || l->bpf_err)
		return;
	keys = bpfcount_keys(l->bpf, &n);
	absent = xcalloc(n + 1, sizeof(*absent));
	/*
	 * An entry whose process /proc did not list is dropped when it was
	 * missing at the last read too: a process started between the scan and
	 * the read is not yet in the list, and keeps what it counted. Processes
	 * listed but not shown (-p, -u) keep theirs: dropped, the program would
	 * only make them again at their next switch.
	 */
	for (size_t k = 0; k < n; k++) {
		int pid = keys[k];

		/* pid 0: the idle tasks, never a row */
		if (pid == 0 || live_bpf_listed(l, pid))
			continue;
		if (l->nbpf_absent &&
		    bsearch(&pid, l->bpf_absent, l->nbpf_absent, sizeof(int), proc_cmp_int))
			bpfcount_forget(l->bpf, pid);
		else
			absent[na++] = pid;
	}
	free(l->bpf_absent);
	l->bpf_absent = absent;
	l->nbpf_absent = na;
}

static void live_bpf_free(struct live *l)
{
	if (l->bpf)
		l->fds_open -= bpfcount_fds(l->bpf);
	bpfcount_close(l->bpf);
	l->bpf = NULL;
	free(l->bpf_ev);
	free(l->bpf_absent);
}

static void live_bpf_proc_free(struct live *l, struct live_proc *p)
{
	free(p->be);
	p->be = NULL;
}

/* Load the program after the probe, or tell why not and stay per thread (0). */
static int live_bpf_choose(struct live *l, struct errmsg_fact *why)
{
	live_bpf_init(l);
	return l->bpf != NULL;
}

/* Processes only: the program sums by process, so it has no thread rows. */
const struct live_backend LIVE_BE_BPF = {
	.name = "bpf",
	.when = LIVE_BE_AT_OPEN,
	.init = live_bpf_choose,
	.tick_begin = live_bpf_read,
	.idle = live_bpf_idle,
	.fill = live_bpf_fill,
	.tick_end = live_bpf_sweep,
	.proc_free = live_bpf_proc_free,
	.free = live_bpf_free,
};
