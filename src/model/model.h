/* Snapshots to rows: per-tick deltas, scaling, metrics, filters and sort. */
#ifndef PMCTOP_MODEL_H
#define PMCTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/columns.h"
#include "model/evstat.h"
#include "stream/evlist.h"
#include "model/hotpage.h"
#include "stream/snapshot.h"

#define MODEL_F_EST COL_F_EST /* scaled from a multiplexed count */
#define MODEL_F_NA COL_F_NA   /* the counter did not run at all */
/*
 * A hardware event that has never counted anything in any row while the
 * counted work reached MODEL_SUSPECT_CYCLES cycles or MODEL_SUSPECT_NS of
 * task-clock: a hypervisor that filters events leaves them at 0 instead
 * of failing them. Its 0 is marked, never shown clean.
 */
#define MODEL_F_SUSPECT COL_F_SUSPECT
#define MODEL_SUSPECT_CYCLES 100000000.0
#define MODEL_SUSPECT_NS 100000000.0

/* est, na and suspect hold a bit per column */
_Static_assert(COL_MAX <= 32, "widen the per-column masks of struct model_row");

struct model_row {
	int id;			  /* pid (tid for threads), or CPU number (-1 for the total) */
	int tgid;		  /* the process of a thread row; id for process rows */
	unsigned long long start; /* its start time in clock ticks after boot (0: not known) */
	int ppid;		  /* the parent process, as the snapshot has it (0 when unknown) */
	unsigned uid;
	char user[33];
	int threads;
	char state;
	char comm[64];
	char *cmdline;	   /* owned */
	int err;	   /* 0, or -errno: why the row is not counted */
	double v[COL_MAX]; /* numeric columns; NAN when undefined */
	uint32_t est;	   /* bit per column: value is a multiplexing estimate */
	uint32_t na;	   /* bit per column: a counter it needs did not run */
	uint32_t suspect;  /* bit per column: it rests on a suspect event (MODEL_F_SUSPECT) */
	double *raw;	   /* one per raw (-e) event, scaled delta; owned */
	uint8_t *raw_fl;   /* MODEL_F_* per raw event; owned */
	char *cgroup;	   /* owned; the cgroup (v2) path, NULL when not known */
	double *ev;	   /* every event's scaled delta, NAN when none: what totals sum; owned */
	uint8_t *ev_fl;	   /* MODEL_F_* per event; owned */
	double counted;	   /* lowest running/enabled share of hardware events; NAN if none */
	unsigned pflags;   /* SNAP_TASK_* of the entry */
	int procs;	   /* per-user rows: how many processes; 0 on other rows */
	double dt;	   /* s between the row's own two reads, what its rates are over; 0: none */
};

/*
 * A process (or thread) as the user chose it: its id and its start time, so that one which
 * exited is never confused with a newcomer given the same id.
 */
struct model_ident {
	int id;
	unsigned long long start; /* clock ticks after boot, field 22 of /proc/PID/stat */
};

/* Per-user totals, one row per uid (see model_users_build). */
struct model_users {
	struct model_row *v;
	size_t n, cap;
};

struct model_filter {
	const int *pids; /* borrowed; only these when npids > 0 */
	size_t npids;
	const char *user;   /* borrowed; user name or numeric uid, NULL for all */
	const char *name;   /* borrowed; substring of the name or command line */
	const char *cgroup; /* borrowed; only processes in this cgroup or below it */
	bool kthreads;	    /* keep kernel threads (--kernel-threads, K) */
	/* -- CMD: pids and every process whose ppid chain reaches one of them */
	bool tree;
	int *tree_pids; /* owned by the model: pids and their descendants in the last snapshot */
	size_t ntree, tree_cap;
};

/* The processes of a snapshot by state, as top counts them. */
struct model_states {
	size_t total;
	size_t running;	 /* R */
	size_t sleeping; /* S, D and I */
	size_t stopped;	 /* T and t */
	size_t zombie;	 /* Z */
};

struct model;

/* top's memory and swap meters in MiB; NAN where unknown (shown "-", never 0). */
struct model_memory {
	double total, free, used, buff_cache;
	double swap_total, swap_free, swap_used, avail;
};

/* Count the processes of s by state (a pure function of the snapshot). */
void model_count_states(const struct snapshot *s, struct model_states *out);

/*
 * The meters of m as top computes them: buff/cache is Buffers + Cached + SReclaimable,
 * used is the rest of MemTotal without MemFree and buff/cache (without MemFree alone
 * when that would go below zero). Every field is NAN when m has no meminfo.
 */
void model_memory(const struct model *m, struct model_memory *out);

