/* Tests of the recording format: escaping, the hand-written stream, malformed input, round trip. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream/recording.h"
#include "stream/source_replay.h"
#include "testutil.h"

/* Feed text line by line; returns the number of complete snapshots, or -line of the error. */
static long feed_all(struct recording_reader *r, const char *text, struct snapshot *snaps,
		     size_t max)
{
	const char *p = text;
	size_t n = 0;
	struct snapshot tmp;

	snapshot_init(&tmp, 0);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int ret = recording_feed(r, p, len, &tmp);

		if (ret < 0) {
			snapshot_release(&tmp);
			return -(long)r->line;
		}
		if (ret == 1 && n < max)
			snapshot_copy(&snaps[n++], &tmp);
		p += len + (nl ? 1 : 0);
	}
	snapshot_release(&tmp);
	return (long)n;
}

START_TEST(test_escape_round_trip)
{
	static const char *const CASES[] = { "plain",	  "with space", "100%",	   "",
					     "tab\there", "new\nline",	"ünïcode", "%20" };
	char enc[128], dec[128];

	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		recording_escape(CASES[i], enc, sizeof(enc));
		ck_assert_ptr_null(strchr(enc, ' '));
		ck_assert_ptr_null(strchr(enc, '\n'));
		ck_assert_uint_gt(strlen(enc), 0);
		strcpy(dec, enc);
		ck_assert_int_eq(recording_unescape(dec), 0);
		ck_assert_str_eq(dec, CASES[i]);
	}
	strcpy(dec, "bad%2");
	ck_assert_int_eq(recording_unescape(dec), -EINVAL);
	strcpy(dec, "nul%00");
	ck_assert_int_eq(recording_unescape(dec), -EINVAL);
}
END_TEST

START_TEST(test_hand_written_stream_parses)
{
	char *text = testutil_slurp(TEST_SRCDIR "/data/hw.rec", NULL);
	struct recording_reader r;
	struct snapshot s[4];
	const struct snap_task *t;

	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < 4; i++)
		snapshot_init(&s[i], 0);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 4), 3);
	ck_assert_uint_eq(r.ev.n, 15);
	ck_assert_str_eq(r.ev.ev[14].name, "LLC-load-misses");
	ck_assert(r.ev.ev[14].user);
	ck_assert(r.ev.ev[4].hw);
	ck_assert_str_eq(r.mode, "hardware events (skl), recorded by hand");
	ck_assert_uint_eq(s[0].ntasks, 5);
	ck_assert_uint_eq(s[2].ntasks, 6);
	ck_assert_uint_eq(s[0].mem_total_kib, 16777216);
	/* procinfo: /proc's facts of the task or thread line before it */
	t = snapshot_find_task(&s[0], 2);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->pflags, SNAP_TASK_PROC | SNAP_TASK_KTHREAD);
	ck_assert_str_eq(t->cmdline, "");
	t = snapshot_find_task(&s[0], 202);
	ck_assert_uint_eq(t->pflags, SNAP_TASK_PROC);
	ck_assert_uint_eq(t->rss_kib, 3355443);
	ck_assert_uint_eq(t->cpu_ns, 61200000000ull);
	ck_assert_uint_eq(snapshot_find_thread(&s[0], 103)->pflags, SNAP_TASK_PROC);
	ck_assert_uint_eq(s[2].ncpus, 2);
	t = snapshot_find_task(&s[1], 101);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->comm, "db-server");
	ck_assert_str_eq(t->cmdline, "/usr/bin/db-server --port 5432");
	ck_assert_str_eq(t->user, "alice");
	ck_assert_int_eq(t->threads, 4);
	ck_assert_uint_eq(t->c[4].value, 2700000000ull);
	ck_assert_int_eq(s[1].smp.pid, 202);
	ck_assert_str_eq(s[1].smp.source, "Intel PEBS");
	ck_assert_uint_eq(s[1].smp.period, 10007);
	ck_assert_uint_eq(s[1].smp.lost, 3);
	ck_assert_uint_eq(s[1].smp.n, 300);
	ck_assert(!s[1].smp.maps_changed);
	ck_assert(s[0].smp.maps_changed);
	ck_assert_uint_eq(s[0].smp.nmaps, 5);
	ck_assert_str_eq(s[0].smp.maps[2].name, "[heap]");
	ck_assert_uint_eq(s[0].smp.maps[2].start, 0x55d0c1000000ull);
	ck_assert_uint_eq(s[1].smp.v[0].tid, 202);
	ck_assert_uint_le(s[1].smp.v[0].op, 2);
	ck_assert_uint_eq(s[1].nthreads, 4);
	t = snapshot_find_thread(&s[1], 102);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->tgid, 101);
	ck_assert_str_eq(t->comm, "worker-1");
	ck_assert_uint_eq(t->c[4].value, 2700000000ull / 2);
	t = snapshot_find_task(&s[1], 404);
	ck_assert_int_eq(t->err, -EACCES);
	ck_assert_int_eq(t->c[0].err, -EACCES);
	ck_assert_uint_eq(s[1].t_ns, 2000000000ull);
	for (int i = 0; i < 4; i++)
		snapshot_release(&s[i]);
	recording_reader_release(&r);
	free(text);
}
END_TEST

