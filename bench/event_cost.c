/* What one layout of per-task counters costs the counted task: the loops of watched_cost, self-counted. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * event_cost EVENTS GROUPS: the process opens GROUPS groups of the
 * software events EVENTS (comma-separated PERF_COUNT_SW_* numbers: 0
 * cpu-clock, 1 task-clock, 2 page-faults, 3 context-switches, 4
 * cpu-migrations; "none" for no counters) on itself, inherited by its
 * threads as pmctop's groups are, then times thread create+join and a
 * pipe round trip between two of its threads. Run it with "none", then
 * with a layout, pinned to one CPU (taskset -c 0), a few times each: the
 * difference is what that layout adds to a clone and to a context switch.
 */

static int ec_pipes[2][2];

static void *ec_nothing(void *arg)
{
	return arg;
}

static void *ec_echo(void *arg)
{
	long n = (long)arg;
	char c;

	for (long i = 0; i < n; i++)
		if (read(ec_pipes[0][0], &c, 1) != 1 || write(ec_pipes[1][1], &c, 1) != 1)
			break;
	return NULL;
}

static double ec_cpu_us(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 +
	       (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

static double ec_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int ec_open(const char *events, int groups)
{
	for (int g = 0; g < groups; g++) {
		char *list = strdup(events), *save = NULL;
		int leader = -1;

		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			struct perf_event_attr a;
			int fd;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = PERF_TYPE_SOFTWARE;
			a.config = strtoull(t, NULL, 0);
			a.inherit = 1;
			a.inherit_thread = 1;
			a.read_format = PERF_FORMAT_GROUP;
			fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, leader, 0);
			if (fd < 0) {
				fprintf(stderr, "event_cost: perf_event_open %s: %s\n", t,
					strerror(errno));
				free(list);
				return -1;
			}
			if (leader < 0)
				leader = fd;
		}
		free(list);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long threads = 20000, rounds = 100000;
	double c0, w0, tc, tw;
	pthread_t t;
	char c = 'x';

	if (argc != 3) {
		fprintf(stderr,
			"usage: event_cost EVENTS|none GROUPS (e.g. event_cost 1,2,3,4 6)\n");
		return 2;
	}
	if (strcmp(argv[1], "none") && ec_open(argv[1], atoi(argv[2])))
		return 1;
	c0 = ec_cpu_us();
	w0 = ec_wall_us();
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t, NULL, ec_nothing, NULL) || pthread_join(t, NULL))
			return 1;
	tw = (ec_wall_us() - w0) / (double)threads;
	tc = (ec_cpu_us() - c0) / (double)threads;
	if (pipe(ec_pipes[0]) || pipe(ec_pipes[1]) ||
	    pthread_create(&t, NULL, ec_echo, (void *)rounds))
		return 1;
	c0 = ec_cpu_us();
	w0 = ec_wall_us();
	for (long i = 0; i < rounds; i++)
		if (write(ec_pipes[0][1], &c, 1) != 1 || read(ec_pipes[1][0], &c, 1) != 1)
			return 1;
	printf("%-10s x%s groups: thread create+join %.2f us wall %.2f us CPU; "
	       "round trip %.2f us wall %.2f us CPU\n",
	       argv[1], argv[2], tw, tc, (ec_wall_us() - w0) / (double)rounds,
	       (ec_cpu_us() - c0) / (double)rounds);
	pthread_join(t, NULL);
	return 0;
}
