/* The drill-down of one process: its counts, its threads, and the sampled hot pages or mappings. */
#include "config.h"
#include "view/drill.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "view/canvas.h"
#include "view/list.h"
#include "view/tableview.h"
#include "view/ui.h"
#include "view/view.h"

/* The selected row of the hot pages v (hottest first, n of them): the picked page, or its place. */
static size_t drill_page_index(const struct ui *u, const struct hotpage_entry *v, size_t n)
{
	if (!n || !u->drill.page_chosen)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].page == u->drill.page_sel)
			return i;
	return u->drill.page_idx < n ? u->drill.page_idx : n - 1;
}

/* The first of rows page rows on screen, with row sel among them. */
static size_t drill_page_top(const struct ui *u, size_t sel, size_t n, size_t rows)
{
	size_t top = u->drill.page_top;

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
void drill_page_move(struct ui *u, const struct model *m, int key)
{
	size_t n = 0, page = u->page ? u->page : 1;
	struct hotpage_entry *v = m->hp ? hotpage_sorted(m->hp, &n) : NULL;
	size_t to = list_step(drill_page_index(u, v, n), n, page, key);

	if (!n)
		return;
	/* Home goes back to following the hottest page, whichever it is */
	u->drill.page_chosen = key != UI_KEY_HOME;
	u->drill.page_sel = v[to].page;
	u->drill.page_idx = to;
	u->drill.page_top = drill_page_top(u, to, n, page);
	free(v);
}

#define DRILL_MAX_COLS (COL_MAX + 64)

#define DRILL_IPS_LINES (1 + HOTPAGE_IPS) /* the selected page's instructions */

/* A share bar of w cells: blocks in UTF-8, '#' otherwise. */
static void drill_bar(struct canvas *c, int x, int y, int w, double frac, bool utf8)
{
	int fill = isfinite(frac) ? (int)lround(fmin(fmax(frac, 0.0), 1.0) * w) : 0;

	for (int i = 0; i < w; i++)
		canvas_put(c, x + i, y, i < fill ? (utf8 ? "\u2588" : "#") : " ", CANVAS_BAR, 1);
}

/* Mapping names are paths: keep their tail, where the file name is. */
static void drill_map_name(char *buf, size_t size, const char *name, int w)
{
	size_t n = strlen(name);

	if (w <= 3 || n <= (size_t)w)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "...%s", name + n - (size_t)(w - 3));
}

/* Rows of pages in a pages pane of h lines, and whether the instructions block fits below. */
int drill_pages_rows(int h, bool *ips)
{
	*ips = h - 1 >= 3 + DRILL_IPS_LINES;
	return h - 1 - (*ips ? DRILL_IPS_LINES : 0);
}

/* The instructions that touched page e most, each named by function and file where known. */
static void drill_page_ips(struct canvas *c, int y, const struct hotpage_entry *e,
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

static void drill_pages(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	bool ips;
	int rows = drill_pages_rows(h, &ips);
	size_t n = 0, sel, top;
	struct hotpage_entry *all = rows > 0 ? hotpage_sorted(m->hp, &n) : NULL;
	int barw = c->w >= 100 ? 12 : c->w >= 70 ? 8 : 0;
	int x;
	char count[64];
	/* where the kernel cannot say, no column rather than a node 0 it never said */
	bool nodes = hotpage_has_nodes(m->hp);

	if (rows <= 0)
		return;
	sel = drill_page_index(v->u, all, n);
	top = drill_page_top(v->u, sel, n, (size_t)rows);
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
			drill_bar(c, 0, row, barw,
				  all[0].weight > 0 ? e->weight / all[0].weight : 0, v->utf8);
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
		drill_map_name(name, sizeof(name), own ? own : pm ? label : "[unmapped]", c->w - x);
		canvas_put(c, x, row, name, CANVAS_NORMAL, -1);
		if (i == sel)
			canvas_attr(c, row, 0, c->w, CANVAS_SELECTED);
	}
	if (ips && n)
		drill_page_ips(c, y + 1 + rows, &all[sel], v);
	free(all);
}

static void drill_mappings(struct canvas *c, int y, int h, const struct view_ctx *v)
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
			drill_bar(c, 0, row, barw, g[0].weight > 0 ? g[i].weight / g[0].weight : 0,
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
static void drill_samples(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct ui *u = v->u;
	int x;

	if (h < 2)
		return;
	if (m->sample_pid != u->drill.pid || !m->hp) {
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
			   u->drill.mode == UI_DRILL_MAPPINGS ? "; per mapping" : "");
	if (hotpage_has_nodes(m->hp)) {
		double rs = hotpage_remote_share(m->hp);

		if (isnan(rs))
			canvas_printf(c, x, y, CANVAS_NORMAL, -1, "; remote -");
		else
			canvas_printf(c, x, y, rs > 0 ? CANVAS_HOT : CANVAS_NORMAL, -1,
				      "; remote %.1f%%", 100 * rs);
	} else if (m->sample_flags & SNAP_SMP_NO_NUMA) {
		canvas_printf(c, x, y, CANVAS_DIM, -1, "; no NUMA nodes");
	}
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
	if (u->drill.mode == UI_DRILL_MAPPINGS)
		drill_mappings(c, y + DRILL_SAMPLE_LINES, h - DRILL_SAMPLE_LINES, v);
	else
		drill_pages(c, y + DRILL_SAMPLE_LINES, h - DRILL_SAMPLE_LINES, v);
}

void drill_draw(struct canvas *c, int y, int h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct model_row *p = list_find_process(m, v->u->drill.pid);
	int x;

	if (h < 3)
		return;
	if (p) {
		int ids[DRILL_MAX_COLS];
		size_t n = model_columns(m, ids, DRILL_MAX_COLS);

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
				tableview_cell_attr(col, p->v[col->id], p->na & (1u << col->id)),
				-1, "%s  ", num);
		}
		if (p->err)
			canvas_printf(c, 0, y + 2, CANVAS_WARN, -1, "not counted: %s (e: log)",
				      errmsg_short(p->err));
	} else {
		canvas_printf(c, 0, y, CANVAS_WARN, -1, "process %d is gone (Esc: back)",
			      v->u->drill.pid);
	}
	y += DRILL_LINES;
	h -= DRILL_LINES;
	if (v->u->drill.mode != UI_DRILL_THREADS) {
		drill_samples(c, y, h, v);
		return;
	}
	if (!v->list->n && h > 0) {
		if (v->replay)
			canvas_printf(c, 0, y + 1, CANVAS_DIM, -1,
				      "this recording has no per-thread counts for pid %d",
				      v->u->drill.pid);
		else if (p)
			canvas_printf(c, 0, y + 1, CANVAS_DIM, -1,
				      "counting the threads of pid %d on their own: values come "
				      "with the next tick",
				      v->u->drill.pid);
	}
	tableview_draw(c, y, h, v, COL_ROWS_THREADS);
}
