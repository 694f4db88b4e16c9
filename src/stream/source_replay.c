/* Replay source: recorded snapshots through the same model and views as live data. */
#include "config.h"
#include "stream/source_replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream/recording.h"
#include "util/xalloc.h"

struct replay {
	struct source base;
	FILE *f;
	char *name;
	char *line;
	size_t linecap;
	struct recording_reader rd;
	struct snapshot pending;	/* the first tick, read with the header */
	bool have_pending;
	char err[512];
};

static int replay_next(struct replay *r, struct snapshot *snap)
{
	ssize_t n;

	while ((n = getline(&r->line, &r->linecap, r->f)) >= 0) {
		int ret;

		if (n && r->line[n - 1] == '\n')
			n--;
		ret = recording_feed(&r->rd, r->line, (size_t)n, snap);
		if (ret < 0) {
			snprintf(r->err, sizeof(r->err), "%s:%lu: %s", r->name, r->rd.line,
				 r->rd.err);
			return -EINVAL;
		}
		if (ret == 1)
			return 0;
	}
	if (ferror(r->f)) {
		snprintf(r->err, sizeof(r->err), "%s: read error: %s", r->name, strerror(errno));
		return -EIO;
	}
	if (r->rd.in_tick) {
		snprintf(r->err, sizeof(r->err), "%s:%lu: expected 'end', found the end of the file",
			 r->name, r->rd.line);
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
	ret = r->err[0] ? -EINVAL : replay_next(r, snap);
	if (ret < 0)
		snprintf(s->err, sizeof(s->err), "%s", r->err);
	return ret;
}

static void replay_free(struct source *s)
{
	struct replay *r = (struct replay *)s;

	if (r->f)
		fclose(r->f);
	free(r->name);
	free(r->line);
	recording_reader_release(&r->rd);
	snapshot_release(&r->pending);
	source_release(&r->base);
	free(r);
}

static const struct source_ops REPLAY_OPS = {
	.read = replay_read,
	.free = replay_free,
};

struct source *source_replay_new(FILE *f, const char *name, char *err, size_t errsize)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	int ret;

	source_init(&r->base, &REPLAY_OPS);
	r->base.caps = SOURCE_CAP_PACED;
	r->f = f;
	r->name = xstrdup(name);
	recording_reader_init(&r->rd);
	snapshot_init(&r->pending, 0);
	/* read up to the first complete tick so the events are known at once */
	ret = replay_next(r, &r->pending);
	if (ret) {
		if (ret == 1)
			snprintf(r->err, sizeof(r->err), "%s:%lu: expected a 'tick', found the end of the file",
				 name, r->rd.line);
		snprintf(err, errsize, "%s", r->err);
		replay_free(&r->base);
		return NULL;
	}
	r->have_pending = true;
	evlist_copy(&r->base.ev, &r->rd.ev);
	snprintf(r->base.mode, sizeof(r->base.mode), "%s", r->rd.mode);
	snprintf(r->base.host, sizeof(r->base.host), "%s", r->rd.host[0] ? r->rd.host : name);
	snprintf(r->base.kernel, sizeof(r->base.kernel), "%s", r->rd.kernel[0] ? r->rd.kernel : "?");
	return &r->base;
}
