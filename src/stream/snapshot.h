/* One tick of collected data: tasks, CPUs and their raw cumulative counts. */
#ifndef PMCTOP_SNAPSHOT_H
#define PMCTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/mem.h"

/* A cumulative count as the kernel reports it. */
struct snap_count {
	uint64_t value;
	uint64_t enabled; /* ns the counter was enabled */
	uint64_t running; /* ns it was actually on the PMU */
	int err;	  /* 0, or -errno: why it is not counted */
};

struct snap_task {
	int pid;  /* the tid for thread entries */
	int tgid; /* the process a thread belongs to; pid for processes */
	int ppid;
	unsigned uid;
	char user[33];
	char state;
	int threads;
	unsigned long long start; /* start time in clock ticks since boot */
	char comm[64];
	char *cmdline;	      /* owned; "" when unknown */
	int err;	      /* 0, or -errno: why the task is not counted */
	struct snap_count *c; /* owned; one per event */
	char *cgroup;	      /* owned; its cgroup v2 path ("/a/b"), NULL when not known */
	unsigned pflags;      /* SNAP_TASK_*: which /proc facts below are known */
	uint64_t rss_kib;     /* resident memory in KiB (the process's, on thread entries) */
	uint64_t cpu_ns;      /* user + system CPU time since the task started */
	uint64_t virt_kib;    /* SNAP_TASK_MORE: the address space in KiB (the process's) */
	int nice;	      /* SNAP_TASK_MORE: -20 to 19 */
	int processor;	      /* SNAP_TASK_MORE: the CPU it last ran on */
	uint64_t shr_kib;     /* SNAP_TASK_SHR: resident shared memory in KiB (the process's) */
	uint64_t t_ns;	      /* monotonic time its counts were read; 0: the snapshot's t_ns */
};

/* Facts of a task from /proc; recordings made before they existed have none. */
#define SNAP_TASK_PROC 0x1u    /* rss_kib and cpu_ns are known */
#define SNAP_TASK_KTHREAD 0x2u /* a kernel thread */
#define SNAP_TASK_MORE 0x4u    /* nice, processor and virt_kib are known (top's NI, P, VIRT) */
#define SNAP_TASK_SHR 0x8u     /* shr_kib is known (top's SHR, from /proc/PID/statm) */

struct snap_cpu {
	int cpu;
	unsigned long long busy;  /* /proc/stat clock ticks not idle */
	unsigned long long total; /* all /proc/stat clock ticks */
	struct snap_count *c;	  /* owned; one per event */
	uint64_t t_ns;		  /* monotonic time its counts were read; 0: the snapshot's */
};

/* One data-address sample, as drained from a ring or read from a recording. */
struct snap_sample {
	uint64_t addr, ip;
	uint64_t weight; /* latency in cycles, 0 when not given */
	uint32_t tid, cpu;
	uint8_t op;	 /* enum mem_op */
	uint8_t level;	 /* enum mem_level */
	uint64_t period; /* events the sample stands for (its own period); 0 taken as 1 */
	uint32_t area;	 /* 1 + index into smp.areas: its mapping when taken; 0 not known */
	/*
	 * 1 + the NUMA node its page lived on (asked when drained) and 1 + the
	 * node of the CPU that took it; 0 when not known, so a zeroed sample
	 * never claims node 0
	 */
	uint16_t page_node, cpu_node;
};

/* What the samples of a source do not carry, so they are shown as n/a and not blank. */
#define SNAP_SMP_NO_LATENCY 0x1u /* MEM_INST_RETIRED.ALL_*: no load-latency facility */
#define SNAP_SMP_NO_SOURCE 0x2u	 /* no data source (level) either */
#define SNAP_SMP_NO_NUMA 0x4u	 /* the kernel cannot say where pages live: no node column */

