/* Process counts summed at each context switch by a BPF program: maps, load, attach, read. */
#include "config.h"
#include "kernel/bpfcount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#ifdef PMCTOP_BPF

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/bpfcount.skel.h"
#include "kernel/proc.h"

#define BPFCOUNT_BATCH 1024		/* entries one batched lookup asks for */
#define BPFCOUNT_LOG_SIZE 65536		/* room for the verifier's account of a refusal */
#define BPFCOUNT_INIT_PIDNS 0xeffffffcu /* the inode of the initial PID namespace */
#define BPFCOUNT_ENOTSUPP 524		/* the kernel's own "not supported" (no batches) */

/* One table of sums as the last read found it: keys ascending, nev x FIELDS sums each. */
struct bpfcount_tab {
	int fd;
	int *keys;
	uint64_t *sums;
	size_t nkeys, kcap, scap;
};

struct bpfcount {
	const struct sysops *ops;
	int nev;
	size_t ncpus;
	int *cpus; /* the CPUs counted (online at the start) */
	int *pfd;  /* ncpus x nev perf event descriptors, -1 where not open */
	struct bpfcount_skel *skel;
	struct bpf_link *link; /* the program's attachment to sched_switch */
	int prog;	       /* the program's descriptor */
	/* the sums by process (tgid), and by thread (tid) for the processes wanted */
	struct bpfcount_tab acc, thr;
	int wanted;	/* the table of tgids whose threads are summed */
	size_t nwanted; /* entries in it */
	bool want_all;	/* every process's threads */
	unsigned wanting;
	bool ns; /* keyed by the tgids of pmctop's PID namespace */
	size_t npossible;
	size_t vsize; /* bytes of one entry's value on one CPU */
	bool no_batch;
	uint8_t kinds[BPFPROG_MAX_EVENTS]; /* BPFPROG_READ_TIMED ... of each event */
	int clock_ev;			   /* the event whose enabled time times the others */
	/* scratch of the read: the map's keys and per-CPU values as the kernel gives them */
	uint32_t *rk;
	uint8_t *rv;
	size_t rcap;
};

/* libbpf's own messages: pmctop's collection never prints; the reasons go into why */
static int bpfcount_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/*
 * Before Linux 5.11 a map's memory is charged to RLIMIT_MEMLOCK, whose
 * default (64 KiB on many systems) a few maps exceed: lift it for pmctop
 * itself, as far as it may (libbpf asks only for RLIM_INFINITY).
 */
static void bpfcount_memlock(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_MEMLOCK, &rl);
}

static int bpfcount_fail(struct bpfcount_why *why, enum bpfcount_step step, int err, int ev,
			 int cpu)
{
	why->step = step;
	why->err = err;
	why->ev = ev;
	why->cpu = cpu;
	return err;
}

/* The verifier's last non-empty line, for the message. */
static void bpfcount_log_tail(const char *log, char *out, size_t size)
{
	size_t len = strnlen(log, BPFCOUNT_LOG_SIZE);
	size_t end, start;

	while (len && (log[len - 1] == '\n' || log[len - 1] == ' '))
		len--;
	end = len;
	start = end;
	while (start && log[start - 1] != '\n')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), log + start);
}

/*
 * What this kernel lacks of what the program needs, by libbpf's probes:
 * the name of the first thing missing, or NULL when all is there (or the
 * probes themselves may not run).
 */
static const char *bpfcount_missing(bool ns)
{
	static const struct {
		enum bpf_map_type type;
		const char *name;
	} maps[] = {
		{ BPF_MAP_TYPE_PERCPU_HASH, "per-CPU hash maps (Linux 4.6)" },
		{ BPF_MAP_TYPE_PERCPU_ARRAY, "per-CPU array maps (Linux 4.6)" },
		{ BPF_MAP_TYPE_PERF_EVENT_ARRAY, "perf event arrays (Linux 4.3)" },
		{ BPF_MAP_TYPE_LRU_HASH, "LRU hash maps (Linux 4.10)" },
	};

	if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL) == 0)
		return "raw tracepoint programs (Linux 4.17)";
	for (size_t k = 0; k < sizeof(maps) / sizeof(maps[0]); k++)
		if (libbpf_probe_bpf_map_type(maps[k].type, NULL) == 0)
			return maps[k].name;
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_perf_event_read_value,
				    NULL) == 0)
		return "the helper bpf_perf_event_read_value in raw tracepoints (Linux 4.15)";
	if (ns && libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT,
					  BPF_FUNC_get_ns_current_pid_tgid, NULL) == 0)
		return "the helper bpf_get_ns_current_pid_tgid (Linux 5.7), needed in a PID "
		       "namespace";
	return NULL;
}

