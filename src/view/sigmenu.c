/* The signal menu: its signals, its keys, the question before sending, and its drawing. */
#include "config.h"
#include "view/sigmenu.h"

#include <signal.h>
#include <stdio.h>

#include "view/canvas.h"
#include "view/ui.h"

/*
 * The signal menu: the signals a user sends to a process from a monitor, the polite one first.
 * The numbers are this machine's, from <signal.h>.
 */
static const struct ui_signal SIGMENU_SIGNALS[] = {
	{ SIGTERM, "TERM" }, { SIGKILL, "KILL" }, { SIGINT, "INT" },   { SIGHUP, "HUP" },
	{ SIGQUIT, "QUIT" }, { SIGSTOP, "STOP" }, { SIGCONT, "CONT" }, { SIGTSTP, "TSTP" },
	{ SIGUSR1, "USR1" }, { SIGUSR2, "USR2" }, { SIGALRM, "ALRM" }, { SIGWINCH, "WINCH" },
};

#define SIGMENU_N (sizeof(SIGMENU_SIGNALS) / sizeof(SIGMENU_SIGNALS[0]))

const struct ui_signal *sigmenu_signals(size_t *n)
{
	*n = SIGMENU_N;
	return SIGMENU_SIGNALS;
}

const char *sigmenu_signal_name(int num)
{
	for (size_t i = 0; i < SIGMENU_N; i++)
		if (SIGMENU_SIGNALS[i].num == num)
			return SIGMENU_SIGNALS[i].name;
	return NULL;
}

/* The chosen signal: the number typed, else the highlighted entry. */
static int sigmenu_chosen(const struct ui *u)
{
	return u->sig.typed ? u->sig.typed : SIGMENU_SIGNALS[u->sig.sel].num;
}

/* Enter in the signal menu: ask before sending. */
static unsigned sigmenu_ask(struct ui *u, const struct model *m)
{
	int sig = sigmenu_chosen(u);
	const char *name = sigmenu_signal_name(sig);
	char what[48], whom[96];

	if (sig < 1 || sig > SIGRTMAX) {
		u->input.prompt = UI_PROMPT_NONE;
		snprintf(u->status, sizeof(u->status), "no signal %d: give a number from 1 to %d",
			 sig, SIGRTMAX);
		return 0;
	}
	if (name)
		snprintf(what, sizeof(what), "SIG%s (%d)", name, sig);
	else
		snprintf(what, sizeof(what), "signal %d", sig);
	if (u->tags.ntargets == 1) {
		const struct model_ident *w = &u->tags.targets[0];
		const char *comm = "";

		for (size_t i = 0; i < m->nrows; i++)
			if (m->rows[i].id == w->id && m->rows[i].start == w->start)
				comm = m->rows[i].comm;
		for (size_t i = 0; !comm[0] && i < m->nthreads; i++)
			if (m->threads[i].id == w->id && m->threads[i].start == w->start)
				comm = m->threads[i].comm;
		snprintf(whom, sizeof(whom), "pid %d%s%.64s%s", w->id, comm[0] ? " (" : "", comm,
			 comm[0] ? ")" : "");
	} else {
		snprintf(whom, sizeof(whom), "%zu tagged processes", u->tags.ntargets);
	}
	snprintf(u->sig.ask, sizeof(u->sig.ask), "send %s to %s? y: send, any other key: cancel",
		 what, whom);
	u->act_signal = sig;
	u->sig.ask_gone = false;
	u->input.prompt = UI_PROMPT_CONFIRM;
	return 0;
}

/* A key in the signal menu: move, type a number, jump by a letter, Enter, Esc. */
unsigned sigmenu_key(struct ui *u, int key, const struct model *m)
{
	switch (key) {
	case UI_KEY_ESC:
		u->input.prompt = UI_PROMPT_NONE;
		return 0;
	case UI_KEY_ENTER:
	case '\r':
		return sigmenu_ask(u, m);
	case UI_KEY_UP:
		u->sig.typed = 0;
		u->sig.sel = u->sig.sel ? u->sig.sel - 1 : SIGMENU_N - 1;
		return 0;
	case UI_KEY_DOWN:
		u->sig.typed = 0;
		u->sig.sel = (u->sig.sel + 1) % SIGMENU_N;
		return 0;
	case UI_KEY_HOME:
		u->sig.typed = 0;
		u->sig.sel = 0;
		return 0;
	case UI_KEY_END:
		u->sig.typed = 0;
		u->sig.sel = SIGMENU_N - 1;
		return 0;
	case UI_KEY_BACKSPACE:
	case 127:
	case 8:
		u->sig.typed /= 10;
		return 0;
	default:
		break;
	}
	if (key >= '0' && key <= '9') {
		if (u->sig.typed < 100)
			u->sig.typed = u->sig.typed * 10 + (key - '0');
		for (size_t i = 0; i < SIGMENU_N; i++)
			if (SIGMENU_SIGNALS[i].num == u->sig.typed)
				u->sig.sel = i;
		return 0;
	}
	if ((key >= 'a' && key <= 'z') || (key >= 'A' && key <= 'Z')) {
		int up = key & ~0x20;

		/* the next entry whose name starts with the letter, after the highlighted one */
		for (size_t k = 1; k <= SIGMENU_N; k++) {
			size_t i = (u->sig.sel + k) % SIGMENU_N;

			if (SIGMENU_SIGNALS[i].name[0] == up) {
				u->sig.sel = i;
				u->sig.typed = 0;
				break;
			}
		}
	}
	return 0;
}

/* The signal menu over the left of the body, from line y: its entries, the chosen one lit. */
void sigmenu_draw(struct canvas *c, int y, int h, const struct ui *u)
{
	size_t n;
	const struct ui_signal *sg = sigmenu_signals(&n);
	const int w = 18;

	if (h < 2)
		return;
	canvas_fill(c, y, 0, w, ' ', CANVAS_TITLE);
	canvas_put(c, 0, y, "Send signal:", CANVAS_TITLE, w);
	for (size_t i = 0; i < n && (int)i + 1 < h; i++) {
		int row = y + 1 + (int)i;
		bool lit = i == u->sig.sel && (!u->sig.typed || u->sig.typed == sg[i].num);

		canvas_fill(c, row, 0, w, ' ', CANVAS_NORMAL);
		canvas_printf(c, 0, row, CANVAS_NORMAL, w, " %2d %s", sg[i].num, sg[i].name);
		canvas_attr(c, row, 0, w, lit ? CANVAS_SELECTED : CANVAS_NORMAL);
		canvas_put(c, w, row, "|", CANVAS_DIM, 1);
	}
}
