/* Run a batch monitor and measure it: CPU time per frame after start-up, first frame, peak RSS. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_ns.h"

/*
 * runstat [-f HEADER -a A -b B] COMMAND [ARG]...
 *
 * The command's output comes through a pipe and is counted, not kept: a
 * line starting with HEADER begins a frame (both pmctop -b and top -b
 * write a frame's header once it has collected the frame's data). The CPU
 * time of the command's threads (sum_exec_runtime from schedstat, in
 * nanoseconds) is read when the header of frame A arrives and again at
 * frame B: their difference over B - A is the cost of one tick after
 * start-up, without the start-up (attaching counters, the first /proc
 * walk) and without /usr/bin/time's 10 ms rounding. Printed on one line:
 * "TICK_US FIRST_MS CPU_US MAXRSS_KIB WALL_MS FRAMES STATUS" where
 * FIRST_MS is the wall time until the first header, CPU_US the whole
 * run's user + system time, STATUS the exit code (128+N for signal N,
 * 127: could not be run). TICK_US is -1 when fewer than B frames came.
 */

static double runstat_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void runstat_usage(void)
{
	fprintf(stderr, "usage: runstat [-f HEADER -a A -b B] COMMAND [ARG]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *hdr = NULL;
	long a = 0, b = 0, frames = 0;
	double t0, first = -1, ca = -1, cb = -1;
	int opt, fds[2], status = 0, code;
	size_t m = 0;
	int matching = 1;
	struct rusage ru;
	pid_t pid;
	char buf[65536];
	ssize_t n;

	while ((opt = getopt(argc, argv, "+f:a:b:")) != -1) {
		if (opt == 'f')
			hdr = optarg;
		else if (opt == 'a')
			a = atol(optarg);
		else if (opt == 'b')
			b = atol(optarg);
		else
			runstat_usage();
	}
	if (optind >= argc || (hdr && (a < 1 || b <= a)))
		runstat_usage();
	if (pipe(fds)) {
		perror("runstat: pipe");
		return 1;
	}
	t0 = runstat_now_ms();
	pid = fork();
	if (pid < 0) {
		perror("runstat: fork");
		return 1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; i < n && hdr; i++) {
			char c = buf[i];

			if (c == '\n') {
				m = 0;
				matching = 1;
				continue;
			}
			if (!matching)
				continue;
			if (c != hdr[m]) {
				matching = 0;
				continue;
			}
			if (hdr[++m])
				continue;
			/* a frame's header */
			matching = 0;
			frames++;
			if (frames == 1)
				first = runstat_now_ms() - t0;
			if (frames == a)
				ca = bench_cpu_ns(pid);
			if (frames == b)
				cb = bench_cpu_ns(pid);
		}
	}
	close(fds[0]);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("runstat: wait4");
			return 1;
		}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("%.1f %.1f %lld %ld %.0f %ld %d\n",
	       ca >= 0 && cb >= 0 ? (cb - ca) / 1e3 / (double)(b - a) : -1.0, first,
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	       ru.ru_maxrss, runstat_now_ms() - t0, frames, code);
	return 0;
}
