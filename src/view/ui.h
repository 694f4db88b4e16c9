/* Interactive state and key handling, pure: keys in, state and actions out. */
#ifndef PMCTOP_UI_H
#define PMCTOP_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "view/prompt.h"

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

/* The parts of the header the setup screen shows or hides (the CPU meters are show_cpus). */
enum ui_meter {
	UI_METER_CPUS,	 /* the per-core meters (also the key 1) */
	UI_METER_UPTIME, /* "up 1 day 02:03" */
	UI_METER_LOAD,	 /* the load averages */
	UI_METER_SELF,	 /* pmctop's own cost */
	UI_METER_MEMORY, /* top's "MiB Mem" and "MiB Swap" lines */
	UI_METER_MAX
};

/* Colour schemes; out/tui.c maps each to the terminal's attributes. */
enum ui_scheme {
	UI_SCHEME_DEFAULT,
	UI_SCHEME_MONO,	 /* attributes only, as NO_COLOR gives */
	UI_SCHEME_LIGHT, /* for terminals with a light background */
	UI_SCHEME_MAX
};

/* The sections of the setup screen, left to right. */
enum ui_setup_section { UI_SETUP_COLUMNS, UI_SETUP_METERS, UI_SETUP_COLOURS, UI_SETUP_MAX };

enum ui_prompt {
	UI_PROMPT_NONE,
	UI_PROMPT_SEARCH,
	UI_PROMPT_FILTER,
	UI_PROMPT_USER, /* u: the users menu: Up/Down, Enter shows the entry's processes, Esc */
	UI_PROMPT_DELAY,
	UI_PROMPT_TIME,	   /* ':': the time of a replay to go to */
	UI_PROMPT_SIGNAL,  /* the signal menu: Up/Down, a number or a letter, Enter */
	UI_PROMPT_CONFIRM, /* y sends the chosen signal; any other key cancels */
	UI_PROMPT_SORT,	   /* F6: the sort menu: Up/Down, Enter sorts by the entry, Esc */
};

