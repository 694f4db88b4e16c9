/* ncursesw output of a canvas and keyboard input; the only file that includes curses. */
#include "config.h"
#include "out/tui.h"

#include <curses.h>
#include <term.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "view/ui.h"

/* Signal handlers must know whether curses owns the terminal: a signal flag. */
static volatile sig_atomic_t tui_active;

static attr_t tui_attrs[CANVAS_ATTR_MAX];
/* Whether the terminal shows colours and NO_COLOR allows them: set once by tui_init. */
static bool tui_color_ok;

/*
 * Each canvas attribute in each scheme: the default colours, those of the light scheme (no
 * yellow or cyan text, which a light background washes out), and the attributes of mono.
 */
static const struct {
	int attr;
	short fg, bg;
	attr_t extra;
	short light_fg, light_bg;
	attr_t light_extra;
	attr_t mono;
} TUI_MAP[] = {
	{ CANVAS_NORMAL, -1, -1, 0, -1, -1, 0, 0 },
	{ CANVAS_HEADER, COLOR_CYAN, -1, A_BOLD, COLOR_BLUE, -1, A_BOLD, A_BOLD },
	{ CANVAS_LABEL, COLOR_CYAN, -1, 0, COLOR_BLUE, -1, 0, 0 },
	{ CANVAS_TITLE, COLOR_BLACK, COLOR_GREEN, 0, COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	{ CANVAS_TITLE_SORT, COLOR_BLACK, COLOR_CYAN, A_BOLD, COLOR_WHITE, COLOR_MAGENTA, A_BOLD,
	  A_REVERSE | A_BOLD },
	{ CANVAS_SELECTED, COLOR_BLACK, COLOR_CYAN, 0, COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	{ CANVAS_DIM, COLOR_BLUE, -1, A_BOLD, COLOR_BLACK, -1, A_DIM, A_DIM },
	{ CANVAS_GOOD, COLOR_GREEN, -1, 0, COLOR_GREEN, -1, 0, 0 },
	{ CANVAS_WARN, COLOR_YELLOW, -1, 0, COLOR_MAGENTA, -1, 0, A_BOLD },
	{ CANVAS_HOT, COLOR_RED, -1, A_BOLD, COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	{ CANVAS_BAR, COLOR_GREEN, -1, 0, COLOR_GREEN, -1, 0, 0 },
	{ CANVAS_KEY, -1, -1, A_BOLD, -1, -1, A_BOLD, A_BOLD },
	{ CANVAS_KEYTEXT, COLOR_BLACK, COLOR_CYAN, 0, COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	{ CANVAS_ERROR, COLOR_RED, -1, A_BOLD, COLOR_RED, -1, A_BOLD, A_BOLD },
	{ CANVAS_TAGGED, COLOR_YELLOW, -1, A_BOLD, COLOR_MAGENTA, -1, A_BOLD,
	  A_BOLD | A_UNDERLINE },
};

void tui_scheme(enum ui_scheme scheme)
{
	bool color = tui_color_ok && scheme != UI_SCHEME_MONO;

	for (size_t i = 0; i < sizeof(TUI_MAP) / sizeof(TUI_MAP[0]); i++) {
		int a = TUI_MAP[i].attr;
		bool light = scheme == UI_SCHEME_LIGHT;

		if (!color) {
			tui_attrs[a] = TUI_MAP[i].mono;
			continue;
		}
		init_pair((short)(a + 1), light ? TUI_MAP[i].light_fg : TUI_MAP[i].fg,
			  light ? TUI_MAP[i].light_bg : TUI_MAP[i].bg);
		tui_attrs[a] =
			COLOR_PAIR(a + 1) | (light ? TUI_MAP[i].light_extra : TUI_MAP[i].extra);
	}
}

static void tui_colors(bool color)
{
	tui_color_ok = color && has_colors();
	if (tui_color_ok) {
		start_color();
		use_default_colors();
	}
	tui_scheme(UI_SCHEME_DEFAULT);
}

/*
 * Whether the terminal type can show the screen: a type terminfo does not know would make
 * newterm fail, and one without cursor addressing (dumb, hardcopy) would take a blank screen
 * forever, as top refuses it. Asked of terminfo alone (setupterm with an error return prints
 * nothing), so a refusal leaves the terminal as it was. 0, or -1 with the way out in err.
 */
static int tui_term_check(const char *term, char *err, size_t errsize)
{
	const char *cup;
	bool addressable;
	int e = 0;

	if (!term || !*term) {
		snprintf(err, errsize,
			 "TERM is not set: set it to the terminal's type (e.g. xterm-256color), or "
			 "use pmctop -b for batch frames");
		return -1;
	}
	if (setupterm(term, STDOUT_FILENO, &e) != OK) {
		snprintf(err, errsize,
			 e < 0 ? "cannot use the terminal '%s': no terminfo database is found; "
				 "install one (ncurses-base), or use pmctop -b for batch frames"
			       : "the terminal '%s' is unknown to terminfo; set TERM to a type it "
				 "knows (e.g. xterm-256color), or use pmctop -b for batch frames",
			 term);
		return -1;
	}
	cup = tigetstr("cup");
	addressable = cup && cup != (const char *)-1;
	del_curterm(cur_term);
	if (!addressable) {
		snprintf(err, errsize,
			 "the terminal '%s' cannot show the screen (no cursor addressing); use a "
			 "terminal that can, or pmctop -b for batch frames",
			 term);
		return -1;
	}
	return 0;
}

int tui_init(bool color, bool mouse, char *err, size_t errsize)
{
	const char *term = getenv("TERM");

	setlocale(LC_ALL, "");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errsize, "the screen needs a terminal: use -b for batch mode");
		return -1;
	}
	if (tui_term_check(term, err, errsize))
		return -1;
	if (!newterm(NULL, stdout, stdin)) {
		snprintf(err, errsize, "cannot use the terminal type '%s': set TERM, or use -b",
			 term);
		return -1;
	}
	tui_active = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	tui_colors(color);
	if (mouse) {
		/* presses at once, not clicks after a wait for the release */
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
		mouseinterval(0);
	}
	return 0;
}

void tui_end(void)
{
	if (!tui_active)
		return;
	tui_active = 0;
	curs_set(1);
	endwin();
	fflush(stdout);
}

bool tui_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && !strcmp(cs, "UTF-8");
}

void tui_size(int *w, int *h)
{
	getmaxyx(stdscr, *h, *w);
}

void tui_resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row)
		resizeterm(ws.ws_row, ws.ws_col);
	clear();
}

