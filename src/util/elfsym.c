/* ELF64 symbol tables read over untrusted bytes: bounds first, then meaning. */
#include "config.h"
#include "util/elfsym.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The few ELF constants needed, spelled here so no system header decides them. */
#define ELFSYM_ET_EXEC 2
#define ELFSYM_PT_LOAD 1
#define ELFSYM_SHT_SYMTAB 2
#define ELFSYM_SHT_DYNSYM 11
#define ELFSYM_STT_FUNC 2
#define ELFSYM_STT_GNU_IFUNC 10
#define ELFSYM_SHN_UNDEF 0
#define ELFSYM_SHN_LORESERVE 0xff00
#define ELFSYM_EHDR_SIZE 64
#define ELFSYM_SYM_SIZE 24
#define ELFSYM_MAX_FUNCS (1u << 22) /* more than any real file holds */

static uint64_t elfsym_u(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Whether [off, off + size) lies within len, without overflow. */
static bool elfsym_within(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

static int elfsym_cmp(const void *a, const void *b)
{
	const struct elfsym_fn *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address, the one with a size first: it says where the function ends */
	return (x->size == 0) - (y->size == 0);
}

/* Append the functions of one symbol table section (header at sh) to the list. */
static void elfsym_table(const unsigned char *buf, size_t len, const unsigned char *sh,
			 const unsigned char *shdrs, uint64_t shnum, uint64_t shentsize,
			 struct elfsym_fn **fn, size_t *n, size_t *cap, size_t *strbytes,
			 const unsigned char ***strtab, size_t *nstr)
{
	uint64_t off = elfsym_u(sh + 24, 8), size = elfsym_u(sh + 32, 8);
	uint64_t link = elfsym_u(sh + 40, 4), entsize = elfsym_u(sh + 56, 8);
	const unsigned char *ssh;
	uint64_t soff, ssize;

	if (entsize < ELFSYM_SYM_SIZE || !elfsym_within(off, size, len) || link >= shnum)
		return;
	ssh = shdrs + link * shentsize;
	soff = elfsym_u(ssh + 24, 8);
	ssize = elfsym_u(ssh + 32, 8);
	if (!elfsym_within(soff, ssize, len) || !ssize)
		return;
	for (uint64_t k = 1; k < size / entsize && *n < ELFSYM_MAX_FUNCS; k++) {
		const unsigned char *s = buf + off + k * entsize;
		uint64_t name = elfsym_u(s, 4), shndx = elfsym_u(s + 6, 2);
		unsigned type = s[4] & 0xf;
		uint64_t value = elfsym_u(s + 8, 8), sz = elfsym_u(s + 16, 8);
		const unsigned char *nm, *end;

		if ((type != ELFSYM_STT_FUNC && type != ELFSYM_STT_GNU_IFUNC) ||
		    shndx == ELFSYM_SHN_UNDEF || shndx >= ELFSYM_SHN_LORESERVE || !value ||
		    name >= ssize)
			continue;
		nm = buf + soff + name;
		end = memchr(nm, '\0', (size_t)(ssize - name));
		if (!end || end == nm)
			continue;
		*fn = xgrow(*fn, cap, *n + 1, sizeof(**fn));
		(*fn)[*n] = (struct elfsym_fn){ .addr = value, .size = sz };
		/* the name is copied later: keep where it is for now */
		*strtab = xgrow(*strtab, nstr, *n + 1, sizeof(**strtab));
		(*strtab)[*n] = nm;
		*strbytes += (size_t)(end - nm) + 1;
		(*n)++;
	}
}

int elfsym_read(struct elfsym *e, const unsigned char *buf, size_t len)
{
	uint64_t phoff, shoff, phentsize, phnum, shentsize, shnum;
	const unsigned char **names = NULL;
	size_t n = 0, cap = 0, ncap = 0, bytes = 0, o = 0;
	bool base_set = false;
	int tables[2] = { ELFSYM_SHT_SYMTAB, ELFSYM_SHT_DYNSYM };

	memset(e, 0, sizeof(*e));
	if (len < ELFSYM_EHDR_SIZE || memcmp(buf, "\177ELF", 4) || buf[4] != 2 || buf[5] != 1)
		return -ENOEXEC;
	e->exec = elfsym_u(buf + 16, 2) == ELFSYM_ET_EXEC;
	phoff = elfsym_u(buf + 32, 8);
	shoff = elfsym_u(buf + 40, 8);
	phentsize = elfsym_u(buf + 54, 2);
	phnum = elfsym_u(buf + 56, 2);
	shentsize = elfsym_u(buf + 58, 2);
	shnum = elfsym_u(buf + 60, 2);
	if (phnum && (phentsize < 56 || !elfsym_within(phoff, phnum * phentsize, len)))
		return -ENOEXEC;
	if (shnum && (shentsize < 64 || !elfsym_within(shoff, shnum * shentsize, len)))
		return -ENOEXEC;
	for (uint64_t i = 0; i < phnum; i++) {
		const unsigned char *ph = buf + phoff + i * phentsize;
		uint64_t vaddr = elfsym_u(ph + 16, 8);

		if (elfsym_u(ph, 4) != ELFSYM_PT_LOAD)
			continue;
		if (!base_set || vaddr < e->base_vaddr)
			e->base_vaddr = vaddr;
		base_set = true;
	}
	e->base_vaddr &= ~(uint64_t)0xfff;
	/* .symtab first: .dynsym adds what a stripped file still exports */
	for (int t = 0; t < 2; t++)
		for (uint64_t i = 0; i < shnum; i++) {
			const unsigned char *sh = buf + shoff + i * shentsize;

			if (elfsym_u(sh + 4, 4) == (uint64_t)tables[t])
				elfsym_table(buf, len, sh, buf + shoff, shnum, shentsize, &e->fn,
					     &n, &cap, &bytes, &names, &ncap);
		}
	if (!n) {
		free(names);
		free(e->fn);
		e->fn = NULL;
		return -ENOENT;
	}
	e->names = xmalloc(bytes);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen((const char *)names[i]) + 1;

		memcpy(e->names + o, names[i], l);
		e->fn[i].name = e->names + o;
		o += l;
	}
	free(names);
	qsort(e->fn, n, sizeof(*e->fn), elfsym_cmp);
	/* one entry per address: the first, which has a size where any does */
	e->nfn = 0;
	for (size_t i = 0; i < n; i++)
		if (!e->nfn || e->fn[e->nfn - 1].addr != e->fn[i].addr)
			e->fn[e->nfn++] = e->fn[i];
	return 0;
}

void elfsym_release(struct elfsym *e)
{
	free(e->fn);
	free(e->names);
	memset(e, 0, sizeof(*e));
}

const struct elfsym_fn *elfsym_find(const struct elfsym *e, uint64_t vaddr, uint64_t *off)
{
	size_t lo = 0, hi = e->nfn;
	const struct elfsym_fn *f;

	/* the last function starting at or before vaddr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->fn[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	f = &e->fn[lo - 1];
	/* past its end: in code no symbol covers (padding, a stripped static function) */
	if (f->size && vaddr - f->addr >= f->size)
		return NULL;
	*off = vaddr - f->addr;
	return f;
}
