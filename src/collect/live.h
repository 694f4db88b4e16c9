/* The live source's state, shared by its files (probe, tasks, CPUs, samples, glue); private. */
#ifndef PMCTOP_LIVE_H
#define PMCTOP_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "kernel/bpfcount.h"
#include "kernel/cgroupfs.h"
#include "kernel/counters.h"
#include "collect/live_backend.h"
#include "collect/numa.h"
#include "kernel/cpumap.h"
#include "kernel/pmu.h"
#include "collect/pidkeys.h"
#include "collect/procevents.h"
#include "kernel/proc.h"
#include "collect/sampler.h"
#include "collect/source_live.h"
#include "kernel/sysops.h"
#include "util/errmsg.h"

#define LIVE_FD_RESERVE 24     /* descriptors counters leave for the output, sockets, the screen */
#define LIVE_KEPT_PROC_FILES 4 /* /proc files kept open by struct live (kloadavg ... kstat) */
/*
 * Found this tick, counters not open yet. A row never carries it: a
 * process is attached within the tick that finds it.
 */
#define LIVE_UNATTACHED (-EINPROGRESS)
/* Attach met a thread on its way out (ENODEV): try the process again next tick. */
#define LIVE_RETRY (-EAGAIN)
#define LIVE_MAX_PENDING (1u << 21) /* samples kept between two ticks */
#define LIVE_MAPS_MAX (4u << 20)
#define LIVE_MAX_AREAS 4096 /* mappings named between two ticks; beyond, found at draw time */
#define LIVE_MAX_FACTS 256  /* facts kept for source_live_facts */
#define LIVE_RESCAN_S 10.0  /* with process events, /proc is still listed this often (s) */
#define LIVE_BE_DECLINED 4  /* backends that can say why they do not count */

struct live_gdef {
	int nr;
	int ev[COUNTERS_MAX_GROUP];
	int pmu;  /* the core PMU its generic events go to; -1: as encoded */
	bool sim; /* PMCTOP_SIM_GROUPS: opened and read like the others, never summed */
};

/* Hardware columns of a process outside the hardware top (--hw-top, or the budget). */
#define LIVE_NOT_TOP (-EDQUOT)
/* The error of thread rows whose process the BPF program's table had no room to name. */
#define LIVE_BPF_NO_ROOM (-EOVERFLOW)
/* Ticks between two choices of the processes counted with hardware events. */
#define LIVE_HWTOP_TICKS 5
/*
 * New processes of one thread the hardware top leaves room for (at most a
 * 64th of the descriptors), so that they are counted at once
 */
#define LIVE_HWTOP_SLACK 4

/* Ticks a process that found no descriptors waits before its attach is tried again. */
#define LIVE_RETRY_TICKS 16
/* Ticks an idle process or thread row goes without a fresh stat read (its parent may die). */
#define LIVE_IDLE_REFRESH 16
/*
 * A process of more than LIVE_THR_WHOLE threads has LIVE_THR_READS of them
 * read in a tick by the /proc backend, for the process row's switches and
 * migrations (not for thread rows, nor with --read-all): those likely to
 * have run the most since their last read first. Its counts are then
 * estimated from the part read (live_tsum_est), and marked so.
 */
#define LIVE_THR_WHOLE 8
#define LIVE_THR_READS 2
/* Ticks a running process goes without its uid read again (setuid, setresuid). */
#define LIVE_UID_TICKS 4
/* The process's own stat is read every so many reads of its leader's (struct live_backend). */
#define LIVE_STAT_FULL 16
/* The least time a tick spends attaching counters, while some wait: 40 ms. */
#define LIVE_ATTACH_SLICE_NS 40000000ull

/* Counts the kernel keeps per thread, as a thread's /proc files give them (live_tsum). */
enum { LIVE_TS_SW, LIVE_TS_MIG, LIVE_TS_RUN, LIVE_TS_MINFLT, LIVE_TS_MAJFLT, LIVE_TS_MAX };

