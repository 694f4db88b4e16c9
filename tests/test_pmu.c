/* Tests of core PMU discovery on sysfs trees modelled on real machines (tests/data/sysfs). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "collect/pmu.h"
#include "testutil.h"

struct pmu_want {
	int line;
	const char *machine;
	const char *names; /* pmu_names() */
	uint32_t type0, type1;
	int cpu, pmu_of; /* pmu_of_cpu(cpu) */
	int cpu2, pmu_of2;
};

static const struct pmu_want WANT[] = {
	{ __LINE__, "alderlake", "cpu_core+cpu_atom", 4, 10, 15, 0, 16, 1 },
	{ __LINE__, "sapphirerapids", "cpu", 4, 0, 0, 0, 223, 0 },
	{ __LINE__, "zen4", "cpu", 4, 0, 31, 0, 0, 0 },
	{ __LINE__, "graviton3", "armv8_pmuv3_0", 8, 0, 63, 0, 64, -1 },
	{ __LINE__, "m1-asahi", "apple_icestorm_pmu+apple_firestorm_pmu", 8, 9, 3, 0, 4, 1 },
	{ __LINE__, "qemu-virt", "armv8_pmuv3", 8, 0, 0, 0, 1, -1 },
};

START_TEST(test_core_pmus_are_found_by_their_cpus_file_or_the_name_cpu)
{
	const struct pmu_want *w = &WANT[_i];
	struct pmu_set s = { 0 };
	char root[512], names[256];

	snprintf(root, sizeof(root), "%s/data/sysfs/%s", TEST_SRCDIR, w->machine);
	ck_assert_msg(pmu_scan(&s, NULL, root) == 0, "line %d", w->line);
	ck_assert_msg(!strcmp(pmu_names(&s, names, sizeof(names)), w->names), "line %d: %s",
		      w->line, names);
	ck_assert_uint_eq(s.pmu[0].type, w->type0);
	if (s.n > 1)
		ck_assert_uint_eq(s.pmu[1].type, w->type1);
	ck_assert_msg(pmu_of_cpu(&s, w->cpu) == w->pmu_of, "line %d", w->line);
	ck_assert_msg(pmu_of_cpu(&s, w->cpu2) == w->pmu_of2, "line %d", w->line);
	pmu_set_release(&s);
	ck_assert_uint_eq(s.n, 0);
}
END_TEST

START_TEST(test_uncore_ibs_and_software_pmus_are_not_core_pmus)
{
	struct pmu_set s = { 0 };
	char root[512];

	snprintf(root, sizeof(root), "%s/data/sysfs/zen4", TEST_SRCDIR);
	ck_assert_int_eq(pmu_scan(&s, NULL, root), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.pmu[0].name, "cpu");
	ck_assert(s.pmu[0].all_cpus);
	pmu_set_release(&s);
}
END_TEST

START_TEST(test_a_missing_sysfs_gives_an_error_and_no_pmu)
{
	struct pmu_set s = { 0 };
	char names[64];

	ck_assert_int_lt(pmu_scan(&s, NULL, "/nonexistent-pmctop"), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_str_eq(pmu_names(&s, names, sizeof(names)), "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc = tcase_create("pmu");

	tcase_add_loop_test(tc, test_core_pmus_are_found_by_their_cpus_file_or_the_name_cpu, 0,
			    (int)(sizeof(WANT) / sizeof(WANT[0])));
	tcase_add_test(tc, test_uncore_ibs_and_software_pmus_are_not_core_pmus);
	tcase_add_test(tc, test_a_missing_sysfs_gives_an_error_and_no_pmu);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
