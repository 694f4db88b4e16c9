/*
 * Test workloads with known behaviour: page faults at a set rate, busy threads, early exit.
 * Under load a workload may not reach its nominal rate, so most of them can log what they really
 * did: lines of "WALL COUNT..." (CLOCK_REALTIME seconds, then cumulative counts) that the tests
 * compare with pmctop's frames over the same interval (tests/oracle.py).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double workload_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until *next moved on by step_ns (CLOCK_MONOTONIC, absolute: no drift over the steps). */
static void workload_sleep_step(struct timespec *next, long step_ns)
{
	next->tv_nsec += step_ns;
	while (next->tv_nsec >= 1000000000L) {
		next->tv_nsec -= 1000000000L;
		next->tv_sec++;
	}
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL);
}

/* The CPU time of the whole process, its exited threads included. */
static double workload_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double workload_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The log named by path, line-buffered; NULL (no log) when path is NULL. */
static FILE *workload_log_open(const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

/* One "WALL COUNT" line: how many events the workload had caused by now. */
static void workload_log_count(FILE *log, long count)
{
	if (log)
		fprintf(log, "%.6f %ld\n", workload_wall(), count);
}

/* Fault rate pages per second: each step drops a page with MADV_DONTNEED and touches it again. */
static int workload_faults(long rate, double seconds, FILE *log)
{
	long page = sysconf(_SC_PAGESIZE);
	const long npages = 64;
	char *buf = mmap(NULL, (size_t)(page * npages), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double start = workload_now(), step = 0.005;
	long done = 0;
	struct timespec next;

	if (buf == MAP_FAILED)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	workload_log_count(log, 0);
	while (workload_now() - start < seconds) {
		long want = (long)((workload_now() - start) * (double)rate);

		/* a line before and after each burst: between bursts nothing faults */
		if (done < want)
			workload_log_count(log, done);
		while (done < want) {
			char *p = buf + (done % npages) * page;

			madvise(p, (size_t)page, MADV_DONTNEED);
			*(volatile char *)p = 1;
			done++;
			/* a long catch-up burst: log as it goes, and stop on time */
			if (done % 64 == 0) {
				workload_log_count(log, done);
				if (workload_now() - start >= seconds)
					break;
			}
		}
		workload_log_count(log, done);
		workload_sleep_step(&next, (long)(step * 1e9));
	}
	return 0;
}

/*
 * One thread that wakes every period_ms for seconds, each time dropping a
 * page and touching it again (a fault): a busy server's thread, cheap.
 */
static int workload_waker(double period_ms, double seconds)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	double start = workload_now();
	struct timespec next;

	if (buf == MAP_FAILED || period_ms <= 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (workload_now() - start < seconds) {
		madvise(buf, (size_t)page, MADV_DONTNEED);
		*(volatile char *)buf = 1;
		workload_sleep_step(&next, (long)(period_ms * 1e6));
	}
	return 0;
}

struct workload_spin {
	double until;
};

struct workload_thread {
	const struct workload_spin *spin;
	pid_t tid;
};

static void *workload_spin_thread(void *arg)
{
	struct workload_thread *t = arg;
	volatile unsigned long x = 0;

	t->tid = (pid_t)syscall(SYS_gettid);
	while (workload_now() < t->spin->until)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	return NULL;
}

static double workload_cputime(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Until the monotonic time until, every 10 ms a line "WALL PROCESS THREAD..." of CPU seconds used
 * so far by the whole process and by each of the n threads of clocks (none when n is 0).
 */
static void workload_log_cpu(FILE *log, const clockid_t *clocks, int n, double until)
{
	struct timespec ts = { 0, 10000000 };

	do {
		if (log) {
			fprintf(log, "%.6f %.6f", workload_wall(),
				workload_cputime(CLOCK_PROCESS_CPUTIME_ID));
			for (int i = 0; i < n; i++)
				fprintf(log, " %.6f", workload_cputime(clocks[i]));
			fputc('\n', log);
		}
		nanosleep(&ts, NULL);
	} while (workload_now() < until);
}

/*
 * Busy threads beside a main thread that sleeps or, with a log, wakes every 10 ms to log the CPU
 * time used; the log opens with "tids TID..." of the busy threads.
 */
static int workload_spin(int threads, double seconds, FILE *log)
{
	pthread_t t[64];
	struct workload_thread w[64];
	clockid_t clocks[64];
	struct workload_spin s = { workload_now() + seconds };

	if (threads < 1 || threads > 64)
		return 2;
	for (int i = 0; i < threads; i++) {
		w[i].spin = &s;
		w[i].tid = 0;
		if (pthread_create(&t[i], NULL, workload_spin_thread, &w[i]) ||
		    pthread_getcpuclockid(t[i], &clocks[i]))
			return 1;
	}
	if (log) {
		bool all;

		do {
			all = true;
			for (int i = 0; i < threads; i++)
				all = all && __atomic_load_n(&w[i].tid, __ATOMIC_ACQUIRE) != 0;
		} while (!all && workload_now() < s.until);
		fprintf(log, "tids");
		for (int i = 0; i < threads; i++)
			fprintf(log, " %d", (int)__atomic_load_n(&w[i].tid, __ATOMIC_ACQUIRE));
		fputc('\n', log);
		workload_log_cpu(log, clocks, threads, s.until);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/* One relay worker: logs its tid, then sleeps its turn. */
static void *workload_relay_thread(void *arg)
{
	FILE *log = arg;
	struct timespec ts = { 1, 0 };

	fprintf(log, "tid %ld\n", (long)syscall(SYS_gettid));
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	return NULL;
}

/*
 * WORKERS threads one after the other, each alive 1 s: the process keeps two
 * threads while each one's tid is new, so a thread list kept from the last
 * tick is wrong by its tids, not by its length.
 */
static int workload_relay(int workers, FILE *log)
{
	struct timespec ts = { 1, 0 };

	/* a second for the watchers to attach */
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	for (int i = 0; i < workers; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, workload_relay_thread, log))
			return 1;
		pthread_join(t, NULL);
	}
	fprintf(log, "done\n");
	return 0;
}

/* Busy threads that exit, then an idle main thread: counts must not go backwards. */
static int workload_burst(int threads, double spin, double idle, FILE *log)
{
	struct timespec ts = { (time_t)idle, (long)((idle - (double)(time_t)idle) * 1e9) };
	int r = workload_spin(threads, spin, log);

	if (log)
		workload_log_cpu(log, NULL, 0, workload_now() + idle);
	else
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	return r;
}

/*
 * Four hot pages of one named mapping, dropped with MADV_DONTNEED and touched
 * again in turn, so each touch is a fault; one cold page now and then. Prints
 * the four page addresses first.
 */
static int workload_hotpages(long rate, double seconds, FILE *log)
{
	long page = sysconf(_SC_PAGESIZE);
	const long npages = 32;
	/* a file of the caller's naming (hostile_names.sh), else an anonymous one */
	const char *path = getenv("WORKLOAD_MAPFILE");
	int fd = path ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)
		      : memfd_create("pmctop-hot", 0);
	char *buf;
	double start = workload_now();
	long done = 0, hot = 0;
	struct timespec next;

	if (fd < 0 || ftruncate(fd, page * npages))
		return 1;
	buf = mmap(NULL, (size_t)(page * npages), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (buf == MAP_FAILED)
		return 1;
	for (int i = 0; i < 4; i++)
		printf("%p\n", (void *)(buf + (3 + 5 * i) * page));
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &next);
	workload_log_count(log, 0);
	while (workload_now() - start < seconds) {
		long want = (long)((workload_now() - start) * (double)rate);

		if (done < want)
			workload_log_count(log, done);
		while (done < want) {
			/* every eighth touch goes to one of the cold pages */
			long k = done % 8 == 7 ? 25 + done / 8 % 6 : 3 + 5 * (hot++ % 4);
			char *p = buf + k * page;

			madvise(p, (size_t)page, MADV_DONTNEED);
			*(volatile char *)p = 1;
			done++;
			if (done % 64 == 0) {
				workload_log_count(log, done);
				if (workload_now() - start >= seconds)
					break;
			}
		}
		workload_log_count(log, done);
		workload_sleep_step(&next, 5000000);
	}
	return 0;
}

/*
 * Mappings that come and go: each round grows the heap by 2 MiB with sbrk and touches it, maps
 * the 4 MiB file DIR/data.bin, writes every page, unmaps it and gives the heap back: two thirds
 * of the faults are in data.bin and one third in [heap], in mappings that are gone by the time
 * anyone reads /proc/PID/maps.
 */
static int workload_mappings(double seconds, const char *dir)
{
	const size_t heap = 2u << 20, file = 4u << 20;
	long page = sysconf(_SC_PAGESIZE);
	double start = workload_now();
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/data.bin", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)file)) {
		perror(path);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (workload_now() - start < seconds) {
		char *h = sbrk((intptr_t)heap), *m;

		if (h == (void *)-1)
			return 1;
		for (size_t off = 0; off < heap; off += (size_t)page)
			h[off] = 1;
		m = mmap(NULL, file, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			return 1;
		for (size_t off = 0; off < file; off += (size_t)page)
			m[off] = 1;
		munmap(m, file);
		if (sbrk(-(intptr_t)heap) == (void *)-1)
			return 1;
		usleep(2000);
	}
	close(fd);
	return 0;
}

/*
 * A stream over an array of PAGES pages (8192: 32 MiB), one write per 4 KiB page, pass after pass,
 * RATE writes a second; each pass begins with MADV_DONTNEED so that every write faults, exactly
 * one fault per page (no huge pages). Prints the array's address.
 */
static int workload_stream(double seconds, long pages, long rate)
{
	const size_t stride = 4096, len = (size_t)pages * stride;
	double start = workload_now();
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long done = 0, k = 0;
	struct timespec next;

	if (a == MAP_FAILED || pages <= 0)
		return 1;
	madvise(a, len, MADV_NOHUGEPAGE);
	printf("%p\n", (void *)a);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (workload_now() - start < seconds) {
		long want = (long)((workload_now() - start) * (double)rate);

		while (done < want) {
			if (k == 0)
				madvise(a, len, MADV_DONTNEED);
			a[(size_t)k * stride] = 1;
			k = (k + 1) % pages;
			done++;
		}
		workload_sleep_step(&next, 5000000);
	}
	return 0;
}

/*
 * Maps each FILE (up to 8) readable and executable and calls the code at its offset 0x1000 (x86-64:
 * mov byte [rdi], 1; ret) on a page of its own, pass after pass, each pass after MADV_DONTNEED,
 * so every call faults with its instruction in the file's mapping, one file per page. It maps them
 * once a line (or the end) comes on standard input, and prints "ready" once every file is mapped; the files can then be renamed, replaced or unlinked under it.
 */
static int workload_execmap(double seconds, int n, char **files)
{
	const size_t page = 4096, len = 8 * page;
	double start = workload_now();
	void (*fn[8])(char *);
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	char go[16];

	if (a == MAP_FAILED || n < 1 || n > 8)
		return 1;
	/* a line on standard input (or its end) says when to map */
	if (!fgets(go, sizeof(go), stdin))
		clearerr(stdin);
	for (int i = 0; i < n; i++) {
		int fd = open(files[i], O_RDONLY);
		off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
		char *m;

		if (size < (off_t)(2 * page))
			return 1;
		m = mmap(NULL, (size_t)size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		close(fd);
		if (m == MAP_FAILED)
			return 1;
		fn[i] = (void (*)(char *))(uintptr_t)(m + page);
	}
	printf("ready\n");
	fflush(stdout);
	while (workload_now() - start < seconds) {
		for (int k = 0; k < 16; k++) {
			madvise(a, len, MADV_DONTNEED);
			for (int i = 0; i < n; i++)
				fn[i](a + (size_t)i * page);
		}
		usleep(2000);
	}
	return 0;
}

static void *workload_nothing(void *arg)
{
	return arg;
}

/*
 * rate short-lived processes and as many short-lived threads per second, then print how many.
 * With hold, it prints "held" and waits for SIGUSR1 before it starts and, once it has printed, stays
 * until it is killed, so a test can look at pmctop before and after with the same processes.
 */
static int workload_churn(long rate, double seconds, bool hold)
{
	double start;
	long done = 0;
	sigset_t usr1;
	int sig;

	signal(SIGCHLD, SIG_IGN); /* children reap themselves */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (hold) {
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		/* a SIGUSR1 before this line would have killed it: say when it is safe */
		printf("held\n");
		fflush(stdout);
		sigwait(&usr1, &sig);
	}
	start = workload_now();
	while (workload_now() - start < seconds) {
		long want = (long)((workload_now() - start) * (double)rate);

		while (done < want) {
			pthread_t t;
			pid_t p = fork();

			if (p == 0)
				_exit(0);
			if (pthread_create(&t, NULL, workload_nothing, NULL) == 0)
				pthread_join(t, NULL);
			done++;
			/* starved, it would catch up for ever: stop on time */
			if (done % 16 == 0 && workload_now() - start >= seconds)
				break;
		}
		usleep(2000);
	}
	printf("%ld\n", done);
	fflush(stdout);
	if (hold)
		for (;;)
			pause();
	return 0;
}

static void *workload_sleeper(void *arg)
{
	pause();
	return arg;
}

/* A process of many idle threads, for the cost of counting threads. */
static int workload_idle(int threads, double seconds)
{
	pthread_t t;
	struct timespec ts = { (time_t)seconds, 0 };

	for (int i = 0; i < threads; i++)
		if (pthread_create(&t, NULL, workload_sleeper, NULL))
			return 1;
	nanosleep(&ts, NULL);
	return 0;
}

struct workload_crowd {
	double busy; /* seconds of spinning after each second of sleep */
};

static void *workload_crowd_thread(void *arg)
{
	const struct workload_crowd *c = arg;
	struct timespec ts = { 1, 0 };
	volatile unsigned long x = 0;

	for (;;) {
		double until;

		nanosleep(&ts, NULL);
		until = workload_now() + c->busy;
		while (workload_now() < until)
			for (int i = 0; i < 1000; i++)
				x += (unsigned long)i;
	}
	return NULL;
}

/*
 * A crowd: THREADS threads that each sleep a second and spin BUSY ms, over
 * and over, beside a main thread that sleeps: a process whose CPU time is
 * spread over many threads. Writes "ready" to the log once all run.
 */
static int workload_crowd_run(int threads, double busy_ms, FILE *log)
{
	static struct workload_crowd c;
	pthread_attr_t at;
	pthread_t t;

	c.busy = busy_ms / 1000.0;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 << 10);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t, &at, workload_crowd_thread, &c))
			return 1;
	if (log) {
		fprintf(log, "ready\n");
		fflush(log);
	}
	for (;;)
		pause();
	return 0;
}

/* An idle thread of swap: a pipe of its own, so that a byte sent wakes it alone. */
struct workload_swap {
	int pipe[2];
	FILE *log;
};

/* An idle thread of swap: logs "idle TID", sleeps in read(); a byte read, it ends. */
static void *workload_swap_idle(void *arg)
{
	struct workload_swap *w = arg;
	char c;

	fprintf(w->log, "idle %ld\n", (long)syscall(SYS_gettid));
	while (read(w->pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	/* nothing logged, no lock shared: it may end without a switch after it woke */
	return NULL;
}

/* An idle thread of swap started at a SIGUSR1: logs "idle TID", sleeps until the end. */
static void *workload_swap_late(void *arg)
{
	fprintf(((struct workload_swap *)arg)->log, "idle %ld\n", (long)syscall(SYS_gettid));
	for (;;)
		pause();
	return NULL;
}

/* The busy thread of swap: 1 ms of spinning every 10 ms, so it runs in every tick. */
static void *workload_swap_busy(void *arg)
{
	struct timespec ts = { 0, 10000000 };
	volatile unsigned long x = 0;

	fprintf(((struct workload_swap *)arg)->log, "busy %ld\n", (long)syscall(SYS_gettid));
	for (;;) {
		double until = workload_now() + 0.001;

		while (workload_now() < until)
			for (int i = 0; i < 1000; i++)
				x += (unsigned long)i;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/*
 * A process of one thread busy every 10 ms and IDLE threads asleep in a
 * read, beside a main thread asleep in sigwait; at each SIGUSR1 it starts a
 * new idle thread and ends an old one, so that the count stays; logs each
 * thread's tid ("busy TID", "idle TID" from the threads themselves) and
 * "ready", "swapped"; ends after SECONDS.
 */
static int workload_swap(int idle, double seconds, FILE *log)
{
	static struct workload_swap w[64];
	pthread_t t;
	sigset_t usr1;
	struct timespec ts = { 0, 0 };
	double until = workload_now() + seconds;
	int sig, ended = 0;

	if (!log || idle < 1 || idle > 64)
		return 1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	w[0].log = log;
	if (pthread_create(&t, NULL, workload_swap_busy, &w[0]))
		return 1;
	for (int i = 0; i < idle; i++) {
		w[i].log = log;
		if (pipe(w[i].pipe) || pthread_create(&t, NULL, workload_swap_idle, &w[i]))
			return 1;
	}
	fprintf(log, "ready\n");
	for (;;) {
		double left = until - workload_now();

		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(&usr1, NULL, &ts);
		if (sig != SIGUSR1 || ended == idle)
			continue;
		if (pthread_create(&t, NULL, workload_swap_late, &w[0]) ||
		    write(w[ended++].pipe[1], "x", 1) != 1)
			return 1;
		fprintf(log, "swapped\n");
	}
}

/*
 * THREADS sleeping threads and a main thread that, once sent SIGUSR1, wakes
 * three times a second apart to fault 200 pages, logs "faults N" and sleeps
 * until killed: a mostly idle process of many threads.
 */
static int workload_napper(int threads, FILE *log)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = mmap(NULL, (size_t)(page * 200), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t t;
	sigset_t usr1;
	long done = 0;
	int sig;

	if (buf == MAP_FAILED)
		return 1;
	/* the threads inherit the mask: only sigwait takes the signal */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t, NULL, workload_sleeper, NULL))
			return 1;
	if (log) {
		fprintf(log, "ready\n");
		fflush(log);
	}
	sigwait(&usr1, &sig);
	for (int burst = 0; burst < 3; burst++) {
		usleep(burst ? 1000000 : 300000);
		for (int i = 0; i < 200; i++) {
			madvise(buf + i * page, (size_t)page, MADV_DONTNEED);
			*(volatile char *)(buf + i * page) = 1;
			done++;
		}
	}
	if (log) {
		fprintf(log, "faults %ld\n", done);
		fclose(log);
	}
	for (;;)
		pause();
}

/* Name the process NAME (its comm, as prctl sets it: 15 bytes at most) and sleep. */
static int workload_named(const char *name, double seconds)
{
	struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };

	if (prctl(PR_SET_NAME, name, 0, 0, 0))
		return 1;
	nanosleep(&ts, NULL);
	return 0;
}

static int workload_pipes[2][2];

/* The other end of the ping-pong: send back every byte. */
static void *workload_pong(void *arg)
{
	char c;

	while (read(workload_pipes[0][0], &c, 1) == 1)
		if (write(workload_pipes[1][1], &c, 1) != 1)
			break;
	return arg;
}

/*
 * rate round trips per second through two pipes between two threads of the
 * process: each blocks in read every trip, so both switch context (a known
 * source of context switches for CS/s).
 */
static int workload_pingpong(long rate, double seconds)
{
	double start = workload_now();
	long done = 0;
	pthread_t t;
	char c = 'x';

	if (pipe(workload_pipes[0]) || pipe(workload_pipes[1]) ||
	    pthread_create(&t, NULL, workload_pong, NULL))
		return 1;
	while (workload_now() - start < seconds) {
		long want = (long)((workload_now() - start) * (double)rate);

		while (done < want) {
			if (write(workload_pipes[0][1], &c, 1) != 1 ||
			    read(workload_pipes[1][0], &c, 1) != 1)
				return 1;
			done++;
		}
		usleep(1000);
	}
	close(workload_pipes[0][1]);
	pthread_join(t, NULL);
	printf("%ld\n", done);
	return 0;
}

/* The spinner of a job: how long it spins, and the context switches it had (its own). */
struct workload_job_spin {
	double s;
	long switches;
};

static void *workload_job_spin(void *arg)
{
	struct workload_job_spin *sp = arg;
	double until = workload_cpu_now() + sp->s;
	struct rusage r;

	while (workload_cpu_now() < until)
		;
	if (!getrusage(RUSAGE_THREAD, &r))
		sp->switches = r.ru_nvcsw + r.ru_nivcsw;
	return NULL;
}

/* The pipe a kept spinner tells its end on. */
static int workload_job_done[2];

/* The same spin, then the thread stays (it never exits while watched): it says when done. */
static void *workload_job_spin_keep(void *arg)
{
	char c = 1;

	workload_job_spin(arg);
	if (write(workload_job_done[1], &c, 1) != 1)
		exit(1);
	for (;;)
		pause();
	return NULL;
}

/*
 * A fixed amount of work, started by a line on fifo and logged with the
 * process's own accounts of it (getrusage, the process CPU clock): pages
 * first touched (one minor fault each), sleeps (one context switch each)
 * and spin_ms of CPU time on a second thread (which exits, or with keep
 * stays to the end), whose own context switches come last on the log line
 * (it is preempted more the busier the machine); then it waits to be killed, so that a counter attached
 * per thread keeps the counts to the end.
 */
static int workload_job(long pages, long sleeps, double spin_ms, const char *fifo, FILE *log,
			bool keep)
{
	long page = sysconf(_SC_PAGESIZE);
	struct timespec nap = { 0, 50000 };
	struct rusage r0, r1;
	double c0, c1;
	struct workload_job_spin spin = { spin_ms / 1000, 0 };
	pthread_t t;
	char line[16];
	FILE *f = fopen(fifo, "r");
	char *buf;

	if (!f || !fgets(line, sizeof(line), f))
		return 1;
	fclose(f);
	getrusage(RUSAGE_SELF, &r0);
	c0 = workload_cpu_now();
	buf = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	/* one fault per page: no huge page may serve many at once */
	madvise(buf, (size_t)(pages * page), MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		buf[i * page] = 1;
	for (long i = 0; i < sleeps; i++)
		nanosleep(&nap, NULL);
	if (keep) {
		char c;

		/* no thread exits during the work: every interval's counts are exact */
		if (pipe(workload_job_done) ||
		    pthread_create(&t, NULL, workload_job_spin_keep, &spin) ||
		    read(workload_job_done[0], &c, 1) != 1)
			return 1;
	} else if (pthread_create(&t, NULL, workload_job_spin, &spin) || pthread_join(t, NULL)) {
		return 1;
	}
	c1 = workload_cpu_now();
	getrusage(RUSAGE_SELF, &r1);
	fprintf(log, "%ld %ld %.0f %ld\n", r1.ru_minflt - r0.ru_minflt,
		(r1.ru_nvcsw + r1.ru_nivcsw) - (r0.ru_nvcsw + r0.ru_nivcsw), (c1 - c0) * 1e9,
		spin.switches);
	fclose(log);
	for (;;)
		pause();
}

/* The team's threads: started together, done counted under the lock. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t go, done;
	bool started;
	int finished;
	long sleeps, switches;
} workload_team_state = { PTHREAD_MUTEX_INITIALIZER,
			  PTHREAD_COND_INITIALIZER,
			  PTHREAD_COND_INITIALIZER,
			  false,
			  0,
			  0,
			  0 };

/* One of the team: waits for the start, sleeps 2 ms SLEEPS times, adds its switches, stays. */
static void *workload_team_thread(void *arg)
{
	struct timespec nap = { 0, 2000000 };
	struct rusage r0, r1;

	(void)arg;
	pthread_mutex_lock(&workload_team_state.lock);
	while (!workload_team_state.started)
		pthread_cond_wait(&workload_team_state.go, &workload_team_state.lock);
	pthread_mutex_unlock(&workload_team_state.lock);
	getrusage(RUSAGE_THREAD, &r0);
	for (long i = 0; i < workload_team_state.sleeps; i++)
		nanosleep(&nap, NULL);
	getrusage(RUSAGE_THREAD, &r1);
	pthread_mutex_lock(&workload_team_state.lock);
	workload_team_state.switches += (r1.ru_nvcsw + r1.ru_nivcsw) - (r0.ru_nvcsw + r0.ru_nivcsw);
	workload_team_state.finished++;
	pthread_cond_signal(&workload_team_state.done);
	pthread_mutex_unlock(&workload_team_state.lock);
	/* no thread exits while watched: every interval's counts can be exact */
	for (;;)
		pause();
	return NULL;
}

/*
 * THREADS threads that, once a line is read from fifo, each sleep 2 ms
 * SLEEPS times (a switch each), then stay asleep to the end: a process of
 * many threads that all run in every tick for a while. Logs "ready" once
 * they are made, and at the end the switches the threads counted in their
 * loops (getrusage of each); then waits to be killed.
 */
static int workload_team(int threads, long sleeps, const char *fifo, FILE *log)
{
	pthread_attr_t at;
	pthread_t t;
	char line[16];
	FILE *f;

	workload_team_state.sleeps = sleeps;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 << 10);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t, &at, workload_team_thread, NULL))
			return 1;
	fprintf(log, "ready\n");
	f = fopen(fifo, "r");
	if (!f || !fgets(line, sizeof(line), f))
		return 1;
	fclose(f);
	pthread_mutex_lock(&workload_team_state.lock);
	workload_team_state.started = true;
	pthread_cond_broadcast(&workload_team_state.go);
	while (workload_team_state.finished < threads)
		pthread_cond_wait(&workload_team_state.done, &workload_team_state.lock);
	fprintf(log, "switches %ld\n", workload_team_state.switches);
	pthread_mutex_unlock(&workload_team_state.lock);
	fclose(log);
	for (;;)
		pause();
}

