/* Tests of the interactive state: selection follows its process, sort keys, prompts, views. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "stream/source_replay.h"
#include "testutil.h"
#include "view/table.h"
#include "view/ui.h"

static struct model *m;
static struct source *src;

/* The model after the hand-made recording's last tick. */
static void setup(void)
{
	m = testutil_replay_model("hw.rec", &src);
}

static void teardown(void)
{
	model_free(m);
	source_free(src);
}

static void list_ids(const struct ui_list *l, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%d ", l->v[i]->id);
}

/* Press key and rebuild the list as the loop does. */
static unsigned press(struct ui *u, struct ui_list *l, int key)
{
	unsigned act;

	list_build(u, m, l);
	act = ui_key(u, key, m, l);
	if (act & UI_ACT_SORT)
		model_sort(m, u->sort_col, u->reverse);
	list_build(u, m, l);
	list_sync(u, l);
	return act;
}

static void type(struct ui *u, struct ui_list *l, const char *text)
{
	for (; *text; text++)
		press(u, l, *text);
}

/*
 * As in htop: the selection keeps its line and the rows move under it when they reorder (a
 * selection that chased its process would scroll the busiest rows off the screen); F follows
 * the selected process instead.
 */
START_TEST(test_selection_keeps_its_line_as_rows_reorder)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 101 505 303 404 ");
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_int_eq(u.sel_id, 101);
	ck_assert_uint_eq(press(&u, &l, 'C'), UI_ACT_SORT);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 505 101 303 404 ");
	/* the bar stays on the second line; 505 moved under it */
	ck_assert_uint_eq(u.sel, 1);
	ck_assert_int_eq(u.sel_id, 505);
	/* a new tick that reorders the rows: the same */
	model_sort(m, COL_CPU, true);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	ck_assert_uint_eq(u.sel, 1);
	ck_assert_int_eq(u.sel_id, l.v[1]->id);
	press(&u, &l, UI_KEY_END);
	ck_assert_int_eq(u.sel_id, l.v[l.n - 1]->id);
	press(&u, &l, UI_KEY_HOME);
	ck_assert_uint_eq(u.sel, 0);
	press(&u, &l, UI_KEY_UP);
	ck_assert_uint_eq(u.sel, 0);
	/* F: the selection follows 101 wherever the rows put it */
	model_sort(m, COL_CPU, false);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_int_eq(u.sel_id, 101);
	press(&u, &l, 'F');
	ck_assert(u.follow);
	u.sort_col = COL_CPU;
	u.reverse = false;
	press(&u, &l, 'C');
	ck_assert_uint_eq(u.sel, 2);
	ck_assert_int_eq(u.sel_id, 101);
	press(&u, &l, 'R');
	ck_assert_uint_eq(u.sel, 0);
	ck_assert_int_eq(u.sel_id, 101);
	/* F again: no longer, the bar keeps its line */
	press(&u, &l, 'F');
	ck_assert(!u.follow);
	press(&u, &l, 'R');
	ck_assert_uint_eq(u.sel, 0);
	ck_assert_int_eq(u.sel_id, 202);
	list_release(&l);
}
END_TEST

START_TEST(test_sort_keys)
{
	struct ui u;
	struct ui_list l = { 0 };
	int cols[COL_MAX + 64];
	size_t n;

	ui_init(&u, COL_CPU, false, 1.0);
	/* top's and htop's letters: M memory, T TIME+, N PID, P %CPU */
	press(&u, &l, 'M');
	ck_assert_int_eq(u.sort_col, COL_MEM);
	press(&u, &l, 'T');
	ck_assert_int_eq(u.sort_col, COL_TIME);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE); /* not the replay's Go to */
	press(&u, &l, 'N');
	ck_assert_int_eq(u.sort_col, COL_PID);
	press(&u, &l, 'P');
	ck_assert_int_eq(u.sort_col, COL_CPU);
	ck_assert(!u.reverse);
	press(&u, &l, 'P');
	ck_assert(u.reverse); /* the same key again flips the order */
	press(&u, &l, '>');
	ck_assert_int_eq(u.sort_col, COL_GHZ);
	ck_assert(!u.reverse);
	press(&u, &l, '<');
	press(&u, &l, '<');
	ck_assert_int_eq(u.sort_col, COL_TIME); /* /proc's columns sort too */
	/* cycling wraps from the first column to the last */
	u.sort_col = COL_PID;
	press(&u, &l, '<');
	ck_assert_int_eq(u.sort_col, COL_COMMAND);
	/* ':' asks for the replay's time to go to */
	press(&u, &l, ':');
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_TIME);
	press(&u, &l, UI_KEY_ESC);

	/* F6: a menu of the columns, on the one sorted by; Up/Down and Enter sort */
	u.sort_col = COL_CPU;
	n = sortmenu_entries(&u, m, cols, sizeof(cols) / sizeof(cols[0]));
	ck_assert_uint_gt(n, 3);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F6), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_SORT);
	ck_assert_int_eq(cols[u.sort.sel], COL_CPU);
	ck_assert_int_eq(u.sort_col, COL_CPU); /* nothing changes until Enter */
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_int_eq(cols[u.sort.sel], COL_GHZ);
	ck_assert_int_eq(u.sort_col, COL_CPU);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_SORT);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_int_eq(u.sort_col, COL_GHZ);
	/* keys in the menu are the menu's: q closes it, pmctop goes on */
	press(&u, &l, UI_KEY_F6);
	press(&u, &l, UI_KEY_HOME);
	ck_assert_int_eq(cols[u.sort.sel], cols[0]);
	press(&u, &l, UI_KEY_UP);
	ck_assert_uint_eq(u.sort.sel, 0);
	press(&u, &l, UI_KEY_END);
	ck_assert_uint_eq(u.sort.sel, n - 1);
	ck_assert_uint_eq(press(&u, &l, 'q'), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_int_eq(u.sort_col, COL_GHZ);
	press(&u, &l, UI_KEY_F6);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ESC), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_int_eq(u.sort_col, COL_GHZ);
	list_release(&l);
}
END_TEST

/*
 * W: one row per user, the totals of the processes the filters leave, sorted
 * like the table; Enter has no drill-down there; W again: the processes.
 */
START_TEST(test_w_shows_per_user_totals)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	ck_assert_uint_eq(press(&u, &l, 'W'), 0);
	ck_assert(u.per_user);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "1000 1001 1002 0 "); /* alice 100 %, bob 95 %, carol, root */
	ck_assert_int_eq(l.v[0]->procs, 2);
	ck_assert_str_eq(l.v[0]->user, "alice");
	ck_assert(l.v[0]->v[COL_IPC] > 1.96 && l.v[0]->v[COL_IPC] < 1.97);
	ck_assert_int_eq(l.v[3]->err, -EACCES);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_int_eq(u.sel_id, 1001);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_ptr_nonnull(strstr(u.status, "W shows the processes"));
	/* the filters apply to the processes summed */
	type(&u, &l, "\\db\n");
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "1000 ");
	ck_assert_int_eq(l.v[0]->procs, 1);
	press(&u, &l, UI_KEY_ESC);
	press(&u, &l, 'W');
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 101 505 303 404 ");
	list_release(&l);
}
END_TEST

/*
 * A user's row carries a uid: Space, F, k/F9 and F7/F8 on it would reach the process whose pid
 * equals the uid. They are refused with the reason; on process rows they work again.
 */
START_TEST(test_per_user_rows_take_no_process_keys)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	u.live = true;
	model_sort(m, COL_CPU, false);
	press(&u, &l, 'W');
	ck_assert_int_eq(u.sel_id, 1000); /* alice's totals */
	press(&u, &l, ' ');
	ck_assert_uint_eq(u.tags.n, 0);
	ck_assert_ptr_nonnull(strstr(u.status, "tagging needs processes"));
	press(&u, &l, 'F');
	ck_assert(!u.follow);
	ck_assert_ptr_nonnull(strstr(u.status, "following needs processes"));
	ck_assert_uint_eq(press(&u, &l, 'k'), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_uint_eq(u.tags.ntargets, 0);
	ck_assert_ptr_nonnull(strstr(u.status, "a signal needs processes"));
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F8), 0);
	ck_assert_uint_eq(u.tags.ntargets, 0);
	ck_assert_ptr_nonnull(strstr(u.status, "W shows the processes"));
	/* tags of processes made before W are not sent to from the users' rows either */
	press(&u, &l, 'W');
	press(&u, &l, UI_KEY_HOME);
	press(&u, &l, ' ');
	ck_assert(tags_has(&u, 202));
	press(&u, &l, 'W');
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F9), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	/* the processes again: the same keys work */
	press(&u, &l, 'W');
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F7), UI_ACT_NICE);
	ck_assert_int_eq(u.tags.targets[0].id, 202);
	press(&u, &l, 'F');
	ck_assert(u.follow);
	list_release(&l);
}
END_TEST

