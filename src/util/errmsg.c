/* errno -> user text: perf_event_open failures, the mode line, signals and nice values. */
#include "config.h"
#include "util/errmsg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	int err;
	const char *name;
	const char *brief;
} ERRMSG_TABLE[] = {
	{ ENOENT, "ENOENT", "not supported" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "not supported" },
	{ EACCES, "EACCES", "permission denied" },
	{ EPERM, "EPERM", "not permitted" },
	{ EINVAL, "EINVAL", "invalid attributes" },
	{ EMFILE, "EMFILE", "out of file descriptors" },
	{ ENFILE, "ENFILE", "out of file descriptors" },
	{ ESRCH, "ESRCH", "task gone" },
	{ ENODEV, "ENODEV", "device offline" },
	{ EBUSY, "EBUSY", "PMU busy" },
	{ ENOSPC, "ENOSPC", "buffer too small" },
	{ ECHILD, "ECHILD", "inherited group changed" },
	{ ENODATA, "ENODATA", "group in error state" },
	{ ENOSYS, "ENOSYS", "no perf_event_open" },
	{ E2BIG, "E2BIG", "attribute size refused" },
	{ EBADF, "EBADF", "not open" },
	{ EAGAIN, "EAGAIN", "attaching" },
	{ EINPROGRESS, "EINPROGRESS", "not attached yet" },
	{ EDQUOT, "EDQUOT", "hardware for the busiest only" },
	/* LIVE_BPF_NO_ROOM: no row error is EOVERFLOW but that one */
	{ EOVERFLOW, "EOVERFLOW", "too many processes for thread rows" },
};

static int errmsg_abs(int err)
{
	return err < 0 ? -err : err;
}

const char *errmsg_errno_name(int err)
{
	err = errmsg_abs(err);
	for (size_t i = 0; i < sizeof(ERRMSG_TABLE) / sizeof(ERRMSG_TABLE[0]); i++)
		if (ERRMSG_TABLE[i].err == err)
			return ERRMSG_TABLE[i].name;
	return NULL;
}

int errmsg_errno_value(const char *name)
{
	for (size_t i = 0; i < sizeof(ERRMSG_TABLE) / sizeof(ERRMSG_TABLE[0]); i++)
		if (!strcmp(ERRMSG_TABLE[i].name, name))
			return ERRMSG_TABLE[i].err;
	return 0;
}

const char *errmsg_short(int err)
{
	err = errmsg_abs(err);
	for (size_t i = 0; i < sizeof(ERRMSG_TABLE) / sizeof(ERRMSG_TABLE[0]); i++)
		if (ERRMSG_TABLE[i].err == err)
			return ERRMSG_TABLE[i].brief;
	return "not counted";
}

const char *errmsg_columns(char *buf, size_t size, int err, const char *titles)
{
	err = errmsg_abs(err);
	if (err == ENOENT || err == EOPNOTSUPP)
		snprintf(buf, size, "not supported by this PMU: %s", titles);
	else
		snprintf(buf, size, "not counted (%s): %s", errmsg_short(err), titles);
	return buf;
}

const char *errmsg_permission_advice(char *buf, size_t size, int paranoid)
{
	char level[32];

	if (paranoid >= -1)
		snprintf(level, sizeof(level), "%d", paranoid);
	else
		snprintf(level, sizeof(level), "unknown");
	snprintf(buf, size,
		 "kernel.perf_event_paranoid is %s; to count more: run pmctop as root, "
		 "or lower the limit with 'sysctl kernel.perf_event_paranoid=1' "
		 "(0 for per-core counts), or grant the capability with "
		 "'setcap cap_perfmon+ep pmctop'",
		 level);
	return buf;
}

const char *errmsg_perf(char *buf, size_t size, int err, const char *subject, int paranoid)
{
	char adv[320];

	err = errmsg_abs(err);
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		snprintf(buf, size, "'%s': not supported by this PMU", subject);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, size, "'%s': permission denied; %s", subject,
			 errmsg_permission_advice(adv, sizeof(adv), paranoid));
		break;
	case EINVAL:
		snprintf(buf, size, "'%s': the kernel refused the event attributes", subject);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, size,
			 "'%s': out of file descriptors; raise the limit with 'ulimit -n' "
			 "or watch fewer processes with -p or -u",
			 subject);
		break;
	case ESRCH:
		snprintf(buf, size, "'%s': no such process (it exited)", subject);
		break;
	case ENODEV:
		snprintf(buf, size, "'%s': the CPU is offline", subject);
		break;
	case EBUSY:
		snprintf(buf, size, "'%s': the PMU is held exclusively by another user", subject);
		break;
	case ENOSYS:
		snprintf(buf, size, "'%s': this kernel or sandbox has no perf_event_open", subject);
		break;
	case ENODATA:
		snprintf(buf, size, "'%s': the counter group went into error state", subject);
		break;
	default:
		snprintf(buf, size, "'%s': %s", subject, strerror(err));
		break;
	}
	return buf;
}

