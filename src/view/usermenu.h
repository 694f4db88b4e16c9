/* The users menu (u): its entries, its keys and its drawing. */
#ifndef PMCTOP_VIEW_USERMENU_H
#define PMCTOP_VIEW_USERMENU_H

#include <stddef.h>

struct canvas;
struct model;
struct ui;
struct view_ctx;

/* The users menu's part of struct ui. */
struct usermenu_state {
	size_t sel; /* the highlighted entry */
};

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
size_t usermenu_entries(const struct ui *u, const struct model *m, struct ui_user **out,
			size_t *cap);

/* u: open the users menu on the user shown, else on "All users". */
void usermenu_open(struct ui *u, const struct model *m);
/* A key in the users menu: move, Enter shows the entry's processes (all for the first), Esc. */
unsigned usermenu_key(struct ui *u, int key, const struct model *m);
/* Draw the users menu over the left of lines y .. y + h - 1: processes and name, as htop's. */
void usermenu_draw(struct canvas *c, int y, int h, const struct view_ctx *v);

#endif