/* Size the program's tables for nev events, then load it: its maps first, then the program. */
static int bpfcount_load(struct bpfcount *b, size_t stride, struct bpfcount_why *why)
{
	struct bpfcount_skel *s;
	struct stat st;
	const char *missing;
	char *log;
	int r;

	s = bpfcount_skel__open();
	if (!s)
		return bpfcount_fail(why, BPFCOUNT_LOAD, errno ? -errno : -EINVAL, -1, -1);
	b->skel = s;
	s->rodata->nev = (uint32_t)b->nev;
	s->rodata->stride = (uint32_t)stride;
	memcpy((void *)s->rodata->kinds, b->kinds, sizeof(b->kinds));
	s->rodata->clock_ev = (uint32_t)b->clock_ev;
	/*
	 * In a PID namespace of its own pmctop's /proc shows the tgids of that
	 * namespace, not the kernel's: key by those (Linux 5.7)
	 */
	if (stat("/proc/self/ns/pid", &st) == 0 && st.st_ino != BPFCOUNT_INIT_PIDNS) {
		b->ns = true;
		s->rodata->ns = 1;
		s->rodata->ns_dev = (uint64_t)st.st_dev;
		s->rodata->ns_ino = (uint64_t)st.st_ino;
	} else {
		/* unused: as small as an LRU table may be */
		bpf_map__set_max_entries(s->maps.alias, (uint32_t)b->npossible);
	}
	bpf_map__set_value_size(s->maps.last, (uint32_t)BPFPROG_LAST_SIZE(b->nev));
	bpf_map__set_value_size(s->maps.acc, (uint32_t)b->vsize);
	bpf_map__set_value_size(s->maps.thr, (uint32_t)b->vsize);
	bpf_map__set_max_entries(s->maps.events, (uint32_t)(stride * (size_t)b->nev));
	/* the verifier writes its account here only when the load fails */
	log = xcalloc(1, BPFCOUNT_LOG_SIZE);
	bpf_program__set_log_buf(s->progs.bpfcount_switch, log, BPFCOUNT_LOG_SIZE);
	r = bpfcount_skel__load(s);
	if (r) {
		r = r < 0 ? r : -EINVAL;
		if (r == -EPERM) {
			/* not root nor CAP_BPF: the first map already refused */
			bpfcount_fail(why, BPFCOUNT_MAP, r, -1, -1);
		} else if ((missing = bpfcount_missing(b->ns))) {
			bpfcount_fail(why, BPFCOUNT_KERNEL, r, -1, -1);
			snprintf(why->log, sizeof(why->log), "%s", missing);
		} else {
			bpfcount_fail(why, BPFCOUNT_LOAD, r, -1, -1);
			bpfcount_log_tail(log, why->log, sizeof(why->log));
		}
	}
	free(log);
	if (r)
		return r;
	b->prog = bpf_program__fd(s->progs.bpfcount_switch);
	b->acc.fd = bpf_map__fd(s->maps.acc);
	b->thr.fd = bpf_map__fd(s->maps.thr);
	b->wanted = bpf_map__fd(s->maps.wanted);
	return 0;
}

/* Whether event i is opened on each CPU for the program to read. */
static bool bpfcount_reads(const struct bpfcount *b, int i)
{
	return i == b->clock_ev || b->kinds[i] == BPFPROG_READ_COUNT ||
	       b->kinds[i] == BPFPROG_READ_TIMED || b->kinds[i] == BPFPROG_READ_TASK;
}

/*
 * Software events the kernel counts only for a task's own doing (its page
 * faults, which need a user address space; a migration when a task that
 * moved is switched in), never while the idle task runs: not read when it
 * leaves. (Alignment and emulation faults may be counted from interrupts
 * on some architectures: read.)
 */
static bool bpfcount_task_only(uint64_t config)
{
	return config == PERF_COUNT_SW_PAGE_FAULTS || config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
	       config == PERF_COUNT_SW_PAGE_FAULTS_MAJ || config == PERF_COUNT_SW_CPU_MIGRATIONS;
}

