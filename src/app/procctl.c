/* Signals and nice values for the processes the user picked on the screen. */
#include "config.h"
#include "app/procctl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/proc.h"
#include "util/errmsg.h"
#include "view/ui.h"

/* pidfd_open(2) of a thread that leads no process; Linux 6.9 (<linux/pidfd.h>) */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
/* pidfd_send_signal(2) to the whole process of a thread's pidfd, as kill(2) does */
#ifndef PIDFD_SIGNAL_THREAD_GROUP
#define PIDFD_SIGNAL_THREAD_GROUP (1u << 1)
#endif

/* A process held while it is acted on. */
struct procctl_held {
	int fd;		/* its pidfd, or -1 without pidfds */
	unsigned flags; /* for pidfd_send_signal */
	bool no_pidfd;	/* only its start time was checked */
	bool reused;	/* refused: its pid names another process now */
};

/* Whether who is the process its pid names now: 0, or -ESRCH (a->reused when another's). */
static int procctl_same(const struct sysops *ops, const struct model_ident *who, bool *reused)
{
	char path[48], buf[1024];
	struct proc_stat st;
	long len;

	snprintf(path, sizeof(path), "/proc/%d/stat", who->id);
	len = sysops_read_path(ops, path, 0, buf, sizeof(buf));
	if (len < 0 || proc_parse_stat(buf, (size_t)len, &st))
		return -ESRCH;
	if (st.start != who->start) {
		*reused = true;
		return -ESRCH;
	}
	return 0;
}

/*
 * Hold who: open its pidfd, then read its start time again. The pidfd names the process it
 * was opened on, whatever becomes of the number, and that process was alive at the open: a
 * start time that agrees afterwards proves it is the one chosen, not one given its pid later.
 * Without pidfds, only the check. 0 or -errno.
 */
static int procctl_hold(const struct sysops *ops, const struct model_ident *who,
			struct procctl_held *h)
{
	int fd = ops->pidfd_open ? ops->pidfd_open(ops->ctx, who->id, 0) : -ENOSYS;
	int r;

	h->fd = -1;
	h->flags = 0;
	h->no_pidfd = false;
	h->reused = false;
	if (fd == -EINVAL) {
		/* a thread that leads no process: a thread's pidfd, signals going to its process */
		fd = ops->pidfd_open(ops->ctx, who->id, PIDFD_THREAD);
		h->flags = PIDFD_SIGNAL_THREAD_GROUP;
	}
	if (fd == -ENOSYS || fd == -EINVAL) {
		h->no_pidfd = true;
		return procctl_same(ops, who, &h->reused);
	}
	if (fd < 0)
		return fd;
	h->fd = fd;
	r = procctl_same(ops, who, &h->reused);
	if (r) {
		ops->close(ops->ctx, fd);
		h->fd = -1;
	}
	return r;
}

static void procctl_release(const struct sysops *ops, struct procctl_held *h)
{
	if (h->fd >= 0)
		ops->close(ops->ctx, h->fd);
	h->fd = -1;
}

/* Note the outcome for id: err 0 or a positive errno. */
static void procctl_note(struct errmsg_acted *a, int id, int err, const struct procctl_held *h)
{
	a->no_pidfd |= h->no_pidfd;
	if (!err) {
		a->done++;
	} else if (!a->err) {
		a->err = err;
		a->err_id = id;
		a->reused = h->reused;
	}
}

/* Send sig to one process; 0 or a positive errno. */
static int procctl_signal_one(const struct sysops *ops, const struct model_ident *who, int sig,
			      struct procctl_held *h)
{
	int r;

	/* 0 and negative ids would reach process groups or every process */
	if (who->id <= 0)
		return EINVAL;
	r = procctl_hold(ops, who, h);
	if (r)
		return -r;
	if (h->fd >= 0)
		r = ops->pidfd_send_signal(ops->ctx, h->fd, sig, h->flags);
	else
		r = ops->kill ? ops->kill(ops->ctx, who->id, sig) : -ENOSYS;
	procctl_release(ops, h);
	return -r;
}

