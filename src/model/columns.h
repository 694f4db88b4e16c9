/* The column table: one row per column of the process and core tables. */
#ifndef PMCTOP_COLUMNS_H
#define PMCTOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "stream/evlist.h"
#include "model/metrics.h"

enum col_id {
	COL_PID,
	COL_USER,
	COL_THR,
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
	COL_COMMAND,
	COL_MAX
};

enum col_type {
	COL_TYPE_INT,	/* pid, threads */
	COL_TYPE_TEXT,	/* user, command */
	COL_TYPE_NUM,	/* metrics: double, NAN as "-" */
};

struct column {
	enum col_id id;
	const char *key;	/* for -s and CSV/JSON: "cpi" */
	const char *title;	/* table header: "CPI" */
	int width;
	int prec;		/* decimals for numbers */
	enum col_type type;
	bool sort_desc;		/* natural order: biggest first */
	enum ev_role need[2];	/* roles the column needs; EV_RAW for none */
	bool severity;		/* colour by metrics_severity */
	enum metrics_kind kind;
	const char *help;
};

/* The column of id. */
const struct column *columns_get(enum col_id id);
/* Column by key or title, case-insensitive; NULL when none. */
const struct column *columns_find(const char *key);
/* Whether ev has the data col needs. */
bool columns_available(const struct column *col, const struct evlist *ev);
/* Comma-separated list of keys, for messages. */
const char *columns_keys(void);
/* Format v for a table cell: "-" for undefined, "n/a" when not counted, '*' if estimated. */
void columns_format_num(char *buf, size_t size, double v, int prec, bool est, bool na);

#endif
