/* Tests of core PMU discovery on sysfs trees modelled on real machines (tests/data/sysfs). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/pmu.h"

#include <linux/perf_event.h>
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

/* Events spelled as sysfs names them, encoded through the PMU's format and events files. */
struct enc_want {
	int line;
	const char *machine, *spec;
	int err;
	uint32_t type;
	uint64_t config, config1;
};

static const struct enc_want ENC[] = {
	/* AMD's event field is split: bits 8-11 of the code go to config 32-35 */
	{ __LINE__, "zen4", "cpu/event=0x76/", 0, 4, 0x76, 0 },
	{ __LINE__, "zen4", "cpu/event=0x1c7,umask=0x3/", 0, 4, 0x1000003c7ull, 0 },
	{ __LINE__, "zen4", "cpu/event=0x0c3,inv,cmask=2/", 0, 4, 0x028000c3ull, 0 },
	{ __LINE__, "zen4", "cpu/cpu-cycles/", 0, 4, 0x76, 0 },
	{ __LINE__, "zen4", "cpu/instructions,cmask=1/", 0, 4, 0x010000c0ull, 0 },
	{ __LINE__, "zen4", "cpu//", 0, 4, 0, 0 },
	{ __LINE__, "zen4", "cpu/event=0x1000/", -EINVAL, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/umask=0x100/", -EINVAL, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/event=/", -EINVAL, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/event=0x76x/", -EINVAL, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/period=1000/", -ENOENT, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/no-such-alias/", -ENOENT, 0, 0, 0 },
	{ __LINE__, "zen4", "nopmu/event=1/", -ENOENT, 0, 0, 0 },
	{ __LINE__, "zen4", "../event=1/", -ENOENT, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/event=1", -EINVAL, 0, 0, 0 },
	{ __LINE__, "zen4", "cpu/event=1/x/", -EINVAL, 0, 0, 0 },
	/* the two core PMUs of a hybrid part, each with its own type and aliases */
	{ __LINE__, "adl", "cpu_atom/event=0xc0,umask=0x0/", 0, 8, 0xc0, 0 },
	{ __LINE__, "adl", "cpu_core/mem-loads/", 0, 4, 0x1cd, 3 },
	{ __LINE__, "adl", "cpu_atom/mem-loads,ldlat=30/", 0, 8, 0x5d0, 30 },
	{ __LINE__, "adl", "cpu_atom/mem-loads-aux/", -ENOENT, 0, 0, 0 },
};

START_TEST(test_sysfs_spelled_events_are_encoded_through_format_and_events_files)
{
	const struct enc_want *w = &ENC[_i];
	struct perf_event_attr a;
	char sys[512];
	int r;

	snprintf(sys, sizeof(sys), "%s/data/sysfs/%s", TEST_SRCDIR, w->machine);
	memset(&a, 0xff, sizeof(a));
	r = pmu_encode(NULL, sys, w->spec, true, &a);
	ck_assert_msg(r == w->err, "line %d: %s: %d", w->line, w->spec, r);
	if (r)
		return;
	ck_assert_msg(a.type == w->type, "line %d: type %u", w->line, a.type);
	ck_assert_msg(a.config == w->config, "line %d: config %#llx", w->line,
		      (unsigned long long)a.config);
	ck_assert_msg(a.config1 == w->config1, "line %d: config1 %#llx", w->line,
		      (unsigned long long)a.config1);
	ck_assert_uint_eq(a.size, sizeof(a));
	ck_assert_uint_eq(a.exclude_kernel, 0);
	ck_assert_uint_eq(a.sample_period, 0);
	ck_assert(pmu_encode(NULL, sys, w->spec, false, &a) == 0 && a.exclude_kernel == 1);
}
END_TEST

START_TEST(test_only_pmu_slash_terms_slash_is_a_sysfs_spelling)
{
	ck_assert(pmu_is_spec("cpu/event=0x76/"));
	ck_assert(pmu_is_spec("msr/tsc/"));
	ck_assert(pmu_is_spec("cpu//"));
	ck_assert(!pmu_is_spec("cycles"));
	ck_assert(!pmu_is_spec("amd64_fam19h_zen3::RETIRED_INSTRUCTIONS"));
	ck_assert(!pmu_is_spec("/event=1/"));
	ck_assert(!pmu_is_spec("cpu/"));
	ck_assert(!pmu_is_spec("cpu/event=1"));
	ck_assert(pmu_is_spec("cpu/event=1/u"));
	ck_assert(pmu_is_spec("cpu/event=1/k"));
	ck_assert(!pmu_is_spec("cpu/event=1/x"));
}
END_TEST

START_TEST(test_the_u_and_k_modifiers_choose_the_mode_counted)
{
	struct perf_event_attr a;
	char sys[512];

	snprintf(sys, sizeof(sys), "%s/data/sysfs/zen4", TEST_SRCDIR);
	ck_assert_int_eq(pmu_encode(NULL, sys, "cpu/event=0x76/u", true, &a), 0);
	ck_assert(a.exclude_kernel && !a.exclude_user && a.config == 0x76);
	ck_assert_int_eq(pmu_encode(NULL, sys, "cpu/event=0x76/k", true, &a), 0);
	ck_assert(!a.exclude_kernel && a.exclude_user);
	ck_assert_int_eq(pmu_encode(NULL, sys, "cpu/event=0x76/uk", true, &a), 0);
	ck_assert(!a.exclude_kernel && !a.exclude_user);
	/* without permission for kernel mode, k alone would count nothing */
	ck_assert_int_eq(pmu_encode(NULL, sys, "cpu/event=0x76/k", false, &a), -EACCES);
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
	tcase_add_loop_test(tc,
			    test_sysfs_spelled_events_are_encoded_through_format_and_events_files,
			    0, (int)(sizeof(ENC) / sizeof(ENC[0])));
	tcase_add_test(tc, test_only_pmu_slash_terms_slash_is_a_sysfs_spelling);
	tcase_add_test(tc, test_the_u_and_k_modifiers_choose_the_mode_counted);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
