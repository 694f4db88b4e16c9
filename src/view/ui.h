/* Interactive state and key handling, pure: keys in, state and actions out. */
#ifndef PMCTOP_UI_H
#define PMCTOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* Keys other than plain characters; tui.c maps the terminal's codes to these. */
enum ui_key {
	UI_KEY_NONE = -1,
	UI_KEY_ESC = 27,
	UI_KEY_ENTER = '\n',
	UI_KEY_UP = 0x10000,
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
};

enum ui_view {
	UI_VIEW_TABLE,
	UI_VIEW_DRILL, /* one process: its threads */
	UI_VIEW_HELP,
	UI_VIEW_ERRORS,
	UI_VIEW_CGROUPS, /* one row per cgroup */
};

enum ui_prompt {
	UI_PROMPT_NONE,
	UI_PROMPT_SEARCH,
	UI_PROMPT_FILTER,
	UI_PROMPT_USER,
	UI_PROMPT_DELAY,
};

enum ui_drill_mode {
	UI_DRILL_PAGES,	   /* the hot pages of the sampled process */
	UI_DRILL_MAPPINGS, /* samples grouped per mapping */
	UI_DRILL_THREADS,  /* its threads, counted one by one */
};

/* A set of views, for the key table. */
#define UI_IN(view) (1u << (view))
#define UI_IN_LISTS (UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_DRILL) | UI_IN(UI_VIEW_CGROUPS))
#define UI_IN_PAGERS (UI_IN(UI_VIEW_HELP) | UI_IN(UI_VIEW_ERRORS))
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
	UI_DO_CGROUPS,	    /* the cgroup view, or back to the processes */
	UI_DO_CGROUP_DRILL, /* the processes of the selected cgroup */
};

#define UI_BINDING_KEYS 7

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

/* What the loop must do after a key. */
#define UI_ACT_QUIT 0x1
#define UI_ACT_SORT 0x2	      /* re-sort the model with sort_col/reverse */
#define UI_ACT_THREADS 0x4    /* tell the source which threads to count */
#define UI_ACT_DELAY 0x8      /* the delay changed */
#define UI_ACT_SAMPLE 0x10    /* (re)start sampling the drilled pid with sample_period */
#define UI_ACT_HISTOGRAM 0x20 /* page size or half-life changed */

struct ui {
	enum ui_view view, back; /* back: where Esc returns from help/errors */
	int sel_id;		 /* selected row's pid (tid in thread lists) */
	size_t sel;		 /* its index in the visible list */
	size_t top;		 /* first visible list row */
	size_t page;		 /* list rows on screen, from view_page */
	size_t scroll;		 /* first line of help or errors */
	int sort_col;
	bool reverse;
	char filter[64];   /* name or command line contains */
	char cgroup[1024]; /* the table shows this cgroup's processes (from the cgroup view) */
	char user[33];
	char search[64];
	bool show_cpus;
	bool threads; /* H: threads as rows */
	bool cmdline;
	bool paused;
	double delay;
	bool replay_ended;
	int drill; /* pid of the drill-down */
	enum ui_drill_mode drill_mode;
	unsigned long long sample_period;  /* 0: the source's default */
	unsigned long long sample_default; /* the period the source chose */
	unsigned page_shift;		   /* 12 or 21 */
	double halflife;		   /* seconds */
	enum ui_prompt prompt;
	char input[64];
	size_t ninput;
	char status[160]; /* one-line notice, cleared by the next key */
};

/* The rows a view lists, after the interactive filters. */
struct ui_list {
	const struct model_row **v;
	size_t n, cap;
};

void ui_init(struct ui *u, int sort_col, bool reverse, double delay);
/* Build the visible list for the current view from m (pointers into m). */
void ui_build_list(const struct ui *u, const struct model *m, struct ui_list *l);
void ui_list_release(struct ui_list *l);
/* Keep the selection on the same process after rows moved; fix scrolling. */
void ui_sync(struct ui *u, const struct ui_list *l);
/* Take the page size of the layout (0 keeps it); with a list on screen, sync the selection. */
void ui_set_page(struct ui *u, const struct ui_list *l, size_t page, bool list);
/* Apply one key; returns UI_ACT_* flags. l is the list on screen. */
unsigned ui_key(struct ui *u, int key, const struct model *m, const struct ui_list *l);
/* The key table, in footer order; *n gets its length. */
const struct ui_binding *ui_bindings(size_t *n);
/* The binding of key in view; NULL when the key does nothing there. */
const struct ui_binding *ui_binding_find(enum ui_view view, int key);
/* The name of key ("F1", "Space", "q") into buf; false for aliases the help leaves out. */
bool ui_key_name(int key, char *buf, size_t size);
/* The names of b's keys, separated by blanks, into buf: "< > F6 Left Right". */
void ui_binding_keys(const struct ui_binding *b, char *buf, size_t size);
/* Columns that can be sorted by in this mode, in table order; returns how many. */
size_t ui_sortable(const struct model *m, int *out, size_t max);

#endif
