/* Guest side of bench/qemu-bench.sh: idle populations, a per-tick cost runner, a perf-stat-like reader. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_ns.h"

/*
 *   qemu_guest pop P T
 *	P idle processes of T threads each (T >= 1), children of this one; "ready" on standard
 *	output once all exist; on SIGTERM it kills and reaps them and exits (so no zombie stays
 *	behind for the next population: /init does not reap).
 *
 *   qemu_guest run -f TEXT -a A -b B [-o FILE] [-e ERRFILE] COMMAND [ARG]...
 *	Runs COMMAND with its standard output on a pipe (copied to FILE) and its standard error
 *	in ERRFILE (default /dev/null). A line that contains TEXT ends a frame (pmctop -b and top -b write the
 *	header once a frame's data is collected; perf stat -I and the reader print an interval's
 *	line once its counters are read). Before the command execs, an inherited `instructions`
 *	counter and an inherited `task-clock` counter are opened on it (both count user and
 *	kernel mode, and every thread the command makes); when frame A and frame B end they are
 *	read, and so is the schedstat run time of its threads. After frame B the command is
 *	killed. Prints "INSN_PER_TICK TASKCLOCK_US_PER_TICK SCHEDSTAT_US_PER_TICK FRAMES STATUS
 *	RUNNING%": -1 where fewer than B frames came or a counter could not be opened; RUNNING%
 *	is the share of frames A..B the instructions counter was on the PMU (below 100 it shared
 *	the PMU with the tool's own counters on itself and is scaled, an estimate).
 *
 *   qemu_guest reader -I MS PID...
 *	What `perf stat -I MS -p PID,...` does each interval, without perf's formatting: every
 *	thread of every PID gets perf stat's default events (task-clock, context-switches,
 *	cpu-migrations, page-faults, cycles, instructions), each its own inherited counter as
 *	perf stat opens them; every MS milliseconds each counter is read and the sums printed on
 *	one line "interval N task-clock ... instructions ...".
 */

static long qg_perf_open(struct perf_event_attr *a, pid_t pid)
{
	return syscall(SYS_perf_event_open, a, pid, -1, -1, 0);
}

