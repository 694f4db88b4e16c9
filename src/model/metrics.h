/* Pure metric functions over scaled counts: NAN whenever a metric is undefined. */
#ifndef PMCTOP_METRICS_H
#define PMCTOP_METRICS_H

#include <stdbool.h>
#include <stdint.h>

enum metrics_severity {
	METRICS_SEV_NONE = 0, /* no judgement: undefined or neutral */
	METRICS_SEV_GOOD,
	METRICS_SEV_WARN,
	METRICS_SEV_BAD,
};

/*
 * Scale a delta of a multiplexed counter: dv * de / dr. NAN when dr is 0
 * but de is not (the counter never ran); 0 when the task never ran (de 0).
 * *est is set when the value is an estimate (dr < de).
 */
double metrics_scale(uint64_t dv, uint64_t de, uint64_t dr, bool *est);
/* a / b; NAN when b is 0 or either is NAN. */
double metrics_ratio(double a, double b);
/* 100 * a / b; NAN likewise. */
double metrics_percent(double a, double b);
/* Events per second over dt_s; NAN when dt_s <= 0. */
double metrics_rate(double count, double dt_s);
/* %CPU from task-clock ns over a wall interval in ns. */
double metrics_cpu_percent(double task_clock_ns, double dt_ns);
/* GHz from cycles over the ns the task ran. */
double metrics_ghz(double cycles, double run_ns);

/* Which way a metric gets worse. */
enum metrics_dir {
	METRICS_NEUTRAL = 0, /* no judgement */
	METRICS_HIGH_BAD,    /* CPI, miss ratios */
	METRICS_LOW_BAD,     /* IPC */
};

/* Severity bands: beyond warn is fair, beyond bad is poor (strictly), in the direction dir. */
struct metrics_bands {
	enum metrics_dir dir;
	double warn, bad;
};

/* How good or bad v is under bands b, for colour; NONE for NAN or a neutral metric. */
enum metrics_severity metrics_severity(const struct metrics_bands *b, double v);

#endif