/* The model of the recording's last tick again, kept while its filter lets kernel threads in. */
static void b_update_last(struct model *bm)
{
	struct snapshot s;

	snapshot_init(&s, 0);
	snapshot_copy(&s, &bm->prev);
	s.t_ns = bm->prev.t_ns + 1000000000ull; /* one more second, the same counts */
	model_update(bm, &s);
	snapshot_release(&s);
}

/* K lists kernel threads at once in the list (the loop tells the source); again hides them. */
START_TEST(test_k_toggles_kernel_threads)
{
	struct ui u;
	struct ui_list l = { 0 };

	char ids[64];

	/* the screen's model keeps them (the source decides what it gives); the list filters */
	m->filter.kthreads = true;
	b_update_last(m);
	ui_init(&u, COL_PID, false, 1.0);
	model_sort(m, COL_PID, false);
	list_build(&u, m, &l);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 202 303 404 505 ");
	ck_assert_uint_eq(press(&u, &l, 'K'), UI_ACT_KTHREADS);
	ck_assert(u.kthreads);
	ck_assert_ptr_nonnull(strstr(u.status, "kernel threads listed"));
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "2 101 202 303 404 505 "); /* at once, without a new tick */
	ck_assert_uint_eq(press(&u, &l, 'K'), UI_ACT_KTHREADS);
	ck_assert(!u.kthreads);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 202 303 404 505 ");
	list_release(&l);
}
END_TEST

START_TEST(test_cpi_sort_refused_without_hardware_columns)
{
	struct ui u;
	struct ui_list l = { 0 };
	struct evlist ev;
	struct model *sw;

	evlist_init(&ev);
	evlist_add_defaults(&ev, false);
	sw = model_new(&ev);
	ui_init(&u, COL_CPU, false, 1.0);
	ck_assert_uint_eq(ui_key(&u, 'C', sw, &l), 0);
	ck_assert_int_eq(u.sort_col, COL_CPU);
	ck_assert_ptr_nonnull(strstr(u.status, "needs hardware counters"));
	model_free(sw);
	evlist_release(&ev);
}
END_TEST

START_TEST(test_filter_search_and_user_prompts)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	press(&u, &l, '\\');
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_FILTER);
	type(&u, &l, "DB-");
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 "); /* case-insensitive */
	press(&u, &l, UI_KEY_ESC);
	ck_assert_uint_eq(l.n, 5);
	/* the command line matches too */
	press(&u, &l, '\\');
	type(&u, &l, "100000000");
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 ");
	press(&u, &l, '\\');
	while (u.input.line.len)
		press(&u, &l, UI_KEY_BACKSPACE);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_uint_eq(l.n, 5);
	/* u picks from the users: alice (two processes) first, then bob */
	press(&u, &l, 'u');
	press(&u, &l, UI_KEY_DOWN);
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 505 ");
	press(&u, &l, 'u');
	press(&u, &l, UI_KEY_DOWN);
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 ");
	press(&u, &l, 'u');
	press(&u, &l, UI_KEY_HOME);
	press(&u, &l, UI_KEY_ENTER);
	/* search moves the selection and wraps; a miss says so */
	press(&u, &l, '/');
	type(&u, &l, "idle");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.sel_id, 303);
	/* the search goes as typed: "n" is in 202's command line, "no" in nothing: it stays */
	press(&u, &l, '/');
	type(&u, &l, "nothing-like-it");
	ck_assert(u.input.search_miss);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.sel_id, 202);
	ck_assert_ptr_nonnull(strstr(u.status, "no process matches 'nothing-like-it'"));
	/* Esc in a prompt cancels it */
	press(&u, &l, '\\');
	type(&u, &l, "zzz");
	press(&u, &l, UI_KEY_ESC);
	ck_assert_uint_eq(l.n, 5);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	list_release(&l);
}
END_TEST

/*
 * As in htop, the filter applies with each key typed and the search goes to the first row that
 * matches what is typed so far; Esc in the filter gives back the filter it had, Enter keeps it.
 */
START_TEST(test_filter_and_search_go_as_typed)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	press(&u, &l, '\\');
	press(&u, &l, 'd');
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 303 "); /* db-server, idle-daemon */
	press(&u, &l, 'b');
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 ");
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_FILTER);
	press(&u, &l, UI_KEY_BACKSPACE);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 303 ");
	/* Esc: the filter before the prompt, here none */
	press(&u, &l, UI_KEY_ESC);
	ck_assert_str_eq(u.filter, "");
	ck_assert_uint_eq(l.n, 5);
	/* Enter keeps what was typed; a later prompt's Esc goes back to it */
	press(&u, &l, '\\');
	type(&u, &l, "idle");
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "303 ");
	press(&u, &l, '\\');
	press(&u, &l, UI_KEY_BACKSPACE);
	press(&u, &l, UI_KEY_BACKSPACE);
	press(&u, &l, UI_KEY_BACKSPACE);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 303 ");
	press(&u, &l, UI_KEY_ESC);
	ck_assert_str_eq(u.filter, "idle");
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "303 ");
	press(&u, &l, UI_KEY_ESC); /* on the table: clears the filters */
	/* the search jumps with each key, before Enter */
	press(&u, &l, '/');
	press(&u, &l, 'i');
	ck_assert_int_eq(u.sel_id, 101); /* "/usr/bin/db-server" */
	press(&u, &l, 'd');
	ck_assert_int_eq(u.sel_id, 303);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_SEARCH);
	ck_assert(!u.input.search_miss);
	press(&u, &l, 'z');
	ck_assert(u.input.search_miss);
	ck_assert_int_eq(u.sel_id, 303);
	press(&u, &l, UI_KEY_BACKSPACE);
	ck_assert(!u.input.search_miss);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_int_eq(u.sel_id, 303);
	ck_assert_str_eq(u.status, "");
	list_release(&l);
}
END_TEST

/* Keys are code points: CJK and emoji names are found and filtered, a character at a time. */
START_TEST(test_filter_and_search_take_utf8)
{
	struct source *wsrc;
	struct model *wm = testutil_replay_model("wide.rec", &wsrc);
	struct model *keep = m;
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	m = wm;
	ui_init(&u, COL_PID, false, 1.0);
	model_sort(m, COL_PID, false);
	press(&u, &l, '\\');
	press(&u, &l, 0x65b0); /* 新 of 新しいdaemon */
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "303 ");
	ck_assert_str_eq(u.filter, "\xe6\x96\xb0");
	/* Backspace takes its three bytes at once: every process again */
	press(&u, &l, UI_KEY_BACKSPACE);
	ck_assert_str_eq(u.filter, "");
	ck_assert_uint_eq(l.n, 5);
	press(&u, &l, 0x6570); /* 数据 of 数据库 */
	press(&u, &l, 0x636e);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 ");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_str_eq(u.filter, "\xe6\x95\xb0\xe6\x8d\xae");
	press(&u, &l, UI_KEY_ESC);
	/* the search, with a 4-byte emoji */
	press(&u, &l, '/');
	press(&u, &l, 0x1f600);
	ck_assert_int_eq(u.sel_id, 202);
	ck_assert(!u.input.search_miss);
	/* pmctop's own key codes are above Unicode: an arrow types nothing */
	press(&u, &l, UI_KEY_UP);
	ck_assert_str_eq(u.input.line.text, "\xf0\x9f\x98\x80");
	ck_assert_int_gt(UI_KEY_UP, 0x10ffff);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.sel_id, 202);
	list_release(&l);
	m = keep;
	model_free(wm);
	source_free(wsrc);
}
END_TEST