/* One thread's last read of its /proc files, kept by tid. */
struct live_tsum_thr {
	int tid;
	uint64_t v[LIVE_TS_MAX];  /* the last read (LIVE_TS_RUN in ns) */
	uint64_t v0[LIVE_TS_MAX]; /* at its first read; 0 for a thread started since */
	bool stat;		  /* its stat was read: faults, state, CPU time and name */
	char state;
	unsigned long long cpu, start; /* utime + stime and start, clock ticks */
	char comm[64];
	bool ran;     /* its run time moved between its last two reads (or it is new) */
	int sfd, gfd; /* 1 + its sched and schedstat files kept open (live_tsum.keep); 0: none */
	unsigned long long rtick;    /* l->tick of its last read */
	uint64_t rns;		     /* and its time (the update's), ns */
	bool rated;		     /* rate is known: it was read twice */
	double rate[LIVE_TS_MINFLT]; /* counts a ns between its last two reads */
	bool pick;		     /* read in this update (live_tsum.budget) */
};

/* A process's per-thread counts summed over its threads, live and gone (live_ctxsw.c). */
struct live_tsum {
	bool read;		       /* read once: t0 and the threads' first reads are set */
	uint64_t t0, last_ns, lost_ns; /* lost_ns: intervals in which a thread exited */
	uint64_t sum[LIVE_TS_MAX];     /* counted since the first read */
	size_t nthr;
	struct live_tsum_thr *thr; /* sorted by tid */
	size_t ngone, gonecap;
	struct live_tsum_thr *gone;    /* threads gone at the last read, state 'X' */
	bool dead_ok;		       /* dead_hi holds the bound of the last read */
	uint64_t dead_hi;	       /* the most run time its dead threads can have had then */
	bool keep;		       /* keep its threads' files open within the budget */
	bool relist;		       /* a thread vanished where none was listed: list next time */
	unsigned long long used;       /* l->tick of its last update */
	size_t nfds;		       /* thread files it keeps open */
	size_t budget;		       /* the most threads an update reads (0: all of them) */
	bool skipped, skipped_before;  /* this update, the one before left threads unread */
	unsigned long long oldest;     /* the least l->tick its threads were last read in */
	unsigned long long updates;    /* updates so far */
	uint64_t esum[LIVE_TS_MINFLT]; /* the most sum and guesses of threads not read have been */
	uint64_t unread0; /* CPU time less its threads' run time at the last update of all */
	uint64_t est_ns;  /* enabled time taken as not counted: 1 ns an estimate */
};

struct live_proc {
	int pid;
	unsigned long long start;
	int statfd;		/* /proc/PID/stat, re-read each tick without a path walk */
	bool statfd_leader;	/* statfd is its leader thread's (l->be->cpu_time times it) */
	unsigned stat_reads;	/* reads of the leader's since the process's was read */
	struct proc_stat last;	/* the last stat read, for a tick that cannot read it */
	unsigned long long shr; /* shared pages at the last statm read (shr_ok) */
	bool shr_ok;
	bool skip;    /* a kernel thread, or filtered out: kept only to know it */
	bool kthread; /* a kernel thread (listed with --kernel-threads, K) */
	void *be; /* its state in l->be, the backend counting it; owned by that backend's file */
	int err;
	unsigned uid;
	char user[33];
	char comm[64];
	char *cmdline;
	char *cgroup;		/* its cgroup v2 path; NULL when not known or not looked for */
	bool cg_due;		/* its cgroup is to be read again (it was idle when due) */
	struct snap_count *cnt; /* the counts of the last full read; owned */
	uint64_t gate;		/* what its backend's idle op compares with: its time run then */
	unsigned idle;		/* ticks since, in which it did not run */
	/* set by the idle op this tick: not run (its counts stand), its stat read all the same */
	bool clk_idle;
	unsigned uid_age; /* ticks it ran since its uid was last read */
	bool uid_stale;	  /* it ran since its uid was last read: read once more when it rests */
	unsigned long long retry; /* l->tick from which a failed attach is tried again */
};

/* A cgroup counted per CPU: one group set per online CPU, opened on its directory. */
struct live_cgroup {
	char *path;		/* below the mount: "/a/b" */
	unsigned long long ino; /* of its directory: a cgroup made again under the name is new */
	int err;		/* 0, or why it is not counted */
	size_t ncpu, ng;	/* CPUs and task group definitions it was opened with */
	int *cpus;
	struct counters_group *g; /* ncpu x ng */
	int *gerr;		  /* ncpu x ng: 0 when open */
	size_t fds;		  /* descriptors it holds */
};

struct live_cpu {
	int cpu;
	int err;
	uint64_t last_enabled;	  /* of the first group: stops growing once detached */
	struct counters_group *g; /* one per CPU group definition */
	int *gerr;
};