/* Samples of the process being sampled, drained during one tick. */
struct snap_sampling {
	int pid;		  /* 0 when nothing is sampled */
	char source[32];	  /* "page faults", "Intel PEBS", ... */
	uint64_t period;	  /* in use at the end of the tick */
	uint64_t lost, throttled; /* cumulative since sampling began */
	unsigned flags;		  /* SNAP_SMP_NO_* */
	uint64_t nonmem;	  /* IBS ops without a data address, dropped; cumulative */
	size_t n, cap;
	struct snap_sample *v;
	bool maps_changed; /* maps holds a new /proc/PID/maps */
	size_t nmaps, mcap;
	struct mem_map *maps;
	size_t nareas, acap;
	struct mem_area *areas; /* owned, names too: the mappings samples name (snap_sample.area) */
};

/* One cgroup of the v2 hierarchy: its counts summed over the CPUs it was counted on. */
struct snap_cgroup {
	char *path;	      /* owned; below the hierarchy's root: "/a/b" */
	int err;	      /* 0, or -errno: why it is not counted */
	struct snap_count *c; /* owned; one per event */
	uint64_t t_ns;	      /* monotonic time its counts were read; 0: the snapshot's */
};

/* The cgroups counted in a tick. */
struct snap_cgroups {
	bool on;	 /* cgroups were looked for: the entries are all there are */
	uint64_t fds;	 /* descriptors their counters take */
	uint64_t budget; /* descriptors counters may take in all; 0 when unlimited */
	size_t n, cap;
	struct snap_cgroup *v; /* sorted by path (strcmp) */
};

/* The rest of /proc/meminfo the memory and swap meters show, in KiB. */
struct snap_mem {
	bool known; /* false: the meters stay empty (an old recording, a kernel without them) */
	uint64_t free_kib, buffers_kib, cached_kib, sreclaimable_kib;
	uint64_t swap_total_kib, swap_free_kib, avail_kib;
};

struct snapshot {
	uint64_t t_ns; /* monotonic time of the read's start */
	double wall;   /* seconds since the epoch, for display */
	double load[3];
	double uptime; /* seconds since boot; < 0 when unknown */
	char host[65]; /* where the counts come from */
	char kernel[65];
	uint64_t mem_total_kib; /* MemTotal of /proc/meminfo; 0 when unknown */
	struct snap_mem mem;	/* known only with mem_total_kib */
	size_t nev;		/* counts per task and per CPU */
	size_t ntasks, tcap;
	struct snap_task *tasks; /* sorted by pid */
	size_t nthreads, thcap;
	struct snap_task *threads; /* per-thread entries when asked for; sorted by tid */
	size_t ncpus, ccap;
	struct snap_cpu *cpus;
	struct snap_sampling smp;
	struct snap_cgroups cg;
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
/* Deep copy of everything but the samples and maps (what deltas need). */
void snapshot_copy_counts(struct snapshot *dst, const struct snapshot *src);
/* Append a sample to the sampling part; never fails. */
struct snap_sample *snapshot_add_sample(struct snapshot *s);
struct mem_map *snapshot_add_map(struct snapshot *s);
/* Append a copy of a (its name copied too); returns its number for snap_sample.area. */
uint32_t snapshot_add_area(struct snapshot *s, const struct mem_area *a);
/* Set a task's command line (copied). */
void snapshot_task_set_cmdline(struct snap_task *t, const char *cmdline);
/* Set a task's cgroup path (copied; NULL: not known). */
void snapshot_task_set_cgroup(struct snap_task *t, const char *path);
/* Append a cgroup (counts marked -ENOENT until filled); never NULL. Append in path order. */
struct snap_cgroup *snapshot_add_cgroup(struct snapshot *s, const char *path);
/* When the counts of a task, CPU or cgroup entry were read (row_t_ns: 0 for the snapshot's). */
static inline uint64_t snapshot_read_ns(const struct snapshot *s, uint64_t row_t_ns)
{
	return row_t_ns ? row_t_ns : s->t_ns;
}
/* Binary search of the cgroups by path; NULL when absent. */
const struct snap_cgroup *snapshot_find_cgroup(const struct snapshot *s, const char *path);

#endif
