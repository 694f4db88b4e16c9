/* Tests of libpfm4 encoding with a forced PMU model, suggestions and listing. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collect/events.h"
#include "testutil.h"

/* name -> (type, config, config1) under LIBPFM_FORCE_PMU=skl, from the SDM encodings */
static const struct {
	int line;
	const char *name;
	unsigned type;
	unsigned long long config, config1;
	bool hw;
} SKL_CASES[] = {
	{ __LINE__, "MEM_INST_RETIRED:ALL_LOADS", 4, 0x81d0, 0, true },
	{ __LINE__, "skl::MEM_INST_RETIRED:ALL_STORES", 4, 0x82d0, 0, true },
	{ __LINE__, "skl::INST_RETIRED:ANY_P", 4, 0xc0, 0, true },
	{ __LINE__, "skl::BR_MISP_RETIRED:ALL_BRANCHES", 4, 0xc5, 0, true },
	{ __LINE__, "perf::cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, true },
	{ __LINE__, "perf::instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, true },
	{ __LINE__, "perf::L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000, 0, true },
	{ __LINE__, "perf::dTLB-load-misses", PERF_TYPE_HW_CACHE, 0x10003, 0, true },
	{ __LINE__, "perf::page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, false },
	{ __LINE__, "perf::task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, false },
};

static void force_skl(void)
{
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	ck_assert_int_eq(events_init(), 0);
}

START_TEST(test_skl_encodings)
{
	struct perf_event_attr a;
	bool hw;

	force_skl();
	ck_assert_msg(events_encode(SKL_CASES[_i].name, false, &a, &hw) == 0, "line %d: %s",
		      SKL_CASES[_i].line, SKL_CASES[_i].name);
	ck_assert_msg(a.type == SKL_CASES[_i].type, "line %d: type %u", SKL_CASES[_i].line, a.type);
	ck_assert_msg(a.config == SKL_CASES[_i].config, "line %d: config %#llx", SKL_CASES[_i].line,
		      (unsigned long long)a.config);
	ck_assert_uint_eq(a.config1, SKL_CASES[_i].config1);
	ck_assert_int_eq(hw, SKL_CASES[_i].hw);
	ck_assert_uint_eq(a.size, sizeof(a));
	events_fini();
}
END_TEST

START_TEST(test_privilege_levels_follow_kernel_flag_and_modifiers)
{
	struct perf_event_attr a;
	bool hw;

	force_skl();
	ck_assert_int_eq(events_encode("skl::INST_RETIRED:ANY_P", false, &a, &hw), 0);
	ck_assert_int_eq(a.exclude_kernel, 1);
	ck_assert_int_eq(a.exclude_user, 0);
	ck_assert_int_eq(events_encode("skl::INST_RETIRED:ANY_P", true, &a, &hw), 0);
	ck_assert_int_eq(a.exclude_kernel, 0);
	ck_assert_int_eq(events_encode("skl::INST_RETIRED:ANY_P:k", false, &a, &hw), 0);
	ck_assert_int_eq(a.exclude_user, 1);
	ck_assert_int_eq(a.exclude_kernel, 0);
	events_fini();
}
END_TEST

START_TEST(test_unknown_and_bad_names)
{
	struct perf_event_attr a;
	bool hw;

	force_skl();
	ck_assert_int_eq(events_encode("no_such_event", false, &a, &hw), -ENOENT);
	ck_assert_int_eq(events_encode("", false, &a, &hw), -ENOENT);
	ck_assert_int_eq(events_encode("skl::INST_RETIRED:NO_SUCH_UMASK", false, &a, &hw), -EINVAL);
	events_fini();
}
END_TEST

START_TEST(test_suggestions_find_close_names)
{
	char sug[3][128];
	size_t n;

	force_skl();
	n = events_suggest("cylces", sug, 3);
	ck_assert_uint_ge(n, 1);
	ck_assert_str_eq(sug[0], "cycles");
	n = events_suggest("MEM_INST_RETIRD", sug, 3);
	ck_assert_uint_ge(n, 1);
	ck_assert_str_eq(sug[0], "MEM_INST_RETIRED");
	n = events_suggest("zzzzzzzzzzzzzzzzzzzzzz", sug, 3);
	ck_assert_uint_eq(n, 0);
	events_fini();
}
END_TEST

START_TEST(test_distance)
{
	ck_assert_uint_eq(events_distance("cycles", "cycles"), 0);
	ck_assert_uint_eq(events_distance("cycles", "CYCLES"), 0);
	ck_assert_uint_eq(events_distance("cylces", "cycles"), 2);
	ck_assert_uint_eq(events_distance("", "abc"), 3);
	ck_assert_uint_eq(events_distance("kitten", "sitting"), 3);
}
END_TEST

START_TEST(test_list_filters_by_pattern)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);

	force_skl();
	n = events_list(f, "mem_inst_retired");
	fclose(f);
	ck_assert_uint_ge(n, 1);
	ck_assert_ptr_nonnull(strstr(buf, "skl::MEM_INST_RETIRED"));
	ck_assert_ptr_null(strstr(buf, "BR_MISP_RETIRED"));
	free(buf);
	ck_assert_int_eq(events_hw_pmu(NULL) != NULL, 1);
	events_fini();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("libpfm4");

	tcase_add_loop_test(tc, test_skl_encodings, 0, sizeof(SKL_CASES) / sizeof(SKL_CASES[0]));
	tcase_add_test(tc, test_privilege_levels_follow_kernel_flag_and_modifiers);
	tcase_add_test(tc, test_unknown_and_bad_names);
	tcase_add_test(tc, test_suggestions_find_close_names);
	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_list_filters_by_pattern);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
