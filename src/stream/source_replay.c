/* Replay source: recorded snapshots through the same model and views as live data. */
#include "config.h"
#include "stream/source_replay.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream/recording.h"
#include "util/xalloc.h"

#define REPLAY_CHUNK 65536

/*
 * The stream is read with read(2) into a bounded buffer, never with stdio:
 * a pipe or FIFO that stalls must not block the loop (the source says
 * -EAGAIN and offers its fd to poll), and a line with no end (/dev/zero)
 * must stop at RECORDING_MAX_LINE instead of growing without bound.
 */
/* Where one tick starts in a seekable file, and what a seek needs to know of it. */
struct replay_tick {
	off_t off;	    /* of its 'tick' line */
	unsigned long line; /* that line's number, from 1 */
	uint64_t t_ns;
	double wall;
	bool maps; /* it carries 'map' lines */
};

/*
 * A seekable file is indexed on demand, ahead of the reading, with pread(2)
 * over whole lines: the offset, line number and times of each tick, so a
 * seek is an lseek and a reset of the reader. Mappings are written only when
 * they change, so a seek also finds the last tick that carried them and
 * hands those to the first snapshot after it, as reading up to there would
 * have left them.
 */
struct replay_index {
	struct replay_tick *v;
	size_t n, cap;
	off_t scan_off;		 /* the first byte not scanned yet (a line start) */
	unsigned long scan_line; /* lines before scan_off */
	bool bad;		 /* a malformed tick line: indexing stops there */
};

struct replay {
	struct source base;
	FILE *f; /* owned: closed with the source */
	int fd;	 /* fileno(f); -1 for a stream in memory */
	char *name;
	char *buf; /* bytes read and not yet fed */
	size_t len, cap;
	bool eof;
	bool starved; /* the last read found no complete line waiting */
	struct recording_reader rd;
	struct snapshot pending; /* the first tick, read with the header */
	bool have_pending;
	char err[512];
	struct replay_index idx;   /* seekable files only */
	struct mem_map *seek_maps; /* the mappings in effect at the tick sought */
	size_t nseek_maps, seek_mapcap;
	bool inject_maps; /* give seek_maps to the next snapshot that samples */
};

/* Read what the fd has; wait only when block. 1 read, 0 at end of file, -EAGAIN, or -errno. */
static int replay_fill(struct replay *r, bool block)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	ssize_t n;
	int pr;

	if (r->cap - r->len < REPLAY_CHUNK)
		r->buf = xgrow(r->buf, &r->cap, r->len + REPLAY_CHUNK, 1);
	if (r->fd < 0) {
		/* a stream in memory (fmemopen): never blocks */
		size_t got = fread(r->buf + r->len, 1, REPLAY_CHUNK, r->f);

		r->len += got;
		return got ? 1 : ferror(r->f) ? -EIO : 0;
	}
	do
		pr = poll(&p, 1, block ? -1 : 0);
	while (pr < 0 && errno == EINTR && block);
	if (pr < 0)
		return -errno;
	if (pr == 0)
		return -EAGAIN;
	do
		n = read(r->fd, r->buf + r->len, REPLAY_CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? -EAGAIN : -errno;
	r->len += (size_t)n;
	return n > 0;
}

