/* The screens of pmctop as pure drawing on a canvas: header, meters, tables, help, log. */
#include "config.h"
#include "view/view.h"

#include <inttypes.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/errmsg.h"
#include "util/utf8.h"
#include "view/layout.h"
#include "view/table.h"
#include "model/metrics.h"

#define VIEW_CORE_MIN_W 24
#define VIEW_HEADER_LINES 3 /* without the memory meters' two */
#define VIEW_DRILL_LINES 4  /* the drilled process: name, command line, metrics, a blank */
#define VIEW_MAX_COLS (COL_MAX + 64)
#define VIEW_SAMPLE_LINES 2		 /* the sampling pane's title and what its samples mean */
#define VIEW_IPS_LINES (1 + HOTPAGE_IPS) /* the selected page's instructions */

/* The help screen's sections of the key table: a binding goes in the first whose views it has. */
static const struct {
	unsigned in;
	const char *title;
} VIEW_HELP_SECTIONS[] = {
	{ .in = UI_IN(UI_VIEW_TABLE), .title = "Keys" },
	{ .in = UI_IN(UI_VIEW_DRILL), .title = "In the drill-down" },
	{ .in = UI_IN(UI_VIEW_CGROUPS), .title = "In the cgroup view" },
	{ .in = UI_IN_PAGERS, .title = "In help, the log and the events" },
	{ .in = UI_IN(UI_VIEW_SETUP), .title = "In the setup (F2)" },
};

static enum col_rows view_rows(bool threads)
{
	return threads ? COL_ROWS_THREADS : COL_ROWS_PROCESSES;
}

/* The rows the list of the current view shows. */
static enum col_rows view_list_rows(const struct ui *u)
{
	if (u->view == UI_VIEW_CGROUPS)
		return COL_ROWS_CGROUPS;
	/* the per-user rows name their columns their way (PROCS) */
	if (u->per_user && u->view == UI_VIEW_TABLE)
		return COL_ROWS_USERS;
	return view_rows(u->threads || u->view == UI_VIEW_DRILL);
}

static size_t view_columns_of(const struct model *m, int width, enum col_rows rows, int *out)
{
	struct table_layout t;

	table_layout(m, width, rows, 0, &t);
	memcpy(out, t.ids, t.n * sizeof(*out));
	return t.n;
}

size_t view_table_columns(const struct model *m, int width, bool threads, int *out)
{
	return view_columns_of(m, width, view_rows(threads), out);
}

/* The value of a numeric cell and whether its counter did not run. */
static double view_value(const struct model *m, const struct model_row *r, int id, bool *na)
{
	if (id >= COL_MAX) {
		size_t k = (size_t)(id - COL_MAX);

		*na = r->raw_fl[k] & MODEL_F_NA;
		return model_event_rate(m, r, k);
	}
	*na = r->na & (1u << id);
	return r->v[id];
}

static int view_cell_attr(const struct column *c, double v, bool na)
{
	if (na || isnan(v))
		return CANVAS_DIM;
	switch (columns_severity(c, v)) {
	case METRICS_SEV_GOOD:
		return CANVAS_GOOD;
	case METRICS_SEV_WARN:
		return CANVAS_WARN;
	case METRICS_SEV_BAD:
		return CANVAS_HOT;
	default:
		return CANVAS_NORMAL;
	}
}

static void view_uptime(char *buf, size_t size, double up)
{
	long s = (long)up, d = s / 86400, h = s % 86400 / 3600, mi = s % 3600 / 60;

	if (d)
		snprintf(buf, size, "up %ld day%s %02ld:%02ld", d, d == 1 ? "" : "s", h, mi);
	else
		snprintf(buf, size, "up %02ld:%02ld", h, mi);
}

static const struct model_row *view_find_row(const struct model *m, int pid);

/*
 * A header line as fields, each drawn whole or left out where the line is short
 * (layout_fields): a narrow screen never shows part of a number.
 */
#define VIEW_FIELDS_MAX 16
struct view_fields {
	size_t n;
	struct layout_field lay[VIEW_FIELDS_MAX];
	int attr[VIEW_FIELDS_MAX];
	char text[VIEW_FIELDS_MAX][1100];
	char shorter[VIEW_FIELDS_MAX][96];
};

/* Add a field of priority prio (LAYOUT_KEEP: always there); returns its index. */
static size_t view_field(struct view_fields *f, int prio, int attr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t view_field(struct view_fields *f, int prio, int attr, const char *fmt, ...)
{
	/* the header adds a known handful; more would overwrite the last, never overflow */
	size_t i = f->n < VIEW_FIELDS_MAX ? f->n++ : VIEW_FIELDS_MAX - 1;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->text[i], sizeof(f->text[i]), fmt, ap);
	va_end(ap);
	f->shorter[i][0] = '\0';
	f->attr[i] = attr;
	f->lay[i] = (struct layout_field){ .cells = canvas_cells(f->text[i]), .prio = prio };
	return i;
}

/* The shorter form field i takes before it is dropped. */
static void view_field_short(struct view_fields *f, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void view_field_short(struct view_fields *f, size_t i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->shorter[i], sizeof(f->shorter[i]), fmt, ap);
	va_end(ap);
	f->lay[i].short_cells = canvas_cells(f->shorter[i]);
}

/*
 * Text in at most room cells: whole, else up to the last blank that lets it fit,
 * so that a word (a number) is whole or absent; a text of one word without a digit
 * is cut. Returns the cells drawn.
 */
static int view_put_words(struct canvas *c, int x, int y, const char *text, int attr, int room)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = strlen(text), cut = 0;
	int cells = 0;

	if (room <= 0)
		return 0;
	if (canvas_cells(text) <= room)
		return canvas_put(c, x, y, text, attr, -1);
	for (size_t o = 0; o < n && cells <= room; cells++) {
		size_t len;

		if (text[o] == ' ')
			cut = o;
		utf8_decode(p + o, n - o, &len);
		o += len;
	}
	if (cut) {
		char buf[1100];

		snprintf(buf, sizeof(buf), "%.*s", (int)cut, text);
		return canvas_put(c, x, y, buf, attr, -1);
	}
	return strpbrk(text, "0123456789") ? 0 : canvas_put(c, x, y, text, attr, room);
}

static void view_fields_draw(struct canvas *c, int y, const struct view_fields *f)
{
	int choice[VIEW_FIELDS_MAX], x = 0;

	layout_fields(f->lay, f->n, c->w, choice);
	for (size_t i = 0; i < f->n; i++)
		if (choice[i])
			x += view_put_words(c, x, y, choice[i] == 2 ? f->shorter[i] : f->text[i],
					    f->attr[i], c->w - x);
}

/* The first line: host, the replay's time, kernel, uptime, load, and what watching costs. */
static void view_header_host(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct view_fields f = { 0 };
	char up[64] = "", when[40] = "";
	size_t i;

	if (v->uptime >= 0 && ui_meter_shown(v->u, UI_METER_UPTIME))
		view_uptime(up, sizeof(up), v->uptime);
	/* a replay says when the frame on screen was recorded */
	if (v->replay && m->wall > 0 && m->wall < 1e12) {
		time_t t = (time_t)m->wall;
		struct tm tm;

		if (!localtime_r(&t, &tm) || !strftime(when, sizeof(when), " %H:%M:%S", &tm))
			when[0] = '\0';
	}
	view_field(&f, LAYOUT_KEEP, CANVAS_HEADER, "pmctop");
	view_field(&f, 99, CANVAS_HEADER, " - %s", v->host);
	if (v->replay) {
		i = view_field(&f, 70, CANVAS_HEADER, " (replay%s)", when);
		view_field_short(&f, i, " (replay)");
	}
	view_field(&f, 20, CANVAS_NORMAL, "  kernel %s", v->kernel);
	if (up[0])
		view_field(&f, 30, CANVAS_NORMAL, "  %s", up);
	if (ui_meter_shown(v->u, UI_METER_LOAD)) {
		i = view_field(&f, 60, CANVAS_NORMAL, "  load %.2f %.2f %.2f", m->load[0],
			       m->load[1], m->load[2]);
		view_field_short(&f, i, "  load %.2f", m->load[0]);
	}
	/* what watching costs, last: a narrow screen leaves it out first */
	if (v->self && ui_meter_shown(v->u, UI_METER_SELF) && isfinite(v->self->cpu_pct) &&
	    isfinite(v->self->rss_bytes)) {
		i = view_field(&f, 10, CANVAS_DIM, "  self %.1f%% %.1fMiB %.0f/%.0ffd",
			       v->self->cpu_pct, v->self->rss_bytes / 1048576,
			       isfinite(v->self->open_fds) ? v->self->open_fds : 0,
			       isfinite(v->self->max_fds) ? v->self->max_fds : 0);
		view_field_short(&f, i, "  self %.1f%%", v->self->cpu_pct);
	}
	view_fields_draw(c, 0, &f);
}

