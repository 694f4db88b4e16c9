/* The header: host, events, what is listed, the memory lines, and the per-core meters. */
#include "config.h"
#include "view/header.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/errmsg.h"
#include "view/canvas.h"
#include "view/fields.h"
#include "view/list.h"
#include "view/ui.h"
#include "view/view.h"

#define HEADER_CORE_MIN_W 24

#define HEADER_LINES 3 /* without the memory meters' two */

static void header_uptime(char *buf, size_t size, double up)
{
	long s = (long)up, d = s / 86400, h = s % 86400 / 3600, mi = s % 3600 / 60;

	if (d)
		snprintf(buf, size, "up %ld day%s %02ld:%02ld", d, d == 1 ? "" : "s", h, mi);
	else
		snprintf(buf, size, "up %02ld:%02ld", h, mi);
}

/* The first line: host, the replay's time, kernel, uptime, load, and what watching costs. */
static void header_host(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct fields f = { 0 };
	char up[64] = "", when[40] = "";
	size_t i;

	if (v->uptime >= 0 && setup_meter_shown(v->u, UI_METER_UPTIME))
		header_uptime(up, sizeof(up), v->uptime);
	/* a replay says when the frame on screen was recorded */
	if (v->replay && m->wall > 0 && m->wall < 1e12) {
		time_t t = (time_t)m->wall;
		struct tm tm;

		if (!localtime_r(&t, &tm) || !strftime(when, sizeof(when), " %H:%M:%S", &tm))
			when[0] = '\0';
	}
	fields_add(&f, LAYOUT_KEEP, CANVAS_HEADER, "pmctop");
	fields_add(&f, 99, CANVAS_HEADER, " - %s", v->host);
	if (v->replay) {
		i = fields_add(&f, 70, CANVAS_HEADER, " (replay%s)", when);
		fields_short(&f, i, " (replay)");
	}
	fields_add(&f, 20, CANVAS_NORMAL, "  kernel %s", v->kernel);
	if (up[0])
		fields_add(&f, 30, CANVAS_NORMAL, "  %s", up);
	if (setup_meter_shown(v->u, UI_METER_LOAD)) {
		i = fields_add(&f, 60, CANVAS_NORMAL, "  load %.2f %.2f %.2f", m->load[0],
			       m->load[1], m->load[2]);
		fields_short(&f, i, "  load %.2f", m->load[0]);
	}
	/* what watching costs, last: a narrow screen leaves it out first */
	if (v->self && setup_meter_shown(v->u, UI_METER_SELF) && isfinite(v->self->cpu_pct) &&
	    isfinite(v->self->rss_bytes)) {
		i = fields_add(&f, 10, CANVAS_DIM, "  self %.1f%% %.1fMiB %.0f/%.0ffd",
			       v->self->cpu_pct, v->self->rss_bytes / 1048576,
			       isfinite(v->self->open_fds) ? v->self->open_fds : 0,
			       isfinite(v->self->max_fds) ? v->self->max_fds : 0);
		fields_short(&f, i, "  self %.1f%%", v->self->cpu_pct);
	}
	fields_draw(c, 0, &f);
}

/* The second line: the event mode, then what is multiplexed and what cannot be counted. */
static void header_events(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct fields f = { 0 };
	char unsup[1024];
	int ids[MODEL_MAX_COLS], err[MODEL_MAX_COLS];
	size_t i;

	fields_add(&f, LAYOUT_KEEP, CANVAS_LABEL, "Events: ");
	fields_add(&f, LAYOUT_KEEP, evlist_any_hw(&m->ev) ? CANVAS_NORMAL : CANVAS_WARN, "%s",
		   v->mode);
	if (m->nmultiplexed) {
		i = fields_add(&f, 50, CANVAS_WARN, "; %zu event%s multiplexed (values marked *)",
			       m->nmultiplexed, m->nmultiplexed == 1 ? "" : "s");
		fields_short(&f, i, "; %zu event%s multiplexed (*)", m->nmultiplexed,
			     m->nmultiplexed == 1 ? "" : "s");
	}
	if (*model_unsupported_text(m, COL_ROWS_PROCESSES, unsup, sizeof(unsup))) {
		size_t n = model_columns_unsupported(m, ids, err, MODEL_MAX_COLS);

		i = fields_add(&f, 40, CANVAS_WARN, "; %s", unsup);
		fields_short(&f, i, "; %zu column%s not counted (E)", n, n == 1 ? "" : "s");
	}
	fields_draw(c, 1, &f);
}

