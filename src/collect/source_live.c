/* Live source glue: open, read a tick, free. Concerns live in live_*.c. */
#include "config.h"
#include "collect/source_live.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "collect/live.h"
#include "util/xalloc.h"

/*
 * PMCTOP_SIM_GROUPS=N, for benchmarks: the software set opened as N groups
 * per thread (live_build_task_groups); 0 when unset or not a count 2..32.
 */
static int live_sim_groups(void)
{
	const char *v = getenv("PMCTOP_SIM_GROUPS");
	char *end;
	long n;

	if (!v || !*v)
		return 0;
	n = strtol(v, &end, 10);
	return *end || n < 2 || n > 32 ? 0 : (int)n;
}

static int live_read(struct source *s, struct snapshot *snap)
{
	struct live *l = (struct live *)s;
	struct timespec ts;
	char buf[256];
	struct proc_meminfo mi;
	long n;

	snapshot_clear(snap);
	snap->nev = s->ev.n;
	snap->t_ns = sysops_now(l->ops);
	clock_gettime(CLOCK_REALTIME, &ts);
	snap->wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	n = proc_kept_read(&l->kloadavg, l->rootfd, "loadavg", buf, sizeof(buf));
	if (n > 0)
		proc_parse_loadavg(buf, (size_t)n, snap->load);
	if (n <= 0 || proc_parse_loadavg_pid(buf, (size_t)n, &l->lastpid))
		l->lastpid = -1;
	n = proc_kept_read(&l->kuptime, l->rootfd, "uptime", buf, sizeof(buf));
	if (n <= 0 || proc_parse_uptime(buf, (size_t)n, &snap->uptime))
		snap->uptime = -1;
	/* without it %MEM is empty, never a guess */
	if (!proc_kept_meminfo(&l->kmeminfo, l->rootfd, &mi)) {
		snap->mem_total_kib = mi.total;
		snap->mem = (struct snap_mem){ .known = true,
					       .free_kib = mi.free,
					       .buffers_kib = mi.buffers,
					       .cached_kib = mi.cached,
					       .sreclaimable_kib = mi.sreclaimable,
					       .swap_total_kib = mi.swap_total,
					       .swap_free_kib = mi.swap_free,
					       .avail_kib = mi.available };
	} else {
		unsigned long long memtotal;

		/* a kernel without MemAvailable still gives %MEM */
		snap->mem_total_kib = proc_read_memtotal(l->rootfd, &memtotal) ? 0 : memtotal;
	}
	live_read_cpus(l, snap);
	/* cgroups before processes: they take few descriptors and come first for them */
	live_cgroups_read(l, snap);
	if (!l->o.no_tasks) {
		if (l->be->tick_begin)
			l->be->tick_begin(l);
		live_scan(l, snap);
		if (l->be->tick_end)
			l->be->tick_end(l);
	}
	live_copy_same(l, snap);
	/* tids of different processes interleave */
	snapshot_sort(snap);
	live_fill_samples(l, snap);
	return 0;
}

static void live_threads(struct source *s, int pid, bool all)
{
	struct live *l = (struct live *)s;

	l->focus = pid;
	l->all_threads = all;
}

static void live_free(struct source *s)
{
	struct live *l = (struct live *)s;

	live_tasks_free(l);
	if (l->be->free)
		l->be->free(l);
	live_cgroups_free(l);
	live_cpus_free(l);
	proc_kept_close(&l->kloadavg);
	proc_kept_close(&l->kuptime);
	proc_kept_close(&l->kmeminfo);
	proc_kept_close(&l->kstat);
	free(l->kstat_buf);
	live_samples_free(l);
	free(l->tmp);
	free(l->attr);
	free(l->same);
	free(l->pattr);
	pmu_set_release(&l->pmus);
	free(l->tg);
	free(l->sw);
	free(l->tg_en);
	free(l->tg_starved);
	free(l->cg);
	live_facts_free(l);
	free(l->pids_copy);
	free(l->proc_copy);
	free(l->sysfs_copy);
	for (size_t i = 0; i < l->o.ncgroup_paths; i++)
		free((char *)l->o.cgroup_paths[i]);
	free((void *)l->o.cgroup_paths);
	procevents_close(l->pev);
	pidkeys_close(l->pidkeys);
	if (l->rootfd >= 0)
		close(l->rootfd);
	source_release(&l->base);
	free(l);
}

static void live_extras(struct source *s, unsigned extras)
{
	((struct live *)s)->extras = extras;
}

static const struct source_ops LIVE_OPS = {
	.read = live_read,
	.threads = live_threads,
	.kernel_threads = live_kernel_threads,
	.extras = live_extras,
	.sample = live_sample,
	.poll_fds = live_poll_fds,
	.wake = live_wake,
	.free = live_free,
};

