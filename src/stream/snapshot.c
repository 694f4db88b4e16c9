/* Snapshot storage; reused from tick to tick to avoid churn. */
#include "config.h"
#include "stream/snapshot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void snapshot_init(struct snapshot *s, size_t nev)
{
	memset(s, 0, sizeof(*s));
	s->nev = nev;
	s->uptime = -1;
}

static void snapshot_free_entries(struct snapshot *s)
{
	for (size_t i = 0; i < s->ntasks; i++) {
		free(s->tasks[i].cmdline);
		free(s->tasks[i].cgroup);
		free(s->tasks[i].c);
	}
	for (size_t i = 0; i < s->nthreads; i++) {
		free(s->threads[i].cmdline);
		free(s->threads[i].cgroup);
		free(s->threads[i].c);
	}
	for (size_t i = 0; i < s->cg.n; i++) {
		free(s->cg.v[i].path);
		free(s->cg.v[i].c);
	}
	s->cg.n = 0;
	s->cg.on = false;
	s->cg.fds = s->cg.budget = 0;
	s->nthreads = 0;
	for (size_t i = 0; i < s->ncpus; i++)
		free(s->cpus[i].c);
	s->ntasks = 0;
	s->ncpus = 0;
	s->smp.n = 0;
	s->smp.nmaps = 0;
	for (size_t i = 0; i < s->smp.nareas; i++)
		free(s->smp.areas[i].name);
	s->smp.nareas = 0;
	s->smp.maps_changed = false;
	s->smp.pid = 0;
	s->smp.source[0] = '\0';
	s->smp.lost = s->smp.throttled = s->smp.period = 0;
	s->smp.flags = 0;
	s->smp.nonmem = 0;
}

void snapshot_release(struct snapshot *s)
{
	snapshot_free_entries(s);
	free(s->tasks);
	free(s->threads);
	free(s->cpus);
	free(s->cg.v);
	free(s->smp.v);
	free(s->smp.maps);
	free(s->smp.areas);
	snapshot_init(s, 0);
}

void snapshot_clear(struct snapshot *s)
{
	snapshot_free_entries(s);
	s->t_ns = 0;
	s->wall = 0;
	memset(s->load, 0, sizeof(s->load));
	s->uptime = -1;
	s->host[0] = s->kernel[0] = '\0';
	s->mem_total_kib = 0;
	s->mem = (struct snap_mem){ 0 };
}

static struct snap_count *snapshot_new_counts(size_t nev)
{
	struct snap_count *c = xcalloc(nev ? nev : 1, sizeof(*c));

	for (size_t i = 0; i < nev; i++)
		c[i].err = -ENOENT;
	return c;
}

