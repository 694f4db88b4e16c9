/* The real system calls behind struct sysops, and the one perf_event_open wrapper. */
#include "config.h"
#include "kernel/sysops.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int sysops_real_perf_open(void *ctx, struct perf_event_attr *attr, int pid, int cpu,
				 int group_fd, unsigned long flags)
{
	long r = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return r < 0 ? -errno : (int)r;
}

static long sysops_real_read(void *ctx, int fd, void *buf, size_t size)
{
	ssize_t r = read(fd, buf, size);

	return r < 0 ? -errno : (long)r;
}

static long sysops_real_pread(void *ctx, int fd, void *buf, size_t size, long long off)
{
	ssize_t r = pread(fd, buf, size, (off_t)off);

	return r < 0 ? -errno : (long)r;
}

static int sysops_real_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	int r = ioctl(fd, req, arg);

	return r < 0 ? -errno : r;
}

static int sysops_real_openat(void *ctx, int dirfd, const char *path, int flags)
{
	int r = openat(dirfd, path, flags);

	return r < 0 ? -errno : r;
}

static int sysops_real_close(void *ctx, int fd)
{
	return close(fd) < 0 ? -errno : 0;
}

static int sysops_real_mmap(void *ctx, int fd, size_t len, void **addr)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	*addr = p;
	return 0;
}

static int sysops_real_munmap(void *ctx, void *addr, size_t len)
{
	return munmap(addr, len) < 0 ? -errno : 0;
}

static uint64_t sysops_real_monotonic(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The clock id the kernel gives process pid's CPU time (CPUCLOCK_SCHED of
 * a process, as clock_getcpuclockid makes it, without its checking call):
 * the sum of every thread's runtime, dead threads' included. The time of a
 * thread running on another CPU is brought up to date at that CPU's next
 * scheduler tick or switch, not by this read.
 */
static int sysops_real_cpuclock(void *ctx, int pid, uint64_t *ns)
{
	clockid_t id = (clockid_t)(((unsigned)~pid) << 3) | 2;
	struct timespec ts;

	if (pid <= 0)
		return -ESRCH;
	if (clock_gettime(id, &ts) < 0)
		return errno == EINVAL ? -ESRCH : -errno;
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

static int sysops_real_pidfd_open(void *ctx, int pid, unsigned flags)
{
#ifdef SYS_pidfd_open
	long r = syscall(SYS_pidfd_open, pid, flags);

	return r < 0 ? -errno : (int)r;
#else
	return -ENOSYS;
#endif
}

static int sysops_real_pidfd_send_signal(void *ctx, int pidfd, int sig, unsigned flags)
{
#ifdef SYS_pidfd_send_signal
	return syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, flags) < 0 ? -errno : 0;
#else
	return -ENOSYS;
#endif
}

static int sysops_real_kill(void *ctx, int pid, int sig)
{
	return kill(pid, sig) < 0 ? -errno : 0;
}

static int sysops_real_getnice(void *ctx, int tid, int *nice)
{
	int r;

	errno = 0;
	r = getpriority(PRIO_PROCESS, (id_t)tid);
	if (r == -1 && errno)
		return -errno;
	*nice = r;
	return 0;
}

static int sysops_real_setnice(void *ctx, int tid, int nice)
{
	return setpriority(PRIO_PROCESS, (id_t)tid, nice) < 0 ? -errno : 0;
}

static int sysops_real_pidfd_exited(void *ctx, int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int r = poll(&p, 1, 0);

	if (r < 0)
		return -errno;
	return r > 0 && (p.revents & (POLLIN | POLLHUP));
}

/* The capabilities BPF counting needs; older headers lack the two of Linux 5.8. */
#define SYSOPS_CAP_SYS_ADMIN 21
#define SYSOPS_CAP_PERFMON 38
#define SYSOPS_CAP_BPF 39

