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
/*
 * Bound the recording to about size_max bytes (0: no bound). Before a snapshot that would
 * go into a file already that large, the file, leaf in the directory dirfd (taken over;
 * from safefile_open_private), becomes leaf.1 (replacing the one before) and a new file is
 * made there (safefile_rotate, mode 0600) with the header and, in its first snapshot, the
 * sampled process's last mappings: each file replays alone. Disk use stays under twice
 * the bound and two snapshots. A failure stops recording with a message, as a write error
 * does.
 */
void source_record_bound(struct source *s, unsigned long long size_max, int dirfd,
			 const char *leaf);
/* Whether every snapshot read so far reached the file. */
bool source_record_ok(const struct source *s);
/*
 * Close the file, flushing what is left. 0, or -errno after queueing a
 * message (the recording is then incomplete). Safe to call twice.
 */
int source_record_close(struct source *s);

#endif