struct live_user {
	unsigned uid;
	char name[33];
};

struct live {
	struct source base;
	struct live_opts o;
	const struct live_backend *be; /* how processes are counted (live_backend.c) */
	/* why the backends asked before it do not count, told once it is chosen */
	struct fact be_declined[LIVE_BE_DECLINED];
	size_t nbe_declined;
	const struct sysops *ops; /* borrowed from o, or the real calls */
	int *pids_copy;
	char *proc_copy, *sysfs_copy;
	int rootfd;
	bool proc_owner;	 /* rootfd is a procfs: a process's euid is its directory's owner */
	struct procevents *pev;	 /* fork and exit events instead of listing /proc, or NULL */
	struct pidkeys *pidkeys; /* else the backend's keys of processes that ran, or NULL */
	bool pidkeys_tried;
	/*
	 * A process of a PID namespace below /proc's was seen: the program keys
	 * its switches by that namespace's pids (0 for it), so the keys miss it
	 * and /proc is listed each tick. pidns_ino: the inode of /proc's own.
	 */
	bool pidns_nested;
	unsigned long long pidns_ino;
	/*
	 * Else /proc is listed when a pid was given since its last listing:
	 * the last pid of /proc/loadavg, read at the tick's start (lastpid;
	 * -1: not read), against the one before the last listing (list_pid)
	 * and its time (list_ns; 0: none). Only where /proc is of pmctop's own
	 * PID namespace, whose pids that field gives (lastpid_ok: 1 yes, -1 no,
	 * 0 not asked yet).
	 */
	int lastpid_ok;
	bool list_again; /* the last listing was for a pid given: list once more */
	long lastpid, list_pid;
	uint64_t list_ns;
	int paranoid;
	bool kernel;
	unsigned cflags;	 /* COUNTERS_NO_INHERIT_THREAD where the kernel lacks it */
	bool no_format_lost;	 /* the kernel has no PERF_FORMAT_LOST (before 6.0) */
	struct errmsg_mode mode; /* the facts behind base.mode */
	struct fact *facts;	 /* every fact told, oldest first */
	size_t nfacts, factcap;
	struct perf_event_attr *attr;
	struct pmu_set pmus; /* the core PMUs in sysfs */
	bool hybrid;	     /* several core PMUs, each given its own groups */
	int *same;    /* per event: -1, or the built-in event of the same encoding it reuses */
	int gate_set; /* the task group read first, whose enabled time gates the rest; -1: none */
	struct perf_event_attr *pattr; /* when hybrid: per core PMU, one per event */
	int counters;		       /* a group's most hardware events (probed), 0 unknown */
	int counters_free;	       /* of them, what a pinned group of ours got */
	int watchdog;		       /* /proc/sys/kernel/nmi_watchdog, -1 unknown */
	int cpu_hw;		       /* hardware events each per-CPU set takes */
	int task_cap;		       /* most hardware events in one task group, 0: no limit */
	int pack_cap;		       /* hardware events task groups are packed up to, 0: none */
	uint64_t *tg_en, *tg_run;      /* per task group: enabled and running over all tasks */
	uint64_t *tg_en0, *tg_run0;    /* the same at the last tick */
	/* ticks in a row it was enabled and never ran (those that say nothing left out) */
	unsigned *tg_starved;
	/* this tick a process read in turn rested: no thread read in turn (live_tasks_pick) */
	bool rested;
	/*
	 * processes of few threads read at the pace too (live_tasks_turns),
	 * and how many processes ran this tick, which decides it for the next
	 */
	bool pace_few;
	size_t ran_now;
	size_t ntg;
	struct live_gdef *tg; /* groups for tasks */
	size_t ncg;
	struct live_gdef *cg; /* groups for CPUs: task-clock means nothing there */
	struct live_proc *procs;
	size_t nprocs, pcap;
	int *ids, *tids;
	size_t idcap, tidcap;
	struct live_cpu *cpus;
	size_t ncpus, cpucap;
	struct cpumap online; /* the online CPUs, read each tick */
	int online_fd;	      /* their sysfs file, kept open; -1: none */
	/* the files of /proc read each tick, kept open in a kernel's /proc */
	struct proc_kept kloadavg, kuptime, kmeminfo, kstat;
	char *kstat_buf; /* /proc/stat as last read: a line per CPU, past 64 KiB on large machines */
	size_t kstat_cap;
	struct proc_cpustat *cs;
	size_t cscap;
	struct live_user *users;
	size_t nusers, ucap;
	struct snap_count *tmp;
	bool told_perm, told_fds, told_cpu, told_kthreads;
	int ctxsw_sched; /* user-mode switches from schedstat or sched files: 1, status: 0, -1 not known */
	int tsum_gate; /* thread schedstat files hold run times: 1 yes, -1 no, 0 not known */
	bool tsum_mig; /* migrations are counted: threads' sched files, not their schedstat alone */
	size_t tsum_short;    /* thread files not kept open this tick for want of descriptors */
	bool kthreads;	      /* list kernel threads (and count them where kernel mode may be) */
	unsigned extras;      /* SOURCE_EXTRA_* read (source_extras) */
	size_t set_fds;	      /* descriptors one thread's group set takes */
	int sim_groups;	      /* PMCTOP_SIM_GROUPS: the software set opened as this many groups */
	struct live_gdef *sw; /* the software groups alone: sets outside the hardware top */
	size_t nsw, sw_fds;   /* nsw 0: no hardware event, no such sets */
	int sw_gate;
	size_t slots;	     /* groups a set's array holds: the more of ntg and nsw */
	bool hw_limit;	     /* hardware events for the busiest processes only */
	size_t hw_k;	     /* how many, while limited */
	size_t hw_nfull;     /* during a tick's attaches: processes with hardware sets */
	size_t stat_missing; /* then: processes counted without their stat file (live_keep_stat) */
	bool told_hw_top;
	size_t reserve;		  /* thread sets the processes after this one in the attach need */
	size_t reserve_procs;	  /* and the stat files they need */
	unsigned long long tick;  /* reads so far */
	uint64_t last_read_ns;	  /* when the last read began */
	uint64_t attach_until;	  /* this tick attaches until then (CLOCK_MONOTONIC ns) */
	uint64_t attach_slice;	  /* how long this tick may attach */
	struct live_gread *gread; /* the gate group's reads of one process, per thread */
	size_t greadcap;
	int gread_pid;	    /* whose reads gread holds; 0: none */
	uint64_t gread_t0;  /* when those reads began */
	uint64_t gread_t1;  /* when they ended, the full read to follow */
	size_t gread_n0;    /* task_reads then */
	size_t task_reads;  /* group reads of process sets so far */
	uint64_t read_unit; /* ns a group read took in the last read of a process */
	uint64_t *tg_keep;  /* tg_en and tg_run as they were before a read retried */
	size_t tg_keepcap;
	/*
	 * the per-task backend's scratch, within one process's read: the csum
	 * of the threads picked before their read, and what the threads not
	 * read count a ns (live_tasks_shares)
	 */
	struct snap_count *tk_old;
	size_t tk_oldcap;
	double *tk_shares;
	size_t tk_sharescap;
	size_t fds_open; /* descriptors of counters and stat files */
	/*
	 * schedstat files of threads read in turn kept open (live_thread_run),
	 * and whether none is kept any more: counters found too few
	 * descriptors, and they have them first
	 */
	size_t run_fds;
	bool run_nokeep;
	/* task directories kept for them, and whether none is (an attach found too few) */
	size_t run_dirs;
	bool run_short;
	size_t fd_budget; /* what they may take: the limit less a reserve */
	/*
	 * what the processes still to attach, or to attach again with the
	 * other layout, need (their software sets and stat files at least;
	 * a move between layouts adds what its layout takes), after a tick's
	 * attaches: files kept to save a call leave it free (live_fd_spare)
	 */
	size_t fd_spoken;
	long nids;	     /* pids found by the last good scan of /proc */
	int focus;	     /* pid whose threads get rows of their own, 0 for none */
	bool all_threads;    /* every process's threads get rows */
	struct sampler *smp; /* data-address sampling of one process */
	int smp_pid;
	struct snap_sample *pend; /* drained since the last read */
	size_t npend, pendcap;
	uint64_t dropped;	 /* samples beyond the pending cap */
	struct mem_area *pareas; /* the mappings the pending samples name (names owned) */
	size_t npareas, pacap;
	size_t last_area; /* 1 + the one named last: the next sample most likely names it too */
	uint64_t maps_hash;
	char *mapsbuf;
	uint64_t smp_last_t; /* time of the last snapshot that drained the rings */
	struct numa numa;    /* CPU nodes, loaded when sampling starts */
	int numa_err;	     /* 0, or why nodes cannot be found or asked (-errno) */
	bool numa_told;	     /* the NUMA notice of this sampling was given */
	/* cgroups (live_cgroups.c) */
	struct cgroupfs_mount *cg_mnt; /* the v2 hierarchy; NULL when cgroups are not counted */
	int cg_mntfd;		       /* its directory */
	struct live_cgroup *cgs;       /* sorted by path */
	size_t ncgs, cgscap;
	char **cg_named; /* --cgroup paths, normalised */
	bool *cg_told;	 /* per named path: its absence was told */
	size_t ncg_named;
	size_t cg_fds;	    /* descriptors the cgroups' counters take */
	uint64_t cg_proc_t; /* when the processes' cgroups were last read */
	bool cg_reread;	    /* this tick reads every process's cgroup again */
	bool told_cg_err, told_cg_fds, told_cg_cost;
	struct cgroupfs_entry *cg_walk;
	size_t cg_walkcap;
	/* BPF (live_bpf.c): process and thread counts summed by the context-switch program */
	struct bpfcount *bpf; /* NULL: counted per thread */
	int *bpf_ev;	      /* the event index of each of the program's events */
	int bpf_nev;
	int bpf_err; /* 0, or why the last read failed */
	/* the moment of the last read (the time of every process row it fills), how long it took */
	uint64_t bpf_read_ns, bpf_read_dur;
	int *bpf_prev; /* the keys of the read before the last, ascending */
	size_t nbpf_prev, bpf_prevcap;
	bool bpf_prev_ok; /* that read was had */
	int *bpf_absent;  /* pids with sums the last scan did not find, ascending */
	size_t nbpf_absent;
	int *bpf_tseen; /* tids whose rows this tick showed */
	size_t nbpf_tseen, bpf_tseencap;
	struct proc_stat *kept; /* the thread stats read from kept files (live_bpf_threads_kept) */
	size_t nkept;
	int *bpf_tabsent; /* tids with sums no row showed at the last tick, ascending */
	size_t nbpf_tabsent;
	bool told_bpf_read;
	/* task counts from /proc (live_procfs.c): no per-task events */
	int *pfs_kind;	/* per event: what /proc gives for it (enum live_pfs_kind) */
	bool pfs_sched; /* switches or migrations are counted: threads' files are read */
};

