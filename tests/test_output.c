/* Tests of batch output: golden frames in three formats from a replayed recording. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "out/output.h"
#include "stream/source_replay.h"
#include "testutil.h"

/* Replay rec through the model and render every frame in fmt, sorted by key. */
static char *render_all(const char *rec, enum output_format fmt, const char *key, bool reverse,
			bool threads, bool sampling)
{
	char path[512], err[256], *buf = NULL;
	size_t len = 0;
	FILE *in, *out;
	struct source *src;
	struct model *m;
	struct snapshot s;
	struct output o;

	/* a name is under tests/data; a path (from testutil_long_event_rec) is itself */
	if (rec[0] == '/')
		snprintf(path, sizeof(path), "%s", rec);
	else
		snprintf(path, sizeof(path), "%s/data/%s", TEST_SRCDIR, rec);
	in = fopen(path, "r");
	ck_assert_ptr_nonnull(in);
	src = source_replay_new(in, rec, err, sizeof(err));
	ck_assert_msg(src != NULL, "%s", err);
	m = model_new(&src->ev);
	model_sort(m, model_sort_key(m, key), reverse);
	out = open_memstream(&buf, &len);
	memset(&o, 0, sizeof(o));
	o.f = out;
	o.fmt = fmt;
	o.threads = threads;
	o.sampling = sampling;
	o.top = 6;
	snapshot_init(&s, src->ev.n);
	/* every tick is a frame, as in batch mode: the first with /proc's columns only */
	while (source_read(src, &s) == 0) {
		model_update(m, &s);
		ck_assert_int_eq(output_frame(&o, m, src->mode), 0);
	}
	fclose(out);
	output_release(&o);
	snapshot_release(&s);
	model_free(m);
	source_free(src);
	return buf;
}

/* Every frame of rec as per-user totals (--per-user) in fmt. */
static char *render_users(const char *rec, enum output_format fmt)
{
	char path[512], err[256], *buf = NULL;
	size_t len = 0;
	FILE *in, *out;
	struct source *src;
	struct model *m;
	struct snapshot s;
	struct output o;

	/* a name is under tests/data; a path (from testutil_long_event_rec) is itself */
	if (rec[0] == '/')
		snprintf(path, sizeof(path), "%s", rec);
	else
		snprintf(path, sizeof(path), "%s/data/%s", TEST_SRCDIR, rec);
	in = fopen(path, "r");
	ck_assert_ptr_nonnull(in);
	src = source_replay_new(in, rec, err, sizeof(err));
	ck_assert_msg(src != NULL, "%s", err);
	m = model_new(&src->ev);
	out = open_memstream(&buf, &len);
	memset(&o, 0, sizeof(o));
	o.f = out;
	o.fmt = fmt;
	o.per_user = true;
	snapshot_init(&s, src->ev.n);
	while (source_read(src, &s) == 0) {
		model_update(m, &s);
		ck_assert_int_eq(output_frame(&o, m, src->mode), 0);
	}
	fclose(out);
	output_release(&o);
	snapshot_release(&s);
	model_free(m);
	source_free(src);
	return buf;
}

static char *render_rows(const char *rec, enum output_format fmt, const char *key, bool reverse,
			 bool threads)
{
	return render_all(rec, fmt, key, reverse, threads, false);
}

static char *render(const char *rec, enum output_format fmt, const char *key, bool reverse)
{
	return render_rows(rec, fmt, key, reverse, false);
}

static void golden(const char *name, const char *got)
{
	testutil_golden(name, got);
}

START_TEST(test_golden_text)
{
	char *s = render("hw.rec", OUTPUT_TEXT, "cpu", false);

	golden("hw.txt", s);
	/* the numbers a reader checks by hand */
	ck_assert_ptr_nonnull(strstr(s, "Events: hardware events (skl)"));
	ck_assert_ptr_nonnull(strstr(s, "1 not counted (permission denied)"));
	free(s);
}
END_TEST

START_TEST(test_golden_text_by_cpi)
{
	char *s = render("hw.rec", OUTPUT_TEXT, "cpi", false);

	golden("hw-cpi.txt", s);
	free(s);
}
END_TEST

