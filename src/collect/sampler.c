/* Sampling: per-thread, per-CPU inherited events sharing one ring per CPU (as perf record -p). */
#include "config.h"
#include "collect/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/cpumap.h"
#include "kernel/events.h"
#include "collect/mmaps.h"
#include "kernel/pmu.h"
#include "kernel/proc.h"
#include "util/xalloc.h"

#define SAMPLER_BASE_TYPE                                                                          \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU)
#define SAMPLER_PEBS_PERIOD 10007 /* prime: no lockstep with loops */
#define SAMPLER_IBS_PERIOD 100000
#define SAMPLER_IBS_MAX 0xffff0 /* IbsOpMaxCnt without the extended bits, x16 */
/*
 * While the period is steered, the ring wakes pmctop after this many
 * samples, so that each short batch gets a period of its own: a long batch
 * at one period still locks onto a regular pattern over its length.
 */
#define SAMPLER_DITHER_EVENTS 64
/*
 * Page faults steered to a mean period below this are sampled by the kernel
 * at every fault and thinned here, each kept sample a dithered number of
 * faults after the last: an ioctl'd period restarts the kernel's count where
 * it lands (PERF_EVENT_IOC_PERIOD zeroes period_left), which ties a short
 * period's phase to the process's own rhythm; the ring carries at most this
 * many times the target rate.
 */
#define SAMPLER_SOFT_MAX 16
#define SAMPLER_MAPS_MAX (4u << 20) /* bytes of /proc/PID/maps read */
#define SAMPLER_MAX_PROCS 64	    /* processes whose mappings are followed */

const unsigned SAMPLER_PRECISE_ORDER[4] = { 3, 2, 1, 0 };

/* The PMUs whose sysfs aliases may name load-latency events; hybrid ones list their CPUs. */
static const char *const SAMPLER_PEBS_PMUS[] = { "cpu", "cpu_core", "cpu_atom" };

struct sampler_ring {
	int cpu;
	struct ring ring;
	bool hup;
};

/* Events of one PMU and the CPUs they may run on. */
struct sampler_set {
	struct sampler_attrs a;
	char pmu[32];
	bool own_cpus; /* the PMU has a cpus file: open on those only */
	struct cpumap cpus;
};

/* A sampling fd: which attr it is, for the op of PEBS samples and for period changes. */
struct sampler_fd {
	int fd;
	uint64_t id;
	enum mem_op op;
	bool counts_only;
	bool hit;	 /* delivered samples in this drain: give it a new period */
	uint64_t period; /* the last one given: what its samples stand for without PERIOD */
};

/* A record drained from a ring, kept until the rings' records are merged in time order. */
enum sampler_ev_kind { SAMPLER_EV_SAMPLE, SAMPLER_EV_MMAP, SAMPLER_EV_EXEC, SAMPLER_EV_EXIT };

struct sampler_ev {
	uint64_t time;
	size_t seq; /* ring order, for records of one time */
	enum sampler_ev_kind kind;
	uint32_t pid;
	struct perfrec_sample smp;
	struct mem_area area; /* MMAP: name owned until applied */
};

/* An fd by the id its samples carry. */
struct sampler_id {
	uint64_t id;
	size_t fd; /* index into fds */
};

struct sampler {
	const struct sysops *ops; /* borrowed */
	int pid;
	enum sample_kind kind;
	uint64_t period;
	bool fixed; /* the caller chose the period: never steer it */
	struct sampler_rate rate;
	uint64_t last_samples;
	uint64_t kept; /* samples handed on (and IBS ops dropped): what the rate is steered by */
	bool soft;     /* the kernel samples every fault; the period is applied here */
	uint64_t skip; /* soft: faults to let pass before the next kept one */
	uint64_t gap;  /* soft: the faults the next kept sample stands for */
	size_t nsets;
	struct sampler_set set[SAMPLER_MAX_SETS];
	struct sampler_fd *fds;
	size_t nfds, fdcap;
	struct sampler_ring *rings;
	size_t nrings, ringcap;
	size_t ring_bytes;
	struct perfrec_stats st;
	uint64_t nonmem;
	bool no_format_lost;	/* the kernel has no PERF_FORMAT_LOST */
	bool no_inherit_thread; /* nor attr.inherit_thread */
	perfrec_sample_cb cb;	/* during a drain */
	void *arg;
	int rootfd; /* borrowed: /proc */
	uint64_t rng;
	struct sampler_id *byid; /* sorted by id */
	size_t nids;
	struct mmaps *procs; /* the mappings of the sampled process and its children */
	size_t nprocs;
	struct sampler_ev *ev; /* records of the drain under way */
	size_t nev, evcap;
	char *mapsbuf; /* SAMPLER_MAPS_MAX bytes, read on a miss */
	bool reread;   /* /proc/PID/maps was read in this drain */
};

/* ---- attributes ---- */

