/* The screens of pmctop as pure drawing on a canvas: header, meters, tables, help, log. */
#include "config.h"
#include "view/view.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/errmsg.h"
#include "view/layout.h"
#include "model/metrics.h"

#define VIEW_CORE_MIN_W 24
#define VIEW_HEADER_LINES 3
#define VIEW_DRILL_LINES 4 /* the drilled process: name, command line, metrics, a blank */
#define VIEW_MAX_COLS (COL_MAX + 64)

/* The help screen's sections of the key table: a binding goes in the first whose views it has. */
static const struct {
	unsigned in;
	const char *title;
} VIEW_HELP_SECTIONS[] = {
	{ .in = UI_IN(UI_VIEW_TABLE), .title = "Keys" },
	{ .in = UI_IN(UI_VIEW_DRILL), .title = "In the drill-down" },
	{ .in = UI_IN(UI_VIEW_CGROUPS), .title = "In the cgroup view" },
	{ .in = UI_IN_PAGERS, .title = "In help and the log" },
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
	return view_rows(u->threads || u->view == UI_VIEW_DRILL);
}

static size_t view_columns_of(const struct model *m, int width, enum col_rows rows, int *out)
{
	struct layout_col cand[VIEW_MAX_COLS];
	int ids[VIEW_MAX_COLS];
	size_t n = model_columns(m, ids, VIEW_MAX_COLS), nc = 0;
	int min_last = 0;

	for (size_t i = 0; i < n; i++) {
		const struct column *col = model_column(m, ids[i]);

		if (!columns_on_rows(col, rows))
			continue;
		/* the rest column is drawn after the others, in what is left of the line */
		if (col->rest) {
			min_last = col->width;
			continue;
		}
		cand[nc++] = (struct layout_col){
			.id = ids[i],
			.width = columns_width(col, rows),
			.prio = col->prio,
		};
	}
	return layout_fit(cand, nc, width, min_last, out);
}

size_t view_table_columns(const struct model *m, int width, bool threads, int *out)
{
	return view_columns_of(m, width, view_rows(threads), out);
}

