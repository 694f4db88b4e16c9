/* The column table: the one definition of every column of the tables, lists and batch output. */
#ifndef PMCTOP_COLUMNS_H
#define PMCTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/evlist.h"
#include "model/metrics.h"

/*
 * The enum order is the display order: the screen's tables, the batch text, CSV and JSON, the
 * help screen and the sort-key cycle all follow it. The -e event columns go just before the
 * column marked rest (the command).
 */
enum col_id {
	COL_PID,
	COL_USER,
	COL_THR,
	COL_STATE,
	COL_NI,
	COL_VIRT,
	COL_RES,
	COL_SHR,
	COL_MEM,
	COL_TIME,
	COL_P,
	COL_CPU,
	COL_GHZ,
	COL_IPC,
	COL_CPI,
	COL_CACHE,
	COL_L1D,
	COL_DTLB,
	COL_BRMIS,
	COL_PF,
	COL_CS,
	COL_MIG,
	COL_COUNTED,
	COL_CGROUP,
	COL_COMMAND,
	COL_MAX
};

enum col_type {
	COL_TYPE_INT,  /* pid, threads */
	COL_TYPE_TEXT, /* user, command */
	COL_TYPE_NUM,  /* metrics: double, NAN as "-" */
};

/* How the model computes a numeric column from the scaled deltas of the event roles. */
enum col_calc {
	COL_CALC_NONE,	  /* not computed: identity and names */
	COL_CALC_RATIO,	  /* scale * num / den */
	COL_CALC_WALL,	  /* scale * num / ns of wall time */
	COL_CALC_RATE,	  /* num per second of wall time */
	COL_CALC_RUN,	  /* scale * num / ns the row ran: den for tasks, busy for CPUs */
	COL_CALC_COUNTED, /* scale * the lowest running/enabled share of hardware counters */
};

/* Which rows a table lists; some columns are named or sized differently for each. */
enum col_rows {
	COL_ROWS_PROCESSES,
	COL_ROWS_THREADS,
	COL_ROWS_CPUS,
	COL_ROWS_CGROUPS,
	COL_ROWS_USERS, /* one row per user: the totals of their processes */
};

/* How a numeric cell is written. */
enum col_fmt {
	COL_FMT_NUM,  /* the number with its decimals; K, M, ... when too wide */
	COL_FMT_KIB,  /* KiB; too wide, top's binary m, g, t (MiB, GiB, TiB) */
	COL_FMT_TIME, /* seconds as top's TIME+: minutes:seconds.hundredths */
};

/* A column's key, title and width on thread or CPU rows; NULL or 0 keeps the column's own. */
struct col_variant {
	const char *key;
	const char *title;
	int width;
};

struct column {
	enum col_id id;
	const char *key;   /* -s, CSV header and JSON field: "cpi" */
	const char *title; /* table header: "CPI" */
	const char *unit;  /* of the value: "%", "GHz", "/s"; "" for none */
	int width;	   /* cells; for the rest column, the least it needs */
	int prec;	   /* decimals on the screen and in batch text */
	int data_prec;	   /* decimals in CSV and JSON */
	bool left;	   /* left-aligned */
	bool rest;	   /* the last column, taking the rest of the line */
	bool on_cpus;	   /* also a column of the per-CPU rows */
	bool cgroups;	   /* shown only where cgroups are known (the model's have_cgroups) */
	bool proc;	   /* from /proc, not the counters: shown on rows that are not counted */
	bool off;	   /* hidden until chosen (F2, --columns): the counters keep the room */
	enum col_fmt fmt;
	enum col_type type;
	int prio; /* narrow screens drop the lowest first */
	enum col_calc calc;
	enum ev_role num, den;	  /* the event roles computed from; EV_RAW for none */
	double scale;		  /* 100 for percentages */
	struct metrics_bands sev; /* colour bands; neutral for none */
	bool sort_desc;		  /* natural order: biggest first */
	struct col_variant thread, cpu, cgroup, user;
	const char *cmdline_title; /* header when command lines are shown; NULL: title */
	const char *help;
};

/* The column of id; NULL when id is not one (COL_MAX and up are -e events). */
const struct column *columns_get(enum col_id id);
/* The definition every -e event column shares (its title is the event's name). */
const struct column *columns_event(void);
/*
 * The table title of the k-th -e event (from 0), named name: "name/s" up to
 * COLUMNS_EVENT_TITLE_MAX characters, else short, "e1/s" for the first, and a
 * legend names it in full (columns_event_short). Returns buf.
 */