/* The recording replayed through a model that filters as batch mode does (-u, a name). */
static struct model *batch_model(const char *user, const char *name, struct source **bsrc)
{
	char path[512], err[256];
	struct snapshot snap;
	struct model *bm;
	FILE *f;

	snprintf(path, sizeof(path), "%s/data/hw.rec", TEST_SRCDIR);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	*bsrc = source_replay_new(f, "hw.rec", err, sizeof(err));
	ck_assert_msg(*bsrc != NULL, "%s", err);
	bm = model_new(&(*bsrc)->ev);
	bm->filter.user = user;
	bm->filter.name = name;
	snapshot_init(&snap, (*bsrc)->ev.n);
	while (source_read(*bsrc, &snap) == 0)
		model_update(bm, &snap);
	snapshot_release(&snap);
	return bm;
}

static const struct {
	int line;
	const char *user, *name;
	const char *want;
} FILTERS[] = {
	{ __LINE__, "", "DB-", "101 " },       /* case-insensitive name */
	{ __LINE__, "", "100000000", "202 " }, /* the command line matches too */
	{ __LINE__, "alice", "", "101 505 " },
	{ __LINE__, "1001", "", "202 " }, /* a uid */
	{ __LINE__, "alice", "proc", "505 " },
	{ __LINE__, "nobody", "", "" },
	{ __LINE__, "", "", "101 202 303 404 505 " },
};

/* One filter, owned by the model: the same rows in batch output and on the screen. */
START_TEST(test_filter_same_rows_in_batch_and_screen)
{
	struct source *bsrc;
	struct model *bm = batch_model(FILTERS[_i].user, FILTERS[_i].name, &bsrc);
	struct ui u;
	struct ui_list l = { 0 };
	char batch[128] = "", screen[128];
	size_t o = 0;

	model_sort(bm, COL_PID, false);
	for (size_t i = 0; i < bm->nrows; i++)
		o += (size_t)snprintf(batch + o, sizeof(batch) - o, "%d ", bm->rows[i].id);
	ui_init(&u, COL_PID, false, 1.0);
	model_sort(m, COL_PID, false);
	/* a user as -u names it (u picks from a list: tested on its own) */
	snprintf(u.user, sizeof(u.user), "%s", FILTERS[_i].user);
	press(&u, &l, '\\');
	type(&u, &l, FILTERS[_i].name);
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, screen, sizeof(screen));
	ck_assert_msg(!strcmp(batch, FILTERS[_i].want), "line %d: batch %s", FILTERS[_i].line,
		      batch);
	ck_assert_msg(!strcmp(screen, FILTERS[_i].want), "line %d: screen %s", FILTERS[_i].line,
		      screen);
	list_release(&l);
	model_free(bm);
	source_free(bsrc);
}
END_TEST

START_TEST(test_delay_prompt_validates)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	press(&u, &l, 'd');
	type(&u, &l, "-3");
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), 0);
	ck_assert_ptr_nonnull(strstr(u.status, "invalid delay '-3'"));
	ck_assert(u.delay == 1.0);
	press(&u, &l, 's');
	type(&u, &l, "2.5");
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_DELAY);
	ck_assert(u.delay == 2.5);
	list_release(&l);
}
END_TEST

/* j and J step and pause; T asks for a time, taken as +SECONDS or HH:MM[:SS] and nothing else. */
START_TEST(test_step_and_time_prompt)
{
	static const struct {
		const char *in;
		int ret;
		bool rel;
		double s;
	} CASES[] = {
		{ "+5", 0, true, 5 },
		{ "+0.5", 0, true, 0.5 },
		{ "08:26:43", 0, false, 30403 },
		{ "9:00", 0, false, 32400 },
		{ "23:59:59", 0, false, 86399 },
		{ "24:00", -EINVAL, false, 0 },
		{ "12:60", -EINVAL, false, 0 },
		{ "12:00:60", -EINVAL, false, 0 },
		{ "+", -EINVAL, false, 0 },
		{ "+-3", -EINVAL, false, 0 },
		{ "+inf", -EINVAL, false, 0 },
		{ "+nan", -EINVAL, false, 0 },
		{ "5", -EINVAL, false, 0 },
		{ "12:00:00x", -EINVAL, false, 0 },
		{ " 12:00", -EINVAL, false, 0 },
		{ "123:00", -EINVAL, false, 0 },
		{ "", -EINVAL, false, 0 },
	};
	struct ui u;
	struct ui_list l = { 0 };

	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		bool rel = !CASES[i].rel;
		double sec = -1;

		ck_assert_msg(input_parse_time(CASES[i].in, &rel, &sec) == CASES[i].ret, "'%s'",
			      CASES[i].in);
		if (!CASES[i].ret) {
			ck_assert_msg(rel == CASES[i].rel && sec == CASES[i].s, "'%s': %d %g",
				      CASES[i].in, rel, sec);
		}
	}
	ui_init(&u, COL_CPU, false, 1.0);
	ck_assert_uint_eq(press(&u, &l, 'j'), UI_ACT_STEP);
	ck_assert(u.paused);
	ck_assert_int_eq(u.step, 1);
	ck_assert_uint_eq(press(&u, &l, 'J'), UI_ACT_STEP);
	ck_assert_int_eq(u.step, -1);
	ck_assert(u.paused);
	ck_assert_uint_eq(press(&u, &l, ':'), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_TIME);
	type(&u, &l, "25:00");
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), 0);
	ck_assert_ptr_nonnull(strstr(u.status, "invalid time '25:00'"));
	press(&u, &l, ':');
	type(&u, &l, "+12");
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_SEEK);
	ck_assert(u.seek_rel);
	ck_assert(u.seek_s == 12);
	/* an empty answer goes nowhere */
	press(&u, &l, ':');
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), 0);
	list_release(&l);
}
END_TEST

START_TEST(test_views_enter_and_leave)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_int_eq(u.drill.pid, 101);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "102 103 104 101 ");
	press(&u, &l, 'h');
	ck_assert_int_eq(u.view, UI_VIEW_HELP);
	press(&u, &l, UI_KEY_ESC);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ESC), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_int_eq(u.sel_id, 101); /* back on the process we came from */
	press(&u, &l, 'e');
	ck_assert_int_eq(u.view, UI_VIEW_ERRORS);
	press(&u, &l, 'e');
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_uint_eq(press(&u, &l, 'H'), UI_ACT_THREADS);
	ck_assert(u.threads);
	ck_assert_uint_eq(l.n, 4); /* the recording has thread lines of pid 101 only */
	press(&u, &l, 'z');
	ck_assert(u.paused);
	press(&u, &l, 'Z');
	ck_assert(!u.paused);
	press(&u, &l, '1');
	ck_assert(!u.show_cpus);
	press(&u, &l, 'c');
	ck_assert(u.cmdline);
	ck_assert_uint_eq(press(&u, &l, 'q'), UI_ACT_QUIT);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F10), UI_ACT_QUIT);
	list_release(&l);
}
END_TEST

/* As in htop: q, Esc and F10 close a panel (help, log, events, drill-down); q on the table quits. */
START_TEST(test_q_closes_panels_and_quits_from_the_table)
{
	static const int CLOSE[] = { 'q', UI_KEY_ESC, UI_KEY_F10 };
	static const int OPEN[] = { 'h', 'e', 'E' };
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	for (size_t k = 0; k < 3; k++) {
		for (size_t p = 0; p < 3; p++) {
			press(&u, &l, OPEN[p]);
			ck_assert_int_ne(u.view, UI_VIEW_TABLE);
			ck_assert_uint_eq(press(&u, &l, CLOSE[k]), 0);
			ck_assert_int_eq(u.view, UI_VIEW_TABLE);
		}
		ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_THREADS | UI_ACT_SAMPLE);
		ck_assert_int_eq(u.view, UI_VIEW_DRILL);
		/* help over the drill-down: q back to the drill-down, q again to the table */
		press(&u, &l, 'h');
		ck_assert_uint_eq(press(&u, &l, CLOSE[k]), 0);
		ck_assert_int_eq(u.view, UI_VIEW_DRILL);
		ck_assert_uint_eq(press(&u, &l, CLOSE[k]), UI_ACT_THREADS | UI_ACT_SAMPLE);
		ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	}
	ck_assert_uint_eq(press(&u, &l, 'q'), UI_ACT_QUIT);
	list_release(&l);
}
END_TEST