/*
 * How the program takes each event (BPFPROG_READ_TIMED ...), and which one
 * is its clock. Each counter read costs every switch a helper call with
 * interrupts off, so what a switch tells by itself is not read: the task
 * switched out made one context switch, and a CPU's task-clock grows as
 * any of its events' enabled time does. Software events are never
 * multiplexed: their times are the clock's. An event that leaves a mode
 * out is read, as the kernel filters it.
 */
static void bpfcount_kinds(struct bpfcount *b, const struct perf_event_attr *const *attrs)
{
	b->clock_ev = -1;
	for (int i = 0; i < b->nev; i++) {
		const struct perf_event_attr *a = attrs[i];
		bool sw = a->type == PERF_TYPE_SOFTWARE;
		bool all = !a->exclude_user && !a->exclude_kernel && !a->exclude_idle;

		b->kinds[i] = sw ? BPFPROG_READ_COUNT : BPFPROG_READ_TIMED;
		if (sw && all && a->config == PERF_COUNT_SW_CONTEXT_SWITCHES)
			b->kinds[i] = BPFPROG_SWITCHES;
		else if (sw && all && a->config == PERF_COUNT_SW_TASK_CLOCK)
			b->kinds[i] = BPFPROG_CLOCK;
		else if (sw && bpfcount_task_only(a->config))
			b->kinds[i] = BPFPROG_READ_TASK;
		if (b->clock_ev < 0 && bpfcount_reads(b, i))
			b->clock_ev = i;
	}
	/* nothing to read but what the switch tells: one is read for its times, a task-clock first */
	for (int i = 0; i < b->nev && b->clock_ev < 0; i++)
		if (b->kinds[i] == BPFPROG_CLOCK)
			b->clock_ev = i;
	if (b->clock_ev < 0)
		b->clock_ev = 0;
}

/*
 * Run the program on cpu now: what the task running there counted goes to
 * its entry. Its first argument says that no task was switched out.
 */
static int bpfcount_run_on(const struct bpfcount *b, int cpu)
{
	__u64 args[1] = { BPFPROG_FLUSH };
	LIBBPF_OPTS(bpf_test_run_opts, o, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (__u32)cpu,
		    .ctx_in = args, .ctx_size_in = sizeof(args));

	return bpf_prog_test_run_opts(b->prog, &o);
}

static int bpfcount_flush(const struct bpfcount *b, struct bpfcount_why *why)
{
	for (size_t c = 0; c < b->ncpus; c++) {
		int r = bpfcount_run_on(b, b->cpus[c]);

		/* a CPU gone offline since (ENXIO) counts nothing more */
		if (r < 0 && r != -ENXIO)
			return bpfcount_fail(why, BPFCOUNT_TEST_RUN, r, -1, b->cpus[c]);
	}
	return 0;
}

