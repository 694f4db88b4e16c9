/* Tests of the screens as text: golden canvases at several sizes from the hand-made recording. */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "collect/symbols.h"
#include "util/selfcost.h"
#include "model/model.h"
#include "stream/source_replay.h"
#include "testutil.h"
#include "view/table.h"
#include "view/view.h"
#include "util/utf8.h"

/*
 * ck_assert_msg for checks made thousands of times a test: Check writes down every assertion
 * it passes, which on a loaded machine can take a sweep past its timeout; this says nothing
 * until cond fails.
 */
#define REQUIRE(cond, ...)                                                                         \
	do {                                                                                       \
		if (!(cond))                                                                       \
			ck_abort_msg(__VA_ARGS__);                                                 \
	} while (0)

static struct model *m;
static struct source *src;
static struct symbols *syms;
static const struct selfcost *self; /* pmctop's own cost in the header, as live; NULL: replay */

/* Instruction names as the screen gives them, from files under a root that does not exist. */
static const char *test_ip_name(void *arg, uint64_t ip, char *buf, size_t size)
{
	(void)arg;
	return symbols_name(syms, m->maps, m->nmaps, ip, buf, size);
}

static void setup(void)
{
	m = testutil_replay_model("hw.rec", &src);
	syms = symbols_new("/nonexistent-pmctop-test-root");
}

static void teardown(void)
{
	model_free(m);
	source_free(src);
	symbols_free(syms);
}

static char *draw(struct ui *u, int w, int h, bool utf8)
{
	static const char *const LOG[] = { "pid 404: permission denied" };
	struct canvas *c = canvas_new(w, h);
	struct ui_list l = { 0 };
	struct view_ctx v;
	char *buf = NULL;
	size_t len = 0, page;
	FILE *f = open_memstream(&buf, &len);
	struct ui before;
	bool list;

	model_sort(m, u->sort_col, u->reverse);
	list_build(u, m, &l);
	memset(&v, 0, sizeof(v));
	v.m = m;
	v.have_frame = true;
	v.u = u;
	v.list = &l;
	v.mode = src->mode;
	v.host = src->host;
	v.kernel = src->kernel;
	v.uptime = 93784;
	v.replay = !self;
	v.self = self;
	v.log = LOG;
	v.nlog = 1;
	v.utf8 = utf8;
	v.sample_err = "";
	v.facts = src->have_facts ? &src->facts : NULL;
	v.ip_name = test_ip_name;
	v.settings_path = "/home/user/.config/pmctop/pmctoprc";
	page = view_page(&v, w, h, &list);
	list_set_page(u, &l, page, list);
	memcpy(&before, u, sizeof(before));
	view_render(c, &v);
	/* drawing changes nothing of the interactive state */
	ck_assert(!memcmp(&before, u, sizeof(before)));
	canvas_dump(c, f);
	fclose(f);
	list_release(&l);
	canvas_free(c);
	return buf;
}

static void golden(const char *name, const char *got)
{
	testutil_golden(name, got);
}

START_TEST(test_table_80x24)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPI, false, 1.0);
	s = draw(&u, 80, 24, true);
	golden("screen-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "up 1 day 02:03"));
	/* top's meters from the recording's meminfo, in MiB, under the Tasks line */
	ck_assert_ptr_nonnull(strstr(s, "\nTasks: 5 shown; 6 total, 2 running, 1 not counted"));
	ck_assert_ptr_nonnull(strstr(
		s, "\nMiB Mem : 16384.0 total, 4096.0 free, 4608.0 used, 7680.0 buff/cache\n"));
	ck_assert_ptr_nonnull(strstr(
		s, "\nMiB Swap: 2048.0 total, 1536.0 free, 512.0 used. 11264.0 avail Mem\n"));
	free(s);
	/* hidden in the setup's meters: the core meters come right under the Tasks line */
	u.setup.meters_off |= 1u << UI_METER_MEMORY;
	s = draw(&u, 80, 24, true);
	ck_assert_ptr_null(strstr(s, "MiB "));
	ck_assert_ptr_nonnull(strstr(s, "e: log)\n  0 ["));
	free(s);
}
END_TEST

START_TEST(test_table_200x50_ascii)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	s = draw(&u, 200, 50, false);
	golden("screen-200x50.txt", s);
	ck_assert_ptr_null(strstr(s, "\u2588")); /* ASCII bars outside UTF-8 locales */
	/* an -e event per second, under its whole name and the unit */
	ck_assert_ptr_nonnull(strstr(s, "LLC-load-misses/s"));
	free(s);
}
END_TEST

START_TEST(test_table_40x10)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	s = draw(&u, 40, 10, true);
	golden("screen-40x10.txt", s);
	free(s);
}
END_TEST