START_TEST(test_drill_keys)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.drill.pid, 202);
	ck_assert_int_eq(u.drill.mode, UI_DRILL_PAGES);
	press(&u, &l, 'm');
	ck_assert_int_eq(u.drill.mode, UI_DRILL_MAPPINGS);
	press(&u, &l, 'm');
	ck_assert_int_eq(u.drill.mode, UI_DRILL_PAGES);
	press(&u, &l, 't');
	ck_assert_int_eq(u.drill.mode, UI_DRILL_THREADS);
	u.drill.sample_default = 10007;
	ck_assert_uint_eq(press(&u, &l, '+'), UI_ACT_SAMPLE);
	ck_assert_uint_eq(u.drill.sample_period, 20014);
	press(&u, &l, '-');
	press(&u, &l, '-');
	ck_assert_uint_eq(u.drill.sample_period, 5003);
	ck_assert_uint_eq(press(&u, &l, ']'), UI_ACT_HISTOGRAM);
	ck_assert(u.drill.halflife == 4.0);
	press(&u, &l, '[');
	press(&u, &l, '[');
	ck_assert(u.drill.halflife == 1.0);
	ck_assert_uint_eq(press(&u, &l, 'g'), UI_ACT_HISTOGRAM);
	ck_assert_uint_eq(u.drill.page_shift, 21);
	ck_assert_ptr_nonnull(strstr(u.status, "2 MiB pages"));
	press(&u, &l, 'g');
	ck_assert_uint_eq(u.drill.page_shift, 12);
	/* outside the drill-down these keys do nothing of the sort */
	press(&u, &l, UI_KEY_ESC);
	press(&u, &l, 'm');
	ck_assert_ptr_nonnull(strstr(u.status, "unknown key 'm'"));
	list_release(&l);
}
END_TEST

START_TEST(test_paging_keeps_selection_on_screen)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	u.page = 2;
	model_sort(m, COL_PID, false);
	press(&u, &l, UI_KEY_PGDN);
	ck_assert_uint_eq(u.sel, 2);
	ck_assert_uint_eq(u.top, 1);
	press(&u, &l, UI_KEY_END);
	ck_assert_uint_eq(u.sel, 4);
	ck_assert_uint_eq(u.top, 3);
	press(&u, &l, UI_KEY_PGUP);
	ck_assert_uint_eq(u.sel, 2);
	ck_assert_uint_eq(u.top, 2);
	list_release(&l);
}
END_TEST

static const enum ui_view VIEWS[] = { UI_VIEW_TABLE, UI_VIEW_DRILL, UI_VIEW_HELP, UI_VIEW_ERRORS };

/* Put u in view v as the keys would: the drill-down on pid 101, help and the log over it. */
static void enter_view(struct ui *u, struct ui_list *l, enum ui_view v)
{
	ui_init(u, COL_CPU, false, 1.0);
	model_sort(m, COL_PID, false);
	list_build(u, m, l);
	list_sync(u, l);
	if (v != UI_VIEW_TABLE)
		press(u, l, UI_KEY_ENTER);
	if (v == UI_VIEW_HELP)
		press(u, l, 'h');
	if (v == UI_VIEW_ERRORS)
		press(u, l, 'e');
	ck_assert_int_eq(u->view, v);
}

/* No binding hides another: every key of a binding reaches it in every view it claims. */
START_TEST(test_every_binding_reachable)
{
	size_t n;
	const struct ui_binding *b = keys_bindings(&n);

	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(b[i].keys[0] && b[i].help && b[i].in, "binding %zu", i);
		ck_assert_msg(!(b[i].footer_in & ~b[i].in), "%s: a footer where it does nothing",
			      b[i].help);
		ck_assert_msg(!b[i].footer_in == !b[i].footer_key, "%s", b[i].help);
		for (size_t v = 0; v < sizeof(VIEWS) / sizeof(VIEWS[0]); v++) {
			if (!(b[i].in & UI_IN(VIEWS[v])))
				continue;
			for (size_t k = 0; k < UI_BINDING_KEYS && b[i].keys[k]; k++)
				ck_assert_msg(keys_find(VIEWS[v], b[i].keys[k]) == &b[i],
					      "%s: key %d of view %d goes elsewhere", b[i].help,
					      b[i].keys[k], VIEWS[v]);
		}
	}
}
END_TEST

/* Every key the footer shows dispatches, in its view, to what the footer says. */
START_TEST(test_every_footer_key_dispatches)
{
	size_t n;
	const struct ui_binding *b = keys_bindings(&n);

	for (size_t v = 0; v < sizeof(VIEWS) / sizeof(VIEWS[0]); v++) {
		size_t shown = 0;

		for (size_t i = 0; i < n; i++) {
			struct ui u;
			struct ui_list l = { 0 };
			char name[16];
			unsigned act;
			bool changed, named;

			if (!(b[i].footer_in & UI_IN(VIEWS[v])))
				continue;
			shown++;
			/* the footer's short name starts with the name of one of its keys */
			named = false;
			for (size_t k = 0; k < UI_BINDING_KEYS && b[i].keys[k]; k++) {
				keys_name(b[i].keys[k], name, sizeof(name));
				if (!strncmp(b[i].footer_key, name, strlen(name))) {
					named = true;
					ck_assert(keys_find(VIEWS[v], b[i].keys[k]) == &b[i]);
				}
			}
			ck_assert_msg(named, "footer key %s is none of its keys", b[i].footer_key);
			/* one of its keys, at least, does something there */
			changed = false;
			for (size_t k = 0; k < UI_BINDING_KEYS && b[i].keys[k] && !changed; k++) {
				struct ui before;

				enter_view(&u, &l, VIEWS[v]);
				memcpy(&before, &u, sizeof(u));
				act = press(&u, &l, b[i].keys[k]);
				ck_assert_msg(!strstr(u.status, "unknown key"), "%s",
					      b[i].footer_key);
				changed = act || memcmp(&before, &u, sizeof(u));
			}
			ck_assert_msg(changed, "%s does nothing in view %d", b[i].footer_key,
				      VIEWS[v]);
			list_release(&l);
		}
		/* a pager's footer has Back and Scroll: q closes it, it does not quit */
		ck_assert_msg(shown >= ((UI_IN(VIEWS[v]) & UI_IN_PAGERS) ? 2u : 3u),
			      "view %d: a footer of %zu keys", VIEWS[v], shown);
	}
}
END_TEST

/* The man page and the README name every key the program binds. */
static bool doc_has_key(const char *doc, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = doc; (p = strstr(p, name)); p++) {
		bool before = p == doc || strchr(" \t\n\",", p[-1]);
		bool after = strchr(" \t\n\",", p[n]) != NULL;

		if (before && after)
			return true;
	}
	return false;
}

static char *doc_section(const char *file, const char *from, const char *to)
{
	char path[512];
	char *doc, *a, *b;

	snprintf(path, sizeof(path), "%s/../%s", TEST_SRCDIR, file);
	doc = testutil_slurp(path, NULL);
	ck_assert_ptr_nonnull(doc);
	a = strstr(doc, from);
	ck_assert_ptr_nonnull(a);
	b = strstr(a, to);
	ck_assert_ptr_nonnull(b);
	*b = '\0';
	memmove(doc, a, strlen(a) + 1);
	/* roff escapes */
	for (char *p = doc; *p; p++)
		if (p[0] == '\\' && (p[1] == 'e' || p[1] == '-'))
			memmove(p, p + 1, strlen(p + 1) + 1), *p = *p == 'e' ? '\\' : '-';
	return doc;
}

