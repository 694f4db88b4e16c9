/* The recording format: a line-oriented text stream of snapshots (doc/recording.md). */
#ifndef PMCTOP_RECORDING_H
#define PMCTOP_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stream/evlist.h"
#include "stream/snapshot.h"
#include "util/errmsg.h"

#define RECORDING_MAGIC "pmctop-recording"
#define RECORDING_VERSION 1
#define RECORDING_MAX_LINE 65536 /* bytes; a longer line is malformed */

/*
 * Write the header: magic, host, the mode and the events. The mode goes in
 * as its facts (a modefacts line) where facts is not NULL, so a replay says
 * it in the words of the pmctop that reads it; else as the text. 0 or -errno.
 */
int recording_write_header(FILE *f, const struct evlist *ev, const char *mode,
			   const struct errmsg_mode *facts, const char *host, const char *kernel);
/* Write one snapshot as tick/cpu/task lines and "end". 0 or -errno. */
int recording_write_snapshot(FILE *f, const struct snapshot *s);

/* Percent-escape s into out (spaces, controls and '%'; "" becomes "%"). */
void recording_escape(const char *s, char *out, size_t size);
/* Undo recording_escape in place; 0 or -EINVAL. */
int recording_unescape(char *s);

struct recording_reader {
	struct evlist ev;	  /* from the header */
	char mode[512];		  /* the mode line, or the text of the mode facts */
	struct errmsg_mode facts; /* from a modefacts line, where have_facts */
	bool have_facts;
	char host[65];
	char kernel[65];
	bool header_done;
	bool in_tick;
	bool seen_magic;
	unsigned long line;
	unsigned long long last_t; /* time of the previous tick */
	bool have_t;
	/* the entry a procinfo line completes: 1 the last task, 2 the last thread, 0 none */
	int info_for;
	/* the entry an at line times: 1 task, 2 thread, 3 CPU, 4 cgroup, 0 none */
	int at_for;
	char err[256]; /* what was expected, when a call fails */
};

void recording_reader_init(struct recording_reader *r);
void recording_reader_release(struct recording_reader *r);
/*
 * Feed one line (without the newline). Header lines fill r->ev and r->mode;
 * the first tick line makes snap ready to fill (snap is reset to the event
 * count). Returns 1 when "end" completed snap, 0 when more lines are
 * needed, -EINVAL with r->err set when the line is malformed.
 */
int recording_feed(struct recording_reader *r, const char *line, size_t len, struct snapshot *snap);

#endif
