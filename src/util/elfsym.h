/* A small reader of ELF64 symbol tables (.symtab, .dynsym) over bytes in memory. */
#ifndef PMCTOP_ELFSYM_H
#define PMCTOP_ELFSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A function of the file: where it starts, how long it is (0 when not said), its name. */
struct elfsym_fn {
	uint64_t addr, size;
	const char *name; /* into the table's own copy of the names */
};

struct elfsym {
	bool exec; /* ET_EXEC: addresses are fixed; else (ET_DYN) relative to where it is loaded */
	/*
	 * The lowest loadable address, page aligned: where the file's first
	 * mapping starts, relative to the load base.
	 */
	uint64_t base_vaddr;
	struct elfsym_fn *fn; /* sorted by address */
	size_t nfn;
	char *names; /* owned */
};

/*
 * Read the functions of an ELF64 little-endian file in buf[0..len): those of
 * .symtab, and of .dynsym for what .symtab lacks (a stripped file has only
 * .dynsym). Every offset and size is checked against len, so any bytes can be
 * given. 0, -ENOEXEC when it is not such a file (or is malformed), -ENOENT
 * when it has no symbol table.
 */
int elfsym_read(struct elfsym *e, const unsigned char *buf, size_t len);
void elfsym_release(struct elfsym *e);
/* The function that holds vaddr, and the offset into it; NULL when none does. */
const struct elfsym_fn *elfsym_find(const struct elfsym *e, uint64_t vaddr, uint64_t *off);

#endif
