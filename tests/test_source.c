/* Tests of the seam: capabilities, errors, header facts in snapshots, and the recording wrapper. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/recording.h"
#include "stream/source.h"
#include "stream/source_record.h"
#include "stream/source_replay.h"
#include "testutil.h"

static struct source *open_replay(const char *name)
{
	char path[512], err[256];
	FILE *f;
	struct source *src;

	snprintf(path, sizeof(path), "%s/data/%s", TEST_SRCDIR, name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	src = source_replay_new(f, name, err, sizeof(err));
	ck_assert_msg(src != NULL, "%s", err);
	return src;
}

/* Messages queued on s, joined with newlines; the caller frees. */
static char *take_messages(struct source *s, size_t *count)
{
	size_t n, len = 1;
	char **m = source_take_messages(s, &n);
	char *all;

	for (size_t i = 0; i < n; i++)
		len += strlen(m[i]) + 1;
	all = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		strcat(all, m[i]);
		strcat(all, "\n");
		free(m[i]);
	}
	free(m);
	*count = n;
	return all;
}

START_TEST(test_replay_is_paced_and_cannot_sample)
{
	struct source *src = open_replay("hw.rec");
	char err[128];
	struct sample_req req = { SAMPLE_AUTO, 0 };

	ck_assert_uint_eq(source_caps(src), SOURCE_CAP_PACED);
	ck_assert_int_eq(source_sample(src, 101, &req, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(source_error(src), "");
	source_free(src);
}
END_TEST

START_TEST(test_snapshots_carry_the_header_facts)
{
	static const char REC[] = "pmctop-recording 1\n"
				  "host box 6.1.0\n"
				  "event 0 0 sw default ok task-clock\n"
				  "tick 1000 1700000000.5 0.50 0.40 0.30 12345.67\n"
				  "end\n"
				  "tick 2000 1700000001.5 0.60 0.40 0.30\n"
				  "end\n";
	FILE *f = fmemopen((void *)REC, strlen(REC), "r");
	char err[256];
	struct source *src = source_replay_new(f, "r.rec", err, sizeof(err));
	struct snapshot s;

	ck_assert_msg(src != NULL, "%s", err);
	snapshot_init(&s, src->ev.n);
	ck_assert_int_eq(source_read(src, &s), 0);
	ck_assert_str_eq(s.host, "box");
	ck_assert_str_eq(s.kernel, "6.1.0");
	ck_assert_double_eq_tol(s.uptime, 12345.67, 1e-9);
	ck_assert_double_eq_tol(s.load[0], 0.5, 1e-9);
	/* a tick without the optional uptime: unknown, not 0 */
	ck_assert_int_eq(source_read(src, &s), 0);
	ck_assert(s.uptime < 0);
	ck_assert_str_eq(s.host, "box");
	ck_assert_int_eq(source_read(src, &s), 1);
	snapshot_release(&s);
	source_free(src);
}
END_TEST

START_TEST(test_a_bad_line_is_the_source_error)
{
	static const char REC[] = "pmctop-recording 1\n"
				  "event 0 0 sw default ok task-clock\n"
				  "tick 1000 1.0 0 0 0\n"
				  "end\n"
				  "tick 900 2.0 0 0 0\n"
				  "end\n";
	FILE *f = fmemopen((void *)REC, strlen(REC), "r");
	char err[256];
	struct source *src = source_replay_new(f, "bad.rec", err, sizeof(err));
	struct snapshot s;

	ck_assert_msg(src != NULL, "%s", err);
	snapshot_init(&s, src->ev.n);
	ck_assert_int_eq(source_read(src, &s), 0);
	ck_assert_int_eq(source_read(src, &s), -EINVAL);
	ck_assert_msg(strstr(source_error(src), "bad.rec:5: expected tick times to increase"), "%s",
		      source_error(src));
	/* it stays failed */
	ck_assert_int_eq(source_read(src, &s), -EINVAL);
	ck_assert_str_ne(source_error(src), "");
	snapshot_release(&s);
	source_free(src);
}
END_TEST

/* Recording a replay writes the same stream again, tick by tick, flushed as it goes. */
START_TEST(test_recording_wrapper_writes_each_snapshot_as_it_passes)
{
	char path[] = "/tmp/pmctop-test-rec.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	char err[256], *orig, *copy, orig_path[512];
	struct source *src = open_replay("sw.rec");
	struct source *rec = source_record_new(src, f, path, err, sizeof(err));
	struct snapshot s;
	size_t ticks = 0, nmsg;
	char *msgs;

	ck_assert_msg(rec != NULL, "%s", err);
	ck_assert_uint_eq(source_caps(rec), SOURCE_CAP_PACED);
	ck_assert_uint_eq(rec->ev.n, src->ev.n);
	snapshot_init(&s, rec->ev.n);
	while (source_read(rec, &s) == 0) {
		char *now = testutil_slurp(path, NULL);

		ticks++;
		/* flushed every tick: the file already ends with this snapshot */
		ck_assert_ptr_nonnull(now);
		ck_assert_msg(strlen(now) > 4 && !strcmp(now + strlen(now) - 4, "end\n"),
			      "tick %zu not flushed", ticks);
		free(now);
	}
	ck_assert_uint_gt(ticks, 1);
	ck_assert(source_record_ok(rec));
	ck_assert_int_eq(source_record_close(rec), 0);
	msgs = take_messages(rec, &nmsg);
	ck_assert_uint_eq(nmsg, 0);
	free(msgs);
	snprintf(orig_path, sizeof(orig_path), "%s/data/sw.rec", TEST_SRCDIR);
	orig = testutil_slurp(orig_path, NULL);
	copy = testutil_slurp(path, NULL);
	/* the same header and ticks (comments aside) */
	ck_assert_ptr_nonnull(strstr(orig, strstr(copy, "tick ")));
	free(orig);
	free(copy);
	snapshot_release(&s);
	source_free(rec);
	unlink(path);
}
END_TEST

/* A write error turns recording off and says so once; the frames go on. */
START_TEST(test_recording_wrapper_stops_after_a_write_error)
{
	static char buf[1500];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	char err[256];
	struct source *src = open_replay("hw.rec");
	struct source *rec;
	struct snapshot s;
	size_t ticks = 0, nmsg, total_msgs = 0;
	char *msgs;

	ck_assert_ptr_nonnull(f);
	rec = source_record_new(src, f, "small.rec", err, sizeof(err));
	ck_assert_msg(rec != NULL, "%s", err);
	snapshot_init(&s, rec->ev.n);
	while (source_read(rec, &s) == 0) {
		ticks++;
		msgs = take_messages(rec, &nmsg);
		if (nmsg)
			ck_assert_msg(strstr(msgs, "cannot write the recording 'small.rec'"), "%s",
				      msgs);
		total_msgs += nmsg;
		free(msgs);
	}
	/* every tick of the recording still came through */
	ck_assert_uint_ge(ticks, 3);
	ck_assert_uint_eq(total_msgs, 1);
	ck_assert(!source_record_ok(rec));
	ck_assert_int_ne(source_record_close(rec), 0);
	snapshot_release(&s);
	source_free(rec);
}
END_TEST

START_TEST(test_recording_wrapper_fails_at_once_when_the_header_cannot_be_written)
{
	FILE *f = fopen("/dev/full", "w");
	char err[256];
	struct source *src = open_replay("hw.rec");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(source_record_new(src, f, "/dev/full", err, sizeof(err)));
	ck_assert_msg(strstr(err, "cannot write the recording '/dev/full'"), "%s", err);
	ck_assert_msg(strstr(err, strerror(ENOSPC)), "%s", err);
}
END_TEST

static Suite *source_suite(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("seam");

	tcase_add_test(tc, test_replay_is_paced_and_cannot_sample);
	tcase_add_test(tc, test_snapshots_carry_the_header_facts);
	tcase_add_test(tc, test_a_bad_line_is_the_source_error);
	tcase_add_test(tc, test_recording_wrapper_writes_each_snapshot_as_it_passes);
	tcase_add_test(tc, test_recording_wrapper_stops_after_a_write_error);
	tcase_add_test(tc, test_recording_wrapper_fails_at_once_when_the_header_cannot_be_written);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return testutil_run(source_suite());
}
