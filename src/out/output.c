/* Batch frames: text for people, CSV and JSON Lines for programs. */
#include "config.h"
#include "out/output.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/errmsg.h"
#include "util/numfmt.h"
#include "util/textsafe.h"
#include "util/xalloc.h"

#define OUTPUT_MAX_COLS (COL_MAX + 64)

/*
 * A frame is built in memory and written once: at thousands of rows,
 * stdio's formatting of every number was half of pmctop's user time, so
 * the rows' numbers go through numfmt and the rest is copied. The
 * helpers keep stdio's argument order.
 */
static void ob_reserve(struct output_buf *b, size_t k)
{
	if (b->n + k + 1 <= b->cap)
		return;
	b->cap = b->cap * 2 > b->n + k + 1 ? b->cap * 2 : b->n + k + 1 + 4096;
	b->p = xrealloc(b->p, b->cap);
}

static void ob_write(const void *p, size_t size, size_t k, struct output_buf *b)
{
	ob_reserve(b, size * k);
	memcpy(b->p + b->n, p, size * k);
	b->n += size * k;
}

static void ob_putc(int c, struct output_buf *b)
{
	ob_reserve(b, 1);
	b->p[b->n++] = (char)c;
}

static void ob_puts(const char *s, struct output_buf *b)
{
	ob_write(s, 1, strlen(s), b);
}

static void ob_pad(struct output_buf *b, int k)
{
	if (k <= 0)
		return;
	ob_reserve(b, (size_t)k);
	memset(b->p + b->n, ' ', (size_t)k);
	b->n += (size_t)k;
}

/* "%.*f" of v */
static void ob_fixed(struct output_buf *b, double v, int prec)
{
	ob_reserve(b, NUMFMT_MAX);
	b->n += numfmt_fixed(b->p + b->n, v, prec);
}

/* "%d", "%lld" */
static void ob_int(struct output_buf *b, long long v)
{
	ob_reserve(b, 24);
	b->n += numfmt_int(b->p + b->n, v);
}

/* The headers and the rarer lines keep their format strings. */
__attribute__((format(printf, 2, 3))) static void ob_printf(struct output_buf *b, const char *fmt,
							    ...)
{
	va_list ap;
	int k;

	ob_reserve(b, 256);
	va_start(ap, fmt);
	k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k >= b->cap - b->n) {
		ob_reserve(b, (size_t)k);
		va_start(ap, fmt);
		vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
	}
	b->n += (size_t)k;
}

int output_parse_format(const char *s, enum output_format *fmt)
{
	if (!strcmp(s, "text"))
		*fmt = OUTPUT_TEXT;
	else if (!strcmp(s, "csv"))
		*fmt = OUTPUT_CSV;
	else if (!strcmp(s, "json"))
		*fmt = OUTPUT_JSON;
	else
		return -EINVAL;
	return 0;
}

/*
 * The numeric columns of CSV and JSON in display order, -e events apart:
 * every one asked for, empty or null where it cannot be counted here.
 */
static size_t output_num_cols(const struct model *m, enum col_id *out)
{
	return model_data_columns(m, out, COL_MAX);
}

static const char *output_raw_name(const struct model *m, size_t k)
{
	return model_column_title(m, COL_MAX + (int)k, COL_ROWS_PROCESSES);
}

static enum col_rows output_row_kind(const struct output *o)
{
	return o->per_user ? COL_ROWS_USERS : o->threads ? COL_ROWS_THREADS : COL_ROWS_PROCESSES;
}

/* Text: the columns of rows in display order, each padded to its width; the rest column last. */
static size_t output_text_cols(const struct model *m, enum col_rows rows, int *out)
{
	int ids[OUTPUT_MAX_COLS];
	size_t n = model_columns(m, ids, OUTPUT_MAX_COLS), k = 0;

	for (size_t i = 0; i < n; i++)
		if (columns_on_rows(model_column(m, ids[i]), rows))
			out[k++] = ids[i];
	return k;
}

#define OUTPUT_SMALL 256

/*
 * Names, command lines, user, file and event names are others': a copy of
 * at most maxcols characters (< 0: all) with controls, invalid UTF-8 and
 * bidi overrides (and, for a terminal that is not UTF-8, every byte >=
 * 0x80) as '?', as ps shows them, in small (OUTPUT_SMALL bytes) or, when
 * longer, on the heap (*heap: free it). *cols is the characters kept.
 * Printable ASCII that fits is safe as it is: text itself, uncopied (most
 * command lines, and copying them was most of a CSV frame's work).
 */
static const char *output_safe(const struct output_buf *f, const char *text, char *small,
			       int maxcols, int *cols, char **heap)
{
	size_t len = 0;
	char *safe;

	*heap = NULL;
	while (text[len] >= 0x20 && text[len] < 0x7f)
		len++;
	if (!text[len] && (maxcols < 0 || len <= (size_t)maxcols)) {
		*cols = (int)len;
		return text;
	}
	len += strlen(text + len) + 1;
	safe = len <= OUTPUT_SMALL ? small : (*heap = xmalloc(len));
	*cols = (int)textsafe_escape(safe, len, text, len - 1, TEXTSAFE_MARK | f->how, maxcols);
	return safe;
}

static void output_puts_safe(struct output_buf *f, const char *text)
{
	char small[OUTPUT_SMALL];
	int cols;
	char *heap;
	const char *safe = output_safe(f, text, small, -1, &cols, &heap);

	ob_puts(safe, f);
	free(heap);
}