int bpfcount_open(struct bpfcount **out, const struct sysops *ops, const char *sysfs,
		  const struct perf_event_attr *const *attrs, int nev, const int *cpus,
		  size_t ncpus, struct bpfcount_why *why)
{
	struct bpfcount *b;
	size_t stride = 0;
	int events, r;

	(void)sysfs;
	memset(why, 0, sizeof(*why));
	*out = NULL;
	if (nev <= 0 || nev > BPFPROG_MAX_EVENTS)
		return bpfcount_fail(why, BPFCOUNT_LOAD, -E2BIG, nev, -1);
	libbpf_set_print(bpfcount_quiet);
	b = xcalloc(1, sizeof(*b));
	b->ops = ops;
	b->nev = nev;
	b->prog = b->acc.fd = b->thr.fd = b->wanted = -1;
	b->vsize = BPFPROG_VALUE_SIZE(nev);
	b->cpus = xcalloc(ncpus ? ncpus : 1, sizeof(*b->cpus));
	memcpy(b->cpus, cpus, ncpus * sizeof(*cpus));
	b->ncpus = ncpus;
	b->pfd = xcalloc(ncpus * (size_t)nev + 1, sizeof(*b->pfd));
	for (size_t k = 0; k < ncpus * (size_t)nev; k++)
		b->pfd[k] = -1;
	/* the kernel's own count: per-CPU values come one per possible CPU, densely */
	r = libbpf_num_possible_cpus();
	if (r <= 0) {
		r = bpfcount_fail(why, BPFCOUNT_POSSIBLE, r < 0 ? r : -EINVAL, -1, -1);
		goto out_close;
	}
	b->npossible = (size_t)r;
	stride = b->npossible;
	for (size_t c = 0; c < ncpus; c++)
		if ((size_t)cpus[c] + 1 > stride)
			stride = (size_t)cpus[c] + 1;
	bpfcount_memlock();
	bpfcount_kinds(b, attrs);
	r = bpfcount_load(b, stride, why);
	if (r)
		goto out_close;
	events = bpf_map__fd(b->skel->maps.events);
	for (int i = 0; i < nev; i++) {
		if (!bpfcount_reads(b, i))
			continue;
		for (size_t c = 0; c < ncpus; c++) {
			struct perf_event_attr pa = *attrs[i];
			uint32_t key = (uint32_t)((size_t)i * stride + (size_t)cpus[c]);
			int fd;

			/* counted on the CPU, read there by the program: never inherited, always on */
			pa.size = sizeof(pa);
			pa.inherit = 0;
			pa.disabled = 0;
			pa.pinned = 0;
			pa.read_format =
				PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
			fd = sysops_perf_open(ops, &pa, -1, cpus[c], -1);
			if (fd < 0) {
				r = bpfcount_fail(why, BPFCOUNT_EVENT, fd, i, cpus[c]);
				goto out_close;
			}
			b->pfd[c * (size_t)nev + (size_t)i] = fd;
			r = bpf_map_update_elem(events, &key, &fd, BPF_ANY);
			if (r < 0) {
				bpfcount_fail(why, BPFCOUNT_ARRAY, r, i, cpus[c]);
				goto out_close;
			}
		}
	}
	b->link =
		bpf_program__attach_raw_tracepoint(b->skel->progs.bpfcount_switch, "sched_switch");
	if (!b->link) {
		r = bpfcount_fail(why, BPFCOUNT_ATTACH, errno ? -errno : -EINVAL, -1, -1);
		goto out_close;
	}
	/*
	 * A first run on each CPU sets its last reads, and tells now whether the
	 * kernel can run it on demand. What the sums hold from before it is of
	 * the moments since the open: the frames take differences anyway.
	 */
	r = bpfcount_flush(b, why);
	if (r)
		goto out_close;
	*out = b;
	return 0;
out_close:
	bpfcount_close(b);
	return r;
}

size_t bpfcount_fds(const struct bpfcount *b)
{
	size_t n = 0;

	/* the events it reads; six maps, the constants and the globals; the program, BTF, link */
	for (int i = 0; i < b->nev; i++)
		n += bpfcount_reads(b, i) ? b->ncpus : 0;
	return n + 8 + 3;
}

/* Sum the per-CPU values of entry k of the scratch into the sums of the read of t. */
static void bpfcount_add(struct bpfcount *b, struct bpfcount_tab *t, size_t k)
{
	size_t words = b->vsize / 8;
	uint64_t *s;

	t->keys = xgrow(t->keys, &t->kcap, t->nkeys + 1, sizeof(*t->keys));
	t->sums = xgrow(t->sums, &t->scap, (t->nkeys + 1) * words, sizeof(*t->sums));
	t->keys[t->nkeys] = (int)b->rk[k];
	s = t->sums + t->nkeys * words;
	memset(s, 0, words * sizeof(*s));
	for (size_t c = 0; c < b->npossible; c++) {
		uint64_t v[BPFPROG_MAX_EVENTS * BPFPROG_FIELDS];

		memcpy(v, b->rv + (k * b->npossible + c) * b->vsize, b->vsize);
		for (size_t w = 0; w < words; w++)
			s[w] += v[w];
	}
	t->nkeys++;
}

static void bpfcount_scratch(struct bpfcount *b, size_t n)
{
	if (n <= b->rcap)
		return;
	free(b->rk);
	free(b->rv);
	b->rk = xcalloc(n, sizeof(*b->rk));
	b->rv = xcalloc(n * b->npossible, b->vsize);
	b->rcap = n;
}

/* The whole table in batches (Linux 5.6); -EINVAL or -BPFCOUNT_ENOTSUPP where it cannot. */
static int bpfcount_read_batch(struct bpfcount *b, struct bpfcount_tab *t)
{
	uint32_t in = 0, outb = 0;
	bool first = true;

	bpfcount_scratch(b, BPFCOUNT_BATCH);
	for (;;) {
		uint32_t count = (uint32_t)b->rcap;
		int r = bpf_map_lookup_batch(t->fd, first ? NULL : &in, &outb, b->rk, b->rv, &count,
					     NULL);

		if (r < 0 && r != -ENOENT) {
			if (r == -ENOSPC) {
				/* one bucket holds more than fits: read with more room */
				bpfcount_scratch(b, b->rcap * 2);
				t->nkeys = 0;
				first = true;
				continue;
			}
			return r;
		}
		for (size_t k = 0; k < count; k++)
			bpfcount_add(b, t, k);
		if (r == -ENOENT)
			return 0;
		in = outb;
		first = false;
	}
}

