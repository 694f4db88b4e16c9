/* Counts of a command's whole run, its children included, as perf stat keeps them. */
#ifndef PMCTOP_RUNCOUNT_H
#define PMCTOP_RUNCOUNT_H

#include <stddef.h>

#include "kernel/sysops.h"
#include "stream/evlist.h"
#include "stream/snapshot.h"

struct runcount;

/*
 * Open every event of ev on pid, one counter each, inherited by every task
 * pid creates from now on (a child that exits adds its counts to its
 * parent's), disabled until pid execs: nothing pmctop does before is
 * counted. Events that cannot be opened keep their -errno, read back as the
 * count's err. Returns the counters (never NULL); ops NULL: the real calls.
 */
struct runcount *runcount_new(const struct sysops *ops, const struct evlist *ev, int pid);
/*
 * Read every counter into out[0..n) (n: the events of ev), value with its
 * enabled and running times; an event not counted has err set. 0, or -errno
 * of the first read that failed (its count's err says so too).
 */
int runcount_read(const struct runcount *c, struct snap_count *out, size_t n);
/* Close the counters; NULL is a no-op. */
void runcount_free(struct runcount *c);

#endif
