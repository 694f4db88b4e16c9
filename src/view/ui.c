/* Interactive state: selection that follows its process, prompts, sort and view changes. */
#include "config.h"
#include "view/ui.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/parse.h"
#include "util/xalloc.h"
#include "view/canvas.h"
#include "view/table.h"

/*
 * The signal menu: the signals a user sends to a process from a monitor, the polite one first.
 * The numbers are this machine's, from <signal.h>.
 */
static const struct ui_signal UI_SIGNALS[] = {
	{ SIGTERM, "TERM" }, { SIGKILL, "KILL" }, { SIGINT, "INT" },   { SIGHUP, "HUP" },
	{ SIGQUIT, "QUIT" }, { SIGSTOP, "STOP" }, { SIGCONT, "CONT" }, { SIGTSTP, "TSTP" },
	{ SIGUSR1, "USR1" }, { SIGUSR2, "USR2" }, { SIGALRM, "ALRM" }, { SIGWINCH, "WINCH" },
};

#define UI_NSIGNALS (sizeof(UI_SIGNALS) / sizeof(UI_SIGNALS[0]))

void ui_init(struct ui *u, int sort_col, bool reverse, double delay)
{
	memset(u, 0, sizeof(*u));
	u->view = UI_VIEW_TABLE;
	u->back = UI_VIEW_TABLE;
	u->sort_col = sort_col;
	u->reverse = reverse;
	u->delay = delay;
	u->show_cpus = true;
	u->sel_id = -1;
	u->page = 10;
	u->page_shift = 12;
	u->halflife = 2.0;
	u->width = 80;
	u->list_y = -1;
	columns_choice_default(&u->cols);
}

/* The header's meters: the names the settings file gives them. */
static const char *const UI_METER_NAMES[UI_METER_MAX] = {
	[UI_METER_CPUS] = "cpus", [UI_METER_UPTIME] = "uptime", [UI_METER_LOAD] = "load",
	[UI_METER_SELF] = "self", [UI_METER_MEMORY] = "memory",
};

static const char *const UI_SCHEME_NAMES[UI_SCHEME_MAX] = {
	[UI_SCHEME_DEFAULT] = "default",
	[UI_SCHEME_MONO] = "mono",
	[UI_SCHEME_LIGHT] = "light",
};

bool ui_meter_shown(const struct ui *u, enum ui_meter k)
{
	return k == UI_METER_CPUS ? u->show_cpus : !(u->meters_off & (1u << k));
}

const char *ui_meter_name(enum ui_meter k)
{
	return k < UI_METER_MAX ? UI_METER_NAMES[k] : "";
}

const char *ui_scheme_name(enum ui_scheme k)
{
	return k < UI_SCHEME_MAX ? UI_SCHEME_NAMES[k] : "";
}

int ui_meter_find(const char *name)
{
	for (int k = 0; k < UI_METER_MAX; k++)
		if (!strcasecmp(UI_METER_NAMES[k], name))
			return k;
	return -1;
}

int ui_scheme_find(const char *name)
{
	for (int k = 0; k < UI_SCHEME_MAX; k++)
		if (!strcasecmp(UI_SCHEME_NAMES[k], name))
			return k;
	return -1;
}

/* The id of a row's parent in the tree: a thread's process, a process's parent process. */
static int ui_tree_parent_id(const struct model_row *r)
{
	return r->id != r->tgid ? r->tgid : r->ppid;
}

struct ui_id_index {
	int id;
	size_t i;
};

