/* The recording wrapper: the loop sees one source whether or not its snapshots are being recorded. */
#include "config.h"
#include "stream/source_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "stream/recording.h"
#include "util/safefile.h"
#include "util/xalloc.h"

struct record {
	struct source base;
	struct source *inner; /* owned */
	FILE *f;	      /* owned; NULL once closed */
	char *name;
	int dirfd;  /* owned; the directory the file is in, for rotation (-1: none) */
	char *leaf; /* the file's name in dirfd */
	bool ok;    /* no write has failed */
	/* the bound: past it, name becomes name.1 and a new name starts (0: none) */
	unsigned long long size_max;
	bool fresh; /* the file has no snapshot yet: the next one carries the mappings */
	/* the last mappings of the sampled process, for a new file's first snapshot */
	int maps_pid;
	size_t nmaps, mcap;
	struct mem_map *maps;
};

/* Messages of the inner source reach the caller through the wrapper. */
static void record_pass_messages(struct record *r)
{
	source_move_messages(&r->base, r->inner);
}

static void record_failed(struct record *r, int err)
{
	r->ok = false;
	source_message(&r->base,
		       "cannot write the recording '%s': %s; recording stopped, "
		       "the frames go on",
		       r->name, strerror(err ? err : EIO));
	fclose(r->f);
	r->f = NULL;
}

/* Write the header of r->f: what the wrapped source counts, as a replay needs it first. */
static int record_header(struct record *r)
{
	errno = 0;
	if (recording_write_header(r->f, &r->base.ev, r->base.mode,
				   r->base.have_facts ? &r->base.facts : NULL, r->base.host,
				   r->base.kernel) ||
	    fflush(r->f) || ferror(r->f))
		return -(errno ? errno : EIO);
	return 0;
}

/*
 * Past the bound: the file becomes name.1 (the one before is gone) and a new file starts
 * under name with the header, so that each replays alone. Through the directory the file
 * was opened in, never by path: what the path names now (a link, another directory) plays
 * no part. 0, or -errno after a message.
 */
static int record_rotate(struct record *r)
{
	char why[512];
	int fd, ret = 0;

	errno = 0;
	if (fflush(r->f) || ferror(r->f)) {
		ret = -(errno ? errno : EIO);
		snprintf(why, sizeof(why), "%s", strerror(-ret));
	} else if (r->dirfd < 0) {
		ret = -EBADF;
		snprintf(why, sizeof(why), "it was not opened by name");
	} else if ((fd = safefile_rotate(r->dirfd, r->leaf, fileno(r->f), why, sizeof(why))) < 0) {
		ret = fd;
	} else {
		errno = 0;
		ret = fclose(r->f) ? -(errno ? errno : EIO) : 0;
		r->f = fdopen(fd, "w");
		if (ret) {
			snprintf(why, sizeof(why), "%s", strerror(-ret));
		} else if (!r->f) {
			ret = -errno;
			snprintf(why, sizeof(why), "%s", strerror(-ret));
		} else if ((ret = record_header(r))) {
			snprintf(why, sizeof(why), "%s", strerror(-ret));
		}
		if (!r->f)
			close(fd);
	}
	if (ret) {
		r->ok = false;
		source_message(&r->base,
			       "cannot start a new recording '%s' past its bound of %llu bytes: "
			       "%s; recording stopped, the frames go on",
			       r->name, r->size_max, why);
		if (r->f)
			fclose(r->f);
		r->f = NULL;
		return ret;
	}
	r->fresh = true;
	return 0;
}

/* Keep the mappings the snapshot carries; a new file's first snapshot gets them back. */
static int record_snapshot(struct record *r, const struct snapshot *snap)
{
	struct snapshot with;

	if (snap->smp.maps_changed) {
		r->maps = xgrow(r->maps, &r->mcap, snap->smp.nmaps, sizeof(*r->maps));
		if (snap->smp.nmaps)
			memcpy(r->maps, snap->smp.maps, snap->smp.nmaps * sizeof(*r->maps));
		r->nmaps = snap->smp.nmaps;
		r->maps_pid = snap->smp.pid;
	}
	if (!r->fresh || snap->smp.maps_changed || !snap->smp.pid || snap->smp.pid != r->maps_pid ||
	    !r->nmaps)
		return recording_write_snapshot(r->f, snap);
	/* a copy that only borrows: the maps are r's, the rest the snapshot's */
	with = *snap;
	with.smp.maps = r->maps;
	with.smp.nmaps = r->nmaps;
	with.smp.maps_changed = true;
	return recording_write_snapshot(r->f, &with);
}