static void qg_attr(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->inherit = 1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

/*
 * The counter's value scaled by enabled over running; -1 when unreadable or never ran. Its
 * time enabled and running go to times[0] and times[1] when times is not NULL.
 */
static double qg_read_times(int fd, double *times)
{
	uint64_t v[3];

	if (fd < 0 || read(fd, v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
		return -1;
	if (times) {
		times[0] = (double)v[1];
		times[1] = (double)v[2];
	}
	return (double)v[0] * ((double)v[1] / (double)v[2]);
}

static double qg_read(int fd)
{
	return qg_read_times(fd, NULL);
}

/* ---- pop ---- */

static void *qg_idle_thread(void *p)
{
	(void)p;
	for (;;)
		pause();
	return NULL;
}

static int qg_pop(int argc, char **argv)
{
	long p, t;
	pid_t *kids;
	int fds[2];
	sigset_t set;
	int sig;

	if (argc != 4)
		return 2;
	p = atol(argv[2]);
	t = atol(argv[3]);
	if (p < 0 || t < 1 || pipe(fds))
		return 2;
	kids = calloc((size_t)p + 1, sizeof(*kids));
	if (!kids)
		return 1;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	for (long i = 0; i < p; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("pop: fork");
			return 1;
		}
		if (kids[i] == 0) {
			pthread_t tid;

			close(fds[0]);
			for (long j = 1; j < t; j++)
				if (pthread_create(&tid, NULL, qg_idle_thread, NULL))
					_exit(1);
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
			close(fds[1]);
			qg_idle_thread(NULL);
		}
	}
	close(fds[1]);
	for (long i = 0; i < p; i++) {
		char c;

		if (read(fds[0], &c, 1) != 1) {
			fprintf(stderr, "pop: a child did not start\n");
			return 1;
		}
	}
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready\n");
	fflush(stdout);
	do {
		if (sigwait(&set, &sig))
			return 1;
	} while (sig != SIGTERM);
	for (long i = 0; i < p; i++)
		kill(kids[i], SIGKILL);
	for (long i = 0; i < p; i++)
		waitpid(kids[i], NULL, 0);
	return 0;
}

/* ---- run ---- */

struct qg_mark {
	double insn, clock_ns, sched_ns, times[2];
};

static void qg_mark(struct qg_mark *m, int fi, int fc, pid_t pid)
{
	m->insn = qg_read_times(fi, m->times);
	m->clock_ns = qg_read(fc);
	m->sched_ns = bench_cpu_ns(pid);
}

static double qg_per(double a, double b, double scale, long ticks)
{
	return a >= 0 && b >= 0 ? (b - a) / scale / (double)ticks : -1;
}

static int qg_run(int argc, char **argv)
{
	const char *text = NULL, *out = NULL, *err = "/dev/null";
	long a = 0, b = 0, frames = 0;
	int opt, fds[2], go[2], status = 0, fi, fc, code, killed = 0;
	FILE *copy = NULL;
	struct perf_event_attr attr;
	struct qg_mark ma = { -1, -1, -1, { 0, 0 } }, mb = { -1, -1, -1, { 0, 0 } };
	double en, run;
	char line[65536];
	size_t len = 0;
	char buf[65536];
	ssize_t n;
	pid_t pid;

	optind = 2;
	while ((opt = getopt(argc, argv, "+f:a:b:o:e:")) != -1) {
		if (opt == 'f')
			text = optarg;
		else if (opt == 'a')
			a = atol(optarg);
		else if (opt == 'b')
			b = atol(optarg);
		else if (opt == 'o')
			out = optarg;
		else if (opt == 'e')
			err = optarg;
		else
			return 2;
	}
	if (optind >= argc || !text || a < 1 || b <= a)
		return 2;
	if (out && !(copy = fopen(out, "w")))
		return 1;
	if (pipe(fds) || pipe(go))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int efd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		char c;

		dup2(fds[1], 1);
		if (efd >= 0)
			dup2(efd, 2);
		close(fds[0]);
		close(fds[1]);
		close(go[1]);
		/* wait until the counters are on this process, then become the command */
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		close(go[0]);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	close(fds[1]);
	close(go[0]);
	qg_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fi = (int)qg_perf_open(&attr, pid);
	if (fi < 0)
		fprintf(stderr, "run: instructions: %s\n", strerror(errno));
	qg_attr(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	fc = (int)qg_perf_open(&attr, pid);
	if (fc < 0)
		fprintf(stderr, "run: task-clock: %s\n", strerror(errno));
	if (write(go[1], "x", 1) != 1)
		return 1;
	close(go[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (copy)
			fwrite(buf, 1, (size_t)n, copy);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = 0;
			len = 0;
			if (!strstr(line, text))
				continue;
			frames++;
			if (frames == a)
				qg_mark(&ma, fi, fc, pid);
			if (frames == b) {
				qg_mark(&mb, fi, fc, pid);
				kill(pid, SIGKILL);
				killed = 1;
			}
		}
	}
	close(fds[0]);
	if (copy)
		fclose(copy);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (killed && code == 128 + SIGKILL)
		code = 0;
	/* the share of frames A..B the instructions counter was on the PMU (100: exact) */
	en = mb.times[0] - ma.times[0];
	run = mb.times[1] - ma.times[1];
	printf("%.0f %.1f %.1f %ld %d %.1f\n", qg_per(ma.insn, mb.insn, 1, b - a),
	       qg_per(ma.clock_ns, mb.clock_ns, 1e3, b - a),
	       qg_per(ma.sched_ns, mb.sched_ns, 1e3, b - a), frames, code,
	       en > 0 ? 100 * run / en : -1.0);
	return 0;
}

/* ---- reader ---- */

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} qg_events[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
};
#define QG_NEV (sizeof(qg_events) / sizeof(qg_events[0]))

static int qg_reader(int argc, char **argv)
{
	long ms;
	int *fds = NULL;
	size_t nfd = 0, cap = 0;
	struct timespec next;
	int opt;

	optind = 2;
	ms = 100;
	while ((opt = getopt(argc, argv, "+I:")) != -1) {
		if (opt == 'I')
			ms = atol(optarg);
		else
			return 2;
	}
	if (ms < 1 || optind >= argc)
		return 2;
	for (int i = optind; i < argc; i++) {
		char path[64];
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "/proc/%s/task", argv[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			for (size_t k = 0; k < QG_NEV; k++) {
				struct perf_event_attr attr;
				int fd;

				qg_attr(&attr, qg_events[k].type, qg_events[k].config);
				fd = (int)qg_perf_open(&attr, atoi(e->d_name));
				if (nfd == cap) {
					cap = cap ? cap * 2 : 256;
					fds = realloc(fds, cap * sizeof(*fds));
					if (!fds)
						return 1;
				}
				fds[nfd++] = fd; /* -1 kept: slot k of this thread */
			}
		}
		closedir(d);
	}
	fprintf(stderr, "reader: %zu threads\n", nfd / QG_NEV);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long it = 1;; it++) {
		double sum[QG_NEV] = { 0 };

		next.tv_nsec += ms * 1000000L;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		for (size_t i = 0; i < nfd; i++) {
			double v = qg_read(fds[i]);

			if (v > 0)
				sum[i % QG_NEV] += v;
		}
		printf("interval %ld", it);
		for (size_t k = 0; k < QG_NEV; k++)
			printf(" %s %.0f", qg_events[k].name, sum[k]);
		printf("\n");
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int r = 2;

	if (!strcmp(mode, "pop"))
		r = qg_pop(argc, argv);
	else if (!strcmp(mode, "run"))
		r = qg_run(argc, argv);
	else if (!strcmp(mode, "reader"))
		r = qg_reader(argc, argv);
	if (r == 2)
		fprintf(stderr, "usage: qemu_guest pop P T | run -f TEXT -a A -b B [-o FILE] [-e "
				"ERRFILE] COMMAND... | "
				"reader -I MS PID...\n");
	return r;
}