/* A cell of col, w characters wide (model_column_width) */
static void output_text_cell(struct output_buf *f, const struct column *col, int w, bool first,
			     const char *text)
{
	int cols;
	char small[OUTPUT_SMALL];
	/* left-aligned text (user names) is cut to its column; numbers are never cut */
	char *heap;
	const char *safe =
		output_safe(f, text, small, col->left && !col->rest ? w : -1, &cols, &heap);
	int pad = col->rest || cols >= w ? 0 : w - cols;

	if (!first)
		ob_putc(' ', f);
	ob_pad(f, col->left ? 0 : pad);
	ob_puts(safe, f);
	ob_pad(f, col->left ? pad : 0);
	free(heap);
}

/* An -e event's title (its name, or one a recording gave), right-aligned and cut to w. */
static void output_text_title(struct output_buf *f, int w, const char *t)
{
	char small[OUTPUT_SMALL], *heap;
	int cols;
	const char *safe = output_safe(f, t, small, w, &cols, &heap);

	ob_putc(' ', f);
	ob_pad(f, w - cols);
	ob_puts(safe, f);
	free(heap);
}

static void output_text_titles(struct output_buf *f, const struct model *m, enum col_rows rows,
			       bool cmdline)
{
	int ids[OUTPUT_MAX_COLS];
	size_t n = output_text_cols(m, rows, ids);

	for (size_t i = 0; i < n; i++) {
		const struct column *col = model_column(m, ids[i]);
		int w = model_column_width(m, ids[i], rows);
		char head[64];
		const char *t = model_column_head(m, ids[i], rows, head, sizeof(head));

		if (col->rest && cmdline && col->cmdline_title)
			t = col->cmdline_title;
		if (ids[i] >= COL_MAX)
			output_text_title(f, w, t);
		else if (col->left && !col->rest)
			ob_printf(f, "%s%-*s", i ? " " : "", w, t);
		else
			output_text_cell(f, col, w, i == 0, t);
	}
	ob_putc('\n', f);
}

/* One row of text; a row whose counters could not be opened says why instead of numbers. */
static void output_text_row(struct output_buf *f, const struct model *m, const struct model_row *r,
			    enum col_rows rows, bool cmdline)
{
	int ids[OUTPUT_MAX_COLS];
	size_t n = output_text_cols(m, rows, ids);
	bool said = false;

	for (size_t i = 0; i < n; i++) {
		const struct column *col = model_column(m, ids[i]);
		int w = model_column_width(m, ids[i], rows);
		char cell[64];

		/* /proc's columns are there for every row; the counters say why they are not */
		bool counter = col->type == COL_TYPE_NUM && !col->proc;

		if (r->err && (counter || col->rest) && !said) {
			ob_printf(f, "  not counted: %s", errmsg_short(r->err));
			said = true;
		}
		if (r->err && counter)
			continue;
		if (col->rest && cmdline && r->cmdline[0]) {
			output_text_cell(f, col, w, i == 0, r->cmdline);
			continue;
		}
		/*
		 * numbers are exact; memory and CPU time as top writes them, an -e
		 * event's rate with K, M, G when it would not fit its column (CSV
		 * has its exact count), and a left-aligned text cut to its column:
		 * the cell says how (a path keeps its end)
		 */
		model_format_cell(m, r, ids[i], rows,
				  col->fmt || ids[i] >= COL_MAX || (col->left && !col->rest) ? w
											     : 0,
				  cell, sizeof(cell));
		output_text_cell(f, col, w, i == 0, cell);
	}
	ob_putc('\n', f);
}

/* The interval of a frame as text: the first frame has none, its counters come with the next. */
static void output_interval(char *buf, size_t size, const struct model *m, bool json)
{
	if (m->dt > 0)
		snprintf(buf, size, json ? "%.3f" : "%.2f s", m->dt);
	else
		snprintf(buf, size, json ? "null" : "- (first frame: counters from the next)");
}

static const struct model_row *output_rows(const struct output *o, const struct model *m)
{
	return o->per_user ? o->users.v : o->threads ? m->threads : m->rows;
}

static size_t output_nrows(const struct output *o, const struct model *m)
{
	return o->per_user ? o->users.n : o->threads ? m->nthreads : m->nrows;
}

static void output_time(char *buf, size_t size, double wall)
{
	time_t t = (time_t)wall;
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
	else
		snprintf(buf, size, "?");
}

/* "Self: 0.4% CPU, 6.1 MiB resident, 27 of 1024 descriptors": what watching costs. */
static void output_text_self(struct output_buf *f, const struct selfcost *c)
{
	ob_puts("Self:", f);
	if (isfinite(c->cpu_pct))
		ob_printf(f, " %.1f%% CPU,", c->cpu_pct);
	if (isfinite(c->rss_bytes))
		ob_printf(f, " %.1f MiB resident,", c->rss_bytes / 1048576);
	if (isfinite(c->open_fds) && isfinite(c->max_fds))
		ob_printf(f, " %.0f of %.0f descriptors", c->open_fds, c->max_fds);
	else if (isfinite(c->open_fds))
		ob_printf(f, " %.0f descriptors", c->open_fds);
	ob_putc('\n', f);
}

/* The JSON of pmctop's own cost: "self":{...}, numbers or null. */
static void output_json_self(struct output_buf *f, const struct selfcost *c)
{
	const double v[] = { c->cpu_pct, c->rss_bytes / 1024, c->open_fds, c->max_fds };
	const char *const k[] = { "cpu", "rss_kib", "fds", "max_fds" };

	ob_puts(",\"self\":{", f);
	for (size_t i = 0; i < 4; i++) {
		ob_printf(f, "%s\"%s\":", i ? "," : "", k[i]);
		if (isfinite(v[i]))
			ob_printf(f, i ? "%.0f" : "%.2f", v[i]);
		else
			ob_puts("null", f);
	}
	ob_putc('}', f);
}

