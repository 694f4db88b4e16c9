/* Guest workload for the QEMU test bed: an exactly known number of aarch64 instructions. */
/*
 * Every mode waits for SIGUSR1 before it works, so a monitor can attach first, and for SIGTERM
 * after, so its counts stay readable. The work is wl_loop(N): N iterations of a loop of exactly
 * five instructions, so K calls in T threads retire 5 * N * K * T user-mode instructions plus a
 * small constant (the calls, thread start and join: thousands, against hundreds of millions).
 *
 *   wl spin N K          one thread
 *   wl threads T N K     T threads, created before the wait, each does K loops
 *   wl late T N K        T threads created after SIGUSR1, each does K loops
 *   wl timed C M         one thread, C chunks of M iterations, the clock read after each
 *   wl duty B P K CPU    one thread pinned to CPU, busy B ms of every P ms, K periods
 *   wl numa NODE CPU S   page faults for S seconds on memory bound to NODE, pinned to CPU;
 *                        at once, without waiting, and then until killed
 *
 * It writes "wl done INSTRUCTIONS" to standard output when the work is over.
 *
 * timed is spin that knows when it ran: each chunk is wl_loop's five instructions M times and
 * eight more (reading the virtual counter CNTVCT_EL0 among them), so C chunks retire exactly
 * C * (5 * M + 8) user-mode instructions. A chunk that took longer than "wl timed thresh" ticks
 * of the counter held a gap, a time in which the thread did not run (another task ran, or the
 * kernel); the gaps are kept and written after the work as "wl gap LEFT V DV": LEFT chunks were
 * still to go when the chunk with the gap ended at counter value V, DV ticks after the one
 * before. "wl clock T0 V0 T1 V1" pairs CLOCK_MONOTONIC (ns) with the counter at the start and
 * end, so the host converts counter values to the monotonic times a monitor records.
 *
 * duty is busy by the guest's clock: it loops until B ms of CLOCK_MONOTONIC have passed since
 * it woke, then sleeps to the next period's start (absolute, so periods do not drift), and
 * writes "wl duty T0 T1", the monotonic ns of its first period's start and its end, and
 * "wl burst WAKE END" for each period.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef __aarch64__
#error "this workload counts aarch64 instructions"
#endif

struct wl_args {
	unsigned long n, k;
	int start_fd; /* read one byte before working; -1: start at once */
};

/* N iterations of exactly five instructions; n must be at least 1. */
static void wl_loop(unsigned long n)
{
	unsigned long a = 0, b = 1, c = 2;

	__asm__ volatile("1:\n\t"
			 "add %[a], %[a], #1\n\t"
			 "eor %[b], %[b], %[a]\n\t"
			 "add %[c], %[c], %[b]\n\t"
			 "subs %[n], %[n], #1\n\t"
			 "b.ne 1b\n\t"
			 : [n] "+r"(n), [a] "+r"(a), [b] "+r"(b), [c] "+r"(c)
			 :
			 : "cc");
}

static uint64_t wl_counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static uint64_t wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct wl_gap {
	uint64_t left, v, dv;
};

/*
 * c chunks (c >= 1) of m iterations (m >= 1) of wl_loop's five instructions; each chunk ends
 * with eight more instructions, of which one reads the counter: a chunk retires exactly
 * 5 * m + 8 instructions. A chunk that took more than thresh ticks is stored in gaps (at most
 * ngaps; the few instructions that store one are the only others). Returns the gaps stored.
 */
static unsigned long wl_timed_loop(unsigned long c, unsigned long m, uint64_t thresh,
				   struct wl_gap *gaps, unsigned long ngaps)
{
	unsigned long a = 0, b = 1, x = 2, i, v, dv, last = wl_counter();
	struct wl_gap *g = gaps, *end = gaps + ngaps;

