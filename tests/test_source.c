/* Tests of the seam: capabilities, errors, header facts in snapshots, and the recording wrapper. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
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

	ck_assert_uint_eq(source_caps(src), SOURCE_CAP_PACED | SOURCE_CAP_SEEK);
	ck_assert_int_eq(source_sample(src, 101, &req, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(source_error(src), "");
	source_free(src);
}
END_TEST

/* The snapshot as its recording lines, to compare two snapshots whole; the caller frees. */
static char *as_text(const struct snapshot *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(recording_write_snapshot(f, s), 0);
	fclose(f);
	return buf;
}

/*
 * The ticks of steps.rec read one after the other, as text, each with the mappings in effect
 * (the last written before it, as a reader that went through them holds them).
 */
static size_t read_all(char **text, size_t max)
{
	struct source *src = open_replay("steps.rec");
	struct snapshot s, maps;
	size_t n = 0;

	snapshot_init(&s, src->ev.n);
	snapshot_init(&maps, 0);
	while (n < max && source_read(src, &s) == 0) {
		if (s.smp.maps_changed) {
			snapshot_clear(&maps);
			for (size_t i = 0; i < s.smp.nmaps; i++)
				*snapshot_add_map(&maps) = s.smp.maps[i];
		} else {
			for (size_t i = 0; i < maps.smp.nmaps; i++)
				*snapshot_add_map(&s) = maps.smp.maps[i];
			s.smp.maps_changed = true;
		}
		text[n++] = as_text(&s);
	}
	snapshot_release(&s);
	snapshot_release(&maps);
	source_free(src);
	return n;
}

/* Seeking to tick N, from anywhere and in any order, gives the snapshot reading N + 1 times does. */
START_TEST(test_seek_gives_the_snapshot_reading_gives)
{
	static const size_t ORDER[] = { 5, 2, 7, 0, 6, 6, 1, 3, 4 };
	char *want[16];
	size_t n = read_all(want, 16);
	struct source *src = open_replay("steps.rec");
	struct snapshot s;
	uint64_t t;
	double wall;

	ck_assert_uint_eq(n, 8);
	snapshot_init(&s, src->ev.n);
	/* start in the middle of the stream: two ticks read already */
	ck_assert_int_eq(source_read(src, &s), 0);
	ck_assert_int_eq(source_read(src, &s), 0);
	for (size_t k = 0; k < sizeof(ORDER) / sizeof(ORDER[0]); k++) {
		size_t tick = ORDER[k];
		char *got;

		ck_assert_int_eq(source_seek(src, tick), 0);
		ck_assert_int_eq(source_read(src, &s), 0);
		got = as_text(&s);
		ck_assert_msg(!strcmp(got, want[tick]), "tick %zu:\n%s\nwant:\n%s", tick, got,
			      want[tick]);
		free(got);
		/* and reading goes on from there */
		if (tick + 1 < n) {
			ck_assert_int_eq(source_read(src, &s), 0);
			got = as_text(&s);
			ck_assert_msg(!strncmp(got, want[tick + 1], strcspn(want[tick + 1], "\n")),
				      "after tick %zu: %.60s", tick, got);
			free(got);
		} else {
			ck_assert_int_eq(source_read(src, &s), 1);
		}
	}
	/* past the end: a range error, and the stream is where it was */
	ck_assert_int_eq(source_seek(src, 8), -ERANGE);
	ck_assert_int_eq(source_tick_time(src, 8, &t, &wall), -ERANGE);
	ck_assert_int_eq(source_tick_time(src, 7, &t, &wall), 0);
	ck_assert_uint_eq(t, 12000000000ull);
	ck_assert_double_eq(wall, 1763800007.0);
	ck_assert_int_eq(source_seek(src, 3), 0);
	ck_assert_int_eq(source_read(src, &s), 0);
	ck_assert_uint_eq(s.t_ns, 8000000000ull);
	for (size_t i = 0; i < n; i++)
		free(want[i]);
	snapshot_release(&s);
	source_free(src);
}
END_TEST

/* A model fed from a seek has the deltas of the two ticks after it, never one across the jump. */
START_TEST(test_a_seek_resets_the_deltas)
{
	struct source *a = open_replay("steps.rec"), *b = open_replay("steps.rec");
	struct model *ma = model_new(&a->ev), *mb = model_new(&b->ev);
	struct snapshot s;

	snapshot_init(&s, a->ev.n);
	for (int k = 0; k <= 7; k++) {
		ck_assert_int_eq(source_read(a, &s), 0);
		model_update(ma, &s);
	}
	/* b: the model has seen ticks 0 and 1, then the source jumps to 6 */
	for (int k = 0; k <= 1; k++) {
		ck_assert_int_eq(source_read(b, &s), 0);
		model_update(mb, &s);
	}
	ck_assert_int_eq(source_seek(b, 6), 0);
	model_restart(mb);
	ck_assert_int_eq(source_read(b, &s), 0);
	ck_assert(!model_update(mb, &s));
	ck_assert_int_eq(source_read(b, &s), 0);
	ck_assert(model_update(mb, &s));
	ck_assert_uint_eq(ma->nrows, mb->nrows);
	for (size_t i = 0; i < ma->nrows; i++) {
		ck_assert_int_eq(ma->rows[i].id, mb->rows[i].id);
		ck_assert_double_eq_tol(ma->rows[i].v[COL_CPU], mb->rows[i].v[COL_CPU], 1e-9);
		ck_assert_double_eq_tol(ma->rows[i].v[COL_IPC], mb->rows[i].v[COL_IPC], 1e-9);
	}
	/* frame 7: pid 100 at 70 %CPU */
	ck_assert_int_eq(mb->rows[0].id, 100);
	ck_assert_double_eq_tol(mb->rows[0].v[COL_CPU], 70.0, 1e-9);
	/* the histogram starts afresh: the samples of ticks 6 and 7, on the mappings of tick 5 */
	ck_assert_uint_eq(mb->hp->samples, 36 + 42);
	ck_assert_uint_eq(mb->nmaps, 5);
	ck_assert_uint_eq(mb->maps[4].start, 0x7f200000);
	ck_assert_uint_eq(mb->nmaps, 5);
	snapshot_release(&s);
	model_free(ma);
	model_free(mb);
	source_free(a);
	source_free(b);
}
END_TEST

/* A pipe goes forward only: no seeking, and saying so is the caller's. */
START_TEST(test_a_pipe_cannot_seek)
{
	char path[512], err[256], *text;
	size_t len;
	struct source *src;
	int fds[2];
	FILE *f;

	/* the whole recording fits in the pipe's buffer */
	snprintf(path, sizeof(path), "%s/data/steps.rec", TEST_SRCDIR);
	text = testutil_slurp(path, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], text, len), (ssize_t)len);
	close(fds[1]);
	free(text);
	f = fdopen(fds[0], "r");
	ck_assert_ptr_nonnull(f);
	src = source_replay_new(f, "pipe", err, sizeof(err));
	ck_assert_msg(src != NULL, "%s", err);
	ck_assert_uint_eq(source_caps(src), SOURCE_CAP_PACED);
	ck_assert_int_eq(source_seek(src, 0), -ESPIPE);
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
	tcase_add_test(tc, test_seek_gives_the_snapshot_reading_gives);
	tcase_add_test(tc, test_a_seek_resets_the_deltas);
	tcase_add_test(tc, test_a_pipe_cannot_seek);
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