static void sampler_pebs_common(struct perf_event_attr *a, unsigned precise, uint64_t period)
{
	a->precise_ip = precise;
	a->sample_period = period ? period : SAMPLER_PEBS_PERIOD;
	/* each sample's own period weighs it: the period is dithered */
	a->sample_type =
		SAMPLER_BASE_TYPE | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	a->exclude_hv = 1;
}

int sampler_pebs_attrs(unsigned precise, uint64_t period, bool kernel, struct sampler_attrs *out)
{
	static const struct {
		const char *name;
		enum mem_op op;
	} EV[] = {
		{ "MEM_INST_RETIRED:ALL_LOADS", MEM_OP_LOAD },
		{ "MEM_INST_RETIRED:ALL_STORES", MEM_OP_STORE },
	};

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < 2; i++) {
		struct perf_event_attr *a = &out->attr[out->n];
		bool hw;

		if (events_encode(EV[i].name, kernel, a, &hw))
			continue;
		sampler_pebs_common(a, precise, period);
		out->op[out->n] = EV[i].op;
		out->name[out->n] = EV[i].name;
		out->n++;
	}
	/* the kernel marks these "datala": addresses without the load-latency facility */
	out->flags = SNAP_SMP_NO_LATENCY | SNAP_SMP_NO_SOURCE;
	return out->n ? 0 : -ENOENT;
}

