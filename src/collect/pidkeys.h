/* New processes from the keys of the switch program's sums, so /proc is not listed every tick. */
#ifndef PMCTOP_PIDKEYS_H
#define PMCTOP_PIDKEYS_H

#include <stdbool.h>
#include <stddef.h>

struct pidkeys;

/*
 * The tick's processes of the /proc open at rootfd from a table keyed by
 * the pid of every process that ran since counting began (as that /proc
 * numbers them), listing /proc again at least every rescan_s seconds.
 * NULL where the keys cannot be this /proc's numbers: its "self" is not
 * this process (a /proc of another PID namespace). Callers then list /proc
 * every tick, as procevents_ids(NULL, ...) does.
 */
struct pidkeys *pidkeys_open(int rootfd, double rescan_s);
/* As pidkeys_open, whatever /proc's "self" (tests give a directory of their own). */
struct pidkeys *pidkeys_new(double rescan_s);
/*
 * The sorted pids of /proc in *ids (of *cap, grown with xgrow), given
 * those of the last call with the processes found gone since taken out (n
 * of them, < 0 for none) and the keys (ascending, nkeys of them; keys NULL:
 * none to be had this tick). full: the table had no room for a key, so a
 * process may have run without one. The last ones and the keys not among
 * them that /proc has (a key it does not have is a process that ended), or
 * a listing of /proc: the first call, no keys, the table full now or at the
 * last call, rescan_s passed, /proc could not be asked about a key, or the
 * keys not yet seen to match a listing. The count, or -errno as
 * proc_list_ids().
 */
long pidkeys_ids(struct pidkeys *pk, int rootfd, const int *keys, size_t nkeys, bool full,
		 int **ids, size_t *cap, long n);
/* Listings of /proc done by pk so far (for tests and the benchmark). */
unsigned long pidkeys_listings(const struct pidkeys *pk);
void pidkeys_close(struct pidkeys *pk);

#endif
