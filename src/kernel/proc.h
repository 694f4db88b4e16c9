/* /proc discovery relative to a root directory fd, so tests can use fixture trees. */
#ifndef PMCTOP_PROC_H
#define PMCTOP_PROC_H

#include <stddef.h>

#include "stream/mem.h"

#define PROC_PF_KTHREAD 0x00200000u /* from the kernel's sched.h */

struct proc_stat {
	int pid;
	char comm[64];
	char state;
	int ppid;
	unsigned flags;
	int threads;
	unsigned long long start; /* clock ticks after boot */
	unsigned long long cpu;	  /* utime + stime, clock ticks */
	/* page faults the kernel handled: minor, major (of the whole process, dead threads too) */
	unsigned long long minflt, majflt;
	unsigned long long rss; /* resident pages (of the whole process, for threads too) */
	/* where the kernel writes them (0 otherwise): the nice value, the address space in
	 * bytes and the CPU the task last ran on */
	int nice;
	unsigned long long vsize;
	int processor;
	/*
	 * Where the text and the stack of the program start: an exec maps new
	 * ones (the stack at a random place), so a change tells an exec that kept
	 * the name. 0 where the kernel hides them (another user's process).
	 */
	unsigned long long start_code, start_stack;
};

struct proc_cpustat {
	int cpu;
	unsigned long long busy; /* clock ticks not idle or iowait */
	unsigned long long total;
};

/* Parse the text of /proc/PID/stat; 0 or -EINVAL. Fields after starttime are optional (0). */
int proc_parse_stat(const char *buf, size_t len, struct proc_stat *out);
/* Shared pages (the third field) from the text of /proc/PID/statm; 0 or -EINVAL. */
int proc_parse_statm(const char *buf, size_t len, unsigned long long *shared);
/* The same read from PID/statm below rootfd; 0 or -errno (-ENOENT when gone). */
int proc_read_statm(int rootfd, int pid, unsigned long long *shared);
/* Whether fd is a directory of a procfs: a kernel's /proc, not a fixture tree. */
bool proc_is_procfs(int fd);
/*
 * The effective uid of pid from the owner of its directory below rootfd, a
 * procfs: the kernel gives a process's directory its euid whatever its
 * dumpable state (the files in it are root's for a task that is not), at
 * the cost of a lookup, where status is formatted in full. 0 or -errno.
 */
int proc_read_owner(int rootfd, int pid, unsigned *uid);
/* MemTotal in KiB from the text of /proc/meminfo; 0 or -EINVAL. */
int proc_parse_meminfo(const char *buf, size_t len, unsigned long long *total_kib);
/* The same read from meminfo below rootfd; 0 or -errno. */
int proc_read_memtotal(int rootfd, unsigned long long *total_kib);

/* The lines of /proc/meminfo the memory and swap meters show, in KiB. */
struct proc_meminfo {
	unsigned long long total, free, buffers, cached, sreclaimable;
	unsigned long long swap_total, swap_free, available;
};

/*
 * The meters' lines of the text of /proc/meminfo; 0, or -EINVAL when one is
 * missing or malformed (the meters then stay empty: no line is guessed).
 */
int proc_parse_meminfo_all(const char *buf, size_t len, struct proc_meminfo *out);
/* The same read from meminfo below rootfd; 0 or -errno. */
int proc_read_meminfo(int rootfd, struct proc_meminfo *out);
/* Effective uid from the text of /proc/PID/status; 0 or -EINVAL. */
int proc_parse_status_uid(const char *buf, size_t len, unsigned *uid);
/*
 * Per-CPU lines of /proc/stat ("cpuN ..."); *out is grown as needed and
 * owned by the caller. Returns the number of CPUs or -EINVAL.
 */
int proc_parse_cpustat(const char *buf, size_t len, struct proc_cpustat **out, size_t *cap);
/* The three load averages of /proc/loadavg; 0 or -EINVAL. */
int proc_parse_loadavg(const char *buf, size_t len, double load[3]);
/*
 * The last field of /proc/loadavg: the pid the reader's PID namespace gave
 * last, to a process or a thread (fs/proc/loadavg.c); 0 or -EINVAL.
 */
int proc_parse_loadavg_pid(const char *buf, size_t len, long *pid);
/* Seconds since boot from the text of /proc/uptime; 0 or -EINVAL. */
int proc_parse_uptime(const char *buf, size_t len, double *up);
/* Turn the NUL-separated /proc/PID/cmdline into one line, in place; returns its length. */
size_t proc_cmdline_flatten(char *buf, size_t len);

/*
 * Parse the text of /proc/PID/maps into *out (grown, owned by the caller),
 * sorted by address as the kernel writes them, with each file's offset,
 * device and inode; a name longer than mem_map.name is marked cut. Returns
 * the count or -EINVAL.
 */
long proc_parse_maps(const char *buf, size_t len, struct mem_map **out, size_t *cap);

/* Read a file below rootfd into buf (NUL-terminated); bytes read or -errno. */
long proc_read_file(int rootfd, const char *path, char *buf, size_t size);

/*
 * Whether the /proc at rootfd is of this process's PID namespace: its
 * "self" is this process (a fixture tree's, or another namespace's, is not).
 */
bool proc_is_own(int rootfd);

/*
 * A file of one record (loadavg, uptime, meminfo, stat: the kernel formats
 * it whole at each read from its start, so a short read is its end) read
 * again each tick, kept open where keep (a kernel's /proc): a read is one
 * pread from its start, with no path walk, open or close. Without keep (a fixture tree, whose files a
 * test may replace) it is opened at each read.
 */
struct proc_kept {
	int fd; /* -1: not open */
	bool keep;
};

void proc_kept_init(struct proc_kept *k, bool keep);
/* Its text into buf (NUL-terminated), as proc_read_file; reopened after a failed read. */
long proc_kept_read(struct proc_kept *k, int rootfd, const char *path, char *buf, size_t size);
/*
 * A file of lines read whole into *buf, grown as needed from *cap bytes (*buf
 * NULL and *cap 0 at first: 64 KiB) up to 16 MiB: /proc/stat has a line per
 * CPU, past 64 KiB on a large machine. Past 16 MiB the text is cut, its last
 * line without its newline. Its length, or -errno.
 */
long proc_kept_read_all(struct proc_kept *k, int rootfd, const char *path, char **buf, size_t *cap);
void proc_kept_close(struct proc_kept *k);
/* The same read of meminfo as proc_read_meminfo. */
int proc_kept_meminfo(struct proc_kept *k, int rootfd, struct proc_meminfo *out);
/* Read PID/stat (or PID/task/TID/stat when tid > 0); 0 or -errno (-ENOENT when gone). */
int proc_read_stat(int rootfd, int pid, int tid, struct proc_stat *out);
/* Re-read a /proc/PID/stat already open on fd (pread from 0); 0 or -errno (-ESRCH when gone). */
int proc_pread_stat(int fd, struct proc_stat *out);
int proc_read_uid(int rootfd, int pid, unsigned *uid);
/* Command line with spaces for NULs; "" for kernel threads; 0 or -errno. */
int proc_read_cmdline(int rootfd, int pid, char *buf, size_t size);
/*
 * Numeric entries of the directory path below rootfd ("." for the pids,
 * "PID/task" for threads), sorted; *ids is grown and owned by the caller.
 * Returns the count or -errno.
 */
long proc_list_ids(int rootfd, const char *path, int **ids, size_t *cap);
/* qsort/bsearch order of two ints. */
int proc_cmp_int(const void *a, const void *b);

#endif
