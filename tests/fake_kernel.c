/* The fake kernel the unit tests run collection against (see fake_kernel.h). */
#include "config.h"
#include "fake_kernel.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fake_ev *fake_kernel_event(struct fake_kernel *fk, int fd)
{
	if (fd < FAKE_KERNEL_FD0 || fd >= FAKE_KERNEL_FD0 + fk->nev)
		return NULL;
	return &fk->ev[fd - FAKE_KERNEL_FD0];
}

static bool fake_kernel_pid_kept(int pid)
{
	return pid >= 0 && pid < FAKE_KERNEL_PIDS;
}

/* The PMU index of an event, -1 for software, or -errno when no PMU takes it. */
static int fake_kernel_pmu_of(const struct fake_kernel *fk, const struct perf_event_attr *a)
{
	uint32_t ext = (uint32_t)(a->config >> 32);

	if (a->type == PERF_TYPE_SOFTWARE || fk->any_event)
		return -1;
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		if (!fk->npmu)
			return -ENOENT;
		if (!ext)
			return 0; /* a legacy event lands on the first core PMU */
		if (fk->no_ext)
			return -EINVAL;
		for (int p = 0; p < fk->npmu; p++)
			if (fk->type[p] == ext)
				return p;
		return -ENOENT;
	}
	for (int p = 0; p < fk->npmu; p++)
		if (fk->type[p] == a->type)
			return p;
	return -ENOENT;
}

/* A hardware event joining group_fd: the same PMU, and no more than its counters. */
static int fake_kernel_validate(const struct fake_kernel *fk, int pmu, int group_fd)
{
	int n = 1;

	for (int i = 0; i < fk->nev; i++)
		if (fk->ev[i].open && fk->ev[i].leader == group_fd && fk->ev[i].pmu >= 0) {
			if (fk->ev[i].pmu != pmu)
				return -EINVAL;
			n++;
		}
	return n > fk->counters[pmu] ? -EINVAL : 0;
}

static uint64_t fake_kernel_rate_of(const struct fake_kernel *fk, const struct perf_event_attr *a)
{
	for (int i = 0; i < fk->nrates; i++)
		if (fk->rates[i].type == a->type && fk->rates[i].config == a->config)
			return fk->rates[i].rate;
	return 0;
}

/* The checks in the order a kernel makes them, as far as the tests tell them apart. */
static int fake_kernel_check_open(struct fake_kernel *fk, struct perf_event_attr *a, int pid,
				  int cpu, int group_fd, unsigned long flags, int pmu)
{
	if (flags & PERF_FLAG_PID_CGROUP) {
		struct stat st;

		/* cgroup mode: pid is the cgroup directory's descriptor, on one CPU */
		ck_assert_int_eq(fstat(pid, &st), 0);
		ck_assert(S_ISDIR(st.st_mode));
		ck_assert_int_ge(cpu, 0);
		ck_assert(!a->inherit);
		fk->cgroup_opens++;
		if (fk->cgroup_err)
			return fk->cgroup_err;
	} else if (fake_kernel_pid_kept(pid)) {
		fk->opens_of[pid]++;
	}
	if (!(flags & PERF_FLAG_PID_CGROUP) && pid > 0)
		fk->task_opens++;
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	fk->now_ns += fk->open_ns;
	if (fk->rule) {
		int e = fk->rule(a, group_fd);

		if (e)
			return e;
	}
	if (pmu < -1)
		return pmu;
	if (!a->exclude_kernel && fk->deny_kernel)
		return -EACCES;
	if (perf_compat_inherit_thread(a))
		fk->opens_inherit_thread++;
	if (fk->linux_5_10 &&
	    (perf_compat_inherit_thread(a) || (a->read_format & PERF_FORMAT_LOST)))
		return -EINVAL;
	if (pid == -1 && fk->cpu_err)
		return fk->cpu_err;
	if (pid == fk->err_pid && fk->err) {
		int err = fk->err;

		if (fk->err_times && --fk->err_times == 0)
			fk->err = 0;
		return err;
	}
	if (pmu >= 0 && pid == -1 && (cpu < fk->first[pmu] || cpu > fk->last[pmu])) {
		fk->wrong_cpu++;
		return -ENOENT;
	}
	if (pmu >= 0 && group_fd >= 0) {
		int e = fake_kernel_validate(fk, pmu, group_fd);

		if (e)
			return e;
	}
	if (fk->max_open && fk->nopen >= fk->max_open)
		return -EMFILE;
	return 0;
}