static bool sysops_cap_has(const struct __user_cap_data_struct *d, int cap)
{
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

/*
 * From the effective set, not the uid: root in a container without them is
 * refused, a binary given cap_bpf,cap_perfmon is not. Before Linux 5.8 the
 * two did not exist and CAP_SYS_ADMIN was what the kernel asked for.
 */
static int sysops_real_may_bpf(void *ctx)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	return sysops_cap_has(d, SYSOPS_CAP_SYS_ADMIN) ||
	       (sysops_cap_has(d, SYSOPS_CAP_BPF) && sysops_cap_has(d, SYSOPS_CAP_PERFMON));
}

static int sysops_real_page_nodes(void *ctx, int pid, unsigned long count, void **pages,
				  int *status)
{
	(void)ctx;
#ifdef SYS_move_pages
	/* no nodes: the kernel moves nothing and only says where each page is */
	return syscall(SYS_move_pages, pid, count, pages, NULL, status, 0) < 0 ? -errno : 0;
#else
	(void)pid;
	(void)count;
	(void)pages;
	(void)status;
	return -ENOSYS;
#endif
}

static const struct sysops SYSOPS_REAL = {
	.ctx = NULL,
	.perf_open = sysops_real_perf_open,
	.read = sysops_real_read,
	.pread = sysops_real_pread,
	.ioctl = sysops_real_ioctl,
	.openat = sysops_real_openat,
	.close = sysops_real_close,
	.mmap = sysops_real_mmap,
	.munmap = sysops_real_munmap,
	.cpuclock = sysops_real_cpuclock,
	.pidfd_open = sysops_real_pidfd_open,
	.pidfd_send_signal = sysops_real_pidfd_send_signal,
	.kill = sysops_real_kill,
	.getnice = sysops_real_getnice,
	.setnice = sysops_real_setnice,
	.pidfd_exited = sysops_real_pidfd_exited,
	.monotonic = sysops_real_monotonic,
	.may_bpf = sysops_real_may_bpf,
	.page_nodes = sysops_real_page_nodes,
};

const struct sysops *sysops_real(void)
{
	return &SYSOPS_REAL;
}

const struct sysops *sysops_or_real(const struct sysops *ops)
{
	return ops ? ops : &SYSOPS_REAL;
}

int sysops_perf_open(const struct sysops *ops, struct perf_event_attr *attr, int pid, int cpu,
		     int group_fd)
{
	return sysops_perf_open_flags(ops, attr, pid, cpu, group_fd, 0);
}

int sysops_perf_open_flags(const struct sysops *ops, struct perf_event_attr *attr, int pid, int cpu,
			   int group_fd, unsigned long flags)
{
	return ops->perf_open(ops->ctx, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC | flags);
}

long sysops_read(const struct sysops *ops, int fd, void *buf, size_t size)
{
	long r;

	do
		r = ops->read(ops->ctx, fd, buf, size);
	while (r == -EINTR);
	return r;
}

long sysops_read_path(const struct sysops *ops, const char *path, int flags, char *buf, size_t size)
{
	int fd;
	long n;

	ops = sysops_or_real(ops);
	fd = ops->openat(ops->ctx, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return fd;
	n = size ? ops->pread(ops->ctx, fd, buf, size - 1, 0) : 0;
	ops->close(ops->ctx, fd);
	if (n < 0)
		return n;
	if (size)
		buf[n] = '\0';
	return n;
}

int sysops_cpuclock(const struct sysops *ops, int pid, uint64_t *ns)
{
	ops = sysops_or_real(ops);
	if (!ops->cpuclock)
		return -ENOSYS;
	return ops->cpuclock(ops->ctx, pid, ns);
}

int sysops_may_bpf(const struct sysops *ops)
{
	ops = sysops_or_real(ops);
	return ops->may_bpf ? ops->may_bpf(ops->ctx) : -ENOSYS;
}

int sysops_page_nodes(const struct sysops *ops, int pid, unsigned long count, void **pages,
		      int *status)
{
	ops = sysops_or_real(ops);
	return ops->page_nodes ? ops->page_nodes(ops->ctx, pid, count, pages, status) : -ENOSYS;
}

uint64_t sysops_now(const struct sysops *ops)
{
	ops = sysops_or_real(ops);
	return ops->monotonic ? ops->monotonic(ops->ctx) : sysops_real_monotonic(NULL);
}
