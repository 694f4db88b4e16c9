/* Data-address sampling of one process: PEBS, IBS or page faults, into per-CPU rings. */
#ifndef PMCTOP_SAMPLER_H
#define PMCTOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/ring.h"
#include "kernel/sysops.h"
#include "stream/source.h"
#include "collect/fact.h"

#define SAMPLER_MAX_ATTRS 3		/* PEBS: the mem-loads-aux leader, loads and stores */
#define SAMPLER_MAX_SETS 2		/* hybrid: P-cores and E-cores */
#define SAMPLER_RING_BYTES (512u << 10) /* per CPU, halved while the mlock budget refuses */
#define SAMPLER_LDLAT 30		/* load-latency threshold in cycles, as perf mem uses */

/* What one source opens: up to three events and the op each one's samples are. */
struct sampler_attrs {
	size_t n;
	struct perf_event_attr attr[SAMPLER_MAX_ATTRS];
	enum mem_op op[SAMPLER_MAX_ATTRS];
	const char *name[SAMPLER_MAX_ATTRS]; /* static strings */
	/* counts only and leads the next attr's group (the kernel wants mem-loads-aux there) */
	bool leader[SAMPLER_MAX_ATTRS];
	unsigned flags; /* SNAP_SMP_NO_* : what these samples do not carry */
};

/*
 * Build the PEBS events at precise level precise (3 down to 1: the address
 * needs PEBS) with libpfm4 names (MEM_INST_RETIRED.ALL_LOADS/ALL_STORES:
 * addresses, but neither latency nor load source); kernel allows
 * kernel-mode samples. 0, or -ENOENT when this PMU has no such events.
 */
int sampler_pebs_attrs(unsigned precise, uint64_t period, bool kernel, struct sampler_attrs *out);
/*
 * The kernel's own load-latency events of PMU pmu under SYSFS/bus/event_source/devices:
 * mem-loads with an ldlat of SAMPLER_LDLAT, led by mem-loads-aux where the
 * kernel lists it, and mem-stores. 0, -ENOENT when the PMU lists neither,
 * -EINVAL when an alias or format cannot be understood.
 */
int sampler_pebs_sysfs(const struct sysops *ops, const char *sysfs, const char *pmu,
		       unsigned precise, uint64_t period, bool kernel, struct sampler_attrs *out);
/* The IBS op event of PMU type ibs_type; the period is rounded to a multiple of 16. */
void sampler_ibs_attrs(int ibs_type, uint64_t period, struct sampler_attrs *out);
/* Software page-fault samples with their addresses. */
void sampler_fault_attrs(uint64_t period, bool kernel, struct sampler_attrs *out);
/* The precise levels tried in order, ending with 0 (the caller stops before it for PEBS). */
extern const unsigned SAMPLER_PRECISE_ORDER[4];

/* The sample rate the period is steered to, per process, and the period's bounds. */
struct sampler_rate {
	double lo, hi; /* samples per second */
	uint64_t min, max;
};

/*
 * The period for the next interval given the rate measured with period:
 * scaled towards the middle of [lo, hi] when the rate is outside it, by at
 * most 8 times a step, within [min, max]. A rate of 0 says nothing. Pure.
 */
uint64_t sampler_next_period(uint64_t period, double rate, const struct sampler_rate *r);

/*
 * A period drawn around mean: uniform over [mean - w, mean + w] with w =
 * mean / 2 (less where max is nearer), so the mean is kept; never 0. step
 * (16 for IBS, else 1) divides the result. rng is the xorshift state. Pure
 * but for rng.
 */
uint64_t sampler_dither(uint64_t *rng, uint64_t mean, uint64_t max, uint64_t step);

struct sampler;

struct sampler_req {
	enum sample_kind kind;
	uint64_t period;	  /* 0: the source's default, steered to the target rate */
	const char *sysfs;	  /* "/sys" unless testing */
	bool kernel;		  /* kernel-mode samples are permitted */
	const struct sysops *ops; /* borrowed, outlives the sampler; NULL: the real calls */
	size_t max_fds;		  /* descriptors sampling may take; 0: no limit */
	bool no_inherit_thread;	  /* the kernel refuses attr.inherit_thread (before 5.13) */
	bool no_format_lost;	  /* the kernel has no PERF_FORMAT_LOST (before 6.0) */
	uint64_t seed;		  /* of the period dither; 0: one of its own */
};

/*
 * Sample every thread of pid (threads created later are covered by
 * inheritance), one ring per online CPU. On success *out is set and notes
 * holds what was tried and given up; on failure err is the fact of why
 * (fact_sample_error turns both into text). 0 or -errno.
 */
int sampler_open(struct sampler **out, int rootfd, int pid, const struct sampler_req *req,
		 struct fact_notes *notes, struct fact *err);
void sampler_close(struct sampler *s);
enum sample_kind sampler_kind(const struct sampler *s);
uint64_t sampler_period(const struct sampler *s);
/* SNAP_SMP_NO_* flags of the events in use. */
unsigned sampler_flags(const struct sampler *s);
/* Descriptors the sampler holds. */
size_t sampler_nfds(const struct sampler *s);
/* Bytes of each ring's data area, after any halving. */
size_t sampler_ring_bytes(const struct sampler *s);
/* The ring fds still worth polling (not hung up); returns how many. */
size_t sampler_poll_fds(const struct sampler *s, int *fds, size_t max);
/* The fd reported POLLHUP: it is drained at ticks but not polled any more. */
void sampler_hangup(struct sampler *s, int fd);
/*
 * Drain every ring into cb, samples and mapping records merged in time
 * order, each sample given the mapping its address lay in at its time
 * (perfrec_sample.area). Each event that delivered samples gets a new dithered
 * period (unless the caller fixed it). Counts accumulate in the stats.
 */
void sampler_drain(struct sampler *s, perfrec_sample_cb cb, void *arg);
const struct perfrec_stats *sampler_stats(const struct sampler *s);
/* Samples the kernel dropped: PERF_FORMAT_LOST where the kernel has it (6.0+), else LOST records. */
uint64_t sampler_lost(const struct sampler *s);
/* IBS samples of ops that touch no memory (address 0), dropped before the histogram. */
uint64_t sampler_nonmem(const struct sampler *s);
/*
 * Steer the period to the target rate from the samples delivered in the
 * last dt seconds (unless the caller fixed the period). Returns the period
 * in use.
 */
uint64_t sampler_adapt(struct sampler *s, double dt);

#endif