/* The third line: what is listed, then what hides rows or stops updates, the pace and sort. */
static void header_rows(struct canvas *c, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct ui *u = v->u;
	struct fields f = { 0 };
	int sc = u->sort_col;
	bool tasks = false; /* the rows are processes: top's count by state goes with them */
	size_t i;

	if (u->view == UI_VIEW_DRILL && u->drill.mode != UI_DRILL_THREADS) {
		fields_add(&f, LAYOUT_KEEP, CANVAS_LABEL, "Process: ");
		fields_add(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%d, its hot pages", u->drill.pid);
	} else {
		const char *label = u->view == UI_VIEW_CGROUPS		      ? "Cgroups: "
				    : u->per_user && u->view == UI_VIEW_TABLE ? "Users: "
				    : u->threads || u->view == UI_VIEW_DRILL  ? "Threads: "
									      : "Tasks: ";

		fields_add(&f, LAYOUT_KEEP, CANVAS_LABEL, "%s", label);
		fields_add(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%zu shown", v->list->n);
		tasks = !strcmp(label, "Tasks: ");
	}
	/* what hides rows or stops updates comes first, and stays longest on a narrow screen */
	if (u->paused)
		fields_add(&f, 95, CANVAS_HOT, " PAUSED");
	if (u->replay_ended) {
		i = fields_add(&f, 90, CANVAS_WARN, " (end of recording)");
		fields_short(&f, i, " (end)");
	}
	/* top's count by state, of every process of the snapshot, not only those shown */
	if (tasks && m->states.total) {
		const struct model_states *st = &m->states;

		i = fields_add(&f, 50, CANVAS_NORMAL,
			       "; %zu total, %zu running, %zu sleeping, %zu stopped, %zu zombie",
			       st->total, st->running, st->sleeping, st->stopped, st->zombie);
		fields_short(&f, i, "; %zu total, %zu running", st->total, st->running);
	}
	if (u->cgroup[0] && u->view == UI_VIEW_TABLE)
		fields_add(&f, 80, CANVAS_WARN, "; cgroup '%s'", u->cgroup);
	if (u->filter[0] && u->view != UI_VIEW_DRILL)
		fields_add(&f, 80, CANVAS_WARN, "; filter '%s'", u->filter);
	if (u->user[0] && u->view != UI_VIEW_DRILL)
		fields_add(&f, 80, CANVAS_WARN, "; user '%s'", u->user);
	if (u->follow)
		fields_add(&f, 75, CANVAS_WARN, "; following %d%s", u->follow_id,
			   list_find_process(m, u->follow_id) ? "" : " (exited)");
	if (u->tags.n && u->view == UI_VIEW_TABLE)
		fields_add(&f, 70, CANVAS_WARN, "; %zu tagged", u->tags.n);
	if (m->cg_not_counted && u->view == UI_VIEW_CGROUPS) {
		i = fields_add(&f, 60, CANVAS_WARN, ", %zu not counted (e: log)",
			       m->cg_not_counted);
		fields_short(&f, i, ", %zu not counted", m->cg_not_counted);
	}
	if (m->have_cgroups && u->view == UI_VIEW_CGROUPS) {
		fields_add(&f, 35, CANVAS_NORMAL, ", %" PRIu64 " fds", m->cg_fds);
	} else if (m->not_counted && u->view != UI_VIEW_DRILL && u->view != UI_VIEW_CGROUPS) {
		i = fields_add(&f, 60, CANVAS_WARN, ", %zu not counted (%s, e: log)",
			       m->not_counted, errmsg_short(m->not_counted_err));
		fields_short(&f, i, ", %zu not counted", m->not_counted);
	}
	/* the pace the user chose is what they know best: it gives way first */
	fields_add(&f, 25, CANVAS_NORMAL, "; every %.2g s", u->delay);
	i = fields_add(&f, 45, CANVAS_NORMAL, "; sort %s%s%s",
		       model_column_title(m, sc,
					  u->view == UI_VIEW_CGROUPS ? COL_ROWS_CGROUPS
								     : COL_ROWS_PROCESSES),
		       u->reverse ? " (reversed)" : "",
		       v->list->is_tree ? ", as a tree" : ""); /* not the per-user rows */
	if (u->reverse || v->list->is_tree)
		fields_short(&f, i, "; sort %s",
			     model_column_title(m, sc,
						u->view == UI_VIEW_CGROUPS ? COL_ROWS_CGROUPS
									   : COL_ROWS_PROCESSES));
	fields_draw(c, 2, &f);
}

/* MiB with a tenth as top writes them, or "-" when unknown: an empty meter is never 0. */
static void header_mib(char *buf, size_t size, double mib)
{
	if (isfinite(mib))
		snprintf(buf, size, "%.1f", mib);
	else
		snprintf(buf, size, "-");
}

/* The fourth and fifth lines: top's "MiB Mem :" and "MiB Swap:" from /proc/meminfo. */
static void header_memory(struct canvas *c, int y, const struct view_ctx *v)
{
	struct model_memory mm;
	char tot[32], fr[32], us[32], bc[32], st[32], sf[32], su[32], av[32];
	struct fields f = { 0 };

	model_memory(v->m, &mm);
	header_mib(tot, sizeof(tot), mm.total);
	header_mib(fr, sizeof(fr), mm.free);
	header_mib(us, sizeof(us), mm.used);
	header_mib(bc, sizeof(bc), mm.buff_cache);
	header_mib(st, sizeof(st), mm.swap_total);
	header_mib(sf, sizeof(sf), mm.swap_free);
	header_mib(su, sizeof(su), mm.swap_used);
	header_mib(av, sizeof(av), mm.avail);
	/* the label and the total stay; a narrow line shows the label alone, never half a number */
	fields_add(&f, LAYOUT_KEEP, CANVAS_LABEL, "MiB Mem : ");
	fields_add(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%s total", tot);
	fields_add(&f, 70, CANVAS_NORMAL, ", %s free", fr);
	fields_add(&f, 80, CANVAS_NORMAL, ", %s used", us);
	fields_add(&f, 60, CANVAS_NORMAL, ", %s buff/cache", bc);
	fields_draw(c, y, &f);
	f = (struct fields){ 0 };
	fields_add(&f, LAYOUT_KEEP, CANVAS_LABEL, "MiB Swap: ");
	fields_add(&f, LAYOUT_KEEP, CANVAS_NORMAL, "%s total", st);
	fields_add(&f, 65, CANVAS_NORMAL, ", %s free", sf);
	fields_add(&f, 70, CANVAS_NORMAL, ", %s used", su);
	fields_add(&f, 75, CANVAS_NORMAL, ". %s avail Mem", av);
	fields_draw(c, y + 1, &f);
}

/* The header's lines: three, and the memory meters' two where they are shown. */
int header_lines(const struct view_ctx *v)
{
	return HEADER_LINES + (setup_meter_shown(v->u, UI_METER_MEMORY) ? 2 : 0);
}

int header_draw(struct canvas *c, const struct view_ctx *v)
{
	header_host(c, v);
	header_events(c, v);
	header_rows(c, v);
	if (setup_meter_shown(v->u, UI_METER_MEMORY))
		header_memory(c, HEADER_LINES, v);
	return header_lines(v);
}

static void header_meter(struct canvas *c, int x, int y, int w, const struct model_row *r,
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
static size_t header_meters(const struct model *m)
{
	return m->ncpus == 2 ? 1 : m->ncpus;
}

/* Lines the core meters take atop a body of body lines, with the blank after; 0 when hidden. */
int header_cores_fit(const struct model *m, int w, int body, struct layout_cores *lc)
{
	size_t n = header_meters(m);

	if (!n || layout_cores((int)n, w, (body - 4) / 3, HEADER_CORE_MIN_W, lc))
		return 0;
	return lc->rows + 1;
}

/* The per-core meters; returns the lines used. */
int header_cores(struct canvas *c, int y, int body, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct layout_cores lc;
	int used = header_cores_fit(m, c->w, body, &lc);

	if (!used)
		return 0;
	for (size_t i = 0; i < header_meters(m); i++) {
		int col = (int)i / lc.rows, row = (int)i % lc.rows;

		header_meter(c, col * (lc.cell_w + 1), y + row, lc.cell_w, &m->cpus[i], m, v->utf8);
	}
	return used;
}