/* The counter budget of a mode: "; 7 counters: 2 per core, 5 for processes; ..." or "". */
static void errmsg_budget(char *buf, size_t size, const struct errmsg_mode *m)
{
	char taken[160] = "", share[96] = "";
	int n = m->counters_free, left = m->counters_free - m->cpu_hw;
	int task = m->thread_sets ? 2 * m->task_hw : m->task_hw;

	buf[0] = '\0';
	if (m->counters <= 0)
		return;
	/*
	 * What runs is what counts. Validation can take a group larger than that (arm_pmu
	 * takes 8 cycles events on 7 counters, with the watchdog on or off), so a shortfall
	 * is only a hint that the NMI watchdog holds a counter, never proof.
	 */
	if (m->counters_free < m->counters && m->watchdog > 0)
		snprintf(taken, sizeof(taken),
			 " (the NMI watchdog is on and may hold one: "
			 "'sysctl kernel.nmi_watchdog=0' frees it)");
	if (task > left)
		snprintf(share, sizeof(share), "; %d events%s time-share them: * marks estimates",
			 task, m->thread_sets ? " (a thread's and its process's)" : "");
	else if (m->thread_sets)
		snprintf(share, sizeof(share), ", a thread's %d beside its process's %d",
			 m->task_hw, m->task_hw);
	if (m->cpu_hw)
		snprintf(buf, size, "; %d counters%s: %d per core, %d for processes%s", n, taken,
			 m->cpu_hw, left, share);
	else
		snprintf(buf, size, "; %d counters%s: %d for processes%s", n, taken, n, share);
}

const char *errmsg_mode(char *buf, size_t size, const struct errmsg_mode *m)
{
	/* the way processes are counted, last: per-task events are said only by a live source */
	const char *way = m->bpf	? ", processes by BPF at context switches"
			  : m->per_task ? ", per-task events"
					: "";
	const char *user = m->kernel ? "" : ", user mode only";
	char why[400] = "", all[600];

	if (m->proc) {
		/* the per-core and cgroup counts keep user mode; /proc counts include the kernel's */
		snprintf(all, sizeof(all), "%s, task counts from /proc (no per-task events)",
			 m->hw	       ? "hardware events"
			 : m->hw_asked ? "no hardware PMU: software events only"
				       : "software events");
		snprintf(buf, size, "%s%s", all, m->kernel ? "" : ", cores in user mode only");
		return buf;
	}
	if (m->hw) {
		errmsg_budget(why, sizeof(why), m);
		snprintf(buf, size, "hardware events (%s%s)%s%s", m->pmu[0] ? m->pmu : "PMU", why,
			 user, way);
	} else if (m->hw_asked) {
		if (m->why.err)
			errmsg_perf(why, sizeof(why), m->why.err, m->why.name, m->why.paranoid);
		snprintf(buf, size, "no hardware PMU: software events only (%s)%s%s", why, user,
			 way);
	} else {
		snprintf(buf, size, "software events%s%s", user, way);
	}
	return buf;
}

const char *errmsg_numa(char *buf, size_t size, int pid, int err, int nodes, int node)
{
	const char *en = errmsg_errno_name(err);

	if (err == -ENOENT || err == -ENOSYS || (!err && nodes <= 0))
		snprintf(buf, size,
			 "numa: this kernel shows no NUMA nodes: the pages of pid %d have no node",
			 pid);
	else if (err == -EPERM || err == -EACCES)
		snprintf(buf, size,
			 "numa: where the pages of pid %d live cannot be asked (move_pages: %s): "
			 "run pmctop as root or with CAP_SYS_NICE",
			 pid, en ? en : "EPERM");
	else if (err)
		snprintf(buf, size, "numa: where the pages of pid %d live cannot be asked (%s)",
			 pid, en ? en : strerror(-err));
	else if (nodes == 1)
		snprintf(buf, size,
			 "numa: one node (node %d): each sampled page of pid %d is asked where it "
			 "lives, and every access is local",
			 node, pid);
	else
		snprintf(buf, size,
			 "numa: %d nodes: NODE is where each page of pid %d lives, REMOTE%% the "
			 "share of its samples taken on a CPU of another node",
			 nodes, pid);
	return buf;
}

