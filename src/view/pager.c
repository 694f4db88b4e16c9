/* The pagers over the screen: help (from the key table), the log and the events. */
#include "config.h"
#include "view/pager.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/errmsg.h"
#include "view/canvas.h"
#include "view/ui.h"
#include "view/view.h"

void pager_scroll(struct ui *u, int key)
{
	switch (key) {
	case UI_KEY_UP:
		if (u->pager.scroll)
			u->pager.scroll--;
		break;
	case UI_KEY_DOWN:
		u->pager.scroll++;
		break;
	case UI_KEY_PGUP:
		u->pager.scroll = u->pager.scroll > u->page ? u->pager.scroll - u->page : 0;
		break;
	case UI_KEY_HOME:
		u->pager.scroll = 0;
		break;
	default: /* PgDn, Space */
		u->pager.scroll += u->page;
		break;
	}
}

/* The help screen's sections of the key table: a binding goes in the first whose views it has. */
static const struct {
	unsigned in;
	const char *title;
} PAGER_HELP_SECTIONS[] = {
	{ .in = UI_IN(UI_VIEW_TABLE), .title = "Keys" },
	{ .in = UI_IN(UI_VIEW_DRILL), .title = "In the drill-down" },
	{ .in = UI_IN(UI_VIEW_CGROUPS), .title = "In the cgroup view" },
	{ .in = UI_IN_PAGERS, .title = "In help, the log and the events" },
	{ .in = UI_IN(UI_VIEW_SETUP), .title = "In the setup (F2)" },
};

/* Help lines from line scroll on go to y0 .. y0 + h; lines before and after are counted only. */
struct pager_out {
	struct canvas *c;
	int y0, h;
	size_t scroll, line;
};