/* The second line: the event mode, then what is multiplexed and what cannot be counted. */
static void view_header_events(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct view_fields f = { 0 };
	char unsup[1024];
	int ids[MODEL_MAX_COLS], err[MODEL_MAX_COLS];
	size_t i;

	view_field(&f, LAYOUT_KEEP, CANVAS_LABEL, "Events: ");
	view_field(&f, LAYOUT_KEEP, evlist_any_hw(&m->ev) ? CANVAS_NORMAL : CANVAS_WARN, "%s",
		   v->mode);
	if (m->nmultiplexed) {
		i = view_field(&f, 50, CANVAS_WARN, "; %zu event%s multiplexed (values marked *)",
			       m->nmultiplexed, m->nmultiplexed == 1 ? "" : "s");
		view_field_short(&f, i, "; %zu event%s multiplexed (*)", m->nmultiplexed,
				 m->nmultiplexed == 1 ? "" : "s");
	}
	if (*model_unsupported_text(m, COL_ROWS_PROCESSES, unsup, sizeof(unsup))) {
		size_t n = model_columns_unsupported(m, ids, err, MODEL_MAX_COLS);

		i = view_field(&f, 40, CANVAS_WARN, "; %s", unsup);
		view_field_short(&f, i, "; %zu column%s not counted (E)", n, n == 1 ? "" : "s");
	}
	view_fields_draw(c, 1, &f);
}

