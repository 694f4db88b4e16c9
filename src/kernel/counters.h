/* perf_event_open groups per task or per CPU: open, read, close. */
#ifndef PMCTOP_COUNTERS_H
#define PMCTOP_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/perf_compat.h"
#include "kernel/sysops.h"
#include "stream/snapshot.h"

#define COUNTERS_MAX_GROUP 16

#define COUNTERS_INHERIT 0x1u /* count threads the task creates later */
#define COUNTERS_PINNED 0x2u  /* the group always on the PMU, or in error state */
/* with INHERIT: leave attr.inherit_thread clear (kernels before 5.13 refuse it) */
#define COUNTERS_NO_INHERIT_THREAD 0x4u
/* pid is the descriptor of a cgroup directory: count its tasks on cpu (PERF_FLAG_PID_CGROUP) */
#define COUNTERS_CGROUP 0x8u
#define COUNTERS_ECHILD_TRIES 3 /* builds of an inherited group a clone may spoil in a row */

struct counters_group {
	const struct sysops *ops; /* borrowed: what opened the fds closes and reads them */
	int nr;
	bool single;		    /* kernel refused GROUP reads: read members one by one */
	int fd[COUNTERS_MAX_GROUP]; /* fd[0] leads */
	uint64_t id[COUNTERS_MAX_GROUP];
	int ev[COUNTERS_MAX_GROUP]; /* event index of each member */
};

/*
 * Open nr events (attrs[i] for event index ev[i]) as one group on pid/cpu
 * through ops (NULL: the real system calls, which must outlive the group)
 * and enable it once complete. attrs are copied and adjusted (read_format,
 * disabled, inherit). An inherited group is read once when built and built
 * again when that read says a clone changed it (ECHILD). Returns 0 or
 * -errno; on failure *bad is the member that failed and nothing stays open.
 */
int counters_open_group(struct counters_group *g, const struct sysops *ops,
			const struct perf_event_attr *const *attrs, const int *ev, int nr, int pid,
			int cpu, unsigned flags, int *bad);
/* Close every fd of the group; safe on a closed group. */
void counters_close_group(struct counters_group *g);
/*
 * Read the group into out[], indexed by event index. Returns 0 or -errno
 * (-ENODATA when the kernel put the group into error state).
 */
int counters_read_group(const struct counters_group *g, struct snap_count *out);
/*
 * Parse a PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING
 * buffer, matching values to members by id. Pure. 0 or -EINVAL.
 */
int counters_parse_group(const void *buf, size_t len, const struct counters_group *g,
			 struct snap_count *out);
/* Parse a single-event ID|ENABLED|RUNNING read for member i. Pure. 0 or -EINVAL. */
int counters_parse_single(const void *buf, size_t len, const struct counters_group *g, int i,
			  struct snap_count *out);
/* Bytes a group read of nr members needs. */
size_t counters_group_size(int nr);
/*
 * Whether a and b count the same thing: the same event (type, config,
 * config1, config2) with the same privilege-level filters and precision.
 * instructions and instructions:k are two counters; only events that are
 * equal here may share one.
 */
bool counters_attr_same(const struct perf_event_attr *a, const struct perf_event_attr *b);

#endif
