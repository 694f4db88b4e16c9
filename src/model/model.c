/* The model: deltas first, then scaling, then metrics, so ratios are sound. */
#include "config.h"
#include "model/model.h"
#include "stream/source.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "model/metrics.h"
#include "util/errmsg.h"
#include "util/numfmt.h"
#include "util/parse.h"
#include "util/xalloc.h"

struct model *model_new(const struct evlist *ev)
{
	struct model *m = xcalloc(1, sizeof(*m));

	evlist_init(&m->ev);
	evlist_copy(&m->ev, ev);
	m->raw_ev = xcalloc(ev->n ? ev->n : 1, sizeof(*m->raw_ev));
	for (size_t i = 0; i < ev->n; i++)
		if (ev->ev[i].user)
			m->raw_ev[m->nraw++] = (int)i;
	snapshot_init(&m->prev, ev->n);
	m->counted_once = xcalloc(ev->n ? ev->n : 1, sizeof(*m->counted_once));
	m->evstat = xcalloc(ev->n ? ev->n : 1, sizeof(*m->evstat));
	m->sort_col = COL_CPU;
	m->uptime = -1;
	m->page_shift = 12;
	m->halflife = 2.0;
	m->clk_tck = sysconf(_SC_CLK_TCK) > 0 ? (double)sysconf(_SC_CLK_TCK) : 100.0;
	m->hp_cap = 4096;
	columns_choice_default(&m->cols);
	return m;
}

static void model_release_rows(struct model_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].cmdline);
		free(rows[i].cgroup);
		free(rows[i].raw);
		free(rows[i].raw_fl);
		free(rows[i].ev);
		free(rows[i].ev_fl);
	}
}

void model_free(struct model *m)
{
	if (!m)
		return;
	model_release_rows(m->rows, m->nrows);
	model_release_rows(m->threads, m->nthreads);
	model_release_rows(m->cpus, m->ncpus);
	model_release_rows(m->cgroups, m->ncgroups);
	free(m->filter.tree_pids);
	free(m->rows);
	free(m->threads);
	free(m->cpus);
	free(m->cgroups);
	free(m->raw_ev);
	free(m->counted_once);
	free(m->evstat);
	hotpage_free(m->hp);
	free(m->maps);
	snapshot_release(&m->prev);
	evlist_release(&m->ev);
	free(m);
}

/* Scaled deltas of every event between two count arrays (prev may be NULL). */
struct model_deltas {
	double *v;
	uint8_t *fl;	/* MODEL_F_* per event */
	double counted; /* lowest running/enabled of hardware events; NAN if none */
};

/*
 * Whether event i is a hardware event that has never counted anything while
 * the work counted so far says it should have: cycles and task-clock went
 * on, it stayed at 0 (cycles itself is judged by task-clock alone).
 */
bool model_event_suspect(const struct model *m, size_t i)
{
	const struct ev *e = &m->ev.ev[i];

	if (!e->hw || e->err || m->counted_once[i])
		return false;
	if (e->role == EV_CYCLES)
		return m->work_ns >= MODEL_SUSPECT_NS;
	return m->work_ns >= MODEL_SUSPECT_NS && m->work_cycles >= MODEL_SUSPECT_CYCLES;
}

/* Which events have counted anything, and how much work was counted, from prev to s. */
static void model_watch_work(struct model *m, const struct snapshot *s)
{
	int cyc = m->ev.role_idx[EV_CYCLES], tc = m->ev.role_idx[EV_TASK_CLOCK];

	for (size_t t = 0; t < s->ntasks; t++) {
		const struct snap_task *cur = &s->tasks[t];
		const struct snap_task *p = snapshot_find_task(&m->prev, cur->pid);

		if (!p || p->start != cur->start)
			continue;
		for (size_t i = 0; i < m->ev.n; i++) {
			const struct snap_count *a = &p->c[i], *b = &cur->c[i];

			if (a->err || b->err || b->value <= a->value)
				continue;
			m->counted_once[i] = true;
			if ((int)i == cyc)
				m->work_cycles += (double)(b->value - a->value);
			if ((int)i == tc)
				m->work_ns += (double)(b->value - a->value);
		}
	}
}

static void model_deltas(const struct model *m, const struct snap_count *prev,
			 const struct snap_count *cur, struct model_deltas *d)
{
	d->counted = NAN;
	for (size_t i = 0; i < m->ev.n; i++) {
		uint64_t dv, de, dr;

		d->fl[i] = 0;
		if (cur[i].err || (prev && prev[i].err)) {
			d->v[i] = NAN;
			continue;
		}
		if (prev && (cur[i].value < prev[i].value || cur[i].enabled < prev[i].enabled ||
			     cur[i].running < prev[i].running)) {
			/*
			 * A cumulative count that fell was reopened or lost a
			 * member: this tick's share is unknown, and the count
			 * since attach is not this tick's.
			 */
			d->v[i] = NAN;
			d->fl[i] = MODEL_F_NA;
			continue;
		}
		if (prev) {
			dv = cur[i].value - prev[i].value;
			de = cur[i].enabled - prev[i].enabled;
			dr = cur[i].running - prev[i].running;
		} else {
			dv = cur[i].value;
			de = cur[i].enabled;
			dr = cur[i].running;
		}
		bool est;

		d->v[i] = metrics_scale(dv, de, dr, &est);
		d->fl[i] = (est ? MODEL_F_EST : 0) | (de > 0 && dr == 0 ? MODEL_F_NA : 0);
		if (model_event_suspect(m, i) && dv == 0 && dr > 0)
			d->fl[i] |= MODEL_F_SUSPECT;
		if (m->ev.ev[i].hw && de > 0) {
			double frac = (double)dr / (double)de;

			if (isnan(d->counted) || frac < d->counted)
				d->counted = frac;
		}
	}
}

static double model_role(const struct model *m, const struct model_deltas *d, enum ev_role r,
			 uint8_t *fl)
{
	int i = m->ev.role_idx[r];

	if (i < 0 || m->ev.ev[i].err)
		return NAN;
	*fl |= d->fl[i];
	return d->v[i];
}