/* G: the cgroups; Enter: one cgroup's processes; Esc: back on that cgroup; G again: all processes. */
START_TEST(test_cgroup_view_keys)
{
	struct model *hw = m;
	struct source *hwsrc = src;
	struct ui u;
	struct ui_list l = { 0 };
	char ids[256];

	m = testutil_replay_model("cgroup.rec", &src);
	ui_init(&u, COL_CPU, false, 1.0);
	list_build(&u, m, &l);
	ck_assert_uint_eq(l.n, 4);
	press(&u, &l, 'G');
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(l.v[0]->cgroup, "/system.slice"); /* busiest first */
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_str_eq(l.v[u.sel]->cgroup, "/system.slice/db.service");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_str_eq(u.cgroup, "/system.slice/db.service");
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 ");
	press(&u, &l, UI_KEY_ESC);
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	ck_assert_str_eq(u.cgroup, "");
	ck_assert_str_eq(l.v[u.sel]->cgroup, "/system.slice/db.service"); /* the selection stays */
	/* the name filter matches paths in the cgroup view; sorting cycles its own columns */
	press(&u, &l, '\\');
	for (const char *p = "user"; *p; p++)
		press(&u, &l, *p);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_uint_eq(l.n, 1);
	for (int i = 0; i < 12; i++) {
		press(&u, &l, '>');
		ck_assert(columns_on_rows(model_column(m, u.sort_col), COL_ROWS_CGROUPS));
	}
	press(&u, &l, UI_KEY_ESC); /* clears the filter */
	ck_assert_uint_eq(l.n, 4);
	press(&u, &l, UI_KEY_ENTER);
	press(&u, &l, 'G'); /* from one cgroup's processes: back to the cgroups */
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	press(&u, &l, 'G');
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_str_eq(u.cgroup, "");
	ck_assert_uint_eq(l.n, 4);
	/* G ends the per-user totals; a cgroup's row takes no signal or nice value */
	press(&u, &l, 'W');
	ck_assert(u.per_user);
	press(&u, &l, 'G');
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	ck_assert(!u.per_user);
	u.live = true;
	press(&u, &l, 'k');
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_ptr_nonnull(strstr(u.status, "a signal needs processes, not a cgroup"));
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F8), 0);
	/* a cgroup's row is no process to tag or follow either (the keys are the table's) */
	press(&u, &l, ' ');
	ck_assert_uint_eq(u.tags.n, 0);
	press(&u, &l, 'F');
	ck_assert(!u.follow);
	press(&u, &l, 'G');
	press(&u, &l, 'W');
	press(&u, &l, UI_KEY_F9);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_ptr_nonnull(strstr(u.status, "needs processes, not a user's totals"));
	press(&u, &l, ' ');
	ck_assert_uint_eq(u.tags.n, 0);
	press(&u, &l, 'W');
	/* Tab: the table and the cgroups (known in this recording); no drill-down is open */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), 0);
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	press(&u, &l, UI_KEY_TAB);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	press(&u, &l, UI_KEY_BTAB);
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	press(&u, &l, UI_KEY_BTAB);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	/* one opened with Enter joins the cycle: the table, the drill-down, the cgroups */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	press(&u, &l, UI_KEY_TAB);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_BTAB), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_BTAB), 0);
	ck_assert_int_eq(u.view, UI_VIEW_CGROUPS);
	list_release(&l);
	model_free(m);
	source_free(src);
	m = hw;
	src = hwsrc;
}
END_TEST

/* F2 and S open the setup; its keys choose, order and hide; Esc, q and F2 leave, F10 saves too. */
START_TEST(test_setup_keys)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F2), 0);
	ck_assert_int_eq(u.view, UI_VIEW_SETUP);
	ck_assert_int_eq(u.setup.sec, UI_SETUP_COLUMNS);
	/* q leaves the setup, as Esc does; it does not quit */
	ck_assert_uint_eq(press(&u, &l, 'q'), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	press(&u, &l, 'S');
	ck_assert_int_eq(u.view, UI_VIEW_SETUP);
	/* the first column goes no higher; F8 moves it down, the highlight with it */
	press(&u, &l, UI_KEY_F7);
	ck_assert_int_eq(u.setup.cols.order[0], COL_PID);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F8), UI_ACT_COLUMNS);
	ck_assert_int_eq(u.setup.cols.order[0], COL_USER);
	ck_assert_int_eq(u.setup.cols.order[1], COL_PID);
	ck_assert_uint_eq(u.setup.sel[UI_SETUP_COLUMNS], 1);
	press(&u, &l, ']');
	ck_assert_int_eq(u.setup.cols.order[2], COL_PID);
	press(&u, &l, '[');
	press(&u, &l, UI_KEY_F7);
	ck_assert_int_eq(u.setup.cols.order[0], COL_PID);
	/* Space hides and shows; COMMAND cannot be hidden or moved */
	press(&u, &l, UI_KEY_DOWN);
	u.hscroll = 3; /* scrolled sideways: the stops change with the columns, back to the start */
	ck_assert_uint_eq(press(&u, &l, ' '), UI_ACT_COLUMNS);
	ck_assert(!columns_choice_shown(&u.setup.cols, COL_USER));
	ck_assert_int_eq(u.hscroll, 0);
	press(&u, &l, UI_KEY_END);
	ck_assert_int_eq(u.setup.cols.order[u.setup.sel[UI_SETUP_COLUMNS]], COL_COMMAND);
	ck_assert_uint_eq(press(&u, &l, ' '), 0);
	ck_assert_ptr_nonnull(strstr(u.status, "COMMAND is always shown"));
	ck_assert(columns_choice_shown(&u.setup.cols, COL_COMMAND));
	press(&u, &l, UI_KEY_F7);
	ck_assert_int_eq(u.setup.cols.order[COL_MAX - 1], COL_COMMAND);
	/* Tab: the meters; Space there hides the CPU meters (as 1 does) and the load */
	press(&u, &l, UI_KEY_TAB);
	ck_assert_int_eq(u.setup.sec, UI_SETUP_METERS);
	press(&u, &l, ' ');
	ck_assert(!u.show_cpus);
	ck_assert(!setup_meter_shown(&u, UI_METER_CPUS));
	press(&u, &l, UI_KEY_DOWN);
	press(&u, &l, UI_KEY_DOWN);
	press(&u, &l, ' ');
	ck_assert(!setup_meter_shown(&u, UI_METER_LOAD));
	ck_assert(setup_meter_shown(&u, UI_METER_UPTIME));
	/* F7 has nothing to order here, and says so */
	press(&u, &l, UI_KEY_F7);
	ck_assert_ptr_nonnull(strstr(u.status, "only columns have an order"));
	/* the colours: Enter chooses */
	press(&u, &l, UI_KEY_RIGHT);
	ck_assert_int_eq(u.setup.sec, UI_SETUP_COLOURS);
	press(&u, &l, UI_KEY_END);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_SCHEME);
	ck_assert_int_eq(u.setup.scheme, UI_SCHEME_LIGHT);
	press(&u, &l, UI_KEY_DOWN); /* the last stays the last */
	ck_assert_uint_eq(u.setup.sel[UI_SETUP_COLOURS], UI_SCHEME_MAX - 1);
	/* round the sections both ways */
	press(&u, &l, UI_KEY_TAB);
	ck_assert_int_eq(u.setup.sec, UI_SETUP_COLUMNS);
	press(&u, &l, UI_KEY_LEFT);
	ck_assert_int_eq(u.setup.sec, UI_SETUP_COLOURS);
	press(&u, &l, UI_KEY_BTAB);
	ck_assert_int_eq(u.setup.sec, UI_SETUP_METERS);
	/* a key the setup does not know says so */
	ck_assert_uint_eq(press(&u, &l, 'x'), 0);
	ck_assert_str_eq(u.status, "unknown key 'x': press h for help");
	ck_assert_int_eq(u.view, UI_VIEW_SETUP);
	/* w asks for the file to be written and stays; F10 writes and leaves */
	ck_assert_uint_eq(press(&u, &l, 'w'), UI_ACT_WRITE);
	ck_assert_int_eq(u.view, UI_VIEW_SETUP);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F10), UI_ACT_WRITE);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	/* F10 on the table still quits */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F10), UI_ACT_QUIT);
	/* from help, F2 opens the setup, and Esc goes back to the table */
	press(&u, &l, 'h');
	press(&u, &l, UI_KEY_F2);
	ck_assert_int_eq(u.view, UI_VIEW_SETUP);
	press(&u, &l, UI_KEY_F2);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	list_release(&l);
}
END_TEST