START_TEST(test_golden_csv)
{
	char *s = render("hw.rec", OUTPUT_CSV, "pid", false);
	const char *second;

	golden("hw.csv", s);
	/* one header line only */
	second = strstr(s + 1, "time,kind");
	ck_assert_ptr_null(second);
	free(s);
}
END_TEST

START_TEST(test_golden_json)
{
	char *s = render("hw.rec", OUTPUT_JSON, "pid", false);
	size_t lines = 0;

	golden("hw.json", s);
	for (const char *p = s; *p; p++)
		lines += *p == '\n';
	ck_assert_uint_eq(lines, 3); /* one object per frame, the first one's at once */
	free(s);
}
END_TEST

START_TEST(test_software_recording_hides_hardware_columns)
{
	char *s = render("sw.rec", OUTPUT_TEXT, "cpu", false);

	golden("sw.txt", s);
	ck_assert_ptr_null(strstr(s, "IPC"));
	ck_assert_ptr_null(strstr(s, "GHZ"));
	ck_assert_ptr_nonnull(strstr(s, "%CPU"));
	ck_assert_ptr_nonnull(strstr(s, "PF/s"));
	free(s);
}
END_TEST

/* The first line of s that starts with prefix, copied into buf ("" when none). */
static const char *line_of(const char *s, const char *prefix, char *buf, size_t size)
{
	const char *p = s;

	buf[0] = '\0';
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(buf, size, "%.*s", (int)n, p);
			break;
		}
		p = nl ? nl + 1 : NULL;
	}
	return buf;
}

/* A real PMU (QEMU's) without cache, TLB and branch events: the columns stay and say so. */
START_TEST(test_unsupported_columns_are_kept_and_said)
{
	char *t = render("qemu-6.1-basic.rec", OUTPUT_TEXT, "cpu", false);
	char *c = render("qemu-6.1-basic.rec", OUTPUT_CSV, "cpu", false);
	char *j = render("qemu-6.1-basic.rec", OUTPUT_JSON, "cpu", false);
	char line[1024];

	ck_assert_str_eq(line_of(t, "Columns ", line, sizeof(line)),
			 "Columns not supported by this PMU: CACHE% L1D% DTLB% BRMIS%");
	ck_assert_ptr_nonnull(strstr(line_of(t, "    PID ", line, sizeof(line)),
				     "CPI CACHE%  L1D% DTLB% BRMIS%    PF/s"));
	/* CSV: present and empty; JSON: null */
	ck_assert_ptr_nonnull(
		strstr(line_of(c, "time,", line, sizeof(line)), ",cpi,cache,l1d,dtlb,brmis,pf,"));
	ck_assert_ptr_nonnull(strstr(line_of(c, "1795328572.260,process,", line, sizeof(line)),
				     ",1.000,1.000,1.000,,,,,0.0,"));
	ck_assert_ptr_nonnull(
		strstr(j, "\"cache\":null,\"l1d\":null,\"dtlb\":null,\"brmis\":null"));
	ck_assert_ptr_null(strstr(j, "\"cache\":0"));
	free(t);
	free(c);
	free(j);
}
END_TEST

/* Without any PMU the hardware columns are hidden on text but CSV has the same columns. */
START_TEST(test_csv_columns_are_the_same_with_or_without_a_pmu)
{
	char *sw = render("sw.rec", OUTPUT_CSV, "cpu", false);
	char *hw = render("qemu-6.1-basic.rec", OUTPUT_CSV, "cpu", false);
	char a[1024], b[1024];

	line_of(sw, "time,", a, sizeof(a));
	line_of(hw, "time,", b, sizeof(b));
	/* the same but for the recording's -e event, instructions */
	ck_assert_str_eq(
		a, "time,kind,id,user,threads,state,nice,virt,res,shr,mem,cputime,lastcpu,cpu,"
		   "ghz,ipc,cpi,cache,l1d,dtlb,brmis,pf,cs,mig,counted,estimated,suspect,"
		   "not_counted,command,cmdline");
	ck_assert_str_eq(b, "time,kind,id,user,threads,state,nice,virt,res,shr,mem,cputime,lastcpu,"
			    "cpu,ghz,ipc,cpi,cache,l1d,dtlb,brmis,pf,cs,mig,counted,instructions,"
			    "estimated,suspect,not_counted,command,cmdline");
	free(sw);
	free(hw);
}
END_TEST