/* A small sysfs file into buf, trailing newline cut. Length or -errno. */
static long sampler_read_file(const struct sysops *ops, const char *path, char *buf, size_t size)
{
	long n;
	int fd = ops->openat(ops->ctx, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fd;
	n = ops->pread(ops->ctx, fd, buf, size - 1, 0);
	ops->close(ops->ctx, fd);
	if (n < 0)
		return n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return n;
}

static int sampler_read_int(const struct sysops *ops, const char *path, int *v)
{
	char buf[64];
	long n = sampler_read_file(ops, path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return sscanf(buf, "%d", v) == 1 ? 0 : -EINVAL;
}

int sampler_pebs_sysfs(const struct sysops *ops, const char *sysfs, const char *pmu,
		       unsigned precise, uint64_t period, bool kernel, struct sampler_attrs *out)
{
	char dir[4096], path[4200];
	struct perf_event_attr *a;
	int type, r;

	ops = sysops_or_real(ops);
	memset(out, 0, sizeof(*out));
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s", sysfs ? sysfs : "/sys", pmu);
	snprintf(path, sizeof(path), "%s/type", dir);
	if (sampler_read_int(ops, path, &type))
		return -ENOENT;
	/* Sapphire Rapids and later, hybrid P-cores: mem-loads must be led by mem-loads-aux */
	a = &out->attr[out->n];
	r = pmu_alias(ops, dir, (uint32_t)type, "mem-loads-aux", a);
	if (r == -EINVAL)
		return r;
	if (!r) {
		a->exclude_kernel = !kernel;
		a->exclude_hv = 1;
		out->leader[out->n] = true;
		out->name[out->n] = "mem-loads-aux";
		out->op[out->n++] = MEM_OP_NA;
	}
	a = &out->attr[out->n];
	r = pmu_alias(ops, dir, (uint32_t)type, "mem-loads", a);
	if (r == -EINVAL)
		return r;
	if (!r) {
		char ldlat[32];

		/* the alias's own threshold (3) samples nearly every load: use perf's */
		snprintf(ldlat, sizeof(ldlat), "ldlat=%d", SAMPLER_LDLAT);
		if (pmu_apply_terms(ops, dir, ldlat, a))
			return -EINVAL;
		sampler_pebs_common(a, precise, period);
		a->exclude_kernel = !kernel;
		out->name[out->n] = "mem-loads";
		out->op[out->n++] = MEM_OP_LOAD;
	} else if (out->n) {
		out->n = 0; /* a leader with nothing to lead */
	}
	a = &out->attr[out->n];
	r = pmu_alias(ops, dir, (uint32_t)type, "mem-stores", a);
	if (r == -EINVAL)
		return r;
	if (!r) {
		sampler_pebs_common(a, precise, period);
		a->exclude_kernel = !kernel;
		out->name[out->n] = "mem-stores";
		out->op[out->n++] = MEM_OP_STORE;
	}
	return out->n ? 0 : -ENOENT;
}

void sampler_ibs_attrs(int ibs_type, uint64_t period, struct sampler_attrs *out)
{
	struct perf_event_attr *a = &out->attr[0];
	uint64_t p = period ? period : SAMPLER_IBS_PERIOD;

	memset(out, 0, sizeof(*out));
	a->size = sizeof(*a);
	a->type = (uint32_t)ibs_type;
	/* IBS counts in units of 16 and takes no exclude_* bits at all */
	a->sample_period = p < 16 ? 16 : p & ~(uint64_t)15;
	a->sample_type = SAMPLER_BASE_TYPE | PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
			 PERF_SAMPLE_WEIGHT_STRUCT;
	out->op[0] = MEM_OP_NA;
	out->name[0] = "ibs_op";
	out->n = 1;
}

void sampler_fault_attrs(uint64_t period, bool kernel, struct sampler_attrs *out)
{
	struct perf_event_attr *a = &out->attr[0];

	memset(out, 0, sizeof(*out));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_PAGE_FAULTS;
	a->sample_period = period ? period : 1;
	/*
	 * no PERF_SAMPLE_PERIOD: with it the kernel samples a software event at
	 * every event, whatever the period (seen on 6.18); the sampler knows the
	 * period it gave each event
	 */
	a->sample_type = SAMPLER_BASE_TYPE;
	a->exclude_kernel = !kernel;
	a->exclude_hv = 1;
	out->op[0] = MEM_OP_NA;
	out->name[0] = "page-faults";
	out->flags = SNAP_SMP_NO_LATENCY | SNAP_SMP_NO_SOURCE;
	out->n = 1;
}

uint64_t sampler_next_period(uint64_t period, double rate, const struct sampler_rate *r)
{
	double mid = (r->lo + r->hi) / 2, f, p;

	if (!(rate > 0) || (rate >= r->lo && rate <= r->hi))
		return period < r->min ? r->min : period > r->max ? r->max : period;
	f = rate / mid;
	if (f > 8)
		f = 8;
	if (f < 1.0 / 8)
		f = 1.0 / 8;
	p = (double)period * f;
	if (p < (double)r->min)
		return r->min;
	if (p > (double)r->max)
		return r->max;
	/* a step must move the period at least by one, else a period of 1 never grows */
	if ((uint64_t)p == period)
		return rate > r->hi ? (period < r->max ? period + 1 : period)
				    : (period > r->min ? period - 1 : period);
	return (uint64_t)p;
}

/* xorshift64*: cheap, and plenty for spreading periods */
static uint64_t sampler_rand(uint64_t *rng)
{
	uint64_t x = *rng ? *rng : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint64_t sampler_dither(uint64_t *rng, uint64_t mean, uint64_t max, uint64_t step)
{
	uint64_t m, w, top;

	if (!step)
		step = 1;
	m = mean / step ? mean / step : 1;
	top = max / step;
	w = m / 2;
	/* symmetric around the mean, so the mean stays, and not above max */
	if (top <= m)
		w = 0;
	else if (top - m < w)
		w = top - m;
	return (m - w + sampler_rand(rng) % (2 * w + 1)) * step;
}

/* ---- opening ---- */

static void sampler_close_fds(struct sampler *s)
{
	for (size_t i = 0; i < s->nrings; i++)
		ring_unmap(&s->rings[i].ring);
	for (size_t i = 0; i < s->nfds; i++)
		s->ops->close(s->ops->ctx, s->fds[i].fd);
	free(s->rings);
	free(s->fds);
	free(s->byid);
	s->byid = NULL;
	s->nids = 0;
	s->rings = NULL;
	s->fds = NULL;
	s->nrings = s->ringcap = s->nfds = s->fdcap = 0;
}

static void sampler_release_sets(struct sampler *s)
{
	for (size_t i = 0; i < s->nsets; i++)
		cpumap_release(&s->set[i].cpus);
	s->nsets = 0;
}

static struct sampler_ring *sampler_ring_of(struct sampler *s, int cpu)
{
	for (size_t i = 0; i < s->nrings; i++)
		if (s->rings[i].cpu == cpu)
			return &s->rings[i];
	return NULL;
}

static unsigned sampler_ring_order(size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned order = 0;

	while (((size_t)page << (order + 1)) <= bytes)
		order++;
	return order;
}

/* Descriptors the sets would take for ntids threads. */
static size_t sampler_fds_needed(const struct sampler *s, size_t ntids)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nsets; i++)
		n += s->set[i].cpus.n * s->set[i].a.n * ntids;
	return n;
}

static int sampler_open_one(struct sampler *s, struct perf_event_attr *a, int tid, int cpu,
			    int group)
{
	int fd;

	a->read_format = s->no_format_lost ? 0 : PERF_FORMAT_LOST;
	fd = sysops_perf_open(s->ops, a, tid, cpu, group);
	if (fd == -EINVAL && !s->no_format_lost) {
		/* before Linux 6.0 */
		s->no_format_lost = true;
		a->read_format = 0;
		fd = sysops_perf_open(s->ops, a, tid, cpu, group);
	}
	return fd;
}

/* Open every attr of every set on every thread and its CPUs; one ring per CPU. */
static int sampler_open_all(struct sampler *s, const int *tids, size_t ntids)
{
	size_t data = SAMPLER_RING_BYTES;

	for (size_t si = 0; si < s->nsets; si++) {
		struct sampler_set *set = &s->set[si];

		for (size_t c = 0; c < set->cpus.n; c++) {
			int cpu = set->cpus.cpu[c];

			for (size_t t = 0; t < ntids; t++) {
				int leader = -1;

				for (size_t k = 0; k < set->a.n; k++) {
					struct perf_event_attr a = set->a.attr[k];
					struct sampler_ring *r;
					struct sampler_fd *f;
					int fd, e;

					a.size = sizeof(a);
					a.inherit = 1;
					perf_compat_set_inherit_thread(&a, !s->no_inherit_thread);
					if (!set->a.leader[k]) {
						a.watermark = 1;
						a.wakeup_watermark = (uint32_t)(data / 2);
						/*
						 * a steered period is dithered at each
						 * wake-up: wake every few samples
						 */
						if (!s->fixed) {
							a.watermark = 0;
							a.wakeup_events = SAMPLER_DITHER_EVENTS;
						}
						a.sample_id_all = 1;
					}
					/*
					 * the mappings as they change, in the ring with the
					 * samples (once per set: the kernel writes them to
					 * each event that asks)
					 */
					if (k == (set->a.leader[0] ? 1u : 0u)) {
						a.mmap = 1;
						a.mmap2 = 1;
						a.mmap_data = 1;
						a.comm = 1;
						a.comm_exec = 1;
						a.task = 1;
					}
					fd = sampler_open_one(s, &a, tids[t], cpu,
							      k && set->a.leader[k - 1] ? leader
											: -1);
					if (fd == -ESRCH)
						break; /* the thread exited meanwhile */
					if (fd < 0)
						return fd;
					s->fds = xgrow(s->fds, &s->fdcap, s->nfds + 1,
						       sizeof(*s->fds));
					f = &s->fds[s->nfds++];
					memset(f, 0, sizeof(*f));
					f->fd = fd;
					f->op = set->a.op[k];
					f->counts_only = set->a.leader[k];
					f->period = a.sample_period;
					if (set->a.leader[k]) {
						leader = fd;
						continue;
					}
					s->ops->ioctl(s->ops->ctx, fd, PERF_EVENT_IOC_ID,
						      (unsigned long)&f->id);
					r = sampler_ring_of(s, cpu);
					if (!r) {
						s->rings = xgrow(s->rings, &s->ringcap,
								 s->nrings + 1, sizeof(*s->rings));
						r = &s->rings[s->nrings];
						memset(r, 0, sizeof(*r));
						r->cpu = cpu;
						e = ring_map(&r->ring, s->ops, fd,
							     sampler_ring_order(data),
							     a.sample_type);
						if (e)
							return e;
						s->nrings++;
						/* the next rings start at the size this one got */
						data = r->ring.len - (size_t)sysconf(_SC_PAGESIZE);
						s->ring_bytes = data;
					} else {
						e = s->ops->ioctl(s->ops->ctx, fd,
								  PERF_EVENT_IOC_SET_OUTPUT,
								  (unsigned long)r->ring.fd);
						if (e < 0)
							return e;
					}
				}
			}
		}
	}
	return s->nrings ? 0 : -ESRCH;
}

static int sampler_try(struct sampler *s, const int *tids, size_t ntids, size_t max_fds)
{
	int r;

	if (max_fds && sampler_fds_needed(s, ntids) > max_fds)
		return -EMFILE;
	r = sampler_open_all(s, tids, ntids);
	if (r)
		sampler_close_fds(s);
	return r;
}

static void sampler_note(struct fact_notes *notes, enum fact_what what, const char *name, int err)
{
	struct fact f;

	fact_notes_add(notes, fact_set(&f, what, err, name, -2));
}

/* One set of events on every online CPU. */
static void sampler_set_all(struct sampler *s, const struct sampler_attrs *a,
			    const struct cpumap *online)
{
	struct sampler_set *set = &s->set[0];

	sampler_release_sets(s);
	memset(set, 0, sizeof(*set));
	set->a = *a;
	for (size_t i = 0; i < online->n; i++) {
		set->cpus.cpu = xgrow(set->cpus.cpu, &set->cpus.cap, set->cpus.n + 1, sizeof(int));
		set->cpus.cpu[set->cpus.n++] = online->cpu[i];
	}
	s->nsets = 1;
}

/*
 * The load-latency sets from sysfs at one precise level: one per PMU that
 * lists them, each on its own CPUs (hybrid) or all of them. 0 or -ENOENT.
 */
static int sampler_sysfs_sets(struct sampler *s, const struct sampler_req *req, unsigned precise,
			      const struct cpumap *online)
{
	sampler_release_sets(s);
	for (size_t p = 0; p < sizeof(SAMPLER_PEBS_PMUS) / sizeof(SAMPLER_PEBS_PMUS[0]); p++) {
		struct sampler_set *set = &s->set[s->nsets];
		char path[4096], buf[1024];
		long n;

		if (s->nsets == SAMPLER_MAX_SETS)
			break;
		memset(set, 0, sizeof(*set));
		if (sampler_pebs_sysfs(s->ops, req->sysfs, SAMPLER_PEBS_PMUS[p], precise,
				       req->period, req->kernel, &set->a))
			continue;
		snprintf(set->pmu, sizeof(set->pmu), "%s", SAMPLER_PEBS_PMUS[p]);
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/cpus",
			 req->sysfs ? req->sysfs : "/sys", SAMPLER_PEBS_PMUS[p]);
		n = sampler_read_file(s->ops, path, buf, sizeof(buf));
		set->own_cpus = n >= 0;
		if (set->own_cpus) {
			struct cpumap own = { NULL, 0, 0 };

			if (cpumap_parse(buf, (size_t)n, &own))
				continue;
			for (size_t i = 0; i < own.n; i++)
				if (cpumap_has(online, own.cpu[i])) {
					set->cpus.cpu = xgrow(set->cpus.cpu, &set->cpus.cap,
							      set->cpus.n + 1, sizeof(int));
					set->cpus.cpu[set->cpus.n++] = own.cpu[i];
				}
			cpumap_release(&own);
		} else {
			for (size_t i = 0; i < online->n; i++) {
				set->cpus.cpu = xgrow(set->cpus.cpu, &set->cpus.cap,
						      set->cpus.n + 1, sizeof(int));
				set->cpus.cpu[set->cpus.n++] = online->cpu[i];
			}
		}
		s->nsets++;
	}
	return s->nsets ? 0 : -ENOENT;
}