static int fake_kernel_perf_open(void *ctx, struct perf_event_attr *a, int pid, int cpu,
				 int group_fd, unsigned long flags)
{
	struct fake_kernel *fk = ctx;
	int pmu = fake_kernel_pmu_of(fk, a);
	int e = fake_kernel_check_open(fk, a, pid, cpu, group_fd, flags, pmu);
	struct fake_ev *ev;

	fk->last_flags = flags;
	if (e)
		return e;
	if (group_fd >= 0)
		ck_assert_ptr_nonnull(fake_kernel_event(fk, group_fd));
	if (fk->nev == fk->evcap) {
		fk->evcap = fk->evcap ? 2 * fk->evcap : 256;
		fk->ev = realloc(fk->ev, (size_t)fk->evcap * sizeof(*fk->ev));
		ck_assert_ptr_nonnull(fk->ev);
	}
	ev = &fk->ev[fk->nev];
	memset(ev, 0, sizeof(*ev));
	ev->fd = FAKE_KERNEL_FD0 + fk->nev++;
	ev->leader = group_fd < 0 ? ev->fd : group_fd;
	ev->group_fd = group_fd;
	ev->pid = pid;
	ev->cpu = cpu;
	ev->pmu = pmu;
	ev->attr = *a;
	ev->flags = flags;
	ev->rate = fake_kernel_rate_of(fk, a);
	ev->seen = fk->epoch;
	ev->open = true;
	fk->nopen++;
	fk->opens++;
	return ev->fd;
}

void fake_kernel_settle(struct fake_kernel *fk)
{
	for (int i = 0; i < fk->nev; i++) {
		struct fake_ev *e = &fk->ev[i];

		if (!e->open || e->pid <= 0 || e->leader != e->fd)
			continue;
		if (!(fake_kernel_pid_kept(e->pid) && fk->frozen >> e->pid & 1))
			e->reads += (unsigned)(fk->epoch - e->seen);
		e->seen = fk->epoch;
	}
}

/* What member m of a group counted by the r-th read of the group, which ran or not. */
static uint64_t fake_kernel_value(const struct fake_kernel *fk, const struct fake_ev *m, uint64_t r,
				  bool ran)
{
	if (!ran)
		return 0;
	if (m->rate_from && r > m->rate_from)
		return m->rate_was * m->rate_from + m->rate * (r - m->rate_from);
	if (m->rate_from)
		return m->rate_was * r;
	if (m->rate)
		return m->rate * r;
	if (m->pid != -1 && m->pmu >= 0)
		return fk->pmu_value[m->pmu] * r;
	return 10 * r;
}

/* One member's {value, id, lost} as read_format asks. */
static size_t fake_kernel_put_member(uint64_t *v, size_t n, uint64_t fmt, uint64_t value, int fd)
{
	v[n++] = value;
	if (fmt & PERF_FORMAT_ID)
		v[n++] = (uint64_t)fd;
	if (fmt & PERF_FORMAT_LOST)
		v[n++] = 0;
	return n;
}

static long fake_kernel_read(void *ctx, int fd, void *buf, size_t size)
{
	struct fake_kernel *fk = ctx;
	struct fake_ev *e = fake_kernel_event(fk, fd);
	uint64_t v[3 + 3 * 64], r, fmt, running;
	size_t n = 0, nr_at = 0;
	int members = 0;

	if (!e)
		return sysops_real()->read(NULL, fd, buf, size);
	ck_assert(e->open);
	if (e->pid == fk->echild_pid && fk->echild_reads > 0) {
		fk->echild_reads--;
		return -ECHILD;
	}
	if (fake_kernel_pid_kept(e->pid))
		fk->reads_of[e->pid]++;
	fk->now_ns += fk->read_ns;
	if (fake_kernel_pid_kept(e->pid))
		fk->read_at[e->pid] = fk->now_ns;
	if (fk->stall_ns && e->pid == fk->stall_pid) {
		fk->now_ns += fk->stall_ns;
		fk->stall_ns = 0;
	}
	if (fk->timed && e->pid > 0) {
		if (!(fake_kernel_pid_kept(e->pid) && fk->frozen >> e->pid & 1))
			e->reads += (unsigned)(fk->epoch - e->seen);
		e->seen = fk->epoch;
	} else if (!fake_kernel_pid_kept(e->pid) || !(fk->frozen >> e->pid & 1) || !e->reads) {
		e->reads++;
	}
	r = e->reads;
	fmt = e->attr.read_format;
	for (int i = 0; i < fk->nev; i++)
		members += fk->ev[i].open && fk->ev[i].leader == fd && fk->ev[i].pmu >= 0;
	running = e->pid != -1 && e->pmu >= 0 ? fk->pmu_running[e->pmu] * r : fk->epoch_ns * r;
	/* a pinned group larger than what is free does not run */
	if (e->attr.pinned && fk->free_counters && members > fk->free_counters)
		running = 0;
	if (!e->attr.pinned && e->pid != -1 && fk->starve_over && members > fk->starve_over)
		running = 0;
	if (fmt & PERF_FORMAT_GROUP)
		v[nr_at = n++] = 0;
	else
		v[n++] = fake_kernel_value(fk, e, r, running);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[n++] = fk->epoch_ns * r;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[n++] = running;
	if (!(fmt & PERF_FORMAT_GROUP)) {
		if (fmt & PERF_FORMAT_ID)
			v[n++] = (uint64_t)fd;
		if (fmt & PERF_FORMAT_LOST)
			v[n++] = 0;
	} else {
		for (int i = 0; i < fk->nev; i++) {
			const struct fake_ev *m = &fk->ev[i];

			if (!m->open || m->leader != fd)
				continue;
			ck_assert_uint_lt(n + 3, sizeof(v) / sizeof(v[0]));
			n = fake_kernel_put_member(v, n, fmt, fake_kernel_value(fk, m, r, running),
						   m->fd);
			v[nr_at]++;
		}
	}
	if (n * sizeof(uint64_t) > size)
		return -ENOSPC;
	memcpy(buf, v, n * sizeof(uint64_t));
	return (long)(n * sizeof(uint64_t));
}

