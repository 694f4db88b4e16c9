/* Instruction addresses of a process named by function and file, from the files' symbol tables. */
#ifndef PMCTOP_SYMBOLS_H
#define PMCTOP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "stream/mem.h"

struct symbols;

/*
 * A cache of the symbol tables of the files mappings name, read from under
 * root: "" for the paths as they are (a replay, on this machine's copies),
 * or /proc/PID/root to see the files as the process does (its mount
 * namespace; the kernel checks that pmctop may look). Never NULL.
 */
struct symbols *symbols_new(const char *root);
/* Look under another root from now on (the cache starts afresh when it differs). */
void symbols_set_root(struct symbols *s, const char *root);
void symbols_free(struct symbols *s);
/*
 * ip among maps (sorted), for the user: "FUNCTION+0xOFF (FILE)" from the
 * file's symbols; "FILE+0xOFF" (from where the file is loaded) when the file
 * has no symbol there or cannot be read; the mapping's label and offset for
 * memory that is no file; the bare address outside every mapping. Returns buf.
 */
const char *symbols_name(struct symbols *s, const struct mem_map *maps, size_t n, uint64_t ip,
			 char *buf, size_t size);

#endif
