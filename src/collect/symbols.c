/* The symbol tables of mapped files, read once each and kept in a small cache. */
#include "config.h"
#include "collect/symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/elfsym.h"
#include "util/xalloc.h"

#define SYMBOLS_FILES 32		 /* files whose tables are kept */
#define SYMBOLS_MAX_FILE (1024ull << 20) /* a bigger file is not read */

struct symbols_file {
	char *path; /* as the mapping names it; NULL for a free slot */
	int err;    /* 0 when tab holds its functions */
	struct elfsym tab;
};

struct symbols {
	char root[256];
	struct symbols_file f[SYMBOLS_FILES];
	size_t next; /* the slot the next file replaces */
};

struct symbols *symbols_new(const char *root)
{
	struct symbols *s = xcalloc(1, sizeof(*s));

	snprintf(s->root, sizeof(s->root), "%s", root);
	return s;
}

static void symbols_flush(struct symbols *s)
{
	for (size_t i = 0; i < SYMBOLS_FILES; i++) {
		free(s->f[i].path);
		elfsym_release(&s->f[i].tab);
		memset(&s->f[i], 0, sizeof(s->f[i]));
	}
	s->next = 0;
}

void symbols_set_root(struct symbols *s, const char *root)
{
	if (!strcmp(s->root, root))
		return;
	symbols_flush(s);
	snprintf(s->root, sizeof(s->root), "%s", root);
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	symbols_flush(s);
	free(s);
}

/* Read the functions of the file at path (under the root); 0 or -errno. */
static int symbols_read(const struct symbols *s, const char *path, struct elfsym *tab)
{
	char full[4352];
	struct stat st;
	void *p;
	int fd, r;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", s->root, path) >= sizeof(full))
		return -ENAMETOOLONG;
	/* a regular file only: a device named by a crafted recording is not even opened */
	if (stat(full, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (unsigned long long)st.st_size > SYMBOLS_MAX_FILE) {
		close(fd);
		return -ENOEXEC;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	r = elfsym_read(tab, p, (size_t)st.st_size);
	munmap(p, (size_t)st.st_size);
	return r;
}

/* The cached table of path, read now if it is not there; NULL when it cannot be had. */
static const struct elfsym *symbols_file(struct symbols *s, const char *path)
{
	struct symbols_file *f;

	for (size_t i = 0; i < SYMBOLS_FILES; i++)
		if (s->f[i].path && !strcmp(s->f[i].path, path))
			return s->f[i].err ? NULL : &s->f[i].tab;
	f = &s->f[s->next];
	s->next = (s->next + 1) % SYMBOLS_FILES;
	free(f->path);
	elfsym_release(&f->tab);
	f->path = xstrdup(path);
	f->err = symbols_read(s, path, &f->tab);
	return f->err ? NULL : &f->tab;
}

const char *symbols_name(struct symbols *s, const struct mem_map *maps, size_t n, uint64_t ip,
			 char *buf, size_t size)
{
	const struct mem_map *m = mem_find_map(maps, n, ip);
	const struct elfsym_fn *fn;
	const struct elfsym *tab;
	unsigned long long base;
	const char *file;
	uint64_t off;
	char label[128];

	if (!m) {
		snprintf(buf, size, "0x%" PRIx64, ip);
		return buf;
	}
	if (m->name[0] != '/') {
		/* [heap], [vdso], anonymous memory: no file to read */
		snprintf(buf, size, "%s+0x%llx", mem_map_label(m, label, sizeof(label)),
			 (unsigned long long)ip - m->start);
		return buf;
	}
	/* the file is loaded at its lowest mapping: a library maps several times */
	base = m->start;
	for (size_t i = 0; i < n; i++)
		if (maps[i].start < base && !strcmp(maps[i].name, m->name))
			base = maps[i].start;
	file = strrchr(m->name, '/') + 1;
	tab = symbols_file(s, m->name);
	if (tab) {
		uint64_t vaddr = tab->exec ? ip : ip - base + tab->base_vaddr;

		fn = elfsym_find(tab, vaddr, &off);
		if (fn) {
			snprintf(buf, size, "%s+0x%" PRIx64 " (%s)", fn->name, off, file);
			return buf;
		}
	}
	snprintf(buf, size, "%s+0x%llx", file, (unsigned long long)ip - base);
	return buf;
}