/* Fill the metric columns of row from the column table; run_ns is the time the row's tasks ran
 * (NAN: the den role, task-clock). */
static void model_metrics(const struct model *m, const struct model_deltas *d,
			  struct model_row *row, double dt_ns, double run_ns)
{
	uint8_t fl[COL_MAX] = { 0 };

	for (int c = 0; c < COL_MAX; c++) {
		const struct column *col = columns_get(c);
		uint8_t *f = &fl[c], frun = 0;
		double run;

		switch (col->calc) {
		case COL_CALC_NONE:
			break;
		case COL_CALC_RATIO:
			row->v[c] = col->scale * metrics_ratio(model_role(m, d, col->num, f),
							       model_role(m, d, col->den, f));
			break;
		case COL_CALC_WALL:
			row->v[c] =
				col->scale * metrics_ratio(model_role(m, d, col->num, f), dt_ns);
			break;
		case COL_CALC_RATE:
			row->v[c] = metrics_rate(model_role(m, d, col->num, f), dt_ns / 1e9);
			break;
		case COL_CALC_RUN:
			/* a task ran for its task-clock; a CPU for the time it was busy */
			run = isnan(run_ns) ? model_role(m, d, col->den, &frun) : run_ns;
			row->v[c] = col->scale * metrics_ratio(model_role(m, d, col->num, f), run);
			*f |= frun;
			break;
		case COL_CALC_COUNTED:
			row->v[c] = col->scale * d->counted;
			break;
		}
	}
	row->est = row->na = row->suspect = 0;
	for (int c = 0; c < COL_MAX; c++) {
		if (fl[c] & MODEL_F_EST)
			row->est |= 1u << c;
		if (fl[c] & MODEL_F_NA)
			row->na |= 1u << c;
		if (fl[c] & MODEL_F_SUSPECT)
			row->suspect |= 1u << c;
	}
	for (size_t k = 0; k < m->nraw; k++) {
		row->raw[k] = d->v[m->raw_ev[k]];
		row->raw_fl[k] = d->fl[m->raw_ev[k]];
	}
	/* kept for totals, which sum counts before dividing */
	if (row->ev != d->v) {
		memcpy(row->ev, d->v, m->ev.n * sizeof(*row->ev));
		memcpy(row->ev_fl, d->fl, m->ev.n * sizeof(*row->ev_fl));
	}
	row->counted = d->counted;
}

/* Case-insensitive substring test. */
static bool model_contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return n == 0;
}

bool model_filter_match(const struct model_filter *f, int tgid, unsigned uid, const char *user,
			const char *comm, const char *cmdline)
{
	if (f->npids) {
		const int *pids = f->tree ? f->tree_pids : f->pids;
		size_t n = f->tree ? f->ntree : f->npids;
		bool hit = false;

		for (size_t i = 0; i < n && !hit; i++)
			hit = pids[i] == tgid;
		if (!hit)
			return false;
	}
	if (f->user && *f->user) {
		char *end;
		unsigned long n = strtoul(f->user, &end, 10);

		if (strcmp(f->user, user) && (*end || n != uid))
			return false;
	}
	if (f->name && *f->name && !model_contains(comm, f->name) &&
	    !model_contains(cmdline, f->name))
		return false;
	return true;
}

bool model_filter_cgroup(const struct model_filter *f, const char *cgroup)
{
	if (!f->cgroup || !*f->cgroup)
		return true;
	return cgroup && parse_path_under(cgroup, f->cgroup);
}

bool model_wanted(const struct model *m, const struct snap_task *t)
{
	if ((t->pflags & SNAP_TASK_KTHREAD) && !m->filter.kthreads)
		return false;
	return model_filter_match(&m->filter, t->tgid, t->uid, t->user, t->comm, t->cmdline) &&
	       model_filter_cgroup(&m->filter, t->cgroup);
}

bool model_row_wanted(const struct model_filter *f, const struct model_row *r)
{
	if ((r->pflags & SNAP_TASK_KTHREAD) && !f->kthreads)
		return false;
	return model_filter_match(f, r->tgid, r->uid, r->user, r->comm, r->cmdline) &&
	       model_filter_cgroup(f, r->cgroup);
}

static struct model_row *model_new_row(const struct model *m, struct model_row **rows, size_t *n,
				       size_t *cap, int id)
{
	struct model_row *r;

	*rows = xgrow(*rows, cap, *n + 1, sizeof(**rows));
	r = &(*rows)[(*n)++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->raw = xcalloc(m->nraw ? m->nraw : 1, sizeof(*r->raw));
	r->raw_fl = xcalloc(m->nraw ? m->nraw : 1, sizeof(*r->raw_fl));
	r->ev = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*r->ev));
	r->ev_fl = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*r->ev_fl));
	for (int c = 0; c < COL_MAX; c++)
		r->v[c] = NAN;
	/* nothing measured yet: a row that is never counted shows no number, not 0 */
	for (size_t k = 0; k < m->nraw; k++)
		r->raw[k] = NAN;
	for (size_t e = 0; e < m->ev.n; e++)
		r->ev[e] = NAN;
	r->counted = NAN;
	return r;
}

/* The /proc columns of a task entry: known or NAN (recordings from before them). */
static void model_proc_cells(const struct model *m, struct model_row *r, const struct snap_task *t)
{
	r->pflags = t->pflags;
	if (!(t->pflags & SNAP_TASK_PROC))
		return;
	r->v[COL_RES] = (double)t->rss_kib;
	r->v[COL_TIME] = (double)t->cpu_ns / 1e9;
	if (m->mem_total_kib)
		r->v[COL_MEM] = 100.0 * (double)t->rss_kib / (double)m->mem_total_kib;
	if (t->pflags & SNAP_TASK_MORE) {
		r->v[COL_NI] = t->nice;
		r->v[COL_VIRT] = (double)t->virt_kib;
		r->v[COL_P] = t->processor;
	}
	if (t->pflags & SNAP_TASK_SHR)
		r->v[COL_SHR] = (double)t->shr_kib;
}