/* A sort key for a column hidden in the setup sorts by it, and says where it went. */
START_TEST(test_sort_by_a_hidden_column_says_so)
{
	struct ui u;
	struct ui_list l = { 0 };
	char bad[32];

	ui_init(&u, COL_CPU, false, 1.0);
	list_set_screen(&u, 200, 7);
	ck_assert_int_eq(columns_choice_parse(&m->cols, "pid,user,cpu", bad, sizeof(bad)), 0);
	ck_assert_uint_eq(press(&u, &l, 'C'), UI_ACT_SORT);
	ck_assert_int_eq(u.sort_col, COL_CPI);
	ck_assert_ptr_nonnull(strstr(u.status, "sorted by CPI, a column hidden in the setup"));
	/* the sort cycle goes through the shown columns only */
	press(&u, &l, '>');
	ck_assert_int_eq(u.sort_col, COL_PID);
	press(&u, &l, '>');
	ck_assert_int_eq(u.sort_col, COL_USER);
	columns_choice_default(&m->cols);
	list_release(&l);
}
END_TEST

START_TEST(test_docs_name_every_key)
{
	char *man = doc_section("doc/pmctop.1", ".SH KEYS", ".SH COLUMNS");
	char *readme = doc_section("README", "The screen\n", "The samples come from");
	size_t n;
	const struct ui_binding *b = keys_bindings(&n);

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < UI_BINDING_KEYS && b[i].keys[k]; k++) {
			char name[16];

			if (!keys_name(b[i].keys[k], name, sizeof(name)))
				continue;
			ck_assert_msg(doc_has_key(man, name), "pmctop.1 lacks key %s", name);
			ck_assert_msg(doc_has_key(readme, name), "README lacks key %s", name);
		}
	/* Enter opens the drill-down of hot pages, not a list of threads */
	ck_assert_ptr_nonnull(strstr(readme, "Enter        the drill-down"));
	free(man);
	free(readme);
}
END_TEST

/* Left and Right walk the scroll positions and back; a sort key never leaves its column hidden. */
START_TEST(test_sideways_scroll_and_sort_reveal)
{
	struct ui u;
	struct ui_list l = { 0 };
	struct table_layout t;
	int cols[MODEL_MAX_COLS];
	size_t n = sortmenu_sortable(m, cols, MODEL_MAX_COLS);
	int last = 0;

	ui_init(&u, COL_CPU, false, 1.0);
	list_set_screen(&u, 60, 7);
	press(&u, &l, 'c'); /* command lines: "/usr/bin/db-server --port 5432" */
	press(&u, &l, UI_KEY_LEFT);
	ck_assert_int_eq(u.hscroll, 0); /* nothing to the left */
	/* Right until it stops: the column stops, then the command text */
	for (int i = 0; i < 100; i++) {
		press(&u, &l, UI_KEY_RIGHT);
		if (u.hscroll == last)
			break;
		last = u.hscroll;
	}
	table_layout(m, 60, COL_ROWS_PROCESSES, u.hscroll, &t);
	ck_assert(!t.more_right);
	ck_assert(t.more_left);
	ck_assert_int_gt(u.hscroll, t.last_col); /* the command lines are cut at 60 */
	ck_assert_int_gt(t.text_off, 0);
	/* far enough for the end of the longest line, not so far that it is gone */
	ck_assert_int_le(30 - t.text_off, 60 - t.rest_x);
	ck_assert_int_gt(30 - t.text_off, 0);
	while (u.hscroll)
		press(&u, &l, UI_KEY_LEFT);
	table_layout(m, 60, COL_ROWS_PROCESSES, 0, &t);
	ck_assert(!t.more_left && t.more_right);
	/* every sortable column, reached by >, is on screen after the key */
	for (size_t i = 0; i < n + 1; i++) {
		ck_assert_uint_eq(press(&u, &l, '>'), UI_ACT_SORT);
		table_layout(m, 60, COL_ROWS_PROCESSES, u.hscroll, &t);
		ck_assert_msg(table_shows(&t, u.sort_col), "sort column %d hidden at %d",
			      u.sort_col, u.hscroll);
	}
	/* and by the letter keys */
	u.hscroll = 0;
	press(&u, &l, 'M');
	table_layout(m, 60, COL_ROWS_PROCESSES, u.hscroll, &t);
	ck_assert(table_shows(&t, COL_CACHE));
	/* a column that fits no width is named, not sorted by in silence */
	list_set_screen(&u, 12, 7);
	press(&u, &l, 'C');
	ck_assert_int_eq(u.sort_col, COL_CPI);
	ck_assert_ptr_nonnull(strstr(u.status, "sorted by CPI, which does not fit 12 columns"));
	list_release(&l);
}
END_TEST

START_TEST(test_tree_view_orders_children_under_parents)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_PID, false, 1.0);
	model_sort(m, COL_PID, false);
	press(&u, &l, 't');
	ck_assert(u.tree);
	ck_assert(l.is_tree);
	/* 505's parent is 101: it follows it, one level in */
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 505 202 303 404 ");
	ck_assert_uint_eq(l.tree[0].depth, 0);
	ck_assert_uint_eq(l.tree[1].depth, 1);
	ck_assert_uint_eq(l.tree[1].more, 0); /* the last child of 101 */
	/* siblings follow the sort: reversed, the roots turn around */
	press(&u, &l, 'R');
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "404 303 202 101 505 ");
	press(&u, &l, UI_KEY_F5);
	ck_assert(!u.tree);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "505 404 303 202 101 ");
	/* in the drill-down t is still its threads */
	press(&u, &l, UI_KEY_ENTER);
	press(&u, &l, 't');
	ck_assert(!u.tree);
	ck_assert_int_eq(u.drill.mode, UI_DRILL_THREADS);
	list_release(&l);
}
END_TEST

/* A crafted set of rows: a chain, siblings, a row its own parent and a loop of parents. */
START_TEST(test_tree_of_crafted_parents)
{
	static const struct {
		int id, ppid;
	} ROWS[] = { { 1, 0 }, { 2, 1 }, { 3, 2 }, { 4, 1 }, { 5, 6 }, { 6, 5 }, { 7, 7 } };
	struct model_row rows[7];
	struct model fake;
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	memset(&fake, 0, sizeof(fake));
	memset(rows, 0, sizeof(rows));
	for (size_t i = 0; i < 7; i++) {
		rows[i].id = rows[i].tgid = ROWS[i].id;
		rows[i].ppid = ROWS[i].ppid;
		rows[i].cmdline = (char *)"";
	}
	fake.rows = rows;
	fake.nrows = 7;
	ui_init(&u, COL_PID, false, 1.0);
	u.tree = true;
	list_build(&u, &fake, &l);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "1 2 3 4 7 5 6 ");
	ck_assert_uint_eq(l.tree[1].depth, 1);
	ck_assert_uint_eq(l.tree[1].more, 1u << 1); /* 4 comes after 2 under 1 */
	ck_assert_uint_eq(l.tree[2].depth, 2);
	ck_assert_uint_eq(l.tree[2].more, 1u << 1); /* 1's line runs on past 3 */
	ck_assert_uint_eq(l.tree[3].more, 0);
	ck_assert_uint_eq(l.tree[4].depth, 0); /* its own parent: a root */
	ck_assert_uint_eq(l.tree[5].depth, 0); /* the loop starts at its first row */
	ck_assert_uint_eq(l.tree[6].depth, 1);
	list_release(&l);
}
END_TEST

/* A chain of 20000 parents: no recursion to overflow, every row listed once. */
START_TEST(test_tree_of_a_deep_chain)
{
	enum { N = 20000 };
	struct model_row *rows = calloc(N, sizeof(*rows));
	struct model fake;
	struct ui u;
	struct ui_list l = { 0 };

	memset(&fake, 0, sizeof(fake));
	for (int i = 0; i < N; i++) {
		rows[i].id = rows[i].tgid = N - i; /* children listed before their parents */
		rows[i].ppid = N - i - 1;
		rows[i].cmdline = (char *)"";
	}
	fake.rows = rows;
	fake.nrows = N;
	ui_init(&u, COL_PID, false, 1.0);
	u.tree = true;
	list_build(&u, &fake, &l);
	ck_assert_uint_eq(l.n, N);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(l.v[i]->id, i + 1);
		ck_assert_uint_eq(l.tree[i].depth, (unsigned)i);
	}
	list_release(&l);
	free(rows);
}
END_TEST