/* "Legend: e1/s = NAME per second, ...": the -e events whose names are too long for a title. */
static void output_text_legend(struct output_buf *f, const struct model *m)
{
	bool any = false;

	for (size_t k = 0; k < m->nraw; k++) {
		char head[64];

		if (!model_event_short(m, k))
			continue;
		ob_puts(any ? ", " : "Legend: ", f);
		ob_puts(model_column_head(m, COL_MAX + (int)k, COL_ROWS_PROCESSES, head,
					  sizeof(head)),
			f);
		ob_puts(" = ", f);
		output_puts_safe(f, output_raw_name(m, k));
		ob_puts(" per second", f);
		any = true;
	}
	if (any)
		ob_putc('\n', f);
}

/* MiB as top writes them, "-" (text) or null (JSON) when unknown: never 0. */
static void output_mib(struct output_buf *f, double mib, bool json)
{
	if (isfinite(mib))
		ob_printf(f, "%.1f", mib);
	else
		ob_puts(json ? "null" : "-", f);
}

/* top's two memory lines, "MiB Mem :" and "MiB Swap:". */
static void output_text_memory(struct output_buf *f, const struct model *m)
{
	struct model_memory mm;

	model_memory(m, &mm);
	ob_puts("MiB Mem : ", f);
	output_mib(f, mm.total, false);
	ob_puts(" total, ", f);
	output_mib(f, mm.free, false);
	ob_puts(" free, ", f);
	output_mib(f, mm.used, false);
	ob_puts(" used, ", f);
	output_mib(f, mm.buff_cache, false);
	ob_puts(" buff/cache\nMiB Swap: ", f);
	output_mib(f, mm.swap_total, false);
	ob_puts(" total, ", f);
	output_mib(f, mm.swap_free, false);
	ob_puts(" free, ", f);
	output_mib(f, mm.swap_used, false);
	ob_puts(" used. ", f);
	output_mib(f, mm.avail, false);
	ob_puts(" avail Mem\n", f);
}

/* The JSON of the meters: "states":{...},"memory":{...} in MiB, null where unknown. */
static void output_json_memory(struct output_buf *f, const struct model *m)
{
	static const char *const KEYS[] = { "total",	  "free",      "used",	    "buff_cache",
					    "swap_total", "swap_free", "swap_used", "avail" };
	const struct model_states *st = &m->states;
	struct model_memory mm;

	model_memory(m, &mm);
	const double v[] = { mm.total,	    mm.free,	  mm.used,	mm.buff_cache,
			     mm.swap_total, mm.swap_free, mm.swap_used, mm.avail };

	ob_printf(f,
		  ",\"states\":{\"total\":%zu,\"running\":%zu,\"sleeping\":%zu,\"stopped\":%zu,"
		  "\"zombie\":%zu},\"memory\":{",
		  st->total, st->running, st->sleeping, st->stopped, st->zombie);
	for (size_t i = 0; i < sizeof(KEYS) / sizeof(KEYS[0]); i++) {
		ob_printf(f, "%s\"%s\":", i ? "," : "", KEYS[i]);
		output_mib(f, v[i], true);
	}
	ob_putc('}', f);
}

static void output_text(struct output *o, const struct model *m, const char *mode)
{
	struct output_buf *f = &o->buf;
	char when[64], unsup[1024], iv[64];

	output_time(when, sizeof(when), m->wall);
	output_interval(iv, sizeof(iv), m, false);
	ob_printf(f, "pmctop - %s, interval %s, load average: %.2f, %.2f, %.2f\n", when, iv,
		  m->load[0], m->load[1], m->load[2]);
	ob_puts("Events: ", f);
	output_puts_safe(f, mode);
	ob_putc('\n', f);
	if (*model_unsupported_text(m, output_row_kind(o), unsup, sizeof(unsup)))
		ob_printf(f, "Columns %s\n", unsup);
	output_text_legend(f, m);
	if (!o->no_processes) {
		if (o->per_user)
			ob_printf(f, "Users: %zu shown, of %zu tasks", o->users.n, m->nrows);
		else
			ob_printf(f, "%s: %zu shown", o->threads ? "Threads" : "Tasks",
				  output_nrows(o, m));
		/* top's count by state, of every process of the snapshot */
		if (!o->per_user && !o->threads && m->states.total)
			ob_printf(f,
				  "; %zu total, %zu running, %zu sleeping, %zu stopped, %zu zombie",
				  m->states.total, m->states.running, m->states.sleeping,
				  m->states.stopped, m->states.zombie);
		if (m->not_counted)
			ob_printf(f, ", %zu not counted (%s)", m->not_counted,
				  errmsg_short(m->not_counted_err));
		ob_putc('\n', f);
	}
	if (m->have_cgroups) {
		ob_printf(f, "Cgroups: %zu shown, %" PRIu64 " file descriptors", m->ncgroups,
			  m->cg_fds);
		if (m->cg_not_counted)
			ob_printf(f, ", %zu not counted", m->cg_not_counted);
		ob_putc('\n', f);
	}
	output_text_memory(f, m);
	if (o->self)
		output_text_self(f, o->self);
	ob_putc('\n', f);
	if (m->ncpus) {
		output_text_titles(f, m, COL_ROWS_CPUS, false);
		for (size_t i = 0; i < m->ncpus; i++)
			output_text_row(f, m, &m->cpus[i], COL_ROWS_CPUS, false);
		ob_putc('\n', f);
	}
	if (m->have_cgroups) {
		output_text_titles(f, m, COL_ROWS_CGROUPS, false);
		for (size_t i = 0; i < m->ncgroups; i++)
			output_text_row(f, m, &m->cgroups[i], COL_ROWS_CGROUPS, true);
		ob_putc('\n', f);
	}
	if (o->no_processes)
		return;
	output_text_titles(f, m, output_row_kind(o), o->show_cmdline);
	for (size_t i = 0; i < output_nrows(o, m); i++)
		output_text_row(f, m, &output_rows(o, m)[i], output_row_kind(o), o->show_cmdline);
	ob_putc('\n', f);
}