#define HDR "pmctop-recording 1\nevent 0 0 sw default ok task-clock\n"
#define TICK "tick 1000 1.5 0.00 0.00 0.00\n"

static const struct {
	int line;
	const char *text;
	long err_line;
	const char *want;
} BAD_CASES[] = {
	{ __LINE__, "not a recording\n", 1, "pmctop-recording 1" },
	{ __LINE__, "pmctop-recording 2\n", 1, "pmctop-recording 1" },
	{ __LINE__, "pmctop-recording 1\ntick 1 1 0 0 0\n", 2, "at least one 'event'" },
	{ __LINE__, "pmctop-recording 1\nevent 1 0 sw default ok x\n", 2, "event index 0" },
	{ __LINE__, "pmctop-recording 1\nevent 0 0 xx default ok x\n", 2, "'hw' or 'sw'" },
	{ __LINE__, "pmctop-recording 1\nevent 0 0 sw default EWHAT x\n", 2, "errno name" },
	{ __LINE__, "pmctop-recording 1\nbogus line\n", 2, "'modefacts', 'event' or 'tick'" },
	{ __LINE__, HDR "task 1 0 0 root S 1 1 ok 1/1/1 a a\n", 3, "or 'tick', found 'task'" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a\n", 4, "fields" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/2 a a\n", 4, "running <= enabled" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/x/1 a a\n", 4, "value/enabled/running" },
	{ __LINE__, HDR TICK "task 0 0 0 root S 1 1 ok 1/1/1 a a\n", 4, "expected a pid" },
	{ __LINE__,
	  HDR TICK "task 5 0 0 root S 1 1 ok 1/1/1 a a\ntask 3 0 0 root S 1 1 ok 1/1/1 a a\n", 5,
	  "increasing pid" },
	{ __LINE__, HDR TICK "task 1 0 0 root SS 1 1 ok 1/1/1 a a\n", 4, "one-letter state" },
	{ __LINE__, HDR TICK "cpu 0 5 4 1/1/1\n", 4, "BUSY <= TOTAL" },
	{ __LINE__, HDR TICK "cpu 0 1 4\n", 4, "counts" },
	{ __LINE__, HDR TICK "end\n" TICK "end\n", 5, "increase" },
	{ __LINE__, HDR TICK TICK, 4, "'end' before" },
	{ __LINE__, HDR TICK "end extra\n", 4, "'end' alone" },
	{ __LINE__, HDR TICK "task  1 0 0 root S 1 1 ok 1/1/1 a a\n", 4, "single spaces" },
	{ __LINE__, HDR "tick x 1 0 0 0\n", 3, "tick time" },
	{ __LINE__, HDR "tick 1 1 0 0\n", 3, "tick NS WALL" },
	{ __LINE__, HDR "tick 1 inf 0 0 0\n", 3, "wall-clock seconds, found 'inf'" },
	{ __LINE__, HDR "tick 1 nan 0 0 0\n", 3, "wall-clock seconds, found 'nan'" },
	{ __LINE__, HDR "tick 1 1e999 0 0 0\n", 3, "wall-clock seconds" },
	{ __LINE__, HDR "tick 1 1 infinity 0 0\n", 3, "load average, found 'infinity'" },
	{ __LINE__, HDR "tick 1 1 0 0 0 inf\n", 3, "uptime in seconds, found 'inf'" },
	{ __LINE__, HDR TICK "thread 5 0 0 root S 1 1 ok 1/1/1 a a\n", 4,
	  "the pid the thread belongs to" },
	{ __LINE__,
	  HDR TICK "thread 5 1 0 root S 1 1 ok 1/1/1 a a\nthread 4 1 0 root S 1 1 ok 1/1/1 a a\n",
	  5, "increasing tid" },
	{ __LINE__, HDR TICK "sample 1 0 1000 2000 0 1 1\n", 4, "a 'sampling' line before" },
	{ __LINE__, HDR TICK "map 1000 2000 x\n", 4, "a 'sampling' line before" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x\nsample 1 0 zz 2000 0 1 1\n", 5,
	  "hexadecimal ADDR" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x\nsample 1 0 10 20 0 9 1\n", 5, "OP 0-3" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x\nsample 1 0 10 20 0 1 1 1 0 1\n", 5,
	  "[PERIOD AREA [PAGENODE CPUNODE]]" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x\nsample 1 0 10 20 0 1 1 1 0 65536 1\n", 5,
	  "PAGENODE and CPUNODE" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x 8 0\n", 4, "FLAGS 0-7" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x\nmap 2000 1000 x\n", 5, "START <= END" },
	{ __LINE__, HDR TICK "sampling 5 1 0 0 x\nmap 1000 3000 a\nmap 2000 4000 b\n", 6,
	  "increasing address" },
	{ __LINE__, HDR TICK "sampling 0 1 0 0 x\n", 4, "sampled pid" },
	{ __LINE__, HDR TICK "weird\n", 4, "'sample' or 'end', found 'weird'" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a%zz a\n", 4, "escaped" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a rel/path\n", 4,
	  "cgroup path such as '/a/b'" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a /x extra\n", 4,
	  "optional CGROUP" },
	{ __LINE__, HDR TICK "cgroup a ok 1/1/1\n", 4, "cgroup path such as '/a/b'" },
	{ __LINE__, HDR TICK "cgroup /a ok\n", 4, "'cgroup PATH STATUS' then 1 counts" },
	{ __LINE__, HDR TICK "cgroup /a EWHAT 1/1/1\n", 4, "errno name" },
	{ __LINE__, HDR TICK "cgroup /a ok 1/1/2\n", 4, "running <= enabled" },
	{ __LINE__, HDR TICK "cgroup /b ok 1/1/1\ncgroup /a ok 1/1/1\n", 5, "increasing path" },
	{ __LINE__, HDR TICK "cgroup /a ok 1/1/1\ncgroup /a ok 1/1/1\n", 5, "increasing path" },
	{ __LINE__, HDR TICK "cgroups 1\n", 4, "'cgroups FDS BUDGET'" },
	{ __LINE__, HDR TICK "cgroups x 1\n", 4, "'cgroups FDS BUDGET'" },
	{ __LINE__, HDR TICK "procinfo 1 2 0\n", 4, "a 'task' or 'thread' line before" },
	/* at: the time of the read of the entry line before it, after its tick's */
	{ __LINE__, HDR TICK "at 5\n", 4,
	  "a 'cpu', 'task', 'thread' or 'cgroup' line before 'at'" },
	{ __LINE__, HDR TICK "cpu 0 1 4 1/1/1\nat 5\nat 5\n", 6, "line before 'at'" },
	{ __LINE__, HDR TICK "cpu 0 1 4 1/1/1\nat 0\n", 5, "an offset above 0" },
	{ __LINE__, HDR TICK "cpu 0 1 4 1/1/1\nat -3\n", 5, "'at OFFSET_NS'" },
	{ __LINE__, HDR TICK "cpu 0 1 4 1/1/1\nat 18446744073709551615\n", 5,
	  "keeps the time in range" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0\nat 1 2\n", 6,
	  "'at OFFSET_NS'" },
	{ __LINE__, HDR TICK "cpu 0 1 4 1/1/1\nprocinfo 1 2 0\n", 5, "'task' or 'thread' line" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0\nprocinfo 1 2 0\n",
	  6, "'task' or 'thread' line before" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 2\n", 5,
	  "FLAGS 0 or 1" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo -1 2 0\n", 5,
	  "RSS_KIB" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2\n", 5,
	  "'procinfo RSS_KIB CPU_NS FLAGS [VIRT_KIB" },
	/* the trailing fields of top's NI, P, VIRT and SHR: three or four, NICE in range */
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0 3\n", 5,
	  "[VIRT_KIB NICE PROCESSOR [SHR_KIB]]" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0 3 0 1 4 5\n", 5,
	  "[VIRT_KIB NICE PROCESSOR [SHR_KIB]]" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0 3 20 1\n", 5,
	  "NICE from -20 to 19" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0 3 x 1\n", 5,
	  "NICE from -20 to 19" },
	{ __LINE__, HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 1 2 0 3 0 -1\n", 5,
	  "PROCESSOR" },
	{ __LINE__, HDR TICK "memtotal 0\n", 4, "KIB above 0" },
	{ __LINE__, HDR TICK "memtotal 5 1 2 3\n", 4, "FREE BUFFERS CACHED" },
	{ __LINE__, HDR TICK "memtotal 5 1 2 3 4 5 6 x\n", 4, "numbers of KiB" },
	{ __LINE__, HDR "memtotal 5\n", 3, "'modefacts', 'event' or 'tick'" },
};