START_TEST(test_tags_and_follow)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	/* Space tags and moves down; again on a tagged row, untags */
	press(&u, &l, ' ');
	ck_assert(tags_has(&u, 202));
	ck_assert_int_eq(u.sel_id, 101);
	press(&u, &l, ' ');
	ck_assert(tags_has(&u, 101));
	ck_assert_uint_eq(u.tags.n, 2);
	press(&u, &l, UI_KEY_UP);
	press(&u, &l, ' ');
	ck_assert(!tags_has(&u, 101));
	ck_assert_uint_eq(u.tags.n, 1);
	press(&u, &l, 'U');
	ck_assert_uint_eq(u.tags.n, 0);
	ck_assert(!u.paused); /* Space no longer pauses */
	/* F follows 101: a filter that hides it, cleared, brings the selection back */
	press(&u, &l, UI_KEY_HOME);
	press(&u, &l, UI_KEY_DOWN);
	press(&u, &l, 'F');
	ck_assert(u.follow);
	ck_assert_int_eq(u.follow_id, 101);
	press(&u, &l, '\\');
	type(&u, &l, "idle");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.sel_id, 303);
	press(&u, &l, UI_KEY_ESC);
	ck_assert_int_eq(u.sel_id, 101);
	/* threads as rows and back: still on it */
	press(&u, &l, 'H');
	press(&u, &l, 'H');
	ck_assert_int_eq(u.sel_id, 101);
	/* moving by hand ends following */
	press(&u, &l, UI_KEY_DOWN);
	ck_assert(!u.follow);
	press(&u, &l, 'F');
	press(&u, &l, 'F');
	ck_assert(!u.follow);
	ck_assert_ptr_nonnull(strstr(u.status, "no longer following"));
	list_release(&l);
}
END_TEST

/* The signal menu: refused in a replay, then choose, confirm or cancel. */
/*
 * u: htop's list of users, each with its processes among those the other filters leave,
 * the most first and "All users" on top; the keys move; Enter filters, on "All users"
 * clears; Esc leaves the filter as it was.
 */
START_TEST(test_users_menu_lists_and_filters)
{
	struct ui u;
	struct ui_list l = { 0 };
	struct ui_user *users = NULL;
	size_t cap = 0, n;
	char ids[64];

	ui_init(&u, COL_PID, false, 1.0);
	model_sort(m, COL_PID, false);
	n = usermenu_entries(&u, m, &users, &cap);
	ck_assert_uint_eq(n, 5);
	ck_assert_ptr_null(users[0].name);
	ck_assert_uint_eq(users[0].procs, 5);
	ck_assert_str_eq(users[1].name, "alice");
	ck_assert_uint_eq(users[1].procs, 2);
	/* of equal counts, by name */
	ck_assert_str_eq(users[2].name, "bob");
	ck_assert_str_eq(users[3].name, "carol");
	ck_assert_str_eq(users[4].name, "root");
	ck_assert_uint_eq(users[4].procs, 1);
	/* the name filter narrows the users offered; the user filter does not */
	snprintf(u.filter, sizeof(u.filter), "proc");
	snprintf(u.user, sizeof(u.user), "bob");
	n = usermenu_entries(&u, m, &users, &cap);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(users[1].name, "alice");
	ck_assert_uint_eq(users[0].procs, 1);
	free(users);
	u.filter[0] = '\0';
	/* it opens on the user shown */
	press(&u, &l, 'u');
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_USER);
	ck_assert_uint_eq(u.users.sel, 2);
	/* End, PgUp, Up, Home, Down, PgDn: every move stays in the list */
	press(&u, &l, UI_KEY_END);
	ck_assert_uint_eq(u.users.sel, 4);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_uint_eq(u.users.sel, 4);
	press(&u, &l, UI_KEY_PGUP);
	ck_assert_uint_eq(u.users.sel, 0);
	press(&u, &l, UI_KEY_UP);
	ck_assert_uint_eq(u.users.sel, 0);
	press(&u, &l, UI_KEY_PGDN);
	ck_assert_uint_eq(u.users.sel, 4);
	press(&u, &l, UI_KEY_HOME);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_uint_eq(u.users.sel, 1);
	/* Esc: no change, bob's process still the one shown */
	press(&u, &l, UI_KEY_ESC);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_str_eq(u.user, "bob");
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 ");
	/* Enter on carol: hers */
	press(&u, &l, 'u');
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_str_eq(u.user, "carol");
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "303 ");
	/* Enter on "All users": the filter cleared */
	press(&u, &l, 'u');
	press(&u, &l, UI_KEY_HOME);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_str_eq(u.user, "");
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 202 303 404 505 ");
	list_release(&l);
}
END_TEST

START_TEST(test_signal_menu_and_confirmation)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	ck_assert_uint_eq(press(&u, &l, 'k'), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_ptr_nonnull(strstr(u.status, "not in a replay"));
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F7), 0);
	ck_assert_ptr_nonnull(strstr(u.status, "not in a replay"));
	u.live = true;
	/* TERM first; Down goes to KILL; Esc leaves without a word */
	press(&u, &l, UI_KEY_F9);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_SIGNAL);
	ck_assert_int_eq(sigmenu_signals(&(size_t){ 0 })[u.sig.sel].num, SIGTERM);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_int_eq(sigmenu_signals(&(size_t){ 0 })[u.sig.sel].num, SIGKILL);
	press(&u, &l, UI_KEY_ESC);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	/* a letter jumps: U is USR1, again USR2; Enter asks; n cancels */
	press(&u, &l, 'k');
	press(&u, &l, 'u');
	ck_assert_int_eq(sigmenu_signals(&(size_t){ 0 })[u.sig.sel].num, SIGUSR1);
	press(&u, &l, 'U');
	ck_assert_int_eq(sigmenu_signals(&(size_t){ 0 })[u.sig.sel].num, SIGUSR2);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_CONFIRM);
	ck_assert_ptr_nonnull(strstr(u.sig.ask, "send SIGUSR2 (12) to pid 202 (stream)?"));
	ck_assert_uint_eq(press(&u, &l, 'n'), 0);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_str_eq(u.status, "nothing sent");
	/* a number picks by number; y sends to the selected process */
	press(&u, &l, 'k');
	press(&u, &l, '9');
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_ptr_nonnull(strstr(u.sig.ask, "SIGKILL (9)"));
	ck_assert_uint_eq(press(&u, &l, 'y'), UI_ACT_SIGNAL);
	ck_assert_int_eq(u.act_signal, SIGKILL);
	ck_assert_uint_eq(u.tags.ntargets, 1);
	ck_assert_int_eq(u.tags.targets[0].id, 202);
	/* numbers the menu does not list are taken; ones that are no signal are refused */
	press(&u, &l, 'k');
	type(&u, &l, "34");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_ptr_nonnull(strstr(u.sig.ask, "send signal 34 to pid 202"));
	press(&u, &l, UI_KEY_ESC);
	press(&u, &l, 'k');
	type(&u, &l, "999");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_ptr_nonnull(strstr(u.status, "no signal 99"));
	/* tagged processes: all of them, in tagging order */
	press(&u, &l, ' ');
	press(&u, &l, ' ');
	press(&u, &l, 'k');
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_ptr_nonnull(strstr(u.sig.ask, "SIGTERM (15) to 2 tagged processes"));
	ck_assert_uint_eq(press(&u, &l, 'Y'), UI_ACT_SIGNAL);
	ck_assert_uint_eq(u.tags.ntargets, 2);
	ck_assert_int_eq(u.tags.targets[0].id, 202);
	ck_assert_int_eq(u.tags.targets[1].id, 101);
	/* nice: F7 lowers, F8 raises, for the same targets */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F7), UI_ACT_NICE);
	ck_assert_int_eq(u.act_nice, -1);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F8), UI_ACT_NICE);
	ck_assert_int_eq(u.act_nice, 1);
	ck_assert_uint_eq(u.tags.ntargets, 2);
	ck_assert(!u.tags.target_threads);
	list_release(&l);
}
END_TEST