static int ui_id_cmp(const void *a, const void *b)
{
	const struct ui_id_index *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Put the rows of l in tree order: each row under its parent, siblings in the order they came
 * (the sort order), depth first. A row whose parent is not listed is a root; rows in a loop of
 * parents (only a crafted recording has one) start at the first of them in list order.
 */
static void ui_build_tree(struct ui_list *l)
{
	size_t n = l->n;
	struct ui_id_index *idx = xcalloc(n ? n : 1, sizeof(*idx));
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
		idx[i] = (struct ui_id_index){ l->v[i]->id, i };
	qsort(idx, n, sizeof(*idx), ui_id_cmp);
	for (size_t i = 0; i < n; i++) {
		struct ui_id_index key = { ui_tree_parent_id(l->v[i]), 0 };
		const struct ui_id_index *p = bsearch(&key, idx, n, sizeof(*idx), ui_id_cmp);

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

void ui_build_list(const struct ui *u, const struct model *m, struct ui_list *l)
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

		if (u->view == UI_VIEW_DRILL && r->tgid != u->drill)
			continue;
		if (u->view != UI_VIEW_DRILL && !model_row_wanted(&f, r))
			continue;
		l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = r;
	}
	if (u->view == UI_VIEW_TABLE && !u->per_user && u->tree)
		ui_build_tree(l);
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

void ui_list_release(struct ui_list *l)
{
	free(l->v);
	free(l->tree);
	model_users_release(&l->users);
	memset(l, 0, sizeof(*l));
}

void ui_sync(struct ui *u, const struct ui_list *l)
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

void ui_set_screen(struct ui *u, int width, int list_y)
{
	u->width = width;
	u->list_y = list_y;
}

void ui_set_page(struct ui *u, const struct ui_list *l, size_t page, bool list)
{
	if (page)
		u->page = page;
	if (list)
		ui_sync(u, l);
}

size_t ui_sortable(const struct model *m, int *out, size_t max)
{
	return model_columns(m, out, max);
}

static void ui_move(struct ui *u, const struct ui_list *l, long delta)
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
	ui_sync(u, l);
}

/* Whether the table's rows are threads. */
static bool ui_thread_rows(const struct ui *u)
{
	return u->threads || u->view == UI_VIEW_DRILL;
}

/* The kind of rows the list on screen shows, for its layout. */
static enum col_rows ui_rows(const struct ui *u)
{
	if (u->view == UI_VIEW_CGROUPS)
		return COL_ROWS_CGROUPS;
	if (u->per_user && u->view == UI_VIEW_TABLE)
		return COL_ROWS_USERS;
	return ui_thread_rows(u) ? COL_ROWS_THREADS : COL_ROWS_PROCESSES;
}

/* A sort column hidden for width is scrolled into view; one that cannot fit is named. */
static void ui_reveal_sort(struct ui *u, const struct model *m)
{
	int p = table_reveal(m, u->width, ui_rows(u), u->hscroll, u->sort_col);

	if (p < 0 && u->sort_col < COL_MAX && !columns_choice_shown(&m->cols, u->sort_col)) {
		snprintf(u->status, sizeof(u->status),
			 "sorted by %s, a column hidden in the setup (F2 shows it again)",
			 model_column_title(m, u->sort_col, ui_rows(u)));
		return;
	}
	if (p >= 0) {
		u->hscroll = p;
		return;
	}
	snprintf(u->status, sizeof(u->status),
		 "sorted by %s, which does not fit %d columns: widen the terminal to see it",
		 model_column_title(m, u->sort_col, ui_rows(u)), u->width);
}

static unsigned ui_sort_by(struct ui *u, const struct model *m, int col)
{
	if (col < COL_MAX && columns_get(col)->type == COL_TYPE_NUM &&
	    !model_column_shown(m, col)) {
		snprintf(u->status, sizeof(u->status),
			 "sorting by %s needs hardware counters, which this machine does not "
			 "provide",
			 columns_get(col)->title);
		return 0;
	}
	if (u->sort_col == col) {
		u->reverse = !u->reverse;
	} else {
		u->sort_col = col;
		u->reverse = false;
	}
	ui_reveal_sort(u, m);
	return UI_ACT_SORT;
}

size_t ui_sort_menu(const struct ui *u, const struct model *m, int *out, size_t max)
{
	size_t n = ui_sortable(m, out, max), k = 0;

	if (u->view != UI_VIEW_CGROUPS)
		return n;
	/* cgroups are sorted by their own columns only */
	for (size_t i = 0; i < n; i++)
		if (columns_on_rows(model_column(m, out[i]), COL_ROWS_CGROUPS))
			out[k++] = out[i];
	return k;
}

static unsigned ui_cycle_sort(struct ui *u, const struct model *m, int dir)
{
	int cols[COL_MAX + 64];
	size_t n = ui_sort_menu(u, m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t i;

	for (i = 0; i < n && cols[i] != u->sort_col; i++)
		;
	if (i == n)
		i = 0;
	else
		i = (i + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	u->sort_col = cols[i];
	u->reverse = false;
	ui_reveal_sort(u, m);
	return UI_ACT_SORT;
}

static int ui_user_cmp(const void *a, const void *b)
{
	const struct ui_user *x = a, *y = b;

	if (x->procs != y->procs)
		return x->procs < y->procs ? 1 : -1;
	return strcmp(x->name, y->name);
}

size_t ui_user_menu(const struct ui *u, const struct model *m, struct ui_user **out, size_t *cap)
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
	qsort(*out + 1, n - 1, sizeof(**out), ui_user_cmp);
	return n;
}

/* u: the users menu opens on the user shown, else on "All users". */
static void ui_user_menu_open(struct ui *u, const struct model *m)
{
	struct ui_user *users = NULL;
	size_t cap = 0, n = ui_user_menu(u, m, &users, &cap);

	u->user_sel = 0;
	for (size_t i = 1; i < n && u->user[0]; i++)
		if (model_filter_match(&(struct model_filter){ .user = u->user }, 0, users[i].uid,
				       users[i].name, NULL, NULL))
			u->user_sel = i;
	free(users);
	u->prompt = UI_PROMPT_USER;
}

/* A key in the users menu: move, Enter shows the entry's processes (all for the first), Esc. */
static unsigned ui_user_menu_key(struct ui *u, int key, const struct model *m)
{
	struct ui_user *users = NULL;
	size_t cap = 0, n = ui_user_menu(u, m, &users, &cap);
	size_t page = u->page ? u->page : 1;

	if (u->user_sel >= n)
		u->user_sel = n - 1;
	switch (key) {
	case UI_KEY_ESC:
	case UI_KEY_F10:
	case 'q':
		u->prompt = UI_PROMPT_NONE;
		break;
	case UI_KEY_ENTER:
	case '\r':
		u->prompt = UI_PROMPT_NONE;
		if (!u->user_sel)
			u->user[0] = '\0';
		else if (users[u->user_sel].name && users[u->user_sel].name[0])
			snprintf(u->user, sizeof(u->user), "%.32s", users[u->user_sel].name);
		else /* a uid without a name */
			snprintf(u->user, sizeof(u->user), "%u", users[u->user_sel].uid);
		break;
	case UI_KEY_UP:
		u->user_sel = u->user_sel ? u->user_sel - 1 : 0;
		break;
	case UI_KEY_DOWN:
		u->user_sel = u->user_sel + 1 < n ? u->user_sel + 1 : n - 1;
		break;
	case UI_KEY_PGUP:
		u->user_sel = u->user_sel > page ? u->user_sel - page : 0;
		break;
	case UI_KEY_PGDN:
		u->user_sel = u->user_sel + page < n ? u->user_sel + page : n - 1;
		break;
	case UI_KEY_HOME:
		u->user_sel = 0;
		break;
	case UI_KEY_END:
		u->user_sel = n - 1;
		break;
	default:
		break;
	}
	free(users);
	return 0;
}

/* F6: the sort menu opens on the column sorted by. */
static void ui_sort_menu_open(struct ui *u, const struct model *m)
{
	int cols[COL_MAX + 64];
	size_t n = ui_sort_menu(u, m, cols, sizeof(cols) / sizeof(cols[0]));

	u->sort_sel = 0;
	for (size_t i = 0; i < n; i++)
		if (cols[i] == u->sort_col)
			u->sort_sel = i;
	u->prompt = UI_PROMPT_SORT;
}

/* A key in the sort menu: move, Enter sorts by the entry (as its key would), Esc closes. */
static unsigned ui_sort_menu_key(struct ui *u, int key, const struct model *m)
{
	int cols[COL_MAX + 64];
	size_t n = ui_sort_menu(u, m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t page = u->page ? u->page : 1;

	if (!n) {
		u->prompt = UI_PROMPT_NONE;
		return 0;
	}
	if (u->sort_sel >= n)
		u->sort_sel = n - 1;
	switch (key) {
	case UI_KEY_ESC:
	case UI_KEY_F6:
	case UI_KEY_F10:
	case 'q':
		u->prompt = UI_PROMPT_NONE;
		return 0;
	case UI_KEY_ENTER:
	case '\r':
		u->prompt = UI_PROMPT_NONE;
		if (cols[u->sort_sel] == u->sort_col)
			return 0; /* the order stays: R reverses it */
		u->sort_col = cols[u->sort_sel];
		u->reverse = false;
		ui_reveal_sort(u, m);
		return UI_ACT_SORT;
	case UI_KEY_UP:
		u->sort_sel = u->sort_sel ? u->sort_sel - 1 : 0;
		return 0;
	case UI_KEY_DOWN:
		u->sort_sel = u->sort_sel + 1 < n ? u->sort_sel + 1 : n - 1;
		return 0;
	case UI_KEY_PGUP:
		u->sort_sel = u->sort_sel > page ? u->sort_sel - page : 0;
		return 0;
	case UI_KEY_PGDN:
		u->sort_sel = u->sort_sel + page < n ? u->sort_sel + page : n - 1;
		return 0;
	case UI_KEY_HOME:
		u->sort_sel = 0;
		return 0;
	case UI_KEY_END:
		u->sort_sel = n - 1;
		return 0;
	default:
		return 0;
	}
}

/*
 * Select the first row from row from on (wrapping) whose name or command line holds the search;
 * false, the selection kept, when none does.
 */
static bool ui_search(struct ui *u, const struct ui_list *l, size_t from)
{
	/* the list on screen already holds only what the filters let through */
	const struct model_filter f = { .name = u->search, .kthreads = true };

	if (!u->search[0] || !l->n)
		return true;
	for (size_t k = 0; k < l->n; k++) {
		size_t i = (from + k) % l->n;

		if (model_row_wanted(&f, l->v[i])) {
			u->follow = false;
			u->sel = i;
			u->sel_id = l->v[i]->id;
			u->sel_pin = true;
			ui_sync(u, l);
			return true;
		}
	}
	return false;
}

/* The next match after the selection (Enter on an empty search, F3 in it). */
static void ui_search_next(struct ui *u, const struct ui_list *l)
{
	u->search_miss = !ui_search(u, l, l->n ? (u->sel + 1) % l->n : 0);
	if (u->search_miss)
		snprintf(u->status, sizeof(u->status), "no process matches '%.120s'", u->search);
}

int ui_parse_time(const char *s, bool *rel, double *seconds)
{
	unsigned h, m, sec = 0;
	char *end, extra;
	double v;

	if (s[0] == '+') {
		if (!(s[1] >= '0' && s[1] <= '9') && s[1] != '.')
			return -EINVAL;
		v = strtod(s + 1, &end);
		if (*end || !isfinite(v) || v < 0 || v > 1e9)
			return -EINVAL;
		*rel = true;
		*seconds = v;
		return 0;
	}
	if (sscanf(s, "%2u:%2u:%2u%c", &h, &m, &sec, &extra) != 3 &&
	    sscanf(s, "%2u:%2u%c", &h, &m, &extra) != 2)
		return -EINVAL;
	if (strspn(s, "0123456789:") != strlen(s) || h > 23 || m > 59 || sec > 59)
		return -EINVAL;
	*rel = false;
	*seconds = h * 3600.0 + m * 60.0 + sec;
	return 0;
}

static unsigned ui_commit_prompt(struct ui *u, const struct ui_list *l)
{
	enum ui_prompt p = u->prompt;
	double d;

	u->prompt = UI_PROMPT_NONE;
	switch (p) {
	case UI_PROMPT_SEARCH:
		/* the search went as it was typed; Enter on nothing typed: the last one's next */
		if (!u->input.len)
			ui_search_next(u, l);
		else if (u->search_miss)
			snprintf(u->status, sizeof(u->status), "no process matches '%.120s'",
				 u->search);
		return 0;
	case UI_PROMPT_FILTER:
		/* the filter applied as it was typed: Enter keeps it */
		snprintf(u->filter, sizeof(u->filter), "%s", u->input.text);
		return 0;
	case UI_PROMPT_DELAY:
		if (!u->input.len)
			return 0;
		if (parse_delay(u->input.text, false, &d)) {
			snprintf(u->status, sizeof(u->status),
				 "invalid delay '%.64s': give seconds from 0.01 to 86400",
				 u->input.text);
			return 0;
		}
		u->delay = d;
		return UI_ACT_DELAY;
	case UI_PROMPT_TIME:
		if (!u->input.len)
			return 0;
		if (ui_parse_time(u->input.text, &u->seek_rel, &u->seek_s)) {
			snprintf(
				u->status, sizeof(u->status),
				"invalid time '%.64s': give HH:MM:SS (the recorded time of day) or "
				"+SECONDS (from the start)",
				u->input.text);
			return 0;
		}
		return UI_ACT_SEEK;
	case UI_PROMPT_SIGNAL: /* these have keys of their own (ui_signal_key, the menus) */
	case UI_PROMPT_CONFIRM:
	case UI_PROMPT_SORT:
	case UI_PROMPT_USER:
	case UI_PROMPT_NONE:
		break;
	}
	return 0;
}

const struct ui_signal *ui_signals(size_t *n)
{
	*n = UI_NSIGNALS;
	return UI_SIGNALS;
}

const char *ui_signal_name(int num)
{
	for (size_t i = 0; i < UI_NSIGNALS; i++)
		if (UI_SIGNALS[i].num == num)
			return UI_SIGNALS[i].name;
	return NULL;
}

/* The chosen signal: the number typed, else the highlighted entry. */
static int ui_signal_chosen(const struct ui *u)
{
	return u->sig_typed ? u->sig_typed : UI_SIGNALS[u->sig_sel].num;
}

/* Enter in the signal menu: ask before sending. */
static unsigned ui_signal_ask(struct ui *u, const struct model *m)
{
	int sig = ui_signal_chosen(u);
	const char *name = ui_signal_name(sig);
	char what[48], whom[96];

	if (sig < 1 || sig > SIGRTMAX) {
		u->prompt = UI_PROMPT_NONE;
		snprintf(u->status, sizeof(u->status), "no signal %d: give a number from 1 to %d",
			 sig, SIGRTMAX);
		return 0;
	}
	if (name)
		snprintf(what, sizeof(what), "SIG%s (%d)", name, sig);
	else
		snprintf(what, sizeof(what), "signal %d", sig);
	if (u->ntargets == 1) {
		const struct model_ident *w = &u->targets[0];
		const char *comm = "";

		for (size_t i = 0; i < m->nrows; i++)
			if (m->rows[i].id == w->id && m->rows[i].start == w->start)
				comm = m->rows[i].comm;
		for (size_t i = 0; !comm[0] && i < m->nthreads; i++)
			if (m->threads[i].id == w->id && m->threads[i].start == w->start)
				comm = m->threads[i].comm;
		snprintf(whom, sizeof(whom), "pid %d%s%.64s%s", w->id, comm[0] ? " (" : "", comm,
			 comm[0] ? ")" : "");
	} else {
		snprintf(whom, sizeof(whom), "%zu tagged processes", u->ntargets);
	}
	snprintf(u->ask, sizeof(u->ask), "send %s to %s? y: send, any other key: cancel", what,
		 whom);
	u->act_signal = sig;
	u->ask_gone = false;
	u->prompt = UI_PROMPT_CONFIRM;
	return 0;
}

/* A key in the signal menu: move, type a number, jump by a letter, Enter, Esc. */
static unsigned ui_signal_key(struct ui *u, int key, const struct model *m)
{
	switch (key) {
	case UI_KEY_ESC:
		u->prompt = UI_PROMPT_NONE;
		return 0;
	case UI_KEY_ENTER:
	case '\r':
		return ui_signal_ask(u, m);
	case UI_KEY_UP:
		u->sig_typed = 0;
		u->sig_sel = u->sig_sel ? u->sig_sel - 1 : UI_NSIGNALS - 1;
		return 0;
	case UI_KEY_DOWN:
		u->sig_typed = 0;
		u->sig_sel = (u->sig_sel + 1) % UI_NSIGNALS;
		return 0;
	case UI_KEY_HOME:
		u->sig_typed = 0;
		u->sig_sel = 0;
		return 0;
	case UI_KEY_END:
		u->sig_typed = 0;
		u->sig_sel = UI_NSIGNALS - 1;
		return 0;
	case UI_KEY_BACKSPACE:
	case 127:
	case 8:
		u->sig_typed /= 10;
		return 0;
	default:
		break;
	}
	if (key >= '0' && key <= '9') {
		if (u->sig_typed < 100)
			u->sig_typed = u->sig_typed * 10 + (key - '0');
		for (size_t i = 0; i < UI_NSIGNALS; i++)
			if (UI_SIGNALS[i].num == u->sig_typed)
				u->sig_sel = i;
		return 0;
	}
	if ((key >= 'a' && key <= 'z') || (key >= 'A' && key <= 'Z')) {
		int up = key & ~0x20;

		/* the next entry whose name starts with the letter, after the highlighted one */
		for (size_t k = 1; k <= UI_NSIGNALS; k++) {
			size_t i = (u->sig_sel + k) % UI_NSIGNALS;

			if (UI_SIGNALS[i].name[0] == up) {
				u->sig_sel = i;
				u->sig_typed = 0;
				break;
			}
		}
	}
	return 0;
}

/*
 * The text of the prompt changed: as in htop, the search goes to the first row that matches
 * what is typed so far, and the filter applies at once (the list is built again before the next
 * key and the next frame).
 */
static void ui_prompt_edited(struct ui *u, const struct ui_list *l)
{
	if (u->prompt == UI_PROMPT_SEARCH) {
		snprintf(u->search, sizeof(u->search), "%s", u->input.text);
		u->search_miss = !ui_search(u, l, 0);
	} else if (u->prompt == UI_PROMPT_FILTER) {
		snprintf(u->filter, sizeof(u->filter), "%s", u->input.text);
	}
}

static unsigned ui_prompt_key(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	if (u->prompt == UI_PROMPT_SIGNAL)
		return ui_signal_key(u, key, m);
	if (u->prompt == UI_PROMPT_SORT)
		return ui_sort_menu_key(u, key, m);
	if (u->prompt == UI_PROMPT_USER)
		return ui_user_menu_key(u, key, m);
	if (u->prompt == UI_PROMPT_CONFIRM) {
		u->prompt = UI_PROMPT_NONE;
		if (u->ask_gone) {
			/* the question says which process exited; the status keeps it */
			snprintf(u->status, sizeof(u->status), "nothing sent: %.140s", u->ask);
			return 0;
		}
		if (key == 'y' || key == 'Y')
			return UI_ACT_SIGNAL;
		snprintf(u->status, sizeof(u->status), "nothing sent");
		return 0;
	}
	if (key == UI_KEY_ESC) {
		/* Esc in the filter gives back the filter it had; the search stays where it went */
		if (u->prompt == UI_PROMPT_FILTER)
			snprintf(u->filter, sizeof(u->filter), "%s", u->filter_prev);
		u->prompt = UI_PROMPT_NONE;
		return 0;
	}
	/* F3 in the search: the next match, the prompt staying open as in htop */
	if (key == UI_KEY_F3 && u->prompt == UI_PROMPT_SEARCH) {
		ui_search_next(u, l);
		u->status[0] = '\0';
		return 0;
	}
	if (key == UI_KEY_F4 && u->prompt == UI_PROMPT_FILTER)
		return ui_commit_prompt(u, l);
	if (key == UI_KEY_ENTER || key == '\r')
		return ui_commit_prompt(u, l);
	if (key == UI_KEY_BACKSPACE || key == 127 || key == 8) {
		if (!prompt_back(&u->input))
			return 0;
	} else if (key < 0 || !prompt_add(&u->input, (uint32_t)key)) {
		return 0; /* an arrow, a function key, a control: nothing typed */
	}
	ui_prompt_edited(u, l);
	return 0;
}

static void ui_start_prompt(struct ui *u, enum ui_prompt p, const char *initial)
{
	u->prompt = p;
	u->search_miss = false;
	prompt_set(&u->input, initial);
	if (p == UI_PROMPT_FILTER)
		snprintf(u->filter_prev, sizeof(u->filter_prev), "%s", u->filter);
}

static void ui_enter_view(struct ui *u, enum ui_view v)
{
	if (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_DRILL || u->view == UI_VIEW_CGROUPS)
		u->back = u->view;
	u->view = v;
	u->scroll = 0;
}

/*
 * The key table: the one definition of every binding, which dispatch, the help screen and the
 * footer all read. A key may be bound in several views to different actions (Esc, Space, h);
 * the first binding for the current view wins. Each view's footer shows its bindings in table
 * order: drill-down keys first, then the list keys, the help and log keys, and quit last.
 */
static const struct ui_binding UI_BINDINGS[] = {
	{ .keys = { UI_KEY_ESC, 'q', UI_KEY_F10 },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_LEAVE,
	  .help = "back to the table (q closes the panel; q on the table quits)",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "Esc",
	  .footer = "Back" },
	{ .keys = { 't' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_DRILL_THREADS,
	  .help = "its threads, counted one by one; again: its hot pages",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "t",
	  .footer = "Threads" },
	{ .keys = { 'm' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_DRILL_MAPPINGS,
	  .help = "samples grouped per mapping; again: per page",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "m",
	  .footer = "Mappings" },
	{ .keys = { '+', '-' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_PERIOD,
	  .help = "double or halve the sample period",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "+-",
	  .footer = "Period" },
	{ .keys = { '[', ']' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_HALFLIFE,
	  .help = "halve or double the histogram's half-life",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "[]",
	  .footer = "Half-life" },
	{ .keys = { 'g' },
	  .in = UI_IN(UI_VIEW_DRILL),
	  .what = UI_DO_PAGE_SIZE,
	  .help = "4 KiB or 2 MiB pages",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "g",
	  .footer = "PageSize" },

	{ .keys = { UI_KEY_UP, UI_KEY_DOWN, UI_KEY_PGUP, UI_KEY_PGDN, UI_KEY_HOME, UI_KEY_END },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_MOVE,
	  .help = "move the selection (it follows its process, or its hot page)" },
	{ .keys = { 'h', '?', UI_KEY_F1 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_HELP,
	  .help = "this help: every key and column",
	  .footer_in = UI_IN_LISTS,
	  .footer_key = "F1",
	  .footer = "Help" },
	{ .keys = { UI_KEY_F2, 'S' },
	  .in = UI_IN_ALL,
	  .what = UI_DO_SETUP,
	  .help = "setup: choose and order the columns, the meters, the colours",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "F2",
	  .footer = "Setup" },
	{ .keys = { UI_KEY_ENTER, '\r' },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_DRILL,
	  .help = "drill into the selected process: its hot pages (sampled) and threads",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "Enter",
	  .footer = "Drill" },
	{ .keys = { UI_KEY_ENTER, '\r' },
	  .in = UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_CGROUP_DRILL,
	  .help = "the processes of the selected cgroup and those below it (Esc: back)",
	  .footer_in = UI_IN(UI_VIEW_CGROUPS),
	  .footer_key = "Enter",
	  .footer = "Procs" },
	{ .keys = { 'G' },
	  .in = UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_CGROUPS,
	  .help = "cgroups (v2) as rows, counted per cgroup; again: processes",
	  .footer_in = UI_IN(UI_VIEW_CGROUPS),
	  .footer_key = "G",
	  .footer = "Tasks" },
	{ .keys = { '/', UI_KEY_F3 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SEARCH,
	  .help = "search as you type, by name or command line; F3 again: the next match",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "F3",
	  .footer = "Search" },
	{ .keys = { '\\', UI_KEY_F4 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_FILTER,
	  .help = "filter as you type: only processes whose name or command line matches",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "F4",
	  .footer = "Filter" },
	{ .keys = { 't', UI_KEY_F5 },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_TREE,
	  .help = "tree: each process under its parent, siblings in the sort order",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "F5",
	  .footer = "Tree" },
	{ .keys = { UI_KEY_F6 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_MENU,
	  .help = "the sort menu: Up/Down, Enter sorts by the column, Esc closes it",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "F6",
	  .footer = "SortBy" },
	{ .keys = { '<', '>' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_CYCLE,
	  .help = "sort by the previous or next column (scrolled into view)" },
	{ .keys = { UI_KEY_LEFT, UI_KEY_RIGHT },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_HSCROLL,
	  .help = "scroll columns, then command lines sideways (< > mark more)" },
	{ .keys = { 'C' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_CPI,
	  .help = "sort by cycles per instruction (CPI), highest first; again: reverse" },
	{ .keys = { 'P' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_CPU,
	  .help = "sort by %CPU; again: reverse" },
	{ .keys = { 'M' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_MEM,
	  .help = "sort by memory (%MEM, as RES), as top and htop; again: reverse" },
	{ .keys = { 'T' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_TIME,
	  .help = "sort by CPU time (TIME+); again: reverse" },
	{ .keys = { 'N' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SORT_BY,
	  .col = COL_PID,
	  .help = "sort by PID; again: reverse" },
	{ .keys = { 'R', 'I' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_REVERSE,
	  .help = "reverse the sort order" },
	{ .keys = { 'H' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_THREADS,
	  .help = "show threads as rows, each counted on its own" },
	{ .keys = { 'K' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_KTHREADS,
	  .help = "list kernel threads too; counted where kernel mode may be (e: why)" },
	{ .keys = { 'W' },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_PER_USER,
	  .help = "one row per user: totals, ratios from the summed counts" },
	{ .keys = { 'u' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_USER,
	  .help = "show one user's processes: pick from the users (All users: clear)" },
	{ .keys = { 'c' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_CMDLINE,
	  .help = "show command lines instead of names" },
	{ .keys = { '1' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_CPUS,
	  .help = "show or hide the per-core meters" },
	{ .keys = { 'd', 's' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_DELAY,
	  .help = "set the refresh interval in seconds" },
	{ .keys = { 'z', 'Z' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_PAUSE,
	  .help = "pause and resume (the counters keep counting)",
	  .footer_in = UI_IN(UI_VIEW_DRILL),
	  .footer_key = "z",
	  .footer = "Pause" },
	{ .keys = { ' ' },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_TAG,
	  .help = "tag or untag the selected process (marked *) and move down" },
	{ .keys = { 'U' },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_UNTAG,
	  .help = "untag every process" },
	{ .keys = { 'F' },
	  .in = UI_IN(UI_VIEW_TABLE),
	  .what = UI_DO_FOLLOW,
	  .help = "follow the selected process through sorts, filters and H" },
	{ .keys = { 'k', UI_KEY_F9 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SIGNAL,
	  .help = "send a signal to the tagged or selected processes, after asking",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "F9",
	  .footer = "Kill" },
	{ .keys = { UI_KEY_F7, UI_KEY_F8 },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_NICE,
	  .help = "lower or raise the nice value of the tagged or selected process" },
	{ .keys = { UI_KEY_TAB, UI_KEY_BTAB },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_NEXT_SCREEN,
	  .help = "next or previous screen: table, drill-down left open, cgroups" },
	{ .keys = { 'e' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_LOG,
	  .help = "the log: attach failures, permission problems, missing events",
	  .footer_in = UI_IN(UI_VIEW_TABLE),
	  .footer_key = "e",
	  .footer = "Log" },
	{ .keys = { 'E' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_EVENTS,
	  .help = "the events: groups, multiplexing shares, failures and why" },
	{ .keys = { 'j', 'J' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_STEP,
	  .help = "replays: pause and show the next (j) or previous (J) frame" },
	{ .keys = { ':' },
	  .in = UI_IN_LISTS,
	  .what = UI_DO_SEEK,
	  .help = "replays: go to a recorded time, HH:MM:SS or +SECONDS from the start" },
	{ .keys = { UI_KEY_ESC },
	  .in = UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_CLEAR,
	  .help = "clear the filters; in one cgroup's processes: back to the cgroups" },

	{ .keys = { UI_KEY_UP, UI_KEY_DOWN, UI_KEY_PGUP, UI_KEY_PGDN, UI_KEY_HOME, UI_KEY_END },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_SETUP_MOVE,
	  .help = "the entry above or below",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "Up/Dn",
	  .footer = "Select" },
	{ .keys = { UI_KEY_LEFT, UI_KEY_RIGHT, UI_KEY_TAB, UI_KEY_BTAB },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_SETUP_SECTION,
	  .help = "the section to the left or right: columns, meters, colours",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "Tab",
	  .footer = "Section" },
	{ .keys = { ' ', UI_KEY_ENTER, '\r' },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_SETUP_TOGGLE,
	  .help = "show or hide the column or meter; choose the colours (at once)",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "Space",
	  .footer = "Show/Hide" },
	{ .keys = { UI_KEY_F7, '[', UI_KEY_F8, ']' },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_SETUP_ORDER,
	  .help = "move the column up (F7 [) or down (F8 ]) the order",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "F7F8",
	  .footer = "Move" },
	{ .keys = { 'w' },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_SETUP_WRITE,
	  .help = "write the settings file, which pmctop reads at start",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "w",
	  .footer = "Write" },
	{ .keys = { UI_KEY_F10 },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_SETUP_DONE,
	  .help = "write the settings file and leave the setup",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "F10",
	  .footer = "Done" },
	{ .keys = { UI_KEY_ESC, 'q', UI_KEY_F2, 'S' },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_BACK,
	  .help = "leave the setup; its changes stay until pmctop ends (w keeps them)",
	  .footer_in = UI_IN(UI_VIEW_SETUP),
	  .footer_key = "Esc",
	  .footer = "Back" },
	{ .keys = { 'h', '?', UI_KEY_F1 },
	  .in = UI_IN(UI_VIEW_SETUP),
	  .what = UI_DO_HELP,
	  .help = "help" },

	{ .keys = { UI_KEY_ESC, 'q', UI_KEY_F10, 'h', '?', UI_KEY_F1, 'e', 'E' },
	  .in = UI_IN_PAGERS,
	  .what = UI_DO_BACK,
	  .help = "back where you came from",
	  .footer_in = UI_IN_PAGERS,
	  .footer_key = "Esc",
	  .footer = "Back" },
	{ .keys = { UI_KEY_UP, UI_KEY_DOWN, UI_KEY_PGUP, UI_KEY_PGDN, ' ', UI_KEY_HOME },
	  .in = UI_IN_PAGERS,
	  .what = UI_DO_SCROLL,
	  .help = "scroll",
	  .footer_in = UI_IN_PAGERS,
	  .footer_key = "Up/Dn",
	  .footer = "Scroll" },

	{ .keys = { 'q', 'Q', UI_KEY_F10 },
	  .in = UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_CGROUPS),
	  .what = UI_DO_QUIT,
	  .help = "quit (in a panel: q, Esc and F10 close it)",
	  .footer_in = UI_IN(UI_VIEW_TABLE) | UI_IN(UI_VIEW_CGROUPS),
	  .footer_key = "q",
	  .footer = "Quit" },
};

static const struct {
	int key;
	const char *name; /* NULL: an alias the help does not list */
} UI_KEY_NAMES[] = {
	{ UI_KEY_ESC, "Esc" },
	{ UI_KEY_ENTER, "Enter" },
	{ '\r', NULL },
	{ ' ', "Space" },
	{ UI_KEY_UP, "Up" },
	{ UI_KEY_DOWN, "Down" },
	{ UI_KEY_LEFT, "Left" },
	{ UI_KEY_RIGHT, "Right" },
	{ UI_KEY_PGUP, "PgUp" },
	{ UI_KEY_PGDN, "PgDn" },
	{ UI_KEY_HOME, "Home" },
	{ UI_KEY_END, "End" },
	{ UI_KEY_BACKSPACE, "Backspace" },
	{ UI_KEY_F1, "F1" },
	{ UI_KEY_F2, "F2" },
	{ UI_KEY_F6, "F6" },
	{ UI_KEY_F10, "F10" },
	{ UI_KEY_F3, "F3" },
	{ UI_KEY_F4, "F4" },
	{ UI_KEY_F5, "F5" },
	{ UI_KEY_F7, "F7" },
	{ UI_KEY_F8, "F8" },
	{ UI_KEY_F9, "F9" },
	{ UI_KEY_TAB, "Tab" },
	{ UI_KEY_BTAB, "Shift-Tab" },
};

const struct ui_binding *ui_bindings(size_t *n)
{
	*n = sizeof(UI_BINDINGS) / sizeof(UI_BINDINGS[0]);
	return UI_BINDINGS;
}

const struct ui_binding *ui_binding_find(enum ui_view view, int key)
{
	for (size_t i = 0; i < sizeof(UI_BINDINGS) / sizeof(UI_BINDINGS[0]); i++) {
		const struct ui_binding *b = &UI_BINDINGS[i];

		if (!(b->in & UI_IN(view)))
			continue;
		for (size_t k = 0; k < UI_BINDING_KEYS && b->keys[k]; k++)
			if (b->keys[k] == key)
				return b;
	}
	return NULL;
}

bool ui_key_name(int key, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(UI_KEY_NAMES) / sizeof(UI_KEY_NAMES[0]); i++)
		if (UI_KEY_NAMES[i].key == key) {
			snprintf(buf, size, "%s", UI_KEY_NAMES[i].name ? UI_KEY_NAMES[i].name : "");
			return UI_KEY_NAMES[i].name != NULL;
		}
	snprintf(buf, size, "%c", key >= 0x20 && key < 0x7f ? key : '?');
	return true;
}

void ui_binding_keys(const struct ui_binding *b, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < UI_BINDING_KEYS && b->keys[k] && o < size; k++) {
		char name[16];

		if (ui_key_name(b->keys[k], name, sizeof(name)))
			o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? " " : "", name);
	}
}

static void ui_scroll(struct ui *u, int key)
{
	switch (key) {
	case UI_KEY_UP:
		if (u->scroll)
			u->scroll--;
		break;
	case UI_KEY_DOWN:
		u->scroll++;
		break;
	case UI_KEY_PGUP:
		u->scroll = u->scroll > u->page ? u->scroll - u->page : 0;
		break;
	case UI_KEY_HOME:
		u->scroll = 0;
		break;
	default: /* PgDn, Space */
		u->scroll += u->page;
		break;
	}
}

size_t ui_page_index(const struct ui *u, const struct hotpage_entry *v, size_t n)
{
	if (!n || !u->page_chosen)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].page == u->page_sel)
			return i;
	return u->page_idx < n ? u->page_idx : n - 1;
}

size_t ui_page_top(const struct ui *u, size_t sel, size_t n, size_t rows)
{
	size_t top = u->page_top;

	if (!rows)
		return sel;
	if (sel < top)
		top = sel;
	if (sel >= top + rows)
		top = sel - rows + 1;
	if (top + rows > n)
		top = n > rows ? n - rows : 0;
	return top;
}

/* The movement keys on the drill-down's hot pages: the selection, and the rows in view. */
static void ui_page_move(struct ui *u, const struct model *m, int key)
{
	size_t n = 0, page = u->page ? u->page : 1;
	struct hotpage_entry *v = m->hp ? hotpage_sorted(m->hp, &n) : NULL;
	size_t cur = ui_page_index(u, v, n), to = cur;

	if (!n)
		return;
	switch (key) {
	case UI_KEY_UP:
		to = cur ? cur - 1 : 0;
		break;
	case UI_KEY_DOWN:
		to = cur + 1 < n ? cur + 1 : n - 1;
		break;
	case UI_KEY_PGUP:
		to = cur > page ? cur - page : 0;
		break;
	case UI_KEY_PGDN:
		to = cur + page < n ? cur + page : n - 1;
		break;
	case UI_KEY_HOME:
		to = 0;
		break;
	default: /* End */
		to = n - 1;
		break;
	}
	/* Home goes back to following the hottest page, whichever it is */
	u->page_chosen = key != UI_KEY_HOME;
	u->page_sel = v[to].page;
	u->page_idx = to;
	u->page_top = ui_page_top(u, to, n, page);
	free(v);
}

static void ui_move_key(struct ui *u, const struct ui_list *l, int key)
{
	long page = (long)(u->page ? u->page : 1);

	switch (key) {
	case UI_KEY_UP:
		ui_move(u, l, -1);
		break;
	case UI_KEY_DOWN:
		ui_move(u, l, 1);
		break;
	case UI_KEY_PGUP:
		ui_move(u, l, -page);
		break;
	case UI_KEY_PGDN:
		ui_move(u, l, page);
		break;
	case UI_KEY_HOME:
		ui_move(u, l, -(long)l->n);
		break;
	default: /* End */
		ui_move(u, l, (long)l->n);
		break;
	}
}

/* Back to the cgroup view, on the cgroup whose processes were shown. */
static void ui_leave_cgroup(struct ui *u, const struct model *m)
{
	u->sel_id = -1;
	for (size_t i = 0; i < m->ncgroups; i++)
		if (m->cgroups[i].cgroup && !strcmp(m->cgroups[i].cgroup, u->cgroup))
			u->sel_id = m->cgroups[i].id;
	u->sel_pin = true;
	u->cgroup[0] = '\0';
	u->view = UI_VIEW_CGROUPS;
	u->top = 0;
}

bool ui_tagged(const struct ui *u, int id)
{
	for (size_t i = 0; i < u->ntags; i++)
		if (u->tags[i].id == id)
			return true;
	return false;
}

static void ui_tag(struct ui *u, const struct ui_list *l)
{
	int id;

	if (!l->n)
		return;
	id = l->v[u->sel]->id;
	for (size_t i = 0; i < u->ntags; i++)
		if (u->tags[i].id == id) {
			memmove(&u->tags[i], &u->tags[i + 1],
				(u->ntags - i - 1) * sizeof(*u->tags));
			u->ntags--;
			ui_move(u, l, 1);
			return;
		}
	if (u->ntags == UI_MAX_TAGS) {
		snprintf(u->status, sizeof(u->status),
			 "%d processes are tagged, the most there can be: U untags them",
			 UI_MAX_TAGS);
		return;
	}
	u->tags[u->ntags++] = (struct model_ident){ id, l->v[u->sel]->start };
	ui_move(u, l, 1);
}

/* The start time of process pid in m; false when m has no such process. */
static bool ui_process_start(const struct model *m, int pid, unsigned long long *start)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].id == pid) {
			*start = m->rows[i].start;
			return true;
		}
	return false;
}

/*
 * Tags of processes that exited are dropped, never carried over to a newcomer given the pid;
 * the status line names the first. Returns how many were dropped.
 */
static size_t ui_prune_tags(struct ui *u, const struct model *m)
{
	size_t kept = 0, n = u->ntags;

	for (size_t i = 0; i < n; i++) {
		if (!model_ident_check(m, &u->tags[i])) {
			u->tags[kept++] = u->tags[i];
			continue;
		}
		if (kept == i) /* the first one dropped */
			snprintf(u->status, sizeof(u->status),
				 "process %d exited: its tag is dropped", u->tags[i].id);
	}
	u->ntags = kept;
	return n - kept;
}

unsigned ui_prune(struct ui *u, const struct model *m)
{
	unsigned act = 0;
	bool drilled = u->drill_open || u->view == UI_VIEW_DRILL;

	ui_prune_tags(u, m);
	if (drilled && !u->drill_known) {
		/* --drill PID: the process is the one found there first */
		u->drill_known = ui_process_start(m, u->drill, &u->drill_start);
	} else if (drilled &&
		   model_ident_check(m, &(struct model_ident){ u->drill, u->drill_start })) {
		snprintf(u->status, sizeof(u->status),
			 "process %d exited: its drill-down is closed", u->drill);
		u->drill_open = false;
		if (u->view == UI_VIEW_DRILL) {
			u->view = UI_VIEW_TABLE;
			u->sel_id = -1;
			act |= UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		if (u->back == UI_VIEW_DRILL)
			u->back = UI_VIEW_TABLE;
	}
	if (u->prompt != UI_PROMPT_SIGNAL && (u->prompt != UI_PROMPT_CONFIRM || u->ask_gone))
		return act;
	for (size_t i = 0; i < u->ntargets; i++) {
		if (!model_ident_check(m, &u->targets[i]))
			continue;
		/* the question stays, saying so, until a key: y must not send it to a newcomer */
		snprintf(u->ask, sizeof(u->ask),
			 "process %d exited: nothing will be sent (any key)", u->targets[i].id);
		u->ask_gone = true;
		u->prompt = UI_PROMPT_CONFIRM;
		break;
	}
	return act;
}

/*
 * What a signal or nice value goes to: the tagged processes still there, else the selected
 * one. False, with the reason in status, when there is none or the processes are not here.
 */
static bool ui_targets(struct ui *u, const struct model *m, const struct ui_list *l)
{
	/* a cgroup's or a user's row is no process: its id is not a pid to signal */
	if (u->view == UI_VIEW_CGROUPS || (u->per_user && u->view == UI_VIEW_TABLE)) {
		snprintf(u->status, sizeof(u->status),
			 u->view == UI_VIEW_CGROUPS
				 ? "a cgroup is no process: Enter lists its processes"
				 : "a user's totals are no process: W lists the processes");
		return false;
	}
	if (!u->live) {
		snprintf(u->status, sizeof(u->status),
			 "not in a replay: signals and nice values go to live processes only");
		return false;
	}
	/* tags of processes that exited are dropped, so a reused pid is never hit */
	if (ui_prune_tags(u, m) && !u->ntags)
		return false;
	u->ntargets = 0;
	u->act_threads = false;
	if (u->ntags && u->view == UI_VIEW_TABLE) {
		memcpy(u->targets, u->tags, u->ntags * sizeof(*u->tags));
		u->ntargets = u->ntags;
		u->act_threads = u->threads;
	} else if (u->view == UI_VIEW_DRILL && u->drill_mode != UI_DRILL_THREADS) {
		/* the process the pane is about */
		if (!u->drill_known && !ui_process_start(m, u->drill, &u->drill_start)) {
			snprintf(u->status, sizeof(u->status), "process %d is gone", u->drill);
			return false;
		}
		u->drill_known = true;
		u->targets[u->ntargets++] = (struct model_ident){ u->drill, u->drill_start };
	} else if (l->n) {
		u->targets[u->ntargets++] =
			(struct model_ident){ l->v[u->sel]->id, l->v[u->sel]->start };
		u->act_threads = ui_thread_rows(u);
	}
	if (!u->ntargets)
		snprintf(u->status, sizeof(u->status), "no process is selected");
	return u->ntargets > 0;
}

/* The longest text of the rest column in l, in cells (with the tree's indent). */
int ui_text_cells(const struct ui *u, const struct ui_list *l)
{
	int most = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct model_row *r = l->v[i];
		bool cmd = u->cmdline || u->view == UI_VIEW_CGROUPS; /* a cgroup's path */
		const char *t = cmd && r->cmdline[0] ? r->cmdline : r->comm;
		/* the indent as view_tree_prefix draws it, 31 levels at most */
		int cells =
			l->is_tree ? 3 * (int)(l->tree[i].depth < 32 ? l->tree[i].depth : 31) : 0;

		/* in cells, as the canvas draws them: a wide character takes two */
		cells += canvas_cells(t);
		if (cells > most)
			most = cells;
	}
	return most;
}

static void ui_hscroll(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	struct table_layout t;
	int room, text, most;

	if (key == UI_KEY_LEFT) {
		if (u->hscroll > 0)
			u->hscroll--;
		return;
	}
	table_layout(m, u->width, ui_rows(u), u->hscroll, &t);
	room = u->width - t.rest_x;
	text = ui_text_cells(u, l);
	/* past the last column stop, steps of the text while some of it is still cut off */
	most = t.last_col + (text > room ? (text - room + t.text_step - 1) / t.text_step : 0);
	if (u->hscroll < t.last_col)
		u->hscroll = u->hscroll + 1;
	else if (u->hscroll < most)
		u->hscroll++;
}

/*
 * The data screens Tab goes through, in order, and the action that opens each: to add a
 * screen, add a line. Shift-Tab goes backwards. A screen that cannot open is passed over: the
 * drill-down unless one is open (Enter opened it, Esc did not close it: Tab never starts
 * sampling a process), the cgroups where they are not known. Help, the log and the events
 * are no screens of the cycle but pages over one (their keys take them back).
 */
static const struct {
	enum ui_view view;
	enum ui_do open;
} UI_SCREEN_CYCLE[] = {
	{ UI_VIEW_TABLE, UI_DO_TABLE },
	{ UI_VIEW_DRILL, UI_DO_REDRILL },
	{ UI_VIEW_CGROUPS, UI_DO_CGROUPS },
};

#define UI_NSCREENS (sizeof(UI_SCREEN_CYCLE) / sizeof(UI_SCREEN_CYCLE[0]))

static unsigned ui_do(struct ui *u, const struct ui_binding *b, int key, const struct model *m,
		      const struct ui_list *l);

/* The entries of a setup section. */
static size_t ui_setup_entries(enum ui_setup_section s)
{
	return s == UI_SETUP_COLUMNS  ? COL_MAX
	       : s == UI_SETUP_METERS ? UI_METER_MAX
				      : UI_SCHEME_MAX;
}

static void ui_setup_move(struct ui *u, int key)
{
	size_t *sel = &u->setup_sel[u->setup_sec], n = ui_setup_entries(u->setup_sec);

	switch (key) {
	case UI_KEY_UP:
		*sel = *sel ? *sel - 1 : 0;
		break;
	case UI_KEY_DOWN:
		*sel = *sel + 1 < n ? *sel + 1 : n - 1;
		break;
	case UI_KEY_PGUP:
	case UI_KEY_HOME:
		*sel = 0;
		break;
	default: /* PgDn, End */
		*sel = n - 1;
		break;
	}
}

static unsigned ui_setup_toggle(struct ui *u)
{
	size_t sel = u->setup_sel[u->setup_sec];

	switch (u->setup_sec) {
	case UI_SETUP_COLUMNS: {
		int id = u->cols.order[sel];

		if (columns_get(id)->rest) {
			snprintf(u->status, sizeof(u->status),
				 "%s is always shown, last: it takes the rest of the line",
				 columns_get(id)->title);
			return 0;
		}
		u->cols.hidden ^= 1u << id;
		u->hscroll = 0; /* the scroll stops were those of other columns */
		return UI_ACT_COLUMNS;
	}
	case UI_SETUP_METERS:
		if (sel == UI_METER_CPUS)
			u->show_cpus = !u->show_cpus;
		else
			u->meters_off ^= 1u << sel;
		return 0;
	default:
		u->scheme = (enum ui_scheme)sel;
		return UI_ACT_SCHEME;
	}
}

/* F7/F8 in the columns: the highlighted column moves, and the highlight with it. */
static void ui_setup_order(struct ui *u, int dir)
{
	size_t *sel = &u->setup_sel[UI_SETUP_COLUMNS];

	if (u->setup_sec != UI_SETUP_COLUMNS) {
		snprintf(u->status, sizeof(u->status), "only columns have an order: Tab to them");
		return;
	}
	if (columns_choice_move(&u->cols, *sel, dir)) {
		*sel = dir < 0 ? *sel - 1 : *sel + 1;
		u->hscroll = 0;
	} else if (columns_get(u->cols.order[*sel])->rest)
		snprintf(u->status, sizeof(u->status),
			 "%s stays last: it takes the rest of the line",
			 columns_get(u->cols.order[*sel])->title);
}

static unsigned ui_next_screen(struct ui *u, int dir, const struct model *m,
			       const struct ui_list *l)
{
	size_t at = 0;

	for (size_t i = 0; i < UI_NSCREENS; i++)
		if (UI_SCREEN_CYCLE[i].view == u->view)
			at = i;
	for (size_t k = 1; k < UI_NSCREENS; k++) {
		size_t i = (at + (dir > 0 ? k : UI_NSCREENS - k)) % UI_NSCREENS;
		struct ui_binding open = { .what = UI_SCREEN_CYCLE[i].open };
		unsigned act;

		/* the cgroup view only where cgroups are known (not in an older recording) */
		if (UI_SCREEN_CYCLE[i].view == UI_VIEW_CGROUPS && !m->have_cgroups)
			continue;
		act = ui_do(u, &open, 0, m, l);

		if (u->view == UI_SCREEN_CYCLE[i].view)
			return act;
	}
	return 0;
}

/*
 * Whether the rows are a user's totals, whose ids are uids: a tag, a follow, a signal or a nice
 * value given one would reach the process whose pid happens to equal the uid. False, with the
 * reason in status, when they are; what is named is the key's action.
 */
static bool ui_process_rows(struct ui *u, const char *what)
{
	if (u->view == UI_VIEW_CGROUPS) {
		snprintf(u->status, sizeof(u->status),
			 "%s needs processes, not a cgroup: Enter lists its processes", what);
		return false;
	}
	if (!u->per_user || u->view != UI_VIEW_TABLE)
		return true;
	snprintf(u->status, sizeof(u->status),
		 "%s needs processes, not a user's totals: W shows the processes", what);
	return false;
}

static unsigned ui_do(struct ui *u, const struct ui_binding *b, int key, const struct model *m,
		      const struct ui_list *l)
{
	switch (b->what) {
	case UI_DO_QUIT:
		return UI_ACT_QUIT;
	case UI_DO_BACK:
		u->view = u->back;
		return 0;
	case UI_DO_SCROLL:
		ui_scroll(u, key);
		return 0;
	case UI_DO_HELP:
		ui_enter_view(u, UI_VIEW_HELP);
		return 0;
	case UI_DO_LOG:
		ui_enter_view(u, UI_VIEW_ERRORS);
		return 0;
	case UI_DO_EVENTS:
		ui_enter_view(u, UI_VIEW_EVENTS);
		return 0;
	case UI_DO_STEP:
		/* a frame looked at frame by frame holds still */
		u->paused = true;
		u->step = key == 'j' ? 1 : -1;
		return UI_ACT_STEP;
	case UI_DO_SEEK:
		ui_start_prompt(u, UI_PROMPT_TIME, "");
		return 0;
	case UI_DO_MOVE:
		if (u->view == UI_VIEW_DRILL && u->drill_mode == UI_DRILL_PAGES)
			ui_page_move(u, m, key);
		else
			ui_move_key(u, l, key);
		return 0;
	case UI_DO_SORT_CYCLE:
		return ui_cycle_sort(u, m, key == '<' || key == UI_KEY_LEFT ? -1 : 1);
	case UI_DO_SORT_BY:
		return ui_sort_by(u, m, b->col);
	case UI_DO_REVERSE:
		u->reverse = !u->reverse;
		return UI_ACT_SORT;
	case UI_DO_SEARCH:
		ui_start_prompt(u, UI_PROMPT_SEARCH, "");
		return 0;
	case UI_DO_FILTER:
		ui_start_prompt(u, UI_PROMPT_FILTER, u->filter);
		return 0;
	case UI_DO_USER:
		ui_user_menu_open(u, m);
		return 0;
	case UI_DO_DELAY:
		ui_start_prompt(u, UI_PROMPT_DELAY, "");
		return 0;
	case UI_DO_THREADS:
		u->threads = !u->threads;
		if (u->view == UI_VIEW_TABLE)
			u->sel_id = -1;
		return UI_ACT_THREADS;
	case UI_DO_CMDLINE:
		u->cmdline = !u->cmdline;
		return 0;
	case UI_DO_CPUS:
		u->show_cpus = !u->show_cpus;
		return 0;
	case UI_DO_PAUSE:
		u->paused = !u->paused;
		return 0;
	case UI_DO_KTHREADS:
		u->kthreads = !u->kthreads;
		snprintf(u->status, sizeof(u->status), "kernel threads %s",
			 u->kthreads ? "listed (live: from the next tick)" : "hidden");
		return UI_ACT_KTHREADS;
	case UI_DO_PER_USER:
		u->per_user = !u->per_user;
		u->sel_id = -1;
		u->top = 0;
		return 0;
	case UI_DO_DRILL:
		if (u->per_user) {
			snprintf(u->status, sizeof(u->status),
				 "a user's totals have no drill-down: W shows the processes");
			return 0;
		}
		if (!l->n)
			return 0;
		u->drill = l->v[u->sel]->tgid;
		u->drill_known = ui_process_start(m, u->drill, &u->drill_start);
		u->drill_open = true;
		u->view = UI_VIEW_DRILL;
		u->drill_mode = UI_DRILL_PAGES;
		u->sel_id = -1;
		u->top = 0;
		u->page_chosen = false;
		u->page_top = 0;
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_LEAVE:
		u->drill_open = false;
		u->view = UI_VIEW_TABLE;
		u->sel_id = u->drill;
		u->sel_pin = true;
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_TABLE:
		if (u->view == UI_VIEW_DRILL) {
			/* its sampling and thread counts stop; Tab comes back to it */
			u->view = UI_VIEW_TABLE;
			u->sel_id = u->drill;
			u->sel_pin = true;
			return UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		/* from the cgroups, as G goes back: all the processes */
		return ui_do(u, &(struct ui_binding){ .what = UI_DO_CGROUPS }, key, m, l);
	case UI_DO_REDRILL:
		if (!u->drill_open)
			return 0;
		u->view = UI_VIEW_DRILL;
		u->sel_id = -1;
		u->top = 0;
		u->page_chosen = false;
		u->page_top = 0;
		/* its sampling (and thread counts) start again, in the mode it was left in */
		return UI_ACT_THREADS | UI_ACT_SAMPLE;
	case UI_DO_CLEAR:
		if (u->view == UI_VIEW_TABLE && u->cgroup[0]) {
			ui_leave_cgroup(u, m);
			return 0;
		}
		/* Esc on the table clears the filters, as in htop */
		u->filter[0] = '\0';
		u->user[0] = '\0';
		return 0;
	case UI_DO_CGROUPS:
		if (u->view == UI_VIEW_CGROUPS) {
			u->view = UI_VIEW_TABLE;
			u->cgroup[0] = '\0';
			u->sel_id = -1;
			u->top = 0;
			return 0;
		}
		/* G says "again: processes": the per-user totals end here, as W would end them */
		u->per_user = false;
		if (u->view == UI_VIEW_DRILL) {
			/* Tab from the drill-down: its sampling and thread counts stop */
			ui_leave_cgroup(u, m);
			return UI_ACT_THREADS | UI_ACT_SAMPLE;
		}
		ui_leave_cgroup(u, m);
		return 0;
	case UI_DO_CGROUP_DRILL:
		if (!l->n)
			return 0;
		snprintf(u->cgroup, sizeof(u->cgroup), "%s",
			 l->v[u->sel]->cgroup ? l->v[u->sel]->cgroup : "/");
		u->view = UI_VIEW_TABLE;
		u->sel_id = -1;
		u->top = 0;
		return 0;
	case UI_DO_DRILL_THREADS:
		u->drill_mode =
			u->drill_mode == UI_DRILL_THREADS ? UI_DRILL_PAGES : UI_DRILL_THREADS;
		return 0;
	case UI_DO_DRILL_MAPPINGS:
		u->drill_mode =
			u->drill_mode == UI_DRILL_MAPPINGS ? UI_DRILL_PAGES : UI_DRILL_MAPPINGS;
		return 0;
	case UI_DO_PERIOD:
		if (!u->sample_period)
			u->sample_period = u->sample_default;
		if (key == '+' && u->sample_period < 1000000000ull / 2)
			u->sample_period *= 2;
		else if (key == '-' && u->sample_period > 1)
			u->sample_period /= 2;
		snprintf(u->status, sizeof(u->status), "sample period %llu", u->sample_period);
		return UI_ACT_SAMPLE;
	case UI_DO_HALFLIFE:
		if (key == ']' && u->halflife < 3600)
			u->halflife *= 2;
		else if (key == '[' && u->halflife > 0.125)
			u->halflife /= 2;
		snprintf(u->status, sizeof(u->status), "half-life %.3g s", u->halflife);
		return UI_ACT_HISTOGRAM;
	case UI_DO_PAGE_SIZE:
		u->page_shift = u->page_shift == 12 ? 21 : 12;
		u->page_chosen = false;
		snprintf(u->status, sizeof(u->status), "%s pages: the histogram starts afresh",
			 u->page_shift == 12 ? "4 KiB" : "2 MiB");
		return UI_ACT_HISTOGRAM;
	case UI_DO_HSCROLL:
		ui_hscroll(u, key, m, l);
		return 0;
	case UI_DO_TREE:
		u->tree = !u->tree;
		return 0;
	case UI_DO_FOLLOW:
		if (!ui_process_rows(u, "following"))
			return 0;
		if (u->follow) {
			u->follow = false;
			snprintf(u->status, sizeof(u->status), "no longer following pid %d",
				 u->follow_id);
		} else if (l->n) {
			u->follow = true;
			u->follow_id = l->v[u->sel]->id;
		}
		return 0;
	case UI_DO_TAG:
		if (ui_process_rows(u, "tagging"))
			ui_tag(u, l);
		return 0;
	case UI_DO_UNTAG:
		u->ntags = 0;
		return 0;
	case UI_DO_SIGNAL:
		if (!ui_process_rows(u, "a signal") || !ui_targets(u, m, l))
			return 0;
		u->prompt = UI_PROMPT_SIGNAL;
		u->sig_sel = 0;
		u->sig_typed = 0;
		return 0;
	case UI_DO_NICE:
		if (!ui_process_rows(u, "a nice value") || !ui_targets(u, m, l))
			return 0;
		u->act_nice = key == UI_KEY_F7 ? -1 : 1;
		return UI_ACT_NICE;
	case UI_DO_NEXT_SCREEN:
		return ui_next_screen(u, key == UI_KEY_BTAB ? -1 : 1, m, l);
	case UI_DO_SETUP:
		ui_enter_view(u, UI_VIEW_SETUP);
		return 0;
	case UI_DO_SETUP_MOVE:
		ui_setup_move(u, key);
		return 0;
	case UI_DO_SETUP_SECTION:
		u->setup_sec = (u->setup_sec +
				(key == UI_KEY_LEFT || key == UI_KEY_BTAB ? UI_SETUP_MAX - 1 : 1)) %
			       UI_SETUP_MAX;
		return 0;
	case UI_DO_SETUP_TOGGLE:
		return ui_setup_toggle(u);
	case UI_DO_SETUP_ORDER:
		ui_setup_order(u, key == UI_KEY_F7 || key == '[' ? -1 : 1);
		return UI_ACT_COLUMNS;
	case UI_DO_SETUP_WRITE:
		return UI_ACT_WRITE;
	case UI_DO_SETUP_DONE:
		u->view = u->back;
		return UI_ACT_WRITE;
	case UI_DO_SORT_MENU:
		ui_sort_menu_open(u, m);
		return 0;
	}
	return 0;
}

unsigned ui_click(struct ui *u, int x, int y, const struct model *m, const struct ui_list *l)
{
	struct table_layout t;
	int col;

	u->status[0] = '\0';
	/* a prompt or menu waits for its keys; only lists have titles and rows to click */
	if (u->prompt != UI_PROMPT_NONE || u->list_y < 0 || y < u->list_y ||
	    !(UI_IN(u->view) & UI_IN_LISTS))
		return 0;
	table_layout(m, u->width, ui_rows(u), u->hscroll, &t);
	if (y > u->list_y) {
		size_t line = (size_t)(y - u->list_y - 1), row = u->top + line;

		/* only the rows on screen: not the footer under a long list */
		if (line < u->page && row < l->n) {
			u->follow = false;
			u->sel = row;
			u->sel_id = l->v[row]->id;
			ui_sync(u, l);
		}
		return 0;
	}
	/* the scroll marks at the ends of the title line scroll */
	if (x == 0 && t.more_left) {
		ui_hscroll(u, UI_KEY_LEFT, m, l);
		return 0;
	}
	if (x == u->width - 1 && t.more_right) {
		ui_hscroll(u, UI_KEY_RIGHT, m, l);
		return 0;
	}
	col = table_column_at(&t, x);
	return col < 0 ? 0 : ui_sort_by(u, m, col);
}

unsigned ui_key(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	const struct ui_binding *b;

	u->status[0] = '\0';
	if (u->prompt != UI_PROMPT_NONE)
		return ui_prompt_key(u, key, m, l);
	b = ui_binding_find(u->view, key);
	if (b)
		return ui_do(u, b, key, m, l);
	if ((UI_IN(u->view) & (UI_IN_LISTS | UI_IN(UI_VIEW_SETUP))) && key >= 0x20 && key < 0x7f)
		snprintf(u->status, sizeof(u->status), "unknown key '%c': press h for help", key);
	return 0;
}
