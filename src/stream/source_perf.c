/* perf.data replay: processes, their sample counts and mappings, and one process's hot pages. */
#include "config.h"
#include "stream/source_perf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/perfdata.h"
#include "util/xalloc.h"

#define PERF_SRC_MAX_BYTES (4ull << 30) /* what is read into memory at most */
#define PERF_SRC_MAX_TIDS 4096		/* threads told apart per process */

struct psrc_proc {
	int pid, ppid;
	char comm[64];
	uint64_t *count; /* samples per event, since the capture began */
	int *tids;	 /* sorted */
	size_t ntids, tidcap;
	bool exited;	       /* gone after the frame it exited in */
	struct mem_area *maps; /* sorted by start, not overlapping; names owned */
	size_t nmaps, mapcap;
	bool maps_changed;
};

/* One decoded record, held back when it belongs to the next frame. */
struct psrc_rec {
	enum { PSRC_NONE, PSRC_SAMPLE, PSRC_MMAP, PSRC_TASK } kind;
	struct perfrec_sample s;
	struct perfrec_mmap m;
	struct perfrec_task t;
};

struct psrc {
	struct source base;
	char *name;
	uint8_t *buf; /* the whole capture */
	size_t len;
	struct perfdata pd;
	uint64_t frame_ns, frame_end, t0, frames;
	bool started, ended;
	struct psrc_rec rec;
	struct psrc_proc *procs; /* sorted by pid */
	size_t nprocs, pcap;
	int smp_pid;
	bool smp_new; /* the sampled process was just chosen: send its mappings */
	uint64_t nonmem;
	uint64_t last_period;
	size_t smp_ev; /* the event whose samples fill the hot pages */
	bool smp_ev_known;
	struct snapshot *snap; /* during a read */
};

static struct psrc_proc *psrc_find(struct psrc *p, int pid, bool add)
{
	size_t lo = 0, hi = p->nprocs;
	struct psrc_proc *q;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->procs[mid].pid == pid)
			return &p->procs[mid];
		if (p->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!add)
		return NULL;
	p->procs = xgrow(p->procs, &p->pcap, p->nprocs + 1, sizeof(*p->procs));
	memmove(&p->procs[lo + 1], &p->procs[lo], (p->nprocs - lo) * sizeof(*p->procs));
	p->nprocs++;
	q = &p->procs[lo];
	memset(q, 0, sizeof(*q));
	q->pid = pid;
	q->count = xcalloc(p->pd.nev ? p->pd.nev : 1, sizeof(*q->count));
	snprintf(q->comm, sizeof(q->comm), ":%d", pid);
	return q;
}