static void output_csv_str(struct output_buf *f, const char *text)
{
	char small[OUTPUT_SMALL];
	int cols;
	/* controls, invalid UTF-8 and bidi overrides become '?', as in the text output */
	char *heap;
	const char *safe = output_safe(f, text, small, -1, &cols, &heap);
	const char *s = safe;

	if (!strpbrk(s, ",\"")) {
		ob_puts(s, f);
	} else {
		ob_putc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				ob_putc('"', f);
			ob_putc(*s, f);
		}
		ob_putc('"', f);
	}
	free(heap);
}

static void output_csv_num(struct output_buf *f, double v, int prec)
{
	if (!isnan(v))
		ob_fixed(f, v, prec);
}

/*
 * A marks field (estimated, suspect): the keys of the columns whose bit is
 * in bits, then the -e events with flag, ';'-separated.
 */
static void output_csv_marks(struct output_buf *f, const struct model *m, const struct model_row *r,
			     const enum col_id *cols, size_t ncols, uint32_t bits, uint8_t flag)
{
	char buf[2048];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ncols; i++)
		if (bits & (1u << cols[i]) && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ";" : "",
					      columns_get(cols[i])->key);
	for (size_t k = 0; k < m->nraw; k++)
		if ((r->raw_fl[k] & flag) && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ";" : "",
					      output_raw_name(m, k));
	output_csv_str(f, buf);
}

/* A row's numeric cells, its -e counts, and its estimated, suspect and not_counted fields. */
static void output_csv_counts(struct output_buf *f, const struct model *m,
			      const struct model_row *r, const enum col_id *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols; i++) {
		ob_putc(',', f);
		output_csv_num(f, r->v[cols[i]], columns_get(cols[i])->data_prec);
	}
	for (size_t k = 0; k < m->nraw; k++) {
		ob_putc(',', f);
		output_csv_num(f, r->raw[k], 0);
	}
	ob_putc(',', f);
	output_csv_marks(f, m, r, cols, ncols, r->est, MODEL_F_EST);
	ob_putc(',', f);
	output_csv_marks(f, m, r, cols, ncols, r->suspect, MODEL_F_SUSPECT);
	ob_putc(',', f);
	if (r->err)
		ob_puts(errmsg_short(r->err), f);
}
static void output_csv_row(struct output_buf *f, const struct model *m, const struct model_row *r,
			   const enum col_id *cols, size_t ncols, enum col_rows rows, double wall)
{
	static const char *const KIND[] = {
		[COL_ROWS_PROCESSES] = "process",
		[COL_ROWS_THREADS] = "thread",
		[COL_ROWS_CPUS] = "cpu",
		[COL_ROWS_CGROUPS] = "cgroup",
	};
	bool cpu = rows == COL_ROWS_CPUS, cg = rows == COL_ROWS_CGROUPS;

	ob_fixed(f, wall, 3);
	ob_putc(',', f);
	ob_puts(KIND[rows], f);
	ob_putc(',', f);
	if (cpu && r->id < 0)
		ob_puts("all", f);
	else if (!cg)
		ob_int(f, r->id);
	ob_putc(',', f);
	if (cg) {
		/* a cgroup has no user or state; its processes go where a process's threads do */
		if (r->threads >= 0)
			ob_printf(f, ",%d,", r->threads);
		else
			ob_puts(",,", f);
	} else if (!cpu) {
		output_csv_str(f, r->user);
		ob_putc(',', f);
		ob_int(f, rows == COL_ROWS_THREADS ? r->tgid : r->threads);
		ob_putc(',', f);
		ob_putc(r->state, f);
	} else {
		ob_puts(",,", f);
	}
	output_csv_counts(f, m, r, cols, ncols);
	ob_putc(',', f);
	if (!cpu && !cg)
		output_csv_str(f, r->comm);
	ob_putc(',', f);
	if (!cpu && !cg)
		output_csv_str(f, r->cmdline);
	/* the cgroup column is there when cgroups are known: older files keep their schema */
	if (m->have_cgroups) {
		ob_putc(',', f);
		if (r->cgroup)
			output_csv_str(f, r->cgroup);
	}
	ob_putc('\n', f);
}

/* Per-user CSV: a header and rows of their own, the numeric columns as for processes. */
static void output_csv_users(struct output *o, const struct model *m, const enum col_id *cols,
			     size_t ncols)
{
	struct output_buf *f = &o->buf;

	if (!o->csv_header_done) {
		ob_printf(f, "time,kind,uid,%s,%s,%s", columns_get(COL_USER)->key,
			  columns_key(columns_get(COL_PID), COL_ROWS_USERS),
			  columns_get(COL_THR)->key);
		for (size_t i = 0; i < ncols; i++)
			ob_printf(f, ",%s", columns_get(cols[i])->key);
		for (size_t k = 0; k < m->nraw; k++) {
			ob_putc(',', f);
			output_csv_str(f, output_raw_name(m, k));
		}
		/* as for processes: a cgroup column only where cgroups are known */
		ob_puts(m->have_cgroups ? ",estimated,suspect,not_counted,cgroup\n"
					: ",estimated,suspect,not_counted\n",
			f);
		o->csv_header_done = true;
	}
	/* the cgroups first, as before the processes: PROCS is theirs, no uid, user or threads */
	for (size_t i = 0; i < m->ncgroups + o->users.n; i++) {
		bool cg = i < m->ncgroups;
		const struct model_row *r = cg ? &m->cgroups[i] : &o->users.v[i - m->ncgroups];

		if (cg) {
			ob_printf(f, "%.3f,cgroup,,,", m->wall);
			if (r->threads >= 0)
				ob_printf(f, "%d", r->threads);
			ob_putc(',', f);
		} else {
			ob_printf(f, "%.3f,user,%u,", m->wall, r->uid);
			output_csv_str(f, r->user);
			ob_printf(f, ",%d,%d", r->procs, r->threads);
		}
		output_csv_counts(f, m, r, cols, ncols);
		if (m->have_cgroups) {
			ob_putc(',', f);
			if (cg)
				output_csv_str(f, r->cgroup ? r->cgroup : "");
		}
		ob_putc('\n', f);
	}
}