/* PEBS: the kernel's load-latency events first, then MEM_INST_RETIRED through libpfm4. */
static int sampler_open_pebs(struct sampler *s, const struct sampler_req *req, const int *tids,
			     size_t ntids, const struct cpumap *online, struct fact_notes *notes)
{
	int r = -ENOENT;

	for (size_t p = 0; p < 3; p++) {
		if (sampler_sysfs_sets(s, req, SAMPLER_PRECISE_ORDER[p], online))
			break;
		r = sampler_try(s, tids, ntids, req->max_fds);
		/* a precise level the PMU cannot do: try the next lower one */
		if (r != -EINVAL && r != -EOPNOTSUPP)
			break;
	}
	if (!r || r == -EMFILE)
		return r;
	if (s->nsets)
		sampler_note(notes, FACT_SAMPLE_PEBS, "mem-loads", r);
	r = -ENOENT;
	for (size_t p = 0; p < 3; p++) {
		struct sampler_attrs a;

		if (sampler_pebs_attrs(SAMPLER_PRECISE_ORDER[p], req->period, req->kernel, &a))
			break;
		sampler_set_all(s, &a, online);
		r = sampler_try(s, tids, ntids, req->max_fds);
		if (r != -EINVAL && r != -EOPNOTSUPP)
			break;
	}
	return r;
}