/* The pages pane with nodes: NODE and REM% columns, the remote share on the samples line. */
START_TEST(test_drill_pages_show_nodes_and_the_remote_share)
{
	struct ui u;
	char *s;

	model_free(m);
	source_free(src);
	m = testutil_replay_model("numa.rec", &src);
	ui_init(&u, COL_CPU, false, 1.0);
	u.view = UI_VIEW_DRILL;
	u.drill.pid = 300;
	s = draw(&u, 100, 20, true);
	golden("screen-drill-numa.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "pages, half-life 2 s; remote 50.0%"));
	ck_assert_ptr_nonnull(strstr(s, "NODE  REM% "));
	free(s);
}
END_TEST

START_TEST(test_drill_and_help_and_log)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	u.view = UI_VIEW_DRILL;
	u.drill.pid = 101;
	s = draw(&u, 100, 20, true);
	/* pid 101 was not sampled in the recording: the pane says so */
	ck_assert_ptr_nonnull(strstr(s, "this recording has no samples of this process"));
	free(s);
	u.drill.pid = 202;
	s = draw(&u, 100, 24, true);
	golden("screen-drill-pages.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "Samples: Intel PEBS (period 10007)"));
	free(s);
	u.drill.mode = UI_DRILL_MAPPINGS;
	s = draw(&u, 100, 24, false);
	golden("screen-drill-mappings.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "[heap]"));
	free(s);
	u.drill.mode = UI_DRILL_THREADS;
	u.drill.pid = 101;
	s = draw(&u, 100, 20, true);
	ck_assert_ptr_nonnull(strstr(s, "worker-1"));
	free(s);
	u.view = UI_VIEW_HELP;
	s = draw(&u, 100, 50, true);
	golden("screen-help.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "In the drill-down"));
	free(s);
	u.pager.scroll = 50;
	s = draw(&u, 100, 42, true);
	ck_assert_ptr_nonnull(strstr(s, "CPI      cycles per instruction"));
	free(s);
	u.pager.scroll = 0;
	u.view = UI_VIEW_ERRORS;
	s = draw(&u, 100, 10, true);
	ck_assert_ptr_nonnull(strstr(s, "pid 404: permission denied"));
	free(s);
	/* paged down past the end, a pager shows its last page, never an empty one */
	u.pager.scroll = 100000;
	s = draw(&u, 100, 10, true);
	ck_assert_ptr_nonnull(strstr(s, "pid 404: permission denied"));
	free(s);
	u.view = UI_VIEW_HELP;
	s = draw(&u, 100, 24, true);
	ck_assert_ptr_nonnull(strstr(s, "Colours: green good"));
	free(s);
	u.view = UI_VIEW_EVENTS;
	s = draw(&u, 100, 24, true);
	ck_assert_msg(strstr(s, "LLC-load-misses"), "%s", s);
	free(s);
}
END_TEST

/* The events screen of the hardware recording: its multiplexed group and the group that never ran. */
START_TEST(test_events_80x24)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	ui_key(&u, 'E', m, &(struct ui_list){ 0 });
	ck_assert_int_eq(u.view, UI_VIEW_EVENTS);
	s = draw(&u, 80, 24, true);
	golden("screen-events-80x24.txt", s);
	/* in the last tick pid 101's cache group ran half its time, its L1 group not at all */
	ck_assert_ptr_nonnull(strstr(
		s, "cache-references             2 hw   built-in multiplexed     75.7  100.0"));
	ck_assert_ptr_nonnull(strstr(s, "15 events (14 built in, 1 with -e)"));
	free(s);
	/* the last event is two lines below 24: under the memory meters */
	s = draw(&u, 80, 26, true);
	ck_assert_ptr_nonnull(strstr(
		s, "LLC-load-misses              6 hw   -e       counted        100.0  100.0"));
	ck_assert_ptr_nonnull(strstr(s, "15 events (14 built in, 1 with -e)"));
	free(s);
	/* Esc and E go back to the table */
	ui_key(&u, UI_KEY_ESC, m, &(struct ui_list){ 0 });
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
}
END_TEST

/* The software-only recording: each hardware event is not supported, with the translator's reason. */
START_TEST(test_events_200x50_software_only)
{
	struct source *sw_src;
	struct model *sw = testutil_replay_model("sw.rec", &sw_src);
	struct model *hw = m;
	struct source *hw_src = src;
	struct ui u;
	char *s;

	m = sw;
	src = sw_src;
	ui_init(&u, COL_CPU, false, 1.0);
	u.view = UI_VIEW_EVENTS;
	s = draw(&u, 200, 50, false);
	golden("screen-events-200x50.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "'cycles': not supported by this PMU"));
	ck_assert_ptr_nonnull(strstr(
		s, "task-clock                   0 sw   built-in counted        100.0      -"));
	free(s);
	m = hw;
	src = hw_src;
	model_free(sw);
	source_free(sw_src);
}
END_TEST

/* Line y (from 0) of a drawn screen, into buf. */
static const char *screen_line(const char *s, int y, char *buf, size_t size)
{
	for (int i = 0; i < y && s; i++) {
		s = strchr(s, '\n');
		s = s ? s + 1 : NULL;
	}
	snprintf(buf, size, "%.*s", s ? (int)strcspn(s, "\n") : 0, s ? s : "");
	return buf;
}

/*
 * An -e event whose name is too long for a title: "e1/s" over its column and
 * a legend above the footer naming it, which the list leaves room for; the
 * events screen names its column too. Rates per second (the ticks are 2 s apart).
 */
START_TEST(test_long_event_name_gets_a_legend)
{
	char rec[256], line[512];
	struct source *l_src;
	struct model *l, *hw = m;
	struct source *hw_src = src;
	struct ui u;
	char *s;

	testutil_long_event_rec(rec, sizeof(rec));
	l = testutil_replay_model(rec, &l_src);
	unlink(rec);
	m = l;
	src = l_src;
	ui_init(&u, COL_PID, false, 1.0);
	s = draw(&u, 200, 24, true);
	golden("screen-long-event-200x24.txt", s);
	ck_assert_str_eq(screen_line(s, 22, line, sizeof(line)), "e1/s = " TESTUTIL_LONG_EVENT);
	ck_assert_ptr_nonnull(strstr(s, " CNT%       e1/s COMMAND"));
	ck_assert_ptr_nonnull(strstr(s, "  100    7500000 stream"));
	free(s);
	/* no room for the legend: the list keeps its lines */
	s = draw(&u, 100, 10, true);
	ck_assert_ptr_null(strstr(s, "e1/s = "));
	free(s);
	/* the line is narrower than the name: as much as fits, never past the edge */
	s = draw(&u, 30, 24, false);
	ck_assert_str_eq(screen_line(s, 22, line, sizeof(line)), "e1/s = cpu_core/mem_load_retir");
	free(s);
	u.view = UI_VIEW_HELP;
	s = draw(&u, 100, 24, true);
	ck_assert_ptr_null(strstr(s, "e1/s = "));
	free(s);
	u.view = UI_VIEW_EVENTS;
	s = draw(&u, 100, 40, true);
	ck_assert_ptr_nonnull(strstr(s, TESTUTIL_LONG_EVENT "     6 hw   -e       counted"));
	ck_assert_ptr_nonnull(strstr(s, "\n    the column e1/s\n"));
	ck_assert_ptr_nonnull(strstr(s, "-e columns: per second"));
	free(s);
	m = hw;
	src = hw_src;
	model_free(l);
	source_free(l_src);
}
END_TEST

/*
 * The hot pages scroll under the movement keys and the selection follows its page; the title
 * says which of how many; anonymous mappings show their ranges; the selected page's
 * instructions are named (here from a file that is not on this machine: by offset).
 */
START_TEST(test_drill_pages_scroll_and_name)
{
	struct source *st_src;
	struct model *st = testutil_replay_model("steps.rec", &st_src);
	struct model *hw = m;
	struct source *hw_src = src;
	struct ui_list l = { 0 };
	struct ui u;
	char *s;

	m = st;
	src = st_src;
	ui_init(&u, COL_CPU, false, 1.0);
	u.view = UI_VIEW_DRILL;
	u.drill.pid = 100;
	s = draw(&u, 100, 22, true);
	/* six pages, four rows of them with the instructions block below */
	ck_assert_ptr_nonnull(strstr(s, "1 of 6 pages"));
	ck_assert_ptr_nonnull(strstr(s, "[anon 7f200000-7f208000]"));
	ck_assert_ptr_nonnull(strstr(s, "Page 0x7f202000: the instructions that touched it most"));
	ck_assert_ptr_nonnull(strstr(s, "100.0%  0x000000401480  alpha+0x1480"));
	ck_assert_uint_eq(u.page, 4);
	free(s);
	ui_key(&u, UI_KEY_END, m, &l);
	s = draw(&u, 100, 22, true);
	golden("screen-drill-scroll.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "6 of 6 pages"));
	/* scrolled: the hottest page is off the top, the last two are on screen */
	ck_assert_ptr_null(strstr(s, "0x000000007f202000"));
	ck_assert_ptr_nonnull(strstr(s, "[anon 7f12a000-7f13b000]"));
	ck_assert_ptr_nonnull(strstr(s, "Page 0x7f12c000"));
	free(s);
	ui_key(&u, UI_KEY_UP, m, &l);
	ui_key(&u, UI_KEY_PGUP, m, &l);
	s = draw(&u, 100, 22, true);
	ck_assert_ptr_nonnull(strstr(s, "1 of 6 pages"));
	ck_assert_ptr_nonnull(strstr(s, "0x000000007f202000"));
	free(s);
	ui_key(&u, UI_KEY_DOWN, m, &l);
	s = draw(&u, 100, 22, true);
	ck_assert_ptr_nonnull(strstr(s, "2 of 6 pages"));
	ck_assert_ptr_nonnull(strstr(s, "Page 0x1e4b000"));
	ck_assert_ptr_nonnull(strstr(s, "alpha+0x1120"));
	free(s);
	m = hw;
	src = hw_src;
	model_free(st);
	source_free(st_src);
}
END_TEST

/* Each line of a dump: at most w cells, valid UTF-8, nothing that could move a terminal's cursor. */
static void assert_clean_lines(const char *s, int w, int h)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);
	int lines = 0;

	while (*p) {
		int cells = 0;

		while (*p && *p != '\n') {
			size_t len;
			int32_t cp = utf8_decode(p, (size_t)(end - p), &len);

			REQUIRE(cp >= 0, "%dx%d line %d: invalid UTF-8", w, h, lines);
			REQUIRE(cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0),
				"%dx%d line %d: control character %#x", w, h, lines, (unsigned)cp);
			/* in cells, as the terminal shows them: a wide character takes two */
			cells += wcwidth((wchar_t)cp) == 2 ? 2 : 1;
			p += len;
		}
		REQUIRE(cells <= w, "%dx%d line %d: %d cells", w, h, lines, cells);
		REQUIRE(*p == '\n', "%dx%d: the last line is not terminated", w, h);
		p++;
		lines++;
	}
	REQUIRE(lines == h, "%dx%d: %d lines", w, h, lines);
}

/* The cells of line y of s before needle on it (-1: not there), as a terminal counts them. */
static int cells_before(const char *s, int y, const char *needle)
{
	char line[1024];
	const char *at;
	wchar_t wide[1024];
	size_t n;

	screen_line(s, y, line, sizeof(line));
	at = strstr(line, needle);
	if (!at)
		return -1;
	line[at - line] = '\0';
	n = mbstowcs(wide, line, sizeof(wide) / sizeof(wide[0]));
	ck_assert_uint_ne(n, (size_t)-1);
	return wcswidth(wide, n);
}

/*
 * Names in CJK and emoji take two cells a character: the table stays aligned, a command line
 * that goes on past the edge ends in '>', and Right scrolls to its very end ('<' at the left).
 */
START_TEST(test_wide_names_80x24)
{
	struct model *hw = m;
	struct source *hw_src = src;
	struct ui_list l = { 0 };
	struct ui u;
	char *s;
	int name_x;

	m = testutil_replay_model("wide.rec", &src);
	ui_init(&u, COL_CPU, false, 1.0);
	s = draw(&u, 80, 24, true);
	golden("screen-wide-80x24.txt", s);
	assert_clean_lines(s, 80, 24);
	/* a recording with MemTotal alone (an older one): the meters empty, never 0 */
	ck_assert_ptr_nonnull(
		strstr(s, "\nMiB Mem : 16384.0 total, - free, - used, - buff/cache\n"));
	ck_assert_ptr_nonnull(strstr(s, "\nMiB Swap: - total, - free, - used. - avail Mem\n"));
	/* rows 10 to 14 (under the memory meters): 202, 101, 505, 303, 404 by %CPU; each name in the same column */
	name_x = cells_before(s, 12, "newproc");
	ck_assert_int_gt(name_x, 40);
	ck_assert_int_eq(cells_before(s, 10, "\U0001f600stream"), name_x);
	ck_assert_int_eq(cells_before(s, 11, "\u6570\u636e\u5e93"), name_x);
	ck_assert_int_eq(cells_before(s, 13, "\u65b0\u3057\u3044da>"), name_x);
	free(s);

	u.cmdline = true;
	s = draw(&u, 80, 24, true);
	golden("screen-wide-cmdline-80x24.txt", s);
	assert_clean_lines(s, 80, 24);
	ck_assert_int_eq(cells_before(s, 11, ">"), 79); /* 101's command line goes on */
	ck_assert_int_eq(cells_before(s, 14, ">"), -1); /* "secret" fits: no mark */
	free(s);

	/* Right, as far as it goes: the end of the longest command line at the edge */
	list_set_screen(&u, 80, 7);
	model_sort(m, u.sort_col, u.reverse);
	list_build(&u, m, &l);
	for (int i = 0; i < 40; i++)
		ui_key(&u, UI_KEY_RIGHT, m, &l);
	s = draw(&u, 80, 24, true);
	golden("screen-wide-scrolled-80x24.txt", s);
	assert_clean_lines(s, 80, 24);
	ck_assert_int_eq(cells_before(s, 11, "\u52a1\u5668.log") + 8, 80);
	ck_assert_int_eq(cells_before(s, 11, ">"), -1);
	ck_assert_int_ge(cells_before(s, 11, "<"), 0);
	free(s);
	list_release(&l);
	model_free(m);
	source_free(src);
	m = hw;
	src = hw_src;
}
END_TEST

START_TEST(test_every_size_draws_without_garbage)
{
	struct ui u;

	ui_init(&u, COL_CPU, false, 1.0);
	for (int w = 1; w <= 120; w += 7)
		for (int h = 1; h <= 40; h += 3) {
			char *s = draw(&u, w, h, true);
			char *nl = strchr(s, '\n');
			size_t first = nl ? (size_t)(nl - s) : strlen(s);

			assert_clean_lines(s, w, h);
			/* above the footer line, the header comes first, cut to the width */
			if (h >= 2)
				ck_assert_msg(first > 0 &&
						      !strncmp(s, "pmctop", first < 6 ? first : 6),
					      "%dx%d: the header is '%.*s'", w, h, (int)first, s);
			/* from 40 columns and 10 lines on, the table is there with the busiest first */
			if (w >= 40 && h >= 10) {
				ck_assert_msg(strstr(s, "PID") != NULL, "%dx%d: no column titles",
					      w, h);
				ck_assert_msg(strstr(s, " 202 ") != NULL,
					      "%dx%d: no row of pid 202", w, h);
			}
			free(s);
		}
}
END_TEST

/* The header, meters and footer at 40 and 60 columns: fields left out whole, numbers whole. */
START_TEST(test_narrow_header_goldens)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	s = draw(&u, 40, 24, true);
	golden("screen-40x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "Events: hardware events (skl), recorded\n"));
	ck_assert_ptr_nonnull(strstr(s, "\nTasks: 5 shown, 1 not counted; sort %CPU\n"));
	/* the memory meters keep their label and total; the rest goes whole */
	ck_assert_ptr_nonnull(strstr(s, "\nMiB Mem : 16384.0 total, 4608.0 used\n"));
	free(s);
	s = draw(&u, 60, 24, true);
	golden("screen-60x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "(replay 00:06:42)  load 1.50 1.20 0.90\n"));
	ck_assert_ptr_nonnull(
		strstr(s, "\nTasks: 5 shown, 1 not counted (permission denied, e: log)\n"));
	free(s);
}
END_TEST

/* The status line on a narrow screen ends at a word: every word shown is a whole one. */
START_TEST(test_narrow_status_ends_at_a_word)
{
	static const char STATUS[] =
		"sent SIGTERM to 12 of 15 processes; pid 1234: no such process (it has exited)";
	struct ui u;

	ui_init(&u, COL_CPU, false, 1.0);
	snprintf(u.status, sizeof(u.status), "%s", STATUS);
	for (int w = 4; w <= 90; w++) {
		char *s = draw(&u, w, 12, false), *last, *tok, *save;
		char padded[sizeof(STATUS) + 2];

		snprintf(padded, sizeof(padded), " %s ", STATUS);
		last = strrchr(s, '\n');
		*last = '\0';
		last = strrchr(s, '\n') + 1;
		for (tok = strtok_r(last, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char word[128];

			snprintf(word, sizeof(word), " %s ", tok);
			ck_assert_msg(strstr(padded, word), "%d wide: '%s' is cut", w, tok);
		}
		free(s);
	}
}
END_TEST

/* Whether c may be part of a number as the header writes them: digits, '.', ':', '/'. */
static bool numeric(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == ':' || c == '/';
}

/*
 * Every number (a run of digits, '.', ':' and '/') in the header and the meters
 * of s, the lines before the first blank one or the table's titles, into out as
 * "|run|" each.
 */
static void numbers_of(const char *s, char *out, size_t size)
{
	const char *end = s, *l = s;
	size_t o = 0;

	/* the three header lines, then the meters' lines, each with its '[' */
	for (int line = 0; *l; line++) {
		size_t n = strcspn(l, "\n");

		if (line >= 3 && !memchr(l, '[', n))
			break;
		end = l + n;
		l += l[n] ? n + 1 : n;
	}
	out[0] = '\0';
	for (const char *p = s; p < end;) {
		if (numeric(*p) && strpbrk(p, "0123456789") == p + strspn(p, ".:/")) {
			size_t n = 0;

			while (numeric(p[n]))
				n++;
			if (o < size)
				o += (size_t)snprintf(out + o, size - o, "|%.*s|", (int)n, p);
			p += n;
		} else {
			p++;
		}
	}
}

/*
 * At every width, each number the header and the meters show is one the
 * widest screen shows whole: a narrow screen leaves fields out, never cuts a
 * number (load 1.50, never 1.5; 02:03, never 02:0). In several states: a
 * replay, live with pmctop's own cost, paused and filtered, the cgroup view.
 */
START_TEST(test_narrow_header_never_cuts_a_number)
{
	const struct selfcost cost = {
		.cpu_pct = 12.5, .rss_bytes = 6.5 * 1048576, .open_fds = 27, .max_fds = 1048576
	};
	struct source *cg_src;
	struct model *cg = testutil_replay_model("cgroup.rec", &cg_src);
	struct model *hw = m;

	for (int state = 0; state < 4; state++) {
		struct ui u;
		static char wide[16384], narrow[16384];
		char *s;

		ui_init(&u, COL_CPU, false, 1.0);
		self = state == 1 ? &cost : NULL;
		if (state == 2) {
			u.paused = true;
			u.reverse = true;
			snprintf(u.filter, sizeof(u.filter), "%s", "a");
			u.follow = true;
			u.follow_id = 101;
		}
		if (state == 3) {
			m = cg;
			u.view = UI_VIEW_CGROUPS;
		}
		s = draw(&u, 400, 50, true);
		numbers_of(s, wide, sizeof(wide));
		ck_assert_ptr_nonnull(strstr(wide, state == 3 ? "|0.50|" : "|1.50|"));
		free(s);
		for (int w = 8; w <= 200; w++) {
			char *p, *q;

			s = draw(&u, w, 50, true);
			numbers_of(s, narrow, sizeof(narrow));
			/* each "|run|" in turn */
			for (p = narrow; *p && (q = strchr(p + 1, '|')); p = q + 1) {
				char run[64];

				snprintf(run, sizeof(run), "%.*s", (int)(q - p + 1), p);
				ck_assert_msg(strstr(wide, run),
					      "state %d, %d wide: %s is cut in\n%s", state, w, run,
					      s);
			}
			free(s);
		}
	}
	self = NULL;
	m = hw;
	model_free(cg);
	source_free(cg_src);
}
END_TEST

/* The cgroup view at 80x24 from the cgroup recording, its drill-down to processes, and back. */
START_TEST(test_cgroup_view_80x24)
{
	struct model *hw = m;
	struct source *hwsrc = src;
	struct ui u;
	struct ui_list l = { 0 };
	char *s;

	m = testutil_replay_model("cgroup.rec", &src);
	ui_init(&u, COL_CPU, false, 1.0);
	u.view = UI_VIEW_CGROUPS;
	s = draw(&u, 80, 24, true);
	golden("screen-cgroups-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "Cgroups: 4 shown, 1 not counted (e: log), 48 fds; every"));
	ck_assert_ptr_nonnull(strstr(s, "PROCS   %CPU    PF/s   CS/s MIG/s CGROUP"));
	ck_assert_ptr_nonnull(strstr(s, "EnterProcs GTasks"));
	for (int w = 1; w <= 120; w += 9)
		for (int h = 1; h <= 30; h += 4) {
			char *t = draw(&u, w, h, w % 2);

			assert_clean_lines(t, w, h);
			free(t);
		}
	/* Enter on the busiest cgroup: the table of its processes, named in the header */
	list_build(&u, m, &l);
	ck_assert_str_eq(l.v[u.sel]->cgroup, "/system.slice");
	ui_key(&u, UI_KEY_ENTER, m, &l);
	free(s);
	/* wide enough for CGROUP beside S, RES, %MEM and TIME+ (at 80 it is the first to go) */
	s = draw(&u, 120, 24, true);
	ck_assert_ptr_nonnull(strstr(s, "; cgroup '/system.slice'"));
	ck_assert_ptr_nonnull(strstr(s, "db-server"));
	ck_assert_ptr_nonnull(strstr(s, "logd"));
	ck_assert_ptr_null(strstr(s, " bash"));
	ck_assert_ptr_nonnull(strstr(s, " CGROUP "));
	free(s);
	list_release(&l);
	model_free(m);
	source_free(src);
	m = hw;
	src = hwsrc;
	/* a recording without cgroups says so in the view */
	s = draw(&u, 80, 24, true);
	u.view = UI_VIEW_CGROUPS;
	free(s);
	s = draw(&u, 80, 24, true);
	ck_assert_ptr_nonnull(strstr(s, "this recording has no cgroup rows"));
	free(s);
}
END_TEST

/* The tree, the signal menu and sideways scrolling at every size: whole lines, nothing else. */
START_TEST(test_new_screens_at_every_size)
{
	for (int variant = 0; variant < 4; variant++)
		for (int w = 1; w <= 130; w += 9)
			for (int h = 1; h <= 30; h += 4) {
				struct ui u;
				char *s;

				ui_init(&u, COL_CPU, false, 1.0);
				u.tree = variant != 1;
				u.cmdline = variant >= 2;
				u.hscroll = variant * 5;
				u.tags.ids[u.tags.n++] = (struct model_ident){ 505, 0 };
				if (variant == 1)
					u.input.prompt = UI_PROMPT_SIGNAL;
				if (variant == 3) {
					u.input.prompt = UI_PROMPT_CONFIRM;
					snprintf(u.sig.ask, sizeof(u.sig.ask),
						 "send SIGTERM (15) to pid 505?");
				}
				s = draw(&u, w, h, variant & 1);
				assert_clean_lines(s, w, h);
				free(s);
			}
}
END_TEST

/* The setup at every size and in every section, the highlight anywhere: clean lines only. */
START_TEST(test_setup_at_every_size)
{
	for (int sec = 0; sec < UI_SETUP_MAX; sec++)
		for (int w = 1; w <= 130; w += 7)
			for (int h = 1; h <= 30; h += 3) {
				struct ui u;
				char *s;

				ui_init(&u, COL_CPU, false, 1.0);
				u.view = UI_VIEW_SETUP;
				u.setup.sec = (enum ui_setup_section)sec;
				u.setup.sel[UI_SETUP_COLUMNS] = (size_t)(w + h) % COL_MAX;
				u.setup.sel[UI_SETUP_METERS] = (size_t)h % UI_METER_MAX;
				u.setup.sel[UI_SETUP_COLOURS] = (size_t)w % UI_SCHEME_MAX;
				u.setup.cols.hidden = (uint32_t)(w * h) & ~(1u << COL_COMMAND);
				s = draw(&u, w, h, w & 1);
				assert_clean_lines(s, w, h);
				/* the highlighted column's description, where there is a line for it */
				if (h >= 12 && w >= 60 && sec == UI_SETUP_COLUMNS)
					ck_assert_ptr_nonnull(strstr(
						s, columns_get(u.setup.cols.order[u.setup.sel[0]])
							   ->title));
				free(s);
			}
}
END_TEST

/* The drill-down at every size, down to panes with no room for a single page (10-11 rows crashed). */
START_TEST(test_drill_every_size_and_mode)
{
	static const enum ui_drill_mode MODES[] = { UI_DRILL_PAGES, UI_DRILL_MAPPINGS,
						    UI_DRILL_THREADS };
	struct ui u;

	ui_init(&u, COL_CPU, false, 1.0);
	u.view = UI_VIEW_DRILL;
	u.drill.pid = 202;
	for (size_t k = 0; k < sizeof(MODES) / sizeof(MODES[0]); k++) {
		u.drill.mode = MODES[k];
		for (int w = 20; w <= 200; w += 20)
			for (int h = 1; h <= 30; h++) {
				char *s = draw(&u, w, h, k != 1);
				size_t lines = 0;

				for (char *p = s; *p; p++)
					lines += *p == '\n';
				ck_assert_msg(lines == (size_t)h, "%dx%d mode %zu: %zu lines", w, h,
					      k, lines);
				free(s);
			}
	}
}
END_TEST

/* The page the layout gives is the rows drawn: the selection stays on screen at every size. */
START_TEST(test_selection_on_screen_at_every_size)
{
	for (int h = 1; h <= 30; h++)
		for (int cpus = 0; cpus < 2; cpus++) {
			struct ui u;
			struct ui_list l = { 0 };
			char *s;

			ui_init(&u, COL_PID, false, 1.0);
			u.show_cpus = cpus;
			model_sort(m, COL_PID, false);
			list_build(&u, m, &l);
			ui_key(&u, UI_KEY_END, m, &l);
			list_release(&l);
			s = draw(&u, 80, h, false);
			/* three header lines, the memory meters' two, titles, the row, the footer */
			if (u.page && h >= 8 + (cpus ? 4 : 0))
				ck_assert_msg(strstr(s, "    505 alice") != NULL, "%d lines", h);
			free(s);
		}
}
END_TEST

/* The footer and the help are the key table: every binding of a view, and nothing else. */
START_TEST(test_footer_and_help_from_the_key_table)
{
	static const enum ui_view VIEWS[] = { UI_VIEW_TABLE, UI_VIEW_DRILL, UI_VIEW_HELP,
					      UI_VIEW_ERRORS, UI_VIEW_EVENTS };
	size_t n;
	const struct ui_binding *b = keys_bindings(&n);
	struct canvas *c = canvas_new(100, 200);
	char *help = NULL;
	size_t len = 0;
	FILE *f;

	for (size_t v = 0; v < sizeof(VIEWS) / sizeof(VIEWS[0]); v++) {
		struct ui u;
		char want[512] = "", *s, *last;
		size_t o = 0;

		ui_init(&u, COL_CPU, false, 1.0);
		u.view = VIEWS[v];
		u.drill.pid = 202;
		for (size_t i = 0; i < n; i++)
			if (b[i].footer_in & UI_IN(VIEWS[v]))
				o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s ",
						      b[i].footer_key, b[i].footer);
		want[o ? o - 1 : 0] = '\0'; /* the dump drops trailing blanks */
		s = draw(&u, 300, 30, true);
		last = s + strlen(s) - 1; /* the footer is the last line */
		*last = '\0';
		last = strrchr(s, '\n') + 1;
		ck_assert_msg(!strcmp(last, want), "view %d: %s", VIEWS[v], last);
		free(s);
	}
	f = open_memstream(&help, &len);
	pager_help(c, 0, c->h, 0);
	canvas_dump(c, f);
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		char keys[64], line[160];

		keys_binding_keys(&b[i], keys, sizeof(keys));
		snprintf(line, sizeof(line), "  %-28s %s\n", keys, b[i].help);
		ck_assert_msg(strstr(help, line) != NULL, "help lacks: %s", line);
	}
	for (int i = 0; i < COL_MAX; i++)
		ck_assert_ptr_nonnull(strstr(help, columns_get(i)->help));
	free(help);
	canvas_free(c);
}
END_TEST

/* The tree view: 505 under its parent 101, with a tagged row and a followed one. */
START_TEST(test_tree_goldens)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_PID, false, 1.0);
	u.tree = true;
	u.tags.ids[u.tags.n++] = (struct model_ident){ 505, 0 };
	u.follow = true;
	u.follow_id = 101;
	u.sel_id = 101;
	s = draw(&u, 80, 24, true);
	golden("screen-tree-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "\u2514\u2500 newpr>")); /* '>': the name goes on */
	ck_assert_ptr_nonnull(strstr(s, "*   505 alice"));
	ck_assert_ptr_nonnull(strstr(s, "following 101"));
	ck_assert_ptr_nonnull(strstr(s, "1 tagged"));
	free(s);
	u.cmdline = true;
	s = draw(&u, 200, 50, false);
	golden("screen-tree-200x50.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "`- newproc --fast"));
	free(s);
}
END_TEST

/*
 * The per-user rows are neither a tree nor tagged: t's setting and a tagged pid equal to a uid
 * (1000, alice's) must not show on a user's totals.
 */
START_TEST(test_per_user_rows_neither_tree_nor_tagged)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_PID, false, 1.0);
	u.per_user = true;
	u.tree = true;
	u.tags.ids[u.tags.n++] = (struct model_ident){ 1000, 0 };
	s = draw(&u, 200, 50, false);
	ck_assert_ptr_nonnull(strstr(s, "Users: "));
	ck_assert_ptr_nonnull(strstr(s, "alice"));
	ck_assert_ptr_null(strstr(s, "as a tree"));
	ck_assert_ptr_null(strstr(s, "\n*"));
	free(s);
	/* the processes: the tree and the tag mark are back */
	u.per_user = false;
	u.tags.ids[0] = (struct model_ident){ 505, 0 };
	s = draw(&u, 200, 50, false);
	ck_assert_ptr_nonnull(strstr(s, "sort PID, as a tree"));
	ck_assert_ptr_nonnull(strstr(s, "\n*   505 alice"));
	free(s);
}
END_TEST

/* The signal menu over the table, and the question before sending. */
START_TEST(test_signal_menu_goldens)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	u.live = true;
	u.input.prompt = UI_PROMPT_SIGNAL;
	u.sig.sel = 1;
	s = draw(&u, 80, 24, true);
	golden("screen-signal-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "Send signal:"));
	ck_assert_ptr_nonnull(strstr(s, "  9 KILL"));
	ck_assert_ptr_nonnull(strstr(s, "Signal: Up/Down"));
	free(s);
	u.input.prompt = UI_PROMPT_CONFIRM;
	snprintf(u.sig.ask, sizeof(u.sig.ask),
		 "send SIGKILL (9) to pid 202 (stream)? y: send, any other "
		 "key: cancel");
	s = draw(&u, 200, 50, false);
	golden("screen-signal-200x50.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "send SIGKILL (9) to pid 202 (stream)?"));
	free(s);
}
END_TEST

/* u: the users menu over the table, the highlighted user lit, its keys on the status line. */
START_TEST(test_users_menu_golden)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	u.input.prompt = UI_PROMPT_USER;
	u.users.sel = 1;
	s = draw(&u, 80, 24, true);
	golden("screen-users-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, " PROCS USER"));
	ck_assert_ptr_nonnull(strstr(s, "     5 All users"));
	ck_assert_ptr_nonnull(strstr(s, "     2 alice"));
	ck_assert_ptr_nonnull(strstr(s, "User: Up/Down; Enter: show the user's processes"));
	free(s);
	/* on 3 lines of body: the highlight scrolled into view; at every size, no garbage */
	u.users.sel = 4;
	for (int h = 1; h <= 24; h++)
		for (int w = 1; w <= 40; w += 13) {
			s = draw(&u, w, h, true);
			free(s);
		}
}
END_TEST

/* Scrolled sideways: < on the left; at 80 columns > while more is hidden. */
START_TEST(test_scrolled_goldens)
{
	struct ui u;
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	u.hscroll = 3;
	s = draw(&u, 80, 24, true);
	golden("screen-scrolled-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "\n<   PID "));
	ck_assert_ptr_null(strstr(s, "USER")); /* scrolled off */
	free(s);
	/* at 200 every column and every command line fits: a scroll leaves the lines whole */
	u.cmdline = true;
	u.hscroll = 1;
	s = draw(&u, 200, 50, false);
	golden("screen-scrolled-200x50.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "\n<   PID USER"));
	ck_assert_ptr_nonnull(strstr(s, " 10000 /usr/bin/db-server --port 5432\n"));
	free(s);
	/* at 170 every column fits but the lines do not: Right moves them, to the longest's end */
	s = draw(&u, 170, 50, false);
	ck_assert_ptr_nonnull(strstr(s, "\n<   PID USER"));
	ck_assert_ptr_null(strstr(s, "/usr/bin/db-server"));
	free(s);
	u.hscroll = 10;
	s = draw(&u, 170, 50, false);
	/* the longest line (pid 101's) ends at the last cell; '<' says it is scrolled */
	ck_assert_ptr_nonnull(strstr(s, " 10000 </bin/db-server --port 5432\n"));
	ck_assert_int_eq(strstr(s, " 10000 </bin/db-server --port 5432\n") + 34 -
				 strstr(s, "\n    101 alice ") - 1,
			 170);
	free(s);
}
END_TEST

/* Where each title is drawn, the click mapping finds its column, at every width and position. */
/* The first frame has no IPC or GHz yet: the meters say nothing of them, never "-GHz". */
START_TEST(test_meters_of_the_first_frame_show_no_dangling_units)
{
	char path[512], err[256];
	struct model *all = m;
	struct source *s1;
	struct snapshot snap;
	struct ui u;
	FILE *f;
	char *text;

	snprintf(path, sizeof(path), "%s/data/hw.rec", TEST_SRCDIR);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	s1 = source_replay_new(f, "hw.rec", err, sizeof(err));
	ck_assert_msg(s1 != NULL, "%s", err);
	m = model_new(&s1->ev);
	snapshot_init(&snap, s1->ev.n);
	ck_assert_int_eq(source_read(s1, &snap), 0);
	model_update(m, &snap);
	ui_init(&u, COL_CPU, false, 1.0);
	text = draw(&u, 100, 24, false);
	ck_assert_msg(!strstr(text, "-GHz") && !strstr(text, "IPC -"), "%s", text);
	free(text);
	/* the full recording: numbers with their units after them */
	model_free(m);
	m = all;
	text = draw(&u, 100, 24, false);
	ck_assert_msg(strstr(text, "GHz]") && !strstr(text, "-GHz"), "%s", text);
	free(text);
	snapshot_release(&snap);
	source_free(s1);
}
END_TEST

/*
 * The setup screen (F2) at both sizes: the columns in their order with the hidden ones
 * unmarked, the meters and the colours; the section in use and the highlighted entry, whose
 * description is on the last line. Then what the choices do to the table and the header.
 */
START_TEST(test_setup_goldens)
{
	struct ui u;
	struct ui_list l = { 0 };
	char *s;

	ui_init(&u, COL_CPU, false, 1.0);
	ui_key(&u, UI_KEY_F2, m, &l);
	ck_assert_int_eq(u.view, UI_VIEW_SETUP);
	/* CPI hidden, USER moved below %CPU */
	for (int i = 0; i < 14; i++)
		ck_assert_uint_eq(ui_key(&u, UI_KEY_DOWN, m, &l), 0);
	ck_assert_int_eq(u.setup.cols.order[u.setup.sel[UI_SETUP_COLUMNS]], COL_CPI);
	ck_assert_uint_eq(ui_key(&u, ' ', m, &l), UI_ACT_COLUMNS);
	ui_key(&u, UI_KEY_HOME, m, &l);
	ui_key(&u, UI_KEY_DOWN, m, &l);
	for (int i = 0; i < 10; i++)
		ck_assert_uint_eq(ui_key(&u, UI_KEY_F8, m, &l), UI_ACT_COLUMNS);
	m->cols = u.setup.cols; /* as the loop gives the choice to the model */
	s = draw(&u, 80, 24, true);
	golden("screen-setup-80x24.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "[x] memory and swap"));
	free(s);
	/* two lines more than the memory meters take show CPI, hidden */
	s = draw(&u, 80, 26, true);
	ck_assert_ptr_nonnull(strstr(s, "[ ] CPI"));
	ck_assert_ptr_nonnull(strstr(s, "effective user"));
	free(s);
	/* the meters: the uptime hidden; the colours: mono */
	ui_key(&u, UI_KEY_TAB, m, &l);
	ui_key(&u, UI_KEY_DOWN, m, &l);
	ui_key(&u, ' ', m, &l);
	ui_key(&u, UI_KEY_TAB, m, &l);
	ui_key(&u, UI_KEY_DOWN, m, &l);
	ck_assert_uint_eq(ui_key(&u, UI_KEY_ENTER, m, &l), UI_ACT_SCHEME);
	ck_assert_int_eq(u.setup.scheme, UI_SCHEME_MONO);
	s = draw(&u, 200, 50, false);
	golden("screen-setup-200x50.txt", s);
	ck_assert_ptr_nonnull(strstr(s, "(*) mono"));
	ck_assert_ptr_nonnull(strstr(s, "[ ] uptime"));
	ck_assert_ptr_null(strstr(s, "up 1 day"));
	free(s);
	/* back on the table: the columns as chosen, the header without the uptime */
	ck_assert_uint_eq(ui_key(&u, UI_KEY_ESC, m, &l), 0);
	ck_assert_int_eq(u.view, UI_VIEW_TABLE);
	s = draw(&u, 200, 50, false);
	ck_assert_ptr_nonnull(strstr(
		s, "    PID  THR S    RES  %MEM     TIME+   %CPU USER        GHZ   IPC CACHE%"));
	ck_assert_ptr_null(strstr(s, "CPI"));
	ck_assert_ptr_null(strstr(s, "up 1 day"));
	ck_assert_ptr_nonnull(strstr(s, "load 1.50"));
	free(s);
	/* the help lists the setup's keys from the key table, in a section of their own */
	ui_key(&u, 'h', m, &l);
	s = draw(&u, 100, 120, true);
	ck_assert_ptr_nonnull(strstr(s, "In the setup (F2)"));
	ck_assert_ptr_nonnull(strstr(s, "  F7 [ F8 ]                    move the column up"));
	ck_assert_ptr_nonnull(strstr(s, "  Esc q F2 S                   leave the setup"));
	free(s);
	columns_choice_default(&m->cols);
	list_release(&l);
}
END_TEST

/* The title line of the table in a drawn screen ("" when none), into buf. */
static const char *title_line(const char *screen, char *buf, size_t size)
{
	const char *p = strstr(screen, "    PID"), *b, *e;

	if (!p) {
		p = strstr(screen, " PID ");
		if (!p) {
			snprintf(buf, size, "%s", "");
			return buf;
		}
	}
	for (b = p; b > screen && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(buf, size, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
	return buf;
}

/* Where word (a whole title) starts in line, or -1. */
static long title_at(const char *line, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = line; (p = strstr(p, word)) != NULL; p++)
		if ((p == line || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return p - line;
	return -1;
}

/*
 * --columns: the table shows the columns named, in the order named, the
 * off-by-default ones (NI, VIRT, SHR, P) included, and no others but COMMAND.
 */
START_TEST(test_columns_list_orders_and_hides_the_table)
{
	static const struct {
		int line;
		const char *list;
		const char *shown[8]; /* titles in order */
		const char *hidden[4];
	} CASES[] = {
		{ __LINE__,
		  "pid,user,cpu",
		  { "PID", "USER", "%CPU", "COMMAND" },
		  { "CPI", "RES", "NI", "P" } },
		{ __LINE__, "cpu,pid", { "%CPU", "PID", "COMMAND" }, { "USER", "TIME+", "VIRT" } },
		{ __LINE__,
		  "pid,nice,virt,shr,lastcpu",
		  { "PID", "NI", "VIRT", "SHR", "P", "COMMAND" },
		  { "USER", "%CPU", "IPC" } },
		{ __LINE__,
		  "P,SHR,VIRT,NI,PID",
		  { "P", "SHR", "VIRT", "NI", "PID", "COMMAND" },
		  { "RES" } },
	};
	struct ui u;
	char bad[64], line[512];

	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		long at = -1;
		char *s;

		ck_assert_msg(columns_choice_parse(&m->cols, CASES[i].list, bad, sizeof(bad)) == 0,
			      "line %d: '%s' refused", CASES[i].line, bad);
		ui_init(&u, COL_PID, false, 1.0);
		u.setup.cols = m->cols;
		s = draw(&u, 200, 50, false);
		title_line(s, line, sizeof(line));
		for (size_t k = 0; k < 8 && CASES[i].shown[k]; k++) {
			long here = title_at(line, CASES[i].shown[k]);

			ck_assert_msg(here > at, "line %d: '%s' not after the one before in '%s'",
				      CASES[i].line, CASES[i].shown[k], line);
			at = here;
		}
		for (size_t k = 0; k < 4 && CASES[i].hidden[k]; k++)
			ck_assert_msg(title_at(line, CASES[i].hidden[k]) < 0,
				      "line %d: '%s' shown in '%s'", CASES[i].line,
				      CASES[i].hidden[k], line);
		free(s);
	}
	/* by default the four are off, and the table's usual columns on */
	columns_choice_default(&m->cols);
	ui_init(&u, COL_PID, false, 1.0);
	u.setup.cols = m->cols;
	{
		char *s = draw(&u, 200, 50, false);

		title_line(s, line, sizeof(line));
		ck_assert_msg(title_at(line, "PID") >= 0 && title_at(line, "%CPU") >= 0, "%s",
			      line);
		ck_assert_msg(title_at(line, "NI") < 0 && title_at(line, "VIRT") < 0 &&
				      title_at(line, "SHR") < 0 && title_at(line, "P") < 0,
			      "%s", line);
		free(s);
	}
}
END_TEST

START_TEST(test_click_mapping_matches_the_drawn_titles)
{
	for (int w = 30; w <= 200; w += 17)
		for (int pos = 0; pos < 12; pos++) {
			struct table_layout t;
			struct ui u;
			char *s, *line;

			ui_init(&u, COL_PID, false, 1.0);
			u.show_cpus = false;
			u.hscroll = pos;
			table_layout(m, w, COL_ROWS_PROCESSES, pos, &t);
			s = draw(&u, w, 12, false);
			/* the title line comes after the five header lines (the memory meters') */
			line = s;
			for (int k = 0; k < 5; k++)
				line = strchr(line, '\n') + 1;
			for (size_t i = 0; i < t.n; i++) {
				char head[64];
				const char *title = model_column_head(
					m, t.ids[i], COL_ROWS_PROCESSES, head, sizeof(head));
				size_t tl = strlen(title) < (size_t)t.w[i] ? strlen(title)
									   : (size_t)t.w[i];
				const struct column *col = model_column(m, t.ids[i]);
				int at = col->left ? t.x[i] : t.x[i] + t.w[i] - (int)tl;

				ck_assert_msg(!strncmp(line + at, title, tl),
					      "%d wide, position %d: %s not at %d", w, pos, title,
					      at);
				for (int x = at; x < at + (int)tl; x++)
					ck_assert_int_eq(table_column_at(&t, x), t.ids[i]);
			}
			ck_assert_int_eq(table_column_at(&t, t.rest_x), COL_COMMAND);
			ck_assert_int_eq(table_column_at(&t, -1), -1);
			free(s);
		}
}
END_TEST

int main(void)
{
	Suite *s;

	/* the screen of a UTF-8 terminal, whatever the locale the tests run in (LC_ALL=C) */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "the C.UTF-8 locale is needed\n");
		return 99;
	}
	s = suite_create("view");
	TCase *tc = tcase_create("screens");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_table_80x24);
	tcase_add_test(tc, test_wide_names_80x24);
	tcase_add_test(tc, test_table_200x50_ascii);
	tcase_add_test(tc, test_table_40x10);
	tcase_add_test(tc, test_narrow_header_goldens);
	tcase_add_test(tc, test_narrow_header_never_cuts_a_number);
	tcase_add_test(tc, test_narrow_status_ends_at_a_word);
	tcase_add_test(tc, test_drill_and_help_and_log);
	tcase_add_test(tc, test_drill_pages_show_nodes_and_the_remote_share);
	tcase_add_test(tc, test_cgroup_view_80x24);
	tcase_add_test(tc, test_drill_pages_scroll_and_name);
	tcase_add_test(tc, test_events_80x24);
	tcase_add_test(tc, test_events_200x50_software_only);
	tcase_add_test(tc, test_long_event_name_gets_a_legend);
	tcase_add_test(tc, test_every_size_draws_without_garbage);
	tcase_add_test(tc, test_drill_every_size_and_mode);
	tcase_add_test(tc, test_selection_on_screen_at_every_size);
	tcase_add_test(tc, test_footer_and_help_from_the_key_table);
	tcase_add_test(tc, test_tree_goldens);
	tcase_add_test(tc, test_per_user_rows_neither_tree_nor_tagged);
	tcase_add_test(tc, test_new_screens_at_every_size);
	tcase_add_test(tc, test_signal_menu_goldens);
	tcase_add_test(tc, test_users_menu_golden);
	tcase_add_test(tc, test_scrolled_goldens);
	tcase_add_test(tc, test_click_mapping_matches_the_drawn_titles);
	tcase_add_test(tc, test_columns_list_orders_and_hides_the_table);
	tcase_add_test(tc, test_setup_goldens);
	tcase_add_test(tc, test_setup_at_every_size);
	tcase_add_test(tc, test_meters_of_the_first_frame_show_no_dangling_units);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
