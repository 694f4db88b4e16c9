/* Process counts summed at each context switch by a BPF program: maps, load, attach, read. */
#include "config.h"
#include "collect/bpfcount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#ifdef PMCTOP_BPF

#include <linux/bpf.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collect/cpumap.h"
#include "collect/proc.h"

#define BPFCOUNT_MAX_PROCS                                                                         \
	(1 << 16)		/* processes counted at once: the kernel sizes its buckets by it */
#define BPFCOUNT_ALIASES 16384	/* processes whose exiting threads are still charged */
#define BPFCOUNT_BATCH 1024	/* entries one batched lookup asks for */
#define BPFCOUNT_LOG_SIZE 65536 /* room for the verifier's account of a refusal */
#define BPFCOUNT_INIT_PIDNS 0xeffffffcu /* the inode of the initial PID namespace */
#define BPFCOUNT_ENOTSUPP 524		/* the kernel's own "not supported" (no batches) */

struct bpfcount {
	const struct sysops *ops;
	int nev;
	size_t ncpus;
	int *cpus;	/* the CPUs counted (online at the start) */
	int *pfd;	/* ncpus x nev perf event descriptors, -1 where not open */
	int *arr;	/* per event: its perf event array */
	int last, acc;	/* the maps the program keeps its state in */
	int alias;	/* in a PID namespace: the kernel's tgids to the namespace's */
	int prog, link; /* the program and its attachment to sched_switch */
	size_t npossible;
	size_t vsize; /* bytes of one entry's value on one CPU */
	bool no_batch;
	/* the last read: keys ascending, nev x FIELDS sums each */
	int *keys;
	uint64_t *sums;
	size_t nkeys, kcap, scap;
	/* scratch of the read: the map's keys and per-CPU values as the kernel gives them */
	uint32_t *rk;
	uint8_t *rv;
	size_t rcap;
};

static long bpfcount_sys(int cmd, union bpf_attr *a)
{
	long r = syscall(__NR_bpf, cmd, a, sizeof(*a));

	return r < 0 ? -errno : r;
}

static int bpfcount_map(enum bpf_map_type type, unsigned ksize, unsigned vsize, unsigned max,
			unsigned flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = ksize;
	a.value_size = vsize;
	a.max_entries = max;
	a.map_flags = flags;
	return (int)bpfcount_sys(BPF_MAP_CREATE, &a);
}

static int bpfcount_update(int map, const void *key, const void *value, uint64_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)value;
	a.flags = flags;
	return (int)bpfcount_sys(BPF_MAP_UPDATE_ELEM, &a);
}

/* The possible CPUs: the per-CPU values of a map come one per possible CPU. */
static int bpfcount_possible(const struct sysops *ops, const char *sysfs, size_t *n)
{
	char path[512], buf[1024];
	struct cpumap m = { 0 };
	long len;
	int r;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/possible", sysfs ? sysfs : "/sys");
	len = sysops_read_path(ops, path, 0, buf, sizeof(buf));
	if (len <= 0)
		return len < 0 ? (int)len : -EINVAL;
	r = cpumap_parse(buf, (size_t)len, &m);
	if (!r && m.n == 0)
		r = -EINVAL;
	/* the kernel copies them densely, in the order of the possible mask */
	*n = m.n;
	cpumap_release(&m);
	return r;
}

/*
 * Before Linux 5.11 a map's memory is charged to RLIMIT_MEMLOCK, whose
 * default (64 KiB on many systems) a few maps exceed: lift it for pmctop
 * itself, as far as it may.
 */
static void bpfcount_memlock(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_MEMLOCK, &rl);
	rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
	setrlimit(RLIMIT_MEMLOCK, &rl); /* only with CAP_SYS_RESOURCE: fine when refused */
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