struct model {
	struct evlist ev; /* copy of the source's events */
	size_t nraw;
	int *raw_ev; /* event index of each raw column */
	struct snapshot prev;
	bool have_prev;
	bool *counted_once; /* per event: some row has counted something since the start */
	double work_cycles; /* cycles counted so far, over every process (for suspects) */
	double work_ns;	    /* task-clock counted so far */
	double dt;	    /* seconds covered by the rows */
	double wall;
	double load[3];
	double uptime;	/* seconds since boot; < 0 when unknown */
	double clk_tck; /* clock ticks a second, the unit of snap_task.start */
	char host[65];	/* where the counts come from */
	char kernel[65];
	uint64_t mem_total_kib;	    /* 0 when unknown */
	struct snap_mem mem;	    /* the memory and swap meters; .known false: empty */
	struct model_states states; /* of the snapshot's processes, top's "Tasks:" */
	struct model_row *rows;
	size_t nrows, rcap;
	struct model_row *threads; /* per-thread rows, when the snapshot has them */
	size_t nthreads, thcap;
	struct model_row *cpus; /* per CPU, then one total row with id -1 */
	size_t ncpus, ccap;
	/*
	 * Per cgroup: the path in cgroup and cmdline, its last part in comm,
	 * the processes in it or below in threads (-1 when processes are not
	 * counted), id a hash of the path (for a selection to follow).
	 */
	struct model_row *cgroups;
	size_t ncgroups, cgcap;
	bool have_cgroups;     /* the snapshots say which cgroups there are */
	uint64_t cg_fds;       /* descriptors their counters take */
	uint64_t cg_budget;    /* of the budget; 0 when unlimited */
	size_t cg_not_counted; /* cgroup rows that could not be counted */
	size_t nmultiplexed;   /* events scaled from multiplexed counts in some row */
	size_t ntasks_seen;    /* tasks in the snapshot before filtering */
	size_t not_counted;    /* rows whose counters could not be opened */
	int not_counted_err;   /* the most common reason */
	/* per event: its shares of time counted in the last interval (the events screen) */
	struct evstat *evstat;
	struct model_filter filter;
	struct col_choice cols; /* the table's columns: their order, which are hidden (F2) */
	int sort_col;		/* enum col_id, or COL_MAX + raw index */
	bool sort_reverse;

	/* the hot-page histogram of the sampled process */
	struct hotpage *hp; /* NULL until samples come */
	int sample_pid;	    /* 0 when nothing is sampled */
	char sample_source[32];
	uint64_t sample_period;
	unsigned sample_flags;	  /* SNAP_SMP_NO_*: cells the source cannot fill show n/a */
	uint64_t sample_nonmem;	  /* IBS ops without an address, dropped (cumulative) */
	double sample_rate;	  /* samples per second in the last interval */
	uint64_t lost, throttled; /* cumulative, as the source reports them */
	uint64_t lost_tick;	  /* lost in the last interval */
	struct mem_map *maps;	  /* the sampled process's mappings */
	size_t nmaps, mapcap;
	unsigned page_shift; /* 12 or 21 */
	double halflife;     /* seconds */
	size_t hp_cap;	     /* pages kept */
};

/* A model over the events of ev (copied). Never NULL. */
struct model *model_new(const struct evlist *ev);
void model_free(struct model *m);
/*
 * Take the next snapshot. Rows are the deltas from the previous one. The
 * first snapshot gives rows too, at once, with the /proc columns, the load
 * and the tasks, and every counter column empty (NAN): returns false for it,
 * true when the rows carry an interval's counts.
 */
bool model_update(struct model *m, const struct snapshot *s);
/*
 * Forget the previous snapshot, the hot-page histogram and the mappings: the
 * next snapshot starts afresh, as the first one did (a replay that jumped).
 */
void model_restart(struct model *m);
/* Whether event i is a hardware event that has never counted anything while work went on. */
bool model_event_suspect(const struct model *m, size_t i);
/*
 * The costly facts (SOURCE_EXTRA_*) the rows need now: a column shown or
 * sorted by. For source_extras, after the columns or the sort change.
 */
unsigned model_extras(const struct model *m);
/* Sort the process, thread and cgroup rows by column (see sort_col); reverse flips the natural order. */
void model_sort(struct model *m, int col, bool reverse);
/* Column index for a -s key: a column key/title or a raw event name; -1 when unknown. */
int model_sort_key(const struct model *m, const char *key);
/* Whether numeric column col has data in this event mode. */
bool model_column_shown(const struct model *m, enum col_id col);
/*
 * The columns shown in this event mode, in display order (cols: the column table's unless
 * the user chose another), the -e event columns (COL_MAX + k) before the rest column, the
 * columns cols hides left out; writes at most max ids to out, returns how many.
 */
