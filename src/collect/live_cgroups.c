/* Live source, cgroups: per-CPU groups on cgroup v2 directories, rescanned each tick. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define LIVE_MOUNTINFO_MAX (1u << 20)	/* bytes of /proc/self/mountinfo read */
#define LIVE_CG_REREAD_NS 2000000000ull /* how often each process's cgroup is read again */

int live_cgroups_init(struct live *l, struct fact *why)
{
	char *buf;
	long n;
	int r;

	l->cg_mntfd = -1;
	if (!l->o.cgroups)
		return 0;
	l->cg_mnt = xcalloc(1, sizeof(*l->cg_mnt));
	buf = xmalloc(LIVE_MOUNTINFO_MAX);
	n = proc_read_file(l->rootfd, "self/mountinfo", buf, LIVE_MOUNTINFO_MAX);
	r = n < 0 ? (int)n : cgroupfs_parse_mountinfo(buf, (size_t)n, l->cg_mnt);
	free(buf);
	if (!r) {
		l->cg_mntfd = l->ops->openat(l->ops->ctx, AT_FDCWD, l->cg_mnt->dir,
					     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (l->cg_mntfd < 0) {
			r = l->cg_mntfd;
			l->cg_mntfd = -1;
		}
	}
	if (r) {
		char where[4096 + 32];

		if (r == -ENOENT && n >= 0)
			snprintf(where, sizeof(where), "%s/self/mountinfo", l->o.proc_root);
		else
			snprintf(where, sizeof(where), "%s",
				 n < 0 ? "/proc/self/mountinfo" : l->cg_mnt->dir);
		fact_set(why, FACT_CGROUP_MOUNT, r, where, l->paranoid);
		free(l->cg_mnt);
		l->cg_mnt = NULL;
		if (l->o.cgroups_required)
			return r;
		live_tell(l, why);
		return 0;
	}
	l->cg_named = xcalloc(l->o.ncgroup_paths + 1, sizeof(*l->cg_named));
	l->cg_told = xcalloc(l->o.ncgroup_paths + 1, sizeof(*l->cg_told));
	for (size_t i = 0; i < l->o.ncgroup_paths; i++) {
		char path[CGROUPFS_PATH_MAX];

		/* the options checked the forms; the mount point is known only now */
		if (cgroupfs_normalize(l->cg_mnt->dir, l->o.cgroup_paths[i], path, sizeof(path)))
			continue;
		l->cg_named[l->ncg_named++] = xstrdup(path);
	}
	return 0;
}

/* Close c's counters (as live_cg_open opened them) and give its descriptors back. */
static void live_cg_close(struct live *l, struct live_cgroup *c)
{
	for (size_t i = 0; c->gerr && i < c->ncpu * c->ng; i++)
		if (!c->gerr[i])
			counters_close_group(&c->g[i]);
	l->fds_open -= c->fds;
	l->cg_fds -= c->fds;
	c->fds = 0;
	free(c->g);
	free(c->gerr);
	free(c->cpus);
	c->g = NULL;
	c->gerr = NULL;
	c->cpus = NULL;
	c->ncpu = c->ng = 0;
}

static void live_cg_free(struct live *l, struct live_cgroup *c)
{
	live_cg_close(l, c);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

/*
 * Open a group set per online CPU on c's directory. c->err is 0 when some
 * CPU counts it; -EMFILE without trying when the descriptors would pass the
 * budget. False when the directory went away meanwhile.
 */
static bool live_cg_open(struct live *l, struct live_cgroup *c)
{
	const struct cpumap *on = &l->online;
	size_t need = on->n * l->set_fds + 1;
	int dfd, first = 0;

	c->err = 0;
	if (l->fds_open + need > l->fd_budget) {
		c->err = -EMFILE;
		return true;
	}
	dfd = l->ops->openat(l->ops->ctx, l->cg_mntfd, c->path[1] ? c->path + 1 : ".",
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		c->err = dfd;
		return dfd != -ENOENT && dfd != -ENOTDIR;
	}
	c->ncpu = on->n;
	c->ng = l->ntg;
	c->cpus = xcalloc(c->ncpu ? c->ncpu : 1, sizeof(*c->cpus));
	memcpy(c->cpus, on->cpu, c->ncpu * sizeof(*c->cpus));
	c->g = xcalloc(c->ncpu * c->ng + 1, sizeof(*c->g));
	c->gerr = xcalloc(c->ncpu * c->ng + 1, sizeof(*c->gerr));
	for (size_t i = 0; i < c->ncpu; i++)
		for (size_t k = 0; k < c->ng; k++) {
			const struct perf_event_attr *a[COUNTERS_MAX_GROUP];
			const struct live_gdef *d = &l->tg[k];
			int *e = &c->gerr[i * c->ng + k], bad;

			/* a core PMU counts on its own CPUs only; PMCTOP_SIM_GROUPS's copies: none */
			if (d->sim ||
			    (d->pmu >= 0 && !pmu_has_cpu(&l->pmus, (size_t)d->pmu, c->cpus[i]))) {
				*e = -ENOENT;
				continue;
			}
			for (int m = 0; m < d->nr; m++)
				a[m] = live_attr(l, d, m);
			*e = counters_open_group(&c->g[i * c->ng + k], l->ops, a, d->ev, d->nr, dfd,
						 c->cpus[i], COUNTERS_CGROUP, &bad);
			if (!*e) {
				c->fds += (size_t)d->nr;
				continue;
			}
			if (!first)
				first = *e;
		}
	l->ops->close(l->ops->ctx, dfd);
	l->fds_open += c->fds;
	l->cg_fds += c->fds;
	if (!c->fds) {
		live_cg_close(l, c);
		c->err = first ? first : -ENOENT;
	}
	return true;
}

/* The cgroups to count now: the walk down to the depth, and the named ones that exist. */
static long live_cg_wanted(struct live *l)
{
	long n = cgroupfs_walk(l->cg_mntfd, l->o.cgroup_depth, &l->cg_walk, &l->cg_walkcap);
	size_t k;

	if (n < 0)
		return n;
	for (size_t i = 0; i < l->ncg_named; i++) {
		const char *p = l->cg_named[i];
		struct stat st;
		bool dup = false;

		if (fstatat(l->cg_mntfd, p[1] ? p + 1 : ".", &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode)) {
			if (!l->cg_told[i]) {
				l->cg_told[i] = true;
				live_tell_err(l, FACT_CGROUP_MISSING, -ENOENT, p);
			}
			continue;
		}
		l->cg_told[i] = false; /* gone again later: said again */
		for (long j = 0; j < n && !dup; j++)
			dup = !strcmp(l->cg_walk[j].path, p);
		if (dup)
			continue;
		l->cg_walk = xgrow(l->cg_walk, &l->cg_walkcap, (size_t)n + 1, sizeof(*l->cg_walk));
		l->cg_walk[n].path = xstrdup(p);
		l->cg_walk[n].ino = (unsigned long long)st.st_ino;
		l->cg_walk[n++].depth = 0;
	}
	cgroupfs_sort(l->cg_walk, (size_t)n);
	/* a name given twice is counted once */
	for (k = 0; (long)k + 1 < n;) {
		if (strcmp(l->cg_walk[k].path, l->cg_walk[k + 1].path)) {
			k++;
			continue;
		}
		free(l->cg_walk[k + 1].path);
		memmove(&l->cg_walk[k + 1], &l->cg_walk[k + 2],
			(size_t)(n - (long)k - 2) * sizeof(*l->cg_walk));
		n--;
	}
	return n;
}

/* Whether c was opened on exactly the CPUs online now. */
static bool live_cg_cpus_current(const struct live *l, const struct live_cgroup *c)
{
	if (c->ncpu != l->online.n)
		return false;
	return !memcmp(c->cpus, l->online.cpu, c->ncpu * sizeof(*c->cpus));
}

/*
 * Follow the hierarchy: cgroups that appeared are opened, those removed
 * (or made again under their name) are closed and leave no row, those that
 * found no descriptor are tried again, and CPU hotplug reopens them all.
 */
static void live_cg_rescan(struct live *l)
{
	long n = live_cg_wanted(l);
	struct live_cgroup *next;
	size_t old = 0, nn = 0;

	if (n < 0)
		return; /* the root cannot be listed now: keep what is counted */
	next = xcalloc((size_t)n + 1, sizeof(*next));
	for (long i = 0; i < n; i++) {
		struct cgroupfs_entry *e = &l->cg_walk[i];
		struct live_cgroup *c = &next[nn];

		while (old < l->ncgs && strcmp(l->cgs[old].path, e->path) < 0)
			live_cg_free(l, &l->cgs[old++]);
		if (old < l->ncgs && !strcmp(l->cgs[old].path, e->path)) {
			struct live_cgroup *o = &l->cgs[old++];

			if (o->ino == e->ino) {
				bool retry;

				*c = *o;
				memset(o, 0, sizeof(*o));
				/* only a want of descriptors passes; a refusal would be met again */
				retry = c->err == -EMFILE || c->err == -ENFILE;
				if (!retry && (c->err || live_cg_cpus_current(l, c))) {
					nn++;
					continue;
				}
				live_cg_close(l, c);
			} else {
				live_cg_free(l, o);
				c->path = xstrdup(e->path);
				c->ino = e->ino;
			}
		} else {
			c->path = xstrdup(e->path);
			c->ino = e->ino;
		}
		/* a new cgroup, a retry, or new CPUs: open it now */
		if (!live_cg_open(l, c)) {
			live_cg_free(l, c); /* removed between the walk and the open */
			continue;
		}
		nn++;
	}
	while (old < l->ncgs)
		live_cg_free(l, &l->cgs[old++]);
	for (long i = 0; i < n; i++)
		free(l->cg_walk[i].path);
	free(l->cgs);
	l->cgs = next;
	l->ncgs = nn;
	l->cgscap = (size_t)n + 1;
}

/* Tell the first permission failure, running out of descriptors, and the cost once. */
static void live_cg_tell(struct live *l)
{
	size_t nfd = 0, counted = 0;
	int perm = 0;

	for (size_t i = 0; i < l->ncgs; i++) {
		int e = l->cgs[i].err;

		if (e == -EMFILE || e == -ENFILE)
			nfd++;
		else if ((e == -EACCES || e == -EPERM) && !perm)
			perm = e;
		else if (!e)
			counted++;
	}
	if (perm && !l->told_cg_err) {
		l->told_cg_err = true;
		live_tell_err(l, FACT_CGROUPS, perm, NULL);
	}
	if (nfd && !l->told_cg_fds) {
		struct fact f;

		l->told_cg_fds = true;
		fact_set(&f, FACT_CGROUPS, -EMFILE, NULL, l->paranoid);
		f.cgroups.left_out = (long long)nfd;
		live_tell(l, &f);
	}
	if (counted && !l->told_cg_cost) {
		struct fact f;

		l->told_cg_cost = true;
		fact_set(&f, FACT_CGROUP_COST, 0, NULL, l->paranoid);
		f.cgroup_cost.cgroups = (long long)counted;
		f.cgroup_cost.fds = (long long)l->cg_fds;
		live_tell(l, &f);
	}
}

/* Sum c's groups over its CPUs into counts out, as perf stat -a -G adds them. */
static void live_cg_fill(struct live *l, const struct live_cgroup *c, struct snap_count *out,
			 bool *ok)
{
	size_t nev = l->base.ev.n;

	memset(ok, 0, nev * sizeof(*ok));
	for (size_t k = 0; k < c->ng; k++)
		for (int m = 0; m < l->tg[k].nr && !l->tg[k].sim; m++) {
			struct snap_count *d = &out[l->tg[k].ev[m]];

			d->value = d->enabled = d->running = 0;
			d->err = -ENODATA;
		}
	for (size_t i = 0; i < c->ncpu; i++)
		for (size_t k = 0; k < c->ng; k++) {
			const struct live_gdef *d = &l->tg[k];
			int r = c->gerr[i * c->ng + k];

			if ((r == -ENOENT && d->pmu >= 0) || d->sim)
				continue; /* its PMU is not on this CPU, or a copy never opened */
			if (!r)
				r = counters_read_group(&c->g[i * c->ng + k], l->tmp);
			for (int m = 0; m < d->nr; m++) {
				int e = d->ev[m];

				if (r) {
					if (!ok[e])
						out[e].err = r;
					continue;
				}
				ok[e] = true;
				out[e].err = 0;
				out[e].value += l->tmp[e].value;
				out[e].enabled += l->tmp[e].enabled;
				out[e].running += l->tmp[e].running;
			}
		}
}

void live_cgroups_read(struct live *l, struct snapshot *snap)
{
	size_t nev = l->base.ev.n;
	bool *ok;

	l->cg_reread = false;
	if (!l->cg_mnt)
		return;
	if (!l->cg_proc_t || snap->t_ns - l->cg_proc_t >= LIVE_CG_REREAD_NS) {
		l->cg_reread = l->cg_proc_t != 0; /* the first tick reads them anyway */
		l->cg_proc_t = snap->t_ns;
	}
	live_cg_rescan(l);
	live_cg_tell(l);
	snap->cg.on = true;
	snap->cg.fds = l->cg_fds;
	snap->cg.budget = l->fd_budget == (size_t)-1 ? 0 : l->fd_budget;
	ok = xcalloc(nev + 1, sizeof(*ok));
	for (size_t i = 0; i < l->ncgs; i++) {
		const struct live_cgroup *c = &l->cgs[i];
		struct snap_cgroup *g = snapshot_add_cgroup(snap, c->path);

		g->err = c->err;
		for (size_t e = 0; e < nev; e++)
			g->c[e].err = l->base.ev.ev[e].err ? l->base.ev.ev[e].err
				      : c->err		   ? c->err
							   : -ENOENT;
		if (!c->err) {
			live_cg_fill(l, c, g->c, ok);
			g->t_ns = sysops_now(l->ops);
		}
	}
	free(ok);
}

void live_cgroups_reset(struct live *l)
{
	for (size_t i = 0; i < l->ncgs; i++) {
		live_cg_close(l, &l->cgs[i]);
		l->cgs[i].err = -EMFILE; /* not counted until reopened: the next rescan does */
	}
}

char *live_cgroup_of(struct live *l, int pid)
{
	char path[64], buf[4096], cg[CGROUPFS_PATH_MAX], rel[CGROUPFS_PATH_MAX];
	long n;

	if (!l->cg_mnt)
		return NULL;
	snprintf(path, sizeof(path), "%d/cgroup", pid);
	n = proc_read_file(l->rootfd, path, buf, sizeof(buf));
	if (n <= 0 || cgroupfs_parse_proc(buf, (size_t)n, cg, sizeof(cg)) ||
	    cgroupfs_relative(l->cg_mnt, cg, rel, sizeof(rel)))
		return NULL;
	return xstrdup(rel);
}

void live_cgroups_free(struct live *l)
{
	for (size_t i = 0; i < l->ncgs; i++)
		live_cg_free(l, &l->cgs[i]);
	free(l->cgs);
	for (size_t i = 0; i < l->ncg_named; i++)
		free(l->cg_named[i]);
	free(l->cg_named);
	free(l->cg_told);
	free(l->cg_walk);
	free(l->cg_mnt);
	if (l->cg_mntfd >= 0)
		l->ops->close(l->ops->ctx, l->cg_mntfd);
}
