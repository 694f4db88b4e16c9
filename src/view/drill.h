/* The drill-down of one process: its counts, its threads, and the sampled hot pages or mappings. */
#ifndef PMCTOP_VIEW_DRILL_H
#define PMCTOP_VIEW_DRILL_H

#include "view/view.h"

#define DRILL_LINES 4	     /* the drilled process: name, command line, metrics, a blank */
#define DRILL_SAMPLE_LINES 2 /* the sampling pane's title and what its samples mean */

/* The movement keys on the drill-down's hot pages: the selection, and the rows in view. */
void drill_page_move(struct ui *u, const struct model *m, int key);

/* Rows of pages in a pages pane of h lines, and whether the instructions block fits below. */
int drill_pages_rows(int h, bool *ips);

void drill_draw(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