static void pager_line(struct pager_out *o, int attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pager_line(struct pager_out *o, int attr, const char *fmt, ...)
{
	if (o->line >= o->scroll && o->line - o->scroll < (size_t)(o->h > 0 ? o->h : 0)) {
		char line[256];
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(line, sizeof(line), fmt, ap);
		va_end(ap);
		canvas_put(o->c, 0, o->y0 + (int)(o->line - o->scroll), line, attr, -1);
	}
	o->line++;
}

/* Whether binding b is listed in help section s: the first section with one of its views. */
static bool pager_help_in(const struct ui_binding *b, size_t s)
{
	for (size_t t = 0; t < s; t++)
		if (b->in & PAGER_HELP_SECTIONS[t].in)
			return false;
	return b->in & PAGER_HELP_SECTIONS[s].in;
}

/*
 * A pager's first line for scroll: never past the last page, so that paging
 * down beyond the end shows the end, not an empty page.
 */
static size_t pager_first(size_t scroll, size_t total, int h)
{
	size_t rows = h > 0 ? (size_t)h : 0;

	if (total <= rows)
		return 0;
	return scroll < total - rows ? scroll : total - rows;
}

/* Blank rows y0 .. y0 + h - 1, before a pager draws itself again. */
static void pager_clear(struct canvas *c, int y0, int h)
{
	for (int y = y0; y < y0 + h; y++)
		canvas_fill(c, y, 0, c->w, ' ', CANVAS_NORMAL);
}

/* The help from line scroll on; returns how many lines it has. */
static size_t pager_help_at(struct canvas *c, int y0, int h, size_t scroll)
{
	struct pager_out o = { .c = c, .y0 = y0, .h = h, .scroll = scroll };
	size_t n;
	const struct ui_binding *b = keys_bindings(&n);

	for (size_t s = 0; s < sizeof(PAGER_HELP_SECTIONS) / sizeof(PAGER_HELP_SECTIONS[0]); s++) {
		if (s)
			pager_line(&o, CANVAS_NORMAL, "%s", "");
		pager_line(&o, CANVAS_HEADER, "%s", PAGER_HELP_SECTIONS[s].title);
		pager_line(&o, CANVAS_NORMAL, "%s", "");
		for (size_t i = 0; i < n; i++) {
			char keys[64];

			if (!pager_help_in(&b[i], s))
				continue;
			keys_binding_keys(&b[i], keys, sizeof(keys));
			pager_line(&o, CANVAS_NORMAL, "  %-28s %s", keys, b[i].help);
		}
	}
	pager_line(&o, CANVAS_NORMAL, "%s", "");
	pager_line(&o, CANVAS_HEADER, "Columns");
	for (int i = 0; i < COL_MAX; i++)
		pager_line(&o, CANVAS_NORMAL, "  %-8s %s", columns_get(i)->title,
			   columns_get(i)->help);
	pager_line(&o, CANVAS_NORMAL, "  %-8s %s", "NAME/s", columns_event()->help);
	pager_line(&o, CANVAS_NORMAL, "  %-8s %s", "e1/s",
		   "the same for a long NAME: the line "
		   "above the keys names it");
	pager_line(&o, CANVAS_NORMAL, "%s", "");
	pager_line(&o, CANVAS_NORMAL,
		   "Marks: * estimated: from a multiplexed counter, or from part of the threads;");
	pager_line(&o, CANVAS_NORMAL,
		   "       n/a the counter did not run; - undefined (nothing to divide by)");
	pager_line(&o, CANVAS_NORMAL,
		   "Colours: green good, yellow fair, red poor IPC/CPI and miss ratios");
	return o.line;
}

void pager_help(struct canvas *c, int y0, int h, size_t scroll)
{
	size_t first = pager_first(scroll, pager_help_at(c, y0, h, scroll), h);

	if (first != scroll) {
		pager_clear(c, y0, h);
		pager_help_at(c, y0, h, first);
	}
}

/* How many bytes of p (len of them) fit a line of w: whole UTF-8 characters, at least one. */
static size_t pager_log_take(const char *p, size_t len, size_t w)
{
	size_t take = len > w ? w : len;

	while (take < len && take > 1 && ((unsigned char)p[take] & 0xc0) == 0x80)
		take--;
	return take ? take : len;
}

void pager_log(struct canvas *c, int y0, int h, const struct view_ctx *v)
{
	size_t total = 0, first;

	canvas_put(c, 0, y0, "Log (oldest first)", CANVAS_HEADER, -1);
	if (!v->nlog) {
		canvas_put(c, 0, y0 + 2, "nothing to report: every process and event is counted",
			   CANVAS_DIM, -1);
		return;
	}
	/* long messages wrap; scrolling counts wrapped lines, and stops at the last page */
	for (size_t i = 0; i < v->nlog; i++)
		for (const char *p = v->log[i], *e = p + strlen(p); p < e;)
			p += pager_log_take(p, (size_t)(e - p), (size_t)c->w), total++;
	first = pager_first(v->u->pager.scroll, total, h - 2);
	for (size_t i = 0, line = 0, y = 2; i < v->nlog && (int)y < h; i++) {
		const char *p = v->log[i];
		size_t len = strlen(p);

		do {
			size_t take = pager_log_take(p, len, (size_t)c->w);
			char buf[1024];

			snprintf(buf, sizeof(buf), "%.*s", (int)take, p);
			if (line++ >= first && (int)y < h)
				canvas_put(c, 0, y0 + (int)y++, buf, CANVAS_NORMAL, -1);
			p += take;
			len -= take;
		} while (len);
	}
}

/* The counter facts of the mode, where the source has them: what the PMU gives and what is used. */
static void pager_events_facts(struct pager_out *o, const struct errmsg_mode *f)
{
	char line[256];
	size_t n = 0;

	if (!f || !f->hw_asked)
		return;
	n += (size_t)snprintf(line + n, sizeof(line) - n, "PMU %s", f->pmu[0] ? f->pmu : "unknown");
	if (f->counters > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      ": %d counters a group, %d free of other users", f->counters,
				      f->counters_free);
	if (f->watchdog > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " (the NMI watchdog holds one)");
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; %d hardware events per process, %d per CPU",
			 f->task_hw, f->cpu_hw);
	pager_line(o, CANVAS_NORMAL, "%s", line);
}

/* A share of time as a cell: "100.0", "50.0", "-" when the event was never enabled. */
static void pager_share(char *buf, size_t size, double share)
{
	if (isnan(share))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f", 100 * share);
}

/* Whether event i is an -e event with a short column title; the title into buf. */
static bool pager_event_short(const struct model *m, size_t i, char *buf, size_t size)
{
	for (size_t k = 0; k < m->nraw; k++)
		if (m->raw_ev[k] == (int)i && model_event_short(m, k)) {
			model_column_head(m, COL_MAX + (int)k, COL_ROWS_PROCESSES, buf, size);
			return true;
		}
	return false;
}

/*
 * The events screen: every event asked for, built in or with -e, with its
 * group, what it needs, its status and the share of the last interval it was
 * on the PMU (running over enabled, summed over the processes and over the
 * CPUs); the reason for each that failed, in the translator's words.
 */
