/* New processes from the keys of the switch program's sums, so /proc is not listed every tick. */
#include "config.h"
#include "collect/pidkeys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/proc.h"
#include "util/xalloc.h"

/*
 * The switch program makes an entry for a process at its first switch
 * after counting began, so the keys hold every process that ran since:
 * the last tick's list, less the processes the scan found gone, and the
 * keys not in it make this tick's list. A process that has not run since
 * counting began has no key: the first listing finds it. One forked and
 * not yet switched out is found at its first switch, a tick later at
 * most. A key /proc does not have is a process that ended since its
 * switch; one /proc has as a thread of another process (its pid taken
 * again) is not a process. /proc is still listed every rescan_s seconds,
 * while the table is full (a process may have run without an entry) and
 * the tick after, and when a key could not be looked up.
 */
struct pidkeys {
	double rescan_s, last_list;
	unsigned long listings;
	bool listed;   /* a listing was had */
	bool trusted;  /* a listing held a key: the keys number this /proc's processes */
	bool was_full; /* the table was full at the last call */
	bool unsure;   /* a key could not be looked up: list */
	int *add;      /* this tick's new pids, ascending */
	size_t addcap;
};

static double pidkeys_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct pidkeys *pidkeys_new(double rescan_s)
{
	struct pidkeys *pk = xcalloc(1, sizeof(*pk));

	pk->rescan_s = rescan_s;
	return pk;
}

struct pidkeys *pidkeys_open(int rootfd, double rescan_s)
{
	return proc_is_own(rootfd) ? pidkeys_new(rescan_s) : NULL;
}

/*
 * Whether pid is a process of /proc: 1 yes, 0 no (gone, or a thread of
 * another process: /proc answers for any thread's id, but lists leaders
 * only), -errno when it cannot tell.
 */
static int pidkeys_is_process(int rootfd, int pid)
{
	char path[32], buf[512];
	const char *t;
	long r;

	snprintf(path, sizeof(path), "%d/status", pid);
	r = proc_read_file(rootfd, path, buf, sizeof(buf));
	if (r == -ENOENT || r == -ESRCH)
		return 0;
	if (r < 0)
		return (int)r;
	t = strstr(buf, "\nTgid:");
	if (!t)
		return r == (long)sizeof(buf) - 1 ? -EOVERFLOW : 0;
	return atoi(t + 6) == pid;
}

/* A key of keys found in ids (both ascending): the keys number the processes listed. */
static bool pidkeys_match(const int *keys, size_t nkeys, const int *ids, long n)
{
	size_t i = 0;

	for (size_t k = 0; k < nkeys; k++) {
		if (keys[k] <= 0)
			continue;
		while (i < (size_t)n && ids[i] < keys[k])
			i++;
		if (i < (size_t)n && ids[i] == keys[k])
			return true;
	}
	return false;
}

long pidkeys_ids(struct pidkeys *pk, int rootfd, const int *keys, size_t nkeys, bool full,
		 int **ids, size_t *cap, long n)
{
	double now = pidkeys_now();
	size_t nadd = 0, i = 0;
	long total;
	bool list = !pk->listed || !pk->trusted || !keys || n < 0 || full || pk->was_full ||
		    pk->unsure || now - pk->last_list >= pk->rescan_s;

	pk->was_full = full;
	if (list) {
		long r = proc_list_ids(rootfd, ".", ids, cap);

		if (r >= 0) {
			pk->trusted |= keys && pidkeys_match(keys, nkeys, *ids, r);
			pk->listed = true;
			pk->unsure = false;
			pk->last_list = now;
			pk->listings++;
		}
		return r;
	}
	/* the keys not in the last list that /proc has: the processes new since, ascending */
	for (size_t k = 0; k < nkeys; k++) {
		int pid = keys[k], r;

		if (pid <= 0)
			continue;
		while (i < (size_t)n && (*ids)[i] < pid)
			i++;
		if (i < (size_t)n && (*ids)[i] == pid)
			continue;
		r = pidkeys_is_process(rootfd, pid);
		if (r < 0)
			pk->unsure = true; /* not known: the next tick lists */
		if (r <= 0)
			continue;
		pk->add = xgrow(pk->add, &pk->addcap, nadd + 1, sizeof(*pk->add));
		pk->add[nadd++] = pid;
	}
	if (!nadd)
		return n;
	/* merge them in from the end: both runs are ascending and share no pid */
	total = n + (long)nadd;
	*ids = xgrow(*ids, cap, (size_t)total, sizeof(**ids));
	for (long d = total - 1, s = n - 1; nadd; d--) {
		if (s >= 0 && (*ids)[s] > pk->add[nadd - 1])
			(*ids)[d] = (*ids)[s--];
		else
			(*ids)[d] = pk->add[--nadd];
	}
	return total;
}

unsigned long pidkeys_listings(const struct pidkeys *pk)
{
	return pk ? pk->listings : 0;
}

void pidkeys_close(struct pidkeys *pk)
{
	if (!pk)
		return;
	free(pk->add);
	free(pk);
}
