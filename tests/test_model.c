/* Tests of the model on hardware-like counts: deltas, scaling, n/a, metrics, sort, filters. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "app/options.h"
#include "model/model.h"
#include "stream/source.h"
#include "testutil.h"

enum {
	E_TC,
	E_PF,
	E_CS,
	E_MIG,
	E_CYC,
	E_INS,
	E_CREF,
	E_CMISS,
	E_L1,
	E_L1M,
	E_TLB,
	E_TLBM,
	E_BR,
	E_BRM,
	E_RAW,
	E_N
};

static struct evlist evs;

static void setup(void)
{
	evlist_init(&evs);
	evlist_add_defaults(&evs, true);
	evlist_add(&evs, "LLC-load-misses", 6, true, true);
	ck_assert_uint_eq(evs.n, E_N);
	ck_assert_int_eq(evs.role_idx[EV_CYCLES], E_CYC);
	ck_assert_int_eq(evs.role_idx[EV_BRANCH_MISSES], E_BRM);
}

static void teardown(void)
{
	evlist_release(&evs);
}

static void set(struct snap_count *c, int e, uint64_t v, uint64_t en, uint64_t run)
{
	c[e].value = v;
	c[e].enabled = en;
	c[e].running = run;
	c[e].err = 0;
}

static struct snap_task *task(struct snapshot *s, int pid, unsigned long long start)
{
	struct snap_task *t = snapshot_add_task(s, pid);

	t->start = start;
	t->threads = 1;
	t->state = 'R';
	snprintf(t->user, sizeof(t->user), "%s", pid % 2 ? "alice" : "bob");
	t->uid = pid % 2 ? 1000 : 1001;
	snprintf(t->comm, sizeof(t->comm), "p%d", pid);
	for (int e = 0; e < E_N; e++)
		set(t->c, e, 0, 0, 0);
	return t;
}

/* One second of a task: IPC 2, 2 GHz, 50 % CPU, known miss ratios. */
static void fill_second(struct snap_count *c, uint64_t en, uint64_t run_hw)
{
	set(c, E_TC, 500000000, en, en);
	set(c, E_PF, 300, en, en);
	set(c, E_CS, 20, en, en);
	set(c, E_MIG, 2, en, en);
	set(c, E_CYC, 1000000000, en, run_hw);
	set(c, E_INS, 2000000000, en, run_hw);
	set(c, E_CREF, 1000, en, en);
	set(c, E_CMISS, 100, en, en);
	set(c, E_L1, 1000000, en, en);
	set(c, E_L1M, 50000, en, en);
	set(c, E_TLB, 1000000, en, en);
	set(c, E_TLBM, 1000, en, en);
	set(c, E_BR, 100000, en, en);
	set(c, E_BRM, 2000, en, en);
	set(c, E_RAW, 777, en, en);
}

static struct model *two_ticks(struct snapshot *a, struct snapshot *b)
{
	struct model *m = model_new(&evs);

	ck_assert(!model_update(m, a));
	ck_assert(model_update(m, b));
	return m;
}

#define NEAR(x, y)                                                                                 \
	ck_assert_msg(fabs((double)(x) - (double)(y)) < 1e-6 * (fabs((double)(y)) + 1),            \
		      "%.9g != %.9g", (double)(x), (double)(y))

/* SHR costs a file per process and tick: wanted only while shown or sorted by. */
START_TEST(test_extras_follow_the_shown_and_sorted_columns)
{
	struct model *m = model_new(&evs);
	char bad[64];

	ck_assert_uint_eq(model_extras(m), 0); /* off by default, as top's */
	ck_assert_int_eq(columns_choice_parse(&m->cols, "pid,shr,command", bad, sizeof(bad)), 0);
	ck_assert_uint_eq(model_extras(m), SOURCE_EXTRA_SHR);
	columns_choice_default(&m->cols);
	model_sort(m, COL_SHR, false);
	ck_assert_uint_eq(model_extras(m), SOURCE_EXTRA_SHR);
	model_sort(m, COL_CPU, false);
	ck_assert_uint_eq(model_extras(m), 0);
	model_free(m);
}
END_TEST

/*
 * An event a hypervisor filters reads 0 while cycles and task-clock go on:
 * once the work counted is past the threshold and it never counted, its 0
 * is suspect; an event that has counted once is never suspect.
 */
START_TEST(test_a_zero_that_stays_while_cycles_advance_is_suspect)
{
	struct snapshot s[4];
	struct model *m = model_new(&evs);
	bool framed[4];

	for (int k = 0; k < 4; k++) {
		struct snap_task *t;

		snapshot_init(&s[k], E_N);
		s[k].t_ns = (uint64_t)(k + 1) * 1000000000ull;
		t = task(&s[k], 101, 7);
		/* a second a tick: 0.5 s of task-clock, 10^9 cycles */
		fill_second(t->c, (uint64_t)k * 1000000000ull, (uint64_t)k * 1000000000ull);
		for (int e = 0; e < E_N; e++)
			t->c[e].value *= (uint64_t)k;
		t->c[E_L1M].value = 0;		       /* filtered: never counts */
		t->c[E_BRM].value = k >= 1 ? 2000 : 0; /* counted once, then nothing */
		framed[k] = model_update(m, &s[k]);
	}
	ck_assert(!framed[0] && framed[1] && framed[2] && framed[3]);
	ck_assert_uint_eq(m->nrows, 1);
	/* L1D% rests on L1-dcache-load-misses: 0 % with the suspect mark, not a clean 0 */
	ck_assert(m->rows[0].suspect & (1u << COL_L1D));
	NEAR(m->rows[0].v[COL_L1D], 0.0);
	ck_assert_uint_eq(model_cell_flags(&m->rows[0], COL_L1D) & MODEL_F_SUSPECT,
			  MODEL_F_SUSPECT);
	/* branch misses counted 2000 once: their later 0 is a real 0 */
	ck_assert(!(m->rows[0].suspect & (1u << COL_BRMIS)));
	ck_assert(!(m->rows[0].suspect & (1u << COL_IPC)));
	{
		char cell[32];

		model_format_cell(m, &m->rows[0], COL_L1D, COL_ROWS_PROCESSES, 0, cell,
				  sizeof(cell));
		ck_assert_str_eq(cell, "0.0?");
	}
	model_free(m);
	for (int k = 0; k < 4; k++)
		snapshot_release(&s[k]);
}
END_TEST

/* Below the threshold of work a 0 is just a 0. */
START_TEST(test_a_zero_early_in_a_run_is_not_suspect)
{
	struct snapshot a, b;
	struct snap_task *t;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 1010000000;
	t = task(&a, 101, 7);
	fill_second(t->c, 1000000, 1000000);
	t->c[E_L1M].value = 0;
	t = task(&b, 101, 7);
	fill_second(t->c, 2000000, 2000000);
	t->c[E_L1M].value = 0;
	t->c[E_TC].value = 500010000; /* 10 us more of task-clock */
	t->c[E_CYC].value = 1000010000;
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->nrows, 1);
	ck_assert(!(m->rows[0].suspect & (1u << COL_L1D)));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* A CPU busier than the time that passed (a crafted replay) is not a 10^17 % CPU: it is unknown. */