static size_t pager_events_at(struct canvas *c, int y0, int h, const struct view_ctx *v,
			      size_t scroll)
{
	struct pager_out o = { .c = c, .y0 = y0, .h = h, .scroll = scroll };
	const struct model *m = v->m;
	const struct evlist *ev = &m->ev;
	int paranoid = v->facts && v->facts->why.err ? v->facts->why.paranoid : -2;
	size_t nst[EVSTAT_IDLE + 1] = { 0 }, nuser = 0;
	int namew = 24;
	char sum[256];
	size_t len = 0;

	for (size_t i = 0; i < ev->n; i++) {
		int l = (int)strlen(ev->ev[i].name);

		nst[evstat_status(&ev->ev[i], v->have_frame ? &m->evstat[i] : NULL)]++;
		nuser += ev->ev[i].user;
		if (l > namew)
			namew = l;
	}
	/* the name column takes what the other columns leave, up to the longest name */
	if (namew > c->w - 52)
		namew = c->w - 52 > 12 ? c->w - 52 : 12;
	len = (size_t)snprintf(sum, sizeof(sum), "%zu event%s (%zu built in, %zu with -e)", ev->n,
			       ev->n == 1 ? "" : "s", ev->n - nuser, nuser);
	for (int s = 0; s <= EVSTAT_IDLE; s++)
		if (nst[s] && len < sizeof(sum))
			len += (size_t)snprintf(sum + len, sizeof(sum) - len, "%s %zu %s",
						len ? "," : "", nst[s], evstat_status_name(s));
	pager_line(&o, CANVAS_HEADER, "Events%s", v->have_frame ? " in the last interval" : "");
	pager_line(&o, CANVAS_NORMAL, "%s", sum);
	pager_events_facts(&o, v->facts);
	pager_line(&o, CANVAS_NORMAL, "%s", "");
	if (o.line >= o.scroll && o.line - o.scroll < (size_t)(h > 0 ? h : 0))
		canvas_fill(c, y0 + (int)(o.line - o.scroll), 0, c->w, ' ', CANVAS_TITLE);
	pager_line(&o, CANVAS_TITLE, "%-*s %5s %-4s %-8s %-13s %6s %6s", namew, "EVENT", "GROUP",
		   "KIND", "ASKED", "STATUS", "PROC%", "CPU%");
	for (size_t i = 0; i < ev->n; i++) {
		const struct ev *e = &ev->ev[i];
		const struct evstat *st = v->have_frame ? &m->evstat[i] : NULL;
		enum evstat_status s = evstat_status(e, st);
		char pt[16] = "-", pc[16] = "-", why[600], head[64];
		int attr = s == EVSTAT_COUNTED	     ? CANVAS_NORMAL
			   : s == EVSTAT_IDLE	     ? CANVAS_DIM
			   : s == EVSTAT_MULTIPLEXED ? CANVAS_WARN
						     : CANVAS_HOT;

		if (st && !e->err) {
			pager_share(pt, sizeof(pt), evstat_share(st, false));
			pager_share(pc, sizeof(pc), evstat_share(st, true));
		}
		pager_line(&o, attr, "%-*.*s %5d %-4s %-8s %-13s %6s %6s", namew, namew, e->name,
			   e->group, e->hw ? "hw" : "sw", e->user ? "-e" : "built-in",
			   evstat_status_name(s), pt, pc);
		if (e->err) {
			errmsg_perf(why, sizeof(why), e->err, e->name, paranoid);
			pager_line(&o, CANVAS_DIM, "    %s", why);
		} else if (s == EVSTAT_SUSPECT) {
			pager_line(&o, CANVAS_DIM, "    %s",
				   "never counted anything while the CPU did a lot of work: a "
				   "hypervisor may filter it");
		}
		if (e->user && pager_event_short(m, i, head, sizeof(head)))
			pager_line(&o, CANVAS_DIM, "    the column %s", head);
		if (st && st->tasks_failed && !e->err)
			pager_line(&o, CANVAS_DIM, "    not counted in %zu process%s: %s",
				   st->tasks_failed, st->tasks_failed == 1 ? "" : "es",
				   errmsg_short(st->task_err));
	}
	pager_line(&o, CANVAS_NORMAL, "%s", "");
	pager_line(&o, CANVAS_DIM, "%s",
		   "PROC% CPU%: time running over time enabled in the interval, summed over");
	pager_line(&o, CANVAS_DIM, "%s",
		   "the processes and the per-CPU counters; below 100: multiplexed, scaled");
	if (nuser)
		pager_line(&o, CANVAS_DIM, "%s",
			   "-e columns: per second (NAME/s; e1/s for a long NAME); CSV and JSON "
			   "give the count in the interval");
	return o.line;
}

void pager_events(struct canvas *c, int y0, int h, const struct view_ctx *v)
{
	size_t scroll = v->u->pager.scroll;
	size_t first = pager_first(scroll, pager_events_at(c, y0, h, v, scroll), h);

	if (first != scroll) {
		pager_clear(c, y0, h);
		pager_events_at(c, y0, h, v, first);
	}
}