/* Multiplexed -e events are listed as estimated in CSV and JSON, as the text marks them with *. */
START_TEST(test_multiplexed_event_columns_are_listed_as_estimated)
{
	char *c = render("qemu-6.1-mux.rec", OUTPUT_CSV, "cpu", false);
	char *j = render("qemu-6.1-mux.rec", OUTPUT_JSON, "cpu", false);

	ck_assert_ptr_nonnull(strstr(c, ",ghz;ipc;cpi;r08;r11;r23;r24;r3c;r03;r04;r10,"));
	ck_assert_ptr_nonnull(strstr(j, "\"estimated\":[\"ghz\",\"ipc\",\"cpi\",\"r08\",\"r11\","
					"\"r23\",\"r24\",\"r3c\",\"r03\",\"r04\",\"r10\"]"));
	free(c);
	free(j);
}
END_TEST

/*
 * -e events in text are per second like PF/s, a long name under a short
 * title that a legend line names; CSV and JSON keep the count in the
 * interval. The ticks are 2 s apart, so the two differ.
 */
START_TEST(test_event_rates_in_text_counts_in_csv_and_json)
{
	char rec[256];
	char *t, *c, *j, *u, *frame, *row;

	testutil_long_event_rec(rec, sizeof(rec));
	t = render(rec, OUTPUT_TEXT, "pid", false);
	c = render(rec, OUTPUT_CSV, "pid", false);
	j = render(rec, OUTPUT_JSON, "pid", false);
	u = render_users(rec, OUTPUT_TEXT);
	unlink(rec);
	golden("hw-long-event.txt", t);
	ck_assert_ptr_nonnull(strstr(t, "\nLegend: e1/s = " TESTUTIL_LONG_EVENT " per second\n"));
	ck_assert_ptr_nonnull(strstr(u, "\nLegend: e1/s = " TESTUTIL_LONG_EVENT " per second\n"));
	ck_assert_ptr_nonnull(strstr(t, " MIG/s CNT%       e1/s COMMAND\n"));
	ck_assert_ptr_null(strstr(t, "cpu_core/mem_load_retired.l3_m "));
	/* pid 202 missed 15000000 times in each 2 s interval */
	frame = strstr(t, "interval 2.00 s");
	ck_assert_ptr_nonnull(frame);
	row = strstr(frame, "\n    202 bob ");
	ck_assert_ptr_nonnull(row);
	ck_assert_ptr_nonnull(strstr(row, "  100    7500000 stream\n"));
	ck_assert(strstr(row, "  100    7500000 stream\n") < strchr(row + 1, '\n') + 1);
	ck_assert_ptr_nonnull(strstr(c, ",counted," TESTUTIL_LONG_EVENT ",estimated,"));
	ck_assert_ptr_nonnull(strstr(c, ",100.0,15000000,,,,stream,"));
	ck_assert_ptr_null(strstr(c, "7500000"));
	ck_assert_ptr_nonnull(strstr(j, "\"events\":{\"" TESTUTIL_LONG_EVENT "\":15000000}"));
	ck_assert_ptr_null(strstr(j, "7500000"));
	free(t);
	free(c);
	free(j);
	free(u);
}
END_TEST

