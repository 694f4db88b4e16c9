/* Tests of option parsing: good values land in struct options, bad ones name themselves. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#include "app/options.h"
#include "testutil.h"

static int parse(struct options *o, char *err, size_t size, const char *a1, const char *a2,
		 const char *a3)
{
	char *argv[5] = { (char *)"pmctop", (char *)a1, (char *)a2, (char *)a3, NULL };
	int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL);

	return options_parse(o, argc, argv, err, size);
}

/* --config names the settings file, --no-config reads none; not both, and never an empty name. */
START_TEST(test_config_options)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--config", "/x/rc", NULL), 0);
	ck_assert_str_eq(o.config, "/x/rc");
	ck_assert(!o.no_config);
	options_release(&o);
	ck_assert_ptr_null(o.config);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--no-config", NULL, NULL), 0);
	ck_assert(o.no_config);
	ck_assert_ptr_null(o.config);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--config", "rc", "--no-config"), -EINVAL);
	ck_assert_str_eq(err, "'--config' and '--no-config' contradict each other: give one");
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--config=", NULL, NULL), -EINVAL);
	ck_assert_str_eq(err, "'--config' needs a file name");
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--no-config=1", NULL, NULL), -EINVAL);
	ck_assert_str_eq(err, "option '--no-config' takes no value: drop '=1'");
	options_release(&o);
}
END_TEST

/* --record-size bounds a recording: given without --record it would do nothing, unseen. */
START_TEST(test_record_size_needs_record)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--record-size", "10M", NULL), -EINVAL);
	ck_assert_str_eq(err, "'--record-size' bounds a recording: it needs '--record FILE'");
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--record-size", "10M", "--record=x.rec"), 0);
	ck_assert_int_eq(o.record_size, 10ull << 20);
	options_release(&o);
}
END_TEST

START_TEST(test_batch_options)
{
	struct options o;
	char err[256];
	char *argv[] = { "pmctop", "-b",   "-n",  "3",	"-d",	"0.5", "-p",
			 "1,22",   "-s",   "cpi", "-o", "json", "-e",  "cycles,instructions:u",
			 "-u",	   "root", NULL };

	ck_assert_int_eq(options_parse(&o, 16, argv, err, sizeof(err)), 0);
	ck_assert(o.batch);
	ck_assert_int_eq(o.iterations, 3);
	ck_assert(o.delay == 0.5 && o.delay_set);
	ck_assert_uint_eq(o.npids, 2);
	ck_assert_int_eq(o.pids[1], 22);
	ck_assert_str_eq(o.sort, "cpi");
	ck_assert_int_eq(o.format, OUTPUT_JSON);
	ck_assert_uint_eq(o.nevents, 2);
	ck_assert_str_eq(o.events[1], "instructions:u");
	ck_assert_str_eq(o.user, "root");
	options_release(&o);
}
END_TEST

/* The mouse is the screen's unless --no-mouse gives it to the terminal. */
START_TEST(test_no_mouse)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-d", "2", NULL), 0);
	ck_assert(!o.no_mouse);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--no-mouse", NULL, NULL), 0);
	ck_assert(o.no_mouse);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--no-mouse=1", NULL, NULL), -EINVAL);
	ck_assert_str_eq(err, "option '--no-mouse' takes no value: drop '=1'");
}
END_TEST

static const struct {
	int line;
	const char *a1, *a2, *a3;
	const char *want; /* substring of the message */
} BAD[] = {
	{ __LINE__, "-x", NULL, NULL, "unknown option '-x'" },
	{ __LINE__, "--bogus", NULL, NULL, "unknown option '--bogus'" },
	{ __LINE__, "-d", "-1", NULL, "invalid delay '-1'" },
	{ __LINE__, "-d", "abc", NULL, "invalid delay 'abc'" },
	{ __LINE__, "-d", "0", NULL, "invalid delay '0'" },
	{ __LINE__, "-n", "0", NULL, "invalid frame count '0'" },
	{ __LINE__, "-n", "-5", NULL, "invalid frame count '-5'" },
	{ __LINE__, "-n", "2x", NULL, "invalid frame count '2x'" },
	{ __LINE__, "-p", "12,abc", NULL, "invalid pid in '12,abc'" },
	{ __LINE__, "-p", "-3", NULL, "invalid pid" },
	{ __LINE__, "-p", "5,", NULL, "ends with a comma" },
	{ __LINE__, "-o", "xml", NULL, "unknown output format 'xml'" },
	{ __LINE__, "-e", "a,,b", NULL, "empty event name" },
	{ __LINE__, "-e", "a,", NULL, "ends with a comma" },
	{ __LINE__, "-u", "", NULL, "needs a user" },
	{ __LINE__, "-d", NULL, NULL, "needs a value" },
	{ __LINE__, "stray", NULL, NULL, "unexpected argument 'stray'" },
	{ __LINE__, "-b", "--", NULL, "'--' must be followed by a command" },
	{ __LINE__, "-p", "1", "--", "'--' must be followed by a command" },
	{ __LINE__, "--replay", "x.rec", "stray", "a command to run comes after '--'" },
	{ __LINE__, "--sample", "4294967297", NULL, "invalid pid" },
	{ __LINE__, "-p", "2147483648", NULL, "invalid pid" },
	{ __LINE__, "--per-user", "-H", NULL, "'--per-user' sums processes" },
	{ __LINE__, "--bpf", "--replay", "x.rec", "'--bpf' is a way of counting live" },
	{ __LINE__, "--per-user", "--sample", "5", "cannot be used with '--sample'" },
	{ __LINE__, "--task-counts", "fast", NULL,
	  "invalid value 'fast' for --task-counts: give auto, bpf, proc or perf" },
	{ __LINE__, "--task-counts=", NULL, NULL, "invalid value '' for --task-counts" },
	{ __LINE__, "--task-counts=proc", "--bpf", NULL,
	  "'--bpf' is '--task-counts=bpf', and '--task-counts' asks for another way" },
	{ __LINE__, "--bpf", "--task-counts=perf", NULL, "of counting processes: give one" },
	{ __LINE__, "--task-counts=perf", "--replay", "x.rec",
	  "'--task-counts' is a way of counting live: it cannot be used with '--replay'" },
};

