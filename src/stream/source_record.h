/* A source that records: passes another source's snapshots through and writes each to a file. */
#ifndef PMCTOP_SOURCE_RECORD_H
#define PMCTOP_SOURCE_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "stream/source.h"

/*
 * Wrap inner (taken over: freeing the wrapper frees it) so that every
 * snapshot it reads is written to f (taken over and closed; name is for
 * messages) and flushed at once. The header is written here: NULL with the
 * reason in err when that fails (inner and f are then freed). A later
 * write error turns recording off, says so once through the messages, and
 * the run goes on.
 */
struct source *source_record_new(struct source *inner, FILE *f, const char *name, char *err,
				 size_t errsize);
/* Whether every snapshot read so far reached the file. */
bool source_record_ok(const struct source *s);
/*
 * Close the file, flushing what is left. 0, or -errno after queueing a
 * message (the recording is then incomplete). Safe to call twice.
 */
int source_record_close(struct source *s);

#endif