/* The third line: what is listed, then what hides rows or stops updates, the pace and sort. */
static void view_header_rows(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct ui *u = v->u;
	struct view_fields f = { 0 };
	int sc = u->sort_col;
	bool tasks = false; /* the rows are processes: top's count by state goes with them */
	size_t i;

	if (u->view == UI_VIEW_DRILL && u->drill_mode != UI_DRILL_THREADS) {
		view_field(&f, LAYOUT_KEEP, CANVAS_LABEL, "Process: ");
		view_field(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%d, its hot pages", u->drill);
	} else {
		const char *label = u->view == UI_VIEW_CGROUPS		      ? "Cgroups: "
				    : u->per_user && u->view == UI_VIEW_TABLE ? "Users: "
				    : u->threads || u->view == UI_VIEW_DRILL  ? "Threads: "
									      : "Tasks: ";

		view_field(&f, LAYOUT_KEEP, CANVAS_LABEL, "%s", label);
		view_field(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%zu shown", v->list->n);
		tasks = !strcmp(label, "Tasks: ");
	}
	/* what hides rows or stops updates comes first, and stays longest on a narrow screen */
	if (u->paused)
		view_field(&f, 95, CANVAS_HOT, " PAUSED");
	if (u->replay_ended) {
		i = view_field(&f, 90, CANVAS_WARN, " (end of recording)");
		view_field_short(&f, i, " (end)");
	}
	/* top's count by state, of every process of the snapshot, not only those shown */
	if (tasks && m->states.total) {
		const struct model_states *st = &m->states;

		i = view_field(&f, 50, CANVAS_NORMAL,
			       "; %zu total, %zu running, %zu sleeping, %zu stopped, %zu zombie",
			       st->total, st->running, st->sleeping, st->stopped, st->zombie);
		view_field_short(&f, i, "; %zu total, %zu running", st->total, st->running);
	}
	if (u->cgroup[0] && u->view == UI_VIEW_TABLE)
		view_field(&f, 80, CANVAS_WARN, "; cgroup '%s'", u->cgroup);
	if (u->filter[0] && u->view != UI_VIEW_DRILL)
		view_field(&f, 80, CANVAS_WARN, "; filter '%s'", u->filter);
	if (u->user[0] && u->view != UI_VIEW_DRILL)
		view_field(&f, 80, CANVAS_WARN, "; user '%s'", u->user);
	if (u->follow)
		view_field(&f, 75, CANVAS_WARN, "; following %d%s", u->follow_id,
			   view_find_row(m, u->follow_id) ? "" : " (exited)");
	if (u->ntags && u->view == UI_VIEW_TABLE)
		view_field(&f, 70, CANVAS_WARN, "; %zu tagged", u->ntags);
	if (m->cg_not_counted && u->view == UI_VIEW_CGROUPS) {
		i = view_field(&f, 60, CANVAS_WARN, ", %zu not counted (e: log)",
			       m->cg_not_counted);
		view_field_short(&f, i, ", %zu not counted", m->cg_not_counted);
	}
	if (m->have_cgroups && u->view == UI_VIEW_CGROUPS) {
		view_field(&f, 35, CANVAS_NORMAL, ", %" PRIu64 " fds", m->cg_fds);
	} else if (m->not_counted && u->view != UI_VIEW_DRILL && u->view != UI_VIEW_CGROUPS) {
		i = view_field(&f, 60, CANVAS_WARN, ", %zu not counted (%s, e: log)",
			       m->not_counted, errmsg_short(m->not_counted_err));
		view_field_short(&f, i, ", %zu not counted", m->not_counted);
	}
	/* the pace the user chose is what they know best: it gives way first */
	view_field(&f, 25, CANVAS_NORMAL, "; every %.2g s", u->delay);
	i = view_field(&f, 45, CANVAS_NORMAL, "; sort %s%s%s",
		       model_column_title(m, sc,
					  u->view == UI_VIEW_CGROUPS ? COL_ROWS_CGROUPS
								     : COL_ROWS_PROCESSES),
		       u->reverse ? " (reversed)" : "",
		       v->list->is_tree ? ", as a tree" : ""); /* not the per-user rows */
	if (u->reverse || v->list->is_tree)
		view_field_short(&f, i, "; sort %s",
				 model_column_title(m, sc,
						    u->view == UI_VIEW_CGROUPS
							    ? COL_ROWS_CGROUPS
							    : COL_ROWS_PROCESSES));
	view_fields_draw(c, 2, &f);
}

/* MiB with a tenth as top writes them, or "-" when unknown: an empty meter is never 0. */
static void view_mib(char *buf, size_t size, double mib)
{
	if (isfinite(mib))
		snprintf(buf, size, "%.1f", mib);
	else
		snprintf(buf, size, "-");
}

/* The fourth and fifth lines: top's "MiB Mem :" and "MiB Swap:" from /proc/meminfo. */
static void view_header_memory(struct canvas *c, int y, const struct view_ctx *v)
{
	struct model_memory mm;
	char tot[32], fr[32], us[32], bc[32], st[32], sf[32], su[32], av[32];
	struct view_fields f = { 0 };

	model_memory(v->m, &mm);
	view_mib(tot, sizeof(tot), mm.total);
	view_mib(fr, sizeof(fr), mm.free);
	view_mib(us, sizeof(us), mm.used);
	view_mib(bc, sizeof(bc), mm.buff_cache);
	view_mib(st, sizeof(st), mm.swap_total);
	view_mib(sf, sizeof(sf), mm.swap_free);
	view_mib(su, sizeof(su), mm.swap_used);
	view_mib(av, sizeof(av), mm.avail);
	/* the label and the total stay; a narrow line shows the label alone, never half a number */
	view_field(&f, LAYOUT_KEEP, CANVAS_LABEL, "MiB Mem : ");
	view_field(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%s total", tot);
	view_field(&f, 70, CANVAS_NORMAL, ", %s free", fr);
	view_field(&f, 80, CANVAS_NORMAL, ", %s used", us);
	view_field(&f, 60, CANVAS_NORMAL, ", %s buff/cache", bc);
	view_fields_draw(c, y, &f);
	f = (struct view_fields){ 0 };
	view_field(&f, LAYOUT_KEEP, CANVAS_LABEL, "MiB Swap: ");
	view_field(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%s total", st);
	view_field(&f, 65, CANVAS_NORMAL, ", %s free", sf);
	view_field(&f, 70, CANVAS_NORMAL, ", %s used", su);
	view_field(&f, 75, CANVAS_NORMAL, ". %s avail Mem", av);
	view_fields_draw(c, y + 1, &f);
}

/* The header's lines: three, and the memory meters' two where they are shown. */
static int view_header_lines(const struct view_ctx *v)
{
	return VIEW_HEADER_LINES + (ui_meter_shown(v->u, UI_METER_MEMORY) ? 2 : 0);
}

static int view_header(struct canvas *c, const struct view_ctx *v)
{
	view_header_host(c, v);
	view_header_events(c, v);
	view_header_rows(c, v);
	if (ui_meter_shown(v->u, UI_METER_MEMORY))
		view_header_memory(c, VIEW_HEADER_LINES, v);
	return view_header_lines(v);
}

static void view_meter(struct canvas *c, int x, int y, int w, const struct model_row *r,
		       const struct model *m, bool utf8)
{
	static const char *const EIGHTHS[] = { "",	 "\u258f", "\u258e", "\u258d",
					       "\u258c", "\u258b", "\u258a", "\u2589" };
	const struct column *cpu = columns_get(COL_CPU), *ipc = columns_get(COL_IPC);
	const struct column *ghz = columns_get(COL_GHZ);
	char label[16], text[48];
	double busy = r->v[COL_CPU];
	int lw, bw, fill8;
	size_t busy_len;

	if (r->id < 0)
		snprintf(label, sizeof(label), "all");
	else
		snprintf(label, sizeof(label), "%3d", r->id);
	lw = canvas_printf(c, x, y, CANVAS_LABEL, w, "%s", label);
	if (isnan(busy))
		snprintf(text, sizeof(text), "-");
	else
		snprintf(text, sizeof(text), "%.*f%s", cpu->prec, busy, cpu->unit);
	busy_len = strlen(text);
	if (model_column_shown(m, COL_IPC) && w >= 40) {
		char vi[16], vg[16];

		/* a meter has no room for the estimate mark; n/a and suspect stay */
		columns_format_num(vi, sizeof(vi), r->v[COL_IPC], ipc->prec,
				   model_cell_flags(r, COL_IPC) & ~MODEL_F_EST);
		columns_format_num(vg, sizeof(vg), r->v[COL_GHZ], ghz->prec,
				   model_cell_flags(r, COL_GHZ) & ~MODEL_F_EST);
		/* a unit goes after a number ("2.90GHz"), before a dash ("GHz -", never "-GHz") */
		if (isdigit((unsigned char)vg[0]))
			snprintf(text + strlen(text), sizeof(text) - strlen(text), " %s %s %s%s",
				 ipc->title, vi, vg, ghz->unit);
		else if (strcmp(vi, "-") || strcmp(vg, "-"))
			snprintf(text + strlen(text), sizeof(text) - strlen(text), " %s %s %s %s",
				 ipc->title, vi, ghz->unit, vg);
		/* neither yet (the first frame): no "IPC - GHz -" beside an empty bar */
	}
	bw = w - lw - 3; /* " [" and "]" */
	/* too narrow for IPC and GHz: the busy share alone; for that too, no meter */
	if (bw < (int)strlen(text) + 2)
		text[busy_len] = '\0';
	if (bw < (int)strlen(text) + 2)
		return;
	canvas_put(c, x + lw, y, " [", CANVAS_NORMAL, -1);
	canvas_put(c, x + w - 1, y, "]", CANVAS_NORMAL, -1);
	/* the bar never leaves its box, whatever the value: a crafted one cannot stall a redraw */
	fill8 = isfinite(busy) ? (int)lround(fmin(fmax(busy, 0.0), 100.0) / 100.0 *
					     (bw - (int)strlen(text) - 1) * 8)
			       : 0;
	for (int i = 0; i < fill8 / 8; i++)
		canvas_put(c, x + lw + 2 + i, y, utf8 ? "\u2588" : "|", CANVAS_BAR, -1);
	if (utf8 && fill8 % 8)
		canvas_put(c, x + lw + 2 + fill8 / 8, y, EIGHTHS[fill8 % 8], CANVAS_BAR, -1);
	canvas_put(c, x + w - 1 - (int)strlen(text), y, text, CANVAS_NORMAL, -1);
}

/* How many core meters: the last row is the total, worth a meter only beside two or more CPUs. */
static size_t view_meters(const struct model *m)
{
	return m->ncpus == 2 ? 1 : m->ncpus;
}

/* Lines the core meters take atop a body of body lines, with the blank after; 0 when hidden. */
static int view_cores_fit(const struct model *m, int w, int body, struct layout_cores *lc)
{
	size_t n = view_meters(m);

	if (!n || layout_cores((int)n, w, (body - 4) / 3, VIEW_CORE_MIN_W, lc))
		return 0;
	return lc->rows + 1;
}

/* The per-core meters; returns the lines used. */
static int view_cores(struct canvas *c, int y, int body, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct layout_cores lc;
	int used = view_cores_fit(m, c->w, body, &lc);

	if (!used)
		return 0;
	for (size_t i = 0; i < view_meters(m); i++) {
		int col = (int)i / lc.rows, row = (int)i % lc.rows;

		view_meter(c, col * (lc.cell_w + 1), y + row, lc.cell_w, &m->cpus[i], m, v->utf8);
	}
	return used;
}

static void view_table_titles(struct canvas *c, int y, const struct model *m,
			      const struct table_layout *t, enum col_rows rows, const struct ui *u)
{
	const struct column *rest = model_column(m, t->rest_id);

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_TITLE);
	for (size_t i = 0; i < t->n; i++) {
		const struct column *col = model_column(m, t->ids[i]);
		int w = t->w[i];
		char title[64];
		int attr = t->ids[i] == u->sort_col ? CANVAS_TITLE_SORT : CANVAS_TITLE;

		model_column_head(m, t->ids[i], rows, title, sizeof(title));
		canvas_printf(c, t->x[i], y, attr, w, col->left ? "%-*.*s" : "%*.*s", w, w, title);
	}
	canvas_put(c, t->rest_x, y,
		   u->cmdline && rest->cmdline_title && rows != COL_ROWS_CGROUPS
			   ? rest->cmdline_title
			   : columns_title(rest, rows),
		   u->sort_col == t->rest_id ? CANVAS_TITLE_SORT : CANVAS_TITLE, -1);
	/* what Left and Right would bring into view */
	if (t->more_left)
		canvas_put(c, 0, y, "<", CANVAS_TITLE_SORT, 1);
	if (t->more_right)
		canvas_put(c, c->w - 1, y, ">", CANVAS_TITLE_SORT, 1);
}

/*
 * Draw text from x on, its first *skip cells left out (and taken off *skip); returns the cells.
 * A wide character the skip cuts in two shows its visible half as a blank.
 */
static int view_put_skip(struct canvas *c, int x, int y, const char *text, int attr, int *skip)
{
	size_t n = strlen(text);
	int pad = 0;

	while (n && *skip > 0) {
		size_t len;
		uint32_t cp;
		int w = canvas_glyph(text, n, &len, &cp);

		pad = w > *skip ? w - *skip : 0;
		*skip = w > *skip ? 0 : *skip - w;
		text += len;
		n -= len;
	}
	if (pad)
		canvas_put(c, x, y, " ", attr, 1);
	return pad + canvas_put(c, x + pad, y, text, attr, -1);
}

/* The tree's guides before a row's name: a bar for each ancestor with siblings still to come. */
static int view_tree_prefix(struct canvas *c, int x, int y, const struct ui_tree_pos *tp, bool utf8,
			    int *skip)
{
	unsigned depth = tp->depth < 32 ? tp->depth : 31;
	int used = 0;

	for (unsigned d = 1; d <= depth; d++) {
		bool more = tp->more & (1u << d);
		const char *g = d < depth ? (more ? (utf8 ? "\u2502  " : "|  ") : "   ")
					  : (more ? (utf8 ? "\u251c\u2500 " : "|- ")
						  : (utf8 ? "\u2514\u2500 " : "`- "));

		used += view_put_skip(c, x + used, y, g, CANVAS_DIM, skip);
	}
	return used;
}

/* The cells of a row's rest column: the tree's guides, as view_tree_prefix draws them, and text. */
static int view_text_cells(const char *text, const struct ui_tree_pos *tp)
{
	return (tp ? 3 * (int)(tp->depth < 32 ? tp->depth : 31) : 0) + canvas_cells(text);
}

struct view_row_style {
	enum col_rows rows; /* processes, threads, users or cgroups */
	bool cmdline, selected, tagged, utf8;
	const struct ui_tree_pos *tree; /* NULL outside the tree view */
};

static void view_table_row(struct canvas *c, int y, const struct model *m,
			   const struct model_row *r, const struct table_layout *t,
			   const struct view_row_style *st)
{
	int x, skip = t->text_off;
	const char *text;

	for (size_t i = 0; i < t->n; i++) {
		const struct column *col = model_column(m, t->ids[i]);
		int w = t->w[i];
		char cell[48], buf[64];
		int attr = CANVAS_NORMAL;

		if (col->type == COL_TYPE_NUM && !col->proc && r->err) {
			snprintf(cell, sizeof(cell), "-");
			attr = CANVAS_DIM;
		} else {
			model_format_cell(m, r, t->ids[i], st->rows, w, cell, sizeof(cell));
			if (col->type == COL_TYPE_NUM) {
				bool na;
				double v = view_value(m, r, t->ids[i], &na);

				attr = view_cell_attr(col, v, na);
			}
		}
		if (col->left)
			snprintf(buf, sizeof(buf), "%-*.*s", w, w, cell);
		else
			snprintf(buf, sizeof(buf), "%*s", w, cell);
		canvas_put(c, t->x[i], y, buf, attr, w);
	}
	x = t->rest_x;
	if (st->tree)
		x += view_tree_prefix(c, x, y, st->tree, st->utf8, &skip);
	text = st->cmdline && r->cmdline[0] ? r->cmdline : r->comm;
	x += view_put_skip(c, x, y, text, CANVAS_NORMAL, &skip);
	/* the text goes on past the edge: '>' says so, as '<' says it was scrolled */
	if (x - t->rest_x + t->text_off < view_text_cells(text, st->tree))
		canvas_put(c, c->w - 1, y, ">", CANVAS_DIM, 1);
	if (t->text_off > 0 && view_text_cells(text, st->tree) > 0)
		canvas_put(c, t->rest_x, y, "<", CANVAS_DIM, 1);
	if (r->err)
		canvas_printf(c, x, y, CANVAS_DIM, -1, " [not counted: %s]", errmsg_short(r->err));
	if (st->tagged) {
		const struct canvas_cell *first = canvas_at(c, 0, y);

		canvas_attr(c, y, 0, c->w, CANVAS_TAGGED);
		/* the mark takes the blank before a PID; a pid of seven digits keeps the colour */
		if (first && (!first->ch || first->ch == ' '))
			canvas_put(c, 0, y, "*", CANVAS_TAGGED, 1);
	}
	if (st->selected)
		canvas_attr(c, y, 0, c->w, CANVAS_SELECTED);
}

/* The signal menu over the left of the body, from line y: its entries, the chosen one lit. */
static void view_signal_menu(struct canvas *c, int y, int h, const struct ui *u)
{
	size_t n;
	const struct ui_signal *sg = ui_signals(&n);
	const int w = 18;

	if (h < 2)
		return;
	canvas_fill(c, y, 0, w, ' ', CANVAS_TITLE);
	canvas_put(c, 0, y, "Send signal:", CANVAS_TITLE, w);
	for (size_t i = 0; i < n && (int)i + 1 < h; i++) {
		int row = y + 1 + (int)i;
		bool lit = i == u->sig_sel && (!u->sig_typed || u->sig_typed == sg[i].num);

		canvas_fill(c, row, 0, w, ' ', CANVAS_NORMAL);
		canvas_printf(c, 0, row, CANVAS_NORMAL, w, " %2d %s", sg[i].num, sg[i].name);
		canvas_attr(c, row, 0, w, lit ? CANVAS_SELECTED : CANVAS_NORMAL);
		canvas_put(c, w, row, "|", CANVAS_DIM, 1);
	}
}

/* The sort menu (F6) over the left of the body, from line y: the columns, the highlighted lit. */
static void view_sort_menu(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	int cols[COL_MAX + 64];
	const struct ui *u = v->u;
	size_t n = ui_sort_menu(u, v->m, cols, sizeof(cols) / sizeof(cols[0]));
	size_t rows = h > 1 ? (size_t)h - 1 : 0, top;
	const int w = 18;

	if (!rows)
		return;
	/* a menu longer than the screen scrolls with its highlight */
	top = u->sort_sel >= rows ? u->sort_sel - rows + 1 : 0;
	canvas_fill(c, y, 0, w, ' ', CANVAS_TITLE);
	canvas_put(c, 0, y, "Sort by", CANVAS_TITLE, w);
	for (size_t i = top; i < n && i - top < rows; i++) {
		int row = y + 1 + (int)(i - top);

		canvas_fill(c, row, 0, w, ' ', CANVAS_NORMAL);
		canvas_printf(c, 0, row, CANVAS_NORMAL, w, " %s%s",
			      model_column_title(v->m, cols[i], view_list_rows(u)),
			      cols[i] == u->sort_col ? (u->reverse ? " (rev)" : " *") : "");
		canvas_attr(c, row, 0, w, i == u->sort_sel ? CANVAS_SELECTED : CANVAS_NORMAL);
		canvas_put(c, w, row, "|", CANVAS_DIM, 1);
	}
}

/* The users menu (u) over the left of the body, from line y: processes and name, as htop's. */
static void view_user_menu(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct ui *u = v->u;
	struct ui_user *users = NULL;
	size_t cap = 0, n = ui_user_menu(u, v->m, &users, &cap);
	size_t rows = h > 1 ? (size_t)h - 1 : 0, top;
	const int w = c->w < 30 ? c->w - 1 : 30;

	if (!rows || w < 2) {
		free(users);
		return;
	}
	/* a menu longer than the screen scrolls with its highlight */
	top = u->user_sel >= rows ? u->user_sel - rows + 1 : 0;
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
		canvas_attr(c, row, 0, w, i == u->user_sel ? CANVAS_SELECTED : CANVAS_NORMAL);
		canvas_put(c, w, row, "|", CANVAS_DIM, 1);
	}
	free(users);
}

/* Draw the list from y to y + h, from the first row the selection keeps on screen. */
static void view_list(struct canvas *c, int y, int h, const struct view_ctx *v, enum col_rows rows)
{
	struct table_layout t;
	const struct ui *u = v->u;

	if (h < 1)
		return;
	table_layout(v->m, c->w, rows, u->hscroll, &t);
	/* the last step of the text stops where the longest one ends at the edge, not past */
	if (t.text_off > 0) {
		int end = ui_text_cells(u, v->list) - (c->w - t.rest_x);

		if (t.text_off > end)
			t.text_off = end > 0 ? end : 0;
	}
	view_table_titles(c, y, v->m, &t, rows, u);
	for (size_t i = u->top; i < v->list->n && (int)(i - u->top) < h - 1; i++) {
		const struct view_row_style st = {
			.rows = rows,
			/* a cgroup's rest column is its path, kept in the command line */
			.cmdline = u->cmdline || rows == COL_ROWS_CGROUPS,
			.selected = i == u->sel,
			/* a user's row carries a uid, which a tagged pid may equal */
			.tagged = u->view == UI_VIEW_TABLE && !u->per_user &&
				  ui_tagged(u, v->list->v[i]->id),
			.utf8 = v->utf8,
			.tree = v->list->is_tree ? &v->list->tree[i] : NULL,
		};

		view_table_row(c, y + 1 + (int)(i - u->top), v->m, v->list->v[i], &t, &st);
	}
}

/* The cgroup view: its list, or why there is none. */
static void view_cgroups(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;

	if (h < 2)
		return;
	if (!m->have_cgroups) {
		canvas_put(c, 0, y + 1,
			   v->replay ? "this recording has no cgroup rows"
				     : "cgroups are not counted here (e: log says why)",
			   CANVAS_DIM, -1);
		return;
	}
	view_list(c, y, h, v, COL_ROWS_CGROUPS);
	if (!m->ncgroups)
		canvas_put(c, 0, y + 2,
			   "no cgroups at this depth of the hierarchy (see --cgroup-depth and "
			   "--cgroup)",
			   CANVAS_DIM, -1);
}

static void view_footer(struct canvas *c, const struct view_ctx *v)
{
	static const char *const LABEL[] = {
		[UI_PROMPT_SEARCH] = "Search: ",
		[UI_PROMPT_FILTER] = "Filter: ",
		[UI_PROMPT_USER] = "User: ",
		[UI_PROMPT_DELAY] = "Delay (seconds): ",
		[UI_PROMPT_TIME] = "Go to (HH:MM:SS or +seconds): ",
		[UI_PROMPT_SIGNAL] = "Signal: ",
		[UI_PROMPT_CONFIRM] = "",
		[UI_PROMPT_SORT] = "Sort: ",
	};
	const struct ui *u = v->u;
	int y = c->h - 1, x = 0;
	size_t n;
	const struct ui_binding *b = ui_bindings(&n);

	/* a question or a status line too long for the screen ends at a word, a number whole */
	if (u->prompt == UI_PROMPT_CONFIRM) {
		view_put_words(c, 0, y, u->ask, CANVAS_ERROR, c->w);
		return;
	}
	if (u->prompt == UI_PROMPT_SIGNAL) {
		x = canvas_put(c, 0, y, LABEL[u->prompt], CANVAS_KEY, -1);
		if (u->sig_typed)
			x += canvas_printf(c, x, y, CANVAS_NORMAL, -1, "%d ", u->sig_typed);
		canvas_put(c, x, y, "Up/Down, a number or a letter; Enter: choose; Esc: cancel",
			   CANVAS_KEYTEXT, -1);
		return;
	}
	if (u->prompt == UI_PROMPT_SORT) {
		x = canvas_put(c, 0, y, LABEL[u->prompt], CANVAS_KEY, -1);
		canvas_put(c, x, y, "Up/Down; Enter: sort by the column; Esc: cancel",
			   CANVAS_KEYTEXT, -1);
		return;
	}
	if (u->prompt == UI_PROMPT_USER) {
		x = canvas_put(c, 0, y, LABEL[u->prompt], CANVAS_KEY, -1);
		canvas_put(c, x, y, "Up/Down; Enter: show the user's processes; Esc: cancel",
			   CANVAS_KEYTEXT, -1);
		return;
	}
	if (u->prompt != UI_PROMPT_NONE) {
		const char *text = u->input.text;
		int cells = prompt_cells(&u->input);

		x = canvas_put(c, 0, y, LABEL[u->prompt], CANVAS_KEY, -1);
		/* text longer than the line shows its end, where the cursor is, whole characters */
		while (*text && x + cells + 1 > c->w) {
			text++;
			while ((*text & 0xc0) == 0x80)
				text++;
			cells = canvas_cells(text);
		}
		x += canvas_put(c, x, y, text, CANVAS_NORMAL, -1);
		x += canvas_put(c, x, y, "_", CANVAS_SELECTED, -1);
		if (u->prompt == UI_PROMPT_SEARCH && u->search_miss && x + 9 <= c->w)
			canvas_put(c, x + 1, y, "no match", CANVAS_ERROR, -1);
		return;
	}
	if (u->status[0]) {
		view_put_words(c, 0, y, u->status, CANVAS_ERROR, c->w);
		return;
	}
	for (size_t i = 0; i < n && x < c->w; i++) {
		if (!(b[i].footer_in & UI_IN(u->view)))
			continue;
		/* a key and its word whole, or neither */
		if (x + (int)strlen(b[i].footer_key) + (int)strlen(b[i].footer) > c->w)
			break;
		x += canvas_put(c, x, y, b[i].footer_key, CANVAS_KEY, -1);
		x += canvas_printf(c, x, y, CANVAS_KEYTEXT, -1, "%-*s",
				   (int)strlen(b[i].footer) + 1, b[i].footer);
	}
	canvas_fill(c, y, x, c->w, ' ', CANVAS_KEYTEXT);
}

static const struct model_row *view_find_row(const struct model *m, int pid)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].id == pid)
			return &m->rows[i];
	return NULL;
}

