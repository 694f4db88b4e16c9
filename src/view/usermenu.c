/* The users menu (u): its entries, its keys and its drawing. */
#include "config.h"
#include "view/usermenu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "view/canvas.h"
#include "view/list.h"
#include "view/ui.h"
#include "view/view.h"

static int usermenu_cmp(const void *a, const void *b)
{
	const struct ui_user *x = a, *y = b;

	if (x->procs != y->procs)
		return x->procs < y->procs ? 1 : -1;
	return strcmp(x->name, y->name);
}

size_t usermenu_entries(const struct ui *u, const struct model *m, struct ui_user **out,
			size_t *cap)
{
	/* the filters of the list but the user's: the menu offers every user they leave */
	const struct model_filter f = { .name = u->filter,
					.cgroup = u->cgroup,
					.kthreads = u->kthreads };
	size_t n = 1;

	*out = xgrow(*out, cap, 1, sizeof(**out));
	(*out)[0] = (struct ui_user){ .name = NULL };
	for (size_t i = 0; i < m->nrows; i++) {
		const struct model_row *r = &m->rows[i];
		size_t k;

		if (!model_row_wanted(&f, r))
			continue;
		(*out)[0].procs++;
		for (k = 1; k < n && (*out)[k].uid != r->uid; k++)
			;
		if (k == n) {
			*out = xgrow(*out, cap, n + 1, sizeof(**out));
			(*out)[n++] = (struct ui_user){ .name = r->user, .uid = r->uid };
		}
		(*out)[k].procs++;
	}
	qsort(*out + 1, n - 1, sizeof(**out), usermenu_cmp);
	return n;
}

/* u: the users menu opens on the user shown, else on "All users". */
void usermenu_open(struct ui *u, const struct model *m)
{
	struct ui_user *users = NULL;
	size_t cap = 0, n = usermenu_entries(u, m, &users, &cap);

	u->users.sel = 0;
	for (size_t i = 1; i < n && u->user[0]; i++)
		if (model_filter_match(&(struct model_filter){ .user = u->user }, 0, users[i].uid,
				       users[i].name, NULL, NULL))
			u->users.sel = i;
	free(users);
	u->input.prompt = UI_PROMPT_USER;
}

/* A key in the users menu: move, Enter shows the entry's processes (all for the first), Esc. */
unsigned usermenu_key(struct ui *u, int key, const struct model *m)
{
	struct ui_user *users = NULL;
	size_t cap = 0, n = usermenu_entries(u, m, &users, &cap);
	size_t page = u->page ? u->page : 1;

	if (u->users.sel >= n)
		u->users.sel = n - 1;
	switch (key) {
	case UI_KEY_ESC:
	case UI_KEY_F10:
	case 'q':
		u->input.prompt = UI_PROMPT_NONE;
		break;
	case UI_KEY_ENTER:
	case '\r':
		u->input.prompt = UI_PROMPT_NONE;
		if (!u->users.sel)
			u->user[0] = '\0';
		else if (users[u->users.sel].name && users[u->users.sel].name[0])
			snprintf(u->user, sizeof(u->user), "%.32s", users[u->users.sel].name);
		else /* a uid without a name */
			snprintf(u->user, sizeof(u->user), "%u", users[u->users.sel].uid);
		break;
	default:
		u->users.sel = list_step(u->users.sel, n, page, key);
		break;
	}
	free(users);
	return 0;
}

/* The users menu (u) over the left of the body, from line y: processes and name, as htop's. */
void usermenu_draw(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct ui *u = v->u;
	struct ui_user *users = NULL;
	size_t cap = 0, n = usermenu_entries(u, v->m, &users, &cap);
	size_t rows = h > 1 ? (size_t)h - 1 : 0, top;
	const int w = c->w < 30 ? c->w - 1 : 30;

	if (!rows || w < 2) {
		free(users);
		return;
	}
	/* a menu longer than the screen scrolls with its highlight */
	top = u->users.sel >= rows ? u->users.sel - rows + 1 : 0;
	/* whole lines: a table cell half under the menu would show part of a number */
	canvas_fill(c, y, 0, c->w, ' ', CANVAS_NORMAL);
	canvas_fill(c, y, 0, w, ' ', CANVAS_TITLE);
	canvas_put(c, 0, y, " PROCS USER", CANVAS_TITLE, w);
	for (size_t i = top; i < n && i - top < rows; i++) {
		int row = y + 1 + (int)(i - top);
		char uid[16];

		snprintf(uid, sizeof(uid), "%u", users[i].uid);
		canvas_fill(c, row, 0, c->w, ' ', CANVAS_NORMAL);
		canvas_printf(c, 0, row, CANVAS_NORMAL, w, "%6zu %s", users[i].procs,
			      !i		 ? "All users"
			      : users[i].name[0] ? users[i].name
						 : uid);
		canvas_attr(c, row, 0, w, i == u->users.sel ? CANVAS_SELECTED : CANVAS_NORMAL);
		canvas_put(c, w, row, "|", CANVAS_DIM, 1);
	}
	free(users);
}
