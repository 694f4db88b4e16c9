/* One fake kernel behind struct sysops for the unit tests: perf events, a clock, a /proc tree. */
#ifndef PMCTOP_FAKE_KERNEL_H
#define PMCTOP_FAKE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/perf_compat.h"
#include "kernel/sysops.h"

#define FAKE_KERNEL_FD0 10000 /* its perf fds; lower ones are real files, passed through */
#define FAKE_KERNEL_NPMU 4
#define FAKE_KERNEL_PIDS 64 /* per-pid tallies and clocks are kept for pids below this */
#define FAKE_KERNEL_PERIODS 4096
#define FAKE_KERNEL_RATES 16
#define FAKE_KERNEL_MAPS 256

/* One perf event opened on the fake kernel. */
struct fake_ev {
	int fd, leader, group_fd, pid, cpu;
	int pmu; /* index into the kernel's PMUs; -1 software (or any event, with any_event) */
	struct perf_event_attr attr;
	unsigned long flags;
	bool open;
	uint64_t rate; /* its value grows this much a read of its group; 0: the PMU's */
	/* where rate_from: rate from the group's rate_from-th read on, rate_was before it */
	uint64_t rate_from, rate_was;
	unsigned reads; /* successful reads with it as the group leader (timed: epochs run) */
	uint64_t seen;	/* timed: the epoch of its last read (or open) */
};

/*
 * A kernel with software events, and core PMUs a test adds, whose answers
 * a test can bend by setting the fields below. Reads follow each event's
 * read_format as the kernel lays it out: a group leader's r-th read gives
 * time enabled 1000 r, time running 1000 r (a task's hardware group:
 * pmu_running r), each member the value rate r (software: 10 r; a task's
 * hardware event: pmu_value r; per CPU: 10 r) and its id, which is its fd.
 * Its monotonic clock moves only as the test says, and by clock_step at
 * each look, so two looks are never at the same time.
 */
struct fake_kernel {
	struct sysops ops; /* hand &ops to the code under test */
	struct fake_ev *ev;
	int nev, evcap;
	int nopen;		  /* perf fds open now */
	int opens, closes;	  /* perf fds opened and closed, all told */
	unsigned long last_flags; /* of the last perf_event_open */

	/* PMUs: their perf type, CPUs first to last, counters a group may hold */
	int npmu;
	uint32_t type[FAKE_KERNEL_NPMU];
	int first[FAKE_KERNEL_NPMU], last[FAKE_KERNEL_NPMU];
	int counters[FAKE_KERNEL_NPMU];
	uint64_t pmu_value[FAKE_KERNEL_NPMU];	/* a task's count a read; 10 unless set */
	uint64_t pmu_running[FAKE_KERNEL_NPMU]; /* a task group's time running a read; 1000 */
	bool no_ext;	   /* the extended type is refused (kernels before 5.13) */
	int wrong_cpu;	   /* per-CPU opens refused for a CPU off the PMU */
	int free_counters; /* counters a task's pinned group finds free (0: all) */
	int starve_over;   /* task groups with more hardware events never run (0: none) */
	bool any_event;	   /* every type and config opens, as a software event would */

	/* failures on demand */
	int (*rule)(const struct perf_event_attr *a, int group_fd); /* -errno or 0 for an open */
	int max_open;		      /* perf fds open at once before EMFILE; 0: no limit */
	int err_pid, err;	      /* opens on err_pid (-1: none) fail with err */
	int err_times;		      /* how many times; 0: always */
	int cpu_err;		      /* opens with pid -1 fail with this */
	bool deny_kernel;	      /* exclude_kernel = 0 gives EACCES */
	bool linux_5_10;	      /* attr.inherit_thread and PERF_FORMAT_LOST give EINVAL */
	int echild_pid, echild_reads; /* the first reads of echild_pid's groups give ECHILD */
	int cgroup_err;		      /* opens with PERF_FLAG_PID_CGROUP fail with this */
	size_t refuse_mmap_above;     /* ring bytes; 0: map anything */
	int mmap_err;		      /* every mmap fails with this (0: rings are given) */