/* A recording from before procinfo and memtotal: its tasks have no /proc facts (empty cells). */
START_TEST(test_old_recording_has_no_proc_facts)
{
	const char *text = HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nend\n";
	struct recording_reader r;
	struct snapshot s[1];

	snapshot_init(&s[0], 0);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 1), 1);
	ck_assert_uint_eq(s[0].ntasks, 1);
	ck_assert_uint_eq(s[0].tasks[0].pflags, 0);
	ck_assert_uint_eq(s[0].mem_total_kib, 0);
	recording_reader_release(&r);
	snapshot_release(&s[0]);
}
END_TEST

/*
 * The NUMA nodes of samples (1 + node, 0 not known) and the flag of a kernel
 * without NUMA read back as written; lines without them, as older recordings
 * have, leave the nodes not known, never node 0.
 */
START_TEST(test_sample_nodes_round_trip_and_old_lines_have_none)
{
	const char *old = HDR TICK "sampling 5 1 0 0 x\n"
				   "sample 1 0 1000 2000 0 1 1\n"
				   "sample 1 0 1000 2000 0 1 1 3 0\n"
				   "end\n";
	struct recording_reader r;
	struct snapshot s[1], back[1];
	struct snap_sample *x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	snapshot_init(&s[0], 0);
	snapshot_init(&back[0], 0);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, old, s, 1), 1);
	ck_assert_uint_eq(s[0].smp.n, 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_uint_eq(s[0].smp.v[i].page_node, 0);
		ck_assert_uint_eq(s[0].smp.v[i].cpu_node, 0);
	}
	ck_assert_uint_eq(s[0].smp.v[1].period, 3);
	/* now with nodes: page on node 1 taken on node 0, page on node 0, CPU only */
	s[0].smp.v[0].page_node = 2;
	s[0].smp.v[0].cpu_node = 1;
	x = snapshot_add_sample(&s[0]);
	x->addr = 0x5000;
	x->cpu = 1;
	x->page_node = 1;
	x->cpu_node = 1;
	x = snapshot_add_sample(&s[0]);
	x->addr = 0x6000;
	x->cpu_node = 1;
	s[0].smp.flags = SNAP_SMP_NO_NUMA;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(recording_write_header(f, &r.ev, "software", NULL, "h", "k"), 0);
	ck_assert_int_eq(recording_write_snapshot(f, &s[0]), 0);
	fclose(f);
	/* a sample without nodes keeps the line older readers know */
	ck_assert_ptr_nonnull(strstr(buf, "sample 1 0 1000 2000 0 1 1 3 0\n"));
	ck_assert_ptr_nonnull(strstr(buf, "sample 1 0 1000 2000 0 1 1 1 0 2 1\n"));
	recording_reader_release(&r);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, buf, back, 1), 1);
	ck_assert_uint_eq(back[0].smp.n, 4);
	ck_assert_uint_eq(back[0].smp.flags, SNAP_SMP_NO_NUMA);
	for (size_t i = 0; i < 4; i++) {
		ck_assert_uint_eq(back[0].smp.v[i].page_node, s[0].smp.v[i].page_node);
		ck_assert_uint_eq(back[0].smp.v[i].cpu_node, s[0].smp.v[i].cpu_node);
		ck_assert_uint_eq(back[0].smp.v[i].addr, s[0].smp.v[i].addr);
		ck_assert_uint_eq(back[0].smp.v[i].period ? back[0].smp.v[i].period : 1,
				  s[0].smp.v[i].period ? s[0].smp.v[i].period : 1);
	}
	free(buf);
	recording_reader_release(&r);
	snapshot_release(&s[0]);
	snapshot_release(&back[0]);
}
END_TEST