static int sampler_cmp_id(const void *a, const void *b)
{
	const struct sampler_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static struct mmaps *sampler_proc(struct sampler *s, uint32_t pid, bool create)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == (int)pid)
			return &s->procs[i];
	if (!create || s->nprocs == SAMPLER_MAX_PROCS)
		return NULL;
	if (!s->procs)
		s->procs = xcalloc(SAMPLER_MAX_PROCS, sizeof(*s->procs));
	mmaps_init(&s->procs[s->nprocs], (int)pid);
	return &s->procs[s->nprocs++];
}

/* Read /proc/PID/maps into m: all of it (gaps_only false) or where m knows nothing. */
static void sampler_read_maps(struct sampler *s, struct mmaps *m, bool gaps_only)
{
	char path[64];
	long n;

	if (s->rootfd < 0)
		return;
	if (!s->mapsbuf)
		s->mapsbuf = xmalloc(SAMPLER_MAPS_MAX);
	snprintf(path, sizeof(path), "%d/maps", m->pid);
	n = proc_read_file(s->rootfd, path, s->mapsbuf, SAMPLER_MAPS_MAX);
	if (n > 0)
		mmaps_parse_proc(m, s->mapsbuf, (size_t)n, gaps_only);
}

/* The sampling fds sorted by id, so that a sample finds its event quickly. */
static void sampler_index_ids(struct sampler *s)
{
	s->byid = xmalloc((s->nfds ? s->nfds : 1) * sizeof(*s->byid));
	s->nids = 0;
	for (size_t i = 0; i < s->nfds; i++)
		if (!s->fds[i].counts_only)
			s->byid[s->nids++] = (struct sampler_id){ s->fds[i].id, i };
	qsort(s->byid, s->nids, sizeof(*s->byid), sampler_cmp_id);
}

/*
 * Who owns pid, beside who runs pmctop: the kernel lets a process be watched
 * by its own user only, whatever perf_event_paranoid says, unless the
 * watcher may trace it (CAP_PERFMON, CAP_SYS_PTRACE).
 */
