/* ELF64 symbol tables read over untrusted bytes: bounds first, then meaning, a slice at a time. */
#include "config.h"
#include "util/elfsym.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
#define ELFSYM_PHDR_SIZE 56
#define ELFSYM_SHDR_SIZE 64
#define ELFSYM_SYM_SIZE 24
#define ELFSYM_MAX_FUNCS (1u << 22) /* more than any real file holds */
#define ELFSYM_CHUNK (256u << 10)   /* symbols read at once */

enum elfsym_phase {
	ELFSYM_HEADERS,
	ELFSYM_STRINGS,
	ELFSYM_SYMBOLS,
	ELFSYM_FINISH,
};

static uint64_t elfsym_u(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Whether [off, off + size) lies within len, without overflow. */
static bool elfsym_within(uint64_t off, uint64_t size, uint64_t len)
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

void elfsym_parse_begin(struct elfsym_parse *p, uint64_t size, elfsym_read_fn read, void *arg,
			size_t max_bytes)
{
	memset(p, 0, sizeof(*p));
	p->read = read;
	p->arg = arg;
	p->size = size;
	p->max_bytes = max_bytes;
	p->phase = ELFSYM_HEADERS;
}

void elfsym_parse_release(struct elfsym_parse *p)
{
	elfsym_release(&p->e);
	free(p->chunk);
	p->chunk = NULL;
}

/* Read len bytes at off of the file, counted. */
static int elfsym_get(struct elfsym_parse *p, void *buf, size_t len, uint64_t off)
{
	if (!elfsym_within(off, len, p->size))
		return -ENOEXEC;
	p->bytes_read += len;
	return p->read(p->arg, buf, len, off);
}

/* Read a header table of num entries of entsize bytes (at least min) at off; NULL and *r set. */
static unsigned char *elfsym_headers(struct elfsym_parse *p, uint64_t off, uint64_t num,
				     uint64_t entsize, uint64_t min, int *r)
{
	unsigned char *buf;

	*r = 0;
	if (!num)
		return NULL;
	if (entsize < min || num > ELFSYM_MAX_HEADERS / entsize) {
		*r = -ENOEXEC;
		return NULL;
	}
	if (!elfsym_within(off, num * entsize, p->size)) {
		*r = -ENOEXEC;
		return NULL;
	}
	buf = malloc(num * entsize);
	if (!buf) {
		*r = -ENOMEM;
		return NULL;
	}
	*r = elfsym_get(p, buf, num * entsize, off);
	if (*r) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The segments, and the symbol tables to read, from the file's headers. */
static int elfsym_parse_headers(struct elfsym_parse *p)
{
	static const int types[2] = { ELFSYM_SHT_SYMTAB, ELFSYM_SHT_DYNSYM };
	unsigned char eh[ELFSYM_EHDR_SIZE], *ph, *sh;
	uint64_t phoff, shoff, phentsize, phnum, shentsize, shnum, names = 0;
	bool big = false;
	int r;

	if (p->size < ELFSYM_EHDR_SIZE)
		return -ENOEXEC;
	r = elfsym_get(p, eh, sizeof(eh), 0);
	if (r)
		return r;
	if (memcmp(eh, "\177ELF", 4) || eh[4] != 2 || eh[5] != 1)
		return -ENOEXEC;
	p->e.exec = elfsym_u(eh + 16, 2) == ELFSYM_ET_EXEC;
	phoff = elfsym_u(eh + 32, 8);
	shoff = elfsym_u(eh + 40, 8);
	phentsize = elfsym_u(eh + 54, 2);
	phnum = elfsym_u(eh + 56, 2);
	shentsize = elfsym_u(eh + 58, 2);
	shnum = elfsym_u(eh + 60, 2);
	ph = elfsym_headers(p, phoff, phnum, phentsize, ELFSYM_PHDR_SIZE, &r);
	if (r)
		return r;
	if (phnum) {
		p->e.load = malloc(phnum * sizeof(*p->e.load));
		if (!p->e.load) {
			free(ph);
			return -ENOMEM;
		}
	}
	for (uint64_t i = 0; i < phnum; i++) {
		const unsigned char *h = ph + i * phentsize;

		if (elfsym_u(h, 4) != ELFSYM_PT_LOAD)
			continue;
		p->e.load[p->e.nload++] = (struct elfsym_load){
			.offset = elfsym_u(h + 8, 8),
			.vaddr = elfsym_u(h + 16, 8),
			.filesz = elfsym_u(h + 32, 8),
		};
	}
	free(ph);
	sh = elfsym_headers(p, shoff, shnum, shentsize, ELFSYM_SHDR_SIZE, &r);
	if (r)
		return r;
	/* .symtab first: .dynsym adds what a stripped file still exports */
	for (int t = 0; t < 2; t++)
		for (uint64_t i = 0; i < shnum && !p->t[t].have; i++) {
			const unsigned char *s = sh + i * shentsize, *ss;
			uint64_t off = elfsym_u(s + 24, 8), size = elfsym_u(s + 32, 8);
			uint64_t link = elfsym_u(s + 40, 4), entsize = elfsym_u(s + 56, 8);
			uint64_t soff, ssize;

			if (elfsym_u(s + 4, 4) != (uint64_t)types[t])
				continue;
			if (entsize < ELFSYM_SYM_SIZE || entsize > ELFSYM_CHUNK || link >= shnum ||
			    !elfsym_within(off, size, p->size))
				continue;
			ss = sh + link * shentsize;
			soff = elfsym_u(ss + 24, 8);
			ssize = elfsym_u(ss + 32, 8);
			if (!ssize || !elfsym_within(soff, ssize, p->size))
				continue;
			/* a table past the caps is passed over: the other one may do */
			if (size > ELFSYM_MAX_SYMTAB || ssize > ELFSYM_MAX_STRTAB) {
				big = true;
				continue;
			}
			p->t[t].have = true;
			p->t[t].off = off;
			p->t[t].size = size;
			p->t[t].entsize = entsize;
			p->t[t].stroff = soff;
			p->t[t].strsize = ssize;
			p->t[t].names_at = (size_t)names;
			names += ssize + 1;
		}
	free(sh);
	if (!p->t[0].have && !p->t[1].have)
		return big ? -EFBIG : -ENOENT;
	/* allocations bounded by the file's size (checked above) and the caller's budget */
	if (names + p->e.nload * sizeof(*p->e.load) > p->max_bytes)
		return -EFBIG;
	p->e.names = malloc((size_t)names);
	if (!p->e.names)
		return -ENOMEM;
	p->names_size = (size_t)names;
	p->e.bytes = (size_t)names + p->e.nload * sizeof(*p->e.load);
	p->table = p->t[0].have ? 0 : 1;
	p->phase = ELFSYM_STRINGS;
	p->done = 0;
	return 0;
}

/* The next table to read, or the end. */
static void elfsym_next_table(struct elfsym_parse *p)
{
	p->done = 0;
	if (p->table == 0 && p->t[1].have) {
		p->table = 1;
		p->phase = ELFSYM_STRINGS;
	} else {
		p->phase = ELFSYM_FINISH;
	}
}

/* Read up to *budget bytes more of the current string table. */
static int elfsym_parse_strings(struct elfsym_parse *p, size_t *budget)
{
	const struct elfsym_part *t = &p->t[p->table];
	uint64_t n = t->strsize - p->done;
	char *dst = p->e.names + t->names_at;
	int r;

	if (n > *budget)
		n = *budget;
	r = elfsym_get(p, dst + p->done, (size_t)n, t->stroff + p->done);
	if (r)
		return r;
	p->done += n;
	*budget -= (size_t)n;
	if (p->done == t->strsize) {
		/* every name ends within its table, whatever the bytes say */
		dst[t->strsize] = '\0';
		p->phase = ELFSYM_SYMBOLS;
		/* symbol 0 is the null symbol */
		p->done = t->entsize;
	}
	return 0;
}

/* Keep the symbol at s if it is a function with a name. */
static int elfsym_symbol(struct elfsym_parse *p, const unsigned char *s)
{
	const struct elfsym_part *t = &p->t[p->table];
	uint64_t name = elfsym_u(s, 4), shndx = elfsym_u(s + 6, 2);
	unsigned type = s[4] & 0xf;
	uint64_t value = elfsym_u(s + 8, 8), sz = elfsym_u(s + 16, 8);
	const char *nm;

	if ((type != ELFSYM_STT_FUNC && type != ELFSYM_STT_GNU_IFUNC) ||
	    shndx == ELFSYM_SHN_UNDEF || shndx >= ELFSYM_SHN_LORESERVE || !value ||
	    name >= t->strsize)
		return 0;
	nm = p->e.names + t->names_at + name;
	if (!*nm || p->e.nfn >= ELFSYM_MAX_FUNCS)
		return 0;
	if (p->e.nfn == p->fn_cap) {
		size_t cap = p->fn_cap ? p->fn_cap * 2 : 1024;
		struct elfsym_fn *fn;

		if (p->e.bytes + (cap - p->fn_cap) * sizeof(*fn) > p->max_bytes)
			return -EFBIG;
		fn = realloc(p->e.fn, cap * sizeof(*fn));
		if (!fn)
			return -ENOMEM;
		p->e.bytes += (cap - p->fn_cap) * sizeof(*fn);
		p->e.fn = fn;
		p->fn_cap = cap;
	}
	/* names point into the one copy of the string table: no name is copied twice */
	p->e.fn[p->e.nfn++] = (struct elfsym_fn){ .addr = value, .size = sz, .name = nm };
	return 0;
}

/* Read and look at up to *budget bytes more of the current symbol table. */
static int elfsym_parse_symbols(struct elfsym_parse *p, size_t *budget)
{
	const struct elfsym_part *t = &p->t[p->table];
	uint64_t left = t->size - p->done, n;
	int r;

	/* whole entries only; at least one, so every step gets on */
	n = left < ELFSYM_CHUNK ? left : ELFSYM_CHUNK;
	if (n > *budget)
		n = *budget;
	n -= n % t->entsize;
	if (!n)
		n = left < t->entsize ? left : t->entsize;
	if (n < t->entsize) {
		elfsym_next_table(p);
		return 0;
	}
	if (!p->chunk) {
		p->chunk = malloc(ELFSYM_CHUNK);
		if (!p->chunk)
			return -ENOMEM;
	}
	r = elfsym_get(p, p->chunk, (size_t)n, t->off + p->done);
	if (r)
		return r;
	for (uint64_t k = 0; k < n; k += t->entsize) {
		r = elfsym_symbol(p, p->chunk + k);
		if (r)
			return r;
	}
	p->done += n;
	*budget = *budget > n ? *budget - (size_t)n : 0;
	if (t->size - p->done < t->entsize)
		elfsym_next_table(p);
	return 0;
}

/* Sort the functions, one per address, and hand the table over. */
static int elfsym_parse_finish(struct elfsym_parse *p, struct elfsym *e)
{
	struct elfsym_fn *fn = p->e.fn;
	size_t n = p->e.nfn;

	free(p->chunk);
	p->chunk = NULL;
	if (!n)
		return -ENOENT;
	qsort(fn, n, sizeof(*fn), elfsym_cmp);
	/* one entry per address: the first, which has a size where any does */
	p->e.nfn = 0;
	for (size_t i = 0; i < n; i++)
		if (!p->e.nfn || fn[p->e.nfn - 1].addr != fn[i].addr)
			fn[p->e.nfn++] = fn[i];
	*e = p->e;
	memset(&p->e, 0, sizeof(p->e));
	return 0;
}

int elfsym_parse_step(struct elfsym_parse *p, struct elfsym *e, size_t budget)
{
	int r = 0;

	memset(e, 0, sizeof(*e));
	if (p->phase == ELFSYM_HEADERS)
		r = elfsym_parse_headers(p);
	while (!r && budget && (p->phase == ELFSYM_STRINGS || p->phase == ELFSYM_SYMBOLS))
		r = p->phase == ELFSYM_STRINGS ? elfsym_parse_strings(p, &budget)
					       : elfsym_parse_symbols(p, &budget);
	if (!r && p->phase == ELFSYM_FINISH)
		r = elfsym_parse_finish(p, e);
	else if (!r)
		return -EAGAIN;
	if (r)
		elfsym_parse_release(p);
	return r;
}

struct elfsym_mem {
	const unsigned char *buf;
	size_t len;
};

static int elfsym_mem_read(void *arg, void *buf, size_t len, uint64_t off)
{
	const struct elfsym_mem *m = arg;

	if (!elfsym_within(off, len, m->len))
		return -EIO;
	memcpy(buf, m->buf + off, len);
	return 0;
}

int elfsym_read(struct elfsym *e, const unsigned char *buf, size_t len)
{
	struct elfsym_mem m = { buf, len };
	struct elfsym_parse p;
	int r;

	elfsym_parse_begin(&p, len, elfsym_mem_read, &m, SIZE_MAX);
	do
		r = elfsym_parse_step(&p, e, SIZE_MAX);
	while (r == -EAGAIN);
	return r;
}

void elfsym_release(struct elfsym *e)
{
	free(e->fn);
	free(e->names);
	free(e->load);
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

bool elfsym_vaddr(const struct elfsym *e, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < e->nload; i++) {
		const struct elfsym_load *l = &e->load[i];

		if (off >= l->offset && off - l->offset < l->filesz) {
			*vaddr = off - l->offset + l->vaddr;
			return true;
		}
	}
	return false;
}