/* A share bar of w cells: blocks in UTF-8, '#' otherwise. */
static void view_bar(struct canvas *c, int x, int y, int w, double frac, bool utf8)
{
	int fill = isfinite(frac) ? (int)lround(fmin(fmax(frac, 0.0), 1.0) * w) : 0;

	for (int i = 0; i < w; i++)
		canvas_put(c, x + i, y, i < fill ? (utf8 ? "\u2588" : "#") : " ", CANVAS_BAR, 1);
}

/* Mapping names are paths: keep their tail, where the file name is. */
static void view_map_name(char *buf, size_t size, const char *name, int w)
{
	size_t n = strlen(name);

	if (w <= 3 || n <= (size_t)w)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "...%s", name + n - (size_t)(w - 3));
}

/* Rows of pages in a pages pane of h lines, and whether the instructions block fits below. */
static int view_pages_rows(int h, bool *ips)
{
	*ips = h - 1 >= 3 + VIEW_IPS_LINES;
	return h - 1 - (*ips ? VIEW_IPS_LINES : 0);
}

/* The instructions that touched page e most, each named by function and file where known. */
static void view_page_ips(struct canvas *c, int y, const struct hotpage_entry *e,
			  const struct view_ctx *v)
{
	const struct model *m = v->m;
	uint64_t ip[HOTPAGE_IPS];
	uint32_t cnt[HOTPAGE_IPS];
	size_t n = hotpage_ips(e, ip, cnt, HOTPAGE_IPS);
	int x;

	x = canvas_printf(c, 0, y, CANVAS_LABEL, -1, "Page 0x%" PRIx64 ":",
			  e->page << m->hp->shift);
	canvas_printf(c, x, y, CANVAS_NORMAL, -1, " %s%s",
		      n ? "the instructions that touched it most"
			: "its samples carry no instruction address",
		      n && v->ip_local ? " (symbols from this machine's files)" : "");
	for (size_t i = 0; i < n; i++) {
		char name[512] = "";
		double share = e->samples ? 100.0 * fmin((double)cnt[i], (double)e->samples) /
						    (double)e->samples
					  : 0;

		if (v->ip_name)
			v->ip_name(v->ip_arg, ip[i], name, sizeof(name));
		canvas_printf(c, 0, y + 1 + (int)i, CANVAS_NORMAL, -1,
			      "  %5.1f%%  0x%012" PRIx64 "  %s", share, ip[i], name);
	}
}