static void sampler_owner(int rootfd, int pid, struct fact *err)
{
	char name[32];
	struct stat st;

	snprintf(name, sizeof(name), "%d", pid);
	if (fstatat(rootfd, name, &st, 0) == 0) {
		err->sample.owner = st.st_uid;
		err->sample.uid = getuid();
	}
}

int sampler_open(struct sampler **out, int rootfd, int pid, const struct sampler_req *req,
		 struct fact_notes *notes, struct fact *err)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	int *tids = NULL;
	size_t tcap = 0;
	struct cpumap cpus = { NULL, 0, 0 };
	struct sampler_attrs a;
	char path[4096];
	long n;
	int r = -ENOENT;

	memset(notes, 0, sizeof(*notes));
	fact_set(err, FACT_SAMPLE, 0, NULL, -2)->sample.pid = pid;
	s->ops = sysops_or_real(req->ops);
	s->pid = pid;
	s->rootfd = -1;
	s->no_inherit_thread = req->no_inherit_thread;
	s->no_format_lost = req->no_format_lost;
	s->fixed = req->period != 0;
	snprintf(path, sizeof(path), "%d/task", pid);
	n = proc_list_ids(rootfd, path, &tids, &tcap);
	if (n <= 0) {
		fact_set(err, FACT_SAMPLE_TASK, -ESRCH, NULL, -2)->sample.pid = pid;
		r = -ESRCH;
		goto out_fail;
	}
	if (cpumap_online(&cpus, s->ops, req->sysfs, rootfd) || !cpus.n) {
		fact_set(err, FACT_SAMPLE_CPUS, -ENOENT, NULL, -2);
		r = -ENOENT;
		goto out_fail;
	}
	if (req->kind == SAMPLE_AUTO || req->kind == SAMPLE_PEBS) {
		r = sampler_open_pebs(s, req, tids, (size_t)n, &cpus, notes);
		if (!r) {
			s->kind = SAMPLE_PEBS;
			s->rate = (struct sampler_rate){ 1000, 4000, 1000, 1ull << 30 };
			goto out_ok;
		}
		if (r == -EMFILE)
			goto out_fds;
		sampler_note(notes, FACT_SAMPLE_PEBS, "MEM_INST_RETIRED", r);
		if (req->kind == SAMPLE_PEBS)
			goto out_err;
	}
	if (req->kind == SAMPLE_AUTO || req->kind == SAMPLE_IBS) {
		int type;

		snprintf(path, sizeof(path), "%s/bus/event_source/devices/ibs_op/type",
			 req->sysfs ? req->sysfs : "/sys");
		r = sampler_read_int(s->ops, path, &type);
		if (!r) {
			sampler_ibs_attrs(type, req->period, &a);
			sampler_set_all(s, &a, &cpus);
			r = sampler_try(s, tids, (size_t)n, req->max_fds);
		} else {
			r = -ENOENT;
		}
		if (!r) {
			s->kind = SAMPLE_IBS;
			s->rate = (struct sampler_rate){ 1000, 4000, 4096, SAMPLER_IBS_MAX };
			goto out_ok;
		}
		if (r == -EMFILE)
			goto out_fds;
		sampler_note(notes, FACT_SAMPLE_IBS, "ibs_op", r);
		if (req->kind == SAMPLE_IBS)
			goto out_err;
	}
	sampler_fault_attrs(req->period, req->kernel, &a);
	sampler_set_all(s, &a, &cpus);
	r = sampler_try(s, tids, (size_t)n, req->max_fds);
	if (!r) {
		s->kind = SAMPLE_FAULTS;
		s->rate = (struct sampler_rate){ 1000, 4000, 1, 1u << 20 };
		goto out_ok;
	}
	if (r == -EMFILE)
		goto out_fds;
out_err:
	fact_set(err, FACT_SAMPLE, r ? r : -EINVAL,
		 s->nsets ? s->set[0].a.name[s->set[0].a.leader[0] ? 1 : 0] : NULL, -2);
	err->sample.pid = pid;
	sampler_owner(rootfd, pid, err);
	goto out_fail;
out_fds:
	fact_set(err, FACT_SAMPLE_FDS, -EMFILE, NULL, -2);
	err->sample_fds.fds = (long long)sampler_fds_needed(s, (size_t)n);
out_fail:
	free(tids);
	cpumap_release(&cpus);
	sampler_close_fds(s);
	sampler_release_sets(s);
	free(s);
	*out = NULL;
	return r ? r : -EINVAL;
out_ok:
	s->period = s->set[0].a.attr[s->set[0].a.leader[0] ? 1 : 0].sample_period;
	s->rootfd = rootfd;
	s->rng = req->seed ? req->seed : (uint64_t)pid * 0x9e3779b97f4a7c15ull ^ (uintptr_t)s;
	sampler_index_ids(s);
	/* the mappings that exist now; the ring's records say how they change from here */
	sampler_read_maps(s, sampler_proc(s, (uint32_t)pid, true), false);
	free(tids);
	cpumap_release(&cpus);
	*out = s;
	return 0;
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprocs; i++)
		mmaps_release(&s->procs[i]);
	free(s->procs);
	free(s->ev);
	free(s->mapsbuf);
	sampler_close_fds(s);
	sampler_release_sets(s);
	free(s);
}