static void output_csv(struct output *o, const struct model *m)
{
	struct output_buf *f = &o->buf;
	enum col_id cols[COL_MAX];
	size_t ncols = output_num_cols(m, cols);

	if (o->per_user) {
		output_csv_users(o, m, cols, ncols);
		return;
	}
	if (!o->csv_header_done) {
		ob_printf(f, "time,kind,id,%s,%s,state", columns_get(COL_USER)->key,
			  columns_key(columns_get(COL_THR), output_row_kind(o)));
		for (size_t i = 0; i < ncols; i++)
			ob_printf(f, ",%s", columns_get(cols[i])->key);
		for (size_t k = 0; k < m->nraw; k++) {
			ob_putc(',', f);
			output_csv_str(f, output_raw_name(m, k));
		}
		ob_puts(",estimated,suspect,not_counted,command,cmdline", f);
		ob_puts(m->have_cgroups ? ",cgroup\n" : "\n", f);
		o->csv_header_done = true;
	}
	for (size_t i = 0; i < m->ncpus; i++)
		output_csv_row(f, m, &m->cpus[i], cols, ncols, COL_ROWS_CPUS, m->wall);
	for (size_t i = 0; i < m->ncgroups; i++)
		output_csv_row(f, m, &m->cgroups[i], cols, ncols, COL_ROWS_CGROUPS, m->wall);
	for (size_t i = 0; !o->no_processes && i < output_nrows(o, m); i++)
		output_csv_row(f, m, &output_rows(o, m)[i], cols, ncols, output_row_kind(o),
			       m->wall);
}

/* A JSON string: always valid UTF-8, controls escaped; all of it ASCII for a terminal that is not UTF-8. */
static void output_json_str(struct output_buf *f, const char *s)
{
	size_t len = strlen(s);

	ob_reserve(f, TEXTSAFE_MAX(len) + 2);
	f->p[f->n++] = '"';
	textsafe_escape(f->p + f->n, TEXTSAFE_MAX(len), s, len, TEXTSAFE_JSON | f->how, -1);
	f->n += strlen(f->p + f->n);
	f->p[f->n++] = '"';
}

static void output_json_num(struct output_buf *f, double v, int prec)
{
	if (isnan(v) || isinf(v))
		ob_puts("null", f);
	else
		ob_fixed(f, v, prec);
}

/* The names of the columns marked in bits, then of the -e events marked with flag. */
static void output_json_marks(struct output_buf *f, const struct model *m,
			      const struct model_row *r, const enum col_id *cols, size_t ncols,
			      uint32_t bits, uint8_t flag)
{
	bool first = true;

	for (size_t i = 0; i < ncols; i++)
		if (bits & (1u << cols[i])) {
			ob_printf(f, "%s\"%s\"", first ? "" : ",", columns_get(cols[i])->key);
			first = false;
		}
	for (size_t k = 0; k < m->nraw; k++)
		if (r->raw_fl[k] & flag) {
			if (!first)
				ob_putc(',', f);
			output_json_str(f, output_raw_name(m, k));
			first = false;
		}
}

static void output_json_metrics(struct output_buf *f, const struct model *m,
				const struct model_row *r, const enum col_id *cols, size_t ncols,
				enum col_rows rows)
{
	bool cpu = rows == COL_ROWS_CPUS;

	for (size_t i = 0; i < ncols; i++) {
		const struct column *c = columns_get(cols[i]);

		if (!columns_on_rows(c, rows))
			continue; /* RES, %MEM and TIME+ are a process's, never a CPU's or a cgroup's */
		/* a CPU's %CPU is how busy it was; "cpu" already names it */
		ob_printf(f, ",\"%s\":", columns_key(c, cpu ? COL_ROWS_CPUS : COL_ROWS_PROCESSES));
		output_json_num(f, r->v[c->id], c->data_prec);
	}
	if (m->nraw) {
		ob_puts(",\"events\":{", f);
		for (size_t k = 0; k < m->nraw; k++) {
			if (k)
				ob_putc(',', f);
			output_json_str(f, output_raw_name(m, k));
			ob_putc(':', f);
			output_json_num(f, r->raw[k], 0);
		}
		ob_putc('}', f);
	}
	/* the marks name the columns by their plain keys, on CPU rows too */
	ob_puts(",\"estimated\":[", f);
	output_json_marks(f, m, r, cols, ncols, r->est, MODEL_F_EST);
	ob_puts("],\"not_running\":[", f);
	output_json_marks(f, m, r, cols, ncols, r->na, MODEL_F_NA);
	ob_puts("],\"suspect\":[", f);
	output_json_marks(f, m, r, cols, ncols, r->suspect, MODEL_F_SUSPECT);
	ob_putc(']', f);
}