int procctl_signal(const struct sysops *ops, const struct model_ident *who, size_t n, int sig,
		   char *msg, size_t size)
{
	char name[32];
	struct errmsg_acted a = { .n = n };
	int ids[1] = { n ? who[0].id : 0 };

	ops = sysops_or_real(ops);
	errmsg_signal_name(name, sizeof(name), sig, sigmenu_signal_name(sig));
	if (sig < 1 || sig > SIGRTMAX) {
		errmsg_no_signal(msg, size, sig, SIGRTMAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct procctl_held h = { .fd = -1 };
		int err = procctl_signal_one(ops, &who[i], sig, &h);

		procctl_note(&a, who[i].id, err, &h);
	}
	errmsg_signalled(msg, size, name, ids, &a);
	return -a.err;
}

/* Renice one thread by delta; its new value in *now. 0 or a positive errno. */
static int procctl_renice_one(const struct sysops *ops, int tid, int delta, int *now)
{
	int cur, want, r;

	r = ops->getnice ? ops->getnice(ops->ctx, tid, &cur) : -ENOSYS;
	if (r)
		return -r;
	want = cur + delta;
	want = want < -20 ? -20 : want > 19 ? 19 : want;
	*now = want;
	if (want == cur)
		return 0;
	return -ops->setnice(ops->ctx, tid, want);
}

/* Renice every thread of process pid (setpriority takes one thread at a time). */
static int procctl_renice_process(const struct sysops *ops, int pid, int delta, int *now)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return procctl_renice_one(ops, pid, delta, now);
	/* the main thread first: its value is the one reported */
	err = procctl_renice_one(ops, pid, delta, now);
	while (!err && (e = readdir(d))) {
		int tid = atoi(e->d_name), ignored;

		if (tid <= 0 || tid == pid)
			continue;
		/* a thread that exits meanwhile is no failure */
		err = procctl_renice_one(ops, tid, delta, &ignored);
		if (err == ESRCH)
			err = 0;
	}
	closedir(d);
	return err;
}

/*
 * Renice who: setpriority(2) has no pidfd form and takes a number. The pidfd, held across it,
 * tells afterwards whether the process exited meanwhile: if it did not, the number was still
 * its own throughout. 0 or a positive errno.
 */
static int procctl_renice_held(const struct sysops *ops, const struct model_ident *who, int delta,
			       bool threads, int *now, struct procctl_held *h)
{
	int r, err;

	if (who->id <= 0)
		return EINVAL;
	r = procctl_hold(ops, who, h);
	if (r)
		return -r;
	err = threads ? procctl_renice_one(ops, who->id, delta, now)
		      : procctl_renice_process(ops, who->id, delta, now);
	if (h->fd >= 0 && ops->pidfd_exited && ops->pidfd_exited(ops->ctx, h->fd) == 1)
		err = ESRCH; /* exited while it was reniced: its pid may be another's now */
	else if (h->fd < 0 && !err && procctl_same(ops, who, &h->reused))
		err = ESRCH;
	procctl_release(ops, h);
	return err;
}

int procctl_renice(const struct sysops *ops, const struct model_ident *who, size_t n, int delta,
		   bool threads, char *msg, size_t size)
{
	struct errmsg_acted a = { .n = n };
	int now = 0, ids[1] = { n ? who[0].id : 0 };

	ops = sysops_or_real(ops);
	for (size_t i = 0; i < n; i++) {
		struct procctl_held h = { .fd = -1 };
		int err = procctl_renice_held(ops, &who[i], delta, threads, &now, &h);

		procctl_note(&a, who[i].id, err, &h);
	}
	errmsg_reniced(msg, size, delta, threads, ids, now, &a);
	return -a.err;
}
