/* Tests of libpfm4 encoding with a forced PMU model, suggestions and listing. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/counters.h"
#include "kernel/events.h"
#include "kernel/evspec.h"
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
	/* perf's names libpfm4 4.13 lacks */
	{ __LINE__, "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, 0,
	  false },
	{ __LINE__, "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, 0,
	  false },
	{ __LINE__, "L1-icache-prefetches", PERF_TYPE_HW_CACHE, 0x201, 0, true },
};

/* perf's modifier strings -> precise_ip and privilege levels, as perf sets them */
static const struct {
	int line;
	const char *name;
	int err;
	unsigned type;
	unsigned long long config;
	unsigned precise;
	bool excl_user, excl_kernel;
} MOD_CASES[] = {
	{ __LINE__, "page-faults:p", 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1, 0, 1 },
	{ __LINE__, "page-faults:pp", 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 2, 0, 1 },
	{ __LINE__, "page-faults:ppp", 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 3, 0, 1 },
	{ __LINE__, "page-faults:pppp", -EINVAL, 0, 0, 0, 0, 0 },
	{ __LINE__, "alignment-faults:p", 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1,
	  0, 1 },
	{ __LINE__, "cycles:ppp", 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 3, 0, 1 },
	{ __LINE__, "cycles:upp", 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 2, 0, 1 },
	{ __LINE__, "cycles:kp", 0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, 1, 0 },
	{ __LINE__, "skl::INST_RETIRED:ANY_P:pp", 0, 4, 0xc0, 2, 0, 1 },
	{ __LINE__, "skl::MEM_INST_RETIRED:ALL_LOADS:ppp", 0, 4, 0x81d0, 3, 0, 1 },
	{ __LINE__, "cycles:zz", -EINVAL, 0, 0, 0, 0, 0 },
	{ __LINE__, "no_such_event:p", -ENOENT, 0, 0, 0, 0, 0 },
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
	n = evspec_list(f, NULL, "mem_inst_retired");
	fclose(f);
	ck_assert_uint_ge(n, 1);
	ck_assert_ptr_nonnull(strstr(buf, "skl::MEM_INST_RETIRED"));
	ck_assert_ptr_null(strstr(buf, "BR_MISP_RETIRED"));
	free(buf);
	ck_assert_int_eq(events_hw_pmu(NULL) != NULL, 1);
	events_fini();
}
END_TEST

START_TEST(test_perf_modifiers_set_precise_ip)
{
	struct perf_event_attr a;
	bool hw;
	int r;

	force_skl();
	r = events_encode(MOD_CASES[_i].name, false, &a, &hw);
	ck_assert_msg(r == MOD_CASES[_i].err, "line %d: %s: %d", MOD_CASES[_i].line,
		      MOD_CASES[_i].name, r);
	if (!r) {
		ck_assert_msg(a.type == MOD_CASES[_i].type && a.config == MOD_CASES[_i].config,
			      "line %d: type %u config %#llx", MOD_CASES[_i].line, a.type,
			      (unsigned long long)a.config);
		ck_assert_msg(a.precise_ip == MOD_CASES[_i].precise, "line %d: precise_ip %u",
			      MOD_CASES[_i].line, (unsigned)a.precise_ip);
		ck_assert_int_eq(a.exclude_user, MOD_CASES[_i].excl_user);
		ck_assert_int_eq(a.exclude_kernel, MOD_CASES[_i].excl_kernel);
		/* perf: a precise level asks the guest to be left out */
		ck_assert_int_eq(a.exclude_guest, 1);
		ck_assert_uint_eq(a.size, sizeof(a));
	}
	events_fini();
}
END_TEST

START_TEST(test_modifiers_are_part_of_an_events_identity)
{
	struct perf_event_attr plain, p, pp;
	bool hw;

	force_skl();
	ck_assert_int_eq(events_encode("page-faults", false, &plain, &hw), 0);
	ck_assert_int_eq(events_encode("page-faults:p", false, &p, &hw), 0);
	ck_assert_int_eq(events_encode("page-faults:pp", false, &pp, &hw), 0);
	ck_assert_int_eq(plain.precise_ip, 0);
	/* three counters, not one shared */
	ck_assert(!counters_attr_same(&plain, &p));
	ck_assert(!counters_attr_same(&p, &pp));
	ck_assert(counters_attr_same(&p, &p));
	events_fini();
}
END_TEST