/* The identity and /proc columns of the row of entry t (everything but the counters). */
static struct model_row *model_task_row(struct model *m, struct model_row **rows, size_t *nrows,
					size_t *cap, const struct snap_task *t)
{
	struct model_row *r = model_new_row(m, rows, nrows, cap, t->pid);

	r->tgid = t->tgid;
	r->start = t->start;
	r->ppid = t->ppid;
	r->uid = t->uid;
	memcpy(r->user, t->user, sizeof(r->user));
	r->threads = t->threads;
	r->state = t->state;
	memcpy(r->comm, t->comm, sizeof(r->comm));
	r->cmdline = xstrdup(t->cmdline);
	r->cgroup = t->cgroup ? xstrdup(t->cgroup) : NULL;
	r->err = t->err;
	r->v[COL_PID] = t->pid;
	r->v[COL_THR] = t->threads;
	model_proc_cells(m, r, t);
	return r;
}

static const struct snap_cpu *model_find_cpu(const struct snapshot *s, int cpu)
{
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

/*
 * The interval of a row in ns: the time between its own two reads when the
 * source gives them (each process, CPU and cgroup is read at its own moment
 * of a tick), else the tick's.
 */
static double model_row_dt(const struct snapshot *s, uint64_t t_ns, const struct snapshot *prev,
			   uint64_t prev_t_ns, double dt_ns)
{
	uint64_t a = snapshot_read_ns(prev, prev_t_ns), b = snapshot_read_ns(s, t_ns);

	return b > a ? (double)(b - a) : dt_ns;
}

static void model_update_cpus(struct model *m, const struct snapshot *s, struct model_deltas *d,
			      double dt_ns)
{
	struct snap_count *sum_prev = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*sum_prev));
	struct snap_count *sum_cur = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*sum_cur));
	unsigned long long busy = 0, total = 0;
	size_t used = 0;
	double dt_sum = 0;
	struct model_row *r;

	for (size_t i = 0; i < s->ncpus; i++) {
		const struct snap_cpu *c = &s->cpus[i];
		const struct snap_cpu *p = model_find_cpu(&m->prev, c->cpu);
		unsigned long long db, dtot;
		double cdt;

		if (!p)
			continue;
		r = model_new_row(m, &m->cpus, &m->ncpus, &m->ccap, c->cpu);
		db = c->busy >= p->busy ? c->busy - p->busy : 0;
		dtot = c->total >= p->total ? c->total - p->total : 0;
		cdt = model_row_dt(s, c->t_ns, &m->prev, p->t_ns, dt_ns);
		r->dt = cdt / 1e9;
		dt_sum += cdt;
		model_deltas(m, p->c, c->c, d);
		/* on a CPU, GHz is cycles over the time it was busy */
		model_metrics(m, d, r, cdt, dtot ? cdt * (double)db / (double)dtot : NAN);
		/* busier than the time that passed: the data is wrong (a crafted replay), not 100 % */
		r->v[COL_CPU] = dtot && db <= dtot ? 100.0 * (double)db / (double)dtot : NAN;
		r->est &= ~(1u << COL_CPU);
		r->na &= ~(1u << COL_CPU);
		busy += db;
		total += dtot;
		for (size_t e = 0; e < m->ev.n; e++) {
			if (c->c[e].err || p->c[e].err) {
				sum_cur[e].err = c->c[e].err ? c->c[e].err : p->c[e].err;
				continue;
			}
			sum_prev[e].value += p->c[e].value;
			sum_prev[e].enabled += p->c[e].enabled;
			sum_prev[e].running += p->c[e].running;
			sum_cur[e].value += c->c[e].value;
			sum_cur[e].enabled += c->c[e].enabled;
			sum_cur[e].running += c->c[e].running;
		}
		used++;
	}
	if (used) {
		/* the total row: counts summed over CPUs, utilisation averaged */
		/* over the CPUs' own intervals, which differ by the time between their reads */
		double adt = dt_sum / (double)used;

		r = model_new_row(m, &m->cpus, &m->ncpus, &m->ccap, -1);
		r->dt = adt / 1e9;
		model_deltas(m, sum_prev, sum_cur, d);
		model_metrics(m, d, r, adt,
			      total ? adt * (double)used * (double)busy / (double)total : NAN);
		r->v[COL_CPU] = total ? 100.0 * (double)busy / (double)total : NAN;
		r->est &= ~(1u << COL_CPU);
		r->na &= ~(1u << COL_CPU);
	}
	free(sum_prev);
	free(sum_cur);
}

void model_restart(struct model *m)
{
	m->have_prev = false;
	m->sample_pid = 0;
	m->nmaps = 0;
	if (m->hp)
		hotpage_reset(m->hp, m->page_shift);
	memset(m->evstat, 0, (m->ev.n ? m->ev.n : 1) * sizeof(*m->evstat));
}

void model_set_page_shift(struct model *m, unsigned shift)
{
	m->page_shift = shift;
	if (m->hp)
		hotpage_reset(m->hp, shift);
}

void model_set_halflife(struct model *m, double seconds)
{
	m->halflife = seconds;
	if (m->hp)
		m->hp->halflife = seconds;
}

