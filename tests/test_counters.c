/* Tests of group reads: buffers built in memory, and real software counters on this machine. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/counters.h"
#include "fake_kernel.h"
#include "model/metrics.h"
#include "testutil.h"

static struct counters_group fake_group(int nr)
{
	struct counters_group g;

	memset(&g, 0, sizeof(g));
	g.nr = nr;
	for (int i = 0; i < nr; i++) {
		g.fd[i] = -1;
		g.id[i] = 100 + (uint64_t)i;
		g.ev[i] = 2 * i; /* members map to sparse event indexes */
	}
	return g;
}

START_TEST(test_parse_group_matches_by_id_not_position)
{
	struct counters_group g = fake_group(3);
	/* nr, enabled, running, then {value, id} in an order unlike the members' */
	uint64_t buf[] = { 3, 1000, 500, 7, 102, 5, 100, 6, 101 };
	struct snap_count out[6];

	memset(out, 0, sizeof(out));
	ck_assert_int_eq(counters_parse_group(buf, sizeof(buf), &g, out), 0);
	ck_assert_uint_eq(out[0].value, 5);
	ck_assert_uint_eq(out[2].value, 6);
	ck_assert_uint_eq(out[4].value, 7);
	for (int i = 0; i < 6; i += 2) {
		ck_assert_uint_eq(out[i].enabled, 1000);
		ck_assert_uint_eq(out[i].running, 500);
		ck_assert_int_eq(out[i].err, 0);
	}
}
END_TEST

START_TEST(test_parse_group_rejects_bad_buffers)
{
	struct counters_group g = fake_group(2);
	uint64_t ok[] = { 2, 10, 10, 1, 100, 2, 101 };
	uint64_t wrong_nr[] = { 3, 10, 10, 1, 100, 2, 101, 0, 0 };
	uint64_t unknown_id[] = { 2, 10, 10, 1, 100, 2, 999 };
	struct snap_count out[4];

	ck_assert_int_eq(counters_parse_group(ok, sizeof(ok), &g, out), 0);
	ck_assert_int_eq(counters_parse_group(ok, sizeof(ok) - 8, &g, out), -EINVAL);
	ck_assert_int_eq(counters_parse_group(ok, 16, &g, out), -EINVAL);
	ck_assert_int_eq(counters_parse_group(wrong_nr, sizeof(wrong_nr), &g, out), -EINVAL);
	ck_assert_int_eq(counters_parse_group(unknown_id, sizeof(unknown_id), &g, out), -EINVAL);
	ck_assert_uint_eq(counters_group_size(2), sizeof(ok));
}
END_TEST

START_TEST(test_parse_single_checks_id)
{
	struct counters_group g = fake_group(2);
	uint64_t buf[] = { 42, 90, 30, 101 };
	struct snap_count out[4];

	ck_assert_int_eq(counters_parse_single(buf, sizeof(buf), &g, 1, out), 0);
	ck_assert_uint_eq(out[2].value, 42);
	ck_assert_uint_eq(out[2].enabled, 90);
	ck_assert_uint_eq(out[2].running, 30);
	ck_assert_int_eq(counters_parse_single(buf, sizeof(buf), &g, 0, out), -EINVAL);
	ck_assert_int_eq(counters_parse_single(buf, 24, &g, 1, out), -EINVAL);
}
END_TEST