/* live_facts.c: tell the user a fact (kept in l->facts, queued as a message). */
void live_tell(struct live *l, const struct fact *f);
void live_tell_err(struct live *l, enum fact_what what, int err, const char *name);
/* Free the facts told. */
void live_facts_free(struct live *l);

/*
 * live_probe.c: encode the events, find which open and how they group, and
 * whether kernel mode is permitted; then a backend is chosen.
 */
void live_probe(struct live *l, const struct evlist *req);
/*
 * Once a backend is chosen (LIVE_BE_AT_PROBE): the facts that depend on it,
 * the task group definitions and the mode line. 0, or -errno with *why when
 * no event at all can be counted.
 */
int live_probe_finish(struct live *l, const struct evlist *req, struct fact *why);

/* The attr of member m of group definition d (for d's PMU when hybrid). */
const struct perf_event_attr *live_attr(const struct live *l, const struct live_gdef *d, int m);

/* Build the task group definitions (again, after a split) and what they take. */
void live_build_task_groups(struct live *l);

#define LIVE_STARVED_TICKS 3 /* ticks a group may go without a counter before a split */

/* Clock ticks (of /proc/PID/stat) in ns; pages in KiB. */
static inline uint64_t live_ticks_ns(unsigned long long ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? (uint64_t)ticks * (1000000000ull / (uint64_t)hz) : 0;
}

