/* The column table: titles, widths, formats, computation, colour bands, sort order, help. */
#include "config.h"

#include "model/columns.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/numfmt.h"

/* Bands of the ratios that say how well a task uses the core and its caches. */
#define COLUMNS_MISS_BANDS                                                                         \
	{                                                                                          \
		.dir = METRICS_HIGH_BAD, .warn = 5.0, .bad = 20.0                                  \
	}

static const struct column COLUMNS[COL_MAX] = {
	[COL_PID] = {
		.id = COL_PID, .key = "pid", .title = "PID", .unit = "", .width = 7,
		.type = COL_TYPE_INT, .prio = 100, .on_cpus = true,
		.thread = { .key = "tid", .title = "TID" }, .cpu = { .key = "cpu", .title = "CPU" },
		.user = { .key = "processes", .title = "PROCS" },
		.help = "process id (per user: how many processes)",
	},
	[COL_USER] = {
		.id = COL_USER, .key = "user", .title = "USER", .unit = "", .width = 9,
		.left = true, .type = COL_TYPE_TEXT, .prio = 40,
		.help = "effective user",
	},
	[COL_THR] = {
		.id = COL_THR, .key = "threads", .title = "THR", .unit = "", .width = 4,
		.type = COL_TYPE_INT, .prio = 20, .sort_desc = true,
		.thread = { .key = "pid", .title = "PID", .width = 7 },
		.cgroup = { .key = "procs", .title = "PROCS", .width = 5 },
		.help = "number of threads",
	},
	[COL_STATE] = {
		.id = COL_STATE, .key = "state", .title = "S", .unit = "", .width = 1,
		.left = true, .type = COL_TYPE_TEXT, .prio = 43, .proc = true,
		.help = "state: R running, S sleeping, D disk wait, T stopped, Z zombie, I idle",
	},
	[COL_NI] = {
		.id = COL_NI, .key = "nice", .title = "NI", .unit = "", .width = 3, .prec = 0,
		.data_prec = 0, .type = COL_TYPE_NUM, .prio = 28, .proc = true, .off = true,
		.help = "nice value, -20 (first served) to 19 (last), as top's NI",
	},
	[COL_VIRT] = {
		.id = COL_VIRT, .key = "virt", .title = "VIRT", .unit = "KiB", .width = 6,
		.prec = 0, .data_prec = 0, .type = COL_TYPE_NUM, .prio = 27, .proc = true, .off = true,
		.fmt = COL_FMT_KIB, .sort_desc = true,
		.help = "virtual memory in KiB: the whole address space (m, g, t: MiB, GiB, TiB)",
	},
	[COL_RES] = {
		.id = COL_RES, .key = "res", .title = "RES", .unit = "KiB", .width = 6, .prec = 0,
		.data_prec = 0, .type = COL_TYPE_NUM, .prio = 38, .proc = true, .fmt = COL_FMT_KIB,
		.sort_desc = true,
		.help = "resident memory in KiB (m, g, t: MiB, GiB, TiB)",
	},
	[COL_SHR] = {
		.id = COL_SHR, .key = "shr", .title = "SHR", .unit = "KiB", .width = 6, .prec = 0,
		.data_prec = 0, .type = COL_TYPE_NUM, .prio = 26, .proc = true, .off = true, .fmt = COL_FMT_KIB,
		.sort_desc = true,
		.help = "resident memory shared with others (files, shared memory) in KiB",
	},
	[COL_MEM] = {
		.id = COL_MEM, .key = "mem", .title = "%MEM", .unit = "%", .width = 5, .prec = 1,
		.data_prec = 2, .type = COL_TYPE_NUM, .prio = 37, .proc = true,
		.sort_desc = true,
		.help = "resident memory over the machine's memory (MemTotal)",
	},
	[COL_TIME] = {
		.id = COL_TIME, .key = "cputime", .title = "TIME+", .unit = "s", .width = 9,
		.prec = 2, .data_prec = 2, .type = COL_TYPE_NUM, .prio = 36, .proc = true,
		.fmt = COL_FMT_TIME, .sort_desc = true,
		.help = "CPU time since the start, minutes:seconds.hundredths (/proc)",
	},
	[COL_P] = {
		.id = COL_P, .key = "lastcpu", .title = "P", .unit = "", .width = 3, .prec = 0,
		.data_prec = 0, .type = COL_TYPE_NUM, .prio = 12, .proc = true, .off = true,
		.help = "the CPU the task last ran on, as top's P",
	},
	[COL_CPU] = {
		.id = COL_CPU, .key = "cpu", .title = "%CPU", .unit = "%", .width = 6, .prec = 1,
		.data_prec = 2, .type = COL_TYPE_NUM, .prio = 90, .on_cpus = true,
		.calc = COL_CALC_WALL, .num = EV_TASK_CLOCK, .den = EV_RAW, .scale = 100,
		.sort_desc = true, .cpu = { .key = "busy", .title = "BUSY%" },
		.help = "CPU time over wall time (task-clock), 100 per busy core",
	},
	[COL_GHZ] = {
		.id = COL_GHZ, .key = "ghz", .title = "GHZ", .unit = "GHz", .width = 5, .prec = 2,
		.data_prec = 3, .type = COL_TYPE_NUM, .prio = 55, .on_cpus = true,
		.calc = COL_CALC_RUN, .num = EV_CYCLES, .den = EV_TASK_CLOCK, .scale = 1,
		.sort_desc = true,
		.help = "cycles per ns of CPU time",
	},
	[COL_IPC] = {
		.id = COL_IPC, .key = "ipc", .title = "IPC", .unit = "", .width = 5, .prec = 2,
		.data_prec = 3, .type = COL_TYPE_NUM, .prio = 85, .on_cpus = true,
		.calc = COL_CALC_RATIO, .num = EV_INSTRUCTIONS, .den = EV_CYCLES, .scale = 1,
		.sev = { .dir = METRICS_LOW_BAD, .warn = 1.0, .bad = 0.5 }, .sort_desc = true,
		.help = "instructions per cycle",
	},
	[COL_CPI] = {
		.id = COL_CPI, .key = "cpi", .title = "CPI", .unit = "", .width = 5, .prec = 2,
		.data_prec = 3, .type = COL_TYPE_NUM, .prio = 80, .on_cpus = true,
		.calc = COL_CALC_RATIO, .num = EV_CYCLES, .den = EV_INSTRUCTIONS, .scale = 1,
		.sev = { .dir = METRICS_HIGH_BAD, .warn = 1.0, .bad = 2.0 }, .sort_desc = true,
		.help = "cycles per instruction",
	},
	[COL_CACHE] = {
		.id = COL_CACHE, .key = "cache", .title = "CACHE%", .unit = "%", .width = 6,
		.prec = 1, .data_prec = 2, .type = COL_TYPE_NUM, .prio = 60, .on_cpus = true,
		.calc = COL_CALC_RATIO, .num = EV_CACHE_MISSES, .den = EV_CACHE_REFS, .scale = 100,
		.sev = COLUMNS_MISS_BANDS, .sort_desc = true,
		.help = "cache misses per cache reference (last level)",
	},
	[COL_L1D] = {
		.id = COL_L1D, .key = "l1d", .title = "L1D%", .unit = "%", .width = 5, .prec = 1,
		.data_prec = 2, .type = COL_TYPE_NUM, .prio = 45, .on_cpus = true,
		.calc = COL_CALC_RATIO, .num = EV_L1D_MISSES, .den = EV_L1D_LOADS, .scale = 100,
		.sev = COLUMNS_MISS_BANDS, .sort_desc = true,
		.help = "L1 data cache load misses per load",
	},
	[COL_DTLB] = {
		.id = COL_DTLB, .key = "dtlb", .title = "DTLB%", .unit = "%", .width = 5, .prec = 1,
		.data_prec = 2, .type = COL_TYPE_NUM, .prio = 44, .on_cpus = true,
		.calc = COL_CALC_RATIO, .num = EV_DTLB_MISSES, .den = EV_DTLB_LOADS, .scale = 100,
		.sev = COLUMNS_MISS_BANDS, .sort_desc = true,
		.help = "data TLB load misses per load",
	},
	[COL_BRMIS] = {
		.id = COL_BRMIS, .key = "brmis", .title = "BRMIS%", .unit = "%", .width = 6,
		.prec = 1, .data_prec = 2, .type = COL_TYPE_NUM, .prio = 50, .on_cpus = true,
		.calc = COL_CALC_RATIO, .num = EV_BRANCH_MISSES, .den = EV_BRANCHES, .scale = 100,
		.sev = { .dir = METRICS_HIGH_BAD, .warn = 1.0, .bad = 5.0 }, .sort_desc = true,
		.help = "mispredicted branches per branch",
	},
	[COL_PF] = {
		.id = COL_PF, .key = "pf", .title = "PF/s", .unit = "/s", .width = 7, .prec = 0,
		.data_prec = 1, .type = COL_TYPE_NUM, .prio = 35, .on_cpus = true,
		.calc = COL_CALC_RATE, .num = EV_PAGE_FAULTS, .den = EV_RAW, .scale = 1,
		.sort_desc = true,
		.help = "page faults per second",
	},
	[COL_CS] = {
		.id = COL_CS, .key = "cs", .title = "CS/s", .unit = "/s", .width = 6, .prec = 0,
		.data_prec = 1, .type = COL_TYPE_NUM, .prio = 30, .on_cpus = true,
		.calc = COL_CALC_RATE, .num = EV_CTX_SWITCHES, .den = EV_RAW, .scale = 1,
		.sort_desc = true,
		.help = "context switches per second",
	},
	[COL_MIG] = {
		.id = COL_MIG, .key = "mig", .title = "MIG/s", .unit = "/s", .width = 5, .prec = 0,
		.data_prec = 1, .type = COL_TYPE_NUM, .prio = 10, .on_cpus = true,
		.calc = COL_CALC_RATE, .num = EV_MIGRATIONS, .den = EV_RAW, .scale = 1,
		.sort_desc = true,
		.help = "CPU migrations per second",
	},
	[COL_COUNTED] = {
		.id = COL_COUNTED, .key = "counted", .title = "CNT%", .unit = "%", .width = 4,
		.prec = 0, .data_prec = 1, .type = COL_TYPE_NUM, .prio = 25, .on_cpus = true,
		.calc = COL_CALC_COUNTED, .num = EV_RAW, .den = EV_RAW, .scale = 100,
		.help = "share of the time hardware counters ran (below 100: multiplexed, values "
			"estimated)",
	},
	[COL_CGROUP] = {
		.id = COL_CGROUP, .key = "cgroup", .title = "CGROUP", .unit = "", .width = 16,
		.left = true, .type = COL_TYPE_TEXT, .prio = 5, .cgroups = true,
		.help = "the process's cgroup (v2), its path's end where it does not fit",
	},
	[COL_COMMAND] = {
		.id = COL_COMMAND, .key = "command", .title = "COMMAND", .unit = "", .width = 8,
		.left = true, .rest = true, .type = COL_TYPE_TEXT,
		.cmdline_title = "COMMAND LINE", .cgroup = { .key = "cgroup", .title = "CGROUP" },
		.help = "process name",
	},
};

