/* Tests of the layout maths: columns by width and the folding of core meters. */
#include "config.h"

#include <check.h>

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

int main(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("fit");

	tcase_add_loop_test(tc, test_fit_drops_lowest_priority_first, 0,
			    sizeof(FIT) / sizeof(FIT[0]));
	tcase_add_loop_test(tc, test_core_meters_fold, 0, sizeof(CORES) / sizeof(CORES[0]));
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