static int bpfcount_load(struct bpfcount *b, struct bpfcount_why *why)
{
	struct bpfprog_maps m = { b->last, b->acc, b->arr, b->nev, false, 0, 0, -1 };
	struct stat st;
	size_t max;
	struct bpfi *insns;
	char *log;
	union bpf_attr a;
	int n;
	long r;

	/*
	 * In a PID namespace of its own pmctop's /proc shows the tgids of that
	 * namespace, not the kernel's: key by those (Linux 5.7)
	 */
	if (stat("/proc/self/ns/pid", &st) == 0 && st.st_ino != BPFCOUNT_INIT_PIDNS) {
		m.ns = true;
		m.ns_dev = (uint64_t)st.st_dev;
		m.ns_ino = (uint64_t)st.st_ino;
		/* least recently used first out: a lost entry costs one thread's last slice */
		b->alias = bpfcount_map(BPF_MAP_TYPE_LRU_HASH, 4, 4, BPFCOUNT_ALIASES, 0);
		if (b->alias < 0)
			return bpfcount_fail(why, BPFCOUNT_MAP, b->alias, -1, -1);
		m.alias = b->alias;
	}
	max = BPFPROG_INSNS(b->nev, m.ns);
	insns = xcalloc(max, sizeof(*insns));
	log = xcalloc(1, BPFCOUNT_LOG_SIZE);
	n = bpfprog_build(&m, insns, max);

	if (n < 0) {
		free(insns);
		free(log);
		return bpfcount_fail(why, BPFCOUNT_LOAD, n, -1, -1);
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = (uint32_t)n;
	/* the counter-reading helper is offered to GPL programs only; pmctop is GPL-2 */
	a.license = (uint64_t)(uintptr_t) "GPL";
	r = bpfcount_sys(BPF_PROG_LOAD, &a);
	if (r == -EACCES || r == -EINVAL) {
		/* load again with the log, for the verifier's reason */
		a.log_buf = (uint64_t)(uintptr_t)log;
		a.log_size = BPFCOUNT_LOG_SIZE;
		a.log_level = 1;
		r = bpfcount_sys(BPF_PROG_LOAD, &a);
		if (r < 0)
			bpfcount_log_tail(log, why->log, sizeof(why->log));
	}
	free(insns);
	free(log);
	if (r < 0)
		return bpfcount_fail(why, BPFCOUNT_LOAD, (int)r, -1, -1);
	b->prog = (int)r;
	return 0;
}

/* Run the program on cpu now: what the task running there counted goes to its entry. */
static int bpfcount_run_on(const struct bpfcount *b, int cpu)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (uint32_t)b->prog;
	a.test.flags = BPF_F_TEST_RUN_ON_CPU;
	a.test.cpu = (uint32_t)cpu;
	return (int)bpfcount_sys(BPF_PROG_TEST_RUN, &a);
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
	union bpf_attr a;
	int r;

	memset(why, 0, sizeof(*why));
	*out = NULL;
	if (nev <= 0 || nev > BPFPROG_MAX_EVENTS)
		return bpfcount_fail(why, BPFCOUNT_LOAD, -E2BIG, nev, -1);
	b = xcalloc(1, sizeof(*b));
	b->ops = ops;
	b->nev = nev;
	b->last = b->acc = b->alias = b->prog = b->link = -1;
	b->vsize = BPFPROG_VALUE_SIZE(nev);
	b->cpus = xcalloc(ncpus ? ncpus : 1, sizeof(*b->cpus));
	memcpy(b->cpus, cpus, ncpus * sizeof(*cpus));
	b->ncpus = ncpus;
	b->arr = xcalloc((size_t)nev, sizeof(*b->arr));
	b->pfd = xcalloc(ncpus * (size_t)nev + 1, sizeof(*b->pfd));
	for (int i = 0; i < nev; i++)
		b->arr[i] = -1;
	for (size_t k = 0; k < ncpus * (size_t)nev; k++)
		b->pfd[k] = -1;
	r = bpfcount_possible(ops, sysfs, &b->npossible);
	if (r) {
		bpfcount_fail(why, BPFCOUNT_POSSIBLE, r, -1, -1);
		goto out_close;
	}
	bpfcount_memlock();
	b->last =
		bpfcount_map(BPF_MAP_TYPE_PERCPU_ARRAY, 4, (unsigned)BPFPROG_LAST_SIZE(nev), 1, 0);
	if (b->last < 0) {
		r = bpfcount_fail(why, BPFCOUNT_MAP, b->last, -1, -1);
		goto out_close;
	}
	/* allocated as processes come: a table sized for pid_max would be large, and idle */
	b->acc = bpfcount_map(BPF_MAP_TYPE_PERCPU_HASH, 4, (unsigned)b->vsize, BPFCOUNT_MAX_PROCS,
			      BPF_F_NO_PREALLOC);
	if (b->acc < 0) {
		r = bpfcount_fail(why, BPFCOUNT_MAP, b->acc, -1, -1);
		goto out_close;
	}
	for (int i = 0; i < nev; i++) {
		int top = 0;

		for (size_t c = 0; c < ncpus; c++)
			if (cpus[c] + 1 > top)
				top = cpus[c] + 1;
		if ((size_t)top < b->npossible)
			top = (int)b->npossible;
		b->arr[i] = bpfcount_map(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, (unsigned)top, 0);
		if (b->arr[i] < 0) {
			r = bpfcount_fail(why, BPFCOUNT_MAP, b->arr[i], i, -1);
			goto out_close;
		}
		for (size_t c = 0; c < ncpus; c++) {
			struct perf_event_attr pa = *attrs[i];
			uint32_t key = (uint32_t)cpus[c];
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
			r = bpfcount_update(b->arr[i], &key, &fd, BPF_ANY);
			if (r < 0) {
				bpfcount_fail(why, BPFCOUNT_ARRAY, r, i, cpus[c]);
				goto out_close;
			}
		}
	}
	r = bpfcount_load(b, why);
	if (r)
		goto out_close;
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t) "sched_switch";
	a.raw_tracepoint.prog_fd = (uint32_t)b->prog;
	r = (int)bpfcount_sys(BPF_RAW_TRACEPOINT_OPEN, &a);
	if (r < 0) {
		bpfcount_fail(why, BPFCOUNT_ATTACH, r, -1, -1);
		goto out_close;
	}
	b->link = r;
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
	/* the perf events, their arrays, the two maps, the program and its link */
	return b->ncpus * (size_t)b->nev + (size_t)b->nev + 4 + (b->alias >= 0);
}