/* Where process counts come from: auto unless told, each value as named. */
START_TEST(test_task_counts)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", NULL, NULL), 0);
	ck_assert_int_eq(o.task_counts, LIVE_COUNTS_AUTO);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--task-counts=proc", NULL, NULL), 0);
	ck_assert_int_eq(o.task_counts, LIVE_COUNTS_PROC);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--task-counts", "bpf", NULL), 0);
	ck_assert_int_eq(o.task_counts, LIVE_COUNTS_BPF);
	options_release(&o);
	/* --bpf is --task-counts=bpf: with auto it names the way, and -H is no longer refused */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--task-counts=auto", "--bpf", NULL), 0);
	ck_assert_int_eq(o.task_counts, LIVE_COUNTS_BPF);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--bpf", "-H", NULL), 0);
	ck_assert_int_eq(o.task_counts, LIVE_COUNTS_BPF);
	ck_assert(o.threads);
	options_release(&o);
}
END_TEST

START_TEST(test_kernel_threads_and_per_user)
{
	struct options o;
	char err[256] = "";

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--kernel-threads", "--per-user"), 0);
	ck_assert(o.kernel_threads && o.per_user && !o.threads);
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", NULL, NULL), 0);
	ck_assert(!o.kernel_threads && !o.per_user);
	options_release(&o);
}
END_TEST

START_TEST(test_bad_values_are_named)
{
	struct options o;
	char err[256] = "";

	ck_assert_msg(parse(&o, err, sizeof(err), BAD[_i].a1, BAD[_i].a2, BAD[_i].a3) != 0,
		      "line %d accepted", BAD[_i].line);
	ck_assert_msg(strstr(err, BAD[_i].want) != NULL, "line %d: '%s'", BAD[_i].line, err);
	options_release(&o);
}
END_TEST

/* --columns: keys or titles, the off-by-default ones too; a bad list is refused by name. */
START_TEST(test_columns_lists)
{
	static const char *const GOOD[] = {
		"pid,user,cpu",		 "PID,%CPU,COMMAND", " pid , cpi ",
		"nice,virt,shr,lastcpu", "NI,VIRT,SHR,P",    "pid,",
	};
	static const struct {
		int line;
		const char *list, *want;
	} BADLIST[] = {
		{ __LINE__, "pid,bogus", "unknown column 'bogus' for --columns: use pid, user, " },
		{ __LINE__, "PID,%CPUU", "unknown column '%CPUU' for --columns: use pid, " },
		{ __LINE__, "pid,cpu,pid",
		  "column 'pid' is given twice in --columns: name each once" },
		{ __LINE__, "PID,pid", "column 'pid' is given twice in --columns" },
		{ __LINE__, "", "'--columns' needs at least one column: use pid, user, " },
		{ __LINE__, ",", "'--columns' needs at least one column" },
		{ __LINE__, " , ", "'--columns' needs at least one column" },
	};
	struct options o;
	char err[1024];

	for (size_t i = 0; i < sizeof(GOOD) / sizeof(GOOD[0]); i++) {
		ck_assert_msg(parse(&o, err, sizeof(err), "--columns", GOOD[i], NULL) == 0,
			      "'%s' refused: %s", GOOD[i], err);
		ck_assert_str_eq(o.columns, GOOD[i]);
		options_release(&o);
	}
	for (size_t i = 0; i < sizeof(BADLIST) / sizeof(BADLIST[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(parse(&o, err, sizeof(err), "--columns", BADLIST[i].list, NULL) ==
				      -EINVAL,
			      "line %d accepted", BADLIST[i].line);
		ck_assert_msg(strstr(err, BADLIST[i].want) != NULL, "line %d: '%s'",
			      BADLIST[i].line, err);
		options_release(&o);
	}
	/* the valid names listed are every column's key, the four off by default among them */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--columns=zz", NULL, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "nice, virt, res, shr"));
	ck_assert_ptr_nonnull(strstr(err, "lastcpu"));
	ck_assert_ptr_nonnull(strstr(err, ", command"));
	options_release(&o);
}
END_TEST

START_TEST(test_replay_allows_zero_delay)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--replay=x.rec", "-d", "0"), 0);
	ck_assert(o.delay == 0 && o.delay_set);
	options_release(&o);
}
END_TEST

START_TEST(test_commas_inside_a_pmu_terms_event_are_its_own)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(
		parse(&o, err, sizeof(err), "-e",
		      "cycles,cpu/event=0xc0,umask=0x1/,msr/tsc/,cpu_atom/event=0x3c/u,faults",
		      NULL),
		0);
	ck_assert_uint_eq(o.nevents, 5);
	ck_assert_str_eq(o.events[0], "cycles");
	ck_assert_str_eq(o.events[1], "cpu/event=0xc0,umask=0x1/");
	ck_assert_str_eq(o.events[2], "msr/tsc/");
	ck_assert_str_eq(o.events[3], "cpu_atom/event=0x3c/u");
	ck_assert_str_eq(o.events[4], "faults");
	options_release(&o);
	/* an unclosed one is cut at the comma, as any name, and refused later by the encoder */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-e", "cpu/event=0xc0,umask=1", NULL), 0);
	ck_assert_uint_eq(o.nevents, 2);
	ck_assert_str_eq(o.events[0], "cpu/event=0xc0");
	options_release(&o);
}
END_TEST

