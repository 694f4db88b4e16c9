/* The batch and screen loops: one thread, poll() over a timerfd, a signalfd and the rings. */
#ifndef PMCTOP_LOOP_H
#define PMCTOP_LOOP_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/rcfile.h"
#include "model/model.h"
#include "out/exporter.h"
#include "out/output.h"
#include "stream/source.h"

/* The pollfds of one wait: the loop's own fds first, then every sampling ring, however many. */
struct loop_rings {
	struct pollfd *pfd;
	int *fds;
	size_t cap;
	size_t base; /* the loop's own fds at the front of pfd */
	size_t n;    /* rings after them */
};

/*
 * Fill r with the base fds (each polled for POLLIN) and then all of the
 * source's sampling fds; the arrays grow as needed. Returns base + rings.
 */
size_t loop_rings_collect(struct loop_rings *r, struct source *src, const int *base, size_t nbase);
/* After a poll of r->pfd: wake (drain) each ring that fired, hangups included. */
void loop_rings_wake(struct loop_rings *r, struct source *src);
void loop_rings_release(struct loop_rings *r);

struct loop_opts {
	long iterations;     /* -1: until the source ends or a signal comes */
	double delay;	     /* seconds; for paced sources, < 0 means the recorded pace */
	FILE *msgs;	     /* where messages for the user go (stderr) */
	struct exporter *ex; /* borrowed; serves /metrics from each snapshot, NULL for none */
	const struct exposition_info *export_info; /* borrowed; with ex */
	int sample_pid; /* --sample: the run ends after the frame in which it is gone; 0: none */
	/*
	 * -- CMD: the command's pid (SIGCHLD blocked by the caller before its fork). Its end ends
	 * the run, stop signals are passed on to it; it is left unreaped. 0 for none.
	 */
	int child;
};

/* Seconds a live batch run of one frame (-n 1) counts before it, or -d when shorter. */
#define LOOP_ONE_FRAME_S 0.2

/*
 * Run frames until done; out may be NULL when only the exporter serves
 * them. With an exporter, the end of a recording does not end the run:
 * its last snapshot is served until a signal comes. Returns 0 (finished, interrupted, or the reader of
 * the output went away), or a positive exit status after printing why. The
 * first frame of a live run comes at once, without counts, except with one
 * frame only: that one is counted over LOOP_ONE_FRAME_S.
 */
int loop_batch(struct source *src, struct model *m, struct output *out, const struct loop_opts *o);

struct loop_tui_opts {
	double delay; /* seconds between ticks; paced sources: < 0 keeps their pace */
	bool color;   /* colours allowed (NO_COLOR not set) */
	bool threads; /* start with threads as rows */
	bool cmdline;
	bool mouse;	     /* clicks sort and select (not --no-mouse) */
	bool kernel_threads; /* start with kernel threads listed (K) */
	bool per_user;	     /* start with the per-user totals (W) */
	long iterations;     /* -n: quit after this many frames, as top does; -1 for never */
	enum sample_kind sample_kind; /* --sample-source for the drill-down */
	unsigned long long sample_period;
	int drill;		 /* --sample PID: open on that process's drill-down */
	bool cgroups;		 /* --cgroups: open on the cgroup view */
	const struct rcfile *rc; /* the settings read at start (columns are in the model) */
	const char *rc_path;	 /* where the setup writes them; NULL for nowhere */
	const char *rc_msg;	 /* what was wrong with the file; "" or NULL for nothing */
	int child;		 /* -- CMD: as loop_opts's */
};

/*
 * Run the interactive screen until q or a signal. Returns the exit status:
 * 0, or 1/2 after printing why (no terminal, a failed read or write).
 */
int loop_tui(struct source *src, struct model *m, const struct loop_tui_opts *o);

#endif