START_TEST(test_cpu_busier_than_its_time_is_unknown)
{
	struct snapshot a, b;
	struct snap_cpu *c;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 2000000000;
	c = snapshot_add_cpu(&a, 0);
	c->busy = 0;
	c->total = 1000000000000000ull;
	c = snapshot_add_cpu(&b, 0);
	c->busy = 1000000000000000ull;
	c->total = 1000000000000001ull;
	c = snapshot_add_cpu(&a, 1);
	c->busy = 10;
	c->total = 100;
	c = snapshot_add_cpu(&b, 1);
	c->busy = 60;
	c->total = 200;
	m = two_ticks(&a, &b);
	ck_assert_uint_ge(m->ncpus, 2);
	ck_assert(isnan(m->cpus[0].v[COL_CPU]));
	NEAR(m->cpus[1].v[COL_CPU], 50.0);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_metrics_from_one_second)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 2000000000;
	task(&a, 10, 5);
	fill_second(task(&b, 10, 5)->c, 500000000, 500000000);
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->nrows, 1);
	r = &m->rows[0];
	NEAR(m->dt, 1.0);
	NEAR(r->v[COL_CPU], 50.0);
	NEAR(r->v[COL_GHZ], 2.0);
	NEAR(r->v[COL_IPC], 2.0);
	NEAR(r->v[COL_CPI], 0.5);
	NEAR(r->v[COL_CACHE], 10.0);
	NEAR(r->v[COL_L1D], 5.0);
	NEAR(r->v[COL_DTLB], 0.1);
	NEAR(r->v[COL_BRMIS], 2.0);
	NEAR(r->v[COL_PF], 300);
	NEAR(r->v[COL_CS], 20);
	NEAR(r->v[COL_MIG], 2);
	NEAR(r->v[COL_COUNTED], 100);
	ck_assert_uint_eq(m->nraw, 1);
	NEAR(r->raw[0], 777);
	ck_assert_uint_eq(r->est, 0);
	ck_assert_uint_eq(r->na, 0);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/*
 * Rates of a row are over the time between its own two reads, not the
 * tick's: the tick began at 1 s and 2 s, but process 10 was read at 1.1 s
 * and 2.35 s (the reads of a loaded tick spread over it), so its 500 ms of
 * task-clock and 300 faults are 40 % and 240/s over its 1.25 s; a row
 * whose times are not known (0) keeps the tick's interval; a CPU read
 * 0.5 s late in the second tick shows its cycles over 1.5 s.
 */
static const struct model_row *row_of(const struct model *m, int id)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].id == id)
			return &m->rows[i];
	return NULL;
}

START_TEST(test_rates_are_over_each_rows_own_interval)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r10, *r11;
	struct snap_task *t;
	struct snap_cpu *ca, *cb;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 2000000000;
	task(&a, 10, 5)->t_ns = 1100000000;
	t = task(&b, 10, 5);
	t->t_ns = 2350000000;
	fill_second(t->c, 500000000, 500000000);
	task(&a, 11, 5);
	fill_second(task(&b, 11, 5)->c, 500000000, 500000000);
	ca = snapshot_add_cpu(&a, 0);
	cb = snapshot_add_cpu(&b, 0);
	ca->total = 0;
	cb->busy = cb->total = 100;
	for (int e = 0; e < E_N; e++)
		set(ca->c, e, 0, 0, 0);
	fill_second(cb->c, 1500000000, 1500000000);
	cb->t_ns = 2500000000;
	m = two_ticks(&a, &b);
	NEAR(m->dt, 1.0);
	r10 = row_of(m, 10);
	r11 = row_of(m, 11);
	ck_assert_ptr_nonnull(r10);
	ck_assert_ptr_nonnull(r11);
	NEAR(r10->dt, 1.25);
	NEAR(r10->v[COL_CPU], 40.0);
	NEAR(r10->v[COL_PF], 240);
	NEAR(model_event_rate(m, r10, 0), 777 / 1.25);
	NEAR(r11->dt, 1.0);
	NEAR(r11->v[COL_CPU], 50.0);
	NEAR(r11->v[COL_PF], 300);
	/* CPU 0 read at 1 s (the tick's) and 2.5 s, busy all along: 1e9 cycles in 1.5 s */
	ck_assert_uint_eq(m->ncpus, 2);
	NEAR(m->cpus[0].dt, 1.5);
	NEAR(m->cpus[0].v[COL_PF], 200);
	NEAR(m->cpus[0].v[COL_GHZ], 1e9 / 1.5e9);
	NEAR(m->cpus[1].v[COL_PF], 200);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/*
 * An -e event over a quarter of a second: the row keeps the count (CSV and
 * JSON), the table shows it per second under "NAME/s", with K, M, ... where
 * the column is too narrow; a name too long for a title gets "eN/s".
 */
START_TEST(test_event_columns_are_rates_under_their_unit)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r;
	char buf[64];
	int id = COL_MAX;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 1250000000;
	task(&a, 10, 5);
	fill_second(task(&b, 10, 5)->c, 250000000, 250000000);
	set(b.tasks[0].c, E_RAW, 3000000, 250000000, 250000000);
	m = two_ticks(&a, &b);
	r = &m->rows[0];
	NEAR(r->raw[0], 3000000);
	NEAR(model_event_rate(m, r, 0), 12000000);
	NEAR(r->v[COL_PF], 1200); /* the built-in rates are per second alike */
	model_format_cell(m, r, id, COL_ROWS_PROCESSES, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "12000000");
	model_format_cell(m, r, id, COL_ROWS_PROCESSES, 5, buf, sizeof(buf));
	ck_assert_str_eq(buf, "12.0M");
	ck_assert_str_eq(model_column_head(m, id, COL_ROWS_PROCESSES, buf, sizeof(buf)),
			 "LLC-load-misses/s");
	ck_assert_int_eq(model_column_width(m, id, COL_ROWS_PROCESSES), 17);
	ck_assert(!model_event_short(m, 0));
	/* the full name stays the column's name for CSV, JSON, -s and messages */
	ck_assert_str_eq(model_column_title(m, id, COL_ROWS_PROCESSES), "LLC-load-misses");
	ck_assert_str_eq(model_column(m, id)->unit, "/s");
	/* before the second snapshot there is no interval: no rate, never 0 */
	model_restart(m);
	ck_assert(!model_update(m, &a));
	ck_assert(isnan(model_event_rate(m, &m->rows[0], 0)));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);

	ck_assert_str_eq(columns_event_title(buf, sizeof(buf), "cycles", 0), "cycles/s");
	ck_assert_int_eq(columns_event_width("cycles", 0), columns_event()->width);
	ck_assert_str_eq(columns_event_title(buf, sizeof(buf), "0123456789abcdef", 1),
			 "0123456789abcdef/s");
	ck_assert(!columns_event_short("0123456789abcdef"));
	ck_assert(columns_event_short("0123456789abcdefg"));
	ck_assert_str_eq(columns_event_title(buf, sizeof(buf), "0123456789abcdefg", 2), "e3/s");
	ck_assert_str_eq(
		columns_event_title(buf, sizeof(buf), "cpu_core/mem_load_retired.l3_miss/", 0),
		"e1/s");
	ck_assert_int_eq(columns_event_width("cpu_core/mem_load_retired.l3_miss/", 0),
			 columns_event()->width);
}
END_TEST

/* The model computes every ratio and rate column from the roles the column table names. */
START_TEST(test_every_computed_column_follows_the_table)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r;
	const struct snap_count *c;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 3000000000; /* two seconds: rates are per second, not per interval */
	task(&a, 10, 5);
	c = task(&b, 10, 5)->c;
	fill_second((struct snap_count *)c, 500000000, 500000000);
	m = two_ticks(&a, &b);
	r = &m->rows[0];
	for (int i = 0; i < COL_MAX; i++) {
		const struct column *col = columns_get(i);
		double num = col->num == EV_RAW ? NAN : (double)c[evs.role_idx[col->num]].value;
		double den = col->den == EV_RAW ? NAN : (double)c[evs.role_idx[col->den]].value;

		ck_assert_int_eq(col->id, i); /* the table is indexed by its ids */
		switch (col->calc) {
		case COL_CALC_RATIO:
		case COL_CALC_RUN:
			NEAR(r->v[i], col->scale * num / den);
			break;
		case COL_CALC_WALL:
			NEAR(r->v[i], col->scale * num / 2e9);
			break;
		case COL_CALC_RATE:
			NEAR(r->v[i], num / 2);
			break;
		case COL_CALC_COUNTED:
			NEAR(r->v[i], col->scale);
			break;
		case COL_CALC_NONE:
			/* a number not computed from counts is /proc's: none here, so empty */
			ck_assert(col->type != COL_TYPE_NUM || col->proc);
			if (col->proc && col->type == COL_TYPE_NUM)
				ck_assert(isnan(r->v[i]));
			break;
		}
	}
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* Display order is the table's, the -e events just before the command; -s knows every key. */
START_TEST(test_columns_in_table_order)
{
	struct model *m = model_new(&evs);
	int ids[COL_MAX + 8];
	size_t n = model_columns(m, ids, COL_MAX + 8);
	char keys[512];

	/*
	 * every column but CGROUP, shown only where cgroups are known, and NI, VIRT, SHR and P,
	 * off until chosen, and the -e event
	 */
	ck_assert_uint_eq(n, COL_MAX - 4);
	m->have_cgroups = true;
	n = model_columns(m, ids, COL_MAX + 8);
	ck_assert_uint_eq(n, COL_MAX - 3);
	for (size_t i = 0, last = 0; i < n; i++)
		if (ids[i] < COL_MAX) {
			ck_assert(i == 0 || ids[i] > ids[last]);
			last = i;
		}
	ck_assert_int_eq(ids[n - 2], COL_MAX); /* LLC-load-misses */
	ck_assert_int_eq(ids[n - 1], COL_COMMAND);
	ck_assert(columns_get(COL_COMMAND)->rest);
	ck_assert_str_eq(model_column_title(m, COL_MAX, COL_ROWS_PROCESSES), "LLC-load-misses");
	ck_assert_int_eq(model_sort_key(m, "llc-load-misses"), COL_MAX);
	columns_keys(keys, sizeof(keys), true);
	for (int i = 0; i < COL_MAX; i++) {
		ck_assert_int_eq(model_sort_key(m, columns_get(i)->key), i);
		ck_assert_int_eq(model_sort_key(m, columns_get(i)->title), i);
		ck_assert_ptr_nonnull(strstr(keys, columns_get(i)->key));
	}
	ck_assert_ptr_nonnull(strstr(keys, "or an -e event name"));
	model_free(m);
}
END_TEST

