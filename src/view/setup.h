/* The setup screen (F2): columns, the header's meters and the colours; its keys and its drawing. */
#ifndef PMCTOP_VIEW_SETUP_H
#define PMCTOP_VIEW_SETUP_H

#include "view/view.h"

void setup_move(struct ui *u, int key);

unsigned setup_toggle(struct ui *u);

/* F7/F8 in the columns: the highlighted column moves, and the highlight with it. */
void setup_order(struct ui *u, int dir);

/*
 * The setup screen (F2): the columns in their order, shown or hidden; the header's meters;
 * the colour schemes. Side by side, the section in use highlighted; the highlighted entry's
 * description on the last line. A long column list scrolls with its highlight.
 */
void setup_draw(struct canvas *c, int y0, int h, const struct view_ctx *v);

#endif