/* Age the histogram by dt, then count this tick's samples into it. */
static void model_samples(struct model *m, const struct snapshot *s, double dt)
{
	const struct snap_sampling *p = &s->smp;
	uint32_t *names;

	if (!p->pid) {
		m->sample_pid = 0;
		m->sample_rate = 0;
		return;
	}
	if (!m->hp)
		m->hp = hotpage_new(m->page_shift, m->halflife, m->hp_cap);
	if (p->pid != m->sample_pid) {
		hotpage_reset(m->hp, m->page_shift);
		m->nmaps = 0;
		m->lost = p->lost;
		m->throttled = p->throttled;
	}
	m->sample_pid = p->pid;
	snprintf(m->sample_source, sizeof(m->sample_source), "%s", p->source);
	m->sample_period = p->period;
	m->sample_flags = p->flags;
	m->sample_nonmem = p->nonmem;
	m->lost_tick = p->lost >= m->lost ? p->lost - m->lost : 0;
	m->lost = p->lost;
	m->throttled = p->throttled;
	hotpage_decay(m->hp, dt);
	/* the mappings the samples were taken in, named once a tick */
	names = p->nareas ? xcalloc(p->nareas, sizeof(*names)) : NULL;
	for (size_t i = 0; i < p->nareas; i++)
		names[i] = hotpage_name(m->hp, &p->areas[i]);
	for (size_t i = 0; i < p->n; i++) {
		uint32_t a = p->v[i].area;

		hotpage_add_named(m->hp, &p->v[i], a && a <= p->nareas ? names[a - 1] : 0);
	}
	free(names);
	m->sample_rate = dt > 0 ? (double)p->n / dt : 0;
	if (p->maps_changed) {
		m->maps = xgrow(m->maps, &m->mapcap, p->nmaps ? p->nmaps : 1, sizeof(*m->maps));
		if (p->nmaps)
			memcpy(m->maps, p->maps, p->nmaps * sizeof(*m->maps));
		m->nmaps = p->nmaps;
	}
}

/*
 * The row of task t that has no entry in the previous snapshot: its counts
 * are since its counters were attached, which is not the interval's when it
 * ran before that (a process that started between two reads is attached at
 * the second). Ratios of that one period stay. %CPU, when it started within
 * the interval (all its CPU time is then the interval's), is its /proc CPU
 * time over the interval, or its task-clock when that is larger, as top
 * charges it; else it is unknown. Rates (and -e events) stay when its
 * counters were enabled for all its life (to a clock tick); when they covered
 * only part of it they are unknown (NAN, shown as '-'), never the 0 of a counter just
 * attached. Recordings without the uptime cannot place its start: their
 * rows keep the counts since the attach, as they were recorded.
 */
static void model_unseen_task(const struct model *m, const struct snapshot *s,
			      const struct snap_task *t, struct model_row *r, double dt_ns)
{
	bool started = s->uptime >= 0 && m->prev.uptime >= 0 && m->clk_tck > 0 &&
		       (double)(t->start + 1) / m->clk_tck >= m->prev.uptime;
	bool covered = false;
	double tc = r->v[COL_CPU], life, enabled = 0;

	if (s->uptime < 0 || m->prev.uptime < 0)
		return;

	if (started) {
		life = (s->uptime - (double)t->start / m->clk_tck) * 1e9;
		for (size_t e = 0; e < m->ev.n; e++)
			if (!t->c[e].err && (double)t->c[e].enabled > enabled)
				enabled = (double)t->c[e].enabled;
		if (enabled + 1e9 / m->clk_tck >= life)
			covered = true;
	}
	/* unknown, not a counter that did not run: '-', never n/a and never 0 */
	r->v[COL_CPU] = NAN;
	r->est &= ~(1u << COL_CPU);
	r->na &= ~(1u << COL_CPU);
	if (started && (t->pflags & SNAP_TASK_PROC) && dt_ns > 0) {
		double proc = 100.0 * (double)t->cpu_ns / dt_ns;

		r->v[COL_CPU] = isnan(tc) || proc > tc ? proc : tc;
		r->na &= ~(1u << COL_CPU);
	} else if (started && tc > 0) {
		/* counted since the attach only: a lower bound */
		r->v[COL_CPU] = tc;
		r->est |= 1u << COL_CPU;
		r->na &= ~(1u << COL_CPU);
	}
	if (covered)
		return;
	for (int c = 0; c < COL_MAX; c++) {
		if (columns_get(c)->calc != COL_CALC_RATE)
			continue;
		r->v[c] = NAN;
		r->est &= ~(1u << c);
		r->na &= ~(1u << c);
	}
	for (size_t k = 0; k < m->nraw; k++) {
		r->raw[k] = NAN;
		r->raw_fl[k] = 0;
	}
}

/* Rows for one list of snapshot entries against their previous values. */
static void model_task_rows(struct model *m, const struct snapshot *s, bool threads,
			    struct model_row **rows, size_t *nrows, size_t *cap,
			    struct model_deltas *d, double dt_ns, bool *mux)
{
	const struct snap_task *v = threads ? s->threads : s->tasks;
	size_t n = threads ? s->nthreads : s->ntasks;
	size_t errs[8] = { 0 }, best = 0;
	int errv[8] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct snap_task *t = &v[i];
		const struct snap_task *p = threads ? snapshot_find_thread(&m->prev, t->pid)
						    : snapshot_find_task(&m->prev, t->pid);
		struct model_row *r;
		double row_dt;

		if (!model_wanted(m, t))
			continue;
		/* a different start time is a new task that reused the id */
		if (p && p->start != t->start)
			p = NULL;
		r = model_task_row(m, rows, nrows, cap, t);
		if (t->err) {
			int k;

			if (threads)
				continue;
			m->not_counted++;
			/* tally the reasons to name the most common one */
			for (k = 0; k < 7 && errv[k] && errv[k] != t->err; k++)
				;
			errv[k] = t->err;
			errs[k]++;
			continue;
		}
		row_dt = p ? model_row_dt(s, t->t_ns, &m->prev, p->t_ns, dt_ns) : dt_ns;
		r->dt = row_dt / 1e9;
		model_deltas(m, p ? p->c : NULL, t->c, d);
		model_metrics(m, d, r, row_dt, NAN);
		if (!p)
			model_unseen_task(m, s, t, r, row_dt);
		for (size_t e = 0; e < m->ev.n; e++)
			mux[e] |= d->fl[e] & MODEL_F_EST;
	}
	for (int k = 0; k < 8; k++)
		if (errs[k] > best) {
			best = errs[k];
			m->not_counted_err = errv[k];
		}
}

/* A row id for a cgroup path, stable from tick to tick: FNV-1a, folded to a positive int. */
static int model_cgroup_id(const char *path)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 16777619u;
	return (int)(h & 0x7fffffffu);
}