/* Key by key, where batches are not offered. */
static int bpfcount_read_keys(struct bpfcount *b, struct bpfcount_tab *t)
{
	uint32_t key = 0;
	bool first = true;

	bpfcount_scratch(b, 1);
	for (;;) {
		int r = bpf_map_get_next_key(t->fd, first ? NULL : &key, &b->rk[0]);

		if (r == -ENOENT)
			return 0;
		if (r < 0)
			return r;
		key = b->rk[0];
		first = false;
		r = bpf_map_lookup_elem(t->fd, &key, b->rv);
		if (r == -ENOENT)
			continue; /* deleted meanwhile */
		if (r < 0)
			return r;
		bpfcount_add(b, t, 0);
	}
}

/* Read table t whole, its keys ascending. 0 or -errno (t then empty). */
static int bpfcount_read_tab(struct bpfcount *b, struct bpfcount_tab *t)
{
	size_t words = b->vsize / 8;
	uint64_t *sorted;
	int *order;
	int r;

	t->nkeys = 0;
	r = b->no_batch ? -EINVAL : bpfcount_read_batch(b, t);
	if (r == -EINVAL || r == -BPFCOUNT_ENOTSUPP || r == -EOPNOTSUPP) {
		b->no_batch = true;
		t->nkeys = 0;
		r = bpfcount_read_keys(b, t);
	}
	if (r) {
		t->nkeys = 0;
		return r;
	}
	/* hash order: sort keys and their sums together, by an index */
	order = xcalloc(t->nkeys + 1, 2 * sizeof(*order));
	for (size_t k = 0; k < t->nkeys; k++) {
		order[2 * k] = t->keys[k];
		order[2 * k + 1] = (int)k;
	}
	qsort(order, t->nkeys, 2 * sizeof(*order), proc_cmp_int);
	sorted = xcalloc(t->nkeys * words + 1, sizeof(*sorted));
	for (size_t k = 0; k < t->nkeys; k++) {
		t->keys[k] = order[2 * k];
		memcpy(sorted + k * words, t->sums + (size_t)order[2 * k + 1] * words,
		       words * sizeof(*sorted));
	}
	if (t->nkeys)
		memcpy(t->sums, sorted, t->nkeys * words * sizeof(*sorted));
	free(sorted);
	free(order);
	return 0;
}

int bpfcount_read(struct bpfcount *b, struct bpfcount_why *why)
{
	int r;

	memset(why, 0, sizeof(*why));
	r = bpfcount_flush(b, why);
	if (r)
		return r;
	r = bpfcount_read_tab(b, &b->acc);
	/* the threads' table only while some are summed, or entries are left to sweep */
	if (!r && (b->wanting != BPFPROG_WANT_NONE || b->thr.nkeys))
		r = bpfcount_read_tab(b, &b->thr);
	if (r)
		return bpfcount_fail(why, BPFCOUNT_READ, r, -1, -1);
	return 0;
}

static const uint64_t *bpfcount_find(const struct bpfcount *b, const struct bpfcount_tab *t,
				     int key)
{
	const int *k =
		t->nkeys ? bsearch(&key, t->keys, t->nkeys, sizeof(*t->keys), proc_cmp_int) : NULL;

	return k ? t->sums + (size_t)(k - t->keys) * (b->vsize / 8) : NULL;
}

const uint64_t *bpfcount_get(const struct bpfcount *b, int tgid)
{
	return bpfcount_find(b, &b->acc, tgid);
}

const int *bpfcount_keys(const struct bpfcount *b, size_t *n)
{
	*n = b->acc.nkeys;
	return b->acc.keys;
}

static int bpfcount_delete(int fd, int id)
{
	uint32_t key = (uint32_t)id;
	int r = bpf_map_delete_elem(fd, &key);

	return r < 0 && r != -ENOENT ? r : 0;
}

int bpfcount_forget(struct bpfcount *b, int tgid)
{
	return bpfcount_delete(b->acc.fd, tgid);
}