static void view_pages(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	bool ips;
	int rows = view_pages_rows(h, &ips);
	size_t n = 0, sel, top;
	struct hotpage_entry *all = rows > 0 ? hotpage_sorted(m->hp, &n) : NULL;
	int barw = c->w >= 100 ? 12 : c->w >= 70 ? 8 : 0;
	int x;
	char count[64];
	/* where the kernel cannot say, no column rather than a node 0 it never said */
	bool nodes = hotpage_has_nodes(m->hp);

	if (rows <= 0)
		return;
	sel = ui_page_index(v->u, all, n);
	top = ui_page_top(v->u, sel, n, (size_t)rows);
	canvas_fill(c, y, 0, c->w, ' ', CANVAS_TITLE);
	x = 0;
	if (barw)
		x += canvas_printf(c, x, y, CANVAS_TITLE, -1, "%-*s ", barw, "HEAT");
	x += canvas_printf(c, x, y, CANVAS_TITLE, -1, "%-18s %6s %6s %6s %5s %-7s ", "PAGE",
			   "SHARE%", "LOADS", "STORES", "LAT", "SOURCE");
	if (nodes)
		x += canvas_printf(c, x, y, CANVAS_TITLE, -1, "%4s %5s ", "NODE", "REM%");
	/*
	 * Where the selection is in the list: at the right of the titles, or
	 * in place of the MAPPING title where the line has no room for both.
	 */
	snprintf(count, sizeof(count), "%zu of %zu page%s", n ? sel + 1 : 0, n, n == 1 ? "" : "s");
	if (c->w - (int)strlen(count) > x + 8)
		canvas_put(c, c->w - (int)strlen(count), y, count, CANVAS_TITLE, -1);
	else
		x += canvas_put(c, x, y, count, CANVAS_TITLE, -1) + 1;
	if (c->w - (int)strlen(count) > x + 8)
		canvas_put(c, x, y, "MAPPING", CANVAS_TITLE, -1);
	for (size_t i = top; i < n && i < top + (size_t)rows; i++) {
		const struct hotpage_entry *e = &all[i];
		const char *own = hotpage_entry_name(m->hp, e);
		const struct mem_map *pm =
			own ? NULL
			    : mem_find_map(m->maps, m->nmaps,
					   (unsigned long long)(e->page << m->hp->shift));
		double share = m->hp->total > 0 ? e->weight / m->hp->total : 0;
		struct hotpage_cells cl;
		char name[256], label[128];
		int row = y + 1 + (int)(i - top);

		hotpage_cells(e->loads, e->stores, e->lat_sum, e->lat_n, &cl);
		hotpage_cells_na(&cl, m->sample_flags);
		x = 0;
		if (barw) {
			view_bar(c, 0, row, barw, all[0].weight > 0 ? e->weight / all[0].weight : 0,
				 v->utf8);
			x = barw + 1;
		}
		x += canvas_printf(c, x, row, CANVAS_NORMAL, -1,
				   "0x%016" PRIx64 " %6.1f %6s %6s %5s ", e->page << m->hp->shift,
				   100 * share, cl.loads, cl.stores, cl.latency);
		x += canvas_printf(c, x, row,
				   mem_level_far(hotpage_dominant_level(e)) ? CANVAS_HOT
									    : CANVAS_NORMAL,
				   -1, "%-7.7s ", hotpage_source_cell(e, m->sample_flags));
		if (nodes) {
			struct hotpage_numa_cells nc;

			hotpage_numa_cells(e, &nc);
			x += canvas_printf(c, x, row, CANVAS_NORMAL, -1, "%4s ", nc.node);
			x += canvas_printf(c, x, row, e->remote ? CANVAS_HOT : CANVAS_NORMAL, -1,
					   "%5s ", nc.remote);
		}
		if (pm)
			mem_map_label(pm, label, sizeof(label));
		/* a narrow line gives an anonymous mapping its start, not the tail of its range */
		if (pm && mem_map_anon(pm) && (int)strlen(label) > c->w - x)
			snprintf(label, sizeof(label), "[anon %llx]", pm->start);
		view_map_name(name, sizeof(name), own ? own : pm ? label : "[unmapped]", c->w - x);
		canvas_put(c, x, row, name, CANVAS_NORMAL, -1);
		if (i == sel)
			canvas_attr(c, row, 0, c->w, CANVAS_SELECTED);
	}
	if (ips && n)
		view_page_ips(c, y + 1 + rows, &all[sel], v);
	free(all);
}

static void view_mappings(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct hotpage_group g[64];
	size_t n = hotpage_by_mapping(m->hp, m->maps, m->nmaps, g, 64);
	int barw = c->w >= 100 ? 12 : c->w >= 70 ? 8 : 0;

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_TITLE);
	canvas_printf(c, barw ? barw + 1 : 0, y, CANVAS_TITLE, -1, "%6s %6s %6s %6s %5s %s",
		      "SHARE%", "PAGES", "LOADS", "STORES", "LAT", "MAPPING");
	if (barw)
		canvas_printf(c, 0, y, CANVAS_TITLE, -1, "%-*s", barw, "HEAT");
	for (size_t i = 0; i < n && (int)i < h - 1; i++) {
		struct hotpage_cells cl;
		int row = y + 1 + (int)i, x = 0;
		char label[128];

		hotpage_cells(g[i].loads, g[i].stores, g[i].lat_sum, g[i].lat_n, &cl);
		hotpage_cells_na(&cl, m->sample_flags);
		if (barw) {
			view_bar(c, 0, row, barw, g[0].weight > 0 ? g[i].weight / g[0].weight : 0,
				 v->utf8);
			x = barw + 1;
		}
		canvas_printf(c, x, row, CANVAS_NORMAL, -1, "%6.1f %6zu %6s %6s %5s %s",
			      m->hp->total > 0 ? 100 * g[i].weight / m->hp->total : 0, g[i].pages,
			      cl.loads, cl.stores, cl.latency,
			      g[i].map ? mem_map_label(g[i].map, label, sizeof(label)) : g[i].name);
	}
}