/* How many of the snapshot's processes are in each cgroup of s or below it; NULL: not known. */
static long *model_cgroup_procs(const struct snapshot *s)
{
	long *n;

	if (!s->ntasks)
		return NULL;
	n = xcalloc(s->cg.n + 1, sizeof(*n));
	for (size_t t = 0; t < s->ntasks; t++) {
		const char *p = s->tasks[t].cgroup;
		char buf[1024];
		size_t len;

		if (!p || (len = strlen(p)) >= sizeof(buf))
			continue;
		memcpy(buf, p, len + 1);
		/* the path and each of its ancestors: "/a/b", "/a", "/" */
		for (;;) {
			const struct snap_cgroup *g = snapshot_find_cgroup(s, buf);
			char *slash;

			if (g)
				n[g - s->cg.v]++;
			if (!strcmp(buf, "/"))
				break;
			slash = strrchr(buf, '/');
			if (!slash)
				break;
			if (slash == buf)
				slash[1] = '\0';
			else
				*slash = '\0';
		}
	}
	return n;
}

/*
 * One row per cgroup: deltas against the same path's counts at the last
 * tick; d NULL on a first snapshot, whose rows have no counts yet.
 */
static void model_update_cgroups(struct model *m, const struct snapshot *s, struct model_deltas *d,
				 double dt_ns)
{
	long *procs = model_cgroup_procs(s);

	m->cg_not_counted = 0;
	for (size_t i = 0; i < s->cg.n; i++) {
		const struct snap_cgroup *g = &s->cg.v[i];
		const struct snap_cgroup *p = snapshot_find_cgroup(&m->prev, g->path);
		struct model_row *r = model_new_row(m, &m->cgroups, &m->ncgroups, &m->cgcap,
						    model_cgroup_id(g->path));
		const char *last = strrchr(g->path, '/');
		double gdt;

		r->tgid = r->id;
		r->cgroup = xstrdup(g->path);
		r->cmdline = xstrdup(g->path);
		snprintf(r->comm, sizeof(r->comm), "%s", last && last[1] ? last + 1 : g->path);
		r->threads = procs ? (int)procs[i] : -1;
		r->v[COL_THR] = r->threads >= 0 ? r->threads : NAN;
		r->err = g->err;
		if (g->err) {
			m->cg_not_counted++;
			continue;
		}
		/* a first snapshot: the cgroups at once, their counts after an interval */
		if (!d)
			continue;
		gdt = p ? model_row_dt(s, g->t_ns, &m->prev, p->t_ns, dt_ns) : dt_ns;
		r->dt = gdt / 1e9;
		model_deltas(m, p ? p->c : NULL, g->c, d);
		model_metrics(m, d, r, gdt, NAN);
	}
	free(procs);
}

/*
 * The rows of a first snapshot: what /proc says, at once, and no counter
 * values (there is no interval yet). A task's count since the attach is not
 * an interval's, so it is never shown as one.
 */
static void model_first_rows(struct model *m, const struct snapshot *s)
{
	m->dt = 0;
	for (size_t i = 0; i < s->ntasks + s->nthreads; i++) {
		bool thr = i >= s->ntasks;
		const struct snap_task *t = thr ? &s->threads[i - s->ntasks] : &s->tasks[i];

		if (!model_wanted(m, t))
			continue;
		if (thr) {
			model_task_row(m, &m->threads, &m->nthreads, &m->thcap, t);
			continue;
		}
		model_task_row(m, &m->rows, &m->nrows, &m->rcap, t);
		if (t->err) {
			m->not_counted++;
			if (!m->not_counted_err)
				m->not_counted_err = t->err;
		}
	}
	for (size_t i = 0; i < s->ncpus; i++)
		model_new_row(m, &m->cpus, &m->ncpus, &m->ccap, s->cpus[i].cpu);
	if (s->ncpus)
		model_new_row(m, &m->cpus, &m->ncpus, &m->ccap, -1);
	model_update_cgroups(m, s, NULL, 0);
}

void model_memory(const struct model *m, struct model_memory *out)
{
	const struct snap_mem *mem = &m->mem;
	double tot = (double)m->mem_total_kib / 1024, fr, cache;

	*out = (struct model_memory){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (m->mem_total_kib)
		out->total = tot;
	if (!mem->known || !m->mem_total_kib)
		return;
	fr = (double)mem->free_kib / 1024;
	cache = (double)(mem->buffers_kib + mem->cached_kib + mem->sreclaimable_kib) / 1024;
	out->free = fr;
	out->buff_cache = cache;
	out->used = tot - fr - cache >= 0 ? tot - fr - cache : fmax(tot - fr, 0);
	out->swap_total = (double)mem->swap_total_kib / 1024;
	out->swap_free = (double)mem->swap_free_kib / 1024;
	out->swap_used = fmax(out->swap_total - out->swap_free, 0);
	out->avail = (double)mem->avail_kib / 1024;
}

void model_count_states(const struct snapshot *s, struct model_states *out)
{
	*out = (struct model_states){ .total = s->ntasks };
	for (size_t i = 0; i < s->ntasks; i++) {
		switch (s->tasks[i].state) {
		case 'R':
			out->running++;
			break;
		case 'S':
		case 'D':
		case 'I':
			out->sleeping++;
			break;
		case 'T':
		case 't':
			out->stopped++;
			break;
		case 'Z':
			out->zombie++;
			break;
		default:
			break;
		}
	}
}

/*
 * The filter's pids and their descendants in s: the processes whose ppid
 * chain reaches one of them. A chain is followed a bounded number of steps,
 * so a loop of ppids (a corrupt recording) ends.
 */
static void model_tree(struct model_filter *f, const struct snapshot *s)
{
	f->ntree = 0;
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct snap_task *t = &s->tasks[i];
		bool hit = false;

		for (int depth = 0; t && depth < 256 && !hit; depth++) {
			for (size_t k = 0; k < f->npids && !hit; k++)
				hit = f->pids[k] == t->pid;
			t = t->ppid > 0 && t->ppid != t->pid ? snapshot_find_task(s, t->ppid)
							     : NULL;
		}
		if (!hit)
			continue;
		f->tree_pids = xgrow(f->tree_pids, &f->tree_cap, f->ntree + 1, sizeof(int));
		f->tree_pids[f->ntree++] = s->tasks[i].pid;
	}
}

