/* The pagers over the screen: help (from the key table), the log and the events. */
#ifndef PMCTOP_VIEW_PAGER_H
#define PMCTOP_VIEW_PAGER_H

#include "view/view.h"

void pager_scroll(struct ui *u, int key);

void pager_log(struct canvas *c, int y0, int h, const struct view_ctx *v);

void pager_events(struct canvas *c, int y0, int h, const struct view_ctx *v);

#endif
