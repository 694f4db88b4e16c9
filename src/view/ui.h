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
#include "view/pager.h"
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
	int sort_col;
	bool reverse;
	char filter[PROMPT_MAX]; /* name or command line contains */
	char cgroup[1024]; /* the table shows this cgroup's processes (from the cgroup view) */
	char user[33];
	bool show_cpus;
	bool threads;  /* H: threads as rows */
	bool kthreads; /* K: kernel threads listed */
	bool per_user; /* W: one row per user, the totals of their processes */
	bool cmdline;
	bool paused;
	double delay;
	bool replay_ended;
	char status[160]; /* one-line notice, cleared by the next key */
	int step;	  /* UI_ACT_STEP: +1 the next frame, -1 the previous one */
	bool seek_rel;	  /* UI_ACT_SEEK: seek_s is seconds from the first tick, */
	double seek_s;	  /* else the recorded time of day in seconds after midnight */
	int width;	  /* screen columns, for the table's layout; the loop sets them */
	int list_y;	  /* screen line of the list's column titles; -1 when none */
	int hscroll;	  /* horizontal scroll position of the table (view/table.h) */
	bool tree;	  /* processes under their parents */
	bool follow;	  /* F: the selection stays on follow_id; else it keeps its line */
	bool sel_pin;	  /* the next list_sync puts the selection on sel_id (a key chose it) */
	int follow_id;
	bool live;	/* the processes are on this machine: signals and nice apply */
	int act_signal; /* UI_ACT_SIGNAL: the signal chosen */
	int act_nice;	/* UI_ACT_NICE: -1 or +1 */
	/* each screen's own part, which its file reads and writes */
	struct input_state input;
	struct pager_state pager;
	struct drill_state drill;
	struct tags_state tags;
	struct sigmenu_state sig;
	struct sortmenu_state sort;
	struct usermenu_state users;
	struct setup_state setup;
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
