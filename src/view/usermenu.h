/* The users menu (u): its entries, its keys and its drawing. */
#ifndef PMCTOP_VIEW_USERMENU_H
#define PMCTOP_VIEW_USERMENU_H

#include "view/view.h"

/* u: open the users menu on the user shown, else on "All users". */
void usermenu_open(struct ui *u, const struct model *m);
/* A key in the users menu: move, Enter shows the entry's processes (all for the first), Esc. */
unsigned usermenu_key(struct ui *u, int key, const struct model *m);
/* Draw the users menu over the left of lines y .. y + h - 1: processes and name, as htop's. */
void usermenu_draw(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
