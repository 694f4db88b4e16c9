/* Column definitions: titles, widths, formats, sort order and the events each needs. */
#include "config.h"

#include "model/columns.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

static const struct column COLUMNS[COL_MAX] = {
	{ COL_PID, "pid", "PID", 7, 0, COL_TYPE_INT, false, { EV_RAW, EV_RAW }, false, 0,
	  "process id" },
	{ COL_USER, "user", "USER", 9, 0, COL_TYPE_TEXT, false, { EV_RAW, EV_RAW }, false, 0,
	  "effective user" },
	{ COL_THR, "threads", "THR", 4, 0, COL_TYPE_INT, true, { EV_RAW, EV_RAW }, false, 0,
	  "number of threads" },
	{ COL_CPU, "cpu", "%CPU", 6, 1, COL_TYPE_NUM, true, { EV_TASK_CLOCK, EV_RAW }, false, 0,
	  "CPU time over wall time (task-clock), 100 per busy core" },
	{ COL_GHZ, "ghz", "GHZ", 5, 2, COL_TYPE_NUM, true, { EV_CYCLES, EV_TASK_CLOCK }, false,
	  0, "cycles per ns of CPU time" },
	{ COL_IPC, "ipc", "IPC", 5, 2, COL_TYPE_NUM, true, { EV_CYCLES, EV_INSTRUCTIONS }, true,
	  METRICS_IPC, "instructions per cycle" },
	{ COL_CPI, "cpi", "CPI", 5, 2, COL_TYPE_NUM, true, { EV_CYCLES, EV_INSTRUCTIONS }, true,
	  METRICS_CPI, "cycles per instruction" },
	{ COL_CACHE, "cache", "CACHE%", 6, 1, COL_TYPE_NUM, true,
	  { EV_CACHE_REFS, EV_CACHE_MISSES }, true, METRICS_MISS_PCT,
	  "cache misses per cache reference (last level)" },
	{ COL_L1D, "l1d", "L1D%", 5, 1, COL_TYPE_NUM, true, { EV_L1D_LOADS, EV_L1D_MISSES }, true,
	  METRICS_MISS_PCT, "L1 data cache load misses per load" },
	{ COL_DTLB, "dtlb", "DTLB%", 5, 1, COL_TYPE_NUM, true, { EV_DTLB_LOADS, EV_DTLB_MISSES },
	  true, METRICS_MISS_PCT, "data TLB load misses per load" },
	{ COL_BRMIS, "brmis", "BRMIS%", 6, 1, COL_TYPE_NUM, true,
	  { EV_BRANCHES, EV_BRANCH_MISSES }, true, METRICS_BRANCH_MISS_PCT,
	  "mispredicted branches per branch" },
	{ COL_PF, "pf", "PF/s", 7, 0, COL_TYPE_NUM, true, { EV_PAGE_FAULTS, EV_RAW }, false, 0,
	  "page faults per second" },
	{ COL_CS, "cs", "CS/s", 6, 0, COL_TYPE_NUM, true, { EV_CTX_SWITCHES, EV_RAW }, false, 0,
	  "context switches per second" },
	{ COL_MIG, "mig", "MIG/s", 5, 0, COL_TYPE_NUM, true, { EV_MIGRATIONS, EV_RAW }, false, 0,
	  "CPU migrations per second" },
	{ COL_COUNTED, "counted", "CNT%", 4, 0, COL_TYPE_NUM, false, { EV_RAW, EV_RAW }, false,
	  0, "share of the time hardware counters ran (below 100: multiplexed, values estimated)" },
	{ COL_COMMAND, "command", "COMMAND", 0, 0, COL_TYPE_TEXT, false, { EV_RAW, EV_RAW }, false,
	  0, "process name" },
};

const struct column *columns_get(enum col_id id)
{
	return id < COL_MAX ? &COLUMNS[id] : NULL;
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
	if (col->id == COL_COUNTED)
		return evlist_any_hw(ev);
	for (int i = 0; i < 2; i++)
		if (col->need[i] != EV_RAW && !evlist_has(ev, col->need[i]))
			return false;
	return true;
}

const char *columns_keys(void)
{
	return "pid, user, threads, cpu, ghz, ipc, cpi, cache, l1d, dtlb, brmis, pf, cs, mig, "
	       "counted, command, or an -e event name";
}

void columns_format_num(char *buf, size_t size, double v, int prec, bool est, bool na)
{
	if (na) {
		snprintf(buf, size, "n/a");
		return;
	}
	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, "%.*f%s", prec, v, est ? "*" : "");
}
