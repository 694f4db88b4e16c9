/* Signals and nice values for the processes the user picked on the screen. */
#include "config.h"
#include "app/procctl.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "util/errmsg.h"
#include "view/ui.h"

int procctl_signal(const int *pids, size_t n, int sig, char *msg, size_t size)
{
	char name[32];
	struct errmsg_acted a = { .n = n };

	errmsg_signal_name(name, sizeof(name), sig, ui_signal_name(sig));
	if (sig < 1 || sig > SIGRTMAX) {
		errmsg_no_signal(msg, size, sig, SIGRTMAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		/* 0 and negative ids would reach process groups or every process */
		int err = pids[i] <= 0 ? EINVAL : kill(pids[i], sig) ? errno : 0;

		if (!err) {
			a.done++;
		} else if (!a.err) {
			a.err = err;
			a.err_id = pids[i];
		}
	}
	errmsg_signalled(msg, size, name, pids, &a);
	return -a.err;
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
	struct errmsg_acted a = { .n = n };
	int now = 0;

	for (size_t i = 0; i < n; i++) {
		int err = ids[i] <= 0 ? EINVAL
			  : threads   ? procctl_renice_one(ids[i], delta, &now)
				      : procctl_renice_process(ids[i], delta, &now);

		if (!err) {
			a.done++;
		} else if (!a.err) {
			a.err = err;
			a.err_id = ids[i];
		}
	}
	errmsg_reniced(msg, size, delta, threads, ids, now, &a);
	return -a.err;
}
