/* Tests of the layout maths: columns by width and the folding of core meters. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "view/layout.h"
#include "testutil.h"

static const struct layout_col COLS[] = {
	{ 1, 7, 100 }, { 2, 9, 40 }, { 3, 6, 90 }, { 4, 5, 85 }, { 5, 6, 60 },
};

static const struct {
	int line;
	int width;
	size_t n;
	int ids[5];
} FIT[] = {
	{ __LINE__, 200, 5, { 1, 2, 3, 4, 5 } },
	/* 8+10+7+6+7 = 38 plus 8 for the command */
	{ __LINE__, 46, 5, { 1, 2, 3, 4, 5 } },
	{ __LINE__, 45, 4, { 1, 3, 4, 5 } }, /* USER (prio 40) goes first */
	{ __LINE__, 35, 3, { 1, 3, 4 } },
	{ __LINE__, 29, 3, { 1, 3, 4 } },
	{ __LINE__, 28, 2, { 1, 3 } },
	{ __LINE__, 10, 0, { 0 } },
};

START_TEST(test_fit_drops_lowest_priority_first)
{
	int out[5];
	size_t n = layout_fit(COLS, 5, FIT[_i].width, 8, out);

	ck_assert_msg(n == FIT[_i].n, "line %d: %zu columns", FIT[_i].line, n);
	for (size_t k = 0; k < n; k++)
		ck_assert_msg(out[k] == FIT[_i].ids[k], "line %d: column %zu is %d", FIT[_i].line,
			      k, out[k]);
}
END_TEST

static const struct {
	int line;
	int ncpus, width, max_rows;
	int ret, cols, rows;
} CORES[] = {
	{ __LINE__, 2, 80, 4, 0, 1, 2 },
	{ __LINE__, 2, 200, 4, 0, 2, 1 }, /* wide screens put meters side by side */
	{ __LINE__, 3, 120, 4, 0, 2, 2 },
	{ __LINE__, 64, 200, 8, 0, 8, 8 },  /* fold into several columns */
	{ __LINE__, 64, 100, 8, -1, 0, 0 }, /* 8 columns of 24 do not fit 100 */
	{ __LINE__, 4, 80, 0, -1, 0, 0 },
	{ __LINE__, 1, 20, 2, -1, 0, 0 },
};

START_TEST(test_core_meters_fold)
{
	struct layout_cores lc;
	int r = layout_cores(CORES[_i].ncpus, CORES[_i].width, CORES[_i].max_rows, 24, &lc);

	ck_assert_msg(r == CORES[_i].ret, "line %d: ret %d", CORES[_i].line, r);
	if (r)
		return;
	ck_assert_msg(lc.cols == CORES[_i].cols && lc.rows == CORES[_i].rows, "line %d: %d x %d",
		      CORES[_i].line, lc.cols, lc.rows);
	ck_assert_int_le(lc.cols * lc.cell_w + lc.cols - 1, CORES[_i].width);
	ck_assert_int_ge(lc.cell_w, 24);
}
END_TEST

/* Scroll positions of COLS with the first pinned, a last column of 8: each stop's columns. */
static const struct {
	int line;
	int width;
	size_t nstops;
	size_t stops[5];
	const char *cols[5]; /* the ids at each stop */
} SCROLL[] = {
	{ __LINE__, 200, 1, { 0 }, { "1 2 3 4 5" } }, /* everything fits: nothing to scroll */
	/* 35: USER (2) comes into view at position 1, then the columns after it one by one */
	{ __LINE__, 35, 4, { 0, 1, 2, 3 }, { "1 3 4", "1 2 3", "1 3 4", "1 4 5" } },
	{ __LINE__, 28, 5, { 0, 1, 2, 3, 4 }, { "1 3", "1 2", "1 3", "1 4", "1 5" } },
	/* 10: not even the pinned column fits; there is nowhere to scroll */
	{ __LINE__, 10, 1, { 0 }, { "" } },
};

static void ids_text(const int *ids, size_t n, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%d", i ? " " : "", ids[i]);
}

START_TEST(test_scroll_stops_bring_every_column_into_view)
{
	size_t stops[8];
	size_t n = layout_scroll_stops(COLS, 5, 1, SCROLL[_i].width, 8, stops, 8);
	bool seen[6] = { false };

	ck_assert_msg(n == SCROLL[_i].nstops, "line %d: %zu stops", SCROLL[_i].line, n);
	for (size_t k = 0; k < n; k++) {
		int out[5];
		char got[32];
		bool dropped;
		size_t c = layout_scroll(COLS, 5, 1, stops[k], SCROLL[_i].width, 8, out, &dropped);

		ck_assert_msg(stops[k] == SCROLL[_i].stops[k], "line %d: stop %zu at %zu",
			      SCROLL[_i].line, k, stops[k]);
		ids_text(out, c, got, sizeof(got));
		ck_assert_msg(!strcmp(got, SCROLL[_i].cols[k]), "line %d: stop %zu shows '%s'",
			      SCROLL[_i].line, k, got);
		/* only the last stop may have nothing dropped */
		ck_assert_msg(dropped || k + 1 == n, "line %d: stop %zu drops nothing",
			      SCROLL[_i].line, k);
		for (size_t i = 0; i < c; i++)
			seen[out[i]] = true;
	}
	/* a column that fits beside the pinned one at all is on screen at some stop */
	for (int id = 1; id <= 5 && SCROLL[_i].width >= 8 + 8 + 10; id++)
		ck_assert_msg(seen[id], "line %d: column %d never shows", SCROLL[_i].line, id);
}
END_TEST