	/* what was asked of it */
	int opens_inherit_thread;	    /* opens that asked for inherit_thread */
	int opens_of[FAKE_KERNEL_PIDS];	    /* perf_event_open calls per pid */
	int task_opens;			    /* perf_event_open calls on a pid above 0 (a task) */
	int sched_opens[FAKE_KERNEL_PIDS];  /* opens of PID/task/TID/sched files, per pid */
	int sched_preads[FAKE_KERNEL_PIDS]; /* re-reads of those files kept open, per pid */
	int schedstat_preads[FAKE_KERNEL_PIDS]; /* re-reads of PID/task/TID/schedstat files */
	int cgroup_opens;			/* opens with PERF_FLAG_PID_CGROUP */
	int reads_of[FAKE_KERNEL_PIDS];		/* group reads per pid */
	uint64_t frozen;			/* pids whose groups read as last time: idle */
	/*
	 * timed: a task's group counts by the test's epochs, not by its reads:
	 * its r is the epochs it ran since it was opened (every epoch since its
	 * last read, unless frozen at the read), so a group read seldom brings
	 * all it counted meanwhile, as the kernel's does
	 */
	bool timed;
	/* a group's enabled (and, off a PMU, running) time a read or epoch (ns; 1000) */
	uint64_t epoch_ns;
	uint64_t epoch; /* change frozen after fake_kernel_settle, so that no epoch run is lost */
	int stat_preads[FAKE_KERNEL_PIDS]; /* re-reads of PID/stat files kept open, per pid */
	int stat_opens[FAKE_KERNEL_PIDS];  /* opens of PID/stat (the process's own), per pid */
	uint64_t period_set[FAKE_KERNEL_PERIODS]; /* PERF_EVENT_IOC_PERIOD values, in order */
	int period_fd[FAKE_KERNEL_PERIODS];
	size_t nperiod;
	void *map[FAKE_KERNEL_MAPS]; /* the rings mapped, in order (NULL once unmapped) */
	size_t maplen[FAKE_KERNEL_MAPS];
	int map_fd[FAKE_KERNEL_MAPS];
	size_t nmap;

	/* process CPU clocks */
	bool clock; /* has them (else ENOSYS, as before them) */
	uint64_t clock_ns[FAKE_KERNEL_PIDS];
	int clock_reads[FAKE_KERNEL_PIDS];
	/*
	 * at the next clock read of hook_pid: this file gets this text (if
	 * any) and the clock this much; the monotonic clock moves hook_late_ns
	 * first (the read came that much later: the reads before it took long)
	 */
	int hook_pid;
	const char *hook_path, *hook_text;
	uint64_t hook_ns, hook_late_ns;

	/* the monotonic clock */
	uint64_t now_ns;
	uint64_t clock_step; /* each look at it moves it this much (1 us) */
	uint64_t open_ns;    /* each perf_event_open takes this long on it */
	uint64_t read_ns;    /* each group read takes this long on it */
	uint64_t pread_ns;   /* each pread of a file (a /proc file kept open) takes this long */
	/* the next group read of stall_pid: preempted, the clock moves stall_ns after its counts */
	int stall_pid;
	uint64_t stall_ns;
	uint64_t read_at[FAKE_KERNEL_PIDS]; /* the clock when a pid's last group read counted */

	/* per (type, config) rates set by fake_kernel_set_rate */
	struct {
		uint32_t type;
		uint64_t config, rate;
	} rates[FAKE_KERNEL_RATES];
	int nrates;

	/* a scratch tree: dir, with dir/proc and dir/sys made empty */
	char dir[256], proc[300], sys[300];
};

/* A kernel with software events only, its clock at 1 s and a scratch tree; dies on failure. */
struct fake_kernel *fake_kernel_new(void);
/* Timed: count the epochs each task group ran up to now, before the test freezes some. */
void fake_kernel_settle(struct fake_kernel *fk);

/* Its scratch tree removed, rings still mapped freed; NULL is a no-op. */
void fake_kernel_free(struct fake_kernel *fk);

/* A core PMU of perf type type on CPUs first to last with counters counters; its index. */
int fake_kernel_add_pmu(struct fake_kernel *fk, uint32_t type, int first, int last, int counters);
/* Events of (type, config) opened from now count rate a read of their group. */
void fake_kernel_set_rate(struct fake_kernel *fk, uint32_t type, uint64_t config, uint64_t rate);
/* perf_event_open on pid fails times times (0: until told otherwise) with err (-errno). */
void fake_kernel_fail_open(struct fake_kernel *fk, int pid, int err, int times);
/* The first n reads of pid's groups fail with ECHILD (pid -1: none). */
void fake_kernel_fail_reads(struct fake_kernel *fk, int pid, int n);
/* The monotonic clock moves ns on. */
void fake_kernel_advance(struct fake_kernel *fk, uint64_t ns);
/* The event of fd, open or closed; NULL when fd is not the fake's. */
struct fake_ev *fake_kernel_event(struct fake_kernel *fk, int fd);

/* Writes text to path (absolute), made or truncated; fails the test if it cannot. */
void fake_kernel_write(const char *path, const char *text);
/* Writes text to rel under the scratch tree, its directories made as needed. */
void fake_kernel_put(struct fake_kernel *fk, const char *rel, const char *text);
/* Makes directory rel under the scratch tree and those above it. */
void fake_kernel_mkdir(struct fake_kernel *fk, const char *rel);
/*
 * Process pid in proc_root (a directory of the scratch tree, or any), with
 * threads tids (the first is pid), its start time and the CPU ticks used:
 * PID/stat, status, cmdline and task/TID directories.
 */
void fake_kernel_add_task(const char *proc_root, int pid, const int *tids, int ntids,
			  unsigned long long start, unsigned long long ticks);

#endif