START_TEST(test_golden_threads)
{
	char *s = render_rows("hw.rec", OUTPUT_TEXT, "cpu", false, true);
	char *j = render_rows("hw.rec", OUTPUT_JSON, "pid", false, true);

	golden("hw-threads.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "Threads: 4 shown"));
	ck_assert_ptr_nonnull(strstr(j, "\"threads\":[{\"tid\":101,\"pid\":101,"));
	free(s);
	free(j);
}
END_TEST

/* Batch hot pages name an anonymous mapping by its range, as the screen does. */
START_TEST(test_anonymous_mappings_by_range)
{
	char *t = render_all("steps.rec", OUTPUT_TEXT, "cpu", false, false, true);
	char *j = render_all("steps.rec", OUTPUT_JSON, "cpu", false, false, true);

	ck_assert_ptr_nonnull(strstr(t, " -            [anon 7f200000-7f208000]\n"));
	ck_assert_ptr_nonnull(strstr(j, "\"mapping\":\"[anon 7f12a000-7f13b000]\""));
	free(t);
	free(j);
}
END_TEST

/*
 * --per-user: one row per user. alice's two processes in the last frame,
 * 101 (IPC 2, 2.7e9 cycles/s) and 505 (IPC 1.5, 2e8 cycles/s), give her
 * (5.4e9 + 3e8) / (2.7e9 + 2e8) = 1.97, not the 1.75 of the average. 101's
 * L1 group did not run: her L1D% is n/a (empty), not 505's alone.
 */
START_TEST(test_golden_per_user)
{
	char *t = render_users("hw.rec", OUTPUT_TEXT);
	char *c = render_users("hw.rec", OUTPUT_CSV);
	char *j = render_users("hw.rec", OUTPUT_JSON);

	golden("hw-users.txt", t);
	golden("hw-users.csv", c);
	ck_assert_ptr_nonnull(strstr(t, "  PROCS USER       THR S    RES"));
	ck_assert_ptr_nonnull(strstr(t, "Users: 4 shown, of 5 tasks"));
	ck_assert_ptr_nonnull(strstr(
		c,
		"time,kind,uid,user,processes,threads,nice,virt,res,shr,mem,cputime,lastcpu,cpu,"));
	ck_assert_ptr_nonnull(strstr(c, "\n1763770002.000,user,1000,alice,2,6,,,588288,,3.51,"));
	ck_assert_ptr_nonnull(strstr(c, ",100.00,2.900,1.966,0.509,2.27,,0.01,"));
	/* root's only process is not counted: the row says so, with its memory */
	ck_assert_ptr_nonnull(strstr(c, "\n1763770002.000,user,0,root,1,1,,,12000,,0.07,0.08,,"));
	ck_assert_ptr_nonnull(
		strstr(j, "{\"uid\":1000,\"user\":\"alice\",\"processes\":2,\"threads\":6,"
			  "\"nice\":null,\"virt\":null,\"res\":588288,"));
	ck_assert_ptr_nonnull(strstr(j, "\"not_counted\":\"permission denied\"}"));
	free(t);
	free(c);
	free(j);
	/* with cgroups: their rows first, then the users; the cgroup column on both */
	c = render_users("cgroup.rec", OUTPUT_CSV);
	j = render_users("cgroup.rec", OUTPUT_JSON);
	ck_assert_ptr_nonnull(strstr(c, ",estimated,suspect,not_counted,cgroup\n"));
	ck_assert_ptr_nonnull(strstr(c, "\n1795300002.000,cgroup,,,2,,,,,,,,,120.00,"));
	ck_assert_ptr_nonnull(strstr(c, ",20.0,,,,,/system.slice\n"));
	ck_assert_ptr_nonnull(strstr(c, ",out of file descriptors,/web.slice\n"));
	ck_assert_ptr_nonnull(strstr(c, "\n1795300002.000,user,1000,alice,1,4,,,,,,,,90.00,"));
	ck_assert_ptr_nonnull(strstr(c, ",10.0,,,,,\n1795300002.000,user,0,root,"));
	ck_assert_ptr_nonnull(strstr(j, "\"cgroups\":[{\"cgroup\":\"/system.slice\",\"procs\":2,"));
	ck_assert_ptr_nonnull(strstr(j, "\"users\":[{\"uid\":1000,\"user\":\"alice\""));
	free(c);
	free(j);
}
END_TEST

START_TEST(test_golden_sampling)
{
	char *t = render_all("hw.rec", OUTPUT_TEXT, "cpu", false, false, true);
	char *c = render_all("hw.rec", OUTPUT_CSV, "cpu", false, false, true);
	char *j = render_all("hw.rec", OUTPUT_JSON, "cpu", false, false, true);

	golden("hw-sample.txt", t);
	golden("hw-sample.csv", c);
	golden("hw-sample.json", j);
	ck_assert_ptr_nonnull(strstr(t, "Sampling pid 202: Intel PEBS, period 10007"));
	ck_assert_ptr_nonnull(strstr(t, "DRAM         [heap]"));
	ck_assert_ptr_nonnull(strstr(j, "\"data_source\":\"DRAM\",\"mapping\":\"[heap]\""));
	free(t);
	free(c);
	free(j);
}
END_TEST

/*
 * Each page's NUMA node and remote share, and the process's, in all three
 * formats; a page never located shows none, not node 0.
 */
START_TEST(test_golden_sampling_numa)
{
	char *t = render_all("numa.rec", OUTPUT_TEXT, "cpu", false, false, true);
	char *c = render_all("numa.rec", OUTPUT_CSV, "cpu", false, false, true);
	char *j = render_all("numa.rec", OUTPUT_JSON, "cpu", false, false, true);

	golden("numa-sample.txt", t);
	golden("numa-sample.csv", c);
	golden("numa-sample.json", j);
	ck_assert_ptr_nonnull(strstr(t, "NUMA: remote 50.0% of 6 samples"));
	ck_assert_ptr_nonnull(strstr(t, " NODE REMOTE% MAPPING\n"));
	ck_assert_ptr_nonnull(strstr(t, " -               1      75 [heap]\n"));
	ck_assert_ptr_nonnull(strstr(t, " -               -       - [heap]\n"));
	ck_assert_ptr_nonnull(strstr(c, ",0x10000000,57.14,4.00,,,,,[heap],1,75.00\n"));
	ck_assert_ptr_nonnull(strstr(c, ",0x10002000,14.29,1.00,,,,,[heap],,\n"));
	ck_assert_ptr_nonnull(strstr(j, "\"located\":6,\"remote\":50.00,"));
	ck_assert_ptr_nonnull(strstr(j, "\"sources\":{},\"node\":1,\"remote\":75.00}"));
	ck_assert_ptr_nonnull(strstr(j, "\"mapping\":\"[heap]\",\"sources\":{}}]}"));
	free(t);
	free(c);
	free(j);
	/* a recording without nodes has no node column and no NUMA line */
	t = render_all("hw.rec", OUTPUT_TEXT, "cpu", false, false, true);
	ck_assert_ptr_null(strstr(t, "NODE"));
	ck_assert_ptr_null(strstr(t, "NUMA"));
	free(t);
}
END_TEST

/* Page-fault samples say no load or store: CSV leaves loads and stores empty, JSON null, as
 * the text's "-", never 0 and 0. */
START_TEST(test_page_fault_samples_have_no_loads_or_stores)
{
	char *t = render_all("steps.rec", OUTPUT_TEXT, "cpu", false, false, true);
	char *c = render_all("steps.rec", OUTPUT_CSV, "cpu", false, false, true);
	char *j = render_all("steps.rec", OUTPUT_JSON, "cpu", false, false, true);

	ck_assert_ptr_nonnull(strstr(t, "Sampling pid 100: page faults"));
	ck_assert_ptr_nonnull(strstr(c, ",page faults,1,0x1e4b000,33.33,2.00,,,,,[heap],,\n"));
	ck_assert_ptr_null(strstr(c, ",0,0,,,"));
	ck_assert_ptr_nonnull(strstr(j, "\"loads\":null,\"stores\":null,\"latency\":null,"));
	ck_assert_ptr_null(strstr(j, "\"loads\":0,"));
	free(t);
	free(c);
	free(j);
	/* PEBS samples do say: their counts stay */
	c = render_all("hw.rec", OUTPUT_CSV, "cpu", false, false, true);
	ck_assert_ptr_nonnull(strstr(c, ",Intel PEBS,1,"));
	free(c);
}
END_TEST

/* Where each column's name comes in a header line; -1 when missing. */
static long header_pos(const char *line, const char *name, char sep)
{
	size_t n = strlen(name);

	for (const char *p = line; *p && *p != '\n'; p++)
		if ((p == line || p[-1] == sep) && !strncmp(p, name, n) &&
		    (p[n] == sep || p[n] == '\n' || p[n] == '\0'))
			return p - line;
	return -1;
}

/* Every column of the table is in the CSV header, the text titles and JSON, in table order. */
START_TEST(test_every_column_in_table_order)
{
	char *csv = render("hw.rec", OUTPUT_CSV, "pid", false);
	char *txt = render("hw.rec", OUTPUT_TEXT, "pid", false);
	char *json = render("hw.rec", OUTPUT_JSON, "pid", false);
	const char *titles = strstr(txt, "    PID USER");
	const char *proc = strstr(json, "\"processes\":[{");
	long last_csv = -1, last_txt = -1;
	const char *last_json = proc;

	ck_assert_ptr_nonnull(titles);
	ck_assert_ptr_nonnull(proc);
	for (int i = 0; i < COL_MAX; i++) {
		const struct column *c = columns_get(i);
		char key[64];
		long pc, pt;
		const char *pj;

		if (c->cgroups)
			continue; /* shown where cgroups are known: see test_cgroup_frames */
		/* a column off until chosen (NI, VIRT, SHR, P) is in CSV and JSON, not the text */
		if (!c->off) {
			pt = header_pos(titles, c->title, ' ');
			ck_assert_msg(pt > last_txt, "text title %s out of order", c->title);
			last_txt = pt;
		}
		if (i == COL_PID)
			continue; /* CSV says id, as CPU rows share the column */
		pc = header_pos(csv, c->key, ',');
		ck_assert_msg(pc > last_csv, "CSV column %s out of order", c->key);
		last_csv = pc;
		snprintf(key, sizeof(key), "\"%s\":", c->key);
		pj = strstr(last_json, key);
		ck_assert_msg(pj != NULL, "JSON field %s out of order", c->key);
		last_json = pj;
	}
	/* the -e event comes after the table's numbers and before the command */
	ck_assert_int_gt(header_pos(csv, "LLC-load-misses", ','), header_pos(csv, "counted", ','));
	ck_assert_int_lt(header_pos(csv, "LLC-load-misses", ','), header_pos(csv, "command", ','));
	free(csv);
	free(txt);
	free(json);
}
END_TEST

/* Cgroup rows in the three formats, and the frames of --cgroups alone (no process rows). */
START_TEST(test_cgroup_frames)
{
	char *txt = render("cgroup.rec", OUTPUT_TEXT, "cpu", false);
	char *csv = render("cgroup.rec", OUTPUT_CSV, "cpu", false);
	char *json = render("cgroup.rec", OUTPUT_JSON, "cpu", false);
	char line[512];

	golden("cgroup.txt", txt);
	golden("cgroup.csv", csv);
	golden("cgroup.json", json);
	/* the cgroup table: its processes, numbers and path; busiest first */
	ck_assert_str_eq(line_of(txt, "PROCS", line, sizeof(line)),
			 "PROCS   %CPU    PF/s   CS/s MIG/s CGROUP");
	ck_assert_str_eq(line_of(txt, "    2  120.0", line, sizeof(line)),
			 "    2  120.0    3000    900    20 /system.slice");
	ck_assert_ptr_nonnull(strstr(txt, "not counted: out of file descriptors /web.slice"));
	ck_assert_ptr_nonnull(strstr(txt, "Cgroups: 4 shown, 48 file descriptors, 1 not counted"));
	/* a process's cgroup: the path's end where it does not fit */
	ck_assert_ptr_nonnull(strstr(txt, "...ce/db.service db-server"));
	ck_assert_ptr_nonnull(strstr(csv, ",not_counted,command,cmdline,cgroup\n"));
	/* no S, NI, VIRT, RES, SHR, %MEM, TIME+ or P of a cgroup: empty fields before its %CPU */
	ck_assert_ptr_nonnull(strstr(csv, ",cgroup,,,1,,,,,,,,,90.00,"));
	ck_assert_ptr_nonnull(strstr(csv, ",/system.slice/db.service\n"));
	ck_assert_ptr_nonnull(
		strstr(json, "\"cgroup_fds\":48,\"cgroups\":[{\"cgroup\":\"/system.slice\""));
	ck_assert_ptr_nonnull(
		strstr(json, "{\"cgroup\":\"/web.slice\",\"procs\":0,\"not_counted\":"));
	ck_assert_ptr_nonnull(strstr(json, "\"cgroup\":\"/init.scope\""));
	free(txt);
	free(csv);
	free(json);
}
END_TEST

START_TEST(test_format_num)
{
	char b[32];

	columns_format_num(b, sizeof(b), NAN, 2, 0);
	ck_assert_str_eq(b, "-");
	columns_format_num(b, sizeof(b), NAN, 2, COL_F_NA);
	ck_assert_str_eq(b, "n/a");
	columns_format_num(b, sizeof(b), 1.234, 2, COL_F_EST);
	ck_assert_str_eq(b, "1.23*");
	columns_format_num(b, sizeof(b), 0, 1, 0);
	ck_assert_str_eq(b, "0.0");
	columns_format_num(b, sizeof(b), 0, 0, COL_F_SUSPECT | COL_F_EST);
	ck_assert_str_eq(b, "0?");
}
END_TEST

/* Numbers wider than their column are scaled as top does, never cut (PF/s 123456789 showed 1234567). */
START_TEST(test_format_fit_scales_and_never_cuts)
{
	static const struct {
		int line;
		double v;
		int prec, width;
		bool est;
		const char *want;
	} T[] = {
		{ __LINE__, 123456789, 0, 7, false, "123457K" },
		{ __LINE__, 123456789, 0, 5, false, "123M" },
		{ __LINE__, 1234567, 0, 7, false, "1234567" },
		{ __LINE__, 12345678, 0, 7, false, "12346K" },
		{ __LINE__, 12345678, 0, 4, false, "12M" },
		{ __LINE__, 99999.5, 1, 7, false, "99999.5" },
		{ __LINE__, 999999.5, 1, 7, false, "1000000" },
		{ __LINE__, 123456.75, 2, 6, true, "123K*" },
		{ __LINE__, 4.2e15, 0, 6, false, "4200T" },
		{ __LINE__, 4.2e15, 0, 4, false, "4.2P" },
		{ __LINE__, 3.5, 2, 6, false, "3.50" },
		{ __LINE__, 123456789, 0, 0, false, "123456789" }, /* no limit: batch text */
		{ __LINE__, NAN, 2, 3, false, "-" },
	};

	for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++) {
		char b[32];

		columns_format_fit(b, sizeof(b), T[i].v, T[i].prec, T[i].width,
				   T[i].est ? COL_F_EST : 0);
		ck_assert_msg(!strcmp(b, T[i].want), "line %d: got '%s'", T[i].line, b);
		if (T[i].width > 0)
			ck_assert_msg((int)strlen(b) <= T[i].width, "line %d", T[i].line);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, test_golden_text);
	tcase_add_test(tc, test_golden_text_by_cpi);
	tcase_add_test(tc, test_golden_per_user);
	tcase_add_test(tc, test_golden_csv);
	tcase_add_test(tc, test_golden_json);
	tcase_add_test(tc, test_software_recording_hides_hardware_columns);
	tcase_add_test(tc, test_golden_threads);
	tcase_add_test(tc, test_event_rates_in_text_counts_in_csv_and_json);
	tcase_add_test(tc, test_unsupported_columns_are_kept_and_said);
	tcase_add_test(tc, test_csv_columns_are_the_same_with_or_without_a_pmu);
	tcase_add_test(tc, test_multiplexed_event_columns_are_listed_as_estimated);
	tcase_add_test(tc, test_golden_sampling);
	tcase_add_test(tc, test_golden_sampling_numa);
	tcase_add_test(tc, test_page_fault_samples_have_no_loads_or_stores);
	tcase_add_test(tc, test_anonymous_mappings_by_range);
	tcase_add_test(tc, test_every_column_in_table_order);
	tcase_add_test(tc, test_cgroup_frames);
	tcase_add_test(tc, test_format_num);
	tcase_add_test(tc, test_format_fit_scales_and_never_cuts);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