/*
 * Every -e event column: a rate, biggest first, dropped early on narrow screens. The screen and
 * text show it per second, like PF/s, beside the other rates; CSV and JSON keep the count in the
 * interval, exact, as programs summing counts over frames want it.
 */
static const struct column COLUMNS_EVENT = {
	.id = COL_MAX,
	.key = "",
	.title = "",
	.unit = "/s",
	.width = 10,
	.prec = 0,
	.data_prec = 0,
	.on_cpus = true,
	.type = COL_TYPE_NUM,
	.prio = 15,
	.sort_desc = true,
	.help = "an event given with -e, per second (CSV and JSON: its count in the interval)",
};

const struct column *columns_get(enum col_id id)
{
	return id < COL_MAX ? &COLUMNS[id] : NULL;
}

const struct column *columns_event(void)
{
	return &COLUMNS_EVENT;
}

bool columns_event_short(const char *name)
{
	return strlen(name) + strlen(COLUMNS_EVENT.unit) > COLUMNS_EVENT_TITLE_MAX;
}

const char *columns_event_title(char *buf, size_t size, const char *name, size_t k)
{
	if (columns_event_short(name))
		snprintf(buf, size, "e%zu%s", k + 1, COLUMNS_EVENT.unit);
	else
		snprintf(buf, size, "%s%s", name, COLUMNS_EVENT.unit);
	return buf;
}