/*
 * Counts the re-reads of PID/stat (or its leader's, PID/task/PID/stat) and
 * PID/task/TID/sched files, which are kept open between ticks; a kept file of a task that is gone (removed from
 * the tree) reads ESRCH, as the kernel's do.
 */
static long fake_kernel_pread(void *ctx, int fd, void *buf, size_t size, long long off)
{
	struct fake_kernel *fk = ctx;
	char link[64], path[512];
	struct stat sb;
	ssize_t n;
	int pid;

	ck_assert_ptr_null(fake_kernel_event(fk, fd));
	fk->now_ns += fk->pread_ns;
	if (!fstat(fd, &sb) && sb.st_nlink == 0)
		return -ESRCH;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 5) {
		const char *p = NULL;

		path[n] = '\0';
		for (const char *q = strstr(path, "/proc/"); q; q = strstr(q + 1, "/proc/"))
			p = q;
		int tid = 0;

		if (p && sscanf(p, "/proc/%d/stat", &pid) == 1 && fake_kernel_pid_kept(pid) &&
		    !strcmp(path + n - 5, "/stat"))
			fk->stat_preads[pid]++;
		/* the leader thread's, which stands for the process's where a backend times it */
		if (p && sscanf(p, "/proc/%d/task/%d/stat", &pid, &tid) == 2 && tid == pid &&
		    fake_kernel_pid_kept(pid) && !strcmp(path + n - 5, "/stat"))
			fk->stat_preads[pid]++;
		if (p && sscanf(p, "/proc/%d/task/", &pid) == 1 && fake_kernel_pid_kept(pid) &&
		    n > 6 && !strcmp(path + n - 6, "/sched"))
			fk->sched_preads[pid]++;
		if (p && sscanf(p, "/proc/%d/task/", &pid) == 1 && fake_kernel_pid_kept(pid) &&
		    n > 10 && !strcmp(path + n - 10, "/schedstat"))
			fk->schedstat_preads[pid]++;
	}
	return sysops_real()->pread(NULL, fd, buf, size, off);
}

static int fake_kernel_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct fake_kernel *fk = ctx;
	struct fake_ev *e = fake_kernel_event(fk, fd);

	ck_assert_ptr_nonnull(e);
	ck_assert(e->open);
	if (req == PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = (uint64_t)fd;
	if (req == PERF_EVENT_IOC_PERIOD && fk->nperiod < FAKE_KERNEL_PERIODS) {
		fk->period_set[fk->nperiod] = *(uint64_t *)arg;
		fk->period_fd[fk->nperiod++] = fd;
	}
	return 0;
}