static int open_sw_group(struct counters_group *g, int pid, int cpu, unsigned flags)
{
	struct perf_event_attr a[2];
	const struct perf_event_attr *ap[2] = { &a[0], &a[1] };
	int ev[2] = { 0, 1 }, bad;

	memset(a, 0, sizeof(a));
	a[0].type = a[1].type = PERF_TYPE_SOFTWARE;
	a[0].config = PERF_COUNT_SW_TASK_CLOCK;
	a[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	a[0].exclude_kernel = a[1].exclude_kernel = 1;
	return counters_open_group(g, NULL, ap, ev, 2, pid, cpu, flags, &bad);
}

START_TEST(test_live_group_counts_page_faults)
{
	struct counters_group g;
	struct snap_count before[2], after[2];
	long page = sysconf(_SC_PAGESIZE);
	const int pages = 200;
	char *p;

	ck_assert_int_eq(open_sw_group(&g, 0, -1, COUNTERS_INHERIT), 0);
	ck_assert_int_eq(counters_read_group(&g, before), 0);
	p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	ck_assert(p != MAP_FAILED);
	for (int i = 0; i < pages; i++)
		p[i * page] = 1;
	ck_assert_int_eq(counters_read_group(&g, after), 0);
	munmap(p, (size_t)(pages * page));
	/* every first touch of a fresh anonymous page is one fault */
	ck_assert_uint_ge(after[1].value - before[1].value, pages);
	ck_assert_uint_lt(after[1].value - before[1].value, pages + 50);
	ck_assert_uint_gt(after[0].value, before[0].value);
	/* software events are never multiplexed */
	ck_assert_uint_eq(after[0].enabled, after[0].running);
	counters_close_group(&g);
}
END_TEST

START_TEST(test_live_counter_on_other_cpu_never_runs)
{
	struct counters_group g;
	struct snap_count c[2];
	cpu_set_t set;
	volatile unsigned long x = 0;
	bool est;

	ck_assert_int_ge(sysconf(_SC_NPROCESSORS_ONLN), 2);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
	/* a task event bound to CPU 1 while the task only runs on CPU 0 */
	ck_assert_int_eq(open_sw_group(&g, 0, 1, 0), 0);
	for (int i = 0; i < 20000000; i++)
		x += (unsigned long)i;
	ck_assert_int_eq(counters_read_group(&g, c), 0);
	ck_assert_uint_eq(c[0].running, 0);
	ck_assert_uint_gt(c[0].enabled, 0);
	ck_assert(isnan(metrics_scale(c[0].value, c[0].enabled, c[0].running, &est)));
	counters_close_group(&g);
}
END_TEST

START_TEST(test_open_gone_task_is_esrch)
{
	struct counters_group g;

	/* pid numbers this large are never handed out (pid_max is at most 2^22) */
	ck_assert_int_eq(open_sw_group(&g, 0x3ffffff0, -1, COUNTERS_INHERIT), -ESRCH);
	ck_assert_int_eq(g.nr, 0);
}
END_TEST

/* Opens task-clock and page-faults of pid 42 as one group on the fake kernel. */
static int fake_group_open(struct fake_kernel *fk, struct counters_group *g, unsigned flags)
{
	struct perf_event_attr a[2];
	const struct perf_event_attr *ap[2] = { &a[0], &a[1] };
	int ev[2] = { 0, 1 }, bad;

	memset(a, 0, sizeof(a));
	a[0].type = a[1].type = PERF_TYPE_SOFTWARE;
	a[0].config = PERF_COUNT_SW_TASK_CLOCK;
	a[1].config = PERF_COUNT_SW_PAGE_FAULTS;
	return counters_open_group(g, &fk->ops, ap, ev, 2, 42, -1, flags, &bad);
}

START_TEST(test_echild_after_build_rebuilds_an_inherited_group)
{
	struct fake_kernel *fk = fake_kernel_new();
	struct counters_group g;
	struct snap_count c[2];

	fake_kernel_set_rate(fk, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 3);
	fake_kernel_set_rate(fk, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1);
	fake_kernel_fail_reads(fk, 42, 1);
	ck_assert_int_eq(fake_group_open(fk, &g, COUNTERS_INHERIT), 0);
	ck_assert_uint_eq(fk->last_flags, PERF_FLAG_FD_CLOEXEC);
	ck_assert_int_eq(fk->opens, 4);
	ck_assert_int_eq(fk->closes, 2);
	ck_assert_int_eq(counters_read_group(&g, c), 0);
	/* the second read of the rebuilt group, its members told apart by id */
	ck_assert_uint_eq(c[0].value, 6);
	ck_assert_uint_eq(c[1].value, 2);
	counters_close_group(&g);
	ck_assert_int_eq(fk->closes, 4);
	fake_kernel_free(fk);
}
END_TEST

START_TEST(test_echild_is_retried_a_bounded_number_of_times)
{
	struct fake_kernel *fk = fake_kernel_new();
	struct counters_group g;

	fake_kernel_fail_reads(fk, 42, 100);
	ck_assert_int_eq(fake_group_open(fk, &g, COUNTERS_INHERIT), 0);
	ck_assert_int_eq(fk->opens, 2 * COUNTERS_ECHILD_TRIES);
	counters_close_group(&g);
	ck_assert_int_eq(fk->closes, fk->opens);
	ck_assert_int_eq(fk->nopen, 0);
	fake_kernel_free(fk);
}
END_TEST

START_TEST(test_group_without_inherit_is_not_read_at_build)
{
	struct fake_kernel *fk = fake_kernel_new();
	struct counters_group g;

	fake_kernel_fail_reads(fk, 42, 1);
	ck_assert_int_eq(fake_group_open(fk, &g, 0), 0);
	ck_assert_uint_eq(fk->last_flags, PERF_FLAG_FD_CLOEXEC);
	ck_assert_int_eq(fk->opens, 2);
	ck_assert_int_eq(fk->echild_reads, 1);
	counters_close_group(&g);
	fake_kernel_free(fk);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("group");

	tcase_add_test(tc, test_parse_group_matches_by_id_not_position);
	tcase_add_test(tc, test_parse_group_rejects_bad_buffers);
	tcase_add_test(tc, test_parse_single_checks_id);
	tcase_add_test(tc, test_live_group_counts_page_faults);
	tcase_add_test(tc, test_live_counter_on_other_cpu_never_runs);
	tcase_add_test(tc, test_open_gone_task_is_esrch);
	tcase_add_test(tc, test_echild_after_build_rebuilds_an_inherited_group);
	tcase_add_test(tc, test_echild_is_retried_a_bounded_number_of_times);
	tcase_add_test(tc, test_group_without_inherit_is_not_read_at_build);
	suite_add_tcase(s, tc);
	testutil_hold_hotplug_lock();
	return testutil_run(s);
}
