/* The list on screen: its rows after the filters, the tree, and the selection that keeps its line. */
#include "config.h"
#include "view/list.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "view/canvas.h"
#include "view/ui.h"

/* The id of a row's parent in the tree: a thread's process, a process's parent process. */
static int list_tree_parent_id(const struct model_row *r)
{
	return r->id != r->tgid ? r->tgid : r->ppid;
}

struct list_id_index {
	int id;
	size_t i;
};

static int list_id_cmp(const void *a, const void *b)
{
	const struct list_id_index *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Put the rows of l in tree order: each row under its parent, siblings in the order they came
 * (the sort order), depth first. A row whose parent is not listed is a root; rows in a loop of
 * parents (only a crafted recording has one) start at the first of them in list order.
 */
static void list_build_tree(struct ui_list *l)
{
	size_t n = l->n;
	struct list_id_index *idx = xcalloc(n ? n : 1, sizeof(*idx));
	long *parent = xcalloc(n ? n : 1, sizeof(*parent));
	size_t *nkids = xcalloc(n + 1, sizeof(*nkids)), *kids = xcalloc(n ? n : 1, sizeof(*kids));
	size_t *fill = xcalloc(n + 1, sizeof(*fill)), *stack = xcalloc(n ? n : 1, sizeof(*stack));
	size_t *cursor = xcalloc(n ? n : 1, sizeof(*cursor));
	uint32_t *smore = xcalloc(n ? n : 1, sizeof(*smore));
	bool *seen = xcalloc(n ? n : 1, sizeof(*seen));
	const struct model_row **order = xcalloc(n ? n : 1, sizeof(*order));
	size_t out = 0;

	l->tree = xgrow(l->tree, &l->tcap, n ? n : 1, sizeof(*l->tree));
	for (size_t i = 0; i < n; i++)
		idx[i] = (struct list_id_index){ l->v[i]->id, i };
	qsort(idx, n, sizeof(*idx), list_id_cmp);
	for (size_t i = 0; i < n; i++) {
		struct list_id_index key = { list_tree_parent_id(l->v[i]), 0 };
		const struct list_id_index *p = bsearch(&key, idx, n, sizeof(*idx), list_id_cmp);

		parent[i] = p && p->i != i ? (long)p->i : -1;
		if (parent[i] >= 0)
			nkids[parent[i] + 1]++;
	}
	/* the children of row i are kids[nkids[i] .. nkids[i + 1]), in list order */
	for (size_t i = 0; i < n; i++)
		nkids[i + 1] += nkids[i];
	memcpy(fill, nkids, (n + 1) * sizeof(*fill));
	for (size_t i = 0; i < n; i++)
		if (parent[i] >= 0)
			kids[fill[parent[i]]++] = i;
	for (int pass = 0; pass < 2; pass++)
		for (size_t r = 0; r < n; r++) {
			size_t top = 0;

			/* roots first; then what a loop of parents left unseen */
			if (seen[r] || (pass == 0 && parent[r] >= 0))
				continue;
			seen[r] = true;
			l->tree[out] = (struct ui_tree_pos){ 0, 0 };
			order[out++] = l->v[r];
			stack[top] = r;
			smore[top] = 0;
			cursor[top++] = nkids[r];
			while (top) {
				size_t p = stack[top - 1], depth = top;
				uint32_t more;
				size_t c;

				if (cursor[top - 1] == nkids[p + 1]) {
					top--;
					continue;
				}
				c = kids[cursor[top - 1]++];
				if (seen[c])
					continue;
				seen[c] = true;
				/* the guides of the ancestors, and this row's own */
				more = depth < 32 ? smore[top - 1] & ((1u << depth) - 1)
						  : smore[top - 1];
				if (cursor[top - 1] < nkids[p + 1] && depth < 32)
					more |= 1u << depth;
				l->tree[out] = (struct ui_tree_pos){ (unsigned)depth, more };
				order[out++] = l->v[c];
				stack[top] = c;
				smore[top] = more;
				cursor[top++] = nkids[c];
			}
		}
	memcpy(l->v, order, n * sizeof(*order));
	l->is_tree = true;
	free(idx);
	free(parent);
	free(nkids);
	free(kids);
	free(fill);
	free(stack);
	free(cursor);
	free(smore);
	free(seen);
	free(order);
}

void list_build(const struct ui *u, const struct model *m, struct ui_list *l)
{
	const struct model_filter f = {
		.user = u->user, .name = u->filter, .cgroup = u->cgroup, .kthreads = u->kthreads
	};
	const struct model_filter fc = { .name = u->filter };
	const struct model_row *rows = m->rows;
	size_t n = m->nrows;

	l->n = 0;
	l->is_tree = false;
	if (u->view == UI_VIEW_CGROUPS) {
		/* cgroups have no user: the name filter matches their paths */
		for (size_t i = 0; i < m->ncgroups; i++) {
			if (!model_row_wanted(&fc, &m->cgroups[i]))
				continue;
			l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
			l->v[l->n++] = &m->cgroups[i];
		}
		return;
	}
	if (u->view == UI_VIEW_DRILL || u->threads) {
		rows = m->threads;
		n = m->nthreads;
	}
	for (size_t i = 0; i < n; i++) {
		const struct model_row *r = &rows[i];

		if (u->view == UI_VIEW_DRILL && r->tgid != u->drill.pid)
			continue;
		if (u->view != UI_VIEW_DRILL && !model_row_wanted(&f, r))
			continue;
		l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = r;
	}
	if (u->view == UI_VIEW_TABLE && !u->per_user && u->tree)
		list_build_tree(l);
	if (u->view != UI_VIEW_TABLE || !u->per_user)
		return;
	/* the totals of the processes the filters leave, one row per user */
	if (u->threads) {
		l->n = 0;
		for (size_t i = 0; i < m->nrows; i++)
			if (model_row_wanted(&f, &m->rows[i])) {
				l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
				l->v[l->n++] = &m->rows[i];
			}
	}
	model_users_build(m, l->v, l->n, &l->users);
	l->v = xgrow(l->v, &l->cap, l->users.n ? l->users.n : 1, sizeof(*l->v));
	for (size_t i = 0; i < l->users.n; i++)
		l->v[i] = &l->users.v[i];
	l->n = l->users.n;
}

void list_release(struct ui_list *l)
{
	free(l->v);
	free(l->tree);
	model_users_release(&l->users);
	memset(l, 0, sizeof(*l));
}

void list_sync(struct ui *u, const struct ui_list *l)
{
	size_t page = u->page ? u->page : 1;

	if (!l->n) {
		u->sel = 0;
		u->top = 0;
		return;
	}
	/* a followed process is selected again wherever it comes back: a filter, H, a view */
	if (u->follow) {
		u->sel_id = u->follow_id;
		u->sel_pin = true;
	}
	/*
	 * Otherwise the selection keeps its line and the rows move under it, as in htop: a
	 * selection that chased its process would scroll the busiest rows off the screen
	 */
	for (size_t i = 0; u->sel_pin && i < l->n; i++)
		if (l->v[i]->id == u->sel_id) {
			u->sel = i;
			break;
		}
	u->sel_pin = false;
	if (u->sel >= l->n)
		u->sel = l->n - 1;
	u->sel_id = l->v[u->sel]->id;
	if (u->sel < u->top)
		u->top = u->sel;
	if (u->sel >= u->top + page)
		u->top = u->sel - page + 1;
	if (u->top + page > l->n)
		u->top = l->n > page ? l->n - page : 0;
}

void list_set_screen(struct ui *u, int width, int list_y)
{
	u->width = width;
	u->list_y = list_y;
}

void list_set_page(struct ui *u, const struct ui_list *l, size_t page, bool list)
{
	if (page)
		u->page = page;
	if (list)
		list_sync(u, l);
}

void list_move(struct ui *u, const struct ui_list *l, long delta)
{
	long s = (long)u->sel + delta;

	if (!l->n)
		return;
	/* moving the selection by hand ends following, as in htop */
	u->follow = false;
	if (s < 0)
		s = 0;
	if (s >= (long)l->n)
		s = (long)l->n - 1;
	u->sel = (size_t)s;
	u->sel_id = l->v[u->sel]->id;
	list_sync(u, l);
}

/* Whether the table's rows are threads. */
bool list_thread_rows(const struct ui *u)
{
	return u->threads || u->view == UI_VIEW_DRILL;
}

/* The kind of rows the list on screen shows, for its layout. */
enum col_rows list_rows(const struct ui *u)
{
	if (u->view == UI_VIEW_CGROUPS)
		return COL_ROWS_CGROUPS;
	if (u->per_user && u->view == UI_VIEW_TABLE)
		return COL_ROWS_USERS;
	return list_thread_rows(u) ? COL_ROWS_THREADS : COL_ROWS_PROCESSES;
}

void list_move_key(struct ui *u, const struct ui_list *l, int key)
{
	long page = (long)(u->page ? u->page : 1);

	switch (key) {
	case UI_KEY_UP:
		list_move(u, l, -1);
		break;
	case UI_KEY_DOWN:
		list_move(u, l, 1);
		break;
	case UI_KEY_PGUP:
		list_move(u, l, -page);
		break;
	case UI_KEY_PGDN:
		list_move(u, l, page);
		break;
	case UI_KEY_HOME:
		list_move(u, l, -(long)l->n);
		break;
	default: /* End */
		list_move(u, l, (long)l->n);
		break;
	}
}

const struct model_row *list_find_process(const struct model *m, int pid)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].id == pid)
			return &m->rows[i];
	return NULL;
}

