/* The key table: every binding, which dispatch, the help screen and the footer all read. */
#ifndef PMCTOP_VIEW_KEYS_H
#define PMCTOP_VIEW_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Keys other than plain characters; tui.c maps the terminal's codes to these. A plain key is
 * its Unicode code point, so these start above U+10FFFF, the last one: a CJK or emoji character
 * typed is never taken for an arrow or a function key.
 */
enum ui_key {
	UI_KEY_NONE = -1,
	UI_KEY_ESC = 27,
	UI_KEY_ENTER = '\n',
	UI_KEY_UP = 0x110000,
	UI_KEY_DOWN,
	UI_KEY_LEFT,
	UI_KEY_RIGHT,
	UI_KEY_PGUP,
	UI_KEY_PGDN,
	UI_KEY_HOME,
	UI_KEY_END,
	UI_KEY_BACKSPACE,
	UI_KEY_F1,
	UI_KEY_F6,
	UI_KEY_F10,
	UI_KEY_F3,
	UI_KEY_F4,
	UI_KEY_F5,
	UI_KEY_F7,
	UI_KEY_F8,
	UI_KEY_F9,
	UI_KEY_BTAB,  /* Shift-Tab */
	UI_KEY_MOUSE, /* a click; the terminal gives its cell (see ui_click) */
	UI_KEY_F2,
};

#define UI_KEY_TAB '\t'

enum ui_view {
	UI_VIEW_TABLE,
	UI_VIEW_DRILL, /* one process: its threads */
	UI_VIEW_HELP,
	UI_VIEW_ERRORS,
	UI_VIEW_CGROUPS, /* one row per cgroup */
	UI_VIEW_EVENTS,	 /* every event: its group, status and share of time counted */
	UI_VIEW_SETUP,	 /* F2: columns, meters and colours */
};

/* A set of views, for the key table. */
#define UI_IN(view) (1u << (view))
#define UI_IN_LISTS (UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_DRILL) | UI_IN(UI_VIEW_CGROUPS))
#define UI_IN_PAGERS (UI_IN(UI_VIEW_HELP) | UI_IN(UI_VIEW_ERRORS) | UI_IN(UI_VIEW_EVENTS))
#define UI_IN_ALL (UI_IN_LISTS | UI_IN_PAGERS)

/* What a key binding does. */
enum ui_do {
	UI_DO_QUIT,
	UI_DO_BACK,   /* help and log: back to the view before */
	UI_DO_SCROLL, /* help and log: by the key, a line, a page or to the top */
	UI_DO_HELP,
	UI_DO_LOG,
	UI_DO_MOVE,	  /* the selection, by the key: a row, a page, to an end */
	UI_DO_SORT_CYCLE, /* the previous (<, Left) or next column */
	UI_DO_SORT_BY,	  /* the binding's column; again: reverse */
	UI_DO_REVERSE,
	UI_DO_SEARCH,
	UI_DO_FILTER,
	UI_DO_USER,
	UI_DO_DELAY,
	UI_DO_THREADS,
	UI_DO_CMDLINE,
	UI_DO_CPUS,
	UI_DO_PAUSE,
	UI_DO_DRILL, /* open the drill-down of the selected process */
	UI_DO_LEAVE, /* leave the drill-down */
	UI_DO_CLEAR, /* clear the filters */
	UI_DO_DRILL_THREADS,
	UI_DO_DRILL_MAPPINGS,
	UI_DO_PERIOD,	/* + doubles, - halves the sample period */
	UI_DO_HALFLIFE, /* ] doubles, [ halves the half-life */
	UI_DO_PAGE_SIZE,
	UI_DO_CGROUPS,	     /* the cgroup view, or back to the processes */
	UI_DO_CGROUP_DRILL,  /* the processes of the selected cgroup */
	UI_DO_EVENTS,	     /* the events screen */
	UI_DO_STEP,	     /* replays: j the next frame, J the previous one (paused) */
	UI_DO_SEEK,	     /* replays: ':' asks for a time to go to */
	UI_DO_HSCROLL,	     /* Left, Right: scroll the table and its command lines sideways */
	UI_DO_TREE,	     /* processes under their parents */
	UI_DO_FOLLOW,	     /* keep the selection on the selected process */
	UI_DO_TAG,	     /* tag or untag the selected process and move down */
	UI_DO_UNTAG,	     /* untag all */
	UI_DO_SIGNAL,	     /* the signal menu for the selected or tagged processes */
	UI_DO_NICE,	     /* F7 lowers the nice value, F8 raises it */
	UI_DO_NEXT_SCREEN,   /* Tab, Shift-Tab: the next or previous screen of the cycle */
	UI_DO_TABLE,	     /* Tab: back to the process table, a drill-down left open */
	UI_DO_REDRILL,	     /* Tab: back to the drill-down left open */
	UI_DO_KTHREADS,	     /* list kernel threads, or stop */
	UI_DO_PER_USER,	     /* per-user totals instead of processes, or back */
	UI_DO_SETUP,	     /* F2: the setup screen */
	UI_DO_SETUP_MOVE,    /* setup: the highlighted entry, up or down */
	UI_DO_SETUP_SECTION, /* setup: the section to the left or right */
	UI_DO_SETUP_TOGGLE,  /* setup: show or hide the column or meter, choose the colours */
	UI_DO_SETUP_ORDER,   /* setup: move the column up or down the order */
	UI_DO_SETUP_WRITE,   /* setup: write the settings file */
	UI_DO_SETUP_DONE,    /* setup: write the settings file and leave */
	UI_DO_SORT_MENU,     /* F6: the sort menu, on the column sorted by */
};

#define UI_BINDING_KEYS 9

/* One binding of the key table, which drives dispatch, the help screen and the footer. */
struct ui_binding {
	int keys[UI_BINDING_KEYS]; /* the keys, 0-terminated; the help lists them in order */
	unsigned in;		   /* UI_IN() of the views where the keys do this */
	enum ui_do what;
	int col; /* UI_DO_SORT_BY: the column */
	const char *help;
	unsigned footer_in;	/* views whose footer shows it; a subset of in */
	const char *footer_key; /* the footer's short names for the keys: "<>" */
	const char *footer;
};

/* The key table, in footer order; *n gets its length. */
const struct ui_binding *keys_bindings(size_t *n);
/* The binding of key in view; NULL when the key does nothing there. */
const struct ui_binding *keys_find(enum ui_view view, int key);
/* The name of key ("F1", "Space", "q") into buf; false for aliases the help leaves out. */
bool keys_name(int key, char *buf, size_t size);
/* The names of b's keys, separated by blanks, into buf: "< > F6 Left Right". */
void keys_binding_keys(const struct ui_binding *b, char *buf, size_t size);
#endif