static inline uint64_t live_pages_kib(unsigned long long pages)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (uint64_t)pages * ((uint64_t)ps / 1024) : 0;
}

/*
 * live_scan.c: one tick's scan of /proc: new processes set up, known ones
 * renewed or dropped, each one's row (the counters read or kept), the
 * processes found attached busiest first within the tick's slice.
 */
void live_scan(struct live *l, struct snapshot *snap);
/*
 * live_pids.c: the tick's pids in l->ids, ascending, from the kernel's
 * process events, the backend's keys of the processes that ran (given
 * the last list less what the last scan found gone), or a listing of
 * /proc. The count, or -errno when /proc could not be listed.
 */
/* Whether -p (none: every process) asks for pid. */
static inline bool live_wanted_pid(const struct live *l, int pid)
{
	if (!l->o.npids)
		return true;
	for (size_t i = 0; i < l->o.npids; i++)
		if (l->o.pids[i] == pid)
			return true;
	return false;
}

/* Note the PID namespace of pid, found new, while the tick's pids come from the keys. */
void live_pids_note(struct live *l, int pid);
long live_pids(struct live *l);
/* List kernel threads from the next scan on, or stop listing them. */
void live_kernel_threads(struct source *s, bool on);
/* Close and free every process the scans keep. */
void live_tasks_free(struct live *l);