enum ui_drill_mode {
	UI_DRILL_PAGES,	   /* the hot pages of the sampled process */
	UI_DRILL_MAPPINGS, /* samples grouped per mapping */
	UI_DRILL_THREADS,  /* its threads, counted one by one */
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

/* What the loop must do after a key. */
#define UI_ACT_QUIT 0x1
#define UI_ACT_SORT 0x2	      /* re-sort the model with sort_col/reverse */
#define UI_ACT_THREADS 0x4    /* tell the source which threads to count */
#define UI_ACT_DELAY 0x8      /* the delay changed */
#define UI_ACT_SAMPLE 0x10    /* (re)start sampling the drilled pid with sample_period */
#define UI_ACT_HISTOGRAM 0x20 /* page size or half-life changed */
#define UI_ACT_STEP 0x40      /* replays: show the frame step (+1 or -1) away */
#define UI_ACT_SEEK 0x80      /* replays: go to the time seek_rel/seek_s says */
#define UI_ACT_SIGNAL 0x100   /* send act_signal to the targets */
#define UI_ACT_NICE 0x200     /* change the nice value of the targets by act_nice */

/* Processes that can be tagged at once. */
#define UI_MAX_TAGS 256

/* One entry of the signal menu. */
struct ui_signal {
	int num;
	const char *name; /* without SIG */
};
#define UI_ACT_KTHREADS 0x800 /* tell the source whether kernel threads are listed */
#define UI_ACT_COLUMNS 0x1000 /* the column choice changed: give cols to the model */
#define UI_ACT_SCHEME 0x2000  /* the colour scheme changed */
#define UI_ACT_WRITE 0x4000   /* write the settings file; the loop says how it went in status */

struct ui {
	enum ui_view view, back; /* back: where Esc returns from help/errors */
	int sel_id;		 /* selected row's pid (tid in thread lists) */
	size_t sel;		 /* its index in the visible list */
	size_t top;		 /* first visible list row */
	size_t page;		 /* list rows on screen, from view_page */
	size_t scroll;		 /* first line of help or errors */
	int sort_col;
	bool reverse;
	char filter[PROMPT_MAX];      /* name or command line contains */
	char filter_prev[PROMPT_MAX]; /* the filter before the prompt: Esc in it restores it */
	char cgroup[1024]; /* the table shows this cgroup's processes (from the cgroup view) */
	char user[33];
	char search[PROMPT_MAX];
	bool search_miss; /* the search typed matches no row: the prompt says so */
	bool show_cpus;
	bool threads;  /* H: threads as rows */
	bool kthreads; /* K: kernel threads listed */
	bool per_user; /* W: one row per user, the totals of their processes */
	bool cmdline;
	bool paused;
	double delay;
	bool replay_ended;
	int drill;			/* pid of the drill-down */
	unsigned long long drill_start; /* its start time, when drill_known */
	bool drill_known; /* drill_start is its start (not yet for --drill before it is seen) */
	enum ui_drill_mode drill_mode;
	bool drill_open;		   /* opened (Enter), not closed (Esc): in the Tab cycle */
	unsigned long long sample_period;  /* 0: the source's default */
	unsigned long long sample_default; /* the period the source chose */
	unsigned page_shift;		   /* 12 or 21 */
	double halflife;		   /* seconds */
	enum ui_prompt prompt;
	struct prompt input; /* the text typed in the prompt */
	char status[160];    /* one-line notice, cleared by the next key */
	/* the drill-down's hot pages: the selection follows its page as the order changes */
	bool page_chosen;  /* a page was picked; else the hottest is the one selected */
	uint64_t page_sel; /* the picked page (its address >> page_shift) */
	size_t page_idx;   /* its row when last seen, for when it is gone */
	size_t page_top;   /* the first page row on screen */
	int step;	   /* UI_ACT_STEP: +1 the next frame, -1 the previous one */
	bool seek_rel;	   /* UI_ACT_SEEK: seek_s is seconds from the first tick, */
	double seek_s;	   /* else the recorded time of day in seconds after midnight */
	int width;	   /* screen columns, for the table's layout; the loop sets them */
	int list_y;	   /* screen line of the list's column titles; -1 when none */
	int hscroll;	   /* horizontal scroll position of the table (view/table.h) */
	bool tree;	   /* processes under their parents */
	bool follow;	   /* F: the selection stays on follow_id; else it keeps its line */
	bool sel_pin;	   /* the next ui_sync puts the selection on sel_id (a key chose it) */
	int follow_id;
	bool live; /* the processes are on this machine: signals and nice apply */
	struct model_ident tags[UI_MAX_TAGS]; /* tagged processes, in tagging order */
	size_t ntags;
	size_t sig_sel;				 /* the signal menu's highlighted entry */
	size_t sort_sel;			 /* the sort menu's highlighted entry */
	size_t user_sel;			 /* the users menu's highlighted entry */
	int sig_typed;				 /* a number typed in the menu; 0 for none */
	int act_signal;				 /* UI_ACT_SIGNAL: the signal chosen */
	int act_nice;				 /* UI_ACT_NICE: -1 or +1 */
	struct model_ident targets[UI_MAX_TAGS]; /* UI_ACT_SIGNAL, UI_ACT_NICE: who they go to */
	size_t ntargets;
	bool act_threads; /* the targets are threads (nice: only them, not their process) */
	char ask[224];	  /* the question of UI_PROMPT_CONFIRM */
	bool ask_gone;	  /* a target of the question exited: y sends nothing */
	/* the settings of the setup screen (F2), which the settings file keeps */
	struct col_choice cols; /* the table's columns; the loop gives them to the model */
	unsigned meters_off;	/* bit per enum ui_meter hidden (not UI_METER_CPUS) */
	enum ui_scheme scheme;
	enum ui_setup_section setup_sec; /* the section in use */
	size_t setup_sel[UI_SETUP_MAX];	 /* the highlighted entry of each section */
};

/* A row's place in the tree view. */
struct ui_tree_pos {
	unsigned depth; /* 0 for a process whose parent is not listed */
	uint32_t more;	/* bit d: at depth d (its own and its ancestors') later siblings follow */
};

/* The rows a view lists, after the interactive filters. */
struct ui_list {
	const struct model_row **v;
	size_t n, cap;
	struct ui_tree_pos *tree; /* one per row in the tree view, else unused */
	size_t tcap;
	bool is_tree;		  /* the rows are in tree order and tree is filled */
	struct model_users users; /* the per-user rows v points to, in the per-user view */
};

void ui_init(struct ui *u, int sort_col, bool reverse, double delay);
/* Build the visible list for the current view from m (pointers into m). */
void ui_build_list(const struct ui *u, const struct model *m, struct ui_list *l);
void ui_list_release(struct ui_list *l);
/*
 * After rows moved: the selection keeps its line and the rows move under it, as in htop,
 * unless F follows a process or a key just chose one (sel_pin); fix scrolling.
 */
void ui_sync(struct ui *u, const struct ui_list *l);
/* Take the page size of the layout (0 keeps it); with a list on screen, sync the selection. */
void ui_set_page(struct ui *u, const struct ui_list *l, size_t page, bool list);
/* Take the screen's width and the line of the list's titles (-1: no list on screen). */
void ui_set_screen(struct ui *u, int width, int list_y);
/*
 * Apply one key, a ui_key or a character's code point (a prompt takes any but controls); returns
 * UI_ACT_* flags. l is the list on screen. The search and the filter act as they are typed.
 */
unsigned ui_key(struct ui *u, int key, const struct model *m, const struct ui_list *l);
/* A mouse click at x, y: a column title sorts by it (again: reverse), a row selects it. */
unsigned ui_click(struct ui *u, int x, int y, const struct model *m, const struct ui_list *l);
/*
 * After the model took a new snapshot: tags of processes that exited are dropped, a drill-down
 * on one that exited closes, and a signal question about one says so, each on the status line
 * as "process N exited", rather than follow the pid to a newcomer. Returns UI_ACT_* flags.
 */
unsigned ui_prune(struct ui *u, const struct model *m);
/* Whether id is tagged. */
bool ui_tagged(const struct ui *u, int id);
/* The signal menu, in its order; *n gets its length. */
const struct ui_signal *ui_signals(size_t *n);
/* The name of signal num ("TERM"), or NULL for one the menu does not list. */
const char *ui_signal_name(int num);
/* The key table, in footer order; *n gets its length. */
const struct ui_binding *ui_bindings(size_t *n);
/* The binding of key in view; NULL when the key does nothing there. */
const struct ui_binding *ui_binding_find(enum ui_view view, int key);
/* The name of key ("F1", "Space", "q") into buf; false for aliases the help leaves out. */
bool ui_key_name(int key, char *buf, size_t size);
/* The names of b's keys, separated by blanks, into buf: "< > F6 Left Right". */
void ui_binding_keys(const struct ui_binding *b, char *buf, size_t size);
/*
 * A time to go to in a replay: "+SECONDS" from its start (*rel set), or
 * "HH:MM[:SS]" of the recorded day; 0 or -EINVAL. Pure.
 */
int ui_parse_time(const char *s, bool *rel, double *seconds);
/* Whether meter k of the header is shown. */
bool ui_meter_shown(const struct ui *u, enum ui_meter k);
/* The name of meter k and of scheme k, as the setup screen and the settings file say them. */
const char *ui_meter_name(enum ui_meter k);
const char *ui_scheme_name(enum ui_scheme k);
/* The meter or scheme called name; -1 when none is. */
int ui_meter_find(const char *name);
int ui_scheme_find(const char *name);
/* Columns that can be sorted by in this mode, in table order; returns how many. */
size_t ui_sortable(const struct model *m, int *out, size_t max);
/* An entry of the users menu (u). */
struct ui_user {
	const char *name; /* borrowed from the model's rows; NULL for "All users" */
	unsigned uid;
	size_t procs; /* its processes among those the other filters let through */
};

/*
 * The users menu (u), as htop's: "All users" first (procs: them all), then each user of the
 * processes the filters other than the user's let through, the most processes first (of
 * equals, by name). *out is grown to *cap as needed and owned by the caller, whose names
 * borrow from m: they last until its next update. Returns how many entries.
 */
size_t ui_user_menu(const struct ui *u, const struct model *m, struct ui_user **out, size_t *cap);
/* The entries of the sort menu (F6) in the current view, in table order; returns how many. */
size_t ui_sort_menu(const struct ui *u, const struct model *m, int *out, size_t max);

#endif