/* Stops are positions whose columns differ: never two in a row that show the same. */
START_TEST(test_scroll_stops_differ_at_every_width)
{
	for (int w = 0; w <= 60; w++) {
		size_t stops[8];
		size_t n = layout_scroll_stops(COLS, 5, 1, w, 8, stops, 8);
		int prev[5];
		size_t nprev = 0;

		ck_assert(n >= 1 && stops[0] == 0);
		for (size_t k = 0; k < n; k++) {
			int out[5];
			bool dropped;
			size_t c = layout_scroll(COLS, 5, 1, stops[k], w, 8, out, &dropped);
			int used = 8;

			for (size_t i = 0; i < c; i++)
				used += COLS[out[i] - 1].width + 1;
			ck_assert_msg(used <= w || c == 0, "width %d stop %zu: %d cells", w, k,
				      used);
			ck_assert_msg(k == 0 || c != nprev || memcmp(out, prev, c * sizeof(*out)),
				      "width %d: stop %zu repeats the one before", w, k);
			if (k)
				ck_assert_uint_gt(stops[k], stops[k - 1]);
			memcpy(prev, out, c * sizeof(*out));
			nprev = c;
		}
	}
}
END_TEST

/* A header line: "pmctop" (kept), host 10, time 12/5 short, load 20/8 short, self 15. */
static const struct layout_field FIELDS[] = {
	{ 6, 0, LAYOUT_KEEP }, { 10, 0, 99 }, { 12, 5, 70 }, { 20, 8, 60 }, { 15, 0, 10 },
};

static const struct {
	int line;
	int width, total;
	int choice[5];
} FIELD_FIT[] = {
	{ __LINE__, 100, 63, { 1, 1, 1, 1, 1 } },
	{ __LINE__, 63, 63, { 1, 1, 1, 1, 1 } },
	/* the lowest goes whole: it has no short form */
	{ __LINE__, 62, 48, { 1, 1, 1, 1, 0 } },
	/* then the load takes its short form */
	{ __LINE__, 47, 36, { 1, 1, 1, 2, 0 } },
	/* the lowest goes whole before the next gives way */
	{ __LINE__, 35, 28, { 1, 1, 1, 0, 0 } },
	{ __LINE__, 28, 28, { 1, 1, 1, 0, 0 } },
	{ __LINE__, 27, 21, { 1, 1, 2, 0, 0 } },
	{ __LINE__, 20, 16, { 1, 1, 0, 0, 0 } },
	{ __LINE__, 16, 16, { 1, 1, 0, 0, 0 } },
	/* what the host leaves, the time's short form takes back */
	{ __LINE__, 15, 11, { 1, 0, 2, 0, 0 } },
	{ __LINE__, 10, 6, { 1, 0, 0, 0, 0 } },
	/* the kept field stays, wider than the line */
	{ __LINE__, 3, 6, { 1, 0, 0, 0, 0 } },
};

START_TEST(test_fields_give_way_by_priority_whole)
{
	int choice[5];
	int total = layout_fields(FIELDS, 5, FIELD_FIT[_i].width, choice);

	ck_assert_msg(total == FIELD_FIT[_i].total, "line %d: %d cells", FIELD_FIT[_i].line, total);
	for (size_t k = 0; k < 5; k++)
		ck_assert_msg(choice[k] == FIELD_FIT[_i].choice[k], "line %d: field %zu is %d",
			      FIELD_FIT[_i].line, k, choice[k]);
}
END_TEST

/* Of equal priorities the rightmost gives way first; a short form no shorter is no help. */
START_TEST(test_fields_equal_priority_rightmost_first)
{
	const struct layout_field f[] = {
		{ 5, 0, LAYOUT_KEEP },
		{ 10, 0, 50 },
		{ 10, 10, 50 },
		{ 10, 0, 50 },
	};
	int choice[4];

	ck_assert_int_eq(layout_fields(f, 4, 30, choice), 25);
	ck_assert_int_eq(choice[3], 0);
	ck_assert_int_eq(choice[2], 1);
	ck_assert_int_eq(layout_fields(f, 4, 20, choice), 15);
	ck_assert_int_eq(choice[2], 0);
	ck_assert_int_eq(choice[1], 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("fit");

	tcase_add_loop_test(tc, test_fit_drops_lowest_priority_first, 0,
			    sizeof(FIT) / sizeof(FIT[0]));
	tcase_add_loop_test(tc, test_core_meters_fold, 0, sizeof(CORES) / sizeof(CORES[0]));
	tcase_add_loop_test(tc, test_scroll_stops_bring_every_column_into_view, 0,
			    sizeof(SCROLL) / sizeof(SCROLL[0]));
	tcase_add_test(tc, test_scroll_stops_differ_at_every_width);
	tcase_add_loop_test(tc, test_fields_give_way_by_priority_whole, 0,
			    sizeof(FIELD_FIT) / sizeof(FIELD_FIT[0]));
	tcase_add_test(tc, test_fields_equal_priority_rightmost_first);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