/* The sampling pane: what is sampled and how, then the pages or mappings. */
static void view_samples(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct ui *u = v->u;
	int x;

	if (h < 2)
		return;
	if (m->sample_pid != u->drill || !m->hp) {
		const char *why = v->sample_err && v->sample_err[0] ? v->sample_err
				  : v->replay
					  ? "this recording has no samples of this process"
					  : "sampling: the first samples come with the next tick";

		canvas_put(c, 0, y, why,
			   v->sample_err && v->sample_err[0] ? CANVAS_WARN : CANVAS_DIM, -1);
		return;
	}
	x = canvas_printf(c, 0, y, CANVAS_LABEL, -1, "Samples: ");
	x += canvas_printf(c, x, y, CANVAS_HEADER, -1, "%s", m->sample_source);
	x += canvas_printf(c, x, y, CANVAS_NORMAL, -1, " (period %" PRIu64 "), %.0f/s",
			   m->sample_period, m->sample_rate);
	x += canvas_printf(c, x, y, m->lost_tick ? CANVAS_HOT : CANVAS_NORMAL, -1,
			   ", dropped %" PRIu64, m->lost);
	if (m->throttled)
		x += canvas_printf(c, x, y, CANVAS_WARN, -1, ", throttled %" PRIu64, m->throttled);
	if (m->sample_nonmem)
		x += canvas_printf(c, x, y, CANVAS_NORMAL, -1, ", non-memory ops dropped %" PRIu64,
				   m->sample_nonmem);
	x += canvas_printf(c, x, y, CANVAS_NORMAL, -1, "; %s pages, half-life %.3g s%s",
			   m->hp->shift == 21 ? "2 MiB" : "4 KiB", m->hp->halflife,
			   u->drill_mode == UI_DRILL_MAPPINGS ? "; per mapping" : "");
	if (hotpage_has_nodes(m->hp)) {
		double rs = hotpage_remote_share(m->hp);

		if (isnan(rs))
			canvas_printf(c, x, y, CANVAS_NORMAL, -1, "; remote -");
		else
			canvas_printf(c, x, y, rs > 0 ? CANVAS_HOT : CANVAS_NORMAL, -1,
				      "; remote %.1f%%", 100 * rs);
	} else if (m->sample_flags & SNAP_SMP_NO_NUMA)
		canvas_printf(c, x, y, CANVAS_DIM, -1, "; no NUMA nodes");
	if (!strcmp(m->sample_source, "page faults"))
		canvas_put(c, 0, y + 1,
			   "page faults show first touches, copy-on-write and refaults, not access "
			   "frequency",
			   CANVAS_DIM, -1);
	else if (m->sample_flags & SNAP_SMP_NO_LATENCY)
		canvas_put(
			c, 0, y + 1,
			"LAT and SOURCE n/a: no load-latency events here; MEM_INST_RETIRED gives "
			"addresses only",
			CANVAS_DIM, -1);
	if (u->drill_mode == UI_DRILL_MAPPINGS)
		view_mappings(c, y + VIEW_SAMPLE_LINES, h - VIEW_SAMPLE_LINES, v);
	else
		view_pages(c, y + VIEW_SAMPLE_LINES, h - VIEW_SAMPLE_LINES, v);
}

static void view_drill(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct model_row *p = view_find_row(m, v->u->drill);
	int x;

	if (h < 3)
		return;
	if (p) {
		int ids[VIEW_MAX_COLS];
		size_t n = model_columns(m, ids, VIEW_MAX_COLS);

		char res[16], mem[16], tm[16];

		x = canvas_printf(c, 0, y, CANVAS_HEADER, -1, "PID %d %s", p->id, p->comm);
		x += canvas_printf(c, x, y, CANVAS_NORMAL, -1, "  user %s  %d thread%s  state %c",
				   p->user, p->threads, p->threads == 1 ? "" : "s", p->state);
		/* /proc's columns on the name line; the counters on their own below */
		model_format_cell(m, p, COL_RES, COL_ROWS_PROCESSES, 6, res, sizeof(res));
		model_format_cell(m, p, COL_MEM, COL_ROWS_PROCESSES, 5, mem, sizeof(mem));
		model_format_cell(m, p, COL_TIME, COL_ROWS_PROCESSES, 9, tm, sizeof(tm));
		canvas_printf(c, x, y, CANVAS_NORMAL, -1, "  RES %s  %%MEM %s  TIME+ %s", res, mem,
			      tm);
		canvas_put(c, 0, y + 1, p->cmdline, CANVAS_DIM, -1);
		x = 0;
		for (size_t i = 0; i < n; i++) {
			const struct column *col = model_column(m, ids[i]);
			char num[48];

			if (ids[i] >= COL_MAX || col->type != COL_TYPE_NUM || col->proc || p->err)
				continue;
			columns_format_num(num, sizeof(num), p->v[col->id], col->prec,
					   model_cell_flags(p, col->id));
			x += canvas_printf(c, x, y + 2, CANVAS_LABEL, -1, "%s ", col->title);
			x += canvas_printf(
				c, x, y + 2,
				view_cell_attr(col, p->v[col->id], p->na & (1u << col->id)), -1,
				"%s  ", num);
		}
		if (p->err)
			canvas_printf(c, 0, y + 2, CANVAS_WARN, -1, "not counted: %s (e: log)",
				      errmsg_short(p->err));
	} else {
		canvas_printf(c, 0, y, CANVAS_WARN, -1, "process %d is gone (Esc: back)",
			      v->u->drill);
	}
	y += VIEW_DRILL_LINES;
	h -= VIEW_DRILL_LINES;
	if (v->u->drill_mode != UI_DRILL_THREADS) {
		view_samples(c, y, h, v);
		return;
	}
	if (!v->list->n && h > 0) {
		if (v->replay)
			canvas_printf(c, 0, y + 1, CANVAS_DIM, -1,
				      "this recording has no per-thread counts for pid %d",
				      v->u->drill);
		else if (p)
			canvas_printf(c, 0, y + 1, CANVAS_DIM, -1,
				      "counting the threads of pid %d on their own: values come "
				      "with the next tick",
				      v->u->drill);
	}
	view_list(c, y, h, v, COL_ROWS_THREADS);
}

/* Help lines from line scroll on go to y0 .. y0 + h; lines before and after are counted only. */
struct view_help_out {
	struct canvas *c;
	int y0, h;
	size_t scroll, line;
};