static void output_json(struct output *o, const struct model *m, const char *mode)
{
	struct output_buf *f = &o->buf;
	enum col_id cols[COL_MAX];
	size_t ncols = output_num_cols(m, cols);
	const struct column *pid = columns_get(COL_PID), *user = columns_get(COL_USER);
	const struct column *thr = columns_get(COL_THR), *cmd = columns_get(COL_COMMAND);

	char iv[64];

	output_interval(iv, sizeof(iv), m, true);
	ob_printf(f, "{\"time\":%.3f,\"interval\":%s,\"load\":[%.2f,%.2f,%.2f],\"mode\":", m->wall,
		  iv, m->load[0], m->load[1], m->load[2]);
	output_json_str(f, mode);
	if (o->self)
		output_json_self(f, o->self);
	ob_printf(f, ",\"tasks\":%zu,\"not_counted\":%zu",
		  o->per_user ? m->nrows : output_nrows(o, m), m->not_counted);
	output_json_memory(f, m);
	ob_puts(",\"cpus\":[", f);
	for (size_t i = 0; i < m->ncpus; i++) {
		const struct model_row *r = &m->cpus[i];

		if (i)
			ob_putc(',', f);
		if (r->id < 0)
			ob_printf(f, "{\"%s\":\"all\"", columns_key(pid, COL_ROWS_CPUS));
		else
			ob_printf(f, "{\"%s\":%d", columns_key(pid, COL_ROWS_CPUS), r->id);
		output_json_metrics(f, m, r, cols, ncols, COL_ROWS_CPUS);
		ob_putc('}', f);
	}
	if (m->have_cgroups) {
		ob_printf(f, "],\"cgroup_fds\":%" PRIu64 ",\"cgroups\":[", m->cg_fds);
		for (size_t i = 0; i < m->ncgroups; i++) {
			const struct model_row *r = &m->cgroups[i];

			ob_puts(i ? ",{\"cgroup\":" : "{\"cgroup\":", f);
			output_json_str(f, r->cgroup ? r->cgroup : "");
			if (r->threads >= 0)
				ob_printf(f, ",\"procs\":%d", r->threads);
			else
				ob_puts(",\"procs\":null", f);
			if (r->err) {
				ob_puts(",\"not_counted\":", f);
				output_json_str(f, errmsg_short(r->err));
			} else {
				output_json_metrics(f, m, r, cols, ncols, COL_ROWS_CGROUPS);
			}
			ob_putc('}', f);
		}
	}
	ob_printf(f, "],\"%s\":[", o->per_user ? "users" : o->threads ? "threads" : "processes");
	for (size_t i = 0; !o->no_processes && i < output_nrows(o, m); i++) {
		const struct model_row *r = &output_rows(o, m)[i];

		if (i)
			ob_putc(',', f);
		if (o->per_user) {
			ob_printf(f, "{\"uid\":%u,\"%s\":", r->uid, user->key);
			output_json_str(f, r->user);
			ob_printf(f, ",\"%s\":%d,\"%s\":%d", columns_key(pid, COL_ROWS_USERS),
				  r->procs, thr->key, r->threads);
			output_json_metrics(f, m, r, cols, ncols, COL_ROWS_PROCESSES);
			if (r->err) {
				ob_puts(",\"not_counted\":", f);
				output_json_str(f, errmsg_short(r->err));
			}
			ob_putc('}', f);
			continue;
		}
		if (o->threads)
			ob_printf(f, "{\"%s\":%d,\"%s\":%d,\"%s\":",
				  columns_key(pid, COL_ROWS_THREADS), r->id,
				  columns_key(thr, COL_ROWS_THREADS), r->tgid, user->key);
		else
			ob_printf(f, "{\"%s\":%d,\"%s\":", pid->key, r->id, user->key);
		output_json_str(f, r->user);
		ob_printf(f, ",\"%s\":%d,\"state\":\"%c\",\"%s\":", thr->key, r->threads,
			  r->state >= 0x20 && r->state != '"' && r->state != '\\' ? r->state : '?',
			  cmd->key);
		output_json_str(f, r->comm);
		ob_puts(",\"cmdline\":", f);
		output_json_str(f, r->cmdline);
		if (m->have_cgroups) {
			ob_puts(",\"cgroup\":", f);
			if (r->cgroup)
				output_json_str(f, r->cgroup);
			else
				ob_puts("null", f);
		}
		/* every column on every row, null where there is no value: one schema */
		output_json_metrics(f, m, r, cols, ncols, COL_ROWS_PROCESSES);
		if (r->err) {
			ob_puts(",\"not_counted\":", f);
			output_json_str(f, errmsg_short(r->err));
		}
		ob_putc('}', f);
	}
	ob_puts("]}\n", f);
}

/*
 * The mapping of a page: the one it lay in when sampled, else by its address
 * in the mappings now; an anonymous one by its range. buf (OUTPUT_MAP_LEN)
 * may hold it.
 */
#define OUTPUT_MAP_LEN 128
static const char *output_map_name(const struct model *m, const struct hotpage_entry *e, char *buf)
{
	return hotpage_label(m->hp, e, m->maps, m->nmaps, buf, OUTPUT_MAP_LEN);
}

/* Whether a page's samples said load or store: page-fault samples carry no op (null, not 0). */
static bool output_ops_known(const struct hotpage_entry *e)
{
	return e->loads + e->stores > 0;
}

static void output_page_fields(const struct model *m, const struct hotpage_entry *e, double *share,
			       struct hotpage_cells *cells)
{
	*share = m->hp->total > 0 ? 100.0 * e->weight / m->hp->total : 0;
	hotpage_cells(e->loads, e->stores, e->lat_sum, e->lat_n, cells);
	hotpage_cells_na(cells, m->sample_flags);
}