/* A mouse event as a key: a press of the first button, or the wheel. */
static int tui_mouse(int *x, int *y)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return UI_KEY_NONE;
	if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
		*x = ev.x;
		*y = ev.y;
		return UI_KEY_MOUSE;
	}
	if (ev.bstate & BUTTON4_PRESSED)
		return UI_KEY_UP;
	if (ev.bstate & BUTTON5_PRESSED)
		return UI_KEY_DOWN;
	return UI_KEY_NONE;
}

int tui_key(int *x, int *y)
{
	wint_t wc;
	int r, k;

	/*
	 * get_wch: a character typed comes whole, as one code point however many bytes it took
	 * (a CJK character is three, an emoji four), and a terminal's key as its KEY_ code.
	 * A mouse event that means nothing here (a release) is skipped, not taken for the end
	 * of input: keys behind it would wait for the next tick
	 */
	while ((r = get_wch(&wc)) == KEY_CODE_YES && wc == KEY_MOUSE) {
		k = tui_mouse(x, y);
		if (k != UI_KEY_NONE)
			return k;
	}
	if (r == ERR)
		return UI_KEY_NONE;
	if (r == OK) {
		if (wc == '\r')
			return UI_KEY_ENTER;
		return wc <= 0x10ffff ? (int)wc : UI_KEY_NONE;
	}
	switch ((int)wc) {
	case KEY_UP:
		return UI_KEY_UP;
	case KEY_DOWN:
		return UI_KEY_DOWN;
	case KEY_LEFT:
		return UI_KEY_LEFT;
	case KEY_RIGHT:
		return UI_KEY_RIGHT;
	case KEY_PPAGE:
		return UI_KEY_PGUP;
	case KEY_NPAGE:
		return UI_KEY_PGDN;
	case KEY_HOME:
		return UI_KEY_HOME;
	case KEY_END:
		return UI_KEY_END;
	case KEY_BACKSPACE:
		return UI_KEY_BACKSPACE;
	case KEY_ENTER:
		return UI_KEY_ENTER;
	case KEY_F(1):
		return UI_KEY_F1;
	case KEY_F(2):
		return UI_KEY_F2;
	case KEY_F(3):
		return UI_KEY_F3;
	case KEY_F(4):
		return UI_KEY_F4;
	case KEY_F(5):
		return UI_KEY_F5;
	case KEY_F(6):
		return UI_KEY_F6;
	case KEY_F(7):
		return UI_KEY_F7;
	case KEY_F(8):
		return UI_KEY_F8;
	case KEY_F(9):
		return UI_KEY_F9;
	case KEY_BTAB:
		return UI_KEY_BTAB;
	case KEY_F(10):
		return UI_KEY_F10;
	default:
		/* KEY_RESIZE (the signalfd tells), and keys pmctop has no use for */
		return UI_KEY_NONE;
	}
}

void tui_draw(const struct canvas *c)
{
	int w, h;
	wchar_t run[512];

	getmaxyx(stdscr, h, w);
	for (int y = 0; y < h; y++) {
		int x = 0;

		move(y, 0);
		while (x < w) {
			const struct canvas_cell *cell = canvas_at(c, x, y);
			int attr = cell ? cell->attr : CANVAS_NORMAL;
			/* the bottom-right cell cannot be written without scrolling */
			int end = y == h - 1 ? w - 1 : w;
			int n = 0, nw = 0;

			/* one attribute change per run of cells that share it */
			while (x + n < end && nw < (int)(sizeof(run) / sizeof(run[0]))) {
				const struct canvas_cell *k = canvas_at(c, x + n, y);
				int a = k ? k->attr : CANVAS_NORMAL;
				bool wide = x + n + 1 < w && canvas_at(c, x + n + 1, y) &&
					    canvas_at(c, x + n + 1, y)->ch == CANVAS_WIDE_TAIL;

				if (a != attr && n)
					break;
				if (k && k->ch == CANVAS_WIDE_TAIL) {
					/* a right half with no left: a blank */
					run[nw++] = L' ';
					n++;
					continue;
				}
				/* a wide character takes its two cells whole, or waits for the next */
				if (wide && x + n + 2 > end)
					break;
				run[nw++] = k && k->ch ? (wchar_t)k->ch : L' ';
				n += wide ? 2 : 1;
			}
			attrset(tui_attrs[attr < CANVAS_ATTR_MAX ? attr : 0]);
			if (nw > 0)
				addnwstr(run, nw);
			if (n == 0) {
				/* the last cell, or a wide character that would end in it */
				if (x < end)
					addch(' ');
				n = 1;
			}
			x += n;
		}
	}
	attrset(A_NORMAL);
	refresh();
}

static void tui_crash(int sig)
{
	if (tui_active) {
		tui_active = 0;
		endwin();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void tui_install_crash_handlers(void)
{
	static const int SIGS[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tui_crash;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(SIGS) / sizeof(SIGS[0]); i++)
		sigaction(SIGS[i], &sa, NULL);
}
