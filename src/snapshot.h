/* One tick of collected data: tasks, CPUs and their raw cumulative counts. */
#ifndef PMCTOP_SNAPSHOT_H
#define PMCTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A cumulative count as the kernel reports it. */
struct snap_count {
	uint64_t value;
	uint64_t enabled;	/* ns the counter was enabled */
	uint64_t running;	/* ns it was actually on the PMU */
	int err;		/* 0, or -errno: why it is not counted */
};

struct snap_task {
	int pid;		/* the tid for thread entries */
	int tgid;		/* the process a thread belongs to; pid for processes */
	int ppid;
	unsigned uid;
	char user[33];
	char state;
	int threads;
	unsigned long long start;	/* start time in clock ticks since boot */
	char comm[64];
	char *cmdline;			/* owned; "" when unknown */
	int err;			/* 0, or -errno: why the task is not counted */
	struct snap_count *c;		/* owned; one per event */
};

struct snap_cpu {
	int cpu;
	unsigned long long busy;	/* /proc/stat clock ticks not idle */
	unsigned long long total;	/* all /proc/stat clock ticks */
	struct snap_count *c;		/* owned; one per event */
};

struct snapshot {
	uint64_t t_ns;		/* monotonic time of the read */
	double wall;		/* seconds since the epoch, for display */
	double load[3];
	size_t nev;		/* counts per task and per CPU */
	size_t ntasks, tcap;
	struct snap_task *tasks;	/* sorted by pid */
	size_t nthreads, thcap;
	struct snap_task *threads;	/* per-thread entries when asked for; sorted by tid */
	size_t ncpus, ccap;
	struct snap_cpu *cpus;
};

void snapshot_init(struct snapshot *s, size_t nev);
void snapshot_release(struct snapshot *s);
/* Forget tasks and CPUs but keep the allocations for the next tick. */
void snapshot_clear(struct snapshot *s);
/* Append a zeroed task (counts marked -ENOENT until filled); never NULL. */
struct snap_task *snapshot_add_task(struct snapshot *s, int pid);
/* Append a zeroed thread entry of process tgid; never NULL. */
struct snap_task *snapshot_add_thread(struct snapshot *s, int tid, int tgid);
struct snap_cpu *snapshot_add_cpu(struct snapshot *s, int cpu);
/* Sort tasks by pid and threads by tid. */
void snapshot_sort(struct snapshot *s);
/* Binary search by pid; NULL when absent. Tasks must be sorted. */
const struct snap_task *snapshot_find_task(const struct snapshot *s, int pid);
/* Binary search of the thread entries by tid; NULL when absent. */
const struct snap_task *snapshot_find_thread(const struct snapshot *s, int tid);
/* Deep copy src into dst. */
void snapshot_copy(struct snapshot *dst, const struct snapshot *src);
/* Set a task's command line (copied). */
void snapshot_task_set_cmdline(struct snap_task *t, const char *cmdline);

#endif