int columns_event_width(const char *name, size_t k)
{
	char title[COLUMNS_EVENT_TITLE_MAX + 32];
	int w = (int)strlen(columns_event_title(title, sizeof(title), name, k));

	return w > COLUMNS_EVENT.width ? w : COLUMNS_EVENT.width;
}

const struct column *columns_find(const char *key)
{
	for (int i = 0; i < COL_MAX; i++)
		if (!strcasecmp(COLUMNS[i].key, key) || !strcasecmp(COLUMNS[i].title, key))
			return &COLUMNS[i];
	return NULL;
}

bool columns_available(const struct column *col, const struct evlist *ev)
{
	/* multiplexing only happens to hardware counters */
	if (col->calc == COL_CALC_COUNTED)
		return evlist_any_hw(ev);
	if (col->num != EV_RAW && !evlist_has(ev, col->num))
		return false;
	if (col->den != EV_RAW && !evlist_has(ev, col->den))
		return false;
	return true;
}

static bool columns_role_requested(const struct evlist *ev, enum ev_role r, int *err)
{
	int i = ev->role_idx[r];

	if (i < 0)
		return false;
	if (ev->ev[i].err && !*err)
		*err = ev->ev[i].err;
	return true;
}

bool columns_requested(const struct column *col, const struct evlist *ev, int *err)
{
	int e = 0;
	bool any = false;

	if (col->calc == COL_CALC_COUNTED) {
		for (size_t i = 0; i < ev->n; i++)
			any |= ev->ev[i].hw;
		if (any && !evlist_any_hw(ev))
			e = -ENOENT;
	} else {
		any = true;
		if (col->num != EV_RAW)
			any &= columns_role_requested(ev, col->num, &e);
		if (col->den != EV_RAW)
			any &= columns_role_requested(ev, col->den, &e);
	}
	if (err)
		*err = any ? e : 0;
	return any;
}