/* Feed every complete line waiting; 1 when a snapshot completed, 0 when more bytes are needed. */
static int replay_feed_lines(struct replay *r, struct snapshot *snap)
{
	size_t off = 0;
	int ret = 0;

	if (!r->len)
		return 0; /* nothing read yet: buf may still be NULL */
	while (ret == 0) {
		char *nl = memchr(r->buf + off, '\n', r->len - off);
		size_t n;

		if (!nl) {
			/* a line too long to be one: feed its start so the reader names it */
			if (r->len - off <= RECORDING_MAX_LINE && !(r->eof && r->len > off))
				break;
			n = r->len - off > RECORDING_MAX_LINE ? RECORDING_MAX_LINE + 1
							      : r->len - off;
			ret = recording_feed(&r->rd, r->buf + off, n, snap);
			off = r->len;
			if (ret == 0 && !r->eof)
				ret = -EINVAL;
			break;
		}
		n = (size_t)(nl - (r->buf + off));
		ret = recording_feed(&r->rd, r->buf + off, n, snap);
		off += n + 1;
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
	if (ret < 0)
		snprintf(r->err, sizeof(r->err), "%s:%lu: %s", r->name, r->rd.line, r->rd.err);
	return ret;
}

/* The next snapshot: 0, 1 at the end, -EAGAIN when the stream has not caught up, or -errno. */
static int replay_next(struct replay *r, struct snapshot *snap, bool block)
{
	for (;;) {
		int ret = replay_feed_lines(r, snap);

		if (ret < 0)
			return -EINVAL;
		if (ret == 1)
			return 0;
		if (r->eof)
			break;
		ret = replay_fill(r, block);
		if (ret == -EAGAIN)
			return -EAGAIN;
		if (ret < 0) {
			snprintf(r->err, sizeof(r->err), "%s: read error: %s", r->name,
				 strerror(-ret));
			return ret;
		}
		if (ret == 0)
			r->eof = true;
	}
	if (r->rd.in_tick) {
		snprintf(r->err, sizeof(r->err),
			 "%s:%lu: expected 'end', found the end of the file", r->name, r->rd.line);
		return -EINVAL;
	}
	if (!r->rd.header_done) {
		snprintf(r->err, sizeof(r->err), "%s:%lu: expected %s, found the end of the file",
			 r->name, r->rd.line,
			 r->rd.seen_magic ? "'event' and 'tick' lines" : "'" RECORDING_MAGIC " 1'");
		return -EINVAL;
	}
	return 1;
}

static int replay_read(struct source *s, struct snapshot *snap)
{
	struct replay *r = (struct replay *)s;
	int ret;

	if (r->have_pending) {
		r->have_pending = false;
		snapshot_copy(snap, &r->pending);
		snapshot_release(&r->pending);
		return 0;
	}
	/* a malformed stream stays failed: what follows the bad line cannot be trusted */
	ret = r->err[0] ? -EINVAL : replay_next(r, snap, false);
	r->starved = ret == -EAGAIN;
	if (ret == 0 && r->inject_maps) {
		r->inject_maps = false;
		if (snap->smp.pid && !snap->smp.maps_changed) {
			for (size_t i = 0; i < r->nseek_maps; i++)
				*snapshot_add_map(snap) = r->seek_maps[i];
			snap->smp.maps_changed = true;
		}
	}
	if (ret < 0 && ret != -EAGAIN)
		snprintf(s->err, sizeof(s->err), "%s", r->err);
	return ret;
}

/* While the stream lags, its fd is worth polling: the loop reads again when it wakes. */
static size_t replay_poll_fds(struct source *s, int *fds, size_t max)
{
	struct replay *r = (struct replay *)s;

	if (!r->starved || r->fd < 0 || !max)
		return 0;
	fds[0] = r->fd;
	return 1;
}

/* Take the lines of buf[0..len) into the index; returns the bytes of whole lines taken. */
static size_t replay_index_lines(struct replay *r, const char *buf, size_t len)
{
	struct replay_index *x = &r->idx;
	size_t off = 0;

	while (off < len && !x->bad) {
		const char *line = buf + off, *nl = memchr(line, '\n', len - off);
		size_t n;

		if (!nl)
			break;
		n = (size_t)(nl - line);
		x->scan_line++;
		if (n > 5 && !memcmp(line, "tick ", 5)) {
			char tmp[128];
			unsigned long long t;
			double wall;

			snprintf(tmp, sizeof(tmp), "%.*s", (int)(n < 127 ? n : 127), line);
			if (sscanf(tmp, "tick %llu %lf", &t, &wall) != 2 ||
			    (x->n && t <= x->v[x->n - 1].t_ns)) {
				/* the reader names the fault when it gets there */
				x->bad = true;
				break;
			}
			x->v = xgrow(x->v, &x->cap, x->n + 1, sizeof(*x->v));
			x->v[x->n++] = (struct replay_tick){ .off = x->scan_off + (off_t)off,
							     .line = x->scan_line,
							     .t_ns = t,
							     .wall = wall };
		} else if (n > 4 && !memcmp(line, "map ", 4) && x->n) {
			x->v[x->n - 1].maps = true;
		}
		off += n + 1;
	}
	return off;
}

/* Index the file until it knows tick, or to its end; 0, or -ERANGE when there is no such tick. */
static int replay_index_to(struct replay *r, size_t tick)
{
	struct replay_index *x = &r->idx;
	char *buf = xmalloc(RECORDING_MAX_LINE + REPLAY_CHUNK + 2);
	size_t have = 0;

	while (x->n <= tick && !x->bad) {
		ssize_t got;
		size_t used;

		do
			got = pread(r->fd, buf + have, REPLAY_CHUNK, x->scan_off + (off_t)have);
		while (got < 0 && errno == EINTR);
		if (got <= 0)
			break;
		have += (size_t)got;
		used = replay_index_lines(r, buf, have);
		x->scan_off += (off_t)used;
		memmove(buf, buf + used, have - used);
		have -= used;
		/* a line longer than a line may be is malformed: the reader says so */
		if (have > RECORDING_MAX_LINE)
			x->bad = true;
	}
	free(buf);
	return x->n > tick ? 0 : -ERANGE;
}

/* Parse the snapshot of indexed tick k on the side, without moving the stream. 0 or -EINVAL. */
static int replay_parse_at(struct replay *r, size_t k, struct snapshot *snap)
{
	struct recording_reader rd = r->rd; /* shares the events: read only for ticks */
	char *buf = xmalloc(RECORDING_MAX_LINE + REPLAY_CHUNK + 2);
	off_t off = r->idx.v[k].off;
	size_t have = 0;
	int ret = 0;

	rd.in_tick = false;
	rd.have_t = false;
	rd.line = r->idx.v[k].line - 1;
	while (ret == 0) {
		ssize_t got;
		size_t used = 0;

		do
			got = pread(r->fd, buf + have, REPLAY_CHUNK, off);
		while (got < 0 && errno == EINTR);
		if (got <= 0)
			break;
		off += got;
		have += (size_t)got;
		while (ret == 0) {
			char *nl = memchr(buf + used, '\n', have - used);

			if (!nl)
				break;
			ret = recording_feed(&rd, buf + used, (size_t)(nl - (buf + used)), snap);
			used = (size_t)(nl - buf) + 1;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have > RECORDING_MAX_LINE)
			break;
	}
	free(buf);
	return ret == 1 ? 0 : -EINVAL;
}

static int replay_seek(struct source *s, size_t tick)
{
	struct replay *r = (struct replay *)s;
	size_t j;
	int ret = replay_index_to(r, tick);

	if (ret)
		return ret;
	if (lseek(r->fd, r->idx.v[tick].off, SEEK_SET) < 0) {
		ret = -errno;
		snprintf(s->err, sizeof(s->err), "%s: cannot seek: %s", r->name, strerror(-ret));
		return ret;
	}
	r->len = 0;
	r->eof = false;
	r->starved = false;
	r->err[0] = '\0';
	if (r->have_pending) {
		r->have_pending = false;
		snapshot_release(&r->pending);
	}
	r->rd.in_tick = false;
	r->rd.have_t = false;
	r->rd.line = r->idx.v[tick].line - 1;
	/* the mappings in effect there: those of the last tick up to it that carried them */
	r->inject_maps = false;
	for (j = tick + 1; j-- > 0 && !r->idx.v[j].maps;)
		;
	if (j != (size_t)-1 && j < tick) {
		struct snapshot tmp;

		snapshot_init(&tmp, r->rd.ev.n);
		if (!replay_parse_at(r, j, &tmp)) {
			r->seek_maps =
				xgrow(r->seek_maps, &r->seek_mapcap,
				      tmp.smp.nmaps ? tmp.smp.nmaps : 1, sizeof(*r->seek_maps));
			memcpy(r->seek_maps, tmp.smp.maps, tmp.smp.nmaps * sizeof(*r->seek_maps));
			r->nseek_maps = tmp.smp.nmaps;
			r->inject_maps = true;
		}
		snapshot_release(&tmp);
	}
	return 0;
}

static int replay_tick_time(struct source *s, size_t tick, uint64_t *t_ns, double *wall)
{
	struct replay *r = (struct replay *)s;
	int ret = replay_index_to(r, tick);

	if (ret)
		return ret;
	*t_ns = r->idx.v[tick].t_ns;
	*wall = r->idx.v[tick].wall;
	return 0;
}

static void replay_free(struct source *s)
{
	struct replay *r = (struct replay *)s;

	if (r->f)
		fclose(r->f);
	free(r->name);
	free(r->buf);
	free(r->idx.v);
	free(r->seek_maps);
	recording_reader_release(&r->rd);
	snapshot_release(&r->pending);
	source_release(&r->base);
	free(r);
}

static const struct source_ops REPLAY_OPS = {
	.read = replay_read,
	.poll_fds = replay_poll_fds,
	.free = replay_free,
	.seek = replay_seek,
	.tick_time = replay_tick_time,
};

struct source *source_replay_new(FILE *f, const char *name, char *err, size_t errsize)
{
	return source_replay_new_prefixed(f, NULL, 0, name, err, errsize);
}

struct source *source_replay_new_prefixed(FILE *f, const void *prefix, size_t n, const char *name,
					  char *err, size_t errsize)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	struct stat st;
	int ret;

	source_init(&r->base, &REPLAY_OPS);
	r->base.caps = SOURCE_CAP_PACED;
	r->f = f;
	r->fd = fileno(f);
	r->name = xstrdup(name);
	recording_reader_init(&r->rd);
	snapshot_init(&r->pending, 0);
	if (n) {
		/* bytes of a pipe read to tell a recording from a perf.data */
		r->buf = xgrow(r->buf, &r->cap, n, 1);
		memcpy(r->buf, prefix, n);
		r->len = n;
	}
	/* read up to the first complete tick so the events are known at once */
	ret = replay_next(r, &r->pending, true);
	if (ret) {
		if (ret == 1)
			snprintf(r->err, sizeof(r->err),
				 "%s:%lu: expected a 'tick', found the end of the file", name,
				 r->rd.line);
		snprintf(err, errsize, "%s", r->err);
		replay_free(&r->base);
		return NULL;
	}
	r->have_pending = true;
	evlist_copy(&r->base.ev, &r->rd.ev);
	snprintf(r->base.mode, sizeof(r->base.mode), "%s", r->rd.mode);
	r->base.facts = r->rd.facts;
	r->base.have_facts = r->rd.have_facts;
	snprintf(r->base.host, sizeof(r->base.host), "%s", r->rd.host[0] ? r->rd.host : name);
	snprintf(r->base.kernel, sizeof(r->base.kernel), "%s",
		 r->rd.kernel[0] ? r->rd.kernel : "?");
	/* a regular file can go back: a pipe or FIFO only forward */
	if (!n && r->fd >= 0 && !fstat(r->fd, &st) && S_ISREG(st.st_mode) &&
	    lseek(r->fd, 0, SEEK_CUR) >= 0)
		r->base.caps |= SOURCE_CAP_SEEK;
	return &r->base;
}
