/* A small reader of ELF64 symbol tables (.symtab, .dynsym) over untrusted bytes, in slices. */
#ifndef PMCTOP_ELFSYM_H
#define PMCTOP_ELFSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A function of the file: where it starts, how long it is (0 when not said), its name. */
struct elfsym_fn {
	uint64_t addr, size;
	const char *name; /* into the table's own copy of the string tables */
};

/* A PT_LOAD segment: file bytes [offset, offset + filesz) are loaded at vaddr. */
struct elfsym_load {
	uint64_t offset, filesz, vaddr;
};

struct elfsym {
	bool exec; /* ET_EXEC: addresses are fixed; else (ET_DYN) relative to the load */
	struct elfsym_load *load; /* owned */
	size_t nload;
	struct elfsym_fn *fn; /* owned, sorted by address */
	size_t nfn;
	char *names;  /* owned: the string tables, each ending in a NUL of its own */
	size_t bytes; /* memory the table holds, for a cache's budget */
};

/* The largest of each part read: a bigger one fails with -EFBIG, nothing is allocated for it. */
#define ELFSYM_MAX_HEADERS (4u << 20)	/* program or section header table */
#define ELFSYM_MAX_SYMTAB (64ull << 20) /* one symbol table */
#define ELFSYM_MAX_STRTAB (64ull << 20) /* one string table */

/*
 * Reads len bytes at off into buf: 0, or -errno (-EIO when the file is
 * shorter than it said: it was truncated while it was read).
 */
typedef int (*elfsym_read_fn)(void *arg, void *buf, size_t len, uint64_t off);

/* A symbol table to read, and its string table. */
struct elfsym_part {
	uint64_t off, size, entsize, stroff, strsize;
	bool have;
	size_t names_at; /* where its string table starts in names */
};

/* A parse in progress; its fields are the parser's. */
struct elfsym_parse {
	elfsym_read_fn read;
	void *arg;
	uint64_t size;	     /* of the file, as fstat says */
	size_t max_bytes;    /* what the table may hold at most */
	uint64_t bytes_read; /* so far, for the caller's accounting */
	int phase;
	int table; /* the symbol table being read: 0 .symtab, 1 .dynsym */
	struct elfsym_part t[2];
	uint64_t done; /* bytes of the current part read */
	size_t names_size, fn_cap;
	struct elfsym e;
	unsigned char *chunk; /* symbols read but not yet looked at */
};

/*
 * Begin reading the functions of an ELF64 little-endian file of size bytes,
 * through read(arg, ...). max_bytes bounds what the table may hold (its
 * string tables and functions): more fails with -EFBIG. Nothing is read yet.
 */
void elfsym_parse_begin(struct elfsym_parse *p, uint64_t size, elfsym_read_fn read, void *arg,
			size_t max_bytes);
/*
 * Read on, about budget bytes of the file at most (the headers may take up
 * to ELFSYM_MAX_HEADERS in one step). -EAGAIN: call again. 0: done, *e holds
 * the table (the caller releases it). Else -errno, and nothing is left to
 * release but the parse: -ENOEXEC not such a file or malformed, -ENOENT no
 * symbol table, -EFBIG more than the caps, -EIO truncated meanwhile, -ENOMEM.
 */
int elfsym_parse_step(struct elfsym_parse *p, struct elfsym *e, size_t budget);
/* Free what an unfinished parse holds; a no-op after it finished. */
void elfsym_parse_release(struct elfsym_parse *p);

/*
 * Read the functions of an ELF64 little-endian file in buf[0..len): those of
 * .symtab, and of .dynsym for what .symtab lacks (a stripped file has only
 * .dynsym). Every offset and size is checked against len, so any bytes can be
 * given. 0, or the errors of elfsym_parse_step.
 */
int elfsym_read(struct elfsym *e, const unsigned char *buf, size_t len);
void elfsym_release(struct elfsym *e);
/* The function that holds vaddr, and the offset into it; NULL when none does. */
const struct elfsym_fn *elfsym_find(const struct elfsym *e, uint64_t vaddr, uint64_t *off);
/*
 * The address the byte at file offset off is loaded at: the PT_LOAD segment
 * whose [p_offset, p_offset + p_filesz) holds it decides. false when none does.
 */
bool elfsym_vaddr(const struct elfsym *e, uint64_t off, uint64_t *vaddr);

#endif