/*
 * procinfo's optional trailing fields (top's VIRT, NI, P, then SHR) read back as written; a
 * line without them, as older recordings have, leaves those facts unknown.
 */
START_TEST(test_procinfo_trailing_fields_round_trip)
{
	const char *text =
		HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nprocinfo 10 2 0 3000 -5 1 700\n"
			 "task 2 0 0 root S 1 1 ok 1/1/1 b b\nprocinfo 10 2 0 4000 19 3\n"
			 "task 3 0 0 root S 1 1 ok 1/1/1 c c\nprocinfo 10 2 0\nend\n";
	struct recording_reader r;
	struct snapshot s[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	snapshot_init(&s[0], 0);
	snapshot_init(&s[1], 0);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 1), 1);
	ck_assert_uint_eq(s[0].tasks[0].pflags, SNAP_TASK_PROC | SNAP_TASK_MORE | SNAP_TASK_SHR);
	ck_assert_uint_eq(s[0].tasks[0].virt_kib, 3000);
	ck_assert_int_eq(s[0].tasks[0].nice, -5);
	ck_assert_int_eq(s[0].tasks[0].processor, 1);
	ck_assert_uint_eq(s[0].tasks[0].shr_kib, 700);
	ck_assert_uint_eq(s[0].tasks[1].pflags, SNAP_TASK_PROC | SNAP_TASK_MORE);
	ck_assert_int_eq(s[0].tasks[1].nice, 19);
	ck_assert_uint_eq(s[0].tasks[2].pflags, SNAP_TASK_PROC);
	/* written back: the same lines */
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(recording_write_snapshot(f, &s[0]), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\nprocinfo 10 2 0 3000 -5 1 700\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\nprocinfo 10 2 0 4000 19 3\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\nprocinfo 10 2 0\n"));
	free(buf);
	recording_reader_release(&r);
	snapshot_release(&s[0]);
	snapshot_release(&s[1]);
}
END_TEST