/*
 * Page faults on memory bound to node, from a thread pinned to cpu: a
 * remote access for every sample when cpu is on another node.
 */
static int workload_numa(int node, int cpu, long rate, double seconds)
{
	unsigned long mask = 1ul << node;
	cpu_set_t set;

	/* MPOL_BIND (2); the kernel reads maxnode - 1 bits */
	if (node < 0 || node >= 64 ||
	    syscall(SYS_set_mempolicy, 2, &mask, sizeof(mask) * 8 + 1) < 0) {
		perror("workload: set_mempolicy");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("workload: sched_setaffinity");
		return 1;
	}
	return workload_faults(rate, seconds, NULL);
}

int main(int argc, char **argv)
{
	/* an optional last argument names the log of what the workload really did */
	const char *log = NULL;

	if (argc == 4 && !strcmp(argv[1], "named"))
		return workload_named(argv[2], atof(argv[3]));
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "job"))
		return workload_job(atol(argv[2]), atol(argv[3]), atof(argv[4]), argv[5],
				    workload_log_open(argv[6]),
				    argc == 8 && !strcmp(argv[7], "keep"));
	if (argc == 4 && !strcmp(argv[1], "pingpong"))
		return workload_pingpong(atol(argv[2]), atof(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "napper"))
		return workload_napper(atoi(argv[2]), workload_log_open(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "swap"))
		return workload_swap(atoi(argv[2]), atof(argv[3]), workload_log_open(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "team"))
		return workload_team(atoi(argv[2]), atol(argv[3]), argv[4],
				     workload_log_open(argv[5]));
	if (argc == 5 && !strcmp(argv[1], "crowd"))
		return workload_crowd_run(atoi(argv[2]), atof(argv[3]), workload_log_open(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "idle"))
		return workload_idle(atoi(argv[2]), atof(argv[3]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "churn"))
		return workload_churn(atol(argv[2]), atof(argv[3]),
				      argc == 5 && !strcmp(argv[4], "hold"));
	if (argc == 5 && strcmp(argv[1], "burst"))
		log = argv[4];
	if (argc == 6 && !strcmp(argv[1], "burst"))
		log = argv[5];
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "hotpages"))
		return workload_hotpages(atol(argv[2]), atof(argv[3]), workload_log_open(log));
	if (argc == 4 && !strcmp(argv[1], "relay"))
		return workload_relay(atoi(argv[2]), workload_log_open(argv[3]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "burst"))
		return workload_burst(atoi(argv[2]), atof(argv[3]), atof(argv[4]),
				      workload_log_open(log));
	if (argc == 4 && !strcmp(argv[1], "waker"))
		return workload_waker(atof(argv[2]), atof(argv[3]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "faults"))
		return workload_faults(atol(argv[2]), atof(argv[3]), workload_log_open(log));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "spin"))
		return workload_spin(atoi(argv[2]), atof(argv[3]), workload_log_open(log));
	if (argc == 4 && !strcmp(argv[1], "mappings"))
		return workload_mappings(atof(argv[2]), argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "execmap"))
		return workload_execmap(atof(argv[2]), argc - 3, argv + 3);
	if (argc == 5 && !strcmp(argv[1], "stream"))
		return workload_stream(atof(argv[2]), atol(argv[3]), atol(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "numa"))
		return workload_numa(atoi(argv[2]), atoi(argv[3]), atol(argv[4]), atof(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "sleep")) {
		double s = atof(argv[2]);
		struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return 0;
	}
	fprintf(stderr,
		"usage: workload faults RATE SECONDS [LOG] | waker PERIOD_MS SECONDS | "
		"spin THREADS SECONDS [LOG] | "
		"burst THREADS SPIN IDLE [LOG] | relay WORKERS LOG | hotpages RATE SECONDS [LOG] | "
		"churn RATE SECONDS [hold] | idle THREADS SECONDS | napper THREADS LOG | "
		"crowd THREADS BUSY_MS LOG | team THREADS SLEEPS FIFO LOG | "
		"swap IDLE SECONDS LOG | "
		"pingpong RATE SECONDS | job PAGES SLEEPS SPIN_MS FIFO LOG [keep] | "
		"named NAME SECONDS | mappings SECONDS DIR | stream SECONDS PAGES RATE | "
		"execmap SECONDS FILE... | numa NODE CPU RATE SECONDS | sleep SECONDS\n");
	return 2;
}