bool list_process_start(const struct model *m, int pid, unsigned long long *start)
{
	const struct model_row *r = list_find_process(m, pid);

	if (r)
		*start = r->start;
	return r != NULL;
}

int list_text_cells(const char *text, const struct ui_tree_pos *tp)
{
	/* the indent as tableview draws it, 31 levels at most; a wide character takes two cells */
	return (tp ? 3 * (int)(tp->depth < 32 ? tp->depth : 31) : 0) + canvas_cells(text);
}

/* The longest text of the rest column in l, in cells (with the tree's indent). */
int list_longest_text(const struct ui *u, const struct ui_list *l)
{
	int most = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct model_row *r = l->v[i];
		bool cmd = u->cmdline || u->view == UI_VIEW_CGROUPS; /* a cgroup's path */
		const char *t = cmd && r->cmdline[0] ? r->cmdline : r->comm;
		int cells = list_text_cells(t, l->is_tree ? &l->tree[i] : NULL);

		if (cells > most)
			most = cells;
	}
	return most;
}

size_t list_step(size_t sel, size_t n, size_t page, int key)
{
	if (!n)
		return sel;
	switch (key) {
	case UI_KEY_UP:
		return sel ? sel - 1 : 0;
	case UI_KEY_DOWN:
		return sel + 1 < n ? sel + 1 : n - 1;
	case UI_KEY_PGUP:
		return sel > page ? sel - page : 0;
	case UI_KEY_PGDN:
		return sel + page < n ? sel + page : n - 1;
	case UI_KEY_HOME:
		return 0;
	case UI_KEY_END:
		return n - 1;
	default:
		return sel;
	}
}