static void psrc_add_tid(struct psrc_proc *q, int tid)
{
	size_t lo = 0, hi = q->ntids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (q->tids[mid] == tid)
			return;
		if (q->tids[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (q->ntids >= PERF_SRC_MAX_TIDS)
		return;
	q->tids = xgrow(q->tids, &q->tidcap, q->ntids + 1, sizeof(*q->tids));
	memmove(&q->tids[lo + 1], &q->tids[lo], (q->ntids - lo) * sizeof(*q->tids));
	q->tids[lo] = tid;
	q->ntids++;
}

static void psrc_clear_maps(struct psrc_proc *q)
{
	for (size_t i = 0; i < q->nmaps; i++)
		free(q->maps[i].name);
	q->nmaps = 0;
	q->maps_changed = true;
}

/* A new mapping replaces whatever it overlaps, as mmap does. */
static void psrc_map(struct psrc_proc *q, const struct mem_area *a)
{
	size_t w = 0, at;

	if (a->end <= a->start)
		return;
	for (size_t i = 0; i < q->nmaps; i++) {
		struct mem_area o = q->maps[i];

		if (o.end <= a->start || o.start >= a->end) {
			q->maps[w++] = o;
			continue;
		}
		if (o.start < a->start && o.end > a->end) {
			/* split around the new one: the tail gets a copy of the name */
			struct mem_area tail = o;

			tail.pgoff += a->end - o.start;
			tail.start = a->end;
			tail.name = xstrdup(o.name);
			o.end = a->start;
			q->maps[w++] = o;
			q->maps = xgrow(q->maps, &q->mapcap, q->nmaps + 2, sizeof(*q->maps));
			memmove(&q->maps[i + 2], &q->maps[i + 1],
				(q->nmaps - i - 1) * sizeof(*q->maps));
			q->maps[i + 1] = tail;
			q->nmaps++;
			continue;
		}
		if (o.start < a->start) {
			o.end = a->start;
		} else if (o.end > a->end) {
			o.pgoff += a->end - o.start;
			o.start = a->end;
		} else {
			free(o.name);
			continue;
		}
		q->maps[w++] = o;
	}
	q->nmaps = w;
	q->maps = xgrow(q->maps, &q->mapcap, q->nmaps + 1, sizeof(*q->maps));
	for (at = 0; at < q->nmaps && q->maps[at].start < a->start; at++)
		;
	memmove(&q->maps[at + 1], &q->maps[at], (q->nmaps - at) * sizeof(*q->maps));
	q->maps[at] = *a;
	q->maps[at].name = xstrdup(a->name);
	q->nmaps++;
	q->maps_changed = true;
}

static const struct mem_area *psrc_area(const struct psrc_proc *q, uint64_t addr)
{
	size_t lo = 0, hi = q->nmaps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (addr < q->maps[mid].start)
			hi = mid;
		else if (addr >= q->maps[mid].end)
			lo = mid + 1;
		else
			return &q->maps[mid];
	}
	return NULL;
}

static void psrc_take_sample(const struct perfrec_sample *s, void *arg)
{
	struct psrc_rec *r = arg;

	r->kind = PSRC_SAMPLE;
	r->s = *s;
}

static void psrc_take_mmap(const struct perfrec_mmap *m, void *arg)
{
	struct psrc_rec *r = arg;

	r->kind = PSRC_MMAP;
	r->m = *m;
}

static void psrc_take_task(const struct perfrec_task *t, void *arg)
{
	struct psrc_rec *r = arg;

	r->kind = PSRC_TASK;
	r->t = *t;
}

static uint64_t psrc_rec_time(const struct psrc_rec *r)
{
	switch (r->kind) {
	case PSRC_SAMPLE:
		return r->s.time;
	case PSRC_MMAP:
		return r->m.time;
	case PSRC_TASK:
		return r->t.time;
	default:
		return 0;
	}
}

/* Whether an event's samples are page faults: they carry no op, level or latency. */
static bool psrc_faults(const struct perfdata_event *e)
{
	return e->type == 1 && (e->config == 2 || e->config == 5 || e->config == 6);
}

static void psrc_sample(struct psrc *p, const struct perfrec_sample *s)
{
	const struct perfdata_event *e = &p->pd.ev[s->attr];
	struct psrc_proc *q;
	struct snap_sample *x;
	const struct mem_area *a;

	if ((int)s->pid <= 0)
		return;
	q = psrc_find(p, (int)s->pid, true);
	q->count[s->attr]++;
	psrc_add_tid(q, (int)s->tid);
	if ((int)s->pid != p->smp_pid || !(e->fmt.sample_type & PERFREC_SAMPLE_ADDR))
		return;
	if (!p->smp_ev_known) {
		p->smp_ev = s->attr;
		p->smp_ev_known = true;
	}
	if (!s->addr) {
		/* IBS ops and other samples without a data address */
		p->nonmem++;
		return;
	}
	x = snapshot_add_sample(p->snap);
	x->addr = s->addr;
	x->ip = s->ip;
	x->weight = s->weight;
	x->tid = s->tid;
	x->cpu = s->cpu;
	x->op = (uint8_t)s->op;
	x->level = (uint8_t)s->level;
	x->period = s->period ? s->period : (e->freq ? 1 : (e->period ? e->period : 1));
	p->last_period = x->period;
	/*
	 * NUMA nodes from the capture's own topology: the CPU's, and the page's
	 * by its physical address where the samples carry one
	 */
	if (e->fmt.sample_type & PERFREC_SAMPLE_CPU)
		x->cpu_node = (uint16_t)(perfdata_cpu_node(&p->pd, s->cpu) + 1);
	if (e->fmt.sample_type & PERFREC_SAMPLE_PHYS_ADDR)
		x->page_node = (uint16_t)(perfdata_phys_node(&p->pd, s->phys_addr) + 1);
	a = psrc_area(q, s->addr);
	x->area = a ? snapshot_add_area(p->snap, a) : 0;
}

static void psrc_mmap(struct psrc *p, const struct perfrec_mmap *m)
{
	struct mem_area a;
	char name[4096];

	if ((int)m->pid <= 0)
		return;
	snprintf(name, sizeof(name), "%.*s", (int)m->name_len, m->name);
	a = (struct mem_area){ m->addr, m->addr + m->len, m->pgoff, m->maj, m->min, m->ino, name };
	/* "//anon" is perf's name for an anonymous mapping */
	if (!strcmp(name, "//anon"))
		a.name = (char *)"";
	psrc_map(psrc_find(p, (int)m->pid, true), &a);
}

static void psrc_task(struct psrc *p, const struct perfrec_task *t)
{
	struct psrc_proc *q;

	if ((int)t->pid <= 0)
		return;
	if (t->type == PERFREC_COMM) {
		q = psrc_find(p, (int)t->pid, true);
		psrc_add_tid(q, (int)t->tid);
		if (t->pid == t->tid)
			snprintf(q->comm, sizeof(q->comm), "%.*s", (int)t->comm_len, t->comm);
		if (t->exec)
			psrc_clear_maps(q);
		q->exited = false;
		return;
	}
	if (t->type == PERFREC_FORK) {
		struct psrc_proc *parent;

		q = psrc_find(p, (int)t->pid, true);
		psrc_add_tid(q, (int)t->tid);
		if (t->pid == t->ppid)
			return; /* a thread */
		q->ppid = (int)t->ppid;
		q->exited = false;
		/* a new process starts as a copy of its parent: name and mappings */
		parent = psrc_find(p, (int)t->ppid, false);
		if (!parent)
			return;
		q = psrc_find(p, (int)t->pid, false); /* the insertion may have moved it */
		snprintf(q->comm, sizeof(q->comm), "%s", parent->comm);
		psrc_clear_maps(q);
		for (size_t i = 0; i < parent->nmaps; i++)
			psrc_map(q, &parent->maps[i]);
		return;
	}
	if (t->type == PERFREC_EXIT && t->pid == t->tid) {
		q = psrc_find(p, (int)t->pid, false);
		if (q)
			q->exited = true;
	}
}

static void psrc_apply(struct psrc *p, const struct psrc_rec *r)
{
	switch (r->kind) {
	case PSRC_SAMPLE:
		psrc_sample(p, &r->s);
		break;
	case PSRC_MMAP:
		psrc_mmap(p, &r->m);
		break;
	case PSRC_TASK:
		psrc_task(p, &r->t);
		break;
	default:
		break;
	}
}

/* What was skipped, said once at the end. */
static void psrc_say_skipped(struct psrc *p)
{
	const struct perfdata_skipped *k = &p->pd.skipped;

	if (k->aux)
		source_message(&p->base,
			       "'%s': %" PRIu64 " records of AUX trace data (Intel PT, Arm SPE, "
			       "CoreSight) skipped: pmctop does not decode them",
			       p->name, k->aux);
	if (k->compressed)
		source_message(&p->base,
			       "'%s': %" PRIu64 " compressed records skipped: record without -z "
			       "(or 'perf inject' the file) for pmctop to read them",
			       p->name, k->compressed);
	if (k->unknown)
		source_message(&p->base, "'%s': %" PRIu64 " records of unknown types skipped",
			       p->name, k->unknown);
	if (k->features)
		source_message(&p->base,
			       "'%s': %" PRIu64 " feature sections unknown or malformed, skipped",
			       p->name, k->features);
}

static void psrc_fill(struct psrc *p, struct snapshot *snap)
{
	size_t w = 0;

	snap->nev = p->pd.nev;
	snap->t_ns = p->frames * p->frame_ns;
	snap->wall = (double)p->frame_end / 1e9;
	snap->uptime = -1;
	for (size_t i = 0; i < p->nprocs; i++) {
		struct psrc_proc *q = &p->procs[i];
		struct snap_task *t = snapshot_add_task(snap, q->pid);

		t->tgid = q->pid;
		t->ppid = q->ppid;
		t->state = q->exited ? 'X' : 'S';
		t->threads = q->ntids ? (int)q->ntids : 1;
		snprintf(t->comm, sizeof(t->comm), "%s", q->comm);
		for (size_t e = 0; e < p->pd.nev; e++) {
			t->c[e].value = q->count[e];
			t->c[e].enabled = t->c[e].running = snap->t_ns;
			t->c[e].err = 0;
		}
	}
	/* the processes that exited are shown in the frame they exited in, then go */
	for (size_t i = 0; i < p->nprocs; i++) {
		struct psrc_proc *q = &p->procs[i];

		if (q->exited && q->pid != p->smp_pid) {
			psrc_clear_maps(q);
			free(q->maps);
			free(q->tids);
			free(q->count);
			continue;
		}
		p->procs[w++] = *q;
	}
	p->nprocs = w;
	snapshot_sort(snap);
}

static void psrc_fill_smp(struct psrc *p, struct snapshot *snap)
{
	struct psrc_proc *q;
	const struct perfdata_event *e;

	if (!p->smp_pid)
		return;
	snap->smp.pid = p->smp_pid;
	e = p->smp_ev_known ? &p->pd.ev[p->smp_ev] : NULL;
	snprintf(snap->smp.source, sizeof(snap->smp.source), "%s",
		 !e		  ? "perf.data"
		 : psrc_faults(e) ? "page faults"
				  : e->name);
	snap->smp.period = p->last_period;
	snap->smp.lost = p->pd.st.lost;
	snap->smp.throttled = p->pd.st.throttled;
	snap->smp.nonmem = p->nonmem;
	if (e && !psrc_faults(e)) {
		if (!(e->fmt.sample_type & (PERFREC_SAMPLE_WEIGHT | PERFREC_SAMPLE_WEIGHT_STRUCT)))
			snap->smp.flags |= SNAP_SMP_NO_LATENCY;
		if (!(e->fmt.sample_type & PERFREC_SAMPLE_DATA_SRC))
			snap->smp.flags |= SNAP_SMP_NO_SOURCE;
	}
	q = psrc_find(p, p->smp_pid, false);
	if (!q || (!q->maps_changed && !p->smp_new))
		return;
	snap->smp.maps_changed = true;
	for (size_t i = 0; i < q->nmaps; i++) {
		struct mem_map *m = snapshot_add_map(snap);

		m->start = q->maps[i].start;
		m->end = q->maps[i].end;
		snprintf(m->name, sizeof(m->name), "%s",
			 q->maps[i].name[0] ? q->maps[i].name : "[anon]");
	}
	q->maps_changed = false;
	p->smp_new = false;
}

static int psrc_read(struct source *s, struct snapshot *snap)
{
	struct psrc *p = (struct psrc *)s;
	const struct perfrec_cbs cbs = { psrc_take_sample, psrc_take_mmap, psrc_take_task, &p->rec,
					 0 };
	char why[256];

	if (p->ended)
		return 1;
	snapshot_clear(snap);
	snap->nev = p->pd.nev;
	p->snap = snap;
	for (;;) {
		uint64_t t;
		int r;

		if (p->rec.kind == PSRC_NONE) {
			r = perfdata_next(&p->pd, &cbs, why, sizeof(why));
			if (r < 0) {
				snprintf(s->err, sizeof(s->err), "'%s': %s", p->name, why);
				return -EINVAL;
			}
			if (r == 0) {
				if (!p->started && !p->frames) {
					p->ended = true;
					psrc_say_skipped(p);
					if (p->pd.st.samples)
						return 1;
					/* an empty capture is one empty frame */
					break;
				}
				p->ended = true;
				psrc_say_skipped(p);
				break;
			}
			if (p->rec.kind == PSRC_NONE)
				continue; /* perf's own records: events, features */
		}
		t = psrc_rec_time(&p->rec);
		if (t && !p->started) {
			p->started = true;
			p->t0 = t;
			p->frame_end = t + p->frame_ns;
		}
		if (p->started && t >= p->frame_end) {
			/* a gap of many frames is not played out frame by frame */
			if (t - p->frame_end >= 16 * p->frame_ns)
				p->frame_end = t - (t - p->t0) % p->frame_ns;
			break;
		}
		psrc_apply(p, &p->rec);
		p->rec.kind = PSRC_NONE;
	}
	p->frames++;
	psrc_fill_smp(p, snap);
	psrc_fill(p, snap);
	p->frame_end += p->frame_ns;
	p->snap = NULL;
	return 0;
}

static int psrc_sample_op(struct source *s, int pid, const struct sample_req *req, char *err,
			  size_t errsize)
{
	struct psrc *p = (struct psrc *)s;

	(void)req;
	(void)err;
	(void)errsize;
	p->smp_pid = pid;
	p->smp_new = true;
	p->nonmem = 0;
	return 0;
}

static void psrc_free(struct source *s)
{
	struct psrc *p = (struct psrc *)s;

	for (size_t i = 0; i < p->nprocs; i++) {
		psrc_clear_maps(&p->procs[i]);
		free(p->procs[i].maps);
		free(p->procs[i].tids);
		free(p->procs[i].count);
	}
	free(p->procs);
	perfdata_release(&p->pd);
	free(p->buf);
	free(p->name);
	source_release(s);
	free(p);
}

static const struct source_ops PERF_SRC_OPS = {
	.read = psrc_read,
	.sample = psrc_sample_op,
	.free = psrc_free,
};

/* All of fd into *buf; 0 or -errno (-EFBIG past PERF_SRC_MAX_BYTES). */
static int psrc_slurp(int fd, uint8_t **buf, size_t *len)
{
	size_t cap = *len;

	for (;;) {
		ssize_t n;

		if (cap - *len < 65536) {
			if (cap > PERF_SRC_MAX_BYTES)
				return -EFBIG;
			*buf = xgrow(*buf, &cap, *len + 65536, 1);
		}
		n = read(fd, *buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		*len += (size_t)n;
	}
}

struct source *source_perf_new(int fd, const void *prefix, size_t n, const char *name,
			       double frame_s, char *err, size_t errsize)
{
	struct psrc *p = xcalloc(1, sizeof(*p));
	char why[256];
	int e;

	source_init(&p->base, &PERF_SRC_OPS);
	p->base.caps = SOURCE_CAP_PACED | SOURCE_CAP_SAMPLE;
	p->name = xstrdup(name);
	p->frame_ns = frame_s > 0 ? (uint64_t)(frame_s * 1e9) : 1000000000ull;
	if (!p->frame_ns)
		p->frame_ns = 1;
	p->buf = xmalloc(n ? n : 1);
	if (n)
		memcpy(p->buf, prefix, n);
	p->len = n;
	e = psrc_slurp(fd, &p->buf, &p->len);
	close(fd);
	if (e) {
		snprintf(err, errsize, "cannot read the capture '%s': %s", name,
			 e == -EFBIG ? "larger than 4 GiB" : strerror(-e));
		goto out_free;
	}
	if (perfdata_open(&p->pd, p->buf, p->len, why, sizeof(why))) {
		snprintf(err, errsize, "'%s' is not a perf.data pmctop can read: %s", name, why);
		goto out_free;
	}
	/* the pipe format says its events in its first records: read up to them */
	while (p->pd.pipe && !p->pd.nev) {
		const struct perfrec_cbs none = { NULL, NULL, NULL, NULL, 0 };
		int r = perfdata_next(&p->pd, &none, why, sizeof(why));

		if (r <= 0) {
			snprintf(err, errsize, "'%s' is not a perf.data pmctop can read: %s", name,
				 r ? why : "no events before the end of the data");
			goto out_free;
		}
	}
	for (size_t i = 0; i < p->pd.nev; i++) {
		int k = evlist_add(&p->base.ev, p->pd.ev[i].name, (int)i, false, true);

		/* counts of samples, not of events: no metric may read them as such */
		if (p->base.ev.ev[k].role != EV_RAW) {
			p->base.ev.role_idx[p->base.ev.ev[k].role] = -1;
			p->base.ev.ev[k].role = EV_RAW;
		}
	}
	snprintf(p->base.mode, sizeof(p->base.mode), "perf.data%s: samples per event%s%s",
		 p->pd.pipe ? " (pipe)" : "", p->pd.cpudesc[0] ? " on " : "", p->pd.cpudesc);
	snprintf(p->base.host, sizeof(p->base.host), "%s", p->pd.host[0] ? p->pd.host : name);
	snprintf(p->base.kernel, sizeof(p->base.kernel), "%s",
		 p->pd.kernel[0] ? p->pd.kernel : "?");
	return &p->base;
out_free:
	psrc_free(&p->base);
	return NULL;
}
