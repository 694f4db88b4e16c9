/* A source that plays back a recording made with --record. */
#ifndef PMCTOP_SOURCE_REPLAY_H
#define PMCTOP_SOURCE_REPLAY_H

#include <stdio.h>

#include "stream/source.h"

/*
 * Read the header of the recording in f (taken over and closed by the
 * source; name is for messages). Returns the source, or NULL with a message
 * "NAME:LINE: expected ..." in err.
 */
struct source *source_replay_new(FILE *f, const char *name, char *err, size_t errsize);
/* The same for a stream whose first n bytes were read already (copied from prefix). */
struct source *source_replay_new_prefixed(FILE *f, const void *prefix, size_t n, const char *name,
					  char *err, size_t errsize);

#endif
