/* Tests of the interactive state: selection follows its process, sort keys, prompts, views. */
#include "config.h"

#include <check.h>
#include <string.h>

#include "model/model.h"
#include "stream/source_replay.h"
#include "testutil.h"
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

	ui_build_list(u, m, l);
	act = ui_key(u, key, m, l);
	if (act & UI_ACT_SORT)
		model_sort(m, u->sort_col, u->reverse);
	ui_build_list(u, m, l);
	ui_sync(u, l);
	return act;
}

static void type(struct ui *u, struct ui_list *l, const char *text)
{
	for (; *text; text++)
		press(u, l, *text);
}

START_TEST(test_selection_follows_its_process_when_rows_reorder)
{
	struct ui u;
	struct ui_list l = { 0 };
	char ids[64];

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	ui_build_list(&u, m, &l);
	ui_sync(&u, &l);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 101 505 303 404 ");
	press(&u, &l, UI_KEY_DOWN);
	ck_assert_int_eq(u.sel_id, 101);
	ck_assert_uint_eq(press(&u, &l, 'C'), UI_ACT_SORT);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 505 101 303 404 ");
	ck_assert_int_eq(u.sel_id, 101);
	ck_assert_uint_eq(u.sel, 2);
	press(&u, &l, 'R');
	ck_assert_uint_eq(u.sel, 0);
	ck_assert_int_eq(u.sel_id, 101);
	press(&u, &l, UI_KEY_END);
	ck_assert_int_eq(u.sel_id, 404);
	press(&u, &l, UI_KEY_HOME);
	ck_assert_int_eq(u.sel_id, 101);
	press(&u, &l, UI_KEY_UP);
	ck_assert_int_eq(u.sel_id, 101);
	ui_list_release(&l);
}
END_TEST

START_TEST(test_sort_keys)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	press(&u, &l, 'M');
	ck_assert_int_eq(u.sort_col, COL_CACHE);
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
	ck_assert_int_eq(u.sort_col, COL_THR);
	press(&u, &l, UI_KEY_F6);
	ck_assert_int_eq(u.sort_col, COL_CPU);
	/* cycling wraps from the first column to the last */
	u.sort_col = COL_PID;
	press(&u, &l, '<');
	ck_assert_int_eq(u.sort_col, COL_COMMAND);
	ui_list_release(&l);
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
	ck_assert_int_eq(u.prompt, UI_PROMPT_FILTER);
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
	while (u.ninput)
		press(&u, &l, UI_KEY_BACKSPACE);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_uint_eq(l.n, 5);
	press(&u, &l, 'u');
	type(&u, &l, "alice");
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "101 505 ");
	press(&u, &l, 'u');
	while (u.ninput)
		press(&u, &l, UI_KEY_BACKSPACE);
	type(&u, &l, "1001");
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, ids, sizeof(ids));
	ck_assert_str_eq(ids, "202 ");
	press(&u, &l, UI_KEY_ESC);
	/* search moves the selection and wraps; a miss says so */
	press(&u, &l, '/');
	type(&u, &l, "idle");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.sel_id, 303);
	press(&u, &l, '/');
	type(&u, &l, "nothing-like-it");
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.sel_id, 303);
	ck_assert_ptr_nonnull(strstr(u.status, "no process matches 'nothing-like-it'"));
	/* Esc in a prompt cancels it */
	press(&u, &l, '\\');
	type(&u, &l, "zzz");
	press(&u, &l, UI_KEY_ESC);
	ck_assert_uint_eq(l.n, 5);
	ck_assert_int_eq(u.prompt, UI_PROMPT_NONE);
	ui_list_release(&l);
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
	press(&u, &l, 'u');
	type(&u, &l, FILTERS[_i].user);
	press(&u, &l, UI_KEY_ENTER);
	press(&u, &l, '\\');
	type(&u, &l, FILTERS[_i].name);
	press(&u, &l, UI_KEY_ENTER);
	list_ids(&l, screen, sizeof(screen));
	ck_assert_msg(!strcmp(batch, FILTERS[_i].want), "line %d: batch %s", FILTERS[_i].line,
		      batch);
	ck_assert_msg(!strcmp(screen, FILTERS[_i].want), "line %d: screen %s", FILTERS[_i].line,
		      screen);
	ui_list_release(&l);
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
	ui_list_release(&l);
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
	ck_assert_int_eq(u.drill, 101);
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
	press(&u, &l, ' ');
	ck_assert(u.paused);
	press(&u, &l, 'Z');
	ck_assert(!u.paused);
	press(&u, &l, '1');
	ck_assert(!u.show_cpus);
	press(&u, &l, 'c');
	ck_assert(u.cmdline);
	ck_assert_uint_eq(press(&u, &l, 'q'), UI_ACT_QUIT);
	ck_assert_uint_eq(press(&u, &l, UI_KEY_F10), UI_ACT_QUIT);
	ui_list_release(&l);
}
END_TEST

