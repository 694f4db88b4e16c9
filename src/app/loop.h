/* The batch and screen loops: one thread, poll() over a timerfd, a signalfd and the rings. */
#ifndef PMCTOP_LOOP_H
#define PMCTOP_LOOP_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"
#include "out/exporter.h"
#include "out/output.h"
#include "stream/source.h"

struct loop_opts {
	long iterations;	/* -1: until the source ends or a signal comes */
	double delay;		/* seconds; for paced sources, < 0 means the recorded pace */
	FILE *msgs;		/* where messages for the user go (stderr) */
	struct exporter *ex;	/* borrowed; serves /metrics from each snapshot, NULL for none */
	const struct exposition_info *export_info;	/* borrowed; with ex */
};

/*
 * Run frames until done; out may be NULL when only the exporter serves
 * them. With an exporter, the end of a recording does not end the run:
 * its last snapshot is served until a signal comes. Returns 0 (finished, interrupted, or the reader of
 * the output went away), or a positive exit status after printing why.
 */
int loop_batch(struct source *src, struct model *m, struct output *out, const struct loop_opts *o);

struct loop_tui_opts {
	double delay;		/* seconds between ticks; paced sources: < 0 keeps their pace */
	bool color;		/* colours allowed (NO_COLOR not set) */
	bool threads;		/* start with threads as rows */
	bool cmdline;
	long iterations;	/* -n: quit after this many frames, as top does; -1 for never */
	enum sample_kind sample_kind;	/* --sample-source for the drill-down */
	unsigned long long sample_period;
	int drill;		/* --sample PID: open on that process's drill-down */
};

/*
 * Run the interactive screen until q or a signal. Returns the exit status:
 * 0, or 1/2 after printing why (no terminal, a failed read or write).
 */
int loop_tui(struct source *src, struct model *m, const struct loop_tui_opts *o);

#endif