static void output_samples_text(struct output *o, const struct model *m,
				const struct hotpage_entry *top, size_t n)
{
	struct output_buf *f = &o->buf;
	bool nodes = hotpage_has_nodes(m->hp);
	char rate[32];

	/* the first frame has no interval: no rate, not 0 */
	if (m->dt > 0)
		snprintf(rate, sizeof(rate), "%.0f", m->sample_rate);
	else
		snprintf(rate, sizeof(rate), "-");
	/* the source's name may come from a recording */
	ob_printf(f, "Sampling pid %d: ", m->sample_pid);
	output_puts_safe(f, m->sample_source);
	ob_printf(f,
		  ", period %" PRIu64 "; %s samples/s, %" PRIu64 " lost in the interval (%" PRIu64
		  " in all), throttled %" PRIu64 "\n",
		  m->sample_period, rate, m->lost_tick, m->lost, m->throttled);
	if (m->sample_nonmem)
		ob_printf(f, "Non-memory ops dropped: %" PRIu64 "\n", m->sample_nonmem);
	if ((m->sample_flags & SNAP_SMP_NO_LATENCY) && strcmp(m->sample_source, "page faults"))
		ob_puts("LAT and SOURCE n/a: no load-latency events here; MEM_INST_RETIRED gives "
			"addresses only\n",
			f);
	if (nodes) {
		double rs = hotpage_remote_share(m->hp);

		if (isnan(rs))
			ob_puts("NUMA: no sample's CPU node is known: remote share -\n", f);
		else
			ob_printf(f,
				  "NUMA: remote %.1f%% of %" PRIu64
				  " samples (page on another node than the CPU that took it)\n",
				  100 * rs, m->hp->located);
	} else if (m->sample_flags & SNAP_SMP_NO_NUMA)
		ob_puts("NUMA: this kernel shows no nodes: pages have no node\n", f);
	ob_printf(f, "Pages of %s, weights halve every %.3g s; %zu pages tracked\n\n",
		  m->hp->shift == 21 ? "2 MiB" : "4 KiB", m->hp->halflife, m->hp->count);
	ob_printf(f, "%4s %-18s %6s %8s %7s %7s %6s %-12s ", "RANK", "PAGE", "SHARE%", "WEIGHT",
		  "LOADS", "STORES", "LAT", "SOURCE");
	if (nodes)
		ob_printf(f, "%4s %7s ", "NODE", "REMOTE%");
	ob_puts("MAPPING\n", f);
	for (size_t i = 0; i < n; i++) {
		char map[OUTPUT_MAP_LEN];
		double share;
		struct hotpage_cells cl;

		output_page_fields(m, &top[i], &share, &cl);
		ob_printf(f, "%4zu 0x%016" PRIx64 " %6.1f %8.1f %7s %7s %6s %-12s ", i + 1,
			  top[i].page << m->hp->shift, share, top[i].weight, cl.loads, cl.stores,
			  cl.latency, hotpage_source_cell(&top[i], m->sample_flags));
		if (nodes) {
			struct hotpage_numa_cells nc;

			hotpage_numa_cells(&top[i], &nc);
			ob_printf(f, "%4s %7s ", nc.node, nc.remote);
		}
		/* a file's name is whoever created it's: never raw to root's terminal */
		output_puts_safe(f, output_map_name(m, &top[i], map));
		ob_putc('\n', f);
	}
	ob_putc('\n', f);
}

static void output_samples_csv(struct output *o, const struct model *m,
			       const struct hotpage_entry *top, size_t n)
{
	struct output_buf *f = &o->buf;

	if (!o->csv_header_done) {
		ob_puts("time,pid,source,rank,page,share,weight,loads,stores,latency,data_source,"
			"mapping,node,remote\n",
			f);
		o->csv_header_done = true;
	}
	for (size_t i = 0; i < n; i++) {
		char map[OUTPUT_MAP_LEN];
		double share;
		struct hotpage_cells cl;

		output_page_fields(m, &top[i], &share, &cl);
		ob_printf(f, "%.3f,%d,", m->wall, m->sample_pid);
		output_csv_str(f, m->sample_source);
		/* samples with no load or store (page faults) leave them empty, as "-" on screen */
		ob_printf(f, ",%zu,0x%" PRIx64 ",%.2f,%.2f,%s,%s,%s,%s,", i + 1,
			  top[i].page << m->hp->shift, share, top[i].weight,
			  output_ops_known(&top[i]) ? cl.loads : "",
			  output_ops_known(&top[i]) ? cl.stores : "",
			  top[i].lat_n ? cl.latency : "",
			  hotpage_dominant_level(&top[i]) == MEM_LVL_NA
				  ? ""
				  : mem_level_name(hotpage_dominant_level(&top[i])));
		output_csv_str(f, output_map_name(m, &top[i], map));
		/* empty where not known: a node never asked is not node 0 */
		if (top[i].node)
			ob_printf(f, ",%u,", top[i].node - 1u);
		else
			ob_puts(",,", f);
		if (top[i].located)
			ob_printf(f, "%.2f",
				  100.0 * (double)top[i].remote / (double)top[i].located);
		ob_putc('\n', f);
	}
}

/*
 * "sources": each data source's share (%) of the page's samples, by the
 * samples that had one; {} when none did (page faults).
 */
static void output_page_sources(struct output_buf *f, const struct hotpage_entry *e)
{
	uint64_t n = 0;
	bool first = true;

	for (int l = MEM_LVL_NA + 1; l < MEM_LVL_MAX; l++)
		n += e->level[l];
	ob_puts(",\"sources\":{", f);
	for (int l = MEM_LVL_NA + 1; l < MEM_LVL_MAX && n; l++) {
		if (!e->level[l])
			continue;
		ob_printf(f, "%s", first ? "" : ",");
		output_json_str(f, mem_level_name((enum mem_level)l));
		ob_printf(f, ":%.2f", 100.0 * e->level[l] / (double)n);
		first = false;
	}
	ob_putc('}', f);
}

