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
 *   wl numa NODE CPU S   page faults for S seconds on memory bound to NODE, pinned to CPU;
 *                        at once, without waiting, and then until killed
 *
 * It writes "wl done INSTRUCTIONS" to standard output when the work is over.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
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
	int threads = 1, pipefd[2] = { -1, -1 };
	unsigned long n, k;
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
	} else {
		fprintf(stderr, "usage: wl spin N K | threads T N K | late T N K | numa NODE CPU "
				"SECONDS\n");
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
	if (!strcmp(mode, "spin")) {
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
	printf("wl done %lu\n", 5 * n * k * (unsigned long)threads);
	fflush(stdout);
	wl_wait(&set, SIGTERM);
	return 0;
}
