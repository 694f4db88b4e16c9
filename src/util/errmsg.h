/* The one place that turns an errno from collection into text for the user. */
#ifndef PMCTOP_ERRMSG_H
#define PMCTOP_ERRMSG_H

#include <stdbool.h>
#include <stddef.h>

/* What collection was doing when it met a fact worth telling the user. */
enum errmsg_what {
	ERRMSG_EVENT = 0,   /* opening the event NAME */
	ERRMSG_NO_EVENT,    /* no event at all opened; err and NAME of the first */
	ERRMSG_ROOT,	    /* opening the /proc root NAME */
	ERRMSG_TASKS,	    /* counting processes (tasks: who was refused, how many left out) */
	ERRMSG_CPUS,	    /* opening per-core counters (cpu: the first failed) */
	ERRMSG_CPU_OFFLINE, /* cpu.cpu went offline */
	ERRMSG_CPU_ONLINE,  /* cpu.cpu came online: counted again */
	ERRMSG_CPU_BACK,    /* cpu.cpu went offline and came back between ticks */
	ERRMSG_NO_PMU,	    /* hardware events asked, none opened; err and NAME of the first */
	ERRMSG_SAMPLE_TASK, /* sampling sample.pid: no threads found */
	ERRMSG_SAMPLE_CPUS, /* sampling: no online CPU found */
	ERRMSG_SAMPLE_PEBS, /* sampling with PEBS event NAME failed with err */
	ERRMSG_SAMPLE_IBS,  /* sampling with IBS failed with err (ENOENT: no ibs_op PMU) */
	ERRMSG_SAMPLE,	    /* sampling sample.pid with the event NAME failed with err */
	ERRMSG_STARVED, /* the group NAME never ran in some ticks of its tasks: split (starved) */
	ERRMSG_USER_SWITCHES,	  /* user mode only: switches from /proc, no migrations */
	ERRMSG_NO_INHERIT_THREAD, /* the kernel refused attr.inherit_thread (err): dropped */
	ERRMSG_SAMPLE_FDS,	  /* sampling needs sample_fds.fds, more than the budget leaves */
	ERRMSG_CGROUP_MOUNT, /* no cgroup v2 hierarchy (err ENOENT, NAME mountinfo) or unopenable */
	ERRMSG_CGROUPS,	     /* counting the cgroup NAME failed with err (cgroups) */
	ERRMSG_CGROUP_MISSING, /* the cgroup NAME given with --cgroup does not exist (yet) */
	ERRMSG_CGROUP_COST,    /* what counting cgroups costs (cgroup_cost) */
	ERRMSG_ONE_PMU,	       /* event NAME counts on one core PMU only (one_pmu) */
	ERRMSG_KTHREADS,       /* kernel threads listed, not counted: no kernel mode (EPERM) */
	/* process NAME had threads not counted (partial; err -EMFILE: no descriptors for the
	 * rest; -EINPROGRESS: threads started while its attach went on over several ticks) */
	ERRMSG_PARTIAL,
	/* hardware events for the busiest processes only (hw_top); err EMFILE: by the budget */
	ERRMSG_HW_TOP,
	/*
	 * BPF counting is not used: way.step (enum errmsg_bpf_step) failed with
	 * err, on the event NAME and way.cpu where the step has them (the
	 * verifier's last words in NAME for a refused load)
	 */
	ERRMSG_BPF,
	/*
	 * --task-counts: counting tasks from /proc is not done, way.step (enum
	 * errmsg_proc_step), on the event NAME where the step has one
	 */
	ERRMSG_PROC_COUNTS,
};

/* Why tasks are not counted from /proc, for ERRMSG_PROC_COUNTS's way.step. */
enum errmsg_proc_step {
	ERRMSG_PROC_EVENT = 0, /* the event NAME is not one /proc keeps per task */
	ERRMSG_PROC_SCHED,     /* no /proc/PID/sched: no switches or migrations per thread */
	ERRMSG_PROC_CLOCK,     /* the CPU clock of a process cannot be read (err) */
	ERRMSG_PROC_MODES,     /* the event NAME counts some modes only (:u, :k): /proc has all */
};

