/* The seam between collection and everything else: a source of snapshots. */
#ifndef PMCTOP_SOURCE_H
#define PMCTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/evlist.h"
#include "util/errmsg.h"
#include "stream/snapshot.h"

struct source;

/* Where data-address samples come from. */
enum sample_kind {
	SAMPLE_AUTO = 0, /* PEBS, then IBS, then page faults */
	SAMPLE_PEBS,
	SAMPLE_IBS,
	SAMPLE_FAULTS,
};

struct sample_req {
	enum sample_kind kind;
	uint64_t period; /* 0: the source's default */
};

/* "auto", "pebs", "ibs", "faults" -> kind; 0 or -EINVAL. */
int sample_kind_parse(const char *s, enum sample_kind *k);
const char *sample_kind_name(enum sample_kind k);
/* What the samples of a kind mean, for the pane's title line. */
const char *sample_kind_meaning(enum sample_kind k);

/* What a source can do, so callers never ask which kind of source it is. */
#define SOURCE_CAP_PACED 0x1u	/* snapshots carry the times they were taken: wait by those */
#define SOURCE_CAP_SAMPLE 0x2u	/* can start sampling a process on request */
#define SOURCE_CAP_THREADS 0x4u /* can add per-thread entries on request */
#define SOURCE_CAP_SEEK 0x8u	/* can go back and jump to any tick: a recording in a file */
#define SOURCE_CAP_LIVE 0x10u	/* its processes run on this machine now: signals reach them */

/* Facts a live source reads only while something shows or keeps them (source_extras). */
enum {
	SOURCE_EXTRA_SHR = 1u << 0, /* the shared memory of a process (statm, top's SHR) */
};

struct source_ops {
	/*
	 * Fill snap with the next tick: 0, 1 at the end of the stream, or
	 * -errno with the reason in the source's err.
	 */
	int (*read)(struct source *s, struct snapshot *snap);
	/*
	 * Per-thread entries from the next read on: for pid (0 for none), and
	 * for every process when all is set. NULL when the source cannot.
	 */
	void (*threads)(struct source *s, int pid, bool all);
	/* List kernel threads from the next read on, or not. NULL when the source cannot. */
	void (*kernel_threads)(struct source *s, bool on);
	/*
	 * The facts that cost a file per process and tick (SOURCE_EXTRA_*), read
	 * from the next read on only while wanted. NULL: the source has them all.
	 */
	void (*extras)(struct source *s, unsigned extras);
	/*
	 * Sample pid's data addresses from the next read on (0 stops); 0 or
	 * -errno with err filled. NULL when the source cannot.
	 */
	int (*sample)(struct source *s, int pid, const struct sample_req *req, char *err,
		      size_t errsize);
	/* Fds to poll for sample wakeups; wake drains the one that fired. */
	size_t (*poll_fds)(struct source *s, int *fds, size_t max);
	void (*wake)(struct source *s, int fd, bool hup);
	void (*free)(struct source *s);
	/*
	 * SOURCE_CAP_SEEK: make tick (0 is the first) the next read; 0,
	 * -ERANGE when the stream has no such tick, or -errno with err filled.
	 */
	int (*seek)(struct source *s, size_t tick);
	/* SOURCE_CAP_SEEK: the times of tick (see struct snapshot); 0 or -ERANGE. */
	int (*tick_time)(struct source *s, size_t tick, uint64_t *t_ns, double *wall);
};

struct source {
	const struct source_ops *ops;
	struct evlist ev;	  /* what is counted; err set for what cannot be */
	char mode[512];		  /* one line: the event mode and, if degraded, why */
	struct errmsg_mode facts; /* the facts mode says, where have_facts */
	bool have_facts;
	char host[65]; /* where the counts come from */
	char kernel[65];
	unsigned caps; /* SOURCE_CAP_* */
	char err[512]; /* why the last read failed: "FILE:LINE: expected ..." */
	char **msgs;   /* messages for the user since the last take */
	size_t nmsgs, msgcap;
};

/* Initialise the common part. */
void source_init(struct source *s, const struct source_ops *ops);
/* Release the common part (for implementations' free). */
void source_release(struct source *s);
/* Want the SOURCE_EXTRA_* facts in extras from the next read on, and no others. */
void source_extras(struct source *s, unsigned extras);
/* Queue a message for the user (printf-style). */
void source_message(struct source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Move queued messages to the caller, who frees each and the array. */
char **source_take_messages(struct source *s, size_t *n);
/* Print the queued messages to f, one "pmctop: ..." line each, and flush it. */
void source_print_messages(struct source *s, FILE *f);
/* Move the messages queued on from to the end of to's queue. */
void source_move_messages(struct source *to, struct source *from);
/*
 * Read the next snapshot; see source_ops.read. The snapshot also gets the
 * source's host and kernel. On -errno, source_error says why.
 */
int source_read(struct source *s, struct snapshot *snap);
/* Why the last read failed, in one line for the user; "" when it did not. */
const char *source_error(const struct source *s);
/* SOURCE_CAP_* flags. */
unsigned source_caps(const struct source *s);
/* Ask for per-thread entries (see source_ops.threads); a no-op where unsupported. */
void source_threads(struct source *s, int pid, bool all);
/* Ask for kernel threads (see source_ops.kernel_threads); a no-op where unsupported. */
void source_kernel_threads(struct source *s, bool on);
/* See source_ops.sample; -EOPNOTSUPP where unsupported. */
int source_sample(struct source *s, int pid, const struct sample_req *req, char *err,
		  size_t errsize);
size_t source_poll_fds(struct source *s, int *fds, size_t max);
void source_wake(struct source *s, int fd, bool hup);
/* See source_ops.seek; -ESPIPE where the source cannot go back (a pipe, live data). */
int source_seek(struct source *s, size_t tick);
/* See source_ops.tick_time; -ESPIPE where unsupported. */
int source_tick_time(struct source *s, size_t tick, uint64_t *t_ns, double *wall);
/* Free the source; NULL is a no-op. */
void source_free(struct source *s);

#endif