enum sample_kind sampler_kind(const struct sampler *s)
{
	return s->kind;
}

uint64_t sampler_period(const struct sampler *s)
{
	return s->period;
}

unsigned sampler_flags(const struct sampler *s)
{
	return s->nsets ? s->set[0].a.flags : 0;
}

size_t sampler_nfds(const struct sampler *s)
{
	return s->nfds;
}

size_t sampler_ring_bytes(const struct sampler *s)
{
	return s->ring_bytes;
}

size_t sampler_poll_fds(const struct sampler *s, int *fds, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nrings && n < max; i++)
		if (!s->rings[i].hup)
			fds[n++] = s->rings[i].ring.fd;
	return n;
}

void sampler_hangup(struct sampler *s, int fd)
{
	for (size_t i = 0; i < s->nrings; i++)
		if (s->rings[i].ring.fd == fd)
			s->rings[i].hup = true;
}

/* ---- draining: records of every ring merged in time order ---- */

static struct sampler_ev *sampler_push(struct sampler *s, enum sampler_ev_kind kind, uint64_t time,
				       uint32_t pid)
{
	struct sampler_ev *e;

	s->ev = xgrow(s->ev, &s->evcap, s->nev + 1, sizeof(*s->ev));
	e = &s->ev[s->nev];
	e->time = time;
	e->seq = s->nev++;
	e->kind = kind;
	e->pid = pid;
	e->area.name = NULL;
	return e;
}

static void sampler_take_sample(const struct perfrec_sample *in, void *arg)
{
	struct sampler *s = arg;

	sampler_push(s, SAMPLER_EV_SAMPLE, in->time, in->pid)->smp = *in;
}

static void sampler_take_mmap(const struct perfrec_mmap *m, void *arg)
{
	struct sampler *s = arg;
	struct sampler_ev *e = sampler_push(s, SAMPLER_EV_MMAP, m->time, m->pid);

	e->area = (struct mem_area){ m->addr, m->addr + m->len,	       m->pgoff, m->maj, m->min,
				     m->ino,  xmalloc(m->name_len + 1) };
	memcpy(e->area.name, m->name, m->name_len);
	e->area.name[m->name_len] = '\0';
}

static void sampler_take_task(const struct perfrec_task *t, void *arg)
{
	struct sampler *s = arg;

	/* an exec replaces the address space; an exit of a whole process ends it */
	if (t->type == PERF_RECORD_COMM && t->exec)
		sampler_push(s, SAMPLER_EV_EXEC, t->time, t->pid);
	else if (t->type == PERF_RECORD_EXIT && t->pid == t->tid)
		sampler_push(s, SAMPLER_EV_EXIT, t->time, t->pid);
}

