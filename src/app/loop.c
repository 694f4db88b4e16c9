/* The batch and screen loops: one thread, one poll over a timerfd tick, a signalfd and the rings. */
#include "config.h"
#include "app/loop.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect/symbols.h"
#include "app/procctl.h"
#include "view/canvas.h"
#include "out/tui.h"
#include "view/ui.h"
#include "view/view.h"
#include "util/selfcost.h"
#include "util/xalloc.h"
#include "util/textsafe.h"

/*
 * The tick machinery both loops share: the stop signals (and SIGWINCH on
 * the screen) are blocked and read through a signalfd, the tick is a
 * timerfd, and one poll() waits on them, the keyboard and the source's
 * sampling rings. Nothing runs in a signal handler.
 */
struct loop_io {
	sigset_t mask;
	int sfd, tfd;
	int keyfd; /* the terminal, or -1 in batch mode */
	struct loop_rings rings;
	struct exporter *ex; /* borrowed; its sockets are polled too; NULL for none */
	int child;	     /* -- CMD: the command's pid, whose end ends the run; 0 for none */
};

/* Signals that end the run; the terminal is given back first. */
static const int LOOP_STOP_SIGNALS[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
};

#define LOOP_EV_TICK 0x1u   /* the timer fired */
#define LOOP_EV_STOP 0x2u   /* a stop signal came */
#define LOOP_EV_WINCH 0x4u  /* the terminal changed size */
#define LOOP_EV_KEY 0x8u    /* the keyboard has input */
#define LOOP_EV_GONE 0x10u  /* the terminal went away */
#define LOOP_EV_ERROR 0x20u /* poll or the timer failed */

size_t loop_rings_collect(struct loop_rings *r, struct source *src, const int *base, size_t nbase)
{
	size_t want = r->cap > nbase ? r->cap - nbase : 0, n;

	/* ask for more than room: a full answer means there may be more */
	for (;;) {
		if (want < 16)
			want = 16;
		if (nbase + want > r->cap) {
			r->cap = nbase + want;
			r->pfd = xrealloc(r->pfd, r->cap * sizeof(*r->pfd));
			r->fds = xrealloc(r->fds, r->cap * sizeof(*r->fds));
		}
		n = source_poll_fds(src, r->fds, want);
		if (n < want)
			break;
		want *= 2;
	}
	for (size_t i = 0; i < nbase; i++)
		r->pfd[i] = (struct pollfd){ .fd = base[i], .events = POLLIN };
	for (size_t i = 0; i < n; i++)
		r->pfd[nbase + i] = (struct pollfd){ .fd = r->fds[i], .events = POLLIN };
	r->base = nbase;
	r->n = n;
	return nbase + n;
}

void loop_rings_wake(struct loop_rings *r, struct source *src)
{
	for (size_t i = r->base; i < r->base + r->n; i++)
		if (r->pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
			source_wake(src, r->pfd[i].fd, r->pfd[i].revents & (POLLHUP | POLLERR));
}

void loop_rings_release(struct loop_rings *r)
{
	free(r->pfd);
	free(r->fds);
	memset(r, 0, sizeof(*r));
}

/*
 * Block the signals first: one arriving between taking the terminal and
 * the signalfd would otherwise leave it raw. 0, or -errno (io is then
 * released).
 */
static int loop_io_open(struct loop_io *io, bool winch, int keyfd, int child)
{
	int err;

	sigemptyset(&io->mask);
	for (size_t i = 0; i < sizeof(LOOP_STOP_SIGNALS) / sizeof(LOOP_STOP_SIGNALS[0]); i++)
		sigaddset(&io->mask, LOOP_STOP_SIGNALS[i]);
	if (winch)
		sigaddset(&io->mask, SIGWINCH);
	/* the caller blocked SIGCHLD before the fork: an early end is pending, not lost */
	if (child)
		sigaddset(&io->mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &io->mask, NULL);
	io->child = child;
	io->keyfd = keyfd;
	memset(&io->rings, 0, sizeof(io->rings));
	io->ex = NULL;
	io->sfd = signalfd(-1, &io->mask, SFD_CLOEXEC | SFD_NONBLOCK);
	io->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (io->sfd >= 0 && io->tfd >= 0)
		return 0;
	err = errno;
	if (io->sfd >= 0)
		close(io->sfd);
	if (io->tfd >= 0)
		close(io->tfd);
	sigprocmask(SIG_UNBLOCK, &io->mask, NULL);
	return -err;
}

static void loop_io_close(struct loop_io *io)
{
	close(io->sfd);
	close(io->tfd);
	loop_rings_release(&io->rings);
	if (io->child)
		sigdelset(&io->mask, SIGCHLD); /* the caller still waits for it */
	sigprocmask(SIG_UNBLOCK, &io->mask, NULL);
}

/* Whether the command has ended; it is left to be reaped (its status and rusage) by the caller. */
static bool loop_child_ended(int child)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)child, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid == child;
}

