/* Batch output of model frames as text (like top -b), CSV or JSON Lines. */
#ifndef PMCTOP_OUTPUT_H
#define PMCTOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"
#include "util/selfcost.h"

enum output_format {
	OUTPUT_TEXT,
	OUTPUT_CSV,
	OUTPUT_JSON,
};

/* A frame as it is written: sent with one write at its end. */
struct output_buf {
	char *p;
	size_t n, cap;
	unsigned how; /* textsafe flags of the reader's terminal (output.textsafe) */
};

struct output {
	FILE *f; /* borrowed */
	enum output_format fmt;
	bool csv_header_done;
	bool show_cmdline;	  /* text: full command line instead of the name */
	bool threads;		  /* rows are threads (model threads), not processes */
	bool per_user;		  /* rows are per-user totals of the processes (--per-user) */
	struct model_users users; /* those totals, made for each frame; output_release frees */
	bool sampling;		  /* frames are the hot pages of the sampled process */
	int sample_pid;		  /* that process: pages of any other are never shown as its */
	size_t top;		  /* pages per frame when sampling */
	bool no_processes;	  /* processes are not counted (cgroups instead): no process rows */
	const struct selfcost *self; /* borrowed: pmctop's own cost, live frames only; or NULL */
	/* TEXTSAFE_ASCII when the reader's terminal is not UTF-8 (textsafe_locale) */
	unsigned textsafe;
	struct output_buf
		buf; /* the frame being written; kept for the next, output_release frees */
};

/* "text", "csv" or "json"; 0 or -EINVAL. */
int output_parse_format(const char *s, enum output_format *fmt);
/*
 * Write one frame of m; mode is the source's one-line event mode.
 * Flushes; returns 0 or -errno (-EPIPE when the reader went away).
 */
int output_frame(struct output *o, const struct model *m, const char *mode);
/* Free what the frames kept (the per-user rows, the frame buffer); o can be used again. */
void output_release(struct output *o);

#endif
