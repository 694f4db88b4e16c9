/* Signals and nice values for the processes the user picked on the screen. */
#include "config.h"
#include "app/procctl.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "view/ui.h"

/* "SIGTERM" for the signals the menu lists, "signal 34" for the others. */
static void procctl_signame(int sig, char *buf, size_t size)
{
	const char *name = ui_signal_name(sig);

	if (name)
		snprintf(buf, size, "SIG%s", name);
	else
		snprintf(buf, size, "signal %d", sig);
}

/* Why an operation on pid failed, in words that say what to do. */
static const char *procctl_why(int err)
{
	switch (err) {
	case ESRCH:
		return "no such process (it has exited)";
	case EPERM:
		return "permission denied: it belongs to another user (run pmctop as root)";
	case EACCES:
		return "permission denied: lowering a nice value needs root or CAP_SYS_NICE";
	case EINVAL:
		return "not a process id";
	default:
		return strerror(err);
	}
}

int procctl_signal(const int *pids, size_t n, int sig, char *msg, size_t size)
{
	char name[32];
	size_t sent = 0;
	int first = 0, first_pid = 0;

	procctl_signame(sig, name, sizeof(name));
	if (sig < 1 || sig > SIGRTMAX) {
		snprintf(msg, size, "no signal %d: give a number from 1 to %d", sig, SIGRTMAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		/* 0 and negative ids would reach process groups or every process */
		int err = pids[i] <= 0 ? EINVAL : kill(pids[i], sig) ? errno : 0;

		if (!err) {
			sent++;
		} else if (!first) {
			first = err;
			first_pid = pids[i];
		}
	}
	if (!first) {
		if (n == 1)
			snprintf(msg, size, "sent %s to pid %d", name, pids[0]);
		else
			snprintf(msg, size, "sent %s to %zu processes", name, n);
		return 0;
	}
	if (n == 1)
		snprintf(msg, size, "cannot send %s to pid %d: %s", name, first_pid,
			 procctl_why(first));
	else
		snprintf(msg, size, "sent %s to %zu of %zu processes; pid %d: %s", name, sent, n,
			 first_pid, procctl_why(first));
	return -first;
}

/* Renice one thread by delta; its new value in *now. 0 or an errno. */
static int procctl_renice_one(int tid, int delta, int *now)
{
	int cur, want;

	errno = 0;
	cur = getpriority(PRIO_PROCESS, (id_t)tid);
	if (cur == -1 && errno)
		return errno;
	want = cur + delta;
	want = want < -20 ? -20 : want > 19 ? 19 : want;
	*now = want;
	if (want == cur)
		return 0;
	return setpriority(PRIO_PROCESS, (id_t)tid, want) ? errno : 0;
}

/* Renice every thread of process pid (setpriority takes one thread at a time). */
static int procctl_renice_process(int pid, int delta, int *now)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return procctl_renice_one(pid, delta, now);
	/* the main thread first: its value is the one reported */
	err = procctl_renice_one(pid, delta, now);
	while (!err && (e = readdir(d))) {
		int tid = atoi(e->d_name), ignored;

		if (tid <= 0 || tid == pid)
			continue;
		/* a thread that exits meanwhile is no failure */
		err = procctl_renice_one(tid, delta, &ignored);
		if (err == ESRCH)
			err = 0;
	}
	closedir(d);
	return err;
}

int procctl_renice(const int *ids, size_t n, int delta, bool threads, char *msg, size_t size)
{
	const char *how = delta < 0 ? "lower" : "raise";
	int first = 0, first_id = 0, now = 0;
	size_t ok = 0;

	for (size_t i = 0; i < n; i++) {
		int err = ids[i] <= 0 ? EINVAL
			  : threads   ? procctl_renice_one(ids[i], delta, &now)
				      : procctl_renice_process(ids[i], delta, &now);

		if (!err) {
			ok++;
		} else if (!first) {
			first = err;
			first_id = ids[i];
		}
	}
	if (!first) {
		if (n == 1)
			snprintf(msg, size, "%s %d: nice %d", threads ? "thread" : "pid", ids[0],
				 now);
		else
			snprintf(msg, size, "nice value %s by one for %zu processes",
				 delta < 0 ? "lowered" : "raised", n);
		return 0;
	}
	if (n == 1)
		snprintf(msg, size, "cannot %s the nice value of %s %d: %s", how,
			 threads ? "thread" : "pid", first_id, procctl_why(first));
	else
		snprintf(msg, size, "nice value changed for %zu of %zu processes; %d: %s", ok, n,
			 first_id, procctl_why(first));
	return -first;
}
