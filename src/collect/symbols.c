/* The symbol tables of mapped files: the very file mapped, read in slices, cached by bytes. */
#include "config.h"
#include "collect/symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/elfsym.h"
#include "util/xalloc.h"

#define SYMBOLS_MAX_FILES 256 /* files cached, whatever they hold */
#define SYMBOLS_DELETED_TAG " (deleted)"

struct symbols_file {
	char *name;	   /* as the mapping names it */
	unsigned maj, min; /* the mapping's file; ino 0 when not known: found by name */
	unsigned long long ino;
	enum symbols_state state;
	int err;
	int fd;			   /* open while SYMBOLS_READING */
	struct elfsym_parse parse; /* SYMBOLS_READING */
	struct elfsym tab;	   /* SYMBOLS_READY */
	uint64_t used;		   /* when last asked for: the least recent goes first */
};

struct symbols {
	char root[256];
	int pid;
	size_t cache_bytes, slice_bytes;
	unsigned flags;
	uint64_t allow; /* file bytes this frame may still read */
	uint64_t clock;
	struct symbols_file **f; /* each owned */
	size_t nf, cap;
	struct symbols_stats st;
};

struct symbols *symbols_new(const char *root)
{
	struct symbols *s = xcalloc(1, sizeof(*s));

	snprintf(s->root, sizeof(s->root), "%s", root);
	s->cache_bytes = SYMBOLS_CACHE_BYTES;
	s->slice_bytes = SYMBOLS_SLICE_BYTES;
	s->allow = s->slice_bytes;
	return s;
}

static size_t symbols_cost(const struct symbols_file *f)
{
	return sizeof(*f) + strlen(f->name) + 1 + f->tab.bytes + f->parse.e.bytes;
}

static void symbols_file_free(struct symbols_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	elfsym_parse_release(&f->parse);
	elfsym_release(&f->tab);
	free(f->name);
	free(f);
}

static void symbols_flush(struct symbols *s)
{
	for (size_t i = 0; i < s->nf; i++)
		symbols_file_free(s->f[i]);
	s->nf = 0;
	s->st.files = 0;
	s->st.bytes = 0;
}

void symbols_set_root(struct symbols *s, const char *root, int pid)
{
	if (!strcmp(s->root, root) && s->pid == pid)
		return;
	symbols_flush(s);
	snprintf(s->root, sizeof(s->root), "%s", root);
	s->pid = pid;
}

void symbols_set_limits(struct symbols *s, size_t cache_bytes, size_t slice_bytes, unsigned flags)
{
	if (cache_bytes)
		s->cache_bytes = cache_bytes;
	if (slice_bytes)
		s->slice_bytes = slice_bytes;
	s->flags = flags;
	s->allow = s->slice_bytes;
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	symbols_flush(s);
	free(s->f);
	free(s);
}

void symbols_frame(struct symbols *s)
{
	s->allow = s->slice_bytes;
}

void symbols_stats(const struct symbols *s, struct symbols_stats *st)
{
	*st = s->st;
	st->files = s->nf;
	st->bytes = 0;
	for (size_t i = 0; i < s->nf; i++)
		st->bytes += symbols_cost(s->f[i]);
}

/* Read from the file being parsed; a short read means it shrank meanwhile. */
static int symbols_pread(void *arg, void *buf, size_t len, uint64_t off)
{
	const struct symbols_file *f = arg;
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(f->fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		got += (size_t)r;
	}
	return 0;
}

/*
 * Whether what pfd holds may be read as the mapping's file: a regular file,
 * and the mapping's own when its identity is known. 0, or -errno and *state.
 */
static int symbols_check(int pfd, const struct mem_map *m, struct stat *st,
			 enum symbols_state *state)
{
	if (fstat(pfd, st))
		return -errno;
	if (S_ISLNK(st->st_mode)) {
		*state = SYMBOLS_REFUSED;
		return -ELOOP;
	}
	if (!S_ISREG(st->st_mode)) {
		*state = SYMBOLS_REFUSED;
		return -ENODEV;
	}
	if (m->ino &&
	    (st->st_ino != m->ino || major(st->st_dev) != m->maj || minor(st->st_dev) != m->min)) {
		/* another file under the mapping's name: its symbols would be wrong ones */
		*state = SYMBOLS_REPLACED;
		return -ESTALE;
	}
	return 0;
}

