/* Data-address sampling of one process: PEBS, IBS or page faults, into per-CPU rings. */
#ifndef PMCTOP_SAMPLER_H
#define PMCTOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/perf_compat.h"
#include "collect/ring.h"
#include "collect/sysops.h"
#include "stream/source.h"
#include "util/errmsg.h"

#define SAMPLER_MAX_ATTRS 2	/* PEBS: loads and stores */

/* What one source opens: up to two events and the op each one's samples are. */
struct sampler_attrs {
	size_t n;
	struct perf_event_attr attr[SAMPLER_MAX_ATTRS];
	enum mem_op op[SAMPLER_MAX_ATTRS];
	const char *name[SAMPLER_MAX_ATTRS];
};

/*
 * Build the PEBS events at precise level precise (3 down to 1: the address
 * needs PEBS) with libpfm4 names; kernel allows kernel-mode samples. 0, or
 * -ENOENT when this PMU has no such events.
 */
int sampler_pebs_attrs(unsigned precise, uint64_t period, bool kernel, struct sampler_attrs *out);
/* The IBS op event of PMU type ibs_type; the period is rounded to a multiple of 16. */
void sampler_ibs_attrs(int ibs_type, uint64_t period, struct sampler_attrs *out);
/* Software page-fault samples with their addresses. */
void sampler_fault_attrs(uint64_t period, bool kernel, struct sampler_attrs *out);
/* The precise levels tried in order, ending with 0 (the caller stops before it for PEBS). */
extern const unsigned SAMPLER_PRECISE_ORDER[4];

struct sampler;

struct sampler_req {
	enum sample_kind kind;
	uint64_t period;	/* 0: the source's default */
	const char *sysfs;	/* "/sys" unless testing */
	bool kernel;		/* kernel-mode samples are permitted */
	const struct sysops *ops;	/* borrowed, outlives the sampler; NULL: the real calls */
	bool no_inherit_thread;	/* the kernel refuses attr.inherit_thread (before 5.13) */
	bool no_format_lost;	/* the kernel has no PERF_FORMAT_LOST (before 6.0) */
};

/*
 * Sample every thread of pid (threads created later are covered by
 * inheritance), one ring per online CPU. On success *out is set and notes
 * holds what was tried and given up; on failure err is the fact of why
 * (errmsg_sample_error turns both into text). 0 or -errno.
 */
int sampler_open(struct sampler **out, int rootfd, int pid, const struct sampler_req *req,
		 struct errmsg_notes *notes, struct errmsg_fact *err);
void sampler_close(struct sampler *s);
enum sample_kind sampler_kind(const struct sampler *s);
uint64_t sampler_period(const struct sampler *s);
/* The ring fds still worth polling (not hung up); returns how many. */
size_t sampler_poll_fds(const struct sampler *s, int *fds, size_t max);
/* The fd reported POLLHUP: it is drained at ticks but not polled any more. */
void sampler_hangup(struct sampler *s, int fd);
/* Drain every ring into cb; counts accumulate in the sampler's stats. */
void sampler_drain(struct sampler *s, ring_sample_cb cb, void *arg);
const struct ring_stats *sampler_stats(const struct sampler *s);
/* Samples the kernel dropped: PERF_FORMAT_LOST where the kernel has it (6.0+), else LOST records. */
uint64_t sampler_lost(const struct sampler *s);

#endif
