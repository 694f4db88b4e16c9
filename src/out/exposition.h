/* The model as Prometheus text (0.0.4) or OpenMetrics 1.0: raw counts, times and statuses. */
#ifndef PMCTOP_EXPOSITION_H
#define PMCTOP_EXPOSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

enum exposition_format {
	EXPOSITION_PROMETHEUS,	/* text/plain; version=0.0.4 */
	EXPOSITION_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
};

/* What an event did in the last interval, summed over the CPUs. */
enum exposition_status {
	EXPOSITION_COUNTED,
	EXPOSITION_NOT_SUPPORTED, /* could not be opened: the reason says why */
	EXPOSITION_MULTIPLEXED,	  /* ran part of its enabled time: counts are scaled */
	EXPOSITION_NEVER_RAN,	  /* enabled, never on the PMU */
	EXPOSITION_SUSPECT_ZERO,  /* a hardware counter that ran and counted nothing */
};

/* pmctop's own costs, for the process_* families; NAN for what is unknown. */
struct exposition_self {
	double cpu_seconds; /* user and system */
	double rss_bytes;
	double open_fds;
	double max_fds; /* the soft RLIMIT_NOFILE: the fd budget */
};

struct exposition_info {
	const char *version;  /* borrowed; pmctop's */
	const char *mode;     /* borrowed; the source's one-line event mode */
	const char *hw_pmu;   /* borrowed; the core PMU's name, NULL when unknown ("cpu") */
	size_t top_processes; /* per-process series for the top K by CPU; 0 for none */
	struct exposition_self self;
};

/*
 * The per-tick state: the previous cumulative counts per event, so the
 * status of an event says what happened in the last interval.
 */
struct exposition {
	size_t nev;
	struct snap_count *last; /* owned; per event, summed over the CPUs */
	bool have_last;
	enum exposition_status *status; /* owned; per event */
	uint64_t ticks;			/* snapshots taken */
};

/* Heap state for a model over nev events. Never NULL; free with exposition_free. */
struct exposition *exposition_new(size_t nev);
void exposition_free(struct exposition *x);
/*
 * Take the model's latest snapshot (call after every model_update, the
 * first one too): counts the tick and works out each event's status.
 */
void exposition_update(struct exposition *x, const struct model *m);
/*
 * Write every family in fmt to f: HELP and TYPE lines, no timestamps,
 * "# EOF" last in OpenMetrics. Returns 0, or -errno when f failed.
 */
int exposition_render(const struct exposition *x, FILE *f, enum exposition_format fmt,
		      const struct model *m, const struct exposition_info *info);
/* "counted", "not_supported", ... as the status label spells it. */
const char *exposition_status_name(enum exposition_status s);
/*
 * Write s to f as a label value between quotes: first textsafe_escape's
 * reversible HEX style (each byte of invalid UTF-8, control or bidi
 * override as the text \xHH, a '\' doubled where it would read as one),
 * so distinct names stay distinct values and none reaches a terminal
 * raw; then backslash and double quote escaped as the formats want.
 */
void exposition_label_value(FILE *f, const char *s);

#endif