	__asm__ volatile("0:\n\t"
			 "mov %[i], %[m]\n\t" /* 1 */
			 "1:\n\t"
			 "add %[a], %[a], #1\n\t"
			 "eor %[b], %[b], %[a]\n\t"
			 "add %[x], %[x], %[b]\n\t"
			 "subs %[i], %[i], #1\n\t"
			 "b.ne 1b\n\t"
			 "mrs %[v], cntvct_el0\n\t"	/* 2 */
			 "sub %[dv], %[v], %[last]\n\t" /* 3 */
			 "mov %[last], %[v]\n\t"	/* 4 */
			 "cmp %[dv], %[th]\n\t"		/* 5 */
			 "b.hi 3f\n\t"			/* 6 */
			 "2:\n\t"
			 "subs %[c], %[c], #1\n\t" /* 7 */
			 "b.ne 0b\n\t"		   /* 8 */
			 "b 4f\n\t"
			 "3:\n\t"
			 "cmp %[g], %[end]\n\t"
			 "b.hs 2b\n\t"
			 "str %[c], [%[g]]\n\t"
			 "stp %[v], %[dv], [%[g], #8]\n\t"
			 "add %[g], %[g], #24\n\t"
			 "b 2b\n\t"
			 "4:\n\t"
			 : [c] "+r"(c), [i] "=&r"(i), [a] "+r"(a), [b] "+r"(b), [x] "+r"(x),
			   [v] "=&r"(v), [dv] "=&r"(dv), [last] "+r"(last), [g] "+r"(g)
			 : [m] "r"(m), [th] "r"(thresh), [end] "r"(end)
			 : "cc", "memory");
	return (unsigned long)(g - gaps);
}

/* spin: c chunks of m iterations, then the gaps, the clock pairs; the instructions retired */
static unsigned long wl_timed(unsigned long c, unsigned long m)
{
	unsigned long ngaps = 200000, n;
	struct wl_gap *gaps = calloc(ngaps, sizeof(*gaps));
	uint64_t freq, thresh, t0, v0, t1, v1;

	if (!gaps)
		exit(1);
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(freq));
	/* a gap: 30 us more than the chunk takes alone (1 ns per instruction under -icount 0) */
	thresh = freq * ((5 * m + 8) + 30000) / 1000000000u;
	t0 = wl_now();
	v0 = wl_counter();
	n = wl_timed_loop(c, m, thresh, gaps, ngaps);
	v1 = wl_counter();
	t1 = wl_now();
	printf("wl timed chunks %lu m %lu per-chunk %lu freq %llu thresh %llu gaps %lu\n", c, m,
	       5 * m + 8, (unsigned long long)freq, (unsigned long long)thresh, n);
	printf("wl clock %llu %llu %llu %llu\n", (unsigned long long)t0, (unsigned long long)v0,
	       (unsigned long long)t1, (unsigned long long)v1);
	for (unsigned long i = 0; i < n; i++)
		printf("wl gap %llu %llu %llu\n", (unsigned long long)gaps[i].left,
		       (unsigned long long)gaps[i].v, (unsigned long long)gaps[i].dv);
	free(gaps);
	return c * (5 * m + 8);
}

/*
 * Busy b ms of every p ms of CLOCK_MONOTONIC, k periods, pinned to cpu. Each period's busy time
 * starts when the thread wakes, not when the period starts: a wake-up comes late when the host
 * runs QEMU late (an idle guest's clock follows the host's), and the thread is busy b ms all
 * the same. Writes each burst's start and end.
 */
static void wl_duty(unsigned long b, unsigned long p, unsigned long k, int cpu)
{
	cpu_set_t set;
	struct timespec ts;
	uint64_t start, t0, wake, *burst = calloc(2 * k + 2, sizeof(*burst));

	if (!burst)
		exit(1);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		exit(1);
	t0 = start = wl_now();
	for (unsigned long i = 0; i < k; i++) {
		burst[2 * i] = wake = wl_now();
		while ((burst[2 * i + 1] = wl_now()) - wake < b * 1000000u)
			wl_loop(10000);
		start += p * 1000000u;
		ts.tv_sec = (time_t)(start / 1000000000u);
		ts.tv_nsec = (long)(start % 1000000000u);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			;
	}
	printf("wl duty %llu %llu\n", (unsigned long long)t0, (unsigned long long)start);
	for (unsigned long i = 0; i < k; i++)
		printf("wl burst %llu %llu\n", (unsigned long long)burst[2 * i],
		       (unsigned long long)burst[2 * i + 1]);
	free(burst);
}

static void *wl_thread(void *p)
{
	const struct wl_args *a = p;
	char byte;

	if (a->start_fd >= 0 && read(a->start_fd, &byte, 1) != 1)
		return NULL;
	for (unsigned long i = 0; i < a->k; i++)
		wl_loop(a->n);
	return NULL;
}

