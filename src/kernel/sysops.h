/* The system calls collection makes, in one table passed explicitly, so tests can fake them. */
#ifndef PMCTOP_SYSOPS_H
#define PMCTOP_SYSOPS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/perf_compat.h"

/*
 * Every operation returns what the system call returns, or -errno instead
 * of -1 (errno itself is left alone). ctx is handed back to each call: a
 * fake keeps its state there. Tables are const and outlive their users.
 */
struct sysops {
	void *ctx;
	/* perf_event_open(2) with flags; the new fd or -errno. */
	int (*perf_open)(void *ctx, struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			 unsigned long flags);
	long (*read)(void *ctx, int fd, void *buf, size_t size);
	long (*pread)(void *ctx, int fd, void *buf, size_t size, long long off);
	/* ioctl(2) with one integer or pointer argument; 0 (or its result) or -errno. */
	int (*ioctl)(void *ctx, int fd, unsigned long req, unsigned long arg);
	int (*openat)(void *ctx, int dirfd, const char *path, int flags);
	int (*close)(void *ctx, int fd);
	/* A shared read-write mapping of len bytes of fd into *addr; 0 or -errno. */
	int (*mmap)(void *ctx, int fd, size_t len, void **addr);
	int (*munmap)(void *ctx, void *addr, size_t len);
	/*
	 * The CPU time of process pid, all its threads and its dead ones, in ns
	 * (clock_gettime of its process CPU clock); 0 or -errno. May be NULL in a
	 * fake: callers then do without (sysops_cpuclock says -ENOSYS).
	 */
	int (*cpuclock)(void *ctx, int pid, uint64_t *ns);
	/*
	 * Acting on processes the user chose (app/procctl.c); a fake that leaves them NULL
	 * has none. pidfd_open(2) with flags: the pidfd or -errno (-ENOSYS before Linux 5.3).
	 */
	int (*pidfd_open)(void *ctx, int pid, unsigned flags);
	/* pidfd_send_signal(2) with flags; 0 or -errno. */
	int (*pidfd_send_signal)(void *ctx, int pidfd, int sig, unsigned flags);
	/* kill(2): only where there is no pidfd; 0 or -errno. */
	int (*kill)(void *ctx, int pid, int sig);
	/* The nice value of thread tid into *nice; 0 or -errno. */
	int (*getnice)(void *ctx, int tid, int *nice);
	/* setpriority(2) of thread tid; 0 or -errno. */
	int (*setnice)(void *ctx, int tid, int nice);
	/* 1 when the process of pidfd has exited (the pidfd polls readable), 0 if not, or -errno. */
	int (*pidfd_exited)(void *ctx, int pidfd);
	/*
	 * CLOCK_MONOTONIC in ns: when a tick and each of its reads happened. May
	 * be NULL in a fake: sysops_now then reads the real clock.
	 */
	uint64_t (*monotonic)(void *ctx);
	/*
	 * Whether this process may load a tracing BPF program and open per-CPU
	 * events: 1 (CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON, effective), 0
	 * not, or -errno. May be NULL in a fake: sysops_may_bpf says -ENOSYS and
	 * no program is loaded (a fake kernel's events are not the real one's).
	 */
	int (*may_bpf)(void *ctx);
	/*
	 * move_pages(2) of process pid with no target nodes: moves nothing, puts
	 * each page's node (or -errno: -ENOENT not present, -EFAULT not mapped)
	 * into status; 0 or -errno (-ENOSYS: a kernel without NUMA). May be NULL
	 * in a fake: sysops_page_nodes then says -ENOSYS.
	 */
	int (*page_nodes)(void *ctx, int pid, unsigned long count, void **pages, int *status);
};

/* The real system calls (ctx unused). */
const struct sysops *sysops_real(void);
/* ops, or the real table when ops is NULL. */
const struct sysops *sysops_or_real(const struct sysops *ops);

/*
 * The one perf_event_open, with PERF_FLAG_FD_CLOEXEC.
 * The new fd or -errno.
 */
int sysops_perf_open(const struct sysops *ops, struct perf_event_attr *attr, int pid, int cpu,
		     int group_fd);
/* The same with more PERF_FLAG_* flags (PERF_FLAG_PID_CGROUP: pid is a cgroup directory's fd). */
int sysops_perf_open_flags(const struct sysops *ops, struct perf_event_attr *attr, int pid, int cpu,
			   int group_fd, unsigned long flags);
/* read(2) restarted on EINTR; bytes or -errno. */
long sysops_read(const struct sysops *ops, int fd, void *buf, size_t size);
/*
 * Read the start of the small file at path (a sysfs or /proc file) into
 * buf, NUL-terminated; flags are added to O_RDONLY | O_CLOEXEC. Bytes or
 * -errno.
 */
long sysops_read_path(const struct sysops *ops, const char *path, int flags, char *buf,
		      size_t size);

/*
 * Process pid's CPU clock in ns: 0, -ESRCH when there is no such process,
 * -ENOSYS when ops has no clock, or another -errno.
 */
int sysops_cpuclock(const struct sysops *ops, int pid, uint64_t *ns);
/* 1 when BPF counting is permitted, 0 when not, -ENOSYS when ops cannot tell, or -errno. */
int sysops_may_bpf(const struct sysops *ops);
/*
 * The node of each of count pages of process pid into status (see
 * sysops.page_nodes); 0, -ENOSYS when ops or the kernel cannot tell, or
 * another -errno (-EPERM: not permitted on that process, -ESRCH: gone).
 */
int sysops_page_nodes(const struct sysops *ops, int pid, unsigned long count, void **pages,
		      int *status);
/* The monotonic time in ns, from ops's clock (a fake's, or the real one). */
uint64_t sysops_now(const struct sysops *ops);

#endif