/* Why an operation on a process failed, in words that say what to do. */
static const char *errmsg_acted_why(int err)
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

const char *errmsg_signal_name(char *buf, size_t size, int sig, const char *menu_name)
{
	if (menu_name)
		snprintf(buf, size, "SIG%s", menu_name);
	else
		snprintf(buf, size, "signal %d", sig);
	return buf;
}

const char *errmsg_no_signal(char *buf, size_t size, int sig, int max)
{
	snprintf(buf, size, "no signal %d: give a number from 1 to %d", sig, max);
	return buf;
}

const char *errmsg_bad_event(char *buf, size_t size, const char *name, int err, bool spec,
			     const char (*sug)[128], size_t nsug)
{
	const char *kind = err == -ENOENT ? "unknown" : "invalid";
	size_t len;

	if (spec) {
		snprintf(buf, size,
			 "pmctop: %s event '%s': a PMU/TERMS/ event names a PMU of "
			 "/sys/bus/event_source/devices and terms of its format/ or "
			 "events/ files (cpu/event=0xc0,umask=0x0/, msr/tsc/)\n",
			 kind, name);
		return buf;
	}
	if (err == -EACCES) {
		/* only a tracepoint's id is read from a file a user may be denied */
		snprintf(buf, size,
			 "pmctop: cannot read the id of tracepoint '%s': tracefs "
			 "(/sys/kernel/tracing) is readable by root only\n",
			 name);
		return buf;
	}
	snprintf(buf, size, "pmctop: %s event '%s'%s", kind, name,
		 err == -EINVAL ? " (check its modifiers)" : "");
	for (size_t s = 0; s < nsug; s++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s'%s'", s ? ", " : "; did you mean ", sug[s]);
	}
	len = strlen(buf);
	snprintf(buf + len, size - len, "\nList the events with 'pmctop --list-events'.\n");
	return buf;
}

/* Why a->err_id was not acted on: a pid that now names a newcomer says so. Returns buf. */
static const char *errmsg_acted_reason(char *buf, size_t size, const struct errmsg_acted *a)
{
	if (a->err == ESRCH && a->reused)
		snprintf(buf, size,
			 "process %d exited; its pid names another process now, left alone",
			 a->err_id);
	else
		snprintf(buf, size, "%s", errmsg_acted_why(a->err));
	return buf;
}

/* Without pidfds the identity was checked just before acting: the line says so. */
static void errmsg_acted_unpinned(char *buf, size_t size, const struct errmsg_acted *a)
{
	size_t len = strlen(buf);

	if (a->no_pidfd && a->done && len < size)
		snprintf(buf + len, size - len, " (no pidfds: checked just before)");
}

const char *errmsg_signalled(char *buf, size_t size, const char *name, const int *pids,
			     const struct errmsg_acted *a)
{
	char why[128];

	if (!a->err && a->n == 1)
		snprintf(buf, size, "sent %s to pid %d", name, pids[0]);
	else if (!a->err)
		snprintf(buf, size, "sent %s to %zu processes", name, a->n);
	else if (a->n == 1)
		snprintf(buf, size, "cannot send %s to pid %d: %s", name, a->err_id,
			 errmsg_acted_reason(why, sizeof(why), a));
	else
		snprintf(buf, size, "sent %s to %zu of %zu processes; pid %d: %s", name, a->done,
			 a->n, a->err_id, errmsg_acted_reason(why, sizeof(why), a));
	errmsg_acted_unpinned(buf, size, a);
	return buf;
}

const char *errmsg_reniced(char *buf, size_t size, int delta, bool threads, const int *ids, int now,
			   const struct errmsg_acted *a)
{
	const char *what = threads ? "thread" : "pid";

	char why[128];

	if (!a->err && a->n == 1)
		snprintf(buf, size, "%s %d: nice %d", what, ids[0], now);
	else if (!a->err)
		snprintf(buf, size, "nice value %s by one for %zu processes",
			 delta < 0 ? "lowered" : "raised", a->n);
	else if (a->n == 1)
		snprintf(buf, size, "cannot %s the nice value of %s %d: %s",
			 delta < 0 ? "lower" : "raise", what, a->err_id,
			 errmsg_acted_reason(why, sizeof(why), a));
	else
		snprintf(buf, size, "nice value changed for %zu of %zu processes; %d: %s", a->done,
			 a->n, a->err_id, errmsg_acted_reason(why, sizeof(why), a));
	errmsg_acted_unpinned(buf, size, a);
	return buf;
}