static int fake_kernel_openat(void *ctx, int dirfd, const char *path, int flags)
{
	struct fake_kernel *fk = ctx;
	int pid, tid, n = 0;

	if (sscanf(path, "%d/task/%d/sched%n", &pid, &tid, &n) == 2 && n && !path[n] &&
	    fake_kernel_pid_kept(pid))
		fk->sched_opens[pid]++;
	n = 0;
	if (sscanf(path, "%d/stat%n", &pid, &n) == 1 && n && !path[n] && fake_kernel_pid_kept(pid))
		fk->stat_opens[pid]++;
	/*
	 * a leader thread's stat the tree does not hold: the process's, whose
	 * fields it shares (as a test writes them), but the kernel's CPU time
	 * and faults, which are the leader's alone there
	 */
	n = 0;
	if (sscanf(path, "%d/task/%d/stat%n", &pid, &tid, &n) == 2 && n && !path[n] && pid == tid) {
		int fd = sysops_real()->openat(NULL, dirfd, path, flags);
		char alias[64];

		if (fd != -ENOENT)
			return fd;
		snprintf(alias, sizeof(alias), "%d/stat", pid);
		return sysops_real()->openat(NULL, dirfd, alias, flags);
	}
	return sysops_real()->openat(NULL, dirfd, path, flags);
}

static int fake_kernel_close(void *ctx, int fd)
{
	struct fake_kernel *fk = ctx;
	struct fake_ev *e = fake_kernel_event(fk, fd);

	if (!e)
		return sysops_real()->close(NULL, fd);
	ck_assert_msg(e->open, "fd %d closed twice", fd);
	e->open = false;
	fk->nopen--;
	fk->closes++;
	return 0;
}

/* A ring as the kernel maps it: the control page, then the data pages, all zero. */
static int fake_kernel_mmap(void *ctx, int fd, size_t len, void **addr)
{
	struct fake_kernel *fk = ctx;
	struct fake_ev *e = fake_kernel_event(fk, fd);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pc;

	ck_assert_ptr_nonnull(e);
	ck_assert(e->open);
	if (fk->mmap_err)
		return fk->mmap_err;
	if (fk->refuse_mmap_above && len - page > fk->refuse_mmap_above)
		return -EPERM;
	ck_assert_uint_lt(fk->nmap, FAKE_KERNEL_MAPS);
	pc = aligned_alloc(page, len);
	ck_assert_ptr_nonnull(pc);
	memset(pc, 0, len);
	pc->data_offset = page;
	pc->data_size = len - page;
	fk->map[fk->nmap] = pc;
	fk->maplen[fk->nmap] = len;
	fk->map_fd[fk->nmap++] = fd;
	*addr = pc;
	return 0;
}

static int fake_kernel_munmap(void *ctx, void *addr, size_t len)
{
	struct fake_kernel *fk = ctx;

	for (size_t i = 0; i < fk->nmap; i++)
		if (fk->map[i] == addr) {
			ck_assert_uint_eq(fk->maplen[i], len);
			free(addr);
			fk->map[i] = NULL;
			return 0;
		}
	ck_abort_msg("munmap of %p, not mapped", addr);
	return -EINVAL;
}

static int fake_kernel_cpuclock(void *ctx, int pid, uint64_t *ns)
{
	struct fake_kernel *fk = ctx;

	if (!fk->clock)
		return -ENOSYS;
	if (!fake_kernel_pid_kept(pid))
		return -ESRCH;
	if (pid == fk->hook_pid && (fk->hook_path || fk->hook_late_ns)) {
		/* the process ran just before this read: what it did is in the clock */
		if (fk->hook_path)
			fake_kernel_write(fk->hook_path, fk->hook_text);
		fk->clock_ns[pid] += fk->hook_ns;
		fk->now_ns += fk->hook_late_ns;
		fk->hook_path = NULL;
		fk->hook_late_ns = 0;
	}
	fk->clock_reads[pid]++;
	*ns = fk->clock_ns[pid];
	return 0;
}

static uint64_t fake_kernel_monotonic(void *ctx)
{
	struct fake_kernel *fk = ctx;
	uint64_t t = fk->now_ns;

	fk->now_ns += fk->clock_step;
	return t;
}

struct fake_kernel *fake_kernel_new(void)
{
	struct fake_kernel *fk = calloc(1, sizeof(*fk));