/*
 * The memory meters ride on memtotal as seven optional fields: written and read back the
 * same; a memtotal line without them (an older recording) reads with the meters unknown.
 */
START_TEST(test_memtotal_meter_fields_round_trip)
{
	const char *text = HDR TICK "memtotal 1000 100 20 300 40 500 450 700\nend\n"
				    "tick 2000 2.5 0.00 0.00 0.00\nmemtotal 1000\nend\n";
	struct recording_reader r;
	struct snapshot s[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	snapshot_init(&s[0], 0);
	snapshot_init(&s[1], 0);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 2), 2);
	ck_assert_uint_eq(s[0].mem_total_kib, 1000);
	ck_assert(s[0].mem.known);
	ck_assert_uint_eq(s[0].mem.free_kib, 100);
	ck_assert_uint_eq(s[0].mem.buffers_kib, 20);
	ck_assert_uint_eq(s[0].mem.cached_kib, 300);
	ck_assert_uint_eq(s[0].mem.sreclaimable_kib, 40);
	ck_assert_uint_eq(s[0].mem.swap_total_kib, 500);
	ck_assert_uint_eq(s[0].mem.swap_free_kib, 450);
	ck_assert_uint_eq(s[0].mem.avail_kib, 700);
	ck_assert_uint_eq(s[1].mem_total_kib, 1000);
	ck_assert(!s[1].mem.known);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(recording_write_snapshot(f, &s[0]), 0);
	ck_assert_int_eq(recording_write_snapshot(f, &s[1]), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\nmemtotal 1000 100 20 300 40 500 450 700\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\nmemtotal 1000\n"));
	free(buf);
	recording_reader_release(&r);
	snapshot_release(&s[0]);
	snapshot_release(&s[1]);
}
END_TEST

START_TEST(test_malformed_streams_name_line_and_expectation)
{
	struct recording_reader r;
	struct snapshot s[2];
	long got;

	snapshot_init(&s[0], 0);
	snapshot_init(&s[1], 0);
	recording_reader_init(&r);
	got = feed_all(&r, BAD_CASES[_i].text, s, 2);
	ck_assert_msg(got == -BAD_CASES[_i].err_line, "line %d: got %ld, err '%s'",
		      BAD_CASES[_i].line, got, r.err);
	ck_assert_msg(strstr(r.err, BAD_CASES[_i].want), "line %d: message '%s'",
		      BAD_CASES[_i].line, r.err);
	recording_reader_release(&r);
	snapshot_release(&s[0]);
	snapshot_release(&s[1]);
}
END_TEST

