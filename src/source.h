/* The seam between collection and everything else: a source of snapshots. */
#ifndef PMCTOP_SOURCE_H
#define PMCTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "evlist.h"
#include "snapshot.h"

struct source;

struct source_ops {
	/* Fill snap with the next tick: 0, 1 at the end of the stream, or -errno. */
	int (*read)(struct source *s, struct snapshot *snap);
	/*
	 * Per-thread entries from the next read on: for pid (0 for none), and
	 * for every process when all is set. NULL when the source cannot.
	 */
	void (*threads)(struct source *s, int pid, bool all);
	void (*free)(struct source *s);
};

struct source {
	const struct source_ops *ops;
	struct evlist ev;	/* what is counted; err set for what cannot be */
	char mode[512];		/* one line: the event mode and, if degraded, why */
	char host[65];		/* where the counts come from */
	char kernel[65];
	bool replay;		/* snapshots carry their recorded times */
	char **msgs;		/* messages for the user since the last take */
	size_t nmsgs, msgcap;
};

/* Initialise the common part. */
void source_init(struct source *s, const struct source_ops *ops);
/* Release the common part (for implementations' free). */
void source_release(struct source *s);
/* Queue a message for the user (printf-style). */
void source_message(struct source *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Move queued messages to the caller, who frees each and the array. */
char **source_take_messages(struct source *s, size_t *n);
/* Read the next snapshot; see source_ops.read. */
int source_read(struct source *s, struct snapshot *snap);
/* Ask for per-thread entries (see source_ops.threads); a no-op where unsupported. */
void source_threads(struct source *s, int pid, bool all);
/* Free the source; NULL is a no-op. */
void source_free(struct source *s);

#endif