/* The text of path (relative to the source tree) from the first from to the next to. */
static char *doc_part(const char *path, const char *from, const char *to)
{
	char full[512], *doc, *a, *b;

	snprintf(full, sizeof(full), "%s/../%s", TEST_SRCDIR, path);
	doc = testutil_slurp(full, NULL);
	ck_assert_ptr_nonnull(doc);
	a = strstr(doc, from);
	ck_assert_msg(a != NULL, "%s: no %s", path, from);
	b = strstr(a, to);
	ck_assert_msg(b != NULL, "%s: no %s after %s", path, to, from);
	*b = '\0';
	memmove(doc, a, strlen(a) + 1);
	return doc;
}

/* --help, the README and the man page offer every sort key of the table. */
START_TEST(test_docs_list_every_sort_key)
{
	char *readme = doc_part("README", "-s, --sort COLUMN", "-r, --reverse");
	char *man = doc_part("doc/pmctop.1", "\\-\\-sort", "\\-\\-reverse");
	char *help = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);

	options_usage(f);
	fclose(f);
	for (int i = 0; i < COL_MAX; i++) {
		const char *k = columns_get(i)->key;
		char want[64];

		snprintf(want, sizeof(want), "%s,", k);
		ck_assert_msg(strstr(strstr(help, "--sort"), want) != NULL, "--help lacks %s", k);
		ck_assert_msg(strstr(readme, want) != NULL, "README lacks %s", k);
		snprintf(want, sizeof(want), ".BR %s ,", k);
		ck_assert_msg(strstr(man, want) != NULL, "pmctop.1 lacks %s", k);
	}
	free(readme);
	free(man);
	free(help);
}
END_TEST

START_TEST(test_multiplexed_counts_are_scaled_and_marked)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 0 + 1;
	b.t_ns = 1000000001;
	/* cycles and instructions were on the PMU a quarter of the time */
	fill_second(task(&a, 10, 5)->c, 100, 100);
	fill_second(task(&b, 10, 5)->c, 100, 100);
	set(b.tasks[0].c, E_TC, 500000000 + 400000000, 500000100, 500000100);
	set(b.tasks[0].c, E_CYC, 1000000000ull + 100000000, 400000100, 100000100);
	set(b.tasks[0].c, E_INS, 2000000000ull + 300000000, 400000100, 100000100);
	m = two_ticks(&a, &b);
	r = &m->rows[0];
	NEAR(r->v[COL_IPC], 3.0);
	NEAR(r->v[COL_GHZ], 400000000.0 / 400000000.0);
	NEAR(r->v[COL_COUNTED], 25.0);
	ck_assert(r->est & (1u << COL_IPC));
	ck_assert(r->est & (1u << COL_CPI));
	ck_assert(r->est & (1u << COL_GHZ));
	ck_assert(!(r->est & (1u << COL_CPU)));
	ck_assert(!(r->est & (1u << COL_PF)));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/*
 * The events screen's numbers: time running over time enabled of each event, summed over the
 * processes present in both ticks and over the CPUs; an event that failed in one process is
 * tallied with its reason; a reopened count adds nothing; a restart forgets the interval.
 */
START_TEST(test_event_shares_over_processes_and_cpus)
{
	struct snapshot a, b;
	struct model *m;
	struct snap_task *t;
	struct snap_cpu *c;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	fill_second(task(&a, 10, 5)->c, 100, 100);
	fill_second(task(&a, 11, 5)->c, 100, 100);
	fill_second(task(&a, 12, 5)->c, 100, 100);
	fill_second(task(&b, 10, 5)->c, 1100, 1100);
	/* pid 11: cycles on the PMU 300 of its 1000 ns; the raw event could not be opened */
	t = task(&b, 11, 5);
	fill_second(t->c, 1100, 400);
	t->c[E_RAW].err = -EACCES;
	/* pid 12 reused by a new process: not in the interval */
	fill_second(task(&b, 12, 6)->c, 5000, 0);
	c = snapshot_add_cpu(&a, 0);
	fill_second(c->c, 100, 100);
	c = snapshot_add_cpu(&b, 0);
	fill_second(c->c, 2100, 100);
	/* a CPU count that went backwards (reopened) adds nothing */
	c->c[E_INS].running = 50;
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->evstat[E_CYC].en_tasks, 2000);
	ck_assert_uint_eq(m->evstat[E_CYC].run_tasks, 1300);
	NEAR(evstat_share(&m->evstat[E_CYC], false), 0.65);
	NEAR(evstat_share(&m->evstat[E_CYC], true), 0.0);
	ck_assert_int_eq(evstat_status(&m->ev.ev[E_CYC], &m->evstat[E_CYC]), EVSTAT_MULTIPLEXED);
	ck_assert(isnan(evstat_share(&m->evstat[E_INS], true)));
	NEAR(evstat_share(&m->evstat[E_TC], false), 1.0);
	NEAR(evstat_share(&m->evstat[E_TC], true), 1.0);
	ck_assert_int_eq(evstat_status(&m->ev.ev[E_TC], &m->evstat[E_TC]), EVSTAT_COUNTED);
	ck_assert_uint_eq(m->evstat[E_RAW].tasks, 1);
	ck_assert_uint_eq(m->evstat[E_RAW].tasks_failed, 1);
	ck_assert_int_eq(m->evstat[E_RAW].task_err, -EACCES);
	/* an event that failed as a whole says so before anything its counts say */
	m->ev.ev[E_BR].err = -ENOENT;
	ck_assert_int_eq(evstat_status(&m->ev.ev[E_BR], &m->evstat[E_BR]), EVSTAT_UNSUPPORTED);
	m->ev.ev[E_BR].err = -EMFILE;
	ck_assert_int_eq(evstat_status(&m->ev.ev[E_BR], &m->evstat[E_BR]), EVSTAT_FAILED);
	ck_assert_str_eq(evstat_status_name(EVSTAT_FAILED), "failed");
	model_restart(m);
	ck_assert_uint_eq(m->evstat[E_CYC].en_tasks, 0);
	ck_assert_int_eq(evstat_status(&m->ev.ev[E_CYC], &m->evstat[E_CYC]), EVSTAT_IDLE);
	/* after a restart the next snapshot starts afresh, whatever its time */
	ck_assert(!model_update(m, &b));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_counter_that_never_ran_is_na_not_zero)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	task(&a, 10, 5);
	fill_second(task(&b, 10, 5)->c, 500000000, 500000000);
	set(b.tasks[0].c, E_CREF, 0, 500000000, 0);
	set(b.tasks[0].c, E_CMISS, 0, 500000000, 0);
	m = two_ticks(&a, &b);
	r = &m->rows[0];
	ck_assert(isnan(r->v[COL_CACHE]));
	ck_assert(r->na & (1u << COL_CACHE));
	ck_assert(!(r->na & (1u << COL_IPC)));
	NEAR(r->v[COL_IPC], 2.0);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* A count that falls (a reopened group, a member lost) is n/a for the tick, not the total. */