/* The value of a numeric cell and whether its counter did not run. */
static double view_value(const struct model_row *r, int id, bool *na)
{
	if (id >= COL_MAX) {
		size_t k = (size_t)(id - COL_MAX);

		*na = r->raw_fl[k] & MODEL_F_NA;
		return r->raw[k];
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

static int view_header(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct ui *u = v->u;
	char up[64] = "", sort[96], unsup[1024];
	int x;
	int sc = u->sort_col;

	if (v->uptime >= 0)
		view_uptime(up, sizeof(up), v->uptime);
	x = canvas_printf(c, 0, 0, CANVAS_HEADER, -1, "pmctop - %s%s", v->host,
			  v->replay ? " (replay)" : "");
	x += canvas_printf(c, x, 0, CANVAS_NORMAL, -1, "  kernel %s  %s", v->kernel, up);
	canvas_printf(c, x, 0, CANVAS_NORMAL, -1, "  load %.2f %.2f %.2f", m->load[0], m->load[1],
		      m->load[2]);
	x = canvas_put(c, 0, 1, "Events: ", CANVAS_LABEL, -1);
	x += canvas_put(c, x, 1, v->mode, evlist_any_hw(&m->ev) ? CANVAS_NORMAL : CANVAS_WARN, -1);
	if (m->nmultiplexed)
		x += canvas_printf(c, x, 1, CANVAS_WARN, -1,
				   "; %zu event%s multiplexed (values marked *)", m->nmultiplexed,
				   m->nmultiplexed == 1 ? "" : "s");
	if (*model_unsupported_text(m, COL_ROWS_PROCESSES, unsup, sizeof(unsup)))
		canvas_printf(c, x, 1, CANVAS_WARN, -1, "; %s", unsup);
	if (u->view == UI_VIEW_DRILL && u->drill_mode != UI_DRILL_THREADS) {
		x = canvas_put(c, 0, 2, "Process: ", CANVAS_LABEL, -1);
		x += canvas_printf(c, x, 2, CANVAS_NORMAL, -1, "%d, its hot pages", u->drill);
	} else if (u->view == UI_VIEW_CGROUPS) {
		x = canvas_put(c, 0, 2, "Cgroups: ", CANVAS_LABEL, -1);
		x += canvas_printf(c, x, 2, CANVAS_NORMAL, -1, "%zu shown", v->list->n);
	} else {
		x = canvas_put(c, 0, 2,
			       u->threads || u->view == UI_VIEW_DRILL ? "Threads: " : "Tasks: ",
			       CANVAS_LABEL, -1);
		x += canvas_printf(c, x, 2, CANVAS_NORMAL, -1, "%zu shown", v->list->n);
	}
	/* what hides rows or stops updates comes first, where a narrow screen still shows it */
	if (u->paused)
		x += canvas_put(c, x, 2, " PAUSED", CANVAS_HOT, -1);
	if (u->replay_ended)
		x += canvas_put(c, x, 2, " (end of recording)", CANVAS_WARN, -1);
	if (u->cgroup[0] && u->view == UI_VIEW_TABLE)
		x += canvas_printf(c, x, 2, CANVAS_WARN, -1, "; cgroup '%s'", u->cgroup);
	if (u->filter[0] && u->view != UI_VIEW_DRILL)
		x += canvas_printf(c, x, 2, CANVAS_WARN, -1, "; filter '%s'", u->filter);
	if (u->user[0] && u->view != UI_VIEW_DRILL)
		x += canvas_printf(c, x, 2, CANVAS_WARN, -1, "; user '%s'", u->user);
	if (m->cg_not_counted && u->view == UI_VIEW_CGROUPS)
		x += canvas_printf(c, x, 2, CANVAS_WARN, -1, ", %zu not counted (e: log)",
				   m->cg_not_counted);
	if (m->have_cgroups && u->view == UI_VIEW_CGROUPS)
		x += canvas_printf(c, x, 2, CANVAS_NORMAL, -1, ", %" PRIu64 " fds", m->cg_fds);
	else if (m->not_counted && u->view != UI_VIEW_DRILL && u->view != UI_VIEW_CGROUPS)
		x += canvas_printf(c, x, 2, CANVAS_WARN, -1, ", %zu not counted (%s, e: log)",
				   m->not_counted, errmsg_short(m->not_counted_err));
	snprintf(sort, sizeof(sort), "%s%s",
		 model_column_title(
			 m, sc, u->view == UI_VIEW_CGROUPS ? COL_ROWS_CGROUPS : COL_ROWS_PROCESSES),
		 u->reverse ? " (reversed)" : "");
	canvas_printf(c, x, 2, CANVAS_NORMAL, -1, "; every %.2g s; sort %s", u->delay, sort);
	return VIEW_HEADER_LINES;
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

	if (r->id < 0)
		snprintf(label, sizeof(label), "all");
	else
		snprintf(label, sizeof(label), "%3d", r->id);
	lw = canvas_printf(c, x, y, CANVAS_LABEL, w, "%s", label);
	if (isnan(busy))
		snprintf(text, sizeof(text), "-");
	else
		snprintf(text, sizeof(text), "%.*f%s", cpu->prec, busy, cpu->unit);
	if (model_column_shown(m, COL_IPC) && w >= 40) {
		char vi[16], vg[16];

		/* a meter has no room for the estimate mark; n/a and suspect stay */
		columns_format_num(vi, sizeof(vi), r->v[COL_IPC], ipc->prec,
				   model_cell_flags(r, COL_IPC) & ~MODEL_F_EST);
		columns_format_num(vg, sizeof(vg), r->v[COL_GHZ], ghz->prec,
				   model_cell_flags(r, COL_GHZ) & ~MODEL_F_EST);
		snprintf(text + strlen(text), sizeof(text) - strlen(text), " %s %s %s%s",
			 ipc->title, vi, vg, ghz->unit);
	}
	bw = w - lw - 3; /* " [" and "]" */
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

static void view_table_titles(struct canvas *c, int y, const struct model *m, const int *cols,
			      size_t n, enum col_rows rows, const struct ui *u)
{
	const struct column *rest = columns_get(COL_COMMAND);
	int x = 0;

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_TITLE);
	for (size_t i = 0; i < n; i++) {
		const struct column *col = model_column(m, cols[i]);
		int w = columns_width(col, rows);
		const char *t = model_column_title(m, cols[i], rows);
		int attr = cols[i] == u->sort_col ? CANVAS_TITLE_SORT : CANVAS_TITLE;

		canvas_printf(c, x, y, attr, w, col->left ? "%-*.*s" : "%*.*s", w, w, t);
		x += w + 1;
	}
	canvas_put(c, x, y,
		   u->cmdline && rest->cmdline_title && rows != COL_ROWS_CGROUPS
			   ? rest->cmdline_title
			   : columns_title(rest, rows),
		   u->sort_col == COL_COMMAND ? CANVAS_TITLE_SORT : CANVAS_TITLE, -1);
}

static void view_table_row(struct canvas *c, int y, const struct model *m,
			   const struct model_row *r, const int *cols, size_t n, enum col_rows rows,
			   bool cmdline, bool selected)
{
	int x = 0;

	for (size_t i = 0; i < n; i++) {
		const struct column *col = model_column(m, cols[i]);
		int w = columns_width(col, rows);
		char cell[48], buf[64];
		int attr = CANVAS_NORMAL;

		if (col->type == COL_TYPE_NUM && r->err) {
			snprintf(cell, sizeof(cell), "-");
			attr = CANVAS_DIM;
		} else {
			model_format_cell(m, r, cols[i], rows, w, cell, sizeof(cell));
			if (col->type == COL_TYPE_NUM) {
				bool na;
				double v = view_value(r, cols[i], &na);

				attr = view_cell_attr(col, v, na);
			}
		}
		if (col->left)
			snprintf(buf, sizeof(buf), "%-*.*s", w, w, cell);
		else
			snprintf(buf, sizeof(buf), "%*s", w, cell);
		canvas_put(c, x, y, buf, attr, w);
		x += w + 1;
	}
	x += canvas_put(c, x, y, cmdline && r->cmdline[0] ? r->cmdline : r->comm, CANVAS_NORMAL,
			-1);
	if (r->err)
		canvas_printf(c, x, y, CANVAS_DIM, -1, " [not counted: %s]", errmsg_short(r->err));
	if (selected)
		canvas_attr(c, y, 0, c->w, CANVAS_SELECTED);
}

/* Draw the list from y to y + h, from the first row the selection keeps on screen. */
static void view_list(struct canvas *c, int y, int h, const struct view_ctx *v, enum col_rows rows)
{
	int cols[VIEW_MAX_COLS];
	size_t n = view_columns_of(v->m, c->w, rows, cols);
	const struct ui *u = v->u;

	if (h < 1)
		return;
	view_table_titles(c, y, v->m, cols, n, rows, u);
	/* a cgroup's rest column is its path, kept in the command line */
	for (size_t i = u->top; i < v->list->n && (int)(i - u->top) < h - 1; i++)
		view_table_row(c, y + 1 + (int)(i - u->top), v->m, v->list->v[i], cols, n, rows,
			       u->cmdline || rows == COL_ROWS_CGROUPS, i == u->sel);
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
	};
	const struct ui *u = v->u;
	int y = c->h - 1, x = 0;
	size_t n;
	const struct ui_binding *b = ui_bindings(&n);

	if (u->prompt != UI_PROMPT_NONE) {
		x = canvas_put(c, 0, y, LABEL[u->prompt], CANVAS_KEY, -1);
		x += canvas_put(c, x, y, u->input, CANVAS_NORMAL, -1);
		canvas_put(c, x, y, "_", CANVAS_SELECTED, -1);
		return;
	}
	if (u->status[0]) {
		canvas_put(c, 0, y, u->status, CANVAS_ERROR, -1);
		return;
	}
	for (size_t i = 0; i < n && x < c->w; i++) {
		if (!(b[i].footer_in & UI_IN(u->view)))
			continue;
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

static void view_pages(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct hotpage_entry top[256];
	size_t n = hotpage_top(m->hp, top, h > 1 ? ((size_t)h - 1 < 256 ? (size_t)h - 1 : 256) : 0);
	int barw = c->w >= 100 ? 12 : c->w >= 70 ? 8 : 0;
	int x;

	canvas_fill(c, y, 0, c->w, ' ', CANVAS_TITLE);
	x = 0;
	if (barw)
		x += canvas_printf(c, x, y, CANVAS_TITLE, -1, "%-*s ", barw, "HEAT");
	canvas_printf(c, x, y, CANVAS_TITLE, -1, "%-18s %6s %6s %6s %5s %-7s %s", "PAGE", "SHARE%",
		      "LOADS", "STORES", "LAT", "SOURCE", "MAPPING");
	for (size_t i = 0; i < n; i++) {
		const struct hotpage_entry *e = &top[i];
		const struct mem_map *pm = mem_find_map(
			m->maps, m->nmaps, (unsigned long long)(e->page << m->hp->shift));
		double share = m->hp->total > 0 ? e->weight / m->hp->total : 0;
		struct hotpage_cells cl;
		char name[256];
		int row = y + 1 + (int)i;

		hotpage_cells(e->loads, e->stores, e->lat_sum, e->lat_n, &cl);
		hotpage_cells_na(&cl, m->sample_flags);
		x = 0;
		if (barw) {
			view_bar(c, 0, row, barw, top[0].weight > 0 ? e->weight / top[0].weight : 0,
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
		view_map_name(name, sizeof(name), pm ? pm->name : "[unmapped]", c->w - x);
		canvas_put(c, x, row, name, CANVAS_NORMAL, -1);
	}
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

		hotpage_cells(g[i].loads, g[i].stores, g[i].lat_sum, g[i].lat_n, &cl);
		hotpage_cells_na(&cl, m->sample_flags);
		if (barw) {
			view_bar(c, 0, row, barw, g[0].weight > 0 ? g[i].weight / g[0].weight : 0,
				 v->utf8);
			x = barw + 1;
		}
		canvas_printf(c, x, row, CANVAS_NORMAL, -1, "%6.1f %6zu %6s %6s %5s %s",
			      m->hp->total > 0 ? 100 * g[i].weight / m->hp->total : 0, g[i].pages,
			      cl.loads, cl.stores, cl.latency, g[i].name);
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
	canvas_printf(c, x, y, CANVAS_NORMAL, -1, "; %s pages, half-life %.3g s%s",
		      m->hp->shift == 21 ? "2 MiB" : "4 KiB", m->hp->halflife,
		      u->drill_mode == UI_DRILL_MAPPINGS ? "; per mapping" : "");
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
		view_mappings(c, y + 2, h - 2, v);
	else
		view_pages(c, y + 2, h - 2, v);
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

		x = canvas_printf(c, 0, y, CANVAS_HEADER, -1, "PID %d %s", p->id, p->comm);
		canvas_printf(c, x, y, CANVAS_NORMAL, -1, "  user %s  %d thread%s  state %c",
			      p->user, p->threads, p->threads == 1 ? "" : "s", p->state);
		canvas_put(c, 0, y + 1, p->cmdline, CANVAS_DIM, -1);
		x = 0;
		for (size_t i = 0; i < n; i++) {
			const struct column *col = model_column(m, ids[i]);
			char num[48];

			if (ids[i] >= COL_MAX || col->type != COL_TYPE_NUM || p->err)
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

void view_help(struct canvas *c, int y0, int h, size_t scroll)
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
	view_help_line(&o, CANVAS_NORMAL, "%s", "");
	view_help_line(&o, CANVAS_NORMAL, "Marks: * estimated from a multiplexed counter;");
	view_help_line(&o, CANVAS_NORMAL,
		       "       n/a the counter did not run; - undefined (nothing to divide by)");
	view_help_line(&o, CANVAS_NORMAL,
		       "Colours: green good, yellow fair, red poor IPC/CPI and miss ratios");
}

static void view_log(struct canvas *c, int y0, int h, const struct view_ctx *v)
{
	canvas_put(c, 0, y0, "Log (oldest first)", CANVAS_HEADER, -1);
	if (!v->nlog) {
		canvas_put(c, 0, y0 + 2, "nothing to report: every process and event is counted",
			   CANVAS_DIM, -1);
		return;
	}
	/* long messages wrap; scrolling counts wrapped lines */
	for (size_t i = 0, line = 0, y = 2; i < v->nlog && (int)y < h; i++) {
		const char *p = v->log[i];
		size_t len = strlen(p);

		do {
			size_t take = len > (size_t)c->w ? (size_t)c->w : len;
			char buf[1024];

			snprintf(buf, sizeof(buf), "%.*s", (int)take, p);
			if (line++ >= v->u->scroll && (int)y < h)
				canvas_put(c, 0, y0 + (int)y++, buf, CANVAS_NORMAL, -1);
			p += take;
			len -= take;
		} while (len);
	}
}

size_t view_page(const struct view_ctx *v, int w, int h, bool *list)
{
	const struct ui *u = v->u;
	int body = h - VIEW_HEADER_LINES - 1;
	struct layout_cores lc;

	*list = false;
	if (u->view == UI_VIEW_HELP || u->view == UI_VIEW_ERRORS)
		return body > 1 ? (size_t)body : 1;
	if (!v->have_frame)
		return 0;
	if (u->show_cpus && (u->view == UI_VIEW_TABLE || u->view == UI_VIEW_CGROUPS))
		body -= view_cores_fit(v->m, w, body, &lc);
	if (u->view == UI_VIEW_DRILL) {
		if (body < 3 || u->drill_mode != UI_DRILL_THREADS)
			return 0;
		body -= VIEW_DRILL_LINES;
	}
	if (body < 1)
		return 0;
	*list = true;
	return body > 1 ? (size_t)(body - 1) : 1;
}

void view_render(struct canvas *c, const struct view_ctx *v)
{
	const struct ui *u = v->u;
	int y, body;

	canvas_clear(c);
	y = view_header(c, v);
	body = c->h - y - 1;
	if (u->view == UI_VIEW_HELP) {
		view_help(c, y + 1, body - 1, u->scroll);
	} else if (u->view == UI_VIEW_ERRORS) {
		view_log(c, y + 1, body - 1, v);
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
	view_footer(c, v);
}