static void output_samples_json(struct output *o, const struct model *m,
				const struct hotpage_entry *top, size_t n)
{
	struct output_buf *f = &o->buf;

	char iv[64], rate[32];

	output_interval(iv, sizeof(iv), m, true);
	if (m->dt > 0)
		snprintf(rate, sizeof(rate), "%.1f", m->sample_rate);
	else
		snprintf(rate, sizeof(rate), "null");
	ob_printf(f, "{\"time\":%.3f,\"interval\":%s,\"pid\":%d,\"source\":", m->wall, iv,
		  m->sample_pid);
	output_json_str(f, m->sample_source);
	ob_printf(f,
		  ",\"period\":%" PRIu64 ",\"samples_per_s\":%s,\"lost\":%" PRIu64
		  ",\"throttled\":%" PRIu64 ",\"page_size\":%u",
		  m->sample_period, rate, m->lost, m->throttled, 1u << m->hp->shift);
	/* keys only when they say something, so older consumers see the frames they knew */
	if (m->sample_nonmem)
		ob_printf(f, ",\"nonmem_dropped\":%" PRIu64, m->sample_nonmem);
	if (m->sample_flags & SNAP_SMP_NO_LATENCY)
		ob_puts(",\"latency_na\":true", f);
	if (m->sample_flags & SNAP_SMP_NO_SOURCE)
		ob_puts(",\"data_source_na\":true", f);
	if (hotpage_has_nodes(m->hp)) {
		double rs = hotpage_remote_share(m->hp);

		ob_printf(f, ",\"located\":%" PRIu64, m->hp->located);
		if (isnan(rs))
			ob_puts(",\"remote\":null", f);
		else
			ob_printf(f, ",\"remote\":%.2f", 100 * rs);
	} else if (m->sample_flags & SNAP_SMP_NO_NUMA)
		ob_puts(",\"numa\":false", f);
	ob_puts(",\"pages\":[", f);
	for (size_t i = 0; i < n; i++) {
		char map[OUTPUT_MAP_LEN];
		double share;
		struct hotpage_cells cl;
		enum mem_level l = hotpage_dominant_level(&top[i]);

		output_page_fields(m, &top[i], &share, &cl);
		ob_printf(f,
			  "%s{\"page\":\"0x%" PRIx64 "\",\"share\":%.2f,\"weight\":%.2f,"
			  "\"samples\":%" PRIu64 ",\"loads\":%s,\"stores\":%s,\"latency\":%s,"
			  "\"data_source\":",
			  i ? "," : "", top[i].page << m->hp->shift, share, top[i].weight,
			  top[i].samples, output_ops_known(&top[i]) ? cl.loads : "null",
			  output_ops_known(&top[i]) ? cl.stores : "null",
			  top[i].lat_n ? cl.latency : "null");
		if (l == MEM_LVL_NA)
			ob_puts("null", f);
		else
			output_json_str(f, mem_level_name(l));
		ob_puts(",\"mapping\":", f);
		output_json_str(f, output_map_name(m, &top[i], map));
		output_page_sources(f, &top[i]);
		if (top[i].node)
			ob_printf(f, ",\"node\":%u", top[i].node - 1u);
		if (top[i].located)
			ob_printf(f, ",\"remote\":%.2f",
				  100.0 * (double)top[i].remote / (double)top[i].located);
		ob_putc('}', f);
	}
	ob_puts("]}\n", f);
}

static void output_samples(struct output *o, const struct model *m)
{
	struct hotpage_entry top[256];
	size_t n = 0;

	char iv[64];

	output_interval(iv, sizeof(iv), m, true);
	if (!m->hp || !m->sample_pid || (o->sample_pid && m->sample_pid != o->sample_pid)) {
		/* a recording may hold another process's samples: never show them as this one's */
		if (o->fmt == OUTPUT_TEXT && o->sample_pid)
			ob_printf(&o->buf, "Sampling pid %d: no samples of it in this interval\n\n",
				  o->sample_pid);
		else if (o->fmt == OUTPUT_TEXT)
			ob_printf(&o->buf, "Sampling: nothing sampled\n\n");
		else if (o->fmt == OUTPUT_JSON)
			ob_printf(&o->buf,
				  "{\"time\":%.3f,\"interval\":%s,\"pid\":%d,\"source\":null,"
				  "\"pages\":[]}\n",
				  m->wall, iv, o->sample_pid);
		return;
	}
	n = hotpage_top(m->hp, top, o->top < 256 ? (o->top ? o->top : 20) : 256);
	switch (o->fmt) {
	case OUTPUT_TEXT:
		output_samples_text(o, m, top, n);
		break;
	case OUTPUT_CSV:
		output_samples_csv(o, m, top, n);
		break;
	case OUTPUT_JSON:
		output_samples_json(o, m, top, n);
		break;
	}
}

/* The frame built in o->buf, in one write. */
static int output_send(struct output *o)
{
	size_t n = o->buf.n;

	o->buf.n = 0;
	if ((n && fwrite(o->buf.p, 1, n, o->f) != n) || fflush(o->f) == EOF || ferror(o->f))
		return errno ? -errno : -EIO;
	return 0;
}

int output_frame(struct output *o, const struct model *m, const char *mode)
{
	o->buf.n = 0;
	o->buf.how = o->textsafe;
	if (o->sampling) {
		if (o->fmt == OUTPUT_TEXT)
			output_text(o, m, mode);
		output_samples(o, m);
		return output_send(o);
	}
	if (o->per_user) {
		const struct model_row **rows = xcalloc(m->nrows ? m->nrows : 1, sizeof(*rows));

		for (size_t i = 0; i < m->nrows; i++)
			rows[i] = &m->rows[i];
		model_users_build(m, rows, m->nrows, &o->users);
		free(rows);
	}
	switch (o->fmt) {
	case OUTPUT_TEXT:
		output_text(o, m, mode);
		break;
	case OUTPUT_CSV:
		output_csv(o, m);
		break;
	case OUTPUT_JSON:
		output_json(o, m, mode);
		break;
	}
	return output_send(o);
}

void output_release(struct output *o)
{
	model_users_release(&o->users);
	free(o->buf.p);
	o->buf = (struct output_buf){ 0 };
}
