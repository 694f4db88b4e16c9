/* Metric arithmetic; every undefined case is NAN, shown as "-", never 0. */
#include "config.h"
#include "model/metrics.h"

#include <math.h>

double metrics_scale(uint64_t dv, uint64_t de, uint64_t dr, bool *est)
{
	*est = false;
	if (de == 0)
		return dr == 0 && dv == 0 ? 0.0 : NAN;
	if (dr == 0)
		return NAN;
	if (dr >= de)
		return (double)dv;
	*est = true;
	return (double)dv * ((double)de / (double)dr);
}

double metrics_ratio(double a, double b)
{
	if (isnan(a) || isnan(b) || b == 0.0)
		return NAN;
	return a / b;
}

double metrics_percent(double a, double b)
{
	return 100.0 * metrics_ratio(a, b);
}

double metrics_rate(double count, double dt_s)
{
	if (isnan(count) || !(dt_s > 0.0))
		return NAN;
	return count / dt_s;
}

double metrics_cpu_percent(double task_clock_ns, double dt_ns)
{
	return metrics_percent(task_clock_ns, dt_ns);
}

double metrics_ghz(double cycles, double run_ns)
{
	return metrics_ratio(cycles, run_ns);
}

enum metrics_severity metrics_severity(const struct metrics_bands *b, double v)
{
	if (isnan(v))
		return METRICS_SEV_NONE;
	switch (b->dir) {
	case METRICS_HIGH_BAD:
		return v > b->bad    ? METRICS_SEV_BAD
		       : v > b->warn ? METRICS_SEV_WARN
				     : METRICS_SEV_GOOD;
	case METRICS_LOW_BAD:
		return v < b->bad    ? METRICS_SEV_BAD
		       : v < b->warn ? METRICS_SEV_WARN
				     : METRICS_SEV_GOOD;
	case METRICS_NEUTRAL:
		break;
	}
	return METRICS_SEV_NONE;
}
