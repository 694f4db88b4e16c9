/* Interactive state and key handling, pure: keys in, state and actions out. */
#ifndef PMCTOP_UI_H
#define PMCTOP_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "view/prompt.h"
/* each screen's part of the interactive side: this header's users see all of it */
#include "view/drill.h"
#include "view/input.h"
#include "view/keys.h"
#include "view/list.h"
#include "view/setup.h"
#include "view/sigmenu.h"
#include "view/sortmenu.h"
#include "view/tags.h"
#include "view/usermenu.h"

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
	bool sel_pin;	   /* the next list_sync puts the selection on sel_id (a key chose it) */
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

/* Start u afresh: the process table sorted by sort_col (reversed or not), the delay, the defaults. */
void ui_init(struct ui *u, int sort_col, bool reverse, double delay);
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

#endif