static struct snap_task *snapshot_append(struct snap_task **v, size_t *n, size_t *cap, size_t nev,
					 int pid, int tgid)
{
	struct snap_task *t;

	*v = xgrow(*v, cap, *n + 1, sizeof(**v));
	t = &(*v)[(*n)++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tgid = tgid;
	t->state = '?';
	t->cmdline = xstrdup("");
	t->c = snapshot_new_counts(nev);
	return t;
}

struct snap_task *snapshot_add_task(struct snapshot *s, int pid)
{
	return snapshot_append(&s->tasks, &s->ntasks, &s->tcap, s->nev, pid, pid);
}

struct snap_task *snapshot_add_thread(struct snapshot *s, int tid, int tgid)
{
	return snapshot_append(&s->threads, &s->nthreads, &s->thcap, s->nev, tid, tgid);
}

struct snap_cpu *snapshot_add_cpu(struct snapshot *s, int cpu)
{
	struct snap_cpu *c;

	s->cpus = xgrow(s->cpus, &s->ccap, s->ncpus + 1, sizeof(*s->cpus));
	c = &s->cpus[s->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->c = snapshot_new_counts(s->nev);
	return c;
}

static int snapshot_cmp_pid(const void *a, const void *b)
{
	const struct snap_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

void snapshot_sort(struct snapshot *s)
{
	if (s->ntasks > 1)
		qsort(s->tasks, s->ntasks, sizeof(*s->tasks), snapshot_cmp_pid);
	if (s->nthreads > 1)
		qsort(s->threads, s->nthreads, sizeof(*s->threads), snapshot_cmp_pid);
}

static const struct snap_task *snapshot_bsearch(const struct snap_task *v, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct snap_task *snapshot_find_task(const struct snapshot *s, int pid)
{
	return snapshot_bsearch(s->tasks, s->ntasks, pid);
}

const struct snap_task *snapshot_find_thread(const struct snapshot *s, int tid)
{
	return snapshot_bsearch(s->threads, s->nthreads, tid);
}

void snapshot_task_set_cmdline(struct snap_task *t, const char *cmdline)
{
	free(t->cmdline);
	t->cmdline = xstrdup(cmdline ? cmdline : "");
}

void snapshot_task_set_cgroup(struct snap_task *t, const char *path)
{
	free(t->cgroup);
	t->cgroup = path ? xstrdup(path) : NULL;
}

struct snap_cgroup *snapshot_add_cgroup(struct snapshot *s, const char *path)
{
	struct snap_cgroup *g;

	s->cg.v = xgrow(s->cg.v, &s->cg.cap, s->cg.n + 1, sizeof(*s->cg.v));
	g = &s->cg.v[s->cg.n++];
	memset(g, 0, sizeof(*g));
	g->path = xstrdup(path);
	g->c = snapshot_new_counts(s->nev);
	return g;
}

const struct snap_cgroup *snapshot_find_cgroup(const struct snapshot *s, const char *path)
{
	size_t lo = 0, hi = s->cg.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->cg.v[mid].path, path);

		if (!c)
			return &s->cg.v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct snap_sample *snapshot_add_sample(struct snapshot *s)
{
	struct snap_sample *x;

	s->smp.v = xgrow(s->smp.v, &s->smp.cap, s->smp.n + 1, sizeof(*s->smp.v));
	x = &s->smp.v[s->smp.n++];
	memset(x, 0, sizeof(*x));
	return x;
}

struct mem_map *snapshot_add_map(struct snapshot *s)
{
	struct mem_map *x;

	s->smp.maps = xgrow(s->smp.maps, &s->smp.mcap, s->smp.nmaps + 1, sizeof(*s->smp.maps));
	x = &s->smp.maps[s->smp.nmaps++];
	memset(x, 0, sizeof(*x));
	return x;
}

uint32_t snapshot_add_area(struct snapshot *s, const struct mem_area *a)
{
	struct mem_area *x;

	s->smp.areas = xgrow(s->smp.areas, &s->smp.acap, s->smp.nareas + 1, sizeof(*s->smp.areas));
	x = &s->smp.areas[s->smp.nareas++];
	*x = *a;
	x->name = xstrdup(a->name ? a->name : "");
	return (uint32_t)s->smp.nareas;
}

static void snapshot_copy_sampling(struct snapshot *dst, const struct snapshot *src)
{
	struct snap_sample *v = dst->smp.v;
	struct mem_map *maps = dst->smp.maps;
	struct mem_area *areas = dst->smp.areas;
	size_t cap = dst->smp.cap, mcap = dst->smp.mcap, acap = dst->smp.acap;

	for (size_t i = 0; i < dst->smp.nareas; i++)
		free(dst->smp.areas[i].name);
	dst->smp = src->smp;
	dst->smp.v = v;
	dst->smp.cap = cap;
	dst->smp.maps = maps;
	dst->smp.mcap = mcap;
	dst->smp.areas = areas;
	dst->smp.acap = acap;
	dst->smp.n = dst->smp.nmaps = dst->smp.nareas = 0;
	for (size_t i = 0; i < src->smp.nareas; i++)
		snapshot_add_area(dst, &src->smp.areas[i]);
	for (size_t i = 0; i < src->smp.n; i++)
		*snapshot_add_sample(dst) = src->smp.v[i];
	for (size_t i = 0; i < src->smp.nmaps; i++)
		*snapshot_add_map(dst) = src->smp.maps[i];
}

void snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	snapshot_copy_counts(dst, src);
	snapshot_copy_sampling(dst, src);
}

void snapshot_copy_counts(struct snapshot *dst, const struct snapshot *src)
{
	snapshot_clear(dst);
	dst->nev = src->nev;
	dst->t_ns = src->t_ns;
	dst->wall = src->wall;
	memcpy(dst->load, src->load, sizeof(dst->load));
	dst->uptime = src->uptime;
	dst->mem_total_kib = src->mem_total_kib;
	dst->mem = src->mem;
	memcpy(dst->host, src->host, sizeof(dst->host));
	memcpy(dst->kernel, src->kernel, sizeof(dst->kernel));
	for (size_t i = 0; i < src->ntasks + src->nthreads; i++) {
		bool thr = i >= src->ntasks;
		const struct snap_task *st = thr ? &src->threads[i - src->ntasks] : &src->tasks[i];
		struct snap_task *t = thr ? snapshot_add_thread(dst, st->pid, st->tgid)
					  : snapshot_add_task(dst, st->pid);
		struct snap_count *c = t->c;
		char *cmd = t->cmdline;

		*t = *st;
		t->c = c;
		t->cmdline = cmd;
		t->cgroup = NULL;
		snapshot_task_set_cmdline(t, st->cmdline);
		snapshot_task_set_cgroup(t, st->cgroup);
		memcpy(t->c, st->c, src->nev * sizeof(*c));
	}
	for (size_t i = 0; i < src->cg.n; i++) {
		struct snap_cgroup *g = snapshot_add_cgroup(dst, src->cg.v[i].path);

		g->err = src->cg.v[i].err;
		g->t_ns = src->cg.v[i].t_ns;
		memcpy(g->c, src->cg.v[i].c, src->nev * sizeof(*g->c));
	}
	dst->cg.on = src->cg.on;
	dst->cg.fds = src->cg.fds;
	dst->cg.budget = src->cg.budget;
	for (size_t i = 0; i < src->ncpus; i++) {
		struct snap_cpu *c = snapshot_add_cpu(dst, src->cpus[i].cpu);

		c->busy = src->cpus[i].busy;
		c->total = src->cpus[i].total;
		c->t_ns = src->cpus[i].t_ns;
		memcpy(c->c, src->cpus[i].c, src->nev * sizeof(*c->c));
	}
}