START_TEST(test_replay_source_reports_file_and_line)
{
	const char *text = HDR TICK "task 1 0 0 root S 1 1 ok 1/1/1 a a\nend\n" TICK;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char err[256] = "";
	struct source *src = source_replay_new(f, "x.rec", err, sizeof(err));
	struct snapshot s;

	ck_assert_ptr_nonnull(src);
	snapshot_init(&s, src->ev.n);
	ck_assert_int_eq(source_read(src, &s), 0);
	ck_assert_uint_eq(s.ntasks, 1);
	ck_assert_int_eq(source_read(src, &s), -EINVAL);
	ck_assert_str_eq(source_error(src),
			 "x.rec:6: expected tick times to increase, found 1000 after 1000");
	source_free(src);
	snapshot_release(&s);

	f = fmemopen((void *)HDR, strlen(HDR), "r");
	ck_assert_ptr_null(source_replay_new(f, "y.rec", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "y.rec:2: expected"));
}
END_TEST

static void assert_same_cgroups(const struct snapshot *a, const struct snapshot *b)
{
	ck_assert_int_eq(a->cg.on, b->cg.on);
	ck_assert_uint_eq(a->cg.fds, b->cg.fds);
	ck_assert_uint_eq(a->cg.budget, b->cg.budget);
	ck_assert_uint_eq(a->cg.n, b->cg.n);
	for (size_t i = 0; i < a->cg.n; i++) {
		ck_assert_str_eq(a->cg.v[i].path, b->cg.v[i].path);
		ck_assert_int_eq(a->cg.v[i].err, b->cg.v[i].err);
		ck_assert_mem_eq(a->cg.v[i].c, b->cg.v[i].c, a->nev * sizeof(*a->cg.v[i].c));
	}
	for (size_t i = 0; i < a->ntasks; i++) {
		const char *x = a->tasks[i].cgroup, *y = b->tasks[i].cgroup;

		ck_assert((x == NULL) == (y == NULL));
		if (x)
			ck_assert_str_eq(x, y);
	}
}

static void assert_same_snapshot(const struct snapshot *a, const struct snapshot *b)
{
	ck_assert_uint_eq(a->t_ns, b->t_ns);
	ck_assert_uint_eq(a->mem_total_kib, b->mem_total_kib);
	ck_assert_uint_eq(a->ntasks, b->ntasks);
	ck_assert_uint_eq(a->ncpus, b->ncpus);
	for (size_t i = 0; i < a->ntasks; i++) {
		const struct snap_task *x = &a->tasks[i], *y = &b->tasks[i];

		ck_assert_int_eq(x->pid, y->pid);
		ck_assert_str_eq(x->comm, y->comm);
		ck_assert_str_eq(x->cmdline, y->cmdline);
		ck_assert_str_eq(x->user, y->user);
		ck_assert_int_eq(x->err, y->err);
		ck_assert_uint_eq(x->pflags, y->pflags);
		ck_assert_uint_eq(x->rss_kib, y->rss_kib);
		ck_assert_uint_eq(x->cpu_ns, y->cpu_ns);
		ck_assert_uint_eq(x->t_ns, y->t_ns);
		ck_assert_mem_eq(x->c, y->c, a->nev * sizeof(*x->c));
	}
	ck_assert_int_eq(a->smp.pid, b->smp.pid);
	ck_assert_str_eq(a->smp.source, b->smp.source);
	ck_assert_uint_eq(a->smp.lost, b->smp.lost);
	ck_assert_uint_eq(a->smp.n, b->smp.n);
	if (a->smp.n)
		ck_assert_mem_eq(a->smp.v, b->smp.v, a->smp.n * sizeof(*a->smp.v));
	ck_assert_int_eq(a->smp.maps_changed, b->smp.maps_changed);
	ck_assert_uint_eq(a->smp.nmaps, b->smp.nmaps);
	if (a->smp.nmaps)
		ck_assert_mem_eq(a->smp.maps, b->smp.maps, a->smp.nmaps * sizeof(*a->smp.maps));
	ck_assert_uint_eq(a->nthreads, b->nthreads);
	for (size_t i = 0; i < a->nthreads; i++) {
		ck_assert_int_eq(a->threads[i].pid, b->threads[i].pid);
		ck_assert_int_eq(a->threads[i].tgid, b->threads[i].tgid);
		ck_assert_str_eq(a->threads[i].comm, b->threads[i].comm);
		ck_assert_uint_eq(a->threads[i].pflags, b->threads[i].pflags);
		ck_assert_uint_eq(a->threads[i].cpu_ns, b->threads[i].cpu_ns);
		ck_assert_uint_eq(a->threads[i].t_ns, b->threads[i].t_ns);
		ck_assert_mem_eq(a->threads[i].c, b->threads[i].c,
				 a->nev * sizeof(*a->threads[i].c));
	}
	for (size_t i = 0; i < a->ncpus; i++) {
		ck_assert_uint_eq(a->cpus[i].busy, b->cpus[i].busy);
		ck_assert_uint_eq(a->cpus[i].t_ns, b->cpus[i].t_ns);
		ck_assert_mem_eq(a->cpus[i].c, b->cpus[i].c, a->nev * sizeof(*a->cpus[i].c));
	}
}

