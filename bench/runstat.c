/* Run a batch monitor and measure it: CPU time per frame after start-up, first frame, peak RSS. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_ns.h"

/*
 * runstat [-f HEADER -a A -b B [-s TEXT]] COMMAND [ARG]...
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
 *
 * With -s TEXT, frames A and B are counted from the first frame with no
 * line that holds TEXT (pmctop -b's "not attached yet": it attaches its
 * counters across ticks), frame S, printed last ("... STATUS S"; 0
 * without -s, -1 if no frame was clear): the frames measured are the
 * ones after the attach in this very run, however long it took.
 */

static double runstat_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void runstat_usage(void)
{
	fprintf(stderr, "usage: runstat [-f HEADER -a A -b B [-s TEXT]] COMMAND [ARG]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *hdr = NULL, *text = NULL;
	long a = 0, b = 0, frames = 0, settled = 0;
	char line[4096];
	size_t len = 0;
	bool dirty = false;
	double t0, first = -1, ca = -1, cb = -1;
	int opt, fds[2], status = 0, code;
	struct rusage ru;
	pid_t pid;
	char buf[65536];
	ssize_t n;

	while ((opt = getopt(argc, argv, "+f:a:b:s:")) != -1) {
		if (opt == 'f')
			hdr = optarg;
		else if (opt == 's')
			text = optarg;
		else if (opt == 'a')
			a = atol(optarg);
		else if (opt == 'b')
			b = atol(optarg);
		else
			runstat_usage();
	}
	if (optind >= argc || (hdr && (a < 1 || b <= a)) || (text && !hdr))
		runstat_usage();
	if (text)
		settled = -1;
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
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			len = 0;
			if (strncmp(line, hdr, strlen(hdr))) {
				dirty |= text && strstr(line, text);
				continue;
			}
			/* a frame's header: the frame before it was the first clear one? */
			if (settled < 0 && frames && !dirty)
				settled = frames;
			dirty = false;
			frames++;
			if (frames == 1)
				first = runstat_now_ms() - t0;
			if (settled >= 0 && frames == settled + a)
				ca = bench_cpu_ns(pid);
			if (settled >= 0 && frames == settled + b)
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
	printf("%.1f %.1f %lld %ld %.0f %ld %d %ld\n",
	       ca >= 0 && cb >= 0 ? (cb - ca) / 1e3 / (double)(b - a) : -1.0, first,
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	       ru.ru_maxrss, runstat_now_ms() - t0, frames, code, settled);
	return 0;
}