/*
 * live_attach.c: per-thread group sets, opened within the descriptor
 * budget, over several ticks when a process has many threads, and partial
 * when they do not all fit (the per-task backend: live_tasks.h).
 */
/* The descriptors counters may take under RLIMIT_NOFILE, less the reserve. */
size_t live_fd_budget(size_t keep);

/*
 * Whether a file kept open to save a call (a stat, schedstat or task
 * directory) may take n more descriptors: only what the processes still to
 * attach do not need, so that it never leaves one of them uncounted.
 */
static inline bool live_fd_spare(const struct live *l, size_t n)
{
	return l->fds_open + n + l->fd_spoken <= l->fd_budget;
}
/* Re-read a stat file kept open at fd; 0 or -errno (-ESRCH when its task died). */
int live_pread_stat(struct live *l, int fd, struct proc_stat *st);
/* Hardware events for the busiest processes only from now on; said once. */
void live_hw_limit(struct live *l);
/*
 * live_idle.c: keep counts c of p, read in full, for the ticks it does not run (--bpf and
 * /proc counting); none when they did not read (bad), so that the next tick
 * reads in full again.
 */
void live_keep_all(struct live *l, struct live_proc *p, const struct snap_count *c, bool bad);

/* live_threads.c: per-thread rows (-H, or the focused process). */
/*
 * A thread row of p in snap, whichever backend counts it: the thread's own
 * state, start, name and CPU time (ticks), the process's user, memory, NI,
 * P, VIRT and SHR; each count's err that of its event, else err. Never NULL.
 */
struct snap_task *live_thread_row(struct live *l, const struct live_proc *p, int tid, char state,
				  unsigned long long start, const char *comm,
				  unsigned long long cpu, int err, struct snapshot *snap);

/* live_cpus.c: per-CPU groups that follow hotplug. */
void live_open_cpus(struct live *l);
void live_read_cpus(struct live *l, struct snapshot *snap);
void live_cpus_free(struct live *l);

/*
 * live_ctxsw.c: read thread tid of pid into e->v (and its stat when stat);
 * 0 or -errno (the thread is then left out: it exited).
 */
typedef int (*live_tsum_read)(struct live *l, struct live_tsum *ts, int pid,
			      struct live_tsum_thr *o, struct live_tsum_thr *e, bool stat);
/*
 * Read every thread of pid with rd, add each one's change since its last
 * read to ts's sums, and keep the reads by tid; a thread gone or a tid
 * reused makes the interval since the last read not exact. threads: how
 * many pid has by its stat read just before (-1: not known); when they are
 * as many as last read, they are not listed again (ts->keep only: a kept
 * file of one gone says so). 0 or -errno.
 */
int live_tsum_update(struct live *l, struct live_tsum *ts, int pid, uint64_t t_ns,
		     live_tsum_read rd, bool stat, int threads);
/* Close the thread files ts keeps open. */
void live_tsum_close(struct live *l, struct live_tsum *ts);
/*
 * After an update whose reads carry each thread's run time (LIVE_TS_RUN):
 * mark the interval since prev_ns not exact when a thread no listing saw
 * exited meanwhile, from pid's CPU clock read before the update (clk) and
 * once more now (live_ctxsw.c says how). lost0: ts->lost_ns before it.
 */
void live_tsum_unseen(struct live *l, struct live_tsum *ts, int pid, uint64_t clk, uint64_t prev_ns,
		      uint64_t lost0);
/*
 * After each update of ts (prev_ns: the time of the one before; lost0:
 * ts->lost_ns before it; cpu_ns: the process's CPU time since ts's first
 * read): when it read part of the threads (ts->budget), or
 * caught up on those the one before did not read, its counts are the
 * threads' reads and a guess of what those not read did since, and marked
 * estimated (live_ctxsw.c says how); else the reads alone.
 */