/* The steps of setting up --bpf, for ERRMSG_BPF's way.step (collect/bpfcount.h names them too). */
enum errmsg_bpf_step {
	ERRMSG_BPF_NOT_BUILT = 0,
	ERRMSG_BPF_POSSIBLE,
	ERRMSG_BPF_MAP,
	ERRMSG_BPF_EVENT,
	ERRMSG_BPF_ARRAY,
	ERRMSG_BPF_LOAD,
	ERRMSG_BPF_ATTACH,
	ERRMSG_BPF_TEST_RUN,
	ERRMSG_BPF_READ,
	ERRMSG_BPF_HYBRID,   /* several core PMUs: not done */
	ERRMSG_BPF_EVENTS,   /* more events (way.events) than it takes */
	ERRMSG_BPF_UNUSED,   /* once thread rows (now counted by BPF too) */
	ERRMSG_BPF_NO_PROCS, /* no processes are counted (--cgroups): nothing for it (a notice) */
	ERRMSG_BPF_KERNEL,   /* the kernel lacks a map type, program type or helper (name) */
	ERRMSG_BPF_PERM,     /* auto: no CAP_BPF with CAP_PERFMON (nor CAP_SYS_ADMIN) */
};

/* How a live source counts processes: the mode line's and the facts' way. */
enum errmsg_counts {
	ERRMSG_COUNTS_PERF = 0, /* per-task perf events */
	ERRMSG_COUNTS_BPF,	/* sums of a BPF program at context switches */
	ERRMSG_COUNTS_PROC,	/* the kernel's own counts in /proc */
};

/* Why there is no PMU, where the machine says: facts for ERRMSG_NO_PMU. */
struct errmsg_virt {
	bool vm;	       /* the CPU's hypervisor flag is set */
	char vendor[64];       /* the machine's vendor (DMI) or hypervisor type; "" unknown */
	char kernel_said[160]; /* the kernel's boot line about its PMU; "" when not readable */
};

/* What each kind of fact says beside its errno and name: one payload per kind or family. */

/* ERRMSG_TASKS */
struct errmsg_tasks {
	long long pid;	    /* EACCES: the first process refused */
	long long owner;    /* EACCES: the uid owning pid, -1 unknown */
	long long uid;	    /* EACCES: pmctop's real uid, beside owner */
	long long others;   /* EACCES: how many refused belong to other users */
	long long left_out; /* EMFILE: how many are not counted */
};

/* ERRMSG_CPUS, ERRMSG_CPU_OFFLINE, ERRMSG_CPU_ONLINE, ERRMSG_CPU_BACK */
struct errmsg_cpu {
	long long cpu; /* the CPU that went off or on line (first failed: ERRMSG_CPUS) */
};

/* ERRMSG_SAMPLE, ERRMSG_SAMPLE_TASK */
struct errmsg_sample {
	long long pid;	 /* the process sampled */
	long long owner; /* ERRMSG_SAMPLE: the uid owning pid, -1 unknown */
	long long uid;	 /* ERRMSG_SAMPLE: pmctop's real uid, beside owner */
};

/* ERRMSG_SAMPLE_FDS */
struct errmsg_sample_fds {
	long long fds; /* the descriptors sampling needs */
};

/* ERRMSG_CGROUPS */
struct errmsg_cgroups {
	long long left_out; /* EMFILE: how many cgroups are not counted */
};

/* ERRMSG_CGROUP_COST */
struct errmsg_cgroup_cost {
	long long cgroups; /* cgroups counted */
	long long fds;	   /* descriptors they take (CPUs x events x cgroups) */
};

/* ERRMSG_STARVED */
struct errmsg_starved {
	long long ticks; /* ticks of its tasks in which the group never ran */
	bool unpacked;	 /* split into the groups it was packed from, not in two */
};

/* ERRMSG_ONE_PMU */
struct errmsg_one_pmu {
	char pmu[64];	  /* the core PMU it counts on */
	bool no_extended; /* the kernel refused the extended type (once per core PMU) */
};

/* ERRMSG_PARTIAL */
struct errmsg_partial {
	long long pid;	   /* the process */
	long long counted; /* its threads counted */
	long long total;   /* its threads */
};

/* ERRMSG_HW_TOP */
struct errmsg_hw_top {
	long long busiest; /* processes given hardware events (--hw-top); 0: as many as fit */
};

