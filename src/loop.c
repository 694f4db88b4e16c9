/* Batch loop over a timerfd tick and a signalfd, so signals never interrupt a frame. */
#include "config.h"
#include "loop.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "recording.h"
#include "source_replay.h"

static void loop_flush_messages(struct source *src, FILE *f)
{
	size_t n;
	char **m = source_take_messages(src, &n);

	for (size_t i = 0; i < n; i++) {
		fprintf(f, "pmctop: %s\n", m[i]);
		free(m[i]);
	}
	free(m);
	fflush(f);
}

/* Consume the pending signal so it is not delivered when unblocked. */
static int loop_take_signal(int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == sizeof(si))
		;
	return 1;
}

/* Wait seconds, or until a signal; returns 1 on a signal, 0 when the time passed. */
static int loop_wait(int tfd, int sfd, double seconds)
{
	struct itimerspec its;
	struct pollfd pfd[2];

	if (seconds <= 0) {
		/* still notice a pending signal between frames */
		pfd[0].fd = sfd;
		pfd[0].events = POLLIN;
		return poll(pfd, 1, 0) > 0 ? loop_take_signal(sfd) : 0;
	}
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)seconds;
	its.it_value.tv_nsec = (long)((seconds - floor(seconds)) * 1e9);
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;
	timerfd_settime(tfd, 0, &its, NULL);
	pfd[0].fd = sfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = tfd;
	pfd[1].events = POLLIN;
	for (;;) {
		int r = poll(pfd, 2, -1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return 1;
		if (pfd[0].revents & POLLIN)
			return loop_take_signal(sfd);
		if (pfd[1].revents & POLLIN) {
			uint64_t ticks;

			if (read(tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
				return 1;
			return 0;
		}
	}
}

static int loop_record(const struct loop_opts *o, const struct snapshot *s)
{
	if (!o->record)
		return 0;
	if (recording_write_snapshot(o->record, s) || fflush(o->record)) {
		fprintf(o->msgs, "pmctop: cannot write the recording '%s': %s\n", o->record_name,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

static int loop_source_error(struct source *src, FILE *f, int r)
{
	if (src->replay)
		fprintf(f, "pmctop: %s\n", source_replay_error(src));
	else
		fprintf(f, "pmctop: reading counters failed: %s\n", strerror(-r));
	return 1;
}

int loop_batch(struct source *src, struct model *m, struct output *out, const struct loop_opts *o)
{
	struct snapshot snap;
	sigset_t mask;
	int sfd, tfd, status = 0;
	long frames = 0;
	uint64_t last_t;
	int r;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (sfd < 0 || tfd < 0) {
		fprintf(o->msgs, "pmctop: cannot create the timer: %s\n", strerror(errno));
		status = 1;
		goto out_close;
	}
	snapshot_init(&snap, src->ev.n);
	r = source_read(src, &snap);
	if (r) {
		status = r < 0 ? loop_source_error(src, o->msgs, r) : 0;
		if (r > 0)
			fprintf(o->msgs, "pmctop: the recording has a single tick: nothing to show\n");
		status = r > 0 ? 1 : status;
		goto out_snap;
	}
	loop_flush_messages(src, o->msgs);
	if (loop_record(o, &snap)) {
		status = 1;
		goto out_snap;
	}
	model_update(m, &snap);
	last_t = snap.t_ns;
	while (o->iterations < 0 || frames < o->iterations) {
		if (!src->replay) {
			if (loop_wait(tfd, sfd, o->delay))
				break;
		}
		r = source_read(src, &snap);
		if (r > 0)
			break;
		if (r < 0) {
			status = loop_source_error(src, o->msgs, r);
			break;
		}
		if (src->replay) {
			double pace = o->delay >= 0 ? o->delay
					  : snap.t_ns > last_t ? (double)(snap.t_ns - last_t) / 1e9
					  : 0;

			if (loop_wait(tfd, sfd, pace))
				break;
		}
		last_t = snap.t_ns;
		if (loop_record(o, &snap)) {
			status = 1;
			break;
		}
		loop_flush_messages(src, o->msgs);
		if (!model_update(m, &snap))
			continue;
		r = output_frame(out, m, src->mode);
		if (r == -EPIPE)
			break;	/* "| head": the reader has what it wanted */
		if (r) {
			fprintf(o->msgs, "pmctop: cannot write the output: %s\n", strerror(-r));
			status = 1;
			break;
		}
		frames++;
	}
out_snap:
	snapshot_release(&snap);
out_close:
	if (sfd >= 0)
		close(sfd);
	if (tfd >= 0)
		close(tfd);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	return status;
}