/* Sum the per-CPU values of entry k of the scratch into the sums of the read. */
static void bpfcount_add(struct bpfcount *b, size_t k)
{
	size_t words = b->vsize / 8;
	uint64_t *s;

	b->keys = xgrow(b->keys, &b->kcap, b->nkeys + 1, sizeof(*b->keys));
	b->sums = xgrow(b->sums, &b->scap, (b->nkeys + 1) * words, sizeof(*b->sums));
	b->keys[b->nkeys] = (int)b->rk[k];
	s = b->sums + b->nkeys * words;
	memset(s, 0, words * sizeof(*s));
	for (size_t c = 0; c < b->npossible; c++) {
		uint64_t v[BPFPROG_MAX_EVENTS * BPFPROG_FIELDS];

		memcpy(v, b->rv + (k * b->npossible + c) * b->vsize, b->vsize);
		for (size_t w = 0; w < words; w++)
			s[w] += v[w];
	}
	b->nkeys++;
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

/* The whole map in batches (Linux 5.6); -EINVAL or -BPFCOUNT_ENOTSUPP where it cannot. */
static int bpfcount_read_batch(struct bpfcount *b)
{
	union bpf_attr a;
	uint64_t in = 0, outb = 0;
	bool first = true;

	bpfcount_scratch(b, BPFCOUNT_BATCH);
	for (;;) {
		long r;

		memset(&a, 0, sizeof(a));
		a.batch.map_fd = (uint32_t)b->acc;
		a.batch.in_batch = first ? 0 : (uint64_t)(uintptr_t)&in;
		a.batch.out_batch = (uint64_t)(uintptr_t)&outb;
		a.batch.keys = (uint64_t)(uintptr_t)b->rk;
		a.batch.values = (uint64_t)(uintptr_t)b->rv;
		a.batch.count = (uint32_t)b->rcap;
		r = bpfcount_sys(BPF_MAP_LOOKUP_BATCH, &a);
		if (r < 0 && r != -ENOENT) {
			if (r == -ENOSPC) {
				/* one bucket holds more than fits: read with more room */
				bpfcount_scratch(b, b->rcap * 2);
				b->nkeys = 0;
				first = true;
				continue;
			}
			return (int)r;
		}
		for (size_t k = 0; k < a.batch.count; k++)
			bpfcount_add(b, k);
		if (r == -ENOENT)
			return 0;
		in = outb;
		first = false;
	}
}

/* Key by key, where batches are not offered. */
static int bpfcount_read_keys(struct bpfcount *b)
{
	union bpf_attr a;
	uint32_t key = 0;
	bool first = true;

	bpfcount_scratch(b, 1);
	for (;;) {
		long r;

		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)b->acc;
		a.key = first ? 0 : (uint64_t)(uintptr_t)&key;
		a.next_key = (uint64_t)(uintptr_t)&b->rk[0];
		r = bpfcount_sys(BPF_MAP_GET_NEXT_KEY, &a);
		if (r == -ENOENT)
			return 0;
		if (r < 0)
			return (int)r;
		key = b->rk[0];
		first = false;
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)b->acc;
		a.key = (uint64_t)(uintptr_t)&key;
		a.value = (uint64_t)(uintptr_t)b->rv;
		r = bpfcount_sys(BPF_MAP_LOOKUP_ELEM, &a);
		if (r == -ENOENT)
			continue; /* deleted meanwhile */
		if (r < 0)
			return (int)r;
		bpfcount_add(b, 0);
	}
}

