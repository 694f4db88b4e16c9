/* What being watched costs a process: pipe ping-pong and thread create/join, with and without a watcher. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Per-thread counters add work to the context switches of the tasks they
 * count (the kernel switches the counters' context in and out) and to
 * every clone of a counted task (inherited counters are copied to the
 * child). The two loops below are made of nothing else: a pipe round trip
 * between two processes is two context switches on each side, a thread
 * create/join is a clone and an exit. Each runs in a process made before
 * the watcher starts (so it is attached, not discovered), released once
 * the watcher has settled; runs with and without the watcher alternate.
 */

struct wc_result {
	double wall_us; /* wall time of the loop */
	double cpu_us;	/* user + system time of every task of the loop */
};

static double wc_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double wc_tv_us(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e6 + (double)tv->tv_usec;
}

static double wc_ru_us(const struct rusage *ru)
{
	return wc_tv_us(&ru->ru_utime) + wc_tv_us(&ru->ru_stime);
}

static int wc_full_read(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The ping-pong: the runner sends a byte, its partner sends it back, rounds times. */
static void wc_pingpong(long rounds, struct wc_result *res)
{
	int to[2], from[2];
	char c = 'x';
	pid_t partner;
	struct rusage r0, r1, rp;
	int status;
	double t0;

	if (pipe(to) || pipe(from))
		exit(1);
	partner = fork();
	if (partner < 0)
		exit(1);
	if (partner == 0) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1)
			if (write(from[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	getrusage(RUSAGE_SELF, &r0);
	t0 = wc_now_us();
	for (long i = 0; i < rounds; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			exit(1);
	res->wall_us = wc_now_us() - t0;
	getrusage(RUSAGE_SELF, &r1);
	close(to[1]);
	close(from[0]);
	while (wait4(partner, &status, 0, &rp) < 0 && errno == EINTR)
		;
	/* the partner did nothing but the loop */
	res->cpu_us = wc_ru_us(&r1) - wc_ru_us(&r0) + wc_ru_us(&rp);
}

static void *wc_nothing(void *arg)
{
	return arg;
}

static void wc_threads(long rounds, struct wc_result *res)
{
	struct rusage r0, r1;
	double t0;

	getrusage(RUSAGE_SELF, &r0);
	t0 = wc_now_us();
	for (long i = 0; i < rounds; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, wc_nothing, NULL) || pthread_join(t, NULL))
			exit(1);
	}
	res->wall_us = wc_now_us() - t0;
	getrusage(RUSAGE_SELF, &r1);
	res->cpu_us = wc_ru_us(&r1) - wc_ru_us(&r0);
}

struct wc_runner {
	pid_t pid;
	int go;	  /* written to release the runner */
	int done; /* the runner's struct wc_result */
};

/* A runner waits for its go byte, runs the loop, sends its result and exits. */
static int wc_runner_start(struct wc_runner *r, int which, long rounds)
{
	int go[2], done[2];

	if (pipe(go) || pipe(done))
		return -errno;
	r->pid = fork();
	if (r->pid < 0)
		return -errno;
	if (r->pid == 0) {
		struct wc_result res;
		char c;

		close(go[1]);
		close(done[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		if (which == 0)
			wc_pingpong(rounds, &res);
		else
			wc_threads(rounds, &res);
		if (write(done[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	r->go = go[1];
	r->done = done[0];
	return 0;
}

static int wc_runner_finish(struct wc_runner *r, struct wc_result *res)
{
	int status, err = 0;

	if (write(r->go, "g", 1) != 1 || wc_full_read(r->done, res, sizeof(*res)))
		err = -EIO;
	close(r->go);
	close(r->done);
	while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		err = -EIO;
	return err;
}

static pid_t wc_watcher_start(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
			close(null);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wc_watcher_stop(pid_t pid)
{
	int status;

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* a watcher that could not run measured nothing */
	return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT : 0;
}

static int wc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double wc_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), wc_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void wc_usage(void)
{
	fprintf(stderr, "usage: watched_cost [--rounds N] [--threads N] [--reps R] [--settle S] "
			"-- WATCHER [ARG]...\n"
			"  e.g. watched_cost -- pmctop -b -d 0.5\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long rounds[2] = { 200000, 20000 };
	int reps = 5, i;
	double settle = 1.5;
	static const char *const what[2] = { "pipe round trip", "thread create+join" };

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 >= argc)
			wc_usage();
		if (!strcmp(argv[i], "--rounds"))
			rounds[0] = atol(argv[++i]);
		else if (!strcmp(argv[i], "--threads"))
			rounds[1] = atol(argv[++i]);
		else if (!strcmp(argv[i], "--reps"))
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--settle"))
			settle = atof(argv[++i]);
		else
			wc_usage();
	}
	if (i + 1 >= argc || rounds[0] <= 0 || rounds[1] <= 0 || reps <= 0 || reps > 100 ||
	    settle < 0)
		wc_usage();
	argv += i + 1;

	printf("watcher:");
	for (char **a = argv; *a; a++)
		printf(" %s", *a);
	printf("\n%-20s %-9s %23s %23s %9s\n", "loop", "watched", "wall us/op min median",
	       "CPU us/op min median", "overhead");
	fflush(stdout);
	for (int w = 0; w < 2; w++) {
		/* [watched][rep] */
		double wall[2][100], cpu[2][100], med[2][2], pair[100];

		for (int r = 0; r < reps; r++)
			for (int watched = 0; watched < 2; watched++) {
				/* alternate which goes first, so a drift in load hits both */
				int on = r % 2 ? !watched : watched;
				struct wc_runner run;
				struct wc_result res;
				pid_t watcher = 0;
				struct timespec ts = { (time_t)settle,
						       (long)((settle - (time_t)settle) * 1e9) };

				if (wc_runner_start(&run, w, rounds[w])) {
					perror("watched_cost: fork");
					return 1;
				}
				if (on)
					watcher = wc_watcher_start(argv);
				nanosleep(&ts, NULL);
				if (wc_runner_finish(&run, &res)) {
					fprintf(stderr, "watched_cost: the %s loop failed\n",
						what[w]);
					return 1;
				}
				if (on && wc_watcher_stop(watcher)) {
					fprintf(stderr, "watched_cost: cannot run %s\n", argv[0]);
					return 1;
				}
				wall[on][r] = res.wall_us / (double)rounds[w];
				cpu[on][r] = res.cpu_us / (double)rounds[w];
			}
		/*
		 * each rep's pair ran a few seconds apart: the median of the pairs'
		 * ratios leaves out a load that drifts over minutes, which the
		 * ratio of the two medians does not
		 */
		for (int r = 0; r < reps; r++)
			pair[r] = cpu[1][r] / cpu[0][r] - 1;
		for (int on = 0; on < 2; on++) {
			med[on][0] = wc_median(wall[on], reps);
			med[on][1] = wc_median(cpu[on], reps);
			printf("%-20s %-9s %11.3f %11.3f %11.3f %11.3f", what[w], on ? "yes" : "no",
			       wall[on][0], med[on][0], cpu[on][0], med[on][1]);
			if (on)
				printf(" %+8.1f%% wall, %+.1f%% CPU, %+.1f%% CPU paired",
				       100 * (med[1][0] - med[0][0]) / med[0][0],
				       100 * (med[1][1] - med[0][1]) / med[0][1],
				       100 * wc_median(pair, reps));
			printf("\n");
			fflush(stdout);
		}
	}
	return 0;
}
