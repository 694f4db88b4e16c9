/* The facts live collection and sampling tell the user: typed values, and their sentences. */
#ifndef PMCTOP_FACT_H
#define PMCTOP_FACT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errmsg.h"

/* What collection was doing when it met a fact worth telling the user. */
enum fact_what {
	FACT_EVENT = 0,	  /* opening the event NAME */
	FACT_NO_EVENT,	  /* no event at all opened; err and NAME of the first */
	FACT_ROOT,	  /* opening the /proc root NAME */
	FACT_TASKS,	  /* counting processes (tasks: who was refused, how many left out) */
	FACT_CPUS,	  /* opening per-core counters (cpu: the first failed) */
	FACT_CPU_OFFLINE, /* cpu.cpu went offline */
	FACT_CPU_ONLINE,  /* cpu.cpu came online: counted again */
	FACT_CPU_BACK,	  /* cpu.cpu went offline and came back between ticks */
	FACT_NO_PMU,	  /* hardware events asked, none opened; err and NAME of the first */
	FACT_SAMPLE_TASK, /* sampling sample.pid: no threads found */
	FACT_SAMPLE_CPUS, /* sampling: no online CPU found */
	FACT_SAMPLE_PEBS, /* sampling with PEBS event NAME failed with err */
	FACT_SAMPLE_IBS,  /* sampling with IBS failed with err (ENOENT: no ibs_op PMU) */
	FACT_SAMPLE,	  /* sampling sample.pid with the event NAME failed with err */
	FACT_STARVED,	  /* the group NAME never ran in some ticks of its tasks: split (starved) */
	FACT_USER_SWITCHES,	/* user mode only: switches from /proc, no migrations */
	FACT_NO_INHERIT_THREAD, /* the kernel refused attr.inherit_thread (err): dropped */
	FACT_SAMPLE_FDS,	/* sampling needs sample_fds.fds, more than the budget leaves */
	FACT_CGROUP_MOUNT,   /* no cgroup v2 hierarchy (err ENOENT, NAME mountinfo) or unopenable */
	FACT_CGROUPS,	     /* counting the cgroup NAME failed with err (cgroups) */
	FACT_CGROUP_MISSING, /* the cgroup NAME given with --cgroup does not exist (yet) */
	FACT_CGROUP_COST,    /* what counting cgroups costs (cgroup_cost) */
	FACT_ONE_PMU,	     /* event NAME counts on one core PMU only (one_pmu) */
	FACT_KTHREADS,	     /* kernel threads listed, not counted: no kernel mode (EPERM) */
	/* process NAME had threads not counted (partial; err -EMFILE: no descriptors for the
	 * rest; -EINPROGRESS: threads started while its attach went on over several ticks) */
	FACT_PARTIAL,
	/* hardware events for the busiest processes only (hw_top); err EMFILE: by the budget */
	FACT_HW_TOP,
	/*
	 * BPF counting is not used: way.step (enum fact_bpf_step) failed with
	 * err, on the event NAME and way.cpu where the step has them (the
	 * verifier's last words in NAME for a refused load)
	 */
	FACT_BPF,
	/*
	 * --task-counts: counting tasks from /proc is not done, way.step (enum
	 * fact_proc_step), on the event NAME where the step has one
	 */
	FACT_PROC_COUNTS,
};

/* Why tasks are not counted from /proc, for FACT_PROC_COUNTS's way.step. */
enum fact_proc_step {
	FACT_PROC_EVENT = 0, /* the event NAME is not one /proc keeps per task */
	FACT_PROC_SCHED,     /* no /proc/PID/sched: no switches or migrations per thread */
	FACT_PROC_CLOCK,     /* the CPU clock of a process cannot be read (err) */
	FACT_PROC_MODES,     /* the event NAME counts some modes only (:u, :k): /proc has all */
};

/* The steps of setting up --bpf, for FACT_BPF's way.step (collect/bpfcount.h names them too). */
enum fact_bpf_step {
	FACT_BPF_NOT_BUILT = 0,
	FACT_BPF_POSSIBLE,
	FACT_BPF_MAP,
	FACT_BPF_EVENT,
	FACT_BPF_ARRAY,
	FACT_BPF_LOAD,
	FACT_BPF_ATTACH,
	FACT_BPF_TEST_RUN,
	FACT_BPF_READ,
	FACT_BPF_HYBRID,   /* several core PMUs: not done */
	FACT_BPF_EVENTS,   /* more events (way.events) than it takes */
	FACT_BPF_UNUSED,   /* once thread rows (now counted by BPF too) */
	FACT_BPF_NO_PROCS, /* no processes are counted (--cgroups): nothing for it (a notice) */
	FACT_BPF_KERNEL,   /* the kernel lacks a map type, program type or helper (name) */
	FACT_BPF_PERM,	   /* auto: no CAP_BPF with CAP_PERFMON (nor CAP_SYS_ADMIN) */
};

/* How a live source counts processes: the mode line's and the facts' way. */
enum fact_counts {
	FACT_COUNTS_PERF = 0, /* per-task perf events */
	FACT_COUNTS_BPF,      /* sums of a BPF program at context switches */
	FACT_COUNTS_PROC,     /* the kernel's own counts in /proc */
};

