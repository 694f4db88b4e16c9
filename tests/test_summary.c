/* Tests of the summary of a command's run: perf stat's layout from known counts. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "out/summary.h"
#include "testutil.h"

static struct evlist evs;
static struct snap_count *cnt;
static const char *const ARGV[] = { "make", "-j4", NULL };

static void setup(void)
{
	evlist_init(&evs);
	evlist_add_defaults(&evs, true);
	cnt = calloc(evs.n, sizeof(*cnt));
	for (size_t i = 0; i < evs.n; i++)
		cnt[i].err = -ENOENT;
}

static void teardown(void)
{
	free(cnt);
	evlist_release(&evs);
}

static void set(enum ev_role role, uint64_t v, uint64_t en, uint64_t run)
{
	int i = evs.role_idx[role];

	ck_assert_int_ge(i, 0);
	cnt[i] = (struct snap_count){ v, en, run, 0 };
}

/* The summary printed to memory; the caller frees it. */
static char *print(const struct summary_run *r)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	summary_print(f, r);
	fclose(f);
	return buf;
}

#define HAS(text, s) ck_assert_msg(strstr((text), (s)), "no '%s' in:\n%s", (s), (text))

/* Two seconds of wall time, one of CPU: 0.5 CPUs; IPC, GHz, ratios and the scaling share. */
START_TEST(test_counts_metrics_and_multiplexing_as_perf_stat)
{
	struct summary_run r = { .argv = ARGV, .wall_s = 2.0, .ev = &evs, .cnt = cnt };
	char *out;

	set(EV_TASK_CLOCK, 1000000000, 1000000000, 1000000000);
	set(EV_PAGE_FAULTS, 12345, 1, 1);
	set(EV_CYCLES, 1000000000, 1000000000, 500000000); /* ran half the time: x2 */
	set(EV_INSTRUCTIONS, 3000000000ull, 1000000000, 1000000000);
	set(EV_BRANCHES, 1000, 1, 1);
	set(EV_BRANCH_MISSES, 25, 1, 1);
	out = print(&r);
	HAS(out, " Performance counter stats for 'make -j4':");
	HAS(out, "           1000.00 msec task-clock               #    0.500 CPUs utilized");
	HAS(out, "            12,345      page-faults              #   12.345 K/sec");
	HAS(out, "     2,000,000,000      cycles                   #    2.000 GHz  (50.00%)");
	HAS(out, "     3,000,000,000      instructions             #     1.50  insn per cycle");
	HAS(out, "                25      branch-misses            #     2.50% of all branches");
	HAS(out, "   <not supported>      cache-misses\n");
	HAS(out, "       2.000000000 seconds time elapsed");
	free(out);
}
END_TEST

/* Counters that could not be opened: CPU time, faults and switches from getrusage, marked. */
START_TEST(test_rusage_stands_in_for_counters_not_opened)
{
	struct summary_run r = { .argv = ARGV, .wall_s = 1.0, .ev = &evs, .cnt = cnt };
	char *out;

	r.ru = (struct summary_rusage){ .user_s = 0.25, .sys_s = 0.25, .faults = 4000, .csw = 7 };
	out = print(&r);
	HAS(out, "            500.00 msec task-clock               #    0.500 CPUs utilized  "
		 "(getrusage)");
	HAS(out, "             4,000      page-faults              #    8.000 K/sec  (getrusage)");
	HAS(out, "                 7      context-switches         #   14.000 /sec  (getrusage)");
	HAS(out, "   <not supported>      cpu-migrations\n");
	HAS(out, "       0.250000000 seconds user\n");
	free(out);
}
END_TEST

/* A command a signal ended says so after its totals. */
START_TEST(test_a_killed_command_is_named_with_its_signal)
{
	struct summary_run r = { .argv = ARGV, .wall_s = 1.0, .ev = &evs, .cnt = cnt };
	char *out;

	r.status = SIGTERM; /* as waitpid gives a death by signal 15 */
	ck_assert(WIFSIGNALED(r.status));
	out = print(&r);
	HAS(out, "'make -j4' was killed by signal 15");
	free(out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = tcase_create("summary");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_counts_metrics_and_multiplexing_as_perf_stat);
	tcase_add_test(tc, test_rusage_stands_in_for_counters_not_opened);
	tcase_add_test(tc, test_a_killed_command_is_named_with_its_signal);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