void live_tsum_est(struct live_tsum *ts, uint64_t prev_ns, uint64_t lost0, uint64_t cpu_ns);
/* Sum k of ts as a cumulative count: enabled since the first read, running less lost time. */
void live_tsum_count(const struct live_tsum *ts, int k, struct snap_count *c);
void live_tsum_free(struct live_tsum *ts);
/*
 * Without kernel-mode counting, the context switches of process pid
 * summed over its threads' /proc status into c, as a cumulative count whose
 * running time stops in an interval in which a thread exited (not exact);
 * its threads' reads kept in *ts (made on first use, owned by the caller).
 */
void live_ctxsw_fill(struct live *l, int pid, struct live_tsum **ts, uint64_t t_ns,
		     struct snap_count *c);
/* Free *ts (made by live_ctxsw_fill) and set it NULL; NULL is a no-op. */
void live_ctxsw_free(struct live_tsum **ts);
/*
 * live_ctxsw.c: thread tid of pid's run time (ns: its schedstat's first
 * number, the kernel's sum_exec_runtime, in the process CPU clock's units)
 * into *run; its file kept open in *kfd (1 + fd) while the descriptor
 * budget has room, else opened for this read alone, through pid's task
 * directory kept in *dfd (1 + fd; a shorter path walk). 0 or -errno
 * (-ESRCH: gone); -ENOTSUP where schedstat files hold no run times.
 */
int live_thread_run(struct live *l, int pid, int tid, int *dfd, int *kfd, uint64_t *run);
/* Whether thread schedstat files hold run times here (the kernel has schedstats). */
bool live_schedstat_runs(struct live *l);
/* Close a file live_thread_run kept in *kfd; 0 is a no-op. */
void live_thread_run_close(struct live *l, int *kfd);
/* Close a task directory live_thread_run kept in *dfd; 0 is a no-op. */
void live_thread_dir_close(struct live *l, int *dfd);
/*
 * live_ctxsw.c: a live_tsum_read of thread sched files (switches,
 * migrations, run time; stat when asked). o: the thread's last read, or
 * NULL. Where migrations are not counted, the thread's schedstat alone
 * (run time and the times it was put on a CPU); else, where ts keeps files
 * and o did not run between its last two reads, its schedstat is read first,
 * and its sched file only when the run time moved.
 */
int live_tsum_read_sched(struct live *l, struct live_tsum *ts, int pid, struct live_tsum_thr *o,
			 struct live_tsum_thr *e, bool stat);
/* Whether this kernel writes per-task schedstat or sched files with the switches (l->tsum_mig: sched). */
bool live_tsum_switches_ok(struct live *l);

/*
 * live_cgroups.c: find the v2 hierarchy (0; -errno with *why only when
 * cgroups were asked for and cannot be counted at all), count the cgroups
 * into snap each tick (rescanning the hierarchy), and each process's place.
 */
int live_cgroups_init(struct live *l, struct fact *why);
void live_cgroups_read(struct live *l, struct snapshot *snap);
/* Close every cgroup's counters (the task group definitions changed): reopened next tick. */
void live_cgroups_reset(struct live *l);
/* The cgroup of pid below the mount (owned), or NULL when not known. */
char *live_cgroup_of(struct live *l, int pid);
void live_cgroups_free(struct live *l);

/*
 * live_bpf.c (LIVE_BE_BPF): process and thread counts summed by a
 * sched_switch program instead of thread groups; live_procfs.c
 * (LIVE_BE_PROCFS): task counts from /proc, no per-task events
 * (--task-counts); live_be_tasks.c (LIVE_BE_TASKS): a group set per thread.
 */

/* live_samples.c: data-address sampling of one process. */
int live_sample(struct source *s, int pid, const struct sample_req *req, char *err, size_t errsize);
/* Whether event i is opened: countable, and not a repeat of a built-in event. */
bool live_opens(const struct live *l, size_t i);
/* Give each repeated event the counts of the built-in event it repeats. */
void live_copy_same(const struct live *l, struct snapshot *snap);
size_t live_poll_fds(struct source *s, int *fds, size_t max);
void live_wake(struct source *s, int fd, bool hup);
void live_fill_samples(struct live *l, struct snapshot *snap);
void live_samples_free(struct live *l);

#endif