/* ERRMSG_BPF, ERRMSG_PROC_COUNTS: a way of counting processes that is not used */
struct errmsg_way {
	int step;   /* ERRMSG_BPF: errmsg_bpf_step; ERRMSG_PROC_COUNTS: errmsg_proc_step */
	bool asked; /* asked for (--bpf, --task-counts=proc), not chosen by auto */
	enum errmsg_counts instead; /* what counts processes instead */
	long long cpu;		    /* ERRMSG_BPF_EVENT: the CPU its event failed on */
	long long events;	    /* ERRMSG_BPF_EVENTS: how many events were asked */
};

/*
 * A fact collection reports: what it tried, on what, the errno and what its
 * kind says beside them (the member of the union named after it). It holds
 * no text of its own; errmsg_fact() writes the sentence.
 */
struct errmsg_fact {
	enum errmsg_what what;
	int err;	/* -errno (a positive errno is taken too); 0: no failure */
	char name[256]; /* the event, PMU or path; "" when none */
	int paranoid;	/* perf_event_paranoid, below -1 when unknown */
	union {
		struct errmsg_tasks tasks;
		struct errmsg_cpu cpu;
		struct errmsg_sample sample;
		struct errmsg_sample_fds sample_fds;
		struct errmsg_cgroups cgroups;
		struct errmsg_cgroup_cost cgroup_cost;
		struct errmsg_starved starved;
		struct errmsg_one_pmu one_pmu;
		struct errmsg_partial partial;
		struct errmsg_hw_top hw_top;
		struct errmsg_way way;
		struct errmsg_virt virt; /* ERRMSG_NO_PMU: what the machine says of itself */
	};
};

#define ERRMSG_MAX_NOTES 2

/* What was tried and given up before something worked (sampling: PEBS, IBS). */
struct errmsg_notes {
	size_t n;
	struct errmsg_fact note[ERRMSG_MAX_NOTES];
};

/* How the counts are taken: the facts behind a source's mode line. */
struct errmsg_mode {
	bool hw;		/* hardware events are counted */
	bool hw_asked;		/* hardware events were asked for */
	bool kernel;		/* kernel-mode work is counted too */
	char pmu[64];		/* the hardware PMU's name, "" when unknown */
	int counters;		/* hardware counters a group can have, 0 unknown */
	int counters_free;	/* of them, free of other users (the NMI watchdog) */
	int watchdog;		/* kernel.nmi_watchdog, -1 unknown */
	int cpu_hw;		/* counters each CPU keeps for the core pane */
	int task_hw;		/* hardware events counted per process */
	bool thread_sets;	/* with thread rows: a thread's set runs beside its process's */
	bool bpf;		/* processes counted per CPU by BPF at context switches */
	bool per_task;		/* by per-task perf events (said by a live source only) */
	bool proc;		/* task counts read from /proc: no per-task events */
	struct errmsg_fact why; /* the first hardware event that failed, err 0 if none */
};

/* Fill f, its payload zero (owners unknown); name may be NULL. Returns f. */
struct errmsg_fact *errmsg_fact_set(struct errmsg_fact *f, enum errmsg_what what, int err,
				    const char *name, int paranoid);
/* The sentence for f (lowercase, no full stop) in buf; returns buf. */
const char *errmsg_fact(char *buf, size_t size, const struct errmsg_fact *f);
/* The notes as "WHAT: WHY (errno text)", separated by "; "; "" for none. Returns buf. */
const char *errmsg_notes(char *buf, size_t size, const struct errmsg_notes *notes);
/* Add a note; the oldest are kept when full. */
void errmsg_notes_add(struct errmsg_notes *notes, const struct errmsg_fact *f);
/*
 * Why sampling failed: the reason the last source (f, ERRMSG_SAMPLE) gave,
 * in plain words with the way out, then what was tried before it (the
 * notes); any other fact alone. Returns buf.
 */
const char *errmsg_sample_error(char *buf, size_t size, const struct errmsg_fact *f,
				const struct errmsg_notes *notes);
/*
 * The notice that sampling started: pid, the source kind's name and what
 * its samples mean, then the notes of what was tried first. Returns buf.
 */
const char *errmsg_sampling(char *buf, size_t size, int pid, const char *kind, const char *meaning,
			    const struct errmsg_notes *notes);
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