struct source *source_live_new(const struct evlist *req, const struct live_opts *o, char *err,
			       size_t errsize)
{
	struct live *l = xcalloc(1, sizeof(*l));
	struct fact why;
	struct utsname un;
	const char *root = o->proc_root ? o->proc_root : "/proc";
	int r;

	source_init(&l->base, &LIVE_OPS);
	live_backend_default(l);
	l->base.caps = SOURCE_CAP_SAMPLE | SOURCE_CAP_THREADS | SOURCE_CAP_LIVE;
	l->rootfd = -1;
	l->lastpid = -1;
	l->online_fd = -1;
	proc_kept_init(&l->kloadavg, false);
	proc_kept_init(&l->kuptime, false);
	proc_kept_init(&l->kmeminfo, false);
	proc_kept_init(&l->kstat, false);
	l->cg_mntfd = -1;
	l->ctxsw_sched = -1;
	l->paranoid = -2;
	l->o = *o;
	if (o->ncgroup_paths) {
		const char **paths = xcalloc(o->ncgroup_paths, sizeof(*paths));

		for (size_t i = 0; i < o->ncgroup_paths; i++)
			paths[i] = xstrdup(o->cgroup_paths[i]);
		l->o.cgroup_paths = paths;
	} else {
		l->o.cgroup_paths = NULL;
	}
	l->kthreads = o->kernel_threads;
	/* every fact until the caller says what it shows */
	l->extras = SOURCE_EXTRA_SHR;
	l->ops = sysops_or_real(o->ops);
	if (o->npids) {
		l->pids_copy = xmalloc(o->npids * sizeof(int));
		memcpy(l->pids_copy, o->pids, o->npids * sizeof(int));
		l->o.pids = l->pids_copy;
	}
	l->proc_copy = xstrdup(root);
	l->o.proc_root = l->proc_copy;
	if (o->sysfs_root) {
		l->sysfs_copy = xstrdup(o->sysfs_root);
		l->o.sysfs_root = l->sysfs_copy;
	}
	l->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->rootfd < 0) {
		fact_text(err, errsize, fact_set(&why, FACT_ROOT, -errno, root, -2));
		goto out_free;
	}
	l->proc_owner = proc_is_procfs(l->rootfd);
	proc_kept_init(&l->kloadavg, l->proc_owner);
	proc_kept_init(&l->kuptime, l->proc_owner);
	proc_kept_init(&l->kmeminfo, l->proc_owner);
	proc_kept_init(&l->kstat, l->proc_owner);
	/* new processes from the kernel's events where it sends them; else /proc listed each tick */
	if (!o->proc_root && !o->no_tasks)
		procevents_open(&l->pev, l->rootfd, LIVE_RESCAN_S);
	if (uname(&un) == 0) {
		snprintf(l->base.host, sizeof(l->base.host), "%s", un.nodename);
		snprintf(l->base.kernel, sizeof(l->base.kernel), "%s", un.release);
	}
	l->sim_groups = live_sim_groups();
	live_probe(l, req);
	/*
	 * BPF where permitted and loadable, else task counts from /proc where it
	 * keeps every event counted; an error only when /proc was asked for
	 */
	r = live_backend_choose(l, LIVE_BE_AT_PROBE, &why);
	if (!r)
		r = live_probe_finish(l, req, &why);
	if (r) {
		/* --task-counts=proc for events /proc does not keep: the options' fault */
		if (why.what == FACT_PROC_COUNTS && o->usage_err)
			*o->usage_err = true;
		fact_text(err, errsize, &why);
		goto out_free;
	}
	l->fd_budget = live_fd_budget(o->fd_keep);
	/* the files of every tick, kept open: loadavg, uptime, meminfo and stat; the online CPUs */
	l->fds_open += (l->proc_owner ? LIVE_KEPT_PROC_FILES : 0) + (o->sysfs_root ? 0 : 1);
	/* a backend that needs the task groups and the descriptor budget (none yet) */
	if (live_backend_choose(l, LIVE_BE_AT_OPEN, &why)) {
		fact_text(err, errsize, &why);
		goto out_free;
	}
	if (o->hw_top && l->nsw)
		live_hw_limit(l);
	live_open_cpus(l);
	if (live_cgroups_init(l, &why)) {
		fact_text(err, errsize, &why);
		goto out_free;
	}
	return &l->base;
out_free:
	live_free(&l->base);
	return NULL;
}

int source_live_paranoid(const struct source *s)
{
	return ((const struct live *)s)->paranoid;
}

const struct errmsg_mode *source_live_mode(const struct source *s)
{
	return &((const struct live *)s)->mode;
}

const struct fact *source_live_facts(const struct source *s, size_t *n)
{
	const struct live *l = (const struct live *)s;

	*n = l->nfacts;
	return l->facts;
}