static void view_help_line(struct view_help_out *o, int attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void view_help_line(struct view_help_out *o, int attr, const char *fmt, ...)
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
static bool view_help_in(const struct ui_binding *b, size_t s)
{
	for (size_t t = 0; t < s; t++)
		if (b->in & VIEW_HELP_SECTIONS[t].in)
			return false;
	return b->in & VIEW_HELP_SECTIONS[s].in;
}

/*
 * A pager's first line for scroll: never past the last page, so that paging
 * down beyond the end shows the end, not an empty page.
 */
static size_t view_pager_first(size_t scroll, size_t total, int h)
{
	size_t rows = h > 0 ? (size_t)h : 0;

	if (total <= rows)
		return 0;
	return scroll < total - rows ? scroll : total - rows;
}

/* Blank rows y0 .. y0 + h - 1, before a pager draws itself again. */
static void view_pager_clear(struct canvas *c, int y0, int h)
{
	for (int y = y0; y < y0 + h; y++)
		canvas_fill(c, y, 0, c->w, ' ', CANVAS_NORMAL);
}

/* The help from line scroll on; returns how many lines it has. */
static size_t view_help_at(struct canvas *c, int y0, int h, size_t scroll)
{
	struct view_help_out o = { .c = c, .y0 = y0, .h = h, .scroll = scroll };
	size_t n;
	const struct ui_binding *b = ui_bindings(&n);

	for (size_t s = 0; s < sizeof(VIEW_HELP_SECTIONS) / sizeof(VIEW_HELP_SECTIONS[0]); s++) {
		if (s)
			view_help_line(&o, CANVAS_NORMAL, "%s", "");
		view_help_line(&o, CANVAS_HEADER, "%s", VIEW_HELP_SECTIONS[s].title);
		view_help_line(&o, CANVAS_NORMAL, "%s", "");
		for (size_t i = 0; i < n; i++) {
			char keys[64];

			if (!view_help_in(&b[i], s))
				continue;
			ui_binding_keys(&b[i], keys, sizeof(keys));
			view_help_line(&o, CANVAS_NORMAL, "  %-28s %s", keys, b[i].help);
		}
	}
	view_help_line(&o, CANVAS_NORMAL, "%s", "");
	view_help_line(&o, CANVAS_HEADER, "Columns");
	for (int i = 0; i < COL_MAX; i++)
		view_help_line(&o, CANVAS_NORMAL, "  %-8s %s", columns_get(i)->title,
			       columns_get(i)->help);
	view_help_line(&o, CANVAS_NORMAL, "  %-8s %s", "NAME/s", columns_event()->help);
	view_help_line(&o, CANVAS_NORMAL, "  %-8s %s", "e1/s",
		       "the same for a long NAME: the line "
		       "above the keys names it");
	view_help_line(&o, CANVAS_NORMAL, "%s", "");
	view_help_line(&o, CANVAS_NORMAL, "Marks: * estimated from a multiplexed counter;");
	view_help_line(&o, CANVAS_NORMAL,
		       "       n/a the counter did not run; - undefined (nothing to divide by)");
	view_help_line(&o, CANVAS_NORMAL,
		       "Colours: green good, yellow fair, red poor IPC/CPI and miss ratios");
	return o.line;
}

void view_help(struct canvas *c, int y0, int h, size_t scroll)
{
	size_t first = view_pager_first(scroll, view_help_at(c, y0, h, scroll), h);

	if (first != scroll) {
		view_pager_clear(c, y0, h);
		view_help_at(c, y0, h, first);
	}
}

/* How many bytes of p (len of them) fit a line of w: whole UTF-8 characters, at least one. */
static size_t view_log_take(const char *p, size_t len, size_t w)
{
	size_t take = len > w ? w : len;

	while (take < len && take > 1 && ((unsigned char)p[take] & 0xc0) == 0x80)
		take--;
	return take ? take : len;
}

static void view_log(struct canvas *c, int y0, int h, const struct view_ctx *v)
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
			p += view_log_take(p, (size_t)(e - p), (size_t)c->w), total++;
	first = view_pager_first(v->u->scroll, total, h - 2);
	for (size_t i = 0, line = 0, y = 2; i < v->nlog && (int)y < h; i++) {
		const char *p = v->log[i];
		size_t len = strlen(p);

		do {
			size_t take = view_log_take(p, len, (size_t)c->w);
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
static void view_events_facts(struct view_help_out *o, const struct errmsg_mode *f)
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
	view_help_line(o, CANVAS_NORMAL, "%s", line);
}

/* A share of time as a cell: "100.0", "50.0", "-" when the event was never enabled. */
static void view_share(char *buf, size_t size, double share)
{
	if (isnan(share))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f", 100 * share);
}

/* Whether event i is an -e event with a short column title; the title into buf. */
static bool view_event_short(const struct model *m, size_t i, char *buf, size_t size)
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
static size_t view_events_at(struct canvas *c, int y0, int h, const struct view_ctx *v,
			     size_t scroll)
{
	struct view_help_out o = { .c = c, .y0 = y0, .h = h, .scroll = scroll };
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
	view_help_line(&o, CANVAS_HEADER, "Events%s", v->have_frame ? " in the last interval" : "");
	view_help_line(&o, CANVAS_NORMAL, "%s", sum);
	view_events_facts(&o, v->facts);
	view_help_line(&o, CANVAS_NORMAL, "%s", "");
	if (o.line >= o.scroll && o.line - o.scroll < (size_t)(h > 0 ? h : 0))
		canvas_fill(c, y0 + (int)(o.line - o.scroll), 0, c->w, ' ', CANVAS_TITLE);
	view_help_line(&o, CANVAS_TITLE, "%-*s %5s %-4s %-8s %-13s %6s %6s", namew, "EVENT",
		       "GROUP", "KIND", "ASKED", "STATUS", "PROC%", "CPU%");
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
			view_share(pt, sizeof(pt), evstat_share(st, false));
			view_share(pc, sizeof(pc), evstat_share(st, true));
		}
		view_help_line(&o, attr, "%-*.*s %5d %-4s %-8s %-13s %6s %6s", namew, namew,
			       e->name, e->group, e->hw ? "hw" : "sw", e->user ? "-e" : "built-in",
			       evstat_status_name(s), pt, pc);
		if (e->err) {
			errmsg_perf(why, sizeof(why), e->err, e->name, paranoid);
			view_help_line(&o, CANVAS_DIM, "    %s", why);
		} else if (s == EVSTAT_SUSPECT) {
			view_help_line(&o, CANVAS_DIM, "    %s",
				       "never counted anything while the CPU did a lot of work: a "
				       "hypervisor may filter it");
		}
		if (e->user && view_event_short(m, i, head, sizeof(head)))
			view_help_line(&o, CANVAS_DIM, "    the column %s", head);
		if (st && st->tasks_failed && !e->err)
			view_help_line(&o, CANVAS_DIM, "    not counted in %zu process%s: %s",
				       st->tasks_failed, st->tasks_failed == 1 ? "" : "es",
				       errmsg_short(st->task_err));
	}
	view_help_line(&o, CANVAS_NORMAL, "%s", "");
	view_help_line(&o, CANVAS_DIM, "%s",
		       "PROC% CPU%: time running over time enabled in the interval, summed over");
	view_help_line(&o, CANVAS_DIM, "%s",
		       "the processes and the per-CPU counters; below 100: multiplexed, scaled");
	if (nuser)
		view_help_line(
			&o, CANVAS_DIM, "%s",
			"-e columns: per second (NAME/s; e1/s for a long NAME); CSV and JSON "
			"give the count in the interval");
	return o.line;
}

static void view_events(struct canvas *c, int y0, int h, const struct view_ctx *v)
{
	size_t scroll = v->u->scroll;
	size_t first = view_pager_first(scroll, view_events_at(c, y0, h, v, scroll), h);

	if (first != scroll) {
		view_pager_clear(c, y0, h);
		view_events_at(c, y0, h, v, first);
	}
}

/*
 * Lines the legend of the short -e titles takes above the footer: one where a
 * table of rows with event columns shows and an event's name is too long for
 * its title, on a screen tall enough to spare it; else 0.
 */
static int view_legend_lines(const struct view_ctx *v, int h)
{
	const struct ui *u = v->u;
	bool table = u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS ||
		     (u->view == UI_VIEW_DRILL && u->drill_mode == UI_DRILL_THREADS);

	if (!v->have_frame || !table || h < view_header_lines(v) + 8)
		return 0;
	for (size_t k = 0; k < v->m->nraw; k++)
		if (model_event_short(v->m, k))
			return 1;
	return 0;
}

/*
 * The legend on line y: "e1/s = NAME" for each short title, whole entries
 * while they fit, then how many did not (the events screen, E, has them all).
 */
static void view_legend(struct canvas *c, int y, const struct view_ctx *v)
{
	const struct model *m = v->m;
	size_t left = 0;
	int x = 0;

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_NORMAL);
	for (size_t k = 0; k < m->nraw; k++) {
		char head[64];
		const char *name = model_column_title(m, COL_MAX + (int)k, COL_ROWS_PROCESSES);
		int need;

		if (!model_event_short(m, k))
			continue;
		model_column_head(m, COL_MAX + (int)k, COL_ROWS_PROCESSES, head, sizeof(head));
		need = (x ? 2 : 0) + (int)strlen(head) + 3 + canvas_cells(name);
		/* the first entry is drawn as far as it goes: a title is never left unexplained */
		if (x && x + need > c->w - 12) {
			left++;
			continue;
		}
		x += canvas_put(c, x, y, x ? "  " : "", CANVAS_NORMAL, -1);
		x += canvas_put(c, x, y, head, CANVAS_LABEL, -1);
		x += canvas_put(c, x, y, " = ", CANVAS_NORMAL, -1);
		x += canvas_put(c, x, y, name, CANVAS_NORMAL, -1);
	}
	if (left)
		canvas_printf(c, x, y, CANVAS_DIM, -1, "  +%zu more (E)", left);
}

/* The setup screen's sections: their titles and widths. */
static const struct {
	const char *title;
	int w;
} VIEW_SETUP_SECTIONS[UI_SETUP_MAX] = {
	[UI_SETUP_COLUMNS] = { "Columns", 22 },
	[UI_SETUP_METERS] = { "Meters", 26 },
	[UI_SETUP_COLOURS] = { "Colours", 22 },
};

static const char *const VIEW_METER_LABELS[UI_METER_MAX] = {
	[UI_METER_CPUS] = "CPU meters",	       [UI_METER_UPTIME] = "uptime",
	[UI_METER_LOAD] = "load average",      [UI_METER_SELF] = "pmctop's own cost",
	[UI_METER_MEMORY] = "memory and swap",
};

static const char *const VIEW_METER_HELP[UI_METER_MAX] = {
	[UI_METER_CPUS] = "one meter per CPU under the header: busy %, IPC, GHz (key 1)",
	[UI_METER_UPTIME] = "how long the machine has been up, on the first line",
	[UI_METER_LOAD] = "the load averages over 1, 5 and 15 minutes, on the first line",
	[UI_METER_SELF] = "what pmctop itself costs: CPU %, memory, descriptors (live only)",
	[UI_METER_MEMORY] = "top's MiB Mem and MiB Swap lines from /proc/meminfo, under Tasks",
};

