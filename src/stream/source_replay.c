/* Replay source: recorded snapshots through the same model and views as live data. */
#include "config.h"
#include "stream/source_replay.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
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

static void replay_free(struct source *s)
{
	struct replay *r = (struct replay *)s;

	if (r->f)
		fclose(r->f);
	free(r->name);
	free(r->buf);
	recording_reader_release(&r->rd);
	snapshot_release(&r->pending);
	source_release(&r->base);
	free(r);
}

static const struct source_ops REPLAY_OPS = {
	.read = replay_read,
	.poll_fds = replay_poll_fds,
	.free = replay_free,
};

struct source *source_replay_new(FILE *f, const char *name, char *err, size_t errsize)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	int ret;

	source_init(&r->base, &REPLAY_OPS);
	r->base.caps = SOURCE_CAP_PACED;
	r->f = f;
	r->fd = fileno(f);
	r->name = xstrdup(name);
	recording_reader_init(&r->rd);
	snapshot_init(&r->pending, 0);
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
	return &r->base;
}
