/* Tests of the pure metric functions: scaling, ratios, rates and the colour bands. */
#include "config.h"

#include <check.h>
#include <math.h>

#include "model/columns.h"
#include "model/metrics.h"
#include "testutil.h"

static const struct {
	int line;
	uint64_t dv, de, dr;
	double want; /* NAN: undefined */
	bool est;
} SCALE_CASES[] = {
	{ __LINE__, 1000, 100, 100, 1000, false }, /* ran all the time */
	{ __LINE__, 1000, 100, 50, 2000, true },   /* multiplexed half the time */
	{ __LINE__, 300, 400, 100, 1200, true },
	{ __LINE__, 0, 100, 0, NAN, false }, /* enabled but never ran: n/a */
	{ __LINE__, 0, 0, 0, 0, false },     /* the task never ran: a true zero */
	{ __LINE__, 5, 0, 0, NAN, false },   /* inconsistent: never invent a value */
	{ __LINE__, 7, 10, 20, 7, false },   /* running > enabled (rounding): no scaling */
};

START_TEST(test_scale_table)
{
	bool est;
	double v = metrics_scale(SCALE_CASES[_i].dv, SCALE_CASES[_i].de, SCALE_CASES[_i].dr, &est);

	if (isnan(SCALE_CASES[_i].want))
		ck_assert_msg(isnan(v), "line %d: %f", SCALE_CASES[_i].line, v);
	else
		ck_assert_msg(fabs(v - SCALE_CASES[_i].want) < 1e-9, "line %d: %f",
			      SCALE_CASES[_i].line, v);
	ck_assert_msg(est == SCALE_CASES[_i].est, "line %d", SCALE_CASES[_i].line);
}
END_TEST

START_TEST(test_ratios_are_nan_when_undefined)
{
	ck_assert(fabs(metrics_ratio(3, 2) - 1.5) < 1e-12);
	ck_assert(isnan(metrics_ratio(3, 0)));
	ck_assert(isnan(metrics_ratio(NAN, 2)));
	ck_assert(isnan(metrics_ratio(2, NAN)));
	ck_assert(fabs(metrics_percent(1, 4) - 25) < 1e-12);
	ck_assert(isnan(metrics_percent(0, 0)));
	ck_assert(fabs(metrics_rate(500, 0.5) - 1000) < 1e-9);
	ck_assert(isnan(metrics_rate(500, 0)));
	ck_assert(isnan(metrics_rate(NAN, 1)));
	/* two busy threads for one second: 2e9 ns of task-clock in 1e9 ns of wall time */
	ck_assert(fabs(metrics_cpu_percent(2e9, 1e9) - 200) < 1e-9);
	/* 3e9 cycles in 1e9 ns of CPU time: 3 GHz */
	ck_assert(fabs(metrics_ghz(3e9, 1e9) - 3.0) < 1e-12);
	ck_assert(isnan(metrics_ghz(3e9, 0)));
}
END_TEST

/* The colour bands of the column table, at and around their edges. */
static const struct {
	int line;
	enum col_id col;
	double v;
	enum metrics_severity want;
} SEV_CASES[] = {
	{ __LINE__, COL_IPC, 0.3, METRICS_SEV_BAD },
	{ __LINE__, COL_IPC, 0.5, METRICS_SEV_WARN }, /* low is bad: strictly below the band */
	{ __LINE__, COL_IPC, 0.8, METRICS_SEV_WARN },
	{ __LINE__, COL_IPC, 2.5, METRICS_SEV_GOOD },
	{ __LINE__, COL_CPI, 3.0, METRICS_SEV_BAD },
	{ __LINE__, COL_CPI, 2.0, METRICS_SEV_WARN }, /* high is bad: strictly above the band */
	{ __LINE__, COL_CPI, 0.5, METRICS_SEV_GOOD },
	{ __LINE__, COL_CACHE, 40, METRICS_SEV_BAD },
	{ __LINE__, COL_L1D, 10, METRICS_SEV_WARN },
	{ __LINE__, COL_DTLB, 1, METRICS_SEV_GOOD },
	{ __LINE__, COL_BRMIS, 8, METRICS_SEV_BAD },
	{ __LINE__, COL_BRMIS, 2, METRICS_SEV_WARN },
	{ __LINE__, COL_IPC, NAN, METRICS_SEV_NONE },
	{ __LINE__, COL_CPU, 400, METRICS_SEV_NONE }, /* no bands: no judgement */
	{ __LINE__, COL_PF, 1e6, METRICS_SEV_NONE },
};

START_TEST(test_severity_table)
{
	const struct column *c = columns_get(SEV_CASES[_i].col);

	ck_assert_msg(columns_severity(c, SEV_CASES[_i].v) == SEV_CASES[_i].want, "line %d",
		      SEV_CASES[_i].line);
}
END_TEST

START_TEST(test_bands_both_directions)
{
	const struct metrics_bands hi = { .dir = METRICS_HIGH_BAD, .warn = 1, .bad = 2 };
	const struct metrics_bands lo = { .dir = METRICS_LOW_BAD, .warn = 2, .bad = 1 };
	const struct metrics_bands none = { 0 };

	ck_assert_int_eq(metrics_severity(&hi, 0.5), METRICS_SEV_GOOD);
	ck_assert_int_eq(metrics_severity(&hi, 1.5), METRICS_SEV_WARN);
	ck_assert_int_eq(metrics_severity(&hi, 2.5), METRICS_SEV_BAD);
	ck_assert_int_eq(metrics_severity(&lo, 2.5), METRICS_SEV_GOOD);
	ck_assert_int_eq(metrics_severity(&lo, 1.5), METRICS_SEV_WARN);
	ck_assert_int_eq(metrics_severity(&lo, 0.5), METRICS_SEV_BAD);
	ck_assert_int_eq(metrics_severity(&none, 0.5), METRICS_SEV_NONE);
}
END_TEST

/* Every metric with bands is a ratio the model computes, and its bands are ordered. */
START_TEST(test_banded_columns_are_sound)
{
	for (int i = 0; i < COL_MAX; i++) {
		const struct column *c = columns_get(i);

		if (c->sev.dir == METRICS_NEUTRAL)
			continue;
		ck_assert_msg(c->type == COL_TYPE_NUM && c->calc != COL_CALC_NONE, "%s", c->key);
		if (c->sev.dir == METRICS_HIGH_BAD)
			ck_assert_msg(c->sev.warn < c->sev.bad, "%s", c->key);
		else
			ck_assert_msg(c->sev.warn > c->sev.bad, "%s", c->key);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("pure");

	tcase_add_loop_test(tc, test_scale_table, 0, sizeof(SCALE_CASES) / sizeof(SCALE_CASES[0]));
	tcase_add_test(tc, test_ratios_are_nan_when_undefined);
	tcase_add_loop_test(tc, test_severity_table, 0, sizeof(SEV_CASES) / sizeof(SEV_CASES[0]));
	tcase_add_test(tc, test_bands_both_directions);
	tcase_add_test(tc, test_banded_columns_are_sound);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