size_t model_columns(const struct model *m, int *out, size_t max);
/*
 * The columns whose events were asked for but cannot be counted (the -e
 * events among them, as COL_MAX + k), in display order, with the errno of
 * each in err; writes at most max, returns how many. model_columns shows
 * them (as "-") when some hardware event counts; with none at all the mode
 * line says why and they are left out.
 */
size_t model_columns_unsupported(const struct model *m, int *out, int *err, size_t max);
#define MODEL_MAX_COLS (COL_MAX + 64)
/*
 * Those columns by their titles on rows, one sentence per reason, "; "
 * between: "not supported by this PMU: CACHE% L1D%"; "" for none. Returns buf.
 */
const char *model_unsupported_text(const struct model *m, enum col_rows rows, char *buf,
				   size_t size);
/*
 * The numeric columns of CSV and JSON: every one whose events were asked
 * for, countable or not, so that the schema does not depend on the machine.
 */
size_t model_data_columns(const struct model *m, enum col_id *out, size_t max);
/* The definition of column id: the table's, or the -e event columns' for COL_MAX and up. */
const struct column *model_column(const struct model *m, int id);
/* The name of column id on rows: its title, or the event's full name (CSV, JSON, messages). */
const char *model_column_title(const struct model *m, int id, enum col_rows rows);
/*
 * The title of column id over a table of rows (the screen's and text's): its
 * title, or an -e event's "name/s" or, for a long name, "e1/s" (see
 * columns_event_title). Returns buf.
 */
const char *model_column_head(const struct model *m, int id, enum col_rows rows, char *buf,
			      size_t size);
/* The cells column id takes in a table of rows. */
int model_column_width(const struct model *m, int id, enum col_rows rows);
/* Whether the k-th -e event's column has a short title, which a legend names. */
bool model_event_short(const struct model *m, size_t k);
/*
 * Row r's k-th -e event per second of the interval, as the screen and text
 * show it (r->raw holds the count in the interval); NAN when not known.
 */
double model_event_rate(const struct model *m, const struct model_row *r, size_t k);
/* The MODEL_F_* marks of row r's built-in column id (< COL_MAX). */
unsigned model_cell_flags(const struct model_row *r, int id);
/*
 * Row r's cell of column id as text, unpadded: numbers as columns_format_fit
 * gives them within width (<= 0: exact, as batch output wants); an -e
 * event per second (model_event_rate).
 */
void model_format_cell(const struct model *m, const struct model_row *r, int id, enum col_rows rows,
		       int width, char *buf, size_t size);
/* Histogram settings; a new page size starts the histogram afresh. */
void model_set_page_shift(struct model *m, unsigned shift);
void model_set_halflife(struct model *m, double seconds);
/*
 * Whether a process or thread passes f: its process among f's pids, its user by name or uid,
 * its name or command line containing f's name, case-insensitively. Unset or empty parts pass
 * everything. The one filter of batch output, the screen's lists and its search.
 */
bool model_filter_match(const struct model_filter *f, int tgid, unsigned uid, const char *user,
			const char *comm, const char *cmdline);
/* Whether a process in cgroup (NULL: not known) passes f's cgroup part. */
bool model_filter_cgroup(const struct model_filter *f, const char *cgroup);
/*
 * Whether the process or thread w is still a row of m: 0 when a process or thread row has w's
 * id and start time, -ESRCH when none has the id or its start time differs (w exited; its id
 * may name a newcomer).
 */
int model_ident_check(const struct model *m, const struct model_ident *w);
/* Whether a snapshot entry passes the model's filter (the rows model_update keeps). */
bool model_wanted(const struct model *m, const struct snap_task *t);
/* Whether a row passes f, for filtering rows already made (the screen's interactive filter). */
bool model_row_wanted(const struct model_filter *f, const struct model_row *r);
/*
 * Per-user totals of the process rows rows[0..n) into u (kept allocated
 * between calls): one row per uid, sorted by the model's sort settings. The
 * counter columns come from the summed counts (IPC is the sum of
 * instructions over the sum of cycles, never an average of ratios); THR,
 * RES, %MEM and TIME+ are sums, PROCS (procs) the number of processes.
 * A counter that did not run in one of the processes (n/a) makes the
 * user's n/a too, never a smaller sum; processes that are not counted at all
 * are left out of the counts (their memory and time still add up), and a
 * user none of whose processes is counted keeps the reason in err. Pure:
 * reads m only.
 */
void model_users_build(const struct model *m, const struct model_row *const *rows, size_t n,
		       struct model_users *u);
void model_users_release(struct model_users *u);
/* Compare two rows by the model's sort settings (exported for tests). */
int model_compare(const struct model *m, const struct model_row *a, const struct model_row *b);

#endif
