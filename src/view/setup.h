/* The setup screen (F2): columns, the header's meters and the colours; its keys and its drawing. */
#ifndef PMCTOP_VIEW_SETUP_H
#define PMCTOP_VIEW_SETUP_H

#include "view/view.h"

/* A movement key in the section in use: its highlighted entry. */
void setup_move(struct ui *u, int key);
/*
 * Show or hide the highlighted column or meter, or choose the highlighted colours. Returns
 * UI_ACT_COLUMNS or UI_ACT_SCHEME when the loop must pass the change on, else 0.
 */
unsigned setup_toggle(struct ui *u);
/* F7/F8 in the columns: the highlighted column moves by dir, and the highlight with it. */
void setup_order(struct ui *u, int dir);
/*
 * The setup screen (F2) on lines y0 .. y0 + h - 1: the columns in their order, shown or
 * hidden; the header's meters; the colour schemes. Side by side, the section in use
 * highlighted; the highlighted entry's description on the last line.
 */
void setup_draw(struct canvas *c, int y0, int h, const struct view_ctx *v);

#endif