bool model_update(struct model *m, const struct snapshot *s)
{
	struct model_deltas d;
	double dt_ns;
	bool *mux;

	if (m->filter.tree)
		model_tree(&m->filter, s);
	model_release_rows(m->rows, m->nrows);
	model_release_rows(m->threads, m->nthreads);
	model_release_rows(m->cpus, m->ncpus);
	model_release_rows(m->cgroups, m->ncgroups);
	m->nrows = m->nthreads = m->ncpus = m->ncgroups = 0;
	m->have_cgroups = s->cg.on;
	m->cg_fds = s->cg.fds;
	m->cg_budget = s->cg.budget;
	m->ntasks_seen = s->ntasks;
	m->not_counted = 0;
	m->not_counted_err = 0;
	m->nmultiplexed = 0;
	/* the header's facts are there from the first snapshot on */
	m->wall = s->wall;
	memcpy(m->load, s->load, sizeof(m->load));
	m->uptime = s->uptime;
	memcpy(m->host, s->host, sizeof(m->host));
	memcpy(m->kernel, s->kernel, sizeof(m->kernel));
	m->mem_total_kib = s->mem_total_kib;
	m->mem = s->mem;
	model_count_states(s, &m->states);
	if (!m->have_prev || s->t_ns <= m->prev.t_ns) {
		model_first_rows(m, s);
		model_samples(m, s, 0);
		snapshot_copy_counts(&m->prev, s);
		m->have_prev = true;
		model_sort(m, m->sort_col, m->sort_reverse);
		return false;
	}
	dt_ns = (double)(s->t_ns - m->prev.t_ns);
	m->dt = dt_ns / 1e9;
	model_watch_work(m, s);
	evstat_update(m->evstat, &m->ev, &m->prev, s);
	for (size_t e = 0; e < m->ev.n; e++)
		m->evstat[e].suspect = model_event_suspect(m, e);
	d.v = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*d.v));
	d.fl = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*d.fl));
	mux = xcalloc(m->ev.n ? m->ev.n : 1, sizeof(*mux));
	model_task_rows(m, s, false, &m->rows, &m->nrows, &m->rcap, &d, dt_ns, mux);
	model_task_rows(m, s, true, &m->threads, &m->nthreads, &m->thcap, &d, dt_ns, mux);
	for (size_t e = 0; e < m->ev.n; e++)
		m->nmultiplexed += mux[e];
	model_update_cpus(m, s, &d, dt_ns);
	model_update_cgroups(m, s, &d, dt_ns);
	model_samples(m, s, m->dt);
	free(d.v);
	free(d.fl);
	free(mux);
	snapshot_copy_counts(&m->prev, s);
	model_sort(m, m->sort_col, m->sort_reverse);
	return true;
}

static double model_num(const struct model *m, const struct model_row *r, int col, bool *is_text,
			const char **text)
{
	*is_text = false;
	if (col >= COL_MAX) {
		size_t k = (size_t)(col - COL_MAX);

		return k < m->nraw ? r->raw[k] : NAN;
	}
	if (col == COL_USER) {
		*is_text = true;
		*text = r->user;
		return 0;
	}
	if (col == COL_COMMAND) {
		*is_text = true;
		*text = r->comm;
		return 0;
	}
	if (col == COL_CGROUP) {
		*is_text = true;
		*text = r->cgroup ? r->cgroup : "";
		return 0;
	}
	if (col == COL_STATE)
		return (unsigned char)r->state; /* by the letter */
	if (col == COL_PID)
		return r->procs ? r->procs : r->id;
	if (col == COL_THR)
		return r->threads;
	return r->v[col];
}

static bool model_natural_desc(const struct model *m, int col)
{
	return model_column(m, col)->sort_desc;
}

/* The order of a and b by the sort column alone; 0 when they are equal in it. */
static int model_compare_values(const struct model *m, const struct model_row *a,
				const struct model_row *b)
{
	bool ta, tb;
	const char *sa = NULL, *sb = NULL;
	double va = model_num(m, a, m->sort_col, &ta, &sa);
	double vb = model_num(m, b, m->sort_col, &tb, &sb);
	bool desc = model_natural_desc(m, m->sort_col) != m->sort_reverse;
	int c = 0;

	if (ta) {
		c = strcasecmp(sa, sb);
		if (desc)
			c = -c;
	} else if (isnan(va) || isnan(vb)) {
		/* rows without a value go last whichever the direction */
		c = isnan(va) - isnan(vb);
	} else if (va != vb) {
		c = va < vb ? -1 : 1;
		if (desc)
			c = -c;
	}
	return c;
}

int model_compare(const struct model *m, const struct model_row *a, const struct model_row *b)
{
	int c = model_compare_values(m, a, b);

	if (c)
		return c;
	return (a->id > b->id) - (a->id < b->id);
}

static int model_qsort_cmp(const void *a, const void *b, void *m)
{
	return model_compare(m, a, b);
}

/* Cgroups equal in the sort column (as on a first frame, without counts) go by path. */
static int model_qsort_cgroup_cmp(const void *a, const void *b, void *m)
{
	const struct model_row *ra = a, *rb = b;
	int c = model_compare_values(m, ra, rb);

	if (c)
		return c;
	return strcmp(ra->cgroup ? ra->cgroup : "", rb->cgroup ? rb->cgroup : "");
}

unsigned model_extras(const struct model *m)
{
	unsigned x = 0;

	if (m->sort_col == COL_SHR || columns_choice_shown(&m->cols, COL_SHR))
		x |= SOURCE_EXTRA_SHR;
	return x;
}