START_TEST(test_write_then_read_is_identity)
{
	char *text = testutil_slurp(TEST_SRCDIR "/data/hw.rec", NULL), *buf = NULL;
	size_t len = 0;
	struct recording_reader r, r2;
	struct snapshot s[3], s2[3];
	FILE *f;

	for (int i = 0; i < 3; i++) {
		snapshot_init(&s[i], 0);
		snapshot_init(&s2[i], 0);
	}
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 3), 3);
	/* odd names must survive too */
	snprintf(s[0].tasks[0].comm, sizeof(s[0].tasks[0].comm), "a b%%c");
	snapshot_task_set_cmdline(&s[0].tasks[0], "");
	/* a task without /proc facts stays without them */
	s[1].tasks[1].pflags = 0;
	s[1].tasks[1].rss_kib = s[1].tasks[1].cpu_ns = 0;
	/* the times of the rows' own reads, after their tick's; 0 stays the tick's */
	s[1].tasks[0].t_ns = s[1].t_ns + 12345;
	s[1].tasks[1].t_ns = s[1].t_ns + 7;
	s[2].cpus[1].t_ns = s[2].t_ns + 400000000;
	if (s[0].nthreads)
		s[0].threads[0].t_ns = s[0].t_ns + 99;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(recording_write_header(f, &r.ev, r.mode, NULL, "my host", "6.1.0"), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(recording_write_snapshot(f, &s[i]), 0);
	fclose(f);
	recording_reader_init(&r2);
	ck_assert_int_eq(feed_all(&r2, buf, s2, 3), 3);
	ck_assert_str_eq(r2.mode, r.mode);
	ck_assert_str_eq(r2.host, "my host");
	ck_assert_str_eq(r2.kernel, "6.1.0");
	ck_assert_uint_eq(r2.ev.n, r.ev.n);
	for (int i = 0; i < 3; i++)
		assert_same_snapshot(&s[i], &s2[i]);
	for (int i = 0; i < 3; i++) {
		snapshot_release(&s[i]);
		snapshot_release(&s2[i]);
	}
	recording_reader_release(&r);
	recording_reader_release(&r2);
	free(buf);
	free(text);
}
END_TEST

/* Counting from /proc is a fact of the mode: written only when so, read back, said again. */
START_TEST(test_proc_counting_survives_a_write_and_a_read)
{
	char *buf = NULL;
	size_t len = 0;
	struct recording_reader r;
	struct errmsg_mode m;
	struct evlist ev;
	struct snapshot snap;
	FILE *f;

	memset(&m, 0, sizeof(m));
	m.watchdog = -1;
	m.kernel = true;
	evlist_init(&ev);
	snapshot_init(&snap, 0);
	for (int proc = 0; proc < 2; proc++) {
		m.proc = proc;
		f = open_memstream(&buf, &len);
		ck_assert_int_eq(recording_write_header(f, &ev, "x", &m, "h", "k"), 0);
		fclose(f);
		ck_assert(!strstr(buf, "proc=") == !proc);
		recording_reader_init(&r);
		for (char *line = buf, *nl; (nl = strchr(line, '\n')); line = nl + 1)
			ck_assert_int_eq(recording_feed(&r, line, (size_t)(nl - line), &snap), 0);
		ck_assert(r.have_facts);
		ck_assert_int_eq(r.facts.proc, proc);
		ck_assert(!strstr(r.mode, "task counts from /proc (no per-task events)") == !proc);
		recording_reader_release(&r);
		free(buf);
		buf = NULL;
	}
	snapshot_release(&snap);
	evlist_release(&ev);
}
END_TEST

