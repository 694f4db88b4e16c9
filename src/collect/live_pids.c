/* Live source, the tick's processes: from the kernel's events, the backend's keys, or /proc. */
#include "config.h"
#include "collect/live.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool live_pids_exists(const struct live *l, int pid)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", pid);
	return faccessat(l->rootfd, name, F_OK, 0) == 0;
}

/*
 * The last list less the processes the last scan found gone: each one it
 * looked at (all, or those -p keeps) and did not keep. A zombie is looked
 * at until reaped: a process does not run to be reaped, so its sums do
 * not move and its stat is not read again.
 */
static long live_pids_pruned(struct live *l)
{
	size_t j = 0;
	long k = 0;

	for (long i = 0; i < l->nids; i++) {
		int pid = l->ids[i];

		while (j < l->nprocs && l->procs[j].pid < pid)
			j++;
		if (j < l->nprocs && l->procs[j].pid == pid) {
			char state = l->procs[j].last.state;

			if ((state == 'Z' || state == 'X') && !live_pids_exists(l, pid))
				continue;
		} else if (live_wanted_pid(l, pid)) {
			continue;
		}
		l->ids[k++] = pid;
	}
	return k;
}

/* The inode of the initial PID namespace (PROC_PID_INIT_INO) */
#define LIVE_PIDNS_INIT_INO 0xeffffffcULL

void live_pids_note(struct live *l, int pid)
{
	char path[64];
	struct stat sb;

	if (!l->pidkeys || l->pidns_nested)
		return;
	if (!l->pidns_ino) {
		if (fstatat(l->rootfd, "self/ns/pid", &sb, 0)) {
			/* the namespace cannot be told apart: the keys may miss some */
			l->pidns_nested = true;
			return;
		}
		l->pidns_ino = sb.st_ino;
	}
	/* the initial namespace's /proc: the program keys by the kernel's tgids, every one shown */
	if (l->pidns_ino == LIVE_PIDNS_INIT_INO)
		return;
	snprintf(path, sizeof(path), "%d/ns/pid", pid);
	/* gone (ENOENT) is no namespace; one not to be looked at may be another */
	if (fstatat(l->rootfd, path, &sb, 0))
		l->pidns_nested |= errno != ENOENT && errno != ESRCH;
	else
		l->pidns_nested |= sb.st_ino != l->pidns_ino;
}

/* Whether /proc at l->rootfd is of this process's PID namespace: its "self" is this process. */
static bool live_pids_own_ns(struct live *l)
{
	if (!l->lastpid_ok)
		l->lastpid_ok = proc_is_own(l->rootfd) ? 1 : -1;
	return l->lastpid_ok > 0;
}

/*
 * The processes of /proc by a listing, or the last listing's less those
 * gone where no pid was given since it: listing /proc walks every task of
 * the machine (threads too) and costs a server more than reading its
 * processes. A pid given to a process or a thread moves the last pid of
 * /proc/loadavg, in the PID namespaces below too; one the same does not
 * say that no pid came round again past pid_max, so /proc is listed at
 * least every LIVE_RESCAN_S all the same.
 */
static long live_pids_listed(struct live *l)
{
	uint64_t now = sysops_now(l->ops);
	long pid = l->lastpid, r;

	if (pid >= 0 && l->list_ns && pid == l->list_pid && !l->list_again && now >= l->list_ns &&
	    (double)(now - l->list_ns) < LIVE_RESCAN_S * 1e9 && live_pids_own_ns(l))
		return live_pids_pruned(l);
	r = procevents_ids(NULL, l->rootfd, &l->ids, &l->idcap, l->nids);
	/*
	 * the pid is given before its process is in /proc's list (alloc_pid,
	 * then attach_pid): after a listing for a pid given, one more
	 */
	l->list_again = r >= 0 && l->list_ns && pid != l->list_pid;
	l->list_pid = pid;
	l->list_ns = r >= 0 && pid >= 0 ? now : 0;
	return r;
}

long live_pids(struct live *l)
{
	const int *keys;
	size_t nkeys = 0;
	bool full = false;

	if (!l->pev && l->be->keys && !l->pidkeys_tried) {
		l->pidkeys_tried = true;
		l->pidkeys = pidkeys_open(l->rootfd, LIVE_RESCAN_S);
	}
	if (!l->pev && (!l->pidkeys || l->pidns_nested))
		return live_pids_listed(l);
	if (l->pev || !l->pidkeys || l->pidns_nested)
		return procevents_ids(l->pev, l->rootfd, &l->ids, &l->idcap, l->nids);
	keys = l->be->keys(l, &nkeys, &full);
	l->nids = live_pids_pruned(l);
	return pidkeys_ids(l->pidkeys, l->rootfd, keys, nkeys, full, &l->ids, &l->idcap, l->nids);
}
