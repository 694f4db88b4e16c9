/* A source that plays a perf.data capture (file or pipe format) in frames of its own time. */
#ifndef PMCTOP_SOURCE_PERF_H
#define PMCTOP_SOURCE_PERF_H

#include <stddef.h>

#include "stream/source.h"

/*
 * Read the capture from fd (taken over and closed; prefix holds n bytes
 * already read from it, such as the magic) to its end, and its header.
 * Frames cover frame_s seconds of the capture's clock each. Returns the
 * source, or NULL with "NAME: offset N: what" in err.
 */
struct source *source_perf_new(int fd, const void *prefix, size_t n, const char *name,
			       double frame_s, char *err, size_t errsize);

#endif
