/* Batch loop over a timerfd tick and a signalfd, so signals never interrupt a frame. */
#include "config.h"
#include "app/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "view/canvas.h"
#include "collect/proc.h"
#include "stream/recording.h"
#include "stream/source_replay.h"
#include "out/tui.h"
#include "view/ui.h"
#include "view/view.h"
#include "util/xalloc.h"

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

#define LOOP_MAX_SAMPLE_FDS 256

/* Drain the rings that woke up; a hangup is drained and then no longer polled. */
static void loop_sample_events(struct source *src, const struct pollfd *pfd, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
			source_wake(src, pfd[i].fd, pfd[i].revents & (POLLHUP | POLLERR));
}

/* Wait seconds, or until a signal; returns 1 on a signal, 0 when the time passed. */
static int loop_wait(struct source *src, int tfd, int sfd, double seconds)
{
	struct itimerspec its;
	struct pollfd pfd[2 + LOOP_MAX_SAMPLE_FDS];

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
		int fds[LOOP_MAX_SAMPLE_FDS];
		size_t nf = source_poll_fds(src, fds, LOOP_MAX_SAMPLE_FDS);
		int r;

		for (size_t i = 0; i < nf; i++) {
			pfd[2 + i].fd = fds[i];
			pfd[2 + i].events = POLLIN;
			pfd[2 + i].revents = 0;
		}
		r = poll(pfd, 2 + nf, -1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return 1;
		loop_sample_events(src, pfd + 2, nf);
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
			if (loop_wait(src, tfd, sfd, o->delay))
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

			if (loop_wait(src, tfd, sfd, pace))
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

/* ---- the interactive screen ---- */

struct loop_tui {
	struct source *src;
	struct model *m;
	const struct loop_tui_opts *o;
	struct ui u;
	struct ui_list list;
	struct canvas *canvas;
	struct snapshot snap;
	bool have_frame;
	bool have_pending;	/* replays: the next snapshot, read ahead for its time */
	bool fixed_pace;	/* replays: -d or the d key set the pace, not the recording */
	uint64_t shown_t;	/* time of the last snapshot given to the model */
	char **log;
	size_t nlog, logcap;
	int tfd, sfd;
	int status;
	char sample_err[512];	/* why the drilled process cannot be sampled */
};

static void loop_tui_log(struct loop_tui *t)
{
	size_t n;
	char **m = source_take_messages(t->src, &n);

	for (size_t i = 0; i < n; i++) {
		t->log = xgrow(t->log, &t->logcap, t->nlog + 1, sizeof(*t->log));
		t->log[t->nlog++] = m[i];
	}
	free(m);
}

static void loop_tui_arm(struct loop_tui *t, double seconds, bool periodic)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (seconds > 0) {
		its.it_value.tv_sec = (time_t)seconds;
		its.it_value.tv_nsec = (long)((seconds - floor(seconds)) * 1e9);
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;
		if (periodic)
			its.it_interval = its.it_value;
	} else if (seconds == 0) {
		its.it_value.tv_nsec = 1;	/* at once */
	}
	timerfd_settime(t->tfd, 0, &its, NULL);
}

/* Replays: read the next snapshot ahead and time it; at the end, say so. */
static void loop_tui_replay_next(struct loop_tui *t)
{
	int r = source_read(t->src, &t->snap);

	if (r) {
		t->have_pending = false;
		t->u.replay_ended = true;
		if (r < 0) {
			t->log = xgrow(t->log, &t->logcap, t->nlog + 1, sizeof(*t->log));
			t->log[t->nlog++] = xstrdup(source_replay_error(t->src));
			snprintf(t->u.status, sizeof(t->u.status), "%.150s", source_replay_error(t->src));
		}
		loop_tui_arm(t, -1, false);
		return;
	}
	t->have_pending = true;
	if (t->fixed_pace)
		loop_tui_arm(t, t->u.delay, false);
	else
		loop_tui_arm(t, t->snap.t_ns > t->shown_t ? (double)(t->snap.t_ns - t->shown_t) / 1e9
							  : 0, false);
}

static int loop_tui_take(struct loop_tui *t)
{
	if (t->o->record && recording_write_snapshot(t->o->record, &t->snap)) {
		t->log = xgrow(t->log, &t->logcap, t->nlog + 1, sizeof(*t->log));
		t->log[t->nlog++] = xstrdup("cannot write the recording: stopped recording");
		return -EIO;
	}
	if (model_update(t->m, &t->snap))
		t->have_frame = true;
	t->shown_t = t->snap.t_ns;
	loop_tui_log(t);
	return 0;
}

static void loop_tui_tick(struct loop_tui *t)
{
	uint64_t ticks;

	if (read(t->tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return;
	if (t->u.paused)
		return;
	if (t->src->replay) {
		if (!t->have_pending)
			return;
		loop_tui_take(t);
		loop_tui_replay_next(t);
		return;
	}
	if (source_read(t->src, &t->snap) == 0)
		loop_tui_take(t);
	else
		snprintf(t->u.status, sizeof(t->u.status), "reading the counters failed");
}

static void loop_tui_render(struct loop_tui *t)
{
	struct view_ctx v;
	int w, h;
	double up = -1;
	char buf[64];
	size_t page;
	bool list;

	tui_size(&w, &h);
	if (!t->canvas || t->canvas->w != w || t->canvas->h != h) {
		canvas_free(t->canvas);
		t->canvas = canvas_new(w, h);
	}
	if (!t->src->replay) {
		int fd = open(t->o->proc_root ? t->o->proc_root : "/proc", O_RDONLY | O_DIRECTORY);

		if (fd >= 0) {
			long n = proc_read_file(fd, "uptime", buf, sizeof(buf));

			if (n <= 0 || proc_parse_uptime(buf, (size_t)n, &up))
				up = -1;
			close(fd);
		}
	}
	ui_build_list(&t->u, t->m, &t->list);
	memset(&v, 0, sizeof(v));
	v.m = t->m;
	v.have_frame = t->have_frame;
	v.u = &t->u;
	v.list = &t->list;
	v.mode = t->src->mode;
	v.host = t->src->host;
	v.kernel = t->src->kernel;
	v.uptime = up;
	v.replay = t->src->replay;
	v.log = (const char *const *)t->log;
	v.nlog = t->nlog;
	v.utf8 = tui_utf8();
	v.sample_err = t->sample_err;
	if (t->m->sample_period)
		t->u.sample_default = t->m->sample_period;
	page = view_page(&v, w, h, &list);
	ui_set_page(&t->u, &t->list, page, list);
	view_render(t->canvas, &v);
	tui_draw(t->canvas);
}

/* Sample the drilled process, or stop sampling when the drill-down closes. */
static void loop_tui_sample(struct loop_tui *t)
{
	struct sample_req req = { t->o->sample_kind, t->u.sample_period };
	int pid = t->u.view == UI_VIEW_DRILL ? t->u.drill : 0;
	char err[512];
	int r = source_sample(t->src, pid, &req, err, sizeof(err));

	t->sample_err[0] = '\0';
	if (r == -EOPNOTSUPP)
		return;	/* replays: the recorded samples are all there is */
	if (r) {
		snprintf(t->sample_err, sizeof(t->sample_err), "%s", err);
		t->log = xgrow(t->log, &t->logcap, t->nlog + 1, sizeof(*t->log));
		t->log[t->nlog++] = xstrdup(err);
	}
	loop_tui_log(t);
}

static bool loop_tui_keys(struct loop_tui *t)
{
	int k;

	while ((k = tui_key()) != UI_KEY_NONE) {
		unsigned act;

		ui_build_list(&t->u, t->m, &t->list);
		act = ui_key(&t->u, k, t->m, &t->list);
		if (act & UI_ACT_QUIT)
			return false;
		if (act & UI_ACT_SORT)
			model_sort(t->m, t->u.sort_col, t->u.reverse);
		if (act & UI_ACT_THREADS)
			source_threads(t->src, t->u.view == UI_VIEW_DRILL ? t->u.drill : 0,
				       t->u.threads);
		if (act & UI_ACT_SAMPLE)
			loop_tui_sample(t);
		if (act & UI_ACT_HISTOGRAM) {
			if (t->m->page_shift != t->u.page_shift)
				model_set_page_shift(t->m, t->u.page_shift);
			model_set_halflife(t->m, t->u.halflife);
		}
		if (act & UI_ACT_DELAY) {
			t->fixed_pace = true;
			if (t->src->replay && t->have_pending)
				loop_tui_arm(t, t->u.delay, false);
			else if (!t->src->replay)
				loop_tui_arm(t, t->u.delay, true);
		}
	}
	return true;
}

int loop_tui(struct source *src, struct model *m, const struct loop_tui_opts *o)
{
	struct loop_tui t;
	char err[256];
	sigset_t mask;
	bool run = true;

	memset(&t, 0, sizeof(t));
	t.src = src;
	t.m = m;
	t.o = o;
	ui_init(&t.u, m->sort_col, m->sort_reverse, o->delay >= 0 ? o->delay : 1.0);
	t.fixed_pace = o->delay >= 0;
	t.u.threads = o->threads;
	t.u.cmdline = o->cmdline;
	t.u.page_shift = m->page_shift;
	t.u.halflife = m->halflife;
	t.u.sample_period = o->sample_period;
	if (o->threads)
		source_threads(src, 0, true);
	snapshot_init(&t.snap, src->ev.n);
	if (source_read(src, &t.snap)) {
		fprintf(stderr, "pmctop: %s\n",
			src->replay ? source_replay_error(src) : "reading the counters failed");
		snapshot_release(&t.snap);
		return src->replay ? 2 : 1;
	}
	/* block first: a SIGTERM between taking the terminal and the signalfd would leave it raw */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGWINCH);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	if (tui_init(o->color, err, sizeof(err))) {
		fprintf(stderr, "pmctop: %s\n", err);
		snapshot_release(&t.snap);
		sigprocmask(SIG_UNBLOCK, &mask, NULL);
		return 2;
	}
	tui_install_crash_handlers();
	t.sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	t.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	loop_tui_take(&t);
	if (o->drill) {
		t.u.view = UI_VIEW_DRILL;
		t.u.drill = o->drill;
		source_threads(src, o->drill, t.u.threads);
		loop_tui_sample(&t);
	}
	if (src->replay)
		loop_tui_replay_next(&t);
	else
		loop_tui_arm(&t, t.u.delay, true);
	while (run) {
		struct pollfd pfd[3 + LOOP_MAX_SAMPLE_FDS] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = t.sfd, .events = POLLIN },
			{ .fd = t.tfd, .events = POLLIN },
		};
		int fds[LOOP_MAX_SAMPLE_FDS];
		size_t nf = source_poll_fds(src, fds, LOOP_MAX_SAMPLE_FDS);

		for (size_t i = 0; i < nf; i++) {
			pfd[3 + i].fd = fds[i];
			pfd[3 + i].events = POLLIN;
		}
		loop_tui_render(&t);
		if (poll(pfd, 3 + nf, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		loop_sample_events(src, pfd + 3, nf);
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(t.sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGWINCH)
					tui_resize();
				else
					run = false;
			}
		}
		if (pfd[0].revents & (POLLHUP | POLLERR))
			run = false;	/* the terminal went away */
		if (run && (pfd[0].revents & POLLIN))
			run = loop_tui_keys(&t);
		if (run && (pfd[2].revents & POLLIN))
			loop_tui_tick(&t);
	}
	tui_end();
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	close(t.sfd);
	close(t.tfd);
	canvas_free(t.canvas);
	ui_list_release(&t.list);
	snapshot_release(&t.snap);
	for (size_t i = 0; i < t.nlog; i++)
		free(t.log[i]);
	free(t.log);
	return t.status;
}