/* Fire the timer after seconds (0: at once; < 0: never), and every seconds when periodic. */
static void loop_io_arm(struct loop_io *io, double seconds, bool periodic)
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
		its.it_value.tv_nsec = 1;
	}
	timerfd_settime(io->tfd, 0, &its, NULL);
}

/*
 * Wait for the next event (timeout_ms as for poll: -1 for ever, 0 to only
 * look). Rings that woke up are drained on the way; a hung-up ring is
 * drained and then no longer polled. Returns LOOP_EV_* flags, 0 when the
 * timeout passed.
 */
static unsigned loop_io_wait(struct loop_io *io, struct source *src, int timeout_ms)
{
	int own[3] = { io->sfd, io->tfd, io->keyfd };
	size_t total = loop_rings_collect(&io->rings, src, own, io->keyfd >= 0 ? 3 : 2), nx = 0;
	struct pollfd *pfd;
	unsigned ev = 0;
	int r;

	if (io->ex) {
		/* the exporter's clients wake the loop too, and time out on its clock */
		int t = exporter_timeout(io->ex);

		if (io->rings.cap < total + EXPORTER_MAX_FDS) {
			io->rings.cap = total + EXPORTER_MAX_FDS;
			io->rings.pfd =
				xrealloc(io->rings.pfd, io->rings.cap * sizeof(*io->rings.pfd));
			io->rings.fds =
				xrealloc(io->rings.fds, io->rings.cap * sizeof(*io->rings.fds));
		}
		nx = exporter_poll_fds(io->ex, io->rings.pfd + total, EXPORTER_MAX_FDS);
		if (t >= 0 && (timeout_ms < 0 || t < timeout_ms))
			timeout_ms = t;
	}
	pfd = io->rings.pfd;
	do
		r = poll(pfd, total + nx, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return LOOP_EV_ERROR;
	if (io->ex)
		exporter_handle(io->ex, pfd + total, nx);
	loop_rings_wake(&io->rings, src);
	if (pfd[0].revents & POLLIN) {
		struct signalfd_siginfo si;

		while (read(io->sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGWINCH)
				ev |= LOOP_EV_WINCH;
			else if (si.ssi_signo == SIGCHLD)
				; /* looked at below */
			else if (io->child && si.ssi_code == SI_KERNEL)
				; /* the terminal's Ctrl-C or Ctrl-\: its process group has it too */
			else if (io->child)
				/* as perf stat: the command decides; its end ends the run */
				kill(io->child, (int)si.ssi_signo);
			else
				ev |= LOOP_EV_STOP;
		}
	}
	if (io->child && loop_child_ended(io->child))
		ev |= LOOP_EV_STOP;
	if (pfd[1].revents & POLLIN) {
		uint64_t ticks;

		if (read(io->tfd, &ticks, sizeof(ticks)) == sizeof(ticks))
			ev |= LOOP_EV_TICK;
		else if (errno != EAGAIN)
			ev |= LOOP_EV_ERROR;
	}
	if (io->keyfd >= 0) {
		if (pfd[2].revents & (POLLHUP | POLLERR))
			ev |= LOOP_EV_GONE;
		else if (pfd[2].revents & POLLIN)
			ev |= LOOP_EV_KEY;
	}
	return ev;
}

/* Batch: wait seconds; 1 when the run must end (a signal, a failed timer), 0 when they passed. */
static int loop_batch_wait(struct loop_io *io, struct source *src, double seconds)
{
	if (seconds <= 0) /* still notice a signal between frames */
		return loop_io_wait(io, src, 0) & (LOOP_EV_STOP | LOOP_EV_ERROR) ? 1 : 0;
	loop_io_arm(io, seconds, false);
	for (;;) {
		unsigned ev = loop_io_wait(io, src, -1);

		if (ev & (LOOP_EV_STOP | LOOP_EV_ERROR))
			return 1;
		if (ev & LOOP_EV_TICK)
			return 0;
	}
}

/*
 * Batch: the next snapshot, waiting (and still noticing signals) while the
 * stream of a source lags, as a recording read from a pipe can. 0, 1 at the
 * end, -EINTR when a signal ends the run, or -errno.
 */
static int loop_batch_read(struct loop_io *io, struct source *src, struct snapshot *snap)
{
	int r;

	while ((r = source_read(src, snap)) == -EAGAIN)
		if (loop_io_wait(io, src, -1) & (LOOP_EV_STOP | LOOP_EV_ERROR))
			return -EINTR;
	return r;
}

/* The exporter serves the snapshot the model just took. */
static void loop_export(const struct loop_opts *o, const struct model *m)
{
	if (o->ex)
		exporter_update(o->ex, m, o->export_info);
}

/* Exporter: the recording ended; serve its last snapshot until a signal comes. */
static void loop_batch_serve(struct loop_io *io, struct source *src)
{
	while (!(loop_io_wait(io, src, -1) & (LOOP_EV_STOP | LOOP_EV_ERROR)))
		;
}

int loop_batch(struct source *src, struct model *m, struct output *out, const struct loop_opts *o)
{
	bool paced = source_caps(src) & SOURCE_CAP_PACED;
	struct loop_io io;
	struct snapshot snap;
	struct selfcost self = { 0 };
	uint64_t self_t = 0;
	int status = 0;
	long frames = 0;
	uint64_t last_t;
	bool one;
	int r;

	r = loop_io_open(&io, false, -1, o->child);
	if (r) {
		textsafe_fprintf(o->msgs, "pmctop: cannot create the timer: %s\n", strerror(-r));
		return 1;
	}
	io.ex = o->ex;
	snapshot_init(&snap, src->ev.n);
	r = loop_batch_read(&io, src, &snap);
	source_print_messages(src, o->msgs);
	if (r == -EINTR)
		goto out_snap;
	if (r) {
		if (r < 0)
			textsafe_fprintf(o->msgs, "pmctop: %s\n", source_error(src));
		else
			textsafe_fprintf(o->msgs,
					 "pmctop: the recording has no tick: nothing to show\n");
		status = paced ? 2 : 1;
		goto out_snap;
	}
	last_t = snap.t_ns;
	/*
	 * The first frame at once, as top's: /proc's columns now, the counters
	 * from the next. A live run of one frame (-n 1) would print only that
	 * one, with no counts: it takes a short interval first (LOOP_ONE_FRAME_S,
	 * or -d when shorter) and prints the counted frame that ends it.
	 */
	one = !paced && o->iterations == 1;
	if (one)
		model_update(m, &snap);
	for (bool first = !one; o->iterations < 0 || frames < o->iterations; first = false) {
		if (!first) {
			double wait = one ? fmin(o->delay, LOOP_ONE_FRAME_S) : o->delay;

			if (!paced && loop_batch_wait(&io, src, wait))
				break;
			r = loop_batch_read(&io, src, &snap);
			source_print_messages(src, o->msgs);
			if (r > 0 && o->ex)
				loop_batch_serve(&io, src);
			if (r > 0 || r == -EINTR)
				break;
			if (r < 0) {
				textsafe_fprintf(o->msgs, "pmctop: %s\n", source_error(src));
				status = paced ? 2 : 1;
				break;
			}
			if (paced) {
				double pace = o->delay >= 0 ? o->delay
					      : snap.t_ns > last_t
						      ? (double)(snap.t_ns - last_t) / 1e9
						      : 0;

				if (loop_batch_wait(&io, src, pace))
					break;
			}
			last_t = snap.t_ns;
		}
		model_update(m, &snap);
		loop_export(o, m);
		if (out && !paced) {
			struct selfcost prev = self;

			selfcost_read(&self, frames ? &prev : NULL,
				      (double)(snap.t_ns - self_t) / 1e9);
			self_t = snap.t_ns;
			out->self = &self;
		}
		r = out ? output_frame(out, m, src->mode) : 0;
		if (r == -EPIPE)
			break; /* "| head": the reader has what it wanted */
		if (r) {
			textsafe_fprintf(o->msgs, "pmctop: cannot write the output: %s\n",
					 strerror(-r));
			status = 1;
			break;
		}
		frames++;
		/* as perf record -p: sampling a process that exited has nothing more to show */
		if (o->sample_pid && !paced && !snapshot_find_task(&snap, o->sample_pid)) {
			textsafe_fprintf(o->msgs, "pmctop: process %d exited\n", o->sample_pid);
			break;
		}
	}
out_snap:
	if (out)
		out->self = NULL; /* it was ours */
	snapshot_release(&snap);
	loop_io_close(&io);
	return status;
}

/* ---- the interactive screen ---- */

struct loop_tui {
	struct source *src;
	struct model *m;
	const struct loop_tui_opts *o;
	bool paced; /* the source's snapshots carry their own times */
	struct loop_io io;
	struct ui u;
	struct ui_list list;
	struct canvas *canvas;
	struct snapshot snap;
	bool have_frame;
	bool have_pending; /* paced sources: the next snapshot, read ahead for its time */
	bool fixed_pace;   /* paced sources: -d or the d key set the pace, not the snapshots */
	bool starved;	   /* paced sources: the stream lags; read again when it wakes */
	uint64_t shown_t;  /* time of the last snapshot given to the model */
	long read_tick;	   /* paced sources: the index of the snapshot in snap, from 0 */
	long shown_tick;   /* paced sources: the index of the last one given to the model */
	long frames;	   /* frames shown, for -n */
	char **log;
	size_t nlog, logcap;
	int status;
	char sample_err[512]; /* why the drilled process cannot be sampled */
	struct symbols *syms; /* names of the sampled instructions, read from the files mapped */
	struct selfcost self; /* live sources: what pmctop itself costs, at the last frame */
};

/* The view's namer of instruction addresses: functions from the files the process maps. */
static const char *loop_tui_ip_name(void *arg, uint64_t ip, char *buf, size_t size)
{
	struct loop_tui *t = arg;

	return symbols_name(t->syms, t->m->maps, t->m->nmaps, ip, buf, size);
}

static void loop_tui_log_line(struct loop_tui *t, const char *line)
{
	t->log = xgrow(t->log, &t->logcap, t->nlog + 1, sizeof(*t->log));
	t->log[t->nlog++] = xstrdup(line);
}

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

/* Paced sources: wake when the snapshot read ahead is due (by -d or d, else by its time). */
static void loop_tui_arm(struct loop_tui *t)
{
	if (t->fixed_pace)
		loop_io_arm(&t->io, t->u.delay, false);
	else
		loop_io_arm(&t->io,
			    t->snap.t_ns > t->shown_t ? (double)(t->snap.t_ns - t->shown_t) / 1e9
						      : 0,
			    false);
}

/* Paced sources: read the next snapshot ahead and time it; at the end, say so. */
static void loop_tui_next(struct loop_tui *t)
{
	int r = source_read(t->src, &t->snap);

	loop_tui_log(t);
	t->starved = r == -EAGAIN;
	if (t->starved) {
		t->have_pending = false;
		loop_io_arm(&t->io, -1, false);
		return;
	}
	if (r) {
		t->have_pending = false;
		t->u.replay_ended = true;
		if (r < 0) {
			loop_tui_log_line(t, source_error(t->src));
			snprintf(t->u.status, sizeof(t->u.status), "%.150s", source_error(t->src));
		}
		loop_io_arm(&t->io, -1, false);
		return;
	}
	t->have_pending = true;
	t->read_tick++;
	loop_tui_arm(t);
}

static void loop_tui_sample(struct loop_tui *t);

static void loop_tui_take(struct loop_tui *t)
{
	/* the first snapshot is a frame too: /proc's columns at once, the counters next */
	model_update(t->m, &t->snap);
	/* tags, a drill-down and a signal question follow a process, never its pid's next owner */
	if (t->u.live && (ui_prune(&t->u, t->m) & UI_ACT_SAMPLE)) {
		source_threads(t->src, 0, t->u.threads);
		loop_tui_sample(t);
	}
	if (!t->paced) {
		struct selfcost prev = t->self;

		selfcost_read(&t->self, t->frames ? &prev : NULL,
			      (double)(t->snap.t_ns - t->shown_t) / 1e9);
	}
	t->have_frame = true;
	t->frames++;
	t->shown_t = t->snap.t_ns;
	t->shown_tick = t->read_tick;
	loop_tui_log(t);
}

static void loop_tui_tick(struct loop_tui *t)
{
	int r;

	if (t->u.paused)
		return;
	if (t->paced) {
		if (!t->have_pending)
			return;
		loop_tui_take(t);
		loop_tui_next(t);
		return;
	}
	r = source_read(t->src, &t->snap);
	if (r == 0) {
		loop_tui_take(t);
		return;
	}
	loop_tui_log(t);
	snprintf(t->u.status, sizeof(t->u.status), "%.150s", source_error(t->src));
}

static void loop_tui_render(struct loop_tui *t)
{
	struct view_ctx v;
	int w, h;
	size_t page;
	bool list;

	tui_size(&w, &h);
	if (!t->canvas || t->canvas->w != w || t->canvas->h != h) {
		canvas_free(t->canvas);
		t->canvas = canvas_new(w, h);
	}
	t->canvas->ascii = !tui_utf8();
	list_build(&t->u, t->m, &t->list);
	memset(&v, 0, sizeof(v));
	v.m = t->m;
	v.have_frame = t->have_frame;
	v.u = &t->u;
	v.list = &t->list;
	v.mode = t->src->mode;
	v.host = t->m->host[0] ? t->m->host : t->src->host;
	v.kernel = t->m->kernel[0] ? t->m->kernel : t->src->kernel;
	v.uptime = t->m->uptime;
	v.replay = t->paced;
	v.self = t->paced ? NULL : &t->self;
	v.log = (const char *const *)t->log;
	v.nlog = t->nlog;
	v.utf8 = tui_utf8();
	v.sample_err = t->sample_err;
	v.facts = t->src->have_facts ? &t->src->facts : NULL;
	v.settings_path = t->o->rc_path;
	if (t->m->sample_pid) {
		char root[64] = "";

		/* live: the very files mapped, else as the process sees them, if pmctop may look */
		if (!t->paced)
			snprintf(root, sizeof(root), "/proc/%d/root", t->m->sample_pid);
		symbols_set_root(t->syms, root, t->paced ? 0 : t->m->sample_pid);
		/* a big file is read a slice per frame: no frame waits for all of it */
		symbols_frame(t->syms);
		v.ip_name = loop_tui_ip_name;
		v.ip_arg = t;
		v.ip_local = t->paced;
	}
	if (t->m->sample_period)
		t->u.drill.sample_default = t->m->sample_period;
	page = view_page(&v, w, h, &list);
	list_set_screen(&t->u, w, view_list_y(&v, w, h));
	list_set_page(&t->u, &t->list, page, list);
	view_render(t->canvas, &v);
	tui_draw(t->canvas);
}

/* Sample the drilled process, or stop sampling when the drill-down closes. */
static void loop_tui_sample(struct loop_tui *t)
{
	struct sample_req req = { t->o->sample_kind, t->u.drill.sample_period };
	int pid = t->u.view == UI_VIEW_DRILL ? t->u.drill.pid : 0;
	char err[512];
	int r;

	t->sample_err[0] = '\0';
	if (!(source_caps(t->src) & SOURCE_CAP_SAMPLE))
		return; /* recordings: the recorded samples are all there is */
	r = source_sample(t->src, pid, &req, err, sizeof(err));
	if (r) {
		snprintf(t->sample_err, sizeof(t->sample_err), "%s", err);
		loop_tui_log_line(t, err);
	}
	loop_tui_log(t);
}

/*
 * Replays: show frame k (the deltas of ticks k - 1 and k) after a jump. The
 * model forgets what it had, so no delta spans the jump; then reading goes
 * on from k as before.
 */
static void loop_tui_goto(struct loop_tui *t, size_t k)
{
	int r = source_seek(t->src, k - 1);

	if (r) {
		snprintf(t->u.status, sizeof(t->u.status), "%.150s",
			 r == -ERANGE ? "the recording has no such frame" : source_error(t->src));
		return;
	}
	model_restart(t->m);
	t->have_frame = false;
	t->have_pending = false;
	t->u.replay_ended = false;
	t->read_tick = (long)k - 2;
	for (size_t i = k - 1; i <= k; i++) {
		r = source_read(t->src, &t->snap);
		if (r) {
			/* the stream changed under us (a file cut short): say so as at its end */
			t->u.replay_ended = true;
			if (r < 0)
				snprintf(t->u.status, sizeof(t->u.status), "%.150s",
					 source_error(t->src));
			loop_tui_log(t);
			return;
		}
		t->read_tick++;
		loop_tui_take(t);
	}
	loop_tui_next(t);
}

/* Replays: j shows the next frame, J the previous one (seekable files only). */
static void loop_tui_step(struct loop_tui *t)
{
	if (!t->paced) {
		snprintf(t->u.status, sizeof(t->u.status),
			 "stepping and going to a time work on replays (--replay FILE)");
		return;
	}
	if (t->u.step > 0) {
		if (t->have_pending) {
			loop_tui_take(t);
			loop_tui_next(t);
		} else {
			snprintf(t->u.status, sizeof(t->u.status), "%s",
				 t->starved ? "the recording has not caught up yet"
					    : "this is the last frame of the recording");
		}
		return;
	}
	if (!(source_caps(t->src) & SOURCE_CAP_SEEK)) {
		snprintf(t->u.status, sizeof(t->u.status),
			 "this recording comes from a pipe: it can only go forward (j)");
		return;
	}
	if (t->shown_tick < 2) {
		snprintf(t->u.status, sizeof(t->u.status), "this is the first frame");
		return;
	}
	loop_tui_goto(t, (size_t)t->shown_tick - 1);
}

/*
 * Replays: go to the first frame recorded at or after the time T asked for:
 * seconds from the first tick, or a time of day of the recording (on the
 * day of its first tick, or the next when earlier than that).
 */
static void loop_tui_seek(struct loop_tui *t)
{
	uint64_t t0, tn;
	double w0, wn, want;
	size_t k;
	int r;

	if (!t->paced) {
		loop_tui_step(t); /* says what stepping needs */
		return;
	}
	if (!(source_caps(t->src) & SOURCE_CAP_SEEK)) {
		snprintf(t->u.status, sizeof(t->u.status),
			 "this recording comes from a pipe: it can only go forward (j)");
		return;
	}
	if (source_tick_time(t->src, 0, &t0, &w0))
		return;
	if (t->u.seek_rel) {
		want = t->u.seek_s;
	} else {
		time_t day = (time_t)w0;
		struct tm tm;

		if (!localtime_r(&day, &tm))
			return;
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		want = (double)mktime(&tm) + t->u.seek_s;
		if (want < floor(w0))
			want += 86400;
	}
	for (k = 0; (r = source_tick_time(t->src, k, &tn, &wn)) == 0; k++)
		if (t->u.seek_rel ? (double)(tn - t0) / 1e9 >= want : wn >= want)
			break;
	if (r) {
		snprintf(t->u.status, sizeof(t->u.status),
			 "the recording ends before that time (%zu ticks, %.0f s)", k,
			 k ? (double)(tn - t0) / 1e9 : 0.0);
		return;
	}
	loop_tui_goto(t, k ? k : 1);
}

/* What the user asked to be done to processes: here, in the app, never in the model. */
static void loop_tui_act(struct loop_tui *t, unsigned act)
{
	struct ui *u = &t->u;
	char msg[sizeof(u->status)];
	int r;

	if (act & UI_ACT_SIGNAL)
		r = procctl_signal(NULL, u->tags.targets, u->tags.ntargets, u->act_signal, msg,
				   sizeof(msg));
	else
		r = procctl_renice(NULL, u->tags.targets, u->tags.ntargets, u->act_nice,
				   u->tags.target_threads, msg, sizeof(msg));
	snprintf(u->status, sizeof(u->status), "%s", msg);
	/* failures stay in the log after the status line is gone */
	if (r)
		loop_tui_log_line(t, msg);
}

/* w or F10 in the setup: the screen's settings into the file, and how it went on the status line. */
static void loop_tui_write(struct loop_tui *t)
{
	struct ui *u = &t->u;
	struct rcfile rc;
	char msg[sizeof(u->status)];

	if (!t->o->rc_path) {
		snprintf(
			u->status, sizeof(u->status),
			"no settings file to write: pmctop runs with --no-config, or without HOME");
		return;
	}
	rcfile_init(&rc);
	rc.foreign = t->o->rc && t->o->rc->foreign;
	rc.cols = u->setup.cols;
	rc.show_cpus = u->show_cpus;
	rc.meters_off = u->setup.meters_off;
	rc.scheme = u->setup.scheme;
	/* an -e event's column is this run's only: it is not kept */
	if (u->sort_col < COL_MAX)
		snprintf(rc.sort, sizeof(rc.sort), "%s", columns_get(u->sort_col)->key);
	rc.reverse = u->reverse;
	/* a replay's pace is not a live delay (-d 0 is valid only there): keep the file's */
	if (!t->paced && u->delay >= 0.01)
		rc.delay = u->delay;
	else if (t->o->rc && t->o->rc->delay_set)
		rc.delay = t->o->rc->delay;
	if (rcfile_save(&rc, t->o->rc_path, msg, sizeof(msg)))
		loop_tui_log_line(t, msg);
	snprintf(u->status, sizeof(u->status), "%s", msg);
}

static bool loop_tui_keys(struct loop_tui *t)
{
	int k, x = 0, y = 0;

	while ((k = tui_key(&x, &y)) != UI_KEY_NONE) {
		unsigned act;

		bool was_paused = t->u.paused;

		list_build(&t->u, t->m, &t->list);
		if (k == UI_KEY_MOUSE)
			act = ui_click(&t->u, x, y, t->m, &t->list);
		else
			act = ui_key(&t->u, k, t->m, &t->list);
		if (act & UI_ACT_QUIT)
			return false;
		if (act & UI_ACT_STEP)
			loop_tui_step(t);
		if (act & UI_ACT_SEEK)
			loop_tui_seek(t);
		/* a tick that came while paused was let go: the next one is due from now */
		if (was_paused && !t->u.paused && t->paced && t->have_pending)
			loop_tui_arm(t);
		if (act & (UI_ACT_SIGNAL | UI_ACT_NICE))
			loop_tui_act(t, act);
		if (act & UI_ACT_SORT)
			model_sort(t->m, t->u.sort_col, t->u.reverse);
		if (act & UI_ACT_COLUMNS)
			t->m->cols = t->u.setup.cols;
		/* a column shown or sorted by that costs a file per process: read from now on */
		if (act & (UI_ACT_SORT | UI_ACT_COLUMNS))
			source_extras(t->src, model_extras(t->m));
		if (act & UI_ACT_SCHEME)
			tui_scheme(t->u.setup.scheme);
		if (act & UI_ACT_WRITE)
			loop_tui_write(t);
		if (act & UI_ACT_THREADS)
			source_threads(t->src, t->u.view == UI_VIEW_DRILL ? t->u.drill.pid : 0,
				       t->u.threads);
		if (act & UI_ACT_SAMPLE)
			loop_tui_sample(t);
		if (act & UI_ACT_KTHREADS) {
			/* a live source lists them from the next tick; the list shows them at once */
			source_kernel_threads(t->src, t->u.kthreads);
		}
		if (act & UI_ACT_HISTOGRAM) {
			if (t->m->page_shift != t->u.drill.page_shift)
				model_set_page_shift(t->m, t->u.drill.page_shift);
			model_set_halflife(t->m, t->u.drill.halflife);
		}
		if (act & UI_ACT_DELAY) {
			t->fixed_pace = true;
			if (t->paced && t->have_pending)
				loop_io_arm(&t->io, t->u.delay, false);
			else if (!t->paced)
				loop_io_arm(&t->io, t->u.delay, true);
		}
	}
	return true;
}

int loop_tui(struct source *src, struct model *m, const struct loop_tui_opts *o)
{
	struct loop_tui t;
	char err[256];
	bool run = true;
	int r;

	memset(&t, 0, sizeof(t));
	t.src = src;
	t.m = m;
	t.o = o;
	t.paced = source_caps(src) & SOURCE_CAP_PACED;
	ui_init(&t.u, m->sort_col, m->sort_reverse, o->delay >= 0 ? o->delay : 1.0);
	t.fixed_pace = o->delay >= 0;
	t.u.threads = o->threads;
	t.u.cmdline = o->cmdline;
	t.u.kthreads = o->kernel_threads;
	/* the model keeps what the source gives; the screen's list filters them (K) */
	m->filter.kthreads = true;
	t.u.per_user = o->per_user;
	t.u.drill.page_shift = m->page_shift;
	t.u.drill.halflife = m->halflife;
	t.u.drill.sample_period = o->sample_period;
	t.u.live = source_caps(src) & SOURCE_CAP_LIVE;
	t.u.setup.cols = m->cols;
	if (o->rc) {
		t.u.show_cpus = o->rc->show_cpus;
		t.u.setup.meters_off = o->rc->meters_off;
		t.u.setup.scheme = o->rc->scheme;
	}
	if (o->threads)
		source_threads(src, 0, true);
	snapshot_init(&t.snap, src->ev.n);
	t.read_tick = t.shown_tick = -1;
	if (source_read(src, &t.snap)) {
		textsafe_fprintf(stderr, "pmctop: %s\n",
				 source_error(src)[0]
					 ? source_error(src)
					 : "the recording has no tick: nothing to show");
		snapshot_release(&t.snap);
		return t.paced ? 2 : 1;
	}
	r = loop_io_open(&t.io, true, STDIN_FILENO, o->child);
	if (r) {
		textsafe_fprintf(stderr, "pmctop: cannot create the timer: %s\n", strerror(-r));
		snapshot_release(&t.snap);
		return 1;
	}
	if (tui_init(o->color, o->mouse, err, sizeof(err))) {
		textsafe_fprintf(stderr, "pmctop: %s\n", err);
		snapshot_release(&t.snap);
		loop_io_close(&t.io);
		return 2;
	}
	tui_install_crash_handlers();
	tui_scheme(t.u.setup.scheme);
	/* what was wrong with the settings file: on the first screen, and in the log */
	if (o->rc_msg && o->rc_msg[0]) {
		loop_tui_log_line(&t, o->rc_msg);
		snprintf(t.u.status, sizeof(t.u.status), "%.*s", (int)sizeof(t.u.status) - 1,
			 o->rc_msg);
	}
	t.syms = symbols_new("");
	t.read_tick = 0;
	loop_tui_take(&t);
	if (o->cgroups)
		t.u.view = UI_VIEW_CGROUPS;
	if (o->drill) {
		t.u.view = UI_VIEW_DRILL;
		t.u.drill.pid = o->drill;
		source_threads(src, o->drill, t.u.threads);
		loop_tui_sample(&t);
	}
	if (t.paced)
		loop_tui_next(&t);
	else
		loop_io_arm(&t.io, t.u.delay, true);
	while (run) {
		unsigned ev;

		loop_tui_render(&t);
		/* -n N: the Nth frame has been drawn; leave as top does */
		if (o->iterations > 0 && t.frames >= o->iterations)
			break;
		ev = loop_io_wait(&t.io, src, -1);
		if (ev & LOOP_EV_WINCH)
			tui_resize();
		if (ev & (LOOP_EV_STOP | LOOP_EV_GONE | LOOP_EV_ERROR))
			run = false;
		if (run && (ev & LOOP_EV_KEY))
			run = loop_tui_keys(&t);
		if (run && (ev & LOOP_EV_TICK))
			loop_tui_tick(&t);
		if (run && t.starved)
			loop_tui_next(&t);
	}
	tui_end();
	loop_io_close(&t.io);
	canvas_free(t.canvas);
	symbols_free(t.syms);
	list_release(&t.list);
	snapshot_release(&t.snap);
	for (size_t i = 0; i < t.nlog; i++)
		free(t.log[i]);
	free(t.log);
	return t.status;
}