static const char *const VIEW_SCHEME_HELP[UI_SCHEME_MAX] = {
	[UI_SCHEME_DEFAULT] = "green good, yellow fair, red poor values on the default background",
	[UI_SCHEME_MONO] = "no colours: bold, underline and reverse only (as NO_COLOR gives)",
	[UI_SCHEME_LIGHT] = "darker colours that read on a light background",
};

/* The text of entry i of section s, and whether it is on; the description in help. */
static void view_setup_entry(const struct view_ctx *v, enum ui_setup_section s, size_t i, char *buf,
			     size_t size, const char **help, const char **title, bool *dim)
{
	const struct ui *u = v->u;

	*dim = false;
	*title = NULL;
	if (s == UI_SETUP_COLUMNS) {
		const struct column *col = columns_get(u->cols.order[i]);

		snprintf(buf, size, "[%c] %s%s",
			 columns_choice_shown(&u->cols, col->id) ? 'x' : ' ', col->title,
			 col->rest ? " (last)" : "");
		*help = col->help;
		*title = col->title;
		*dim = !model_column_shown(v->m, col->id);
	} else if (s == UI_SETUP_METERS) {
		snprintf(buf, size, "[%c] %s", ui_meter_shown(u, (enum ui_meter)i) ? 'x' : ' ',
			 VIEW_METER_LABELS[i]);
		*help = VIEW_METER_HELP[i];
	} else {
		snprintf(buf, size, "(%c) %s", u->scheme == (enum ui_scheme)i ? '*' : ' ',
			 ui_scheme_name((enum ui_scheme)i));
		*help = VIEW_SCHEME_HELP[i];
	}
}

/*
 * The setup screen (F2): the columns in their order, shown or hidden; the header's meters;
 * the colour schemes. Side by side, the section in use highlighted; the highlighted entry's
 * description on the last line. A long column list scrolls with its highlight.
 */
static void view_setup(struct canvas *c, int y0, int h, const struct view_ctx *v)
{
	static const size_t N[UI_SETUP_MAX] = { COL_MAX, UI_METER_MAX, UI_SCHEME_MAX };
	const struct ui *u = v->u;
	int rows = h - 4, x = 0;
	const char *sel_help = "", *sel_title = NULL;
	char line[96];

	if (h < 1)
		return;
	x = canvas_put(c, 0, y0, "Setup", CANVAS_HEADER, -1);
	if (v->settings_path)
		canvas_printf(c, x, y0, CANVAS_DIM, -1, "  applied at once; w saves them to %s",
			      v->settings_path);
	else
		canvas_put(c, x, y0, "  applied at once; no settings file to save to (--no-config)",
			   CANVAS_DIM, -1);
	if (rows < 1)
		return;
	x = 0;
	for (int s = 0; s < UI_SETUP_MAX; s++) {
		int w = VIEW_SETUP_SECTIONS[s].w;
		size_t sel = u->setup_sel[s],
		       top = sel >= (size_t)rows ? sel - (size_t)rows + 1 : 0;
		int attr = s == (int)u->setup_sec ? CANVAS_TITLE_SORT : CANVAS_TITLE;

		canvas_fill(c, y0 + 2, x, x + w - 1, ' ', attr);
		/* a list cut short says where in it the highlight is */
		if (N[s] > (size_t)rows)
			canvas_printf(c, x + 1, y0 + 2, attr, w - 2, "%s %zu/%zu",
				      VIEW_SETUP_SECTIONS[s].title, sel + 1, N[s]);
		else
			canvas_put(c, x + 1, y0 + 2, VIEW_SETUP_SECTIONS[s].title, attr, w - 2);
		for (size_t i = top; i < N[s] && i - top < (size_t)rows; i++) {
			int y = y0 + 3 + (int)(i - top);
			const char *help, *title;
			bool dim, on = s == (int)u->setup_sec && i == sel;

			view_setup_entry(v, (enum ui_setup_section)s, i, line, sizeof(line), &help,
					 &title, &dim);
			if (on) {
				canvas_fill(c, y, x, x + w - 1, ' ', CANVAS_SELECTED);
				sel_help = help;
				sel_title = title;
			}
			canvas_put(c, x + 1, y, line,
				   on	 ? CANVAS_SELECTED
				   : dim ? CANVAS_DIM
					 : CANVAS_NORMAL,
				   w - 2);
		}
		x += w;
	}
	canvas_printf(c, 0, y0 + h - 1, CANVAS_DIM, -1, "%s%s%s%s", sel_title ? sel_title : "",
		      sel_title ? ": " : "", sel_help,
		      u->setup_sec == UI_SETUP_COLUMNS &&
				      !model_column_shown(
					      v->m, u->cols.order[u->setup_sel[UI_SETUP_COLUMNS]])
			      ? "; no data in this event mode"
			      : "");
}

/* The page of the current view, and the line of the list's titles (-1 when no list shows). */
static size_t view_geometry(const struct view_ctx *v, int w, int h, bool *list, int *list_y)
{
	const struct ui *u = v->u;
	int body = h - view_header_lines(v) - 1, y = view_header_lines(v);
	struct layout_cores lc;

	*list = false;
	*list_y = -1;
	if (UI_IN(u->view) & UI_IN_PAGERS) {
		/* the lines a pager shows: below its title line, and the log's blank line */
		body -= u->view == UI_VIEW_ERRORS ? 3 : 1;
		return body > 1 ? (size_t)body : 1;
	}
	body -= view_legend_lines(v, h);
	if (!v->have_frame || u->view == UI_VIEW_SETUP)
		return 0;
	if (u->show_cpus && (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS)) {
		int used = view_cores_fit(v->m, w, body, &lc);

		body -= used;
		y += used;
	}
	if (u->view == UI_VIEW_DRILL) {
		bool ips;
		int rows = view_pages_rows(body - VIEW_DRILL_LINES - VIEW_SAMPLE_LINES, &ips);

		/* the hot pages page by their rows, but are no list of processes */
		if (u->drill_mode == UI_DRILL_PAGES && body >= 3)
			return rows > 0 ? (size_t)rows : 0;
		if (body < 3 || u->drill_mode != UI_DRILL_THREADS)
			return 0;
		body -= VIEW_DRILL_LINES;
		y += VIEW_DRILL_LINES;
	}
	if (body < 1)
		return 0;
	*list = true;
	*list_y = y;
	return body > 1 ? (size_t)(body - 1) : 1;
}

size_t view_page(const struct view_ctx *v, int w, int h, bool *list)
{
	int list_y;

	return view_geometry(v, w, h, list, &list_y);
}

int view_list_y(const struct view_ctx *v, int w, int h)
{
	bool list;
	int list_y;

	view_geometry(v, w, h, &list, &list_y);
	return list_y;
}

void view_render(struct canvas *c, const struct view_ctx *v)
{
	const struct ui *u = v->u;
	int y, body;

	canvas_clear(c);
	y = view_header(c, v);
	body = c->h - y - 1;
	if (view_legend_lines(v, c->h)) {
		body--;
		view_legend(c, c->h - 2, v);
	}
	if (u->view == UI_VIEW_HELP) {
		view_help(c, y + 1, body - 1, u->scroll);
	} else if (u->view == UI_VIEW_ERRORS) {
		view_log(c, y + 1, body - 1, v);
	} else if (u->view == UI_VIEW_EVENTS) {
		view_events(c, y + 1, body - 1, v);
	} else if (u->view == UI_VIEW_SETUP) {
		view_setup(c, y + 1, body - 1, v);
	} else if (!v->have_frame) {
		canvas_put(c, 0, y + 1, "collecting the first interval...", CANVAS_DIM, -1);
	} else {
		if (u->show_cpus && (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS)) {
			int used = view_cores(c, y, body, v);

			y += used;
			body -= used;
		}
		if (u->view == UI_VIEW_DRILL)
			view_drill(c, y, body, v);
		else if (u->view == UI_VIEW_CGROUPS)
			view_cgroups(c, y, body, v);
		else
			view_list(c, y, body, v, view_list_rows(u));
	}
	if (u->prompt == UI_PROMPT_SIGNAL || u->prompt == UI_PROMPT_CONFIRM) {
		/* over the list from its titles down, else under the header */
		int my = view_list_y(v, c->w, c->h);

		if (my < 0)
			my = view_header_lines(v);
		view_signal_menu(c, my, c->h - my - 1, u);
	}
	if (u->prompt == UI_PROMPT_SORT || u->prompt == UI_PROMPT_USER) {
		int my = view_list_y(v, c->w, c->h);

		if (my < 0)
			my = view_header_lines(v);
		if (u->prompt == UI_PROMPT_SORT)
			view_sort_menu(c, my, c->h - my - 1, v);
		else
			view_user_menu(c, my, c->h - my - 1, v);
	}
	view_footer(c, v);
}
