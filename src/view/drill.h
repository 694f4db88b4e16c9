/* The drill-down of one process: its counts, its threads, and the sampled hot pages or mappings. */
#ifndef PMCTOP_VIEW_DRILL_H
#define PMCTOP_VIEW_DRILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct canvas;
struct model;
struct ui;
struct view_ctx;

enum ui_drill_mode {
	UI_DRILL_PAGES,	   /* the hot pages of the sampled process */
	UI_DRILL_MAPPINGS, /* samples grouped per mapping */
	UI_DRILL_THREADS,  /* its threads, counted one by one */
};

/* The drill-down's part of struct ui: the process, its pane, its sampling and its hot pages. */
struct drill_state {
	int pid;		  /* the process drilled into */
	unsigned long long start; /* its start time, when known */
	bool known;		  /* start is its start (not yet for --drill before it is seen) */
	enum ui_drill_mode mode;
	bool open;			   /* opened (Enter), not closed (Esc): in the Tab cycle */
	unsigned long long sample_period;  /* 0: the source's default */
	unsigned long long sample_default; /* the period the source chose */
	unsigned page_shift;		   /* 12 or 21 */
	double halflife;		   /* seconds */
	/* the hot pages: the selection follows its page as the order changes */
	bool page_chosen;  /* a page was picked; else the hottest is the one selected */
	uint64_t page_sel; /* the picked page (its address >> page_shift) */
	size_t page_idx;   /* its row when last seen, for when it is gone */
	size_t page_top;   /* the first page row on screen */
};

/* Lines above the drill-down's list or sampling pane, and the sampling pane's own. */
#define DRILL_LINES 4	     /* the drilled process: name, command line, metrics, a blank */
#define DRILL_SAMPLE_LINES 2 /* the sampling pane's title and what its samples mean */

/*
 * A movement key (Up, Down, PgUp, PgDn, Home, End) on the hot pages of m: moves the selected
 * page, which then stays on that page as the order changes; Home follows the hottest again.
 */
void drill_page_move(struct ui *u, const struct model *m, int key);
/* The rows of pages in a pages pane of h lines; *ips: whether the instructions fit below. */
int drill_pages_rows(int h, bool *ips);
/* Draw the drill-down of v->u->drill.pid on lines y .. y + h - 1 of c; nothing when h < 3. */
void drill_draw(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