void model_sort(struct model *m, int col, bool reverse)
{
	m->sort_col = col;
	m->sort_reverse = reverse;
	if (m->nrows > 1)
		qsort_r(m->rows, m->nrows, sizeof(*m->rows), model_qsort_cmp, m);
	if (m->nthreads > 1)
		qsort_r(m->threads, m->nthreads, sizeof(*m->threads), model_qsort_cmp, m);
	if (m->ncgroups > 1)
		qsort_r(m->cgroups, m->ncgroups, sizeof(*m->cgroups), model_qsort_cgroup_cmp, m);
}

int model_sort_key(const struct model *m, const char *key)
{
	const struct column *c = columns_find(key);

	if (c)
		return c->id;
	for (size_t k = 0; k < m->nraw; k++)
		if (!strcasecmp(m->ev.ev[m->raw_ev[k]].name, key))
			return COL_MAX + (int)k;
	return -1;
}

bool model_column_shown(const struct model *m, enum col_id col)
{
	if (columns_get(col)->cgroups && !m->have_cgroups)
		return false;
	return columns_available(columns_get(col), &m->ev);
}

/* Whether column c is shown although it cannot be counted (see model_columns_unsupported). */
static bool model_column_unsupported(const struct model *m, enum col_id c, int *err)
{
	const struct column *col = columns_get(c);

	*err = 0;
	return col->type == COL_TYPE_NUM && !model_column_shown(m, c) &&
	       columns_requested(col, &m->ev, err) && *err && evlist_any_hw(&m->ev);
}

size_t model_columns(const struct model *m, int *out, size_t max)
{
	size_t n = 0;

	/* in the order the user chose (F2), hidden columns left out */
	for (int i = 0; i < COL_MAX; i++) {
		int err, c = m->cols.order[i];

		if (!columns_choice_shown(&m->cols, c))
			continue;
		if (columns_get(c)->rest)
			for (size_t k = 0; k < m->nraw && n < max; k++)
				out[n++] = COL_MAX + (int)k;
		if ((model_column_shown(m, c) || model_column_unsupported(m, c, &err)) && n < max)
			out[n++] = c;
	}
	return n;
}

size_t model_columns_unsupported(const struct model *m, int *out, int *err, size_t max)
{
	size_t n = 0;

	for (int c = 0; c < COL_MAX; c++) {
		int e;

		if (columns_get(c)->rest)
			for (size_t k = 0; k < m->nraw && n < max; k++) {
				e = m->ev.ev[m->raw_ev[k]].err;
				if (e && evlist_any_hw(&m->ev)) {
					err[n] = e;
					out[n++] = COL_MAX + (int)k;
				}
			}
		if (model_column_unsupported(m, c, &e) && n < max) {
			err[n] = e;
			out[n++] = c;
		}
	}
	return n;
}

const char *model_unsupported_text(const struct model *m, enum col_rows rows, char *buf,
				   size_t size)
{
	int ids[MODEL_MAX_COLS], err[MODEL_MAX_COLS];
	size_t n = model_columns_unsupported(m, ids, err, MODEL_MAX_COLS), len = 0;
	bool done[MODEL_MAX_COLS] = { false };

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char titles[512], sentence[600];
		size_t tl = 0;

		if (done[i])
			continue;
		titles[0] = '\0';
		for (size_t j = i; j < n; j++)
			if (!done[j] && err[j] == err[i] && tl < sizeof(titles)) {
				tl += (size_t)snprintf(titles + tl, sizeof(titles) - tl, "%s%s",
						       tl ? " " : "",
						       model_column_title(m, ids[j], rows));
				done[j] = true;
			}
		errmsg_columns(sentence, sizeof(sentence), err[i], titles);
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "; " : "",
						sentence);
	}
	return buf;
}

size_t model_data_columns(const struct model *m, enum col_id *out, size_t max)
{
	size_t n = 0;

	for (int c = 0; c < COL_MAX && n < max; c++)
		if (columns_get(c)->type == COL_TYPE_NUM &&
		    (model_column_shown(m, c) || columns_requested(columns_get(c), &m->ev, NULL)))
			out[n++] = c;
	return n;
}

const struct column *model_column(const struct model *m, int id)
{
	(void)m;
	return id >= COL_MAX ? columns_event() : columns_get(id);
}

const char *model_column_title(const struct model *m, int id, enum col_rows rows)
{
	if (id >= COL_MAX)
		return m->ev.ev[m->raw_ev[id - COL_MAX]].name;
	return columns_title(columns_get(id), rows);
}

const char *model_column_head(const struct model *m, int id, enum col_rows rows, char *buf,
			      size_t size)
{
	if (id >= COL_MAX)
		return columns_event_title(buf, size, model_column_title(m, id, rows),
					   (size_t)(id - COL_MAX));
	snprintf(buf, size, "%s", columns_title(columns_get(id), rows));
	return buf;
}

int model_column_width(const struct model *m, int id, enum col_rows rows)
{
	if (id >= COL_MAX)
		return columns_event_width(model_column_title(m, id, rows), (size_t)(id - COL_MAX));
	return columns_width(columns_get(id), rows);
}

bool model_event_short(const struct model *m, size_t k)
{
	return k < m->nraw && columns_event_short(m->ev.ev[m->raw_ev[k]].name);
}

double model_event_rate(const struct model *m, const struct model_row *r, size_t k)
{
	return k < m->nraw ? metrics_rate(r->raw[k], r->dt > 0 ? r->dt : m->dt) : NAN;
}

unsigned model_cell_flags(const struct model_row *r, int id)
{
	uint32_t bit = 1u << id;

	return (r->est & bit ? MODEL_F_EST : 0) | (r->na & bit ? MODEL_F_NA : 0) |
	       (r->suspect & bit ? MODEL_F_SUSPECT : 0);
}

