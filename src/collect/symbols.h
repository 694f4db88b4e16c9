/* Instruction addresses of a process named by function and file, from the files' symbol tables. */
#ifndef PMCTOP_SYMBOLS_H
#define PMCTOP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "stream/mem.h"

struct symbols;

/* What is known of the file an address is mapped from; worded in one place, symbols_name. */
enum symbols_state {
	SYMBOLS_READY,	  /* its functions name addresses */
	SYMBOLS_READING,  /* its tables are being read, a slice per frame */
	SYMBOLS_NONE,	  /* no symbols: no file, not ELF, no table, cannot be opened */
	SYMBOLS_REPLACED, /* its path now names another file than the one mapped */
	SYMBOLS_DELETED,  /* deleted, and not to be reached through /proc/PID/map_files */
	SYMBOLS_REFUSED,  /* not opened: a symbolic link, no regular file, or a name cut short */
	SYMBOLS_TOO_BIG,  /* its tables are past the caps */
};

/* An address as the symbolizer sees it. */
struct symbols_hit {
	enum symbols_state state;
	int err;		   /* -errno: why, for SYMBOLS_NONE and SYMBOLS_REFUSED */
	const struct mem_map *map; /* borrowed from the caller's maps; NULL outside them */
	uint64_t file_off;	   /* offset of the address in the mapped file */
	const char *fn;		   /* SYMBOLS_READY: the function, NULL when none holds it */
	uint64_t fn_off;	   /* offset into fn */
};

/* Counters of the cache, for tests and the cost of symbols. */
struct symbols_stats {
	size_t files;	     /* files cached, read or not */
	size_t bytes;	     /* memory their tables hold */
	uint64_t bytes_read; /* of files, since the cache was made */
	uint64_t opens;	     /* files opened, since the cache was made */
};

/* Tunables: SYMBOLS_CACHE_BYTES of tables at most, SYMBOLS_SLICE_BYTES read per frame. */
#define SYMBOLS_CACHE_BYTES (64u << 20)
#define SYMBOLS_SLICE_BYTES (8u << 20)
/* For tests: resolve paths component by component as on a kernel without openat2 (< 5.6). */
#define SYMBOLS_NO_OPENAT2 0x1u

/*
 * A cache of the symbol tables of the files mappings name, read from under
 * root: "" for the paths as they are (a replay, on this machine's copies),
 * or /proc/PID/root to see the files as the process does. Never NULL.
 */
struct symbols *symbols_new(const char *root);
/*
 * Look under another root from now on (the cache starts afresh when it
 * differs). pid > 0: open the very file mapped through /proc/PID/map_files
 * where the kernel allows it (root), the path under root only otherwise.
 */
void symbols_set_root(struct symbols *s, const char *root, int pid);
/* Change the tunables (0 keeps one) and SYMBOLS_NO_* flags. */
void symbols_set_limits(struct symbols *s, size_t cache_bytes, size_t slice_bytes, unsigned flags);
void symbols_free(struct symbols *s);
/* A new frame: up to the slice of file bytes may be read again, no more. */
void symbols_frame(struct symbols *s);
/*
 * What is known of ip among maps (sorted): its file's state, and its
 * function once the file has been read. Opens and reads files as needed,
 * within the frame's slice. The hit borrows from maps and the cache: valid
 * until the next call.
 */
void symbols_lookup(struct symbols *s, const struct mem_map *maps, size_t n, uint64_t ip,
		    struct symbols_hit *hit);
/*
 * ip among maps, for the user: "FUNCTION+0xOFF (FILE)" from the file's
 * symbols; "FILE+0xOFF" (the offset in the file) when it has no symbol there,
 * followed by " (reading)", " (file replaced)", " (file deleted)", " (not
 * opened: WHY)" or " (symbols too big)" where that is why; the mapping's
 * label and offset for memory that is no file; the bare address outside
 * every mapping. Returns buf.
 */
const char *symbols_name(struct symbols *s, const struct mem_map *maps, size_t n, uint64_t ip,
			 char *buf, size_t size);
void symbols_stats(const struct symbols *s, struct symbols_stats *st);

#endif