START_TEST(test_f3_finds_the_next_and_f4_filters)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_PID, false, 1.0);
	model_sort(m, COL_PID, false);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	/* "e" is in db-server, idle-daemon, secret and newproc's command line */
	press(&u, &l, UI_KEY_F3);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_SEARCH);
	type(&u, &l, "e");
	press(&u, &l, UI_KEY_F3);
	ck_assert_int_eq(u.sel_id, 202); /* "./stream" */
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_SEARCH);
	press(&u, &l, UI_KEY_F3);
	ck_assert_int_eq(u.sel_id, 303);
	press(&u, &l, UI_KEY_F3);
	ck_assert_int_eq(u.sel_id, 404);
	press(&u, &l, UI_KEY_ESC);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	press(&u, &l, UI_KEY_F4);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_FILTER);
	type(&u, &l, "new");
	press(&u, &l, UI_KEY_F4);
	ck_assert_int_eq(u.input.prompt, UI_PROMPT_NONE);
	ck_assert_uint_eq(l.n, 1);
	list_release(&l);
}
END_TEST

START_TEST(test_tab_cycles_screens)
{
	static const int PAGES[] = { 'h', 'e', 'E' };
	static const enum ui_view PAGE_VIEW[] = { UI_VIEW_HELP, UI_VIEW_ERRORS, UI_VIEW_EVENTS };
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	press(&u, &l, UI_KEY_DOWN);
	/* no drill-down open, no cgroups in this recording: Tab stays, and samples nothing */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_BTAB), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	/* Enter opens one: Tab goes to it and back, its process kept whatever is selected */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ENTER), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_int_eq(u.drill.pid, 101);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_int_eq(u.sel_id, 101);
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_int_eq(u.drill.pid, 101);
	/* in the mode it was left in */
	press(&u, &l, 't');
	ck_assert_int_eq(u.drill.mode, UI_DRILL_THREADS);
	press(&u, &l, UI_KEY_BTAB);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	press(&u, &l, UI_KEY_BTAB);
	ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	ck_assert_int_eq(u.drill.mode, UI_DRILL_THREADS);
	/* help, the log and the events are pages over a screen, not in the cycle: Tab stays */
	for (size_t i = 0; i < 3; i++) {
		press(&u, &l, PAGES[i]);
		ck_assert_int_eq(u.view, PAGE_VIEW[i]);
		ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), 0);
		ck_assert_uint_eq(press(&u, &l, UI_KEY_BTAB), 0);
		ck_assert_int_eq(u.view, PAGE_VIEW[i]);
		press(&u, &l, UI_KEY_ESC);
		ck_assert_int_eq(u.view, UI_VIEW_DRILL);
	}
	/* Esc closes it: Tab stays on the table again */
	ck_assert_uint_eq(press(&u, &l, UI_KEY_ESC), UI_ACT_THREADS | UI_ACT_SAMPLE);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	/* with nothing to drill into, Tab stays on the table */
	press(&u, &l, '\\');
	type(&u, &l, "no-such-process");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_TAB), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	list_release(&l);
}
END_TEST

/* Clicks: a title sorts by its column (again: reverse), a row is selected, marks scroll. */
START_TEST(test_clicks_sort_and_select)
{
	struct ui u;
	struct ui_list l = { 0 };
	struct table_layout t;

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	list_build(&u, m, &l);
	list_sync(&u, &l);
	list_set_screen(&u, 80, 7);
	table_layout(m, 80, COL_ROWS_PROCESSES, 0, &t);
	for (size_t i = 0; i < t.n; i++) {
		ck_assert_uint_eq(ui_click(&u, t.x[i] + t.w[i] - 1, 7, m, &l), UI_ACT_SORT);
		ck_assert_int_eq(u.sort_col, t.ids[i]);
		ck_assert(!u.reverse || t.ids[i] == COL_CPU);
	}
	ui_click(&u, t.rest_x + 2, 7, m, &l);
	ck_assert_int_eq(u.sort_col, COL_COMMAND);
	ck_assert(!u.reverse);
	ui_click(&u, t.rest_x, 7, m, &l);
	ck_assert(u.reverse);
	/* the blank between two columns does nothing */
	ck_assert_uint_eq(ui_click(&u, t.x[1] - 1, 7, m, &l), 0);
	/* rows: the third line under the titles is the third row on screen */
	model_sort(m, COL_CPU, false);
	u.sort_col = COL_CPU;
	u.reverse = false;
	list_build(&u, m, &l);
	ui_click(&u, 10, 10, m, &l);
	ck_assert_int_eq(u.sel_id, 505);
	ck_assert_uint_eq(u.sel, 2);
	ui_click(&u, 10, 20, m, &l); /* below the last row */
	ck_assert_int_eq(u.sel_id, 505);
	u.page = 2; /* two rows on screen: the line under them (the footer) selects nothing */
	ui_click(&u, 10, 10, m, &l);
	ck_assert_int_eq(u.sel_id, 505);
	ui_click(&u, 10, 9, m, &l);
	ck_assert_int_eq(u.sel_id, 101);
	u.page = 10;
	ui_click(&u, 10, 3, m, &l); /* above the list */
	ck_assert_int_eq(u.sel_id, 101);
	/* the > mark scrolls right, the < mark back */
	ck_assert(t.more_right);
	ui_click(&u, 79, 7, m, &l);
	ck_assert_int_eq(u.hscroll, 1);
	ui_click(&u, 0, 7, m, &l);
	ck_assert_int_eq(u.hscroll, 0);
	/* a prompt or a view without a list takes no clicks */
	u.list_y = -1;
	ck_assert_uint_eq(ui_click(&u, 10, 7, m, &l), 0);
	list_release(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ui");
	TCase *tc = tcase_create("keys");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selection_keeps_its_line_as_rows_reorder);
	tcase_add_test(tc, test_sort_keys);
	tcase_add_test(tc, test_w_shows_per_user_totals);
	tcase_add_test(tc, test_per_user_rows_take_no_process_keys);
	tcase_add_test(tc, test_k_toggles_kernel_threads);
	tcase_add_test(tc, test_cpi_sort_refused_without_hardware_columns);
	tcase_add_test(tc, test_filter_search_and_user_prompts);
	tcase_add_test(tc, test_filter_and_search_go_as_typed);
	tcase_add_test(tc, test_filter_and_search_take_utf8);
	tcase_add_loop_test(tc, test_filter_same_rows_in_batch_and_screen, 0,
			    sizeof(FILTERS) / sizeof(FILTERS[0]));
	tcase_add_test(tc, test_delay_prompt_validates);
	tcase_add_test(tc, test_step_and_time_prompt);
	tcase_add_test(tc, test_views_enter_and_leave);
	tcase_add_test(tc, test_q_closes_panels_and_quits_from_the_table);
	tcase_add_test(tc, test_drill_keys);
	tcase_add_test(tc, test_paging_keeps_selection_on_screen);
	tcase_add_test(tc, test_every_binding_reachable);
	tcase_add_test(tc, test_every_footer_key_dispatches);
	tcase_add_test(tc, test_cgroup_view_keys);
	tcase_add_test(tc, test_docs_name_every_key);
	tcase_add_test(tc, test_setup_keys);
	tcase_add_test(tc, test_sort_by_a_hidden_column_says_so);
	tcase_add_test(tc, test_sideways_scroll_and_sort_reveal);
	tcase_add_test(tc, test_tree_view_orders_children_under_parents);
	tcase_add_test(tc, test_tree_of_crafted_parents);
	tcase_add_test(tc, test_tree_of_a_deep_chain);
	tcase_add_test(tc, test_tags_and_follow);
	tcase_add_test(tc, test_signal_menu_and_confirmation);
	tcase_add_test(tc, test_users_menu_lists_and_filters);
	tcase_add_test(tc, test_f3_finds_the_next_and_f4_filters);
	tcase_add_test(tc, test_tab_cycles_screens);
	tcase_add_test(tc, test_clicks_sort_and_select);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