/* Cgroup rows and the processes' cgroups survive a write and a read, odd paths too. */
START_TEST(test_cgroups_write_then_read_is_identity)
{
	char *text = testutil_slurp(TEST_SRCDIR "/data/cgroup.rec", NULL), *buf = NULL;
	size_t len = 0;
	struct recording_reader r, r2;
	struct snapshot s[3], s2[3];
	struct snap_cgroup *g;
	FILE *f;

	for (int i = 0; i < 3; i++) {
		snapshot_init(&s[i], 0);
		snapshot_init(&s2[i], 0);
	}
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 3), 3);
	ck_assert(s[0].cg.on);
	ck_assert_uint_eq(s[0].cg.n, 4);
	ck_assert_uint_eq(s[0].cg.fds, 48);
	ck_assert_uint_eq(s[0].cg.budget, 19976);
	ck_assert_int_eq(s[0].cg.v[3].err, -EMFILE);
	ck_assert_str_eq(s[0].tasks[0].cgroup, "/system.slice/db.service");
	/* a path with a space, a percent sign and a newline; a task whose cgroup is not known */
	g = snapshot_add_cgroup(&s[1], "/z/a b%c\nd");
	g->c[0] = (struct snap_count){ 7, 8, 8, 0 };
	snapshot_task_set_cgroup(&s[1].tasks[1], "/odd path%");
	snapshot_task_set_cgroup(&s[1].tasks[2], NULL);
	/* cgroups looked for and none found */
	for (size_t i = 0; i < s[2].cg.n; i++) {
		free(s[2].cg.v[i].path);
		free(s[2].cg.v[i].c);
	}
	s[2].cg.n = 0;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(recording_write_header(f, &r.ev, r.mode, NULL, "h", "k"), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(recording_write_snapshot(f, &s[i]), 0);
	fclose(f);
	recording_reader_init(&r2);
	ck_assert_int_eq(feed_all(&r2, buf, s2, 3), 3);
	for (int i = 0; i < 3; i++) {
		assert_same_snapshot(&s[i], &s2[i]);
		assert_same_cgroups(&s[i], &s2[i]);
	}
	ck_assert(s2[2].cg.on);
	ck_assert_uint_eq(s2[2].cg.n, 0);
	ck_assert_ptr_null(s2[1].tasks[2].cgroup);
	ck_assert_ptr_nonnull(snapshot_find_cgroup(&s2[1], "/z/a b%c\nd"));
	for (int i = 0; i < 3; i++) {
		snapshot_release(&s[i]);
		snapshot_release(&s2[i]);
	}
	recording_reader_release(&r);
	recording_reader_release(&r2);
	free(buf);
	free(text);
}
END_TEST

/* A recording made before cgroups reads as one without them. */
START_TEST(test_recordings_without_cgroups_have_none)
{
	char *text = testutil_slurp(TEST_SRCDIR "/data/sw.rec", NULL);
	struct recording_reader r;
	struct snapshot s[2];

	snapshot_init(&s[0], 0);
	snapshot_init(&s[1], 0);
	recording_reader_init(&r);
	ck_assert_int_eq(feed_all(&r, text, s, 2), 2);
	ck_assert(!s[1].cg.on);
	ck_assert_uint_eq(s[1].cg.n, 0);
	ck_assert_uint_gt(s[1].ntasks, 0);
	for (size_t i = 0; i < s[1].ntasks; i++)
		ck_assert_ptr_null(s[1].tasks[i].cgroup);
	snapshot_release(&s[0]);
	snapshot_release(&s[1]);
	recording_reader_release(&r);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("recording");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_escape_round_trip);
	tcase_add_test(tc, test_hand_written_stream_parses);
	tcase_add_loop_test(tc, test_malformed_streams_name_line_and_expectation, 0,
			    sizeof(BAD_CASES) / sizeof(BAD_CASES[0]));
	tcase_add_test(tc, test_replay_source_reports_file_and_line);
	tcase_add_test(tc, test_old_recording_has_no_proc_facts);
	tcase_add_test(tc, test_sample_nodes_round_trip_and_old_lines_have_none);
	tcase_add_test(tc, test_procinfo_trailing_fields_round_trip);
	tcase_add_test(tc, test_memtotal_meter_fields_round_trip);
	tcase_add_test(tc, test_write_then_read_is_identity);
	tcase_add_test(tc, test_proc_counting_survives_a_write_and_a_read);
	tcase_add_test(tc, test_cgroups_write_then_read_is_identity);
	tcase_add_test(tc, test_recordings_without_cgroups_have_none);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