/* mkdir -p of dir/sub, then write text into dir/sub/file */
static void put_file(const char *dir, const char *sub, const char *file, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p '%s/%s'", dir, sub);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, file);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_tracepoints_take_their_id_from_tracefs)
{
	char root[] = "/tmp/pmctop-tp.XXXXXX", cmd[128];
	struct perf_event_attr a;
	enum evspec_kind kind;
	bool hw = true;

	force_skl();
	ck_assert_ptr_nonnull(mkdtemp(root));
	put_file(root, "kernel/tracing/events/sched/sched_switch", "id", "321\n");
	ck_assert_int_eq(evspec_encode(NULL, root, "sched:sched_switch", true, &a, &kind, &hw), 0);
	ck_assert_int_eq(kind, EVSPEC_TRACEPOINT);
	ck_assert(!hw);
	ck_assert_uint_eq(a.type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_eq(a.config, 321);
	ck_assert_uint_eq(a.size, sizeof(a));
	ck_assert_int_eq(a.exclude_kernel, 0);
	ck_assert_int_eq(evspec_encode(NULL, root, "sched:no_such", true, &a, &kind, &hw), -ENOENT);
	/* a libpfm4 event of the same shape is not taken for a tracepoint */
	ck_assert_int_eq(evspec_encode(NULL, root, "INST_RETIRED:ANY_P", true, &a, &kind, &hw), 0);
	ck_assert_int_eq(kind, EVSPEC_NAMED);
	ck_assert_uint_eq(a.config, 0xc0);
	ck_assert(!evspec_is_tracepoint("../x:y"));
	ck_assert(!evspec_is_tracepoint("sched:"));
	ck_assert(!evspec_is_tracepoint("sched:sched_switch/"));
	/* where tracefs is not mounted, debugfs's copy of it */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/kernel/tracing'", root);
	ck_assert_int_eq(system(cmd), 0);
	put_file(root, "kernel/debug/tracing/events/irq/irq_handler_entry", "id", "77\n");
	ck_assert_int_eq(evspec_encode(NULL, root, "irq:irq_handler_entry", true, &a, &kind, &hw),
			 0);
	ck_assert_uint_eq(a.config, 77);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
	events_fini();
}
END_TEST

/* The --list-events text under skl, with a sysfs tree of one PMU event and two tracepoints. */
static char *list_skl(const char *pattern, size_t *n)
{
	char root[] = "/tmp/pmctop-ls.XXXXXX", cmd[128];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(mkdtemp(root));
	put_file(root, "bus/event_source/devices/cpu", "type", "4\n");
	put_file(root, "bus/event_source/devices/cpu/events", "mem-loads",
		 "event=0xcd,umask=0x1\n");
	put_file(root, "bus/event_source/devices/cpu/events", "mem-loads.scale", "1\n");
	put_file(root, "kernel/tracing/events/sched/sched_switch", "id", "321\n");
	put_file(root, "kernel/tracing/events/sched/sched_wakeup", "id", "322\n");
	put_file(root, "kernel/tracing/events/sched", "enable", "0\n");
	*n = evspec_list(f, root, pattern);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
	return buf;
}

START_TEST(test_list_groups_each_event_once)
{
	size_t n, lines = 0;
	char *buf, *line, *save = NULL;
	char **names;

	force_skl();
	buf = list_skl(NULL, &n);
	names = calloc(n + 1, sizeof(*names));
	ck_assert_ptr_nonnull(strstr(buf, "Hardware events:\n  cpu-cycles OR cycles "));
	ck_assert_ptr_nonnull(strstr(buf, "\nSoftware events:\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  alignment-faults "));
	ck_assert_ptr_nonnull(strstr(buf, "  emulation-faults "));
	ck_assert_ptr_nonnull(strstr(buf, "\nHardware cache events:\n  L1-dcache-loads "));
	ck_assert_ptr_nonnull(strstr(buf, "\nKernel PMU events:\n  cpu/mem-loads/ "));
	ck_assert_ptr_nonnull(strstr(buf, "\nskl events (libpfm4):\n  skl::"));
	/* thousands: counted, listed with a pattern */
	ck_assert_ptr_nonnull(strstr(buf, "\nTracepoints: 2, listed with a pattern"));
	ck_assert_ptr_null(strstr(buf, "mem-loads.scale"));
	/* libpfm4's perf PMU spells the generic events again, several times each */
	ck_assert_ptr_null(strstr(buf, "perf::"));
	ck_assert_ptr_null(strstr(buf, "PERF_COUNT_HW_CPU_CYCLES"));
	/* libpfm4's alias of INSTRUCTION_RETIRED */
	ck_assert_ptr_nonnull(strstr(buf, "skl::INSTRUCTION_RETIRED "));
	ck_assert_ptr_null(strstr(buf, "skl::INSTRUCTIONS_RETIRED "));
	/* every event once: no name, nor any spelling of one, twice */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], alias[256];
		int k;

		if (strncmp(line, "  ", 2))
			continue;
		k = sscanf(line, " %255s OR %255s", name, alias);
		ck_assert_uint_lt(lines, n);
		names[lines++] = strdup(name);
		for (size_t i = 0; i + 1 < lines; i++)
			ck_assert_msg(strcasecmp(names[i], name), "%s twice", name);
		if (k == 2) {
			struct perf_event_attr a, b;
			bool hw;

			/* the two spellings are one event */
			ck_assert_int_eq(events_encode(name, false, &a, &hw), 0);
			ck_assert_int_eq(events_encode(alias, false, &b, &hw), 0);
			ck_assert(counters_attr_same(&a, &b));
		}
		/* every generic name listed is one pmctop takes */
		if (!strchr(name, ':') && !strchr(name, '/')) {
			struct perf_event_attr a;
			bool hw;

			ck_assert_msg(events_encode(name, false, &a, &hw) == 0, "%s", name);
		}
	}
	ck_assert_uint_eq(lines, n);
	for (size_t i = 0; i < lines; i++)
		free(names[i]);
	free(names);
	free(buf);
	events_fini();
}
END_TEST

START_TEST(test_list_pattern_lists_tracepoints)
{
	size_t n;
	char *buf;

	force_skl();
	buf = list_skl("sched_sw", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(buf, "Tracepoints:\n  sched:sched_switch                             "
			      "[Tracepoint event]\n");
	free(buf);
	buf = list_skl("faults", &n);
	ck_assert_ptr_nonnull(strstr(buf, "Software events:\n  page-faults OR faults "));
	ck_assert_ptr_null(strstr(buf, "Tracepoints"));
	ck_assert_ptr_null(strstr(buf, "Hardware events"));
	free(buf);
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
	tcase_add_loop_test(tc, test_perf_modifiers_set_precise_ip, 0,
			    sizeof(MOD_CASES) / sizeof(MOD_CASES[0]));
	tcase_add_test(tc, test_modifiers_are_part_of_an_events_identity);
	tcase_add_test(tc, test_tracepoints_take_their_id_from_tracefs);
	tcase_add_test(tc, test_list_groups_each_event_once);
	tcase_add_test(tc, test_list_pattern_lists_tracepoints);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