static int sampler_cmp_ev(const void *a, const void *b)
{
	const struct sampler_ev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static struct sampler_fd *sampler_fd_of(struct sampler *s, uint64_t id)
{
	struct sampler_id key = { id, 0 };
	const struct sampler_id *k;

	if (!s->nids)
		return NULL;
	k = bsearch(&key, s->byid, s->nids, sizeof(*s->byid), sampler_cmp_id);
	return k ? &s->fds[k->fd] : NULL;
}

/*
 * A sample in its turn: named by the mapping its address lay in then.
 * PEBS events say nothing of the op unless DATA_SRC does: take it from the
 * event. IBS samples every op: those that touch no memory come with address
 * 0 and would make page 0 the hottest: count and drop them.
 */
static void sampler_give(struct sampler *s, const struct perfrec_sample *in)
{
	struct perfrec_sample smp = *in;
	struct sampler_fd *f = sampler_fd_of(s, smp.id);
	struct mmaps *m;

	if (f)
		f->hit = true;
	if (s->soft) {
		/* thinned here: each kept sample a dithered number of faults after the last */
		if (s->skip > 1) {
			s->skip--;
			return;
		}
		smp.period = s->gap ? s->gap : 1;
		s->gap = sampler_dither(&s->rng, s->period, s->rate.max, 1);
		s->skip = s->gap;
	}
	s->kept++;
	if (s->kind == SAMPLE_IBS && !smp.addr) {
		s->nonmem++;
		return;
	}
	if (smp.op == MEM_OP_NA && s->kind == SAMPLE_PEBS && f && !f->counts_only)
		smp.op = f->op;
	if (!smp.period)
		smp.period = f ? f->period : s->period;
	m = sampler_proc(s, smp.pid, false);
	smp.area = m ? mmaps_find(m, smp.addr) : NULL;
	/* no record covers it (lost, or made before the seed): what /proc says now, once a drain */
	if (m && !smp.area && !s->reread) {
		s->reread = true;
		sampler_read_maps(s, m, true);
		smp.area = mmaps_find(m, smp.addr);
	}
	if (s->cb)
		s->cb(&smp, s->arg);
}

static void sampler_apply(struct sampler *s, struct sampler_ev *e)
{
	struct mmaps *m;

	switch (e->kind) {
	case SAMPLER_EV_SAMPLE:
		sampler_give(s, &e->smp);
		break;
	case SAMPLER_EV_MMAP:
		m = sampler_proc(s, e->pid, true);
		if (m)
			mmaps_insert(m, &e->area, e->area.name, strlen(e->area.name));
		free(e->area.name);
		e->area.name = NULL;
		break;
	case SAMPLER_EV_EXEC:
		m = sampler_proc(s, e->pid, false);
		if (m)
			mmaps_clear(m);
		break;
	case SAMPLER_EV_EXIT:
		m = sampler_proc(s, e->pid, false);
		/* the sampled process's own samples may still be queued: keep its map */
		if (m && m->pid != s->pid) {
			mmaps_release(m);
			*m = s->procs[--s->nprocs];
		}
		break;
	}
}

/* Each event that delivered samples takes a new period drawn around the steered one. */
static void sampler_redither(struct sampler *s)
{
	bool dither = !s->fixed && !s->soft && s->period >= 2;

	for (size_t i = 0; i < s->nfds; i++) {
		uint64_t p;

		if (!s->fds[i].hit)
			continue;
		s->fds[i].hit = false;
		if (!dither)
			continue;
		p = sampler_dither(&s->rng, s->period, s->rate.max, s->kind == SAMPLE_IBS ? 16 : 1);
		if (s->ops->ioctl(s->ops->ctx, s->fds[i].fd, PERF_EVENT_IOC_PERIOD,
				  (unsigned long)&p) == 0)
			s->fds[i].period = p;
	}
}

void sampler_drain(struct sampler *s, perfrec_sample_cb cb, void *arg)
{
	struct perfrec_cbs cbs = { sampler_take_sample, sampler_take_mmap, sampler_take_task, s,
				   SAMPLER_BASE_TYPE };

	s->cb = cb;
	s->arg = arg;
	s->nev = 0;
	s->reread = false;
	for (size_t i = 0; i < s->nrings; i++) {
		cbs.id_type = s->rings[i].ring.sample_type;
		ring_drain_records(&s->rings[i].ring, &cbs, &s->st);
	}
	/* each ring is in time order; a mapping made on one CPU may name a sample taken on another */
	if (s->nrings > 1 && s->nev > 1)
		qsort(s->ev, s->nev, sizeof(*s->ev), sampler_cmp_ev);
	for (size_t i = 0; i < s->nev; i++)
		sampler_apply(s, &s->ev[i]);
	s->nev = 0;
	sampler_redither(s);
}

const struct perfrec_stats *sampler_stats(const struct sampler *s)
{
	return &s->st;
}

uint64_t sampler_nonmem(const struct sampler *s)
{
	return s->nonmem;
}

uint64_t sampler_lost(const struct sampler *s)
{
	uint64_t total = 0;

	if (s->no_format_lost)
		return s->st.lost;
	for (size_t i = 0; i < s->nfds; i++) {
		uint64_t v[2]; /* value, lost */

		if (s->fds[i].counts_only)
			continue;
		if (sysops_read(s->ops, s->fds[i].fd, v, sizeof(v)) == (long)sizeof(v))
			total += v[1];
	}
	/* an exited thread's count is gone with it: never report less than the records said */
	return total > s->st.lost ? total : s->st.lost;
}

uint64_t sampler_adapt(struct sampler *s, double dt)
{
	uint64_t got = s->kept - s->last_samples, next, kernel;
	bool soft;

	s->last_samples = s->kept;
	if (s->fixed || !(dt > 0))
		return s->period;
	next = sampler_next_period(s->period, (double)got / dt, &s->rate);
	if (s->kind == SAMPLE_IBS)
		next &= ~(uint64_t)15;
	if (next == s->period)
		return s->period;
	soft = s->kind == SAMPLE_FAULTS && next < SAMPLER_SOFT_MAX;
	if (soft && !s->soft) {
		s->gap = sampler_dither(&s->rng, next, s->rate.max, 1);
		s->skip = s->gap;
	}
	s->soft = soft;
	s->period = next;
	kernel = soft ? 1 : next;
	/* existing inherited children keep the old period; the parents and new children take it */
	for (size_t i = 0; i < s->nfds; i++)
		if (!s->fds[i].counts_only && s->fds[i].period != kernel &&
		    s->ops->ioctl(s->ops->ctx, s->fds[i].fd, PERF_EVENT_IOC_PERIOD,
				  (unsigned long)&kernel) == 0)
			s->fds[i].period = kernel;
	return next;
}