static const struct col_variant *columns_variant(const struct column *col, enum col_rows rows)
{
	switch (rows) {
	case COL_ROWS_THREADS:
		return &col->thread;
	case COL_ROWS_CPUS:
		return &col->cpu;
	case COL_ROWS_CGROUPS:
		return &col->cgroup;
	case COL_ROWS_USERS:
		return &col->user;
	case COL_ROWS_PROCESSES:
		break;
	}
	return NULL;
}

bool columns_on_rows(const struct column *col, enum col_rows rows)
{
	switch (rows) {
	case COL_ROWS_CPUS:
		return col->on_cpus;
	case COL_ROWS_CGROUPS:
		return (col->type == COL_TYPE_NUM &&
			(col->calc != COL_CALC_NONE || !col->key[0])) ||
		       col->rest || col->id == COL_THR;
	case COL_ROWS_USERS:
		/* a user's processes are in many cgroups */
		return col->id != COL_CGROUP;
	default:
		return true;
	}
}

const char *columns_key(const struct column *col, enum col_rows rows)
{
	const struct col_variant *v = columns_variant(col, rows);

	return v && v->key ? v->key : col->key;
}

const char *columns_title(const struct column *col, enum col_rows rows)
{
	const struct col_variant *v = columns_variant(col, rows);

	return v && v->title ? v->title : col->title;
}

