/* The batch loop: one thread, poll() over a timerfd and a signalfd. */
#ifndef PMCTOP_LOOP_H
#define PMCTOP_LOOP_H

#include <stdio.h>

#include "model.h"
#include "output.h"
#include "source.h"

struct loop_opts {
	long iterations;	/* -1: until the source ends or a signal comes */
	double delay;		/* seconds; for replays, < 0 means the recorded pace */
	FILE *record;		/* borrowed; NULL when not recording */
	const char *record_name;
	FILE *msgs;		/* where messages for the user go (stderr) */
};

/*
 * Run frames until done. Returns 0 (finished, interrupted, or the reader of
 * the output went away), or a positive exit status after printing why.
 */
int loop_batch(struct source *src, struct model *m, struct output *out, const struct loop_opts *o);

#endif