START_TEST(test_list_events_takes_optional_pattern)
{
	struct options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--list-events", "cache", NULL), 0);
	ck_assert(o.list_events);
	ck_assert_str_eq(o.list_pattern, "cache");
	options_release(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--list-events", NULL, NULL), 0);
	ck_assert_ptr_null(o.list_pattern);
	options_release(&o);
}
END_TEST

START_TEST(test_parsing_again_after_an_error_mid_argument)
{
	struct options o;
	char err[256];
	char *a1 = strdup("-bqz"), *a2 = strdup("-c");
	char *argv1[] = { "pmctop", a1, NULL };
	char *argv2[] = { "pmctop", a2, "-n", "2", NULL };

	/* -q fails inside "-bqz": getopt would otherwise keep a pointer into it */
	ck_assert_int_ne(options_parse(&o, 2, argv1, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '-q'"));
	options_release(&o);
	free(a1);
	ck_assert_int_eq(options_parse(&o, 4, argv2, err, sizeof(err)), 0);
	ck_assert(o.cmdline);
	ck_assert(!o.batch);
	ck_assert_int_eq(o.iterations, 2);
	options_release(&o);
	free(a2);
}
END_TEST

/* Everything after "--" is the command, its own options untouched by pmctop's. */
START_TEST(test_command_after_double_dash)
{
	struct options o;
	char err[256];
	char *argv[] = { "pmctop", "-b", "-d", "0.5", "--", "sh", "-c", "exit 3", "-b", NULL };
	char *argv_p[] = { "pmctop", "-p", "1", "--", "true", NULL };

	ck_assert_int_eq(options_parse(&o, 9, argv, err, sizeof(err)), 0);
	ck_assert(o.batch);
	ck_assert_uint_eq(o.ncommand, 4);
	ck_assert_str_eq(o.command[0], "sh");
	ck_assert_str_eq(o.command[1], "-c");
	ck_assert_str_eq(o.command[2], "exit 3");
	ck_assert_str_eq(o.command[3], "-b");
	ck_assert_ptr_null(o.command[4]);
	options_release(&o);
	/* the command's processes are the ones watched */
	ck_assert_int_eq(options_parse(&o, 5, argv_p, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err,
			 "a command to run watches its own processes: it cannot be used with '-p'");
	options_release(&o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_batch_options);
	tcase_add_test(tc, test_command_after_double_dash);
	tcase_add_test(tc, test_config_options);
	tcase_add_test(tc, test_record_size_needs_record);
	tcase_add_test(tc, test_no_mouse);
	tcase_add_test(tc, test_kernel_threads_and_per_user);
	tcase_add_loop_test(tc, test_bad_values_are_named, 0, sizeof(BAD) / sizeof(BAD[0]));
	tcase_add_test(tc, test_task_counts);
	tcase_add_test(tc, test_replay_allows_zero_delay);
	tcase_add_test(tc, test_columns_lists);
	tcase_add_test(tc, test_list_events_takes_optional_pattern);
	tcase_add_test(tc, test_commas_inside_a_pmu_terms_event_are_its_own);
	tcase_add_test(tc, test_parsing_again_after_an_error_mid_argument);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