int columns_width(const struct column *col, enum col_rows rows)
{
	const struct col_variant *v = columns_variant(col, rows);

	return v && v->width ? v->width : col->width;
}

enum metrics_severity columns_severity(const struct column *col, double v)
{
	return metrics_severity(&col->sev, v);
}

char *columns_keys(char *buf, size_t size, bool events)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < COL_MAX && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", COLUMNS[i].key);
	if (events && o < size)
		snprintf(buf + o, size - o, ", or an -e event name");
	return buf;
}

/* The mark after a number: '*' estimated, '?' suspect. */
static const char *columns_mark(unsigned fl)
{
	return fl & COL_F_SUSPECT ? "?" : fl & COL_F_EST ? "*" : "";
}

/*
 * "%.*f" of v then mark, cut to size as snprintf cuts: without printf, as
 * every cell of every row of a batch frame goes through here.
 */
static void columns_put_fixed(char *buf, size_t size, double v, int prec, const char *mark)
{
	char tmp[NUMFMT_MAX + 8];
	size_t n = numfmt_fixed(tmp, v, prec), m = strlen(mark);

	if (!size)
		return;
	if (m && n + m < sizeof(tmp)) {
		memcpy(tmp + n, mark, m + 1);
		n += m;
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
}

void columns_format_num(char *buf, size_t size, double v, int prec, unsigned fl)
{
	if (fl & COL_F_NA) {
		snprintf(buf, size, "n/a");
		return;
	}
	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	columns_put_fixed(buf, size, v, prec, columns_mark(fl));
}

void columns_format_fit(char *buf, size_t size, double v, int prec, int width, unsigned fl)
{
	static const char SUFFIX[] = " KMGTPE";

	columns_format_num(buf, size, v, prec, fl);
	if (width <= 0 || (int)strlen(buf) <= width || (fl & COL_F_NA) || !isfinite(v))
		return;
	/* as top does: fewer decimals first, then thousands with a suffix; never cut digits */
	for (int s = 0; SUFFIX[s]; s++) {
		double scaled = v / pow(1000.0, s);

		for (int p = s ? 1 : prec; p >= 0; p--) {
			char try[64];

			snprintf(try, sizeof(try), "%.*f%.*s%s", p, scaled, s ? 1 : 0, SUFFIX + s,
				 columns_mark(fl));
			if ((int)strlen(try) <= width) {
				snprintf(buf, size, "%s", try);
				return;
			}
		}
	}
}

/*
 * KiB as top writes memory: the number while it fits, else in the first of
 * MiB, GiB, TiB, PiB (m, g, t, p) below 1024 of it, with what decimals fit.
 */
static void columns_format_kib(char *buf, size_t size, double kib, int width)
{
	static const char UNIT[] = "mgtp";

	columns_put_fixed(buf, size, kib, 0, "");
	if (width <= 0 || (int)strlen(buf) <= width)
		return;
	for (int u = 0; UNIT[u]; u++) {
		double v = kib / pow(1024.0, u + 1);

		if (v >= 1024.0 && UNIT[u + 1])
			continue;
		for (int p = 2; p >= 0; p--) {
			char try[64];

			snprintf(try, sizeof(try), "%.*f%c", p, v, UNIT[u]);
			if ((int)strlen(try) <= width) {
				snprintf(buf, size, "%s", try);
				return;
			}
		}
	}
}

/* Seconds as top's TIME+ (M:SS.hh); too wide, M:SS, then hours (H:MM as "Hh") and days. */
static void columns_format_time(char *buf, size_t size, double sec, int width)
{
	unsigned long long cs = (unsigned long long)llround(sec * 100.0);
	unsigned long long s = cs / 100, m = s / 60;
	char try[64];

	snprintf(buf, size, "%llu:%02llu.%02llu", m, s % 60, cs % 100);
	if (width <= 0 || (int)strlen(buf) <= width)
		return;
	snprintf(try, sizeof(try), "%llu:%02llu", m, s % 60);
	if ((int)strlen(try) <= width) {
		snprintf(buf, size, "%s", try);
		return;
	}
	snprintf(try, sizeof(try), "%lluh", m / 60);
	if ((int)strlen(try) > width)
		snprintf(try, sizeof(try), "%llud", m / 1440);
	snprintf(buf, size, "%s", try);
}

void columns_format_cell(const struct column *col, char *buf, size_t size, double v, int width,
			 unsigned fl)
{
	if (col->fmt == COL_FMT_NUM || isnan(v) || !isfinite(v) || v < 0 || (fl & COL_F_NA)) {
		columns_format_fit(buf, size, v, col->prec, width, fl);
		return;
	}
	if (col->fmt == COL_FMT_KIB)
		columns_format_kib(buf, size, v, width);
	else
		columns_format_time(buf, size, v, width);
}

void columns_choice_default(struct col_choice *c)
{
	c->hidden = 0;
	for (int i = 0; i < COL_MAX; i++) {
		c->order[i] = (unsigned char)i;
		if (COLUMNS[i].off)
			c->hidden |= 1u << i;
	}
}

/* Put the rest column last, where the table draws it whatever the order says. */
static void columns_choice_rest_last(struct col_choice *c)
{
	for (int i = 0; i + 1 < COL_MAX; i++)
		if (COLUMNS[c->order[i]].rest) {
			unsigned char r = c->order[i];

			memmove(&c->order[i], &c->order[i + 1], (size_t)(COL_MAX - 1 - i));
			c->order[COL_MAX - 1] = r;
			break;
		}
	c->hidden &= ~(1u << c->order[COL_MAX - 1]);
}

int columns_choice_parse(struct col_choice *c, const char *list, char *bad, size_t size)
{
	bool seen[COL_MAX] = { false };
	int n = 0, r = 0;
	const char *p = list;

	if (size)
		bad[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, ","), tl = len;
		const char *t = p;
		char name[64];
		const struct column *col = NULL;

		while (tl && (*t == ' ' || *t == '\t')) {
			t++;
			tl--;
		}
		while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
			tl--;
		if (tl && tl < sizeof(name)) {
			memcpy(name, t, tl);
			name[tl] = '\0';
			col = columns_find(name);
		}
		if (tl && (!col || seen[col->id])) {
			if (!r && size)
				snprintf(bad, size, "%.*s", (int)(tl < 64 ? tl : 64), t);
			r = -EINVAL;
		} else if (col) {
			seen[col->id] = true;
			c->order[n++] = (unsigned char)col->id;
		}
		p += len + (p[len] == ',');
	}
	c->hidden = 0;
	for (int i = 0; i < COL_MAX; i++)
		if (!seen[i]) {
			c->order[n++] = (unsigned char)i;
			c->hidden |= 1u << i;
		}
	columns_choice_rest_last(c);
	return r;
}

char *columns_choice_format(const struct col_choice *c, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < COL_MAX && o < size; i++)
		if (!(c->hidden & (1u << c->order[i])))
			o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? "," : "",
					      COLUMNS[c->order[i]].key);
	return buf;
}

bool columns_choice_shown(const struct col_choice *c, enum col_id id)
{
	return id < COL_MAX && !(c->hidden & (1u << id));
}

bool columns_choice_move(struct col_choice *c, size_t i, int dir)
{
	size_t j = dir < 0 ? i - 1 : i + 1;
	unsigned char t;

	/* the rest column stays last: nothing moves past it */
	if (i >= COL_MAX || (dir < 0 && !i) || j >= COL_MAX || COLUMNS[c->order[i]].rest ||
	    COLUMNS[c->order[j]].rest)
		return false;
	t = c->order[i];
	c->order[i] = c->order[j];
	c->order[j] = t;
	return true;
}