START_TEST(test_drill_keys)
{
	struct ui u;
	struct ui_list l = { 0 };

	ui_init(&u, COL_CPU, false, 1.0);
	model_sort(m, COL_CPU, false);
	press(&u, &l, UI_KEY_ENTER);
	ck_assert_int_eq(u.drill, 202);
	ck_assert_int_eq(u.drill_mode, UI_DRILL_PAGES);
	press(&u, &l, 'm');
	ck_assert_int_eq(u.drill_mode, UI_DRILL_MAPPINGS);
	press(&u, &l, 'm');
	ck_assert_int_eq(u.drill_mode, UI_DRILL_PAGES);
	press(&u, &l, 't');
	ck_assert_int_eq(u.drill_mode, UI_DRILL_THREADS);
	u.sample_default = 10007;
	ck_assert_uint_eq(press(&u, &l, '+'), UI_ACT_SAMPLE);
	ck_assert_uint_eq(u.sample_period, 20014);
	press(&u, &l, '-');
	press(&u, &l, '-');
	ck_assert_uint_eq(u.sample_period, 5003);
	ck_assert_uint_eq(press(&u, &l, ']'), UI_ACT_HISTOGRAM);
	ck_assert(u.halflife == 4.0);
	press(&u, &l, '[');
	press(&u, &l, '[');
	ck_assert(u.halflife == 1.0);
	ck_assert_uint_eq(press(&u, &l, 'g'), UI_ACT_HISTOGRAM);
	ck_assert_uint_eq(u.page_shift, 21);
	ck_assert_ptr_nonnull(strstr(u.status, "2 MiB pages"));
	press(&u, &l, 'g');
	ck_assert_uint_eq(u.page_shift, 12);
	/* outside the drill-down these keys do nothing of the sort */
	press(&u, &l, UI_KEY_ESC);
	press(&u, &l, 'm');
	ck_assert_ptr_nonnull(strstr(u.status, "unknown key 'm'"));
	ui_list_release(&l);
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
	ui_list_release(&l);
}
END_TEST

static const enum ui_view VIEWS[] = { UI_VIEW_TABLE, UI_VIEW_DRILL, UI_VIEW_HELP, UI_VIEW_ERRORS };

/* Put u in view v as the keys would: the drill-down on pid 101, help and the log over it. */
static void enter_view(struct ui *u, struct ui_list *l, enum ui_view v)
{
	ui_init(u, COL_CPU, false, 1.0);
	model_sort(m, COL_PID, false);
	ui_build_list(u, m, l);
	ui_sync(u, l);
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
	const struct ui_binding *b = ui_bindings(&n);

	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(b[i].keys[0] && b[i].help && b[i].in, "binding %zu", i);
		ck_assert_msg(!(b[i].footer_in & ~b[i].in), "%s: a footer where it does nothing",
			      b[i].help);
		ck_assert_msg(!b[i].footer_in == !b[i].footer_key, "%s", b[i].help);
		for (size_t v = 0; v < sizeof(VIEWS) / sizeof(VIEWS[0]); v++) {
			if (!(b[i].in & UI_IN(VIEWS[v])))
				continue;
			for (size_t k = 0; k < UI_BINDING_KEYS && b[i].keys[k]; k++)
				ck_assert_msg(ui_binding_find(VIEWS[v], b[i].keys[k]) == &b[i],
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
	const struct ui_binding *b = ui_bindings(&n);

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
				ui_key_name(b[i].keys[k], name, sizeof(name));
				if (!strncmp(b[i].footer_key, name, strlen(name))) {
					named = true;
					ck_assert(ui_binding_find(VIEWS[v], b[i].keys[k]) == &b[i]);
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
			ui_list_release(&l);
		}
		ck_assert_msg(shown >= 3, "view %d: a footer of %zu keys", VIEWS[v], shown);
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
	ui_build_list(&u, m, &l);
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
	ui_list_release(&l);
	model_free(m);
	source_free(src);
	m = hw;
	src = hwsrc;
}
END_TEST

START_TEST(test_docs_name_every_key)
{
	char *man = doc_section("doc/pmctop.1", ".SH KEYS", ".SH COLUMNS");
	char *readme = doc_section("README", "The screen\n", "The samples come from");
	size_t n;
	const struct ui_binding *b = ui_bindings(&n);

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < UI_BINDING_KEYS && b[i].keys[k]; k++) {
			char name[16];

			if (!ui_key_name(b[i].keys[k], name, sizeof(name)))
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

int main(void)
{
	Suite *s = suite_create("ui");
	TCase *tc = tcase_create("keys");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_selection_follows_its_process_when_rows_reorder);
	tcase_add_test(tc, test_sort_keys);
	tcase_add_test(tc, test_cpi_sort_refused_without_hardware_columns);
	tcase_add_test(tc, test_filter_search_and_user_prompts);
	tcase_add_loop_test(tc, test_filter_same_rows_in_batch_and_screen, 0,
			    sizeof(FILTERS) / sizeof(FILTERS[0]));
	tcase_add_test(tc, test_delay_prompt_validates);
	tcase_add_test(tc, test_views_enter_and_leave);
	tcase_add_test(tc, test_drill_keys);
	tcase_add_test(tc, test_paging_keeps_selection_on_screen);
	tcase_add_test(tc, test_every_binding_reachable);
	tcase_add_test(tc, test_every_footer_key_dispatches);
	tcase_add_test(tc, test_cgroup_view_keys);
	tcase_add_test(tc, test_docs_name_every_key);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