START_TEST(test_a_cumulative_count_that_falls_is_na_for_that_tick)
{
	struct snapshot a, b, c;
	struct model *m;
	const struct model_row *r;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	snapshot_init(&c, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	c.t_ns = 2000000001;
	/* 9 s of task-clock since attach, on a 2-CPU machine */
	fill_second(task(&a, 10, 5)->c, 9000000000, 9000000000);
	set(a.tasks[0].c, E_TC, 9000000000, 9000000000, 9000000000);
	fill_second(task(&b, 10, 5)->c, 9000000000, 9000000000);
	set(b.tasks[0].c, E_TC, 9090000000, 9500000000, 9500000000);
	/* the cycles group was reopened: its value, enabled and running start again */
	set(b.tasks[0].c, E_CYC, 5000000, 100000000, 100000000);
	set(b.tasks[0].c, E_INS, 10000000, 100000000, 100000000);
	/* only the value fell (a member of the sum lost), times grew */
	set(b.tasks[0].c, E_PF, 100, 9500000000, 9500000000);
	/* only running fell */
	set(b.tasks[0].c, E_CS, 30, 9500000000, 8000000000);
	m = model_new(&evs);
	ck_assert(!model_update(m, &a));
	ck_assert(model_update(m, &b));
	r = &m->rows[0];
	NEAR(r->v[COL_CPU], 9.0);
	ck_assert(isnan(r->v[COL_IPC]));
	ck_assert(r->na & (1u << COL_IPC));
	ck_assert(isnan(r->v[COL_GHZ]));
	ck_assert(isnan(r->v[COL_PF]));
	ck_assert(r->na & (1u << COL_PF));
	ck_assert(isnan(r->v[COL_CS]));
	ck_assert(r->na & (1u << COL_CS));
	/* the next tick counts again from the reopened values */
	fill_second(task(&c, 10, 5)->c, 10000000000, 10000000000);
	set(c.tasks[0].c, E_TC, 9590000000, 10000000000, 10000000000);
	set(c.tasks[0].c, E_CYC, 1005000000, 600000000, 600000000);
	set(c.tasks[0].c, E_INS, 2010000000, 600000000, 600000000);
	ck_assert(model_update(m, &c));
	r = &m->rows[0];
	NEAR(r->v[COL_CPU], 50.0);
	NEAR(r->v[COL_IPC], 2.0);
	ck_assert(!(r->na & (1u << COL_IPC)));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
	snapshot_release(&c);
}
END_TEST

START_TEST(test_sleeping_task_is_zero_percent_but_has_no_ipc)
{
	struct snapshot a, b;
	struct model *m;
	const struct model_row *r;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	fill_second(task(&a, 10, 5)->c, 100, 100);
	fill_second(task(&b, 10, 5)->c, 100, 100);
	m = two_ticks(&a, &b);
	r = &m->rows[0];
	NEAR(r->v[COL_CPU], 0.0);
	NEAR(r->v[COL_PF], 0.0);
	ck_assert(isnan(r->v[COL_IPC]));
	ck_assert(isnan(r->v[COL_CACHE]));
	ck_assert_uint_eq(r->na, 0);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_unsupported_events_hide_their_columns)
{
	struct model *m;

	for (int e = E_CYC; e <= E_RAW; e++)
		evs.ev[e].err = -ENOENT;
	m = model_new(&evs);
	ck_assert(model_column_shown(m, COL_CPU));
	ck_assert(model_column_shown(m, COL_PF));
	ck_assert(!model_column_shown(m, COL_IPC));
	ck_assert(!model_column_shown(m, COL_GHZ));
	ck_assert(!model_column_shown(m, COL_CACHE));
	ck_assert(!model_column_shown(m, COL_COUNTED));
	model_free(m);
}
END_TEST

START_TEST(test_pid_reuse_starts_from_zero)
{
	struct snapshot a, b;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	a.uptime = 10.0;
	b.uptime = 11.0;
	fill_second(task(&a, 10, 5)->c, 500000000, 500000000);
	/* same pid, later start time (10.75 s): a new process counted from its start on */
	fill_second(task(&b, 10, (unsigned long long)(10.75 * (double)sysconf(_SC_CLK_TCK)))->c,
		    250000000, 250000000);
	set(b.tasks[0].c, E_TC, 250000000, 250000000, 250000000);
	m = two_ticks(&a, &b);
	NEAR(m->rows[0].v[COL_CPU], 25.0);
	NEAR(m->rows[0].v[COL_PF], 300);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/*
 * Processes that were not there at the last read. One started between the
 * two reads and was attached only at the second (a short-lived compiler): its
 * counts since the attach are nearly nothing, its /proc CPU time 0.17 s of
 * the 1 s interval is its %CPU, as top charges it; its rates, counted over a
 * sliver of its life, are unknown, not 0. One that started long before and
 * was not listed then has no known share of the interval. One counted from
 * its start on keeps its rates and the larger of its two CPU times.
 */
START_TEST(test_a_process_started_between_two_reads_is_charged_its_cpu_time)
{
	double hz = (double)sysconf(_SC_CLK_TCK);
	unsigned long long mid = (unsigned long long)(10.5 * hz);
	struct snapshot a, b;
	struct snap_task *t;
	const struct model_row *r;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1000000000;
	b.t_ns = 2000000000;
	a.uptime = 10.0;
	b.uptime = 11.0;
	task(&a, 10, 5);
	fill_second(task(&b, 10, 5)->c, 1000000000, 1000000000);
	/* started at 10.5 s, attached at the read: 1 ms counted, 0.17 s of CPU time */
	t = task(&b, 20, mid);
	t->pflags = SNAP_TASK_PROC;
	t->cpu_ns = 170000000;
	set(t->c, E_TC, 1000000, 1000000, 1000000);
	set(t->c, E_PF, 0, 1000000, 1000000);
	set(t->c, E_RAW, 0, 1000000, 1000000);
	/* started at 5 s, not listed at the last read */
	t = task(&b, 30, (unsigned long long)(5 * hz));
	t->pflags = SNAP_TASK_PROC;
	t->cpu_ns = 5000000000;
	set(t->c, E_TC, 1000000, 1000000, 1000000);
	set(t->c, E_PF, 0, 1000000, 1000000);
	/* started at 10.5 s, counted from then on: 0.4 s of task-clock, /proc's 0.3 s */
	t = task(&b, 40, mid);
	t->pflags = SNAP_TASK_PROC;
	t->cpu_ns = 300000000;
	fill_second(t->c, 500000000, 500000000);
	set(t->c, E_TC, 400000000, 500000000, 500000000);
	m = two_ticks(&a, &b);
	r = row_of(m, 20);
	ck_assert_ptr_nonnull(r);
	NEAR(r->v[COL_CPU], 17.0);
	ck_assert(!(r->na & (1u << COL_CPU)));
	ck_assert(isnan(r->v[COL_PF]) && !(r->na & (1u << COL_PF)));
	ck_assert(isnan(r->v[COL_CS]));
	ck_assert(isnan(model_event_rate(m, r, 0)));
	r = row_of(m, 30);
	ck_assert_ptr_nonnull(r);
	ck_assert(isnan(r->v[COL_CPU]) && !(r->na & (1u << COL_CPU)));
	ck_assert(isnan(r->v[COL_PF]));
	r = row_of(m, 40);
	ck_assert_ptr_nonnull(r);
	NEAR(r->v[COL_CPU], 40.0);
	NEAR(r->v[COL_PF], 300);
	NEAR(r->v[COL_IPC], 2.0);
	/* the busiest first: 10 (50 %), 40, then 20; 30 with no value last */
	ck_assert_int_eq(m->rows[0].id, 10);
	ck_assert_int_eq(m->rows[1].id, 40);
	ck_assert_int_eq(m->rows[2].id, 20);
	ck_assert_int_eq(m->rows[3].id, 30);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

static struct model *sort_fixture(struct snapshot *a, struct snapshot *b)
{
	static const double cpi[] = { 2.0, 0.5, -1, 1.0 }; /* -1: no instructions (NAN) */

	snapshot_init(a, E_N);
	snapshot_init(b, E_N);
	a->t_ns = 1;
	b->t_ns = 1000000001;
	for (int i = 0; i < 4; i++) {
		struct snap_task *t;

		task(a, 100 + i, 1);
		t = task(b, 100 + i, 1);
		fill_second(t->c, 1000, 1000);
		set(t->c, E_TC, 100000000 * (uint64_t)(i + 1), 1000, 1000);
		set(t->c, E_INS, cpi[i] < 0 ? 0 : (uint64_t)(1e9 / cpi[i]), 1000, 1000);
	}
	return two_ticks(a, b);
}

START_TEST(test_sort_by_cpi_puts_undefined_last_both_ways)
{
	struct snapshot a, b;
	struct model *m = sort_fixture(&a, &b);

	model_sort(m, model_sort_key(m, "cpi"), false);
	ck_assert_int_eq(m->rows[0].id, 100); /* CPI 2.0 first: worst first */
	ck_assert_int_eq(m->rows[1].id, 103);
	ck_assert_int_eq(m->rows[2].id, 101);
	ck_assert_int_eq(m->rows[3].id, 102); /* "-" last */
	model_sort(m, COL_CPI, true);
	ck_assert_int_eq(m->rows[0].id, 101);
	ck_assert_int_eq(m->rows[1].id, 103);
	ck_assert_int_eq(m->rows[2].id, 100);
	ck_assert_int_eq(m->rows[3].id, 102);
	/* default: %CPU, biggest first */
	model_sort(m, COL_CPU, false);
	ck_assert_int_eq(m->rows[0].id, 103);
	model_sort(m, COL_PID, false);
	ck_assert_int_eq(m->rows[0].id, 100);
	model_sort(m, model_sort_key(m, "COMMAND"), true);
	ck_assert_int_eq(m->rows[0].id, 103);
	ck_assert_int_eq(model_sort_key(m, "llc-load-misses"), COL_MAX);
	ck_assert_int_eq(model_sort_key(m, "nonsense"), -1);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_filters_by_pid_and_user)
{
	struct snapshot a, b;
	struct model *m;
	int pids[] = { 101, 103, 999 };

	model_free(sort_fixture(&a, &b));
	m = model_new(&evs);
	m->filter.pids = pids;
	m->filter.npids = 3;
	model_update(m, &a);
	model_update(m, &b);
	ck_assert_uint_eq(m->nrows, 2);
	m->filter.npids = 0;
	m->filter.user = "bob";
	/* same time twice: a new baseline, whose rows have /proc's columns and no counts */
	ck_assert(!model_update(m, &b));
	ck_assert_uint_eq(m->nrows, 2);
	for (size_t i = 0; i < m->nrows; i++)
		ck_assert(isnan(m->rows[i].v[COL_CPU]) && isnan(m->rows[i].v[COL_IPC]));
	b.t_ns += 1000;
	model_update(m, &b);
	ck_assert_uint_eq(m->nrows, 2);
	for (size_t i = 0; i < m->nrows; i++)
		ck_assert_str_eq(m->rows[i].user, "bob");
	m->filter.user = "1000";
	b.t_ns += 1000;
	model_update(m, &b);
	ck_assert_uint_eq(m->nrows, 2);
	ck_assert_str_eq(m->rows[0].user, "alice");
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* A cgroup entry of s with page faults pf and task-clock tc, enabled en and running run. */
static struct snap_cgroup *cgroup(struct snapshot *s, const char *path, uint64_t pf, uint64_t tc,
				  uint64_t en, uint64_t run)
{
	struct snap_cgroup *g = snapshot_add_cgroup(s, path);

	s->cg.on = true;
	set(g->c, E_TC, tc, en, run);
	set(g->c, E_PF, pf, en, run);
	return g;
}

static const struct model_row *cgroup_row(const struct model *m, const char *path)
{
	for (size_t i = 0; i < m->ncgroups; i++)
		if (!strcmp(m->cgroups[i].cgroup, path))
			return &m->cgroups[i];
	return NULL;
}

/* Two snapshots 1 s apart: cgroups /a, /a/b (not counted), /c; processes in /a, /a/b, /c. */
static void cgroup_fixture(struct snapshot *a, struct snapshot *b)
{
	struct snapshot *v[2] = { a, b };

	for (int k = 0; k < 2; k++) {
		struct snapshot *s = v[k];
		struct snap_cgroup *g;

		snapshot_init(s, E_N);
		s->t_ns = 1000000000ull * (uint64_t)(k + 1);
		s->cg.fds = 24;
		/* half the time on the PMU in the second interval: scaled by enabled/running */
		cgroup(s, "/a", 100 + 500 * (uint64_t)k, 200000000ull * (uint64_t)(k + 1),
		       1000000000ull * (uint64_t)(k + 1),
		       1000000000ull + 500000000ull * (uint64_t)k);
		g = cgroup(s, "/a/b", 0, 0, 0, 0);
		g->err = -EMFILE;
		cgroup(s, "/c", 10 * (uint64_t)k, 0, 1000000ull * (uint64_t)(k + 1),
		       1000000ull * (uint64_t)(k + 1));
		snapshot_task_set_cgroup(task(s, 101, 5), "/a");
		snapshot_task_set_cgroup(task(s, 102, 5), "/a/b");
		snapshot_task_set_cgroup(task(s, 103, 5), "/c");
		task(s, 104, 5); /* its cgroup is not known */
	}
}

START_TEST(test_cgroup_rows_are_deltas_scaled_with_their_processes)
{
	struct snapshot a, b;
	struct model *m = model_new(&evs);
	const struct model_row *r;

	cgroup_fixture(&a, &b);
	ck_assert(!model_update(m, &a));
	ck_assert(m->have_cgroups); /* the header knows at once */
	/* the first frame lists the cgroups at once, by path (no counts to sort by yet) */
	ck_assert_uint_eq(m->ncgroups, 3);
	ck_assert_str_eq(m->cgroups[0].cgroup, "/a");
	ck_assert_str_eq(m->cgroups[1].cgroup, "/a/b");
	ck_assert_str_eq(m->cgroups[2].cgroup, "/c");
	ck_assert_int_eq(m->cgroups[0].threads, 2);
	ck_assert(isnan(m->cgroups[0].v[COL_PF]) && isnan(m->cgroups[0].v[COL_CPU]));
	ck_assert(model_update(m, &b));
	ck_assert_uint_eq(m->ncgroups, 3);
	ck_assert_uint_eq(m->cg_fds, 24);
	ck_assert_uint_eq(m->cg_not_counted, 1);
	r = cgroup_row(m, "/a");
	ck_assert_ptr_nonnull(r);
	/* 500 faults while running half of the 1 s enabled: 1000 a second, marked estimated */
	ck_assert_double_eq_tol(r->v[COL_PF], 1000.0, 1e-9);
	ck_assert(model_cell_flags(r, COL_PF) & MODEL_F_EST);
	ck_assert_double_eq_tol(r->v[COL_CPU], 40.0, 1e-9); /* 200 ms scaled to 400 ms of 1 s */
	ck_assert_int_eq(r->threads, 2);		    /* 101 in /a, 102 in /a/b below it */
	ck_assert_str_eq(r->cmdline, "/a");
	ck_assert_str_eq(r->comm, "a");
	r = cgroup_row(m, "/a/b");
	ck_assert_int_eq(r->err, -EMFILE);
	ck_assert_int_eq(r->threads, 1);
	ck_assert(isnan(r->v[COL_PF]));
	r = cgroup_row(m, "/c");
	ck_assert_double_eq_tol(r->v[COL_PF], 10.0, 1e-9);
	ck_assert(!(model_cell_flags(r, COL_PF) & MODEL_F_EST));
	/* a path keeps its id from tick to tick: the selection follows it */
	ck_assert_int_eq(cgroup_row(m, "/a")->id, cgroup_row(m, "/a")->tgid);
	ck_assert(model_column_shown(m, COL_CGROUP));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_cgroup_gone_or_reopened)
{
	struct snapshot a, b, c;
	struct model *m = model_new(&evs);

	cgroup_fixture(&a, &b);
	model_update(m, &a);
	model_update(m, &b);
	/* /c removed; /a reopened (its counts start again from 0) */
	snapshot_init(&c, E_N);
	c.t_ns = 3000000000ull;
	cgroup(&c, "/a", 5, 1000, 2000, 2000);
	model_update(m, &c);
	ck_assert_uint_eq(m->ncgroups, 1);
	ck_assert_ptr_null(cgroup_row(m, "/c"));
	ck_assert(model_cell_flags(cgroup_row(m, "/a"), COL_PF) & MODEL_F_NA);
	ck_assert_int_eq(cgroup_row(m, "/a")->threads, -1); /* no processes in the snapshot */
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
	snapshot_release(&c);
}
END_TEST

START_TEST(test_filter_by_cgroup_takes_the_subtree)
{
	static const struct {
		const char *cgroup;
		size_t rows;
	} CASES[] = {
		{ "/a", 2 }, { "/a/b", 1 }, { "/a/", 2 }, { "/", 3 }, { "/ab", 0 }, { "", 4 }
	};
	struct snapshot a, b;

	cgroup_fixture(&a, &b);
	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		struct model *m = model_new(&evs);

		m->filter.cgroup = CASES[i].cgroup;
		model_update(m, &a);
		model_update(m, &b);
		ck_assert_msg(m->nrows == CASES[i].rows, "filter '%s': %zu rows", CASES[i].cgroup,
			      m->nrows);
		for (size_t k = 0; k < m->nrows && CASES[i].cgroup[0]; k++)
			ck_assert(model_row_wanted(&m->filter, &m->rows[k]));
		/* the cgroup rows themselves are not filtered */
		ck_assert_uint_eq(m->ncgroups, 3);
		model_free(m);
	}
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* A task entry with /proc's facts: rss in KiB, CPU time in ns. */
static struct snap_task *ptask(struct snapshot *s, int pid, uint64_t rss_kib, uint64_t cpu_ns,
			       char state)
{
	struct snap_task *t = task(s, pid, 1);

	t->pflags = SNAP_TASK_PROC;
	t->rss_kib = rss_kib;
	t->cpu_ns = cpu_ns;
	t->state = state;
	return t;
}

/*
 * The first snapshot is a frame at once: its rows have S, RES, %MEM and
 * TIME+ from /proc and the load, and no counter value at all (never 0):
 * there is no interval yet. CPU rows are there, empty, so the frame has its
 * shape from the start.
 */
START_TEST(test_first_snapshot_has_proc_columns_and_no_counts)
{
	struct snapshot a;
	struct model *m = model_new(&evs);
	const struct model_row *r;

	snapshot_init(&a, E_N);
	a.t_ns = 5;
	a.load[0] = 1.5;
	a.mem_total_kib = 1000000;
	fill_second(ptask(&a, 101, 250000, 83450000000ull, 'R')->c, 1000, 1000);
	snapshot_add_cpu(&a, 0);
	ck_assert(!model_update(m, &a));
	ck_assert_uint_eq(m->nrows, 1);
	ck_assert_uint_eq(m->ncpus, 2); /* CPU 0 and the total */
	ck_assert(m->load[0] == 1.5 && m->dt == 0);
	r = &m->rows[0];
	ck_assert_int_eq(r->state, 'R');
	NEAR(r->v[COL_RES], 250000);
	NEAR(r->v[COL_MEM], 25.0);
	NEAR(r->v[COL_TIME], 83.45);
	for (int c = 0; c < COL_MAX; c++)
		if (columns_get(c)->calc != COL_CALC_NONE) {
			ck_assert_msg(isnan(r->v[c]), "%s has a value", columns_get(c)->key);
			ck_assert_msg(isnan(m->cpus[0].v[c]), "CPU %s", columns_get(c)->key);
		}
	ck_assert(isnan(r->raw[0]));
	model_free(m);
	snapshot_release(&a);
}
END_TEST

/*
 * top's NI, VIRT, SHR and P from the snapshot's /proc facts, formatted as top (VIRT and SHR in
 * KiB, then m, g); empty (never 0) for an entry without them (a recording from before them);
 * P hidden until chosen, the others shown.
 */
START_TEST(test_nice_virt_shr_lastcpu_columns)
{
	struct snapshot a, b;
	struct model *m;
	struct snap_task *t;
	struct col_choice c;
	char buf[64];

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	for (int i = 0; i < 2; i++) {
		struct snapshot *s = i ? &b : &a;

		t = ptask(s, 101, 1000, 1, 'S');
		t->pflags |= SNAP_TASK_MORE | SNAP_TASK_SHR;
		t->nice = -5;
		t->virt_kib = 2 * 1024 * 1024;
		t->shr_kib = 700;
		t->processor = 3;
		t = ptask(s, 102, 1000, 1, 'S');
		t->pflags |= SNAP_TASK_MORE; /* statm was not readable: no SHR */
		t->nice = 19;
		t->virt_kib = 123456;
		t->processor = 0;
		ptask(s, 103, 1000, 1, 'S'); /* an older recording: none of them */
	}
	m = two_ticks(&a, &b);
	model_sort(m, COL_PID, false);
	NEAR(m->rows[0].v[COL_NI], -5);
	NEAR(m->rows[0].v[COL_P], 3);
	model_format_cell(m, &m->rows[0], COL_VIRT, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2.00g");
	model_format_cell(m, &m->rows[0], COL_SHR, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "700");
	model_format_cell(m, &m->rows[0], COL_NI, COL_ROWS_PROCESSES, 3, buf, sizeof(buf));
	ck_assert_str_eq(buf, "-5");
	model_format_cell(m, &m->rows[1], COL_VIRT, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "123456");
	model_format_cell(m, &m->rows[1], COL_SHR, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "-");
	model_format_cell(m, &m->rows[1], COL_P, COL_ROWS_PROCESSES, 3, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0");
	for (int col = COL_NI; col <= COL_P; col++) {
		if (col == COL_RES || col == COL_MEM || col == COL_TIME)
			continue;
		model_format_cell(m, &m->rows[2], col, COL_ROWS_PROCESSES, 0, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, "-"), "%s: '%s'", columns_get(col)->key, buf);
	}
	/* sortable by key and by title; nice lowest first as top, VIRT biggest first */
	model_sort(m, model_sort_key(m, "virt"), false);
	ck_assert_int_eq(m->rows[0].id, 101);
	ck_assert_int_eq(m->rows[2].id, 103);
	model_sort(m, model_sort_key(m, "NI"), false);
	ck_assert_int_eq(m->rows[0].id, 101);
	/* the default choice: off until asked for (F2, --columns), the counters keep the room */
	columns_choice_default(&c);
	ck_assert(!columns_choice_shown(&c, COL_NI));
	ck_assert(!columns_choice_shown(&c, COL_VIRT));
	ck_assert(!columns_choice_shown(&c, COL_SHR));
	ck_assert(!columns_choice_shown(&c, COL_P));
	ck_assert_int_eq(columns_choice_parse(&c, "pid,lastcpu,command", buf, sizeof(buf)), 0);
	ck_assert(columns_choice_shown(&c, COL_P));
	ck_assert(!columns_choice_shown(&c, COL_NI));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* TIME+ as top writes it, RES in KiB then MiB and GiB, and empty (not 0) without /proc. */
START_TEST(test_proc_cells_are_formatted_as_top_and_empty_when_unknown)
{
	struct snapshot a, b;
	struct model *m;
	char buf[64];

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	a.mem_total_kib = b.mem_total_kib = 4 * 1024 * 1024;
	ptask(&a, 101, 123456, 83450000000ull, 'S');
	ptask(&b, 101, 123456, 83450000000ull, 'S');
	ptask(&a, 102, 3 * 1024 * 1024, 7265000000000ull, 'D');
	ptask(&b, 102, 3 * 1024 * 1024, 7265000000000ull, 'D');
	task(&a, 103, 1); /* a recording from before /proc's columns */
	task(&b, 103, 1);
	m = two_ticks(&a, &b);
	model_sort(m, COL_PID, false);
	model_format_cell(m, &m->rows[0], COL_TIME, COL_ROWS_PROCESSES, 9, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1:23.45");
	model_format_cell(m, &m->rows[1], COL_TIME, COL_ROWS_PROCESSES, 9, buf, sizeof(buf));
	ck_assert_str_eq(buf, "121:05.00");
	model_format_cell(m, &m->rows[1], COL_TIME, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "121:05");
	model_format_cell(m, &m->rows[1], COL_TIME, COL_ROWS_PROCESSES, 4, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2h");
	model_format_cell(m, &m->rows[0], COL_RES, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "123456");
	model_format_cell(m, &m->rows[1], COL_RES, COL_ROWS_PROCESSES, 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3.00g");
	model_format_cell(m, &m->rows[1], COL_RES, COL_ROWS_PROCESSES, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3145728");
	model_format_cell(m, &m->rows[1], COL_MEM, COL_ROWS_PROCESSES, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "75.0");
	model_format_cell(m, &m->rows[1], COL_STATE, COL_ROWS_PROCESSES, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "D");
	for (int c = COL_RES; c <= COL_TIME; c++) {
		if (c == COL_SHR)
			continue;
		model_format_cell(m, &m->rows[2], c, COL_ROWS_PROCESSES, 0, buf, sizeof(buf));
		ck_assert_str_eq(buf, "-");
	}
	/* sortable: biggest first, the unknown last */
	model_sort(m, model_sort_key(m, "res"), false);
	ck_assert_int_eq(m->rows[0].id, 102);
	ck_assert_int_eq(m->rows[2].id, 103);
	model_sort(m, model_sort_key(m, "TIME+"), true);
	ck_assert_int_eq(m->rows[0].id, 101);
	model_sort(m, model_sort_key(m, "state"), false);
	ck_assert_int_eq(m->rows[0].id, 102); /* D before R and S */
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* Kernel threads are rows only when asked for (K, --kernel-threads). */
START_TEST(test_kernel_threads_only_when_asked)
{
	struct snapshot a, b;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	ptask(&a, 2, 0, 0, 'S')->pflags |= SNAP_TASK_KTHREAD;
	ptask(&b, 2, 0, 0, 'S')->pflags |= SNAP_TASK_KTHREAD;
	ptask(&a, 101, 10, 0, 'S');
	ptask(&b, 101, 10, 0, 'S');
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->nrows, 1);
	ck_assert_int_eq(m->rows[0].id, 101);
	m->filter.kthreads = true;
	b.t_ns += 1000000000;
	model_update(m, &b);
	ck_assert_uint_eq(m->nrows, 2);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/*
 * Per-user totals: the ratios come from the summed counts. alice has a
 * process at IPC 2 (1e9 cycles) and one at IPC 0.5 (3e9 cycles): her IPC is
 * 3.5e9 / 4e9 = 0.875, not the 1.25 an average of ratios would say; %CPU,
 * RES and TIME+ add up; a process that is not counted adds its memory but
 * no counts; a user none of whose processes is counted says why.
 */
START_TEST(test_per_user_totals_are_ratios_of_sums)
{
	struct snapshot a, b;
	struct model *m;
	struct model_users u = { 0 };
	const struct model_row *rows[8];
	const struct model_row *alice = NULL, *bob = NULL, *carol = NULL;
	struct snap_task *t;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	a.mem_total_kib = b.mem_total_kib = 1000;
	for (int pid = 101; pid <= 105; pid++) {
		ptask(&a, pid, 100, 1000000000ull * (uint64_t)pid, 'S');
		t = ptask(&b, pid, 100, 1000000000ull * (uint64_t)pid, 'S');
		fill_second(t->c, 1000000000, 1000000000);
	}
	/* 103 (alice): IPC 0.5 over 3e9 cycles */
	t = &b.tasks[2];
	set(t->c, E_CYC, 3000000000ull, 1000000000, 1000000000);
	set(t->c, E_INS, 1500000000ull, 1000000000, 1000000000);
	/* 105 (alice) is not counted; 106 is carol's, not counted either */
	b.tasks[4].err = -EACCES;
	a.tasks[4].err = -EACCES;
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = k ? &b : &a;

		t = ptask(s, 106, 50, 0, 'S');
		t->err = -EACCES;
		t->uid = 1002;
		snprintf(t->user, sizeof(t->user), "carol");
	}
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->nrows, 6);
	for (size_t i = 0; i < m->nrows; i++)
		rows[i] = &m->rows[i];
	model_users_build(m, rows, m->nrows, &u);
	ck_assert_uint_eq(u.n, 3);
	for (size_t i = 0; i < u.n; i++) {
		if (!strcmp(u.v[i].user, "alice"))
			alice = &u.v[i];
		if (!strcmp(u.v[i].user, "bob"))
			bob = &u.v[i];
		if (!strcmp(u.v[i].user, "carol"))
			carol = &u.v[i];
	}
	ck_assert(alice && bob && carol);
	ck_assert_int_eq(alice->procs, 3); /* 101, 103, 105 */
	ck_assert_int_eq(alice->threads, 3);
	ck_assert_int_eq(alice->err, 0);
	NEAR(alice->v[COL_IPC], 3.5e9 / 4e9);
	NEAR(alice->v[COL_CPI], 4e9 / 3.5e9);
	NEAR(alice->v[COL_CPU], 100.0); /* two processes at 50 % */
	NEAR(alice->v[COL_PF], 600);
	NEAR(alice->v[COL_RES], 300);
	NEAR(alice->v[COL_MEM], 30.0);
	NEAR(alice->v[COL_TIME], 101 + 103 + 105);
	ck_assert_int_eq(bob->procs, 2);
	NEAR(bob->v[COL_IPC], 2.0);
	NEAR(bob->v[COL_CACHE], 10.0);
	ck_assert_int_eq(carol->procs, 1);
	ck_assert_int_eq(carol->err, -EACCES);
	NEAR(carol->v[COL_RES], 50);
	ck_assert(isnan(carol->v[COL_CPU]));
	/* sorted by the model's column: %CPU, biggest first */
	ck_assert_str_eq(u.v[0].user, "alice");
	/* a user row's PID column is its process count */
	{
		char buf[16];

		model_format_cell(m, alice, COL_PID, COL_ROWS_USERS, 0, buf, sizeof(buf));
		ck_assert_str_eq(buf, "3");
	}
	/* built again (each frame): the same totals, nothing kept from before */
	model_users_build(m, rows, 2, &u);
	ck_assert_uint_eq(u.n, 2);
	model_users_release(&u);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_cpu_total_is_sum_of_cores)
{
	struct snapshot a, b;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	for (int c = 0; c < 2; c++) {
		struct snap_cpu *pa = snapshot_add_cpu(&a, c), *pb = snapshot_add_cpu(&b, c);

		pa->busy = 0;
		pa->total = 0;
		pb->busy = c ? 100 : 25;
		pb->total = 100;
		for (int e = 0; e < E_N; e++)
			set(pa->c, e, 0, 0, 0);
		fill_second(pb->c, 1000000000, 1000000000);
		set(pb->c, E_CS, 100 * (uint64_t)(c + 1), 1000000000, 1000000000);
		set(pb->c, E_CYC, 1000000000 * (uint64_t)(c + 1), 1000000000, 1000000000);
	}
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->ncpus, 3);
	ck_assert_int_eq(m->cpus[2].id, -1);
	NEAR(m->cpus[0].v[COL_CPU], 25);
	NEAR(m->cpus[1].v[COL_CPU], 100);
	NEAR(m->cpus[2].v[COL_CPU], 62.5);
	NEAR(m->cpus[2].v[COL_CS], m->cpus[0].v[COL_CS] + m->cpus[1].v[COL_CS]);
	NEAR(m->cpus[2].v[COL_PF], 600);
	/* CPU 0: 1e9 cycles in 0.25 s busy = 4 GHz; CPU 1: 2e9 in 1 s */
	NEAR(m->cpus[0].v[COL_GHZ], 4.0);
	NEAR(m->cpus[1].v[COL_GHZ], 2.0);
	NEAR(m->cpus[2].v[COL_GHZ], 3e9 / 1.25e9);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

START_TEST(test_uncounted_tasks_are_tallied)
{
	struct snapshot a, b;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	task(&a, 1, 1)->err = -EACCES;
	task(&a, 2, 1);
	task(&b, 1, 1)->err = -EACCES;
	fill_second(task(&b, 2, 1)->c, 10, 10);
	m = two_ticks(&a, &b);
	ck_assert_uint_eq(m->not_counted, 1);
	ck_assert_int_eq(m->not_counted_err, -EACCES);
	ck_assert_uint_eq(m->nrows, 2);
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* top's Tasks line: every process of the snapshot by state, D and I among the sleeping. */
START_TEST(test_processes_are_counted_by_state_as_top_counts_them)
{
	static const char STATES[] = "RRSDITtZX";
	struct snapshot a;
	struct model_states st;

	snapshot_init(&a, E_N);
	for (size_t i = 0; i < sizeof(STATES) - 1; i++)
		task(&a, (int)i + 1, 1)->state = STATES[i];
	model_count_states(&a, &st);
	ck_assert_uint_eq(st.total, 9);
	ck_assert_uint_eq(st.running, 2);
	ck_assert_uint_eq(st.sleeping, 3);
	ck_assert_uint_eq(st.stopped, 2);
	ck_assert_uint_eq(st.zombie, 1); /* X (dead) is in the total only */
	snapshot_release(&a);
}
END_TEST

/*
 * The memory meters as top computes them, in MiB; a snapshot with MemTotal but not the
 * meters' lines (an old recording) gives the total and NAN for the rest, never 0.
 */
START_TEST(test_memory_meters_as_top_and_empty_when_unknown)
{
	struct snapshot a, b;
	struct model_memory mm;
	struct model *m;

	snapshot_init(&a, E_N);
	snapshot_init(&b, E_N);
	a.t_ns = 1;
	b.t_ns = 1000000001;
	b.mem_total_kib = a.mem_total_kib = 8192 * 1024;
	b.mem = (struct snap_mem){ .known = true,
				   .free_kib = 1024 * 1024,
				   .buffers_kib = 512 * 1024,
				   .cached_kib = 1024 * 1024,
				   .sreclaimable_kib = 512 * 1024,
				   .swap_total_kib = 2048 * 1024,
				   .swap_free_kib = 1536 * 1024,
				   .avail_kib = 4096 * 1024 };
	m = two_ticks(&a, &b);
	model_memory(m, &mm);
	ck_assert_double_eq(mm.total, 8192);
	ck_assert_double_eq(mm.free, 1024);
	ck_assert_double_eq(mm.buff_cache, 2048);
	ck_assert_double_eq(mm.used, 8192 - 1024 - 2048);
	ck_assert_double_eq(mm.swap_total, 2048);
	ck_assert_double_eq(mm.swap_free, 1536);
	ck_assert_double_eq(mm.swap_used, 512);
	ck_assert_double_eq(mm.avail, 4096);
	/* more cache than MemTotal leaves (a container's meminfo): used is total less free */
	m->mem.cached_kib = 64ull << 30;
	model_memory(m, &mm);
	ck_assert_double_eq(mm.used, 8192 - 1024);
	/* the first snapshot had no meters: all but the total unknown */
	m->mem.known = false;
	model_memory(m, &mm);
	ck_assert_double_eq(mm.total, 8192);
	ck_assert(isnan(mm.free) && isnan(mm.used) && isnan(mm.buff_cache));
	ck_assert(isnan(mm.swap_total) && isnan(mm.swap_free) && isnan(mm.swap_used));
	ck_assert(isnan(mm.avail));
	m->mem_total_kib = 0;
	model_memory(m, &mm);
	ck_assert(isnan(mm.total));
	model_free(m);
	snapshot_release(&a);
	snapshot_release(&b);
}
END_TEST

/* -- CMD: the command's pid stands for its whole tree, found through the ppid chains. */
START_TEST(test_tree_filter_keeps_every_descendant_and_no_one_else)
{
	static const struct {
		int pid, ppid;
		bool kept;
	} P[] = {
		{ 1, 0, false },     { 50, 1, false },	 { 100, 50, true }, /* the command */
		{ 101, 100, true },  { 102, 101, true },		    /* a grandchild */
		{ 90, 100, true },   /* a child with a lower pid (wrapped) */
		{ 103, 1, false },   /* an orphan, reparented: not followed */
		{ 104, 104, false }, /* a ppid loop ends */
	};
	int cmd = 100;
	struct snapshot snap;
	struct model *m = model_new(&evs);

	snapshot_init(&snap, E_N);
	for (size_t i = 0; i < sizeof(P) / sizeof(P[0]); i++)
		task(&snap, P[i].pid, 1)->ppid = P[i].ppid;
	snapshot_sort(&snap);
	m->filter.pids = &cmd;
	m->filter.npids = 1;
	m->filter.tree = true;
	model_update(m, &snap);
	for (size_t i = 0; i < sizeof(P) / sizeof(P[0]); i++) {
		bool found = false;

		for (size_t r = 0; r < m->nrows; r++)
			found |= m->rows[r].id == P[i].pid;
		ck_assert_msg(found == P[i].kept, "pid %d: kept %d, want %d", P[i].pid, found,
			      P[i].kept);
	}
	ck_assert_uint_eq(m->nrows, 4);
	model_free(m);
	snapshot_release(&snap);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("rows");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_metrics_from_one_second);
	tcase_add_test(tc, test_extras_follow_the_shown_and_sorted_columns);
	tcase_add_test(tc, test_tree_filter_keeps_every_descendant_and_no_one_else);
	tcase_add_test(tc, test_rates_are_over_each_rows_own_interval);
	tcase_add_test(tc, test_event_columns_are_rates_under_their_unit);
	tcase_add_test(tc, test_cpu_busier_than_its_time_is_unknown);
	tcase_add_test(tc, test_a_zero_that_stays_while_cycles_advance_is_suspect);
	tcase_add_test(tc, test_a_zero_early_in_a_run_is_not_suspect);
	tcase_add_test(tc, test_every_computed_column_follows_the_table);
	tcase_add_test(tc, test_columns_in_table_order);
	tcase_add_test(tc, test_docs_list_every_sort_key);
	tcase_add_test(tc, test_multiplexed_counts_are_scaled_and_marked);
	tcase_add_test(tc, test_event_shares_over_processes_and_cpus);
	tcase_add_test(tc, test_counter_that_never_ran_is_na_not_zero);
	tcase_add_test(tc, test_sleeping_task_is_zero_percent_but_has_no_ipc);
	tcase_add_test(tc, test_unsupported_events_hide_their_columns);
	tcase_add_test(tc, test_pid_reuse_starts_from_zero);
	tcase_add_test(tc, test_a_process_started_between_two_reads_is_charged_its_cpu_time);
	tcase_add_test(tc, test_sort_by_cpi_puts_undefined_last_both_ways);
	tcase_add_test(tc, test_filters_by_pid_and_user);
	tcase_add_test(tc, test_cpu_total_is_sum_of_cores);
	tcase_add_test(tc, test_cgroup_rows_are_deltas_scaled_with_their_processes);
	tcase_add_test(tc, test_cgroup_gone_or_reopened);
	tcase_add_test(tc, test_filter_by_cgroup_takes_the_subtree);
	tcase_add_test(tc, test_first_snapshot_has_proc_columns_and_no_counts);
	tcase_add_test(tc, test_proc_cells_are_formatted_as_top_and_empty_when_unknown);
	tcase_add_test(tc, test_nice_virt_shr_lastcpu_columns);
	tcase_add_test(tc, test_kernel_threads_only_when_asked);
	tcase_add_test(tc, test_per_user_totals_are_ratios_of_sums);
	tcase_add_test(tc, test_uncounted_tasks_are_tallied);
	tcase_add_test(tc, test_processes_are_counted_by_state_as_top_counts_them);
	tcase_add_test(tc, test_memory_meters_as_top_and_empty_when_unknown);
	tcase_add_test(tc, test_a_cumulative_count_that_falls_is_na_for_that_tick);
	suite_add_tcase(s, tc);
	return testutil_run(s);
}