/* What each kind of fact says beside its errno and name: one payload per kind or family. */

/* FACT_TASKS */
struct fact_tasks {
	long long pid;	    /* EACCES: the first process refused */
	long long owner;    /* EACCES: the uid owning pid, -1 unknown */
	long long uid;	    /* EACCES: pmctop's real uid, beside owner */
	long long others;   /* EACCES: how many refused belong to other users */
	long long left_out; /* EMFILE: how many are not counted */
};

/* FACT_CPUS, FACT_CPU_OFFLINE, FACT_CPU_ONLINE, FACT_CPU_BACK */
struct fact_cpu {
	long long cpu; /* the CPU that went off or on line (first failed: FACT_CPUS) */
};

/* FACT_SAMPLE, FACT_SAMPLE_TASK */
struct fact_sample {
	long long pid;	 /* the process sampled */
	long long owner; /* FACT_SAMPLE: the uid owning pid, -1 unknown */
	long long uid;	 /* FACT_SAMPLE: pmctop's real uid, beside owner */
};

/* FACT_SAMPLE_FDS */
struct fact_sample_fds {
	long long fds; /* the descriptors sampling needs */
};

/* FACT_CGROUPS */
struct fact_cgroups {
	long long left_out; /* EMFILE: how many cgroups are not counted */
};

/* FACT_CGROUP_COST */
struct fact_cgroup_cost {
	long long cgroups; /* cgroups counted */
	long long fds;	   /* descriptors they take (CPUs x events x cgroups) */
};

/* FACT_STARVED */
struct fact_starved {
	long long ticks; /* ticks of its tasks in which the group never ran */
	bool unpacked;	 /* split into the groups it was packed from, not in two */
};

/* FACT_ONE_PMU */
struct fact_one_pmu {
	char pmu[64];	  /* the core PMU it counts on */
	bool no_extended; /* the kernel refused the extended type (once per core PMU) */
};

/* FACT_PARTIAL */
struct fact_partial {
	long long pid;	   /* the process */
	long long counted; /* its threads counted */
	long long total;   /* its threads */
};

/* FACT_HW_TOP */
struct fact_hw_top {
	long long busiest; /* processes given hardware events (--hw-top); 0: as many as fit */
};

/* FACT_BPF, FACT_PROC_COUNTS: a way of counting processes that is not used */
struct fact_way {
	int step;		  /* FACT_BPF: fact_bpf_step; FACT_PROC_COUNTS: fact_proc_step */
	bool asked;		  /* asked for (--bpf, --task-counts=proc), not chosen by auto */
	enum fact_counts instead; /* what counts processes instead */
	long long cpu;		  /* FACT_BPF_EVENT: the CPU its event failed on */
	long long events;	  /* FACT_BPF_EVENTS: how many events were asked */
};

/*
 * A fact collection reports: what it tried, on what, the errno and what its
 * kind says beside them (the member of the union named after it). It holds
 * no text of its own; fact_text() writes the sentence.
 */
struct fact {
	enum fact_what what;
	int err;	/* -errno (a positive errno is taken too); 0: no failure */
	char name[256]; /* the event, PMU or path; "" when none */
	int paranoid;	/* perf_event_paranoid, below -1 when unknown */
	union {
		struct fact_tasks tasks;
		struct fact_cpu cpu;
		struct fact_sample sample;
		struct fact_sample_fds sample_fds;
		struct fact_cgroups cgroups;
		struct fact_cgroup_cost cgroup_cost;
		struct fact_starved starved;
		struct fact_one_pmu one_pmu;
		struct fact_partial partial;
		struct fact_hw_top hw_top;
		struct fact_way way;
		struct errmsg_virt virt; /* FACT_NO_PMU: what the machine says of itself */
	};
};

#define FACT_MAX_NOTES 2

/* What was tried and given up before something worked (sampling: PEBS, IBS). */
struct fact_notes {
	size_t n;
	struct fact note[FACT_MAX_NOTES];
};

/* Fill f, its payload zero (owners unknown); name may be NULL. Returns f. */
struct fact *fact_set(struct fact *f, enum fact_what what, int err, const char *name, int paranoid);
/* The sentence for f (lowercase, no full stop) in buf; returns buf. */
const char *fact_text(char *buf, size_t size, const struct fact *f);
/* The notes as "WHAT: WHY (errno text)", separated by "; "; "" for none. Returns buf. */
const char *fact_notes(char *buf, size_t size, const struct fact_notes *notes);
/* Add a note; the oldest are kept when full. */
void fact_notes_add(struct fact_notes *notes, const struct fact *f);
/*
 * Why sampling failed: the reason the last source (f, FACT_SAMPLE) gave,
 * in plain words with the way out, then what was tried before it (the
 * notes); any other fact alone. Returns buf.
 */
const char *fact_sample_error(char *buf, size_t size, const struct fact *f,
			      const struct fact_notes *notes);
/*
 * The notice that sampling started: pid, the source kind's name and what
 * its samples mean, then the notes of what was tried first. Returns buf.
 */
const char *fact_sampling(char *buf, size_t size, int pid, const char *kind, const char *meaning,
			  const struct fact_notes *notes);

#endif