void model_format_cell(const struct model *m, const struct model_row *r, int id, enum col_rows rows,
		       int width, char *buf, size_t size)
{
	const struct column *col = model_column(m, id);

	if (id >= COL_MAX) {
		size_t k = (size_t)(id - COL_MAX);

		columns_format_fit(buf, size, model_event_rate(m, r, k), col->prec, width,
				   r->raw_fl[k]);
		return;
	}
	switch (id) {
	case COL_PID:
		if (rows == COL_ROWS_CPUS && r->id < 0)
			snprintf(buf, size, "all");
		else if (size >= 24)
			numfmt_int(buf, r->procs ? r->procs : r->id);
		else
			snprintf(buf, size, "%d", r->procs ? r->procs : r->id);
		return;
	case COL_STATE:
		/* printable letters only: a crafted recording cannot put a control here */
		snprintf(buf, size, "%c", r->state > 0x20 && r->state < 0x7f ? r->state : ' ');
		if (!r->state)
			buf[0] = '\0';
		return;
	case COL_USER:
		snprintf(buf, size, "%s", r->user);
		return;
	case COL_THR:
		if (rows == COL_ROWS_CGROUPS && r->threads < 0)
			snprintf(buf, size, "-");
		else if (size >= 24)
			numfmt_int(buf, rows == COL_ROWS_THREADS ? r->tgid : r->threads);
		else
			snprintf(buf, size, "%d", rows == COL_ROWS_THREADS ? r->tgid : r->threads);
		return;
	case COL_COMMAND:
		snprintf(buf, size, "%s", rows == COL_ROWS_CGROUPS ? r->cmdline : r->comm);
		return;
	case COL_CGROUP: {
		const char *p = r->cgroup ? r->cgroup : "";
		size_t n = strlen(p);

		/* a path's end tells cgroups apart ("...docker-1f2e.scope"), its start does not */
		if (width > 3 && n > (size_t)width)
			snprintf(buf, size, "...%s", p + n - (size_t)(width - 3));
		else
			snprintf(buf, size, "%s", p);
		return;
	}
	default:
		columns_format_cell(col, buf, size, r->v[id], width, model_cell_flags(r, id));
		return;
	}
}

/* What building a user's totals keeps aside: why its rows were not counted, whether any was. */
struct model_users_acc {
	int err;       /* the first reason a row of the user was not counted */
	bool counted;  /* some row of the user was counted */
	uint8_t *miss; /* per event: the marks of rows that had no count (n/a) */
};

/* Add process row r to the totals row u of its user. */
static void model_users_add(const struct model *m, struct model_row *u, const struct model_row *r,
			    struct model_users_acc *a)
{
	static const enum col_id SUMS[] = { COL_RES, COL_MEM, COL_TIME };

	u->procs++;
	u->threads += r->threads;
	for (size_t i = 0; i < sizeof(SUMS) / sizeof(SUMS[0]); i++)
		if (!isnan(r->v[SUMS[i]]))
			u->v[SUMS[i]] = isnan(u->v[SUMS[i]]) ? r->v[SUMS[i]]
							     : u->v[SUMS[i]] + r->v[SUMS[i]];
	if (r->err) {
		if (!a->err)
			a->err = r->err;
		return;
	}
	a->counted = true;
	for (size_t e = 0; e < m->ev.n; e++) {
		if (isnan(r->ev[e]) || (a->miss[e] & MODEL_F_NA)) {
			/* a counter of one of them did not run: the total is unknown, not less */
			a->miss[e] |= r->ev_fl[e];
			if (a->miss[e] & MODEL_F_NA)
				u->ev[e] = NAN;
			continue;
		}
		u->ev[e] = isnan(u->ev[e]) ? r->ev[e] : u->ev[e] + r->ev[e];
		u->ev_fl[e] |= r->ev_fl[e] & (MODEL_F_EST | MODEL_F_SUSPECT);
	}
	if (!isnan(r->counted) && (isnan(u->counted) || r->counted < u->counted))
		u->counted = r->counted;
}

void model_users_build(const struct model *m, const struct model_row *const *rows, size_t n,
		       struct model_users *u)
{
	struct model_users_acc *acc = NULL;
	size_t nev = m->ev.n ? m->ev.n : 1, acap = 0;

	model_release_rows(u->v, u->n);
	u->n = 0;
	for (size_t i = 0; i < n; i++) {
		const struct model_row *r = rows[i];
		size_t k;

		for (k = 0; k < u->n && u->v[k].uid != r->uid; k++)
			;
		if (k == u->n) {
			struct model_row *t = model_new_row(m, &u->v, &u->n, &u->cap, (int)r->uid);

			t->uid = r->uid;
			memcpy(t->user, r->user, sizeof(t->user));
			t->state = '\0';
			t->cmdline = xstrdup("");
			acc = xgrow(acc, &acap, u->n, sizeof(*acc));
			acc[k] = (struct model_users_acc){ .miss = xcalloc(nev, 1) };
		}
		model_users_add(m, &u->v[k], r, &acc[k]);
	}
	for (size_t k = 0; k < u->n; k++) {
		struct model_row *t = &u->v[k];
		struct model_deltas d = { .v = t->ev, .fl = t->ev_fl, .counted = t->counted };

		/* n/a where the counter of a counted process of the user did not run */
		for (size_t e = 0; e < m->ev.n; e++)
			if (isnan(t->ev[e]))
				t->ev_fl[e] |= acc[k].miss[e] & MODEL_F_NA;
		t->err = acc[k].counted ? 0 : acc[k].err;
		if (!t->err)
			model_metrics(m, &d, t, m->dt * 1e9, NAN);
		t->v[COL_PID] = t->procs;
		t->v[COL_THR] = t->threads;
		free(acc[k].miss);
	}
	free(acc);
	if (u->n > 1)
		qsort_r(u->v, u->n, sizeof(*u->v), model_qsort_cmp, (void *)m);
}

void model_users_release(struct model_users *u)
{
	model_release_rows(u->v, u->n);
	free(u->v);
	memset(u, 0, sizeof(*u));
}

/* The row of id among n rows, or NULL. */
static const struct model_row *model_ident_row(const struct model_row *rows, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].id == id)
			return &rows[i];
	return NULL;
}

int model_ident_check(const struct model *m, const struct model_ident *w)
{
	const struct model_row *r = model_ident_row(m->rows, m->nrows, w->id);

	if (!r || r->start != w->start)
		r = model_ident_row(m->threads, m->nthreads, w->id);
	if (!r || r->start != w->start)
		return -ESRCH;
	return 0;
}