#define COLUMNS_EVENT_TITLE_MAX 18
const char *columns_event_title(char *buf, size_t size, const char *name, size_t k);
/* Whether an event of that name gets a short title. */
bool columns_event_short(const char *name);
/* The cells of the k-th -e event's column: its title's, at least the shared definition's. */
int columns_event_width(const char *name, size_t k);
/* Column by key or title, case-insensitive; NULL when none. */
const struct column *columns_find(const char *key);
/* Whether ev has the data col needs. */
bool columns_available(const struct column *col, const struct evlist *ev);
/*
 * Whether the events col needs were asked for, countable or not: the
 * columns of CSV and JSON, the same on every machine. When they cannot all be
 * counted, *err (if not NULL) is the errno of the first that cannot, else 0.
 */
bool columns_requested(const struct column *col, const struct evlist *ev, int *err);
/*
 * Whether col is a column of rows: every column of processes and threads;
 * on CPUs those marked on_cpus; on cgroups the computed numbers, the thread
 * count (their processes there) and the rest column (their path).
 */
bool columns_on_rows(const struct column *col, enum col_rows rows);
/* Key, title and width of col on rows. */
const char *columns_key(const struct column *col, enum col_rows rows);
const char *columns_title(const struct column *col, enum col_rows rows);
int columns_width(const struct column *col, enum col_rows rows);
/* How good or bad v is in col; NONE for columns without bands. */
enum metrics_severity columns_severity(const struct column *col, double v);
/* "pid, user, ..., command" (events: ", or an -e event name" after) into buf, for messages; returns buf. */
char *columns_keys(char *buf, size_t size, bool events);
/*
 * The user's choice of table columns (F2 setup, the settings file): every column in display
 * order, some hidden. The rest column (COMMAND) is always shown and always last.
 */
struct col_choice {
	unsigned char order[COL_MAX]; /* each enum col_id once */
	uint32_t hidden;	      /* bit per enum col_id */
};

/* The column table's own order, every column shown but those marked off (NI, VIRT, SHR, P). */
void columns_choice_default(struct col_choice *c);
/*
 * The shown columns from a comma-separated list of keys or titles ("pid,user,cpi"), in that
 * order; the others hidden after them, in table order. A name that is no column, or one
 * given twice, is passed over: *bad (size bytes) gets the first, and -EINVAL is returned;
 * the rest of the list still counts. 0 when every name was good. Pure.
 */
int columns_choice_parse(struct col_choice *c, const char *list, char *bad, size_t size);
/* The shown columns' keys, comma-separated, into buf; returns buf. */
char *columns_choice_format(const struct col_choice *c, char *buf, size_t size);
/* Whether c's column id is shown. */
bool columns_choice_shown(const struct col_choice *c, enum col_id id);
/* Move the column at position i one place up (dir < 0) or down; false when it cannot go. */
bool columns_choice_move(struct col_choice *c, size_t i, int dir);

/* How sure a value is: marks of a cell. */
#define COL_F_EST 0x1u	   /* scaled from a multiplexed count: '*' */
#define COL_F_NA 0x2u	   /* a counter it needs did not run: "n/a" */
#define COL_F_SUSPECT 0x4u /* an event that has never counted while the CPU worked: '?' */

/*
 * Format v for a table cell with its COL_F_* flags: "-" for undefined,
 * "n/a" when not counted, '*' when estimated, '?' when suspect.
 */
void columns_format_num(char *buf, size_t size, double v, int prec, unsigned fl);
/*
 * A cell of col: columns_format_fit for COL_FMT_NUM, KiB or TIME+ for the
 * others, within width (<= 0: exact). NAN is "-", never 0.
 */
void columns_format_cell(const struct column *col, char *buf, size_t size, double v, int width,
			 unsigned fl);
/*
 * The same within width characters (<= 0: no limit): when the number is
 * wider, fewer decimals, then K, M, G, T, P, E (powers of 1000), as top
 * shows large numbers; never cut digits off. Only a number no suffix can
 * fit stays wider than width.
 */
void columns_format_fit(char *buf, size_t size, double v, int prec, int width, unsigned fl);

#endif
