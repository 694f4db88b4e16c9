/* The pagers over the screen: help (from the key table), the log and the events. */
#ifndef PMCTOP_VIEW_PAGER_H
#define PMCTOP_VIEW_PAGER_H

#include <stddef.h>

struct canvas;
struct ui;
struct view_ctx;

/* The pagers' part of struct ui. */
struct pager_state {
	size_t scroll; /* the first line of help, the log or the events on screen */
};

/* A key that scrolls a pager (Up, Down, PgUp, PgDn, Space, Home): moves u->pager.scroll. */
void pager_scroll(struct ui *u, int key);
/* Draw the log from u->pager.scroll on, on lines y0 .. y0 + h - 1; never past its last page. */
void pager_log(struct canvas *c, int y0, int h, const struct view_ctx *v);
/* Draw the events screen from u->pager.scroll on, on lines y0 .. y0 + h - 1; never past its end. */
void pager_events(struct canvas *c, int y0, int h, const struct view_ctx *v);
/* Draw help into c from line scroll on (exported for the help tests). */
void pager_help(struct canvas *c, int y0, int h, size_t scroll);

#endif