static int record_read(struct source *s, struct snapshot *snap)
{
	struct record *r = (struct record *)s;
	int ret = source_read(r->inner, snap);
	off_t at;

	record_pass_messages(r);
	if (ret < 0)
		snprintf(s->err, sizeof(s->err), "%s", source_error(r->inner));
	if (ret || !r->f)
		return ret;
	/* rotated before a snapshot, not after: the newest file never holds a header alone */
	if (r->size_max && !r->fresh && (at = ftello(r->f)) >= 0 &&
	    (unsigned long long)at >= r->size_max && record_rotate(r))
		return 0;
	errno = 0;
	if (record_snapshot(r, snap) || fflush(r->f) || ferror(r->f))
		record_failed(r, errno);
	r->fresh = false;
	return 0;
}

static void record_threads(struct source *s, int pid, bool all)
{
	struct record *r = (struct record *)s;

	source_threads(r->inner, pid, all);
	record_pass_messages(r);
}

static void record_kernel_threads(struct source *s, bool on)
{
	struct record *r = (struct record *)s;

	source_kernel_threads(r->inner, on);
	record_pass_messages(r);
}

/* A recording keeps every fact a frame can show: whatever the screen shows now, replay may ask. */
static void record_extras(struct source *s, unsigned extras)
{
	(void)extras;
	source_extras(((struct record *)s)->inner, SOURCE_EXTRA_SHR);
}

static int record_sample(struct source *s, int pid, const struct sample_req *req, char *err,
			 size_t errsize)
{
	struct record *r = (struct record *)s;
	int ret = source_sample(r->inner, pid, req, err, errsize);

	record_pass_messages(r);
	return ret;
}

static size_t record_poll_fds(struct source *s, int *fds, size_t max)
{
	return source_poll_fds(((struct record *)s)->inner, fds, max);
}

static void record_wake(struct source *s, int fd, bool hup)
{
	source_wake(((struct record *)s)->inner, fd, hup);
}

static void record_free(struct source *s)
{
	struct record *r = (struct record *)s;

	if (r->f)
		fclose(r->f);
	source_free(r->inner);
	free(r->name);
	if (r->dirfd >= 0)
		close(r->dirfd);
	free(r->leaf);
	free(r->maps);
	source_release(&r->base);
	free(r);
}

static const struct source_ops RECORD_OPS = {
	.read = record_read,
	.threads = record_threads,
	.kernel_threads = record_kernel_threads,
	.extras = record_extras,
	.sample = record_sample,
	.poll_fds = record_poll_fds,
	.wake = record_wake,
	.free = record_free,
};

struct source *source_record_new(struct source *inner, FILE *f, const char *name, char *err,
				 size_t errsize)
{
	struct record *r = xcalloc(1, sizeof(*r));
	int ret;

	source_init(&r->base, &RECORD_OPS);
	r->inner = inner;
	r->f = f;
	r->name = xstrdup(name);
	r->dirfd = -1;
	r->ok = true;
	evlist_copy(&r->base.ev, &inner->ev);
	memcpy(r->base.mode, inner->mode, sizeof(r->base.mode));
	memcpy(r->base.host, inner->host, sizeof(r->base.host));
	memcpy(r->base.kernel, inner->kernel, sizeof(r->base.kernel));
	/* a recording's ticks only go forward: the wrapper offers no seeking */
	r->base.caps = inner->caps & ~SOURCE_CAP_SEEK;
	r->base.facts = inner->facts;
	r->base.have_facts = inner->have_facts;
	r->fresh = true;
	ret = record_header(r);
	if (ret) {
		snprintf(err, errsize, "cannot write the recording '%s': %s", name, strerror(-ret));
		record_free(&r->base);
		return NULL;
	}
	source_extras(inner, SOURCE_EXTRA_SHR);
	record_pass_messages(r);
	return &r->base;
}

void source_record_bound(struct source *s, unsigned long long size_max, int dirfd, const char *leaf)
{
	struct record *r = (struct record *)s;

	r->size_max = size_max;
	if (r->dirfd >= 0)
		close(r->dirfd);
	free(r->leaf);
	r->dirfd = dirfd;
	r->leaf = xstrdup(leaf);
}

bool source_record_ok(const struct source *s)
{
	return ((const struct record *)s)->ok;
}

int source_record_close(struct source *s)
{
	struct record *r = (struct record *)s;
	int ret = 0;

	if (!r->f)
		return r->ok ? 0 : -EIO;
	errno = 0;
	if (fclose(r->f)) {
		ret = -(errno ? errno : EIO);
		r->ok = false;
		source_message(&r->base, "cannot write the recording '%s': %s", r->name,
			       strerror(-ret));
	}
	r->f = NULL;
	return ret;
}