static void wl_wait(sigset_t *set, int sig)
{
	int got;

	do {
		if (sigwait(set, &got))
			exit(1);
	} while (got != sig);
}

/*
 * Page faults for seconds on 64 pages bound to node (MPOL_BIND), from a
 * thread pinned to cpu: every access remote when cpu is on another node.
 */
static int wl_numa(int node, int cpu, double seconds)
{
	unsigned long mask = 1ul << node;
	long page = sysconf(_SC_PAGESIZE);
	struct timespec t0, t;
	unsigned long faults = 0;
	cpu_set_t cpus;
	char *buf;

	/* the kernel reads maxnode - 1 bits */
	if (node < 0 || node >= 64 || syscall(SYS_set_mempolicy, 2, &mask, 65) < 0) {
		perror("wl: set_mempolicy");
		return 1;
	}
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("wl: sched_setaffinity");
		return 1;
	}
	buf = mmap(NULL, (size_t)page * 64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	if (buf == MAP_FAILED)
		return 1;
	printf("wl ready %d\n", (int)getpid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 64; i++, faults++) {
			madvise(buf + i * page, (size_t)page, MADV_DONTNEED);
			*(volatile char *)(buf + i * page) = 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
	printf("wl done %lu faults on cpu %d\n", faults, sched_getcpu());
	fflush(stdout);
	pause();
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t set;
	int threads = 1, pipefd[2] = { -1, -1 }, cpu = 0;
	unsigned long n, k, p = 0, done;
	pthread_t tid[64];
	struct wl_args a;
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "numa") && argc == 5)
		return wl_numa(atoi(argv[2]), atoi(argv[3]), atof(argv[4]));
	if (!strcmp(mode, "spin") && argc == 4) {
		n = strtoul(argv[2], NULL, 10);
		k = strtoul(argv[3], NULL, 10);
	} else if ((!strcmp(mode, "threads") || !strcmp(mode, "late")) && argc == 5) {
		threads = atoi(argv[2]);
		n = strtoul(argv[3], NULL, 10);
		k = strtoul(argv[4], NULL, 10);
	} else if (!strcmp(mode, "timed") && argc == 4) {
		k = strtoul(argv[2], NULL, 10);
		n = strtoul(argv[3], NULL, 10);
		if (k < 1)
			return 2;
	} else if (!strcmp(mode, "duty") && argc == 6) {
		n = strtoul(argv[2], NULL, 10);
		p = strtoul(argv[3], NULL, 10);
		k = strtoul(argv[4], NULL, 10);
		cpu = atoi(argv[5]);
		if (n > p || cpu < 0 || cpu >= CPU_SETSIZE)
			return 2;
	} else {
		fprintf(stderr, "usage: wl spin N K | threads T N K | late T N K | timed C M | "
				"duty B P K CPU | numa NODE CPU SECONDS\n");
		return 2;
	}
	if (n < 1 || threads < 1 || threads > 64)
		return 2;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	a.n = n;
	a.k = k;
	a.start_fd = -1;
	if (!strcmp(mode, "threads")) {
		if (pipe(pipefd))
			return 1;
		a.start_fd = pipefd[0];
		for (int i = 0; i < threads; i++)
			if (pthread_create(&tid[i], NULL, wl_thread, &a))
				return 1;
	}
	printf("wl ready %d\n", (int)getpid());
	fflush(stdout);
	wl_wait(&set, SIGUSR1);
	done = 5 * n * k * (unsigned long)threads;
	if (!strcmp(mode, "timed")) {
		done = wl_timed(k, n);
	} else if (!strcmp(mode, "duty")) {
		wl_duty(n, p, k, cpu);
		done = 0;
	} else if (!strcmp(mode, "spin")) {
		wl_thread(&a);
	} else {
		if (!strcmp(mode, "late")) {
			for (int i = 0; i < threads; i++)
				if (pthread_create(&tid[i], NULL, wl_thread, &a))
					return 1;
		} else if (write(pipefd[1],
				 "gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg",
				 (size_t)threads) != threads) {
			return 1;
		}
		for (int i = 0; i < threads; i++)
			pthread_join(tid[i], NULL);
	}
	printf("wl done %lu\n", done);
	fflush(stdout);
	wl_wait(&set, SIGTERM);
	return 0;
}
