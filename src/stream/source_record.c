/* The recording wrapper: the loop sees one source whether or not its snapshots are being recorded. */
#include "config.h"
#include "stream/source_record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream/recording.h"
#include "util/xalloc.h"

struct record {
	struct source base;
	struct source *inner; /* owned */
	FILE *f;	      /* owned; NULL once closed */
	char *name;
	bool ok; /* no write has failed */
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

static int record_read(struct source *s, struct snapshot *snap)
{
	struct record *r = (struct record *)s;
	int ret = source_read(r->inner, snap);

	record_pass_messages(r);
	if (ret < 0)
		snprintf(s->err, sizeof(s->err), "%s", source_error(r->inner));
	if (ret || !r->f)
		return ret;
	errno = 0;
	if (recording_write_snapshot(r->f, snap) || fflush(r->f) || ferror(r->f))
		record_failed(r, errno);
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
	source_release(&r->base);
	free(r);
}

static const struct source_ops RECORD_OPS = {
	.read = record_read,
	.threads = record_threads,
	.kernel_threads = record_kernel_threads,
	.sample = record_sample,
	.poll_fds = record_poll_fds,
	.wake = record_wake,
	.free = record_free,
};

struct source *source_record_new(struct source *inner, FILE *f, const char *name, char *err,
				 size_t errsize)
{
	struct record *r = xcalloc(1, sizeof(*r));

	source_init(&r->base, &RECORD_OPS);
	r->inner = inner;
	r->f = f;
	r->name = xstrdup(name);
	r->ok = true;
	evlist_copy(&r->base.ev, &inner->ev);
	memcpy(r->base.mode, inner->mode, sizeof(r->base.mode));
	memcpy(r->base.host, inner->host, sizeof(r->base.host));
	memcpy(r->base.kernel, inner->kernel, sizeof(r->base.kernel));
	/* a recording's ticks only go forward: the wrapper offers no seeking */
	r->base.caps = inner->caps & ~SOURCE_CAP_SEEK;
	errno = 0;
	r->base.facts = inner->facts;
	r->base.have_facts = inner->have_facts;
	if (recording_write_header(f, &inner->ev, inner->mode,
				   inner->have_facts ? &inner->facts : NULL, inner->host,
				   inner->kernel) ||
	    fflush(f) || ferror(f)) {
		snprintf(err, errsize, "cannot write the recording '%s': %s", name,
			 strerror(errno ? errno : EIO));
		record_free(&r->base);
		return NULL;
	}
	record_pass_messages(r);
	return &r->base;
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