	ck_assert_ptr_nonnull(fk);
	fk->ops = (struct sysops){ .ctx = fk,
				   .perf_open = fake_kernel_perf_open,
				   .read = fake_kernel_read,
				   .pread = fake_kernel_pread,
				   .ioctl = fake_kernel_ioctl,
				   .openat = fake_kernel_openat,
				   .close = fake_kernel_close,
				   .mmap = fake_kernel_mmap,
				   .munmap = fake_kernel_munmap,
				   .cpuclock = fake_kernel_cpuclock,
				   .monotonic = fake_kernel_monotonic };
	fk->err_pid = -1;
	fk->echild_pid = -1;
	fk->hook_pid = -1;
	fk->now_ns = 1000000000ull;
	fk->clock_step = 1000;
	fk->epoch_ns = 1000;
	for (int p = 0; p < FAKE_KERNEL_NPMU; p++) {
		fk->pmu_value[p] = 10;
		fk->pmu_running[p] = 1000;
	}
	snprintf(fk->dir, sizeof(fk->dir), "%s/pmctop-fake-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(fk->dir));
	snprintf(fk->proc, sizeof(fk->proc), "%s/proc", fk->dir);
	snprintf(fk->sys, sizeof(fk->sys), "%s/sys", fk->dir);
	fake_kernel_mkdir(fk, "proc");
	fake_kernel_mkdir(fk, "sys");
	return fk;
}

void fake_kernel_free(struct fake_kernel *fk)
{
	char cmd[300];

	if (!fk)
		return;
	for (size_t i = 0; i < fk->nmap; i++)
		free(fk->map[i]);
	free(fk->ev);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fk->dir);
	ck_assert_int_eq(system(cmd), 0);
	free(fk);
}

int fake_kernel_add_pmu(struct fake_kernel *fk, uint32_t type, int first, int last, int counters)
{
	int p = fk->npmu++;

	ck_assert_int_lt(p, FAKE_KERNEL_NPMU);
	fk->type[p] = type;
	fk->first[p] = first;
	fk->last[p] = last;
	fk->counters[p] = counters;
	return p;
}

void fake_kernel_set_rate(struct fake_kernel *fk, uint32_t type, uint64_t config, uint64_t rate)
{
	ck_assert_int_lt(fk->nrates, FAKE_KERNEL_RATES);
	fk->rates[fk->nrates].type = type;
	fk->rates[fk->nrates].config = config;
	fk->rates[fk->nrates++].rate = rate;
}

void fake_kernel_fail_open(struct fake_kernel *fk, int pid, int err, int times)
{
	fk->err_pid = pid;
	fk->err = err;
	fk->err_times = times;
}

void fake_kernel_fail_reads(struct fake_kernel *fk, int pid, int n)
{
	fk->echild_pid = pid;
	fk->echild_reads = n;
}

void fake_kernel_advance(struct fake_kernel *fk, uint64_t ns)
{
	fk->now_ns += ns;
}

void fake_kernel_write(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ck_assert_msg(fp != NULL, "%s", path);
	fputs(text, fp);
	ck_assert_int_eq(fclose(fp), 0);
}

void fake_kernel_mkdir(struct fake_kernel *fk, const char *rel)
{
	char path[600];
	size_t base = strlen(fk->dir) + 1;

	snprintf(path, sizeof(path), "%s/%s", fk->dir, rel);
	for (char *p = path + base;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST, "%s", path);
		*p = c;
		if (!c)
			break;
	}
}

void fake_kernel_put(struct fake_kernel *fk, const char *rel, const char *text)
{
	char path[600];
	const char *slash = strrchr(rel, '/');

	if (slash) {
		char dir[300];

		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
		fake_kernel_mkdir(fk, dir);
	}
	snprintf(path, sizeof(path), "%s/%s", fk->dir, rel);
	fake_kernel_write(path, text);
}

static void fake_kernel_mkdir_abs(const char *path)
{
	ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST, "%s", path);
}

void fake_kernel_add_task(const char *proc_root, int pid, const int *tids, int ntids,
			  unsigned long long start, unsigned long long ticks)
{
	char path[512], text[512];

	snprintf(path, sizeof(path), "%s/%d", proc_root, pid);
	fake_kernel_mkdir_abs(path);
	snprintf(path, sizeof(path), "%s/%d/task", proc_root, pid);
	fake_kernel_mkdir_abs(path);
	for (int i = 0; i < ntids; i++) {
		snprintf(path, sizeof(path), "%s/%d/task/%d", proc_root, pid, tids[i]);
		fake_kernel_mkdir_abs(path);
	}
	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, pid);
	snprintf(
		text, sizeof(text),
		"%d (work%d) S 1 %d %d 0 -1 4194304 5 0 0 0 %llu 0 0 0 20 0 %d 0 %llu 1000 100 0\n",
		pid, pid, pid, pid, ticks, ntids, start);
	fake_kernel_write(path, text);
	snprintf(path, sizeof(path), "%s/%d/status", proc_root, pid);
	fake_kernel_write(path, "Name:\twork\nUid:\t0\t0\t0\t0\n");
	snprintf(path, sizeof(path), "%s/%d/cmdline", proc_root, pid);
	fake_kernel_write(path, "work");
}