/* Tell the program whose threads it sums: none, the wanted table's, or all. */
static int bpfcount_set_wanting(struct bpfcount *b)
{
	unsigned w = b->want_all  ? BPFPROG_WANT_ALL
		     : b->nwanted ? BPFPROG_WANT_SOME
				  : BPFPROG_WANT_NONE;
	uint32_t k0 = 0;

	if (w == b->wanting)
		return 0;
	b->wanting = w;
	/* mapped where the kernel lets the globals be (Linux 5.5), else written as a map */
	if (b->skel->bss) {
		b->skel->bss->wanting = w;
		return 0;
	}
	return bpf_map_update_elem(bpf_map__fd(b->skel->maps.bss), &k0, &w, BPF_ANY);
}

int bpfcount_want(struct bpfcount *b, int tgid, bool on)
{
	uint32_t key = (uint32_t)tgid;
	uint8_t one = 1;
	int r;

	if (on) {
		r = bpf_map_update_elem(b->wanted, &key, &one, BPF_NOEXIST);
		if (r == -EEXIST)
			return 0;
		if (r < 0)
			return r;
		b->nwanted++;
	} else {
		r = bpf_map_delete_elem(b->wanted, &key);
		if (r == -ENOENT)
			return 0;
		if (r < 0)
			return r;
		b->nwanted--;
	}
	return bpfcount_set_wanting(b);
}

int bpfcount_want_all(struct bpfcount *b, bool on)
{
	b->want_all = on;
	return bpfcount_set_wanting(b);
}

const uint64_t *bpfcount_thread(const struct bpfcount *b, int tid)
{
	return bpfcount_find(b, &b->thr, tid);
}

const int *bpfcount_tids(const struct bpfcount *b, size_t *n)
{
	*n = b->thr.nkeys;
	return b->thr.keys;
}

int bpfcount_forget_thread(struct bpfcount *b, int tid)
{
	return bpfcount_delete(b->thr.fd, tid);
}

void bpfcount_close(struct bpfcount *b)
{
	if (!b)
		return;
	/* the link first: the program stops running before its maps go */
	bpf_link__destroy(b->link);
	bpfcount_skel__destroy(b->skel);
	for (size_t k = 0; k < b->ncpus * (size_t)b->nev; k++)
		if (b->pfd[k] >= 0)
			b->ops->close(b->ops->ctx, b->pfd[k]);
	free(b->pfd);
	free(b->cpus);
	free(b->acc.keys);
	free(b->acc.sums);
	free(b->thr.keys);
	free(b->thr.sums);
	free(b->rk);
	free(b->rv);
	free(b);
}

#else /* built without it */

int bpfcount_open(struct bpfcount **out, const struct sysops *ops, const char *sysfs,
		  const struct perf_event_attr *const *attrs, int nev, const int *cpus,
		  size_t ncpus, struct bpfcount_why *why)
{
	(void)ops, (void)sysfs, (void)attrs, (void)nev, (void)cpus, (void)ncpus;
	memset(why, 0, sizeof(*why));
	*out = NULL;
	why->step = BPFCOUNT_NOT_BUILT;
	why->err = -ENOSYS;
	return -ENOSYS;
}

size_t bpfcount_fds(const struct bpfcount *b)
{
	(void)b;
	return 0;
}

int bpfcount_read(struct bpfcount *b, struct bpfcount_why *why)
{
	(void)b;
	memset(why, 0, sizeof(*why));
	return -ENOSYS;
}

const uint64_t *bpfcount_get(const struct bpfcount *b, int tgid)
{
	(void)b, (void)tgid;
	return NULL;
}

const int *bpfcount_keys(const struct bpfcount *b, size_t *n)
{
	(void)b;
	*n = 0;
	return NULL;
}

int bpfcount_forget(struct bpfcount *b, int tgid)
{
	(void)b, (void)tgid;
	return -ENOSYS;
}

int bpfcount_want(struct bpfcount *b, int tgid, bool on)
{
	(void)b, (void)tgid, (void)on;
	return -ENOSYS;
}

int bpfcount_want_all(struct bpfcount *b, bool on)
{
	(void)b, (void)on;
	return -ENOSYS;
}

const uint64_t *bpfcount_thread(const struct bpfcount *b, int tid)
{
	(void)b, (void)tid;
	return NULL;
}

const int *bpfcount_tids(const struct bpfcount *b, size_t *n)
{
	(void)b;
	*n = 0;
	return NULL;
}

int bpfcount_forget_thread(struct bpfcount *b, int tid)
{
	(void)b, (void)tid;
	return -ENOSYS;
}

void bpfcount_close(struct bpfcount *b)
{
	(void)b;
}

#endif