int bpfcount_read(struct bpfcount *b, struct bpfcount_why *why)
{
	size_t words = b->vsize / 8;
	uint64_t *sorted;
	int *order;
	int r;

	memset(why, 0, sizeof(*why));
	r = bpfcount_flush(b, why);
	if (r)
		return r;
	b->nkeys = 0;
	r = b->no_batch ? -EINVAL : bpfcount_read_batch(b);
	if (r == -EINVAL || r == -BPFCOUNT_ENOTSUPP || r == -EOPNOTSUPP) {
		b->no_batch = true;
		b->nkeys = 0;
		r = bpfcount_read_keys(b);
	}
	if (r) {
		b->nkeys = 0;
		return bpfcount_fail(why, BPFCOUNT_READ, r, -1, -1);
	}
	/* hash order: sort keys and their sums together, by an index */
	order = xcalloc(b->nkeys + 1, 2 * sizeof(*order));
	for (size_t k = 0; k < b->nkeys; k++) {
		order[2 * k] = b->keys[k];
		order[2 * k + 1] = (int)k;
	}
	qsort(order, b->nkeys, 2 * sizeof(*order), proc_cmp_int);
	sorted = xcalloc(b->nkeys * words + 1, sizeof(*sorted));
	for (size_t k = 0; k < b->nkeys; k++) {
		b->keys[k] = order[2 * k];
		memcpy(sorted + k * words, b->sums + (size_t)order[2 * k + 1] * words,
		       words * sizeof(*sorted));
	}
	memcpy(b->sums, sorted, b->nkeys * words * sizeof(*sorted));
	free(sorted);
	free(order);
	return 0;
}

const uint64_t *bpfcount_get(const struct bpfcount *b, int tgid)
{
	const int *k =
		b->nkeys ? bsearch(&tgid, b->keys, b->nkeys, sizeof(*b->keys), proc_cmp_int) : NULL;

	return k ? b->sums + (size_t)(k - b->keys) * (b->vsize / 8) : NULL;
}

const int *bpfcount_keys(const struct bpfcount *b, size_t *n)
{
	*n = b->nkeys;
	return b->keys;
}

int bpfcount_forget(struct bpfcount *b, int tgid)
{
	union bpf_attr a;
	uint32_t key = (uint32_t)tgid;
	long r;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)b->acc;
	a.key = (uint64_t)(uintptr_t)&key;
	r = bpfcount_sys(BPF_MAP_DELETE_ELEM, &a);
	return r < 0 && r != -ENOENT ? (int)r : 0;
}

void bpfcount_close(struct bpfcount *b)
{
	if (!b)
		return;
	/* the link first: the program stops running before its maps go */
	if (b->link >= 0)
		close(b->link);
	if (b->prog >= 0)
		close(b->prog);
	for (size_t k = 0; k < b->ncpus * (size_t)b->nev; k++)
		if (b->pfd[k] >= 0)
			b->ops->close(b->ops->ctx, b->pfd[k]);
	for (int i = 0; i < b->nev; i++)
		if (b->arr[i] >= 0)
			close(b->arr[i]);
	if (b->acc >= 0)
		close(b->acc);
	if (b->alias >= 0)
		close(b->alias);
	if (b->last >= 0)
		close(b->last);
	free(b->pfd);
	free(b->arr);
	free(b->cpus);
	free(b->keys);
	free(b->sums);
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

void bpfcount_close(struct bpfcount *b)
{
	(void)b;
}

#endif