/* The path under rootfd, one component at a time, refusing every symbolic link. */
static int symbols_walk(int rootfd, const char *path, enum symbols_state *state)
{
	int dir = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	const char *p = path;

	if (dir < 0)
		return -errno;
	while (*p) {
		char comp[256];
		size_t l;
		struct stat st;
		int fd;

		p += strspn(p, "/");
		l = strcspn(p, "/");
		if (!l)
			break;
		if (l >= sizeof(comp) || (l == 1 && p[0] == '.') ||
		    (l == 2 && p[0] == '.' && p[1] == '.')) {
			close(dir);
			*state = SYMBOLS_REFUSED;
			return -EXDEV;
		}
		memcpy(comp, p, l);
		comp[l] = '\0';
		p += l;
		fd = openat(dir, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		close(dir);
		if (fd < 0)
			return -errno;
		if (fstat(fd, &st)) {
			close(fd);
			return -errno;
		}
		if (S_ISLNK(st.st_mode)) {
			close(fd);
			*state = SYMBOLS_REFUSED;
			return -ELOOP;
		}
		dir = fd;
	}
	return dir;
}

/* The mapping's path, resolved inside the root and never out of it; an O_PATH descriptor. */
static int symbols_resolve(const struct symbols *s, const char *path, enum symbols_state *state)
{
	int rootfd = open(s->root[0] ? s->root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd = -ENOSYS;

	if (rootfd < 0)
		return -errno;
	if (!(s->flags & SYMBOLS_NO_OPENAT2)) {
		/* an absolute link or ".." stays inside the root; no /proc magic link is followed */
		struct open_how how = {
			.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
			.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
		};

		fd = (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
		if (fd < 0)
			fd = -errno;
	}
	if (fd == -ENOSYS || fd == -E2BIG)
		fd = symbols_walk(rootfd, path, state);
	if (fd == -ELOOP)
		*state = SYMBOLS_REFUSED;
	close(rootfd);
	return fd;
}

/*
 * Open the file mapped by m for reading: through /proc/PID/map_files (the
 * very file mapped, even deleted or replaced since) where the kernel allows,
 * else by its path under the root. Nothing but a regular file that is the
 * mapping's own is ever opened for reading: the name is resolved to an
 * O_PATH descriptor, checked, and only then reopened. A descriptor, or
 * -errno and *state.
 */
static int symbols_open(struct symbols *s, const struct mem_map *m, struct stat *st,
			enum symbols_state *state)
{
	char path[64];
	struct stat again;
	int pfd = -ENOENT, fd, r;

	*state = SYMBOLS_NONE;
	if (s->pid > 0) {
		snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", s->pid, m->start,
			 m->end);
		pfd = open(path, O_PATH | O_CLOEXEC);
		if (pfd < 0)
			pfd = -errno;
	}
	if (pfd < 0) {
		size_t l = strlen(m->name), t = strlen(SYMBOLS_DELETED_TAG);

		if (m->cut) {
			/* the first 95 bytes of a name are a path the process's owner chose */
			*state = SYMBOLS_REFUSED;
			return -ENAMETOOLONG;
		}
		if (l > t && !strcmp(m->name + l - t, SYMBOLS_DELETED_TAG)) {
			*state = SYMBOLS_DELETED;
			return -ENOENT;
		}
		pfd = symbols_resolve(s, m->name, state);
		if (pfd < 0)
			return pfd;
	}
	r = symbols_check(pfd, m, st, state);
	if (r) {
		close(pfd);
		return r;
	}
	/* the inode checked, reopened: no FIFO or device is opened in its place */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pfd);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	r = fd < 0 ? -errno : 0;
	close(pfd);
	if (r)
		return r;
	if (fstat(fd, &again) || again.st_ino != st->st_ino || again.st_dev != st->st_dev ||
	    !S_ISREG(again.st_mode)) {
		close(fd);
		*state = SYMBOLS_REFUSED;
		return -ENODEV;
	}
	s->st.opens++;
	*st = again;
	return fd;
}

static bool symbols_same(const struct symbols_file *f, const struct mem_map *m)
{
	if (m->ino || f->ino)
		return f->ino == m->ino && f->maj == m->maj && f->min == m->min;
	return !strcmp(f->name, m->name);
}

/* Drop the least recently used files but keep until the cache is within its bounds. */
static void symbols_evict(struct symbols *s, const struct symbols_file *keep)
{
	for (;;) {
		size_t bytes = 0, victim = SIZE_MAX;

		for (size_t i = 0; i < s->nf; i++) {
			bytes += symbols_cost(s->f[i]);
			if (s->f[i] != keep &&
			    (victim == SIZE_MAX || s->f[i]->used < s->f[victim]->used))
				victim = i;
		}
		if ((bytes <= s->cache_bytes && s->nf <= SYMBOLS_MAX_FILES) || victim == SIZE_MAX)
			return;
		symbols_file_free(s->f[victim]);
		s->f[victim] = s->f[--s->nf];
	}
}

/* Read more of f, within what the frame has left. */
static void symbols_advance(struct symbols *s, struct symbols_file *f)
{
	uint64_t before = f->parse.bytes_read;
	int r;

	if (f->state != SYMBOLS_READING || !s->allow)
		return;
	r = elfsym_parse_step(&f->parse, &f->tab, (size_t)s->allow);
	s->st.bytes_read += f->parse.bytes_read - before;
	s->allow -=
		f->parse.bytes_read - before < s->allow ? f->parse.bytes_read - before : s->allow;
	if (r == -EAGAIN) {
		symbols_evict(s, f);
		return;
	}
	close(f->fd);
	f->fd = -1;
	f->err = r;
	f->state = !r ? SYMBOLS_READY : r == -EFBIG ? SYMBOLS_TOO_BIG : SYMBOLS_NONE;
	symbols_evict(s, f);
}

/* The cache's entry for m's file, opened now if it is new. */
static struct symbols_file *symbols_file(struct symbols *s, const struct mem_map *m)
{
	struct symbols_file *f = NULL;
	struct stat st;
	int fd;

	for (size_t i = 0; i < s->nf && !f; i++)
		if (symbols_same(s->f[i], m))
			f = s->f[i];
	if (!f) {
		f = xcalloc(1, sizeof(*f));
		f->name = xstrdup(m->name);
		f->maj = m->maj;
		f->min = m->min;
		f->ino = m->ino;
		fd = symbols_open(s, m, &st, &f->state);
		f->fd = fd < 0 ? -1 : fd;
		f->err = fd < 0 ? fd : 0;
		if (fd >= 0) {
			f->state = SYMBOLS_READING;
			/* the file's real size bounds every read; the cache's size what is kept */
			elfsym_parse_begin(&f->parse, (uint64_t)st.st_size, symbols_pread, f,
					   s->cache_bytes);
		}
		s->f = xgrow(s->f, &s->cap, s->nf + 1, sizeof(*s->f));
		s->f[s->nf++] = f;
	}
	f->used = ++s->clock;
	symbols_advance(s, f);
	return f;
}

void symbols_lookup(struct symbols *s, const struct mem_map *maps, size_t n, uint64_t ip,
		    struct symbols_hit *hit)
{
	const struct mem_map *m = mem_find_map(maps, n, ip);
	const struct symbols_file *f;
	const struct elfsym_fn *fn;
	uint64_t vaddr;

	memset(hit, 0, sizeof(*hit));
	hit->state = SYMBOLS_NONE;
	hit->map = m;
	if (!m || m->name[0] != '/')
		return;
	/* the address's place in the file, then where the file's segments put it */
	hit->file_off = ip - m->start + m->pgoff;
	if (!m->pgoff && !m->ino && !m->maj && !m->min) {
		/*
		 * A mapping without its offset and identity (a recording's): take the
		 * file as mapped whole from its lowest mapping, as the loader lays
		 * out the segments of an ordinary ELF file.
		 */
		unsigned long long base = m->start;

		for (size_t i = 0; i < n; i++)
			if (maps[i].start < base && !strcmp(maps[i].name, m->name))
				base = maps[i].start;
		hit->file_off = ip - base;
	}
	f = symbols_file(s, m);
	hit->state = f->state;
	hit->err = f->err;
	if (f->state == SYMBOLS_READY && elfsym_vaddr(&f->tab, hit->file_off, &vaddr)) {
		fn = elfsym_find(&f->tab, vaddr, &hit->fn_off);
		hit->fn = fn ? fn->name : NULL;
	}
}

/* Why a file was not opened, in a few words. */
static const char *symbols_refusal(int err)
{
	switch (err) {
	case -ELOOP:
		return "a symbolic link";
	case -ENAMETOOLONG:
		return "name cut short";
	case -EXDEV:
		return "path leaves the root";
	default:
		return "not a regular file";
	}
}

const char *symbols_name(struct symbols *s, const struct mem_map *maps, size_t n, uint64_t ip,
			 char *buf, size_t size)
{
	struct symbols_hit h;
	const char *file, *cont;
	char label[128], why[64] = "";

	symbols_lookup(s, maps, n, ip, &h);
	if (!h.map) {
		snprintf(buf, size, "0x%" PRIx64, ip);
		return buf;
	}
	if (h.map->name[0] != '/') {
		/* [heap], [vdso], anonymous memory: no file to read */
		snprintf(buf, size, "%s+0x%llx", mem_map_label(h.map, label, sizeof(label)),
			 (unsigned long long)ip - h.map->start);
		return buf;
	}
	file = strrchr(h.map->name, '/') + 1;
	/* a name cut short ends in some directory's name, not the file's: say it goes on */
	cont = h.map->cut ? "..." : "";
	if (h.fn) {
		snprintf(buf, size, "%s+0x%" PRIx64 " (%s%s)", h.fn, h.fn_off, file, cont);
		return buf;
	}
	switch (h.state) {
	case SYMBOLS_READING:
		snprintf(why, sizeof(why), " (reading)");
		break;
	case SYMBOLS_REPLACED:
		snprintf(why, sizeof(why), " (file replaced)");
		break;
	case SYMBOLS_DELETED:
		snprintf(why, sizeof(why), " (file deleted)");
		break;
	case SYMBOLS_REFUSED:
		snprintf(why, sizeof(why), " (not opened: %s)", symbols_refusal(h.err));
		break;
	case SYMBOLS_TOO_BIG:
		snprintf(why, sizeof(why), " (symbols too big)");
		break;
	default:
		break;
	}
	snprintf(buf, size, "%s%s+0x%" PRIx64 "%s", file, cont, h.file_off, why);
	return buf;
}
