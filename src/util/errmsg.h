/* errno into text for the user: perf_event_open failures, the mode line, signals, nice values. */
#ifndef PMCTOP_ERRMSG_H
#define PMCTOP_ERRMSG_H

#include <stdbool.h>
#include <stddef.h>

/* Why there is no PMU, where the machine says so of itself. */
struct errmsg_virt {
	bool vm;	       /* the CPU's hypervisor flag is set */
	char vendor[64];       /* the machine's vendor (DMI) or hypervisor type; "" unknown */
	char kernel_said[160]; /* the kernel's boot line about its PMU; "" when not readable */
};

/* An event that failed to open: err (-errno, 0 none), its name and perf_event_paranoid then. */
struct errmsg_event {
	int err;
	char name[256];
	int paranoid; /* below -1 when unknown */
};

/* How the counts are taken: the facts behind a source's mode line. */
struct errmsg_mode {
	bool hw;		 /* hardware events are counted */
	bool hw_asked;		 /* hardware events were asked for */
	bool kernel;		 /* kernel-mode work is counted too */
	char pmu[64];		 /* the hardware PMU's name, "" when unknown */
	int counters;		 /* hardware counters a group can have, 0 unknown */
	int counters_free;	 /* of them, free of other users (the NMI watchdog) */
	int watchdog;		 /* kernel.nmi_watchdog, -1 unknown */
	int cpu_hw;		 /* counters each CPU keeps for the core pane */
	int task_hw;		 /* hardware events counted per process */
	bool thread_sets;	 /* with thread rows: a thread's set runs beside its process's */
	bool bpf;		 /* processes counted per CPU by BPF at context switches */
	bool per_task;		 /* by per-task perf events (said by a live source only) */
	bool proc;		 /* task counts read from /proc: no per-task events */
	struct errmsg_event why; /* the first hardware event that failed, err 0 if none */
};

/*
 * What sampling pid can say about NUMA nodes: err is 0 or the -errno of
 * finding nodes (-ENOENT, -ENOSYS: a kernel without NUMA) or of asking
 * where pages are (-EPERM...); nodes is how many are online, node the
 * lowest. Returns buf.
 */
const char *errmsg_numa(char *buf, size_t size, int pid, int err, int nodes, int node);
/* The one-line mode of a live source ("software events, user mode only"). Returns buf. */
const char *errmsg_mode(char *buf, size_t size, const struct errmsg_mode *m);

/*
 * Explain err (negative or positive errno) met while counting subject (an
 * event name or "pid 123"). paranoid is the perf_event_paranoid value, or
 * a value below -1 when unknown. Writes into buf and returns it.
 */
const char *errmsg_perf(char *buf, size_t size, int err, const char *subject, int paranoid);
/*
 * The columns (titles, space-separated) that cannot be counted for err:
 * "not supported by this PMU: CACHE% L1D%". Returns buf.
 */
const char *errmsg_columns(char *buf, size_t size, int err, const char *titles);
/* Short reason for a count that is missing, for headers: "not supported", ... */
const char *errmsg_short(int err);
/* Symbolic errno name ("EACCES"), or NULL when not one pmctop records. */
const char *errmsg_errno_name(int err);
/* Inverse of errmsg_errno_name: the positive errno, or 0 when unknown. */
int errmsg_errno_value(const char *name);
/* The advice for permission errors, naming the paranoid level. */
const char *errmsg_permission_advice(char *buf, size_t size, int paranoid);

/*
 * Signals and nice values sent from the screen. What happened to n processes (or threads):
 * done of them took it; err is the positive errno of the first that did not (0: none) and
 * err_id that process or thread.
 */
struct errmsg_acted {
	size_t n, done;
	int err, err_id;
	bool reused;   /* err is ESRCH: err_id exited and names another process now, left alone */
	bool no_pidfd; /* acted without pidfds: the identity checked just before, not pinned */
};
/* A signal's name for the status line: "SIGTERM" from menu_name "TERM", else "signal 34". */
const char *errmsg_signal_name(char *buf, size_t size, int sig, const char *menu_name);
/* The signal sig, outside 1..max, that cannot be sent. Returns buf. */
const char *errmsg_no_signal(char *buf, size_t size, int sig, int max);
/* An -e event that does not encode: err -ENOENT unknown, else invalid; spec: written PMU/TERMS/;
 * sug: up to nsug names it may have meant. Several lines, the last ending in a newline. */
const char *errmsg_bad_event(char *buf, size_t size, const char *name, int err, bool spec,
			     const char (*sug)[128], size_t nsug);
/* The status line after sending name (errmsg_signal_name) to pids (n of them). Returns buf. */
const char *errmsg_signalled(char *buf, size_t size, const char *name, const int *pids,
			     const struct errmsg_acted *a);
/*
 * The status line after changing the nice value of ids by delta (threads: thread ids, else
 * processes); now is the new value of the one id when there is one. Returns buf.
 */
const char *errmsg_reniced(char *buf, size_t size, int delta, bool threads, const int *ids, int now,
			   const struct errmsg_acted *a);

#endif
