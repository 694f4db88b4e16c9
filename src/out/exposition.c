/* The model's cumulative counts as Prometheus text and OpenMetrics, by the naming conventions. */
#include "config.h"
#include "out/exposition.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/textsafe.h"
#include "util/xalloc.h"

enum exposition_type {
	EXPOSITION_COUNTER, /* samples end in _total */
	EXPOSITION_GAUGE,
	EXPOSITION_INFO, /* samples end in _info, value 1; a gauge in the 0.0.4 text */
};

/*
 * A metric family as OpenMetrics names it: without the _total or _info of
 * its samples. unit, when set, is the name's last word.
 */
struct exposition_family {
	const char *name;
	enum exposition_type type;
	const char *unit;
	const char *help;
};

enum {
	EXPOSITION_F_BUILD,
	EXPOSITION_F_SOURCE,
	EXPOSITION_F_TICKS,
	EXPOSITION_F_INTERVAL,
	EXPOSITION_F_TASKS,
	EXPOSITION_F_NOT_COUNTED,
	EXPOSITION_F_STATUS,
	EXPOSITION_F_CPU_COUNT,
	EXPOSITION_F_CPU_ENABLED,
	EXPOSITION_F_CPU_RUNNING,
	EXPOSITION_F_CPU_BUSY,
	EXPOSITION_F_CGROUPS,
	EXPOSITION_F_CG_COUNT,
	EXPOSITION_F_CG_ENABLED,
	EXPOSITION_F_CG_RUNNING,
	EXPOSITION_F_PROC_COUNT,
	EXPOSITION_F_PROC_ENABLED,
	EXPOSITION_F_PROC_RUNNING,
	EXPOSITION_F_PROC_OMITTED,
	EXPOSITION_F_SELF_CPU,
	EXPOSITION_F_SELF_RSS,
	EXPOSITION_F_SELF_FDS,
	EXPOSITION_F_SELF_MAX_FDS,
};

static const struct exposition_family EXPOSITION_FAMILIES[] = {
	[EXPOSITION_F_BUILD] = { "pmctop_build", EXPOSITION_INFO, NULL,
				 "The version of pmctop serving these metrics." },
	[EXPOSITION_F_SOURCE] = { "pmctop_source", EXPOSITION_INFO, NULL,
				  "Where the counts come from: the event mode, host, kernel and "
				  "core PMU." },
	[EXPOSITION_F_TICKS] = { "pmctop_ticks", EXPOSITION_COUNTER, NULL,
				 "Snapshots of the counters pmctop has taken." },
	[EXPOSITION_F_INTERVAL] = { "pmctop_interval_seconds", EXPOSITION_GAUGE, "seconds",
				    "Time between the last two snapshots." },
	[EXPOSITION_F_TASKS] = { "pmctop_tasks", EXPOSITION_GAUGE, NULL,
				 "Processes in the last snapshot." },
	[EXPOSITION_F_NOT_COUNTED] = { "pmctop_tasks_not_counted", EXPOSITION_GAUGE, NULL,
				       "Processes whose counters could not be opened." },
	[EXPOSITION_F_STATUS] = { "pmctop_event_status", EXPOSITION_GAUGE, NULL,
				  "What each event did in the last interval on the CPUs (in the "
				  "processes and cgroups for one counted only there, task-clock): "
				  "counted, not_supported, multiplexed, never_ran or "
				  "suspect_zero; 1 for the status it has." },
	[EXPOSITION_F_CPU_COUNT] = { "pmctop_cpu_event_count", EXPOSITION_COUNTER, NULL,
				     "Raw count of an event on a CPU since pmctop opened it, not "
				     "scaled for multiplexing." },
	[EXPOSITION_F_CPU_ENABLED] = { "pmctop_cpu_event_enabled_seconds", EXPOSITION_COUNTER,
				       "seconds",
				       "Time the event was enabled on the CPU (scale a count by "
				       "enabled over running)." },
	[EXPOSITION_F_CPU_RUNNING] = { "pmctop_cpu_event_running_seconds", EXPOSITION_COUNTER,
				       "seconds",
				       "Time the event was on the CPU's PMU, counting." },
	[EXPOSITION_F_CPU_BUSY] = { "pmctop_cpu_busy_seconds", EXPOSITION_COUNTER, "seconds",
				    "Time the CPU was not idle (/proc/stat): what its GHz and "
				    "busy share are taken over." },
	[EXPOSITION_F_CGROUPS] = { "pmctop_cgroups", EXPOSITION_GAUGE, NULL,
				   "Cgroups (v2) in the last snapshot: the top levels of the "
				   "hierarchy and those named with --cgroup." },
	[EXPOSITION_F_CG_COUNT] = { "pmctop_cgroup_event_count", EXPOSITION_COUNTER, NULL,
				    "Raw count of an event in a cgroup and the cgroups below it, "
				    "summed over the CPUs, since pmctop opened it; not scaled." },
	[EXPOSITION_F_CG_ENABLED] = { "pmctop_cgroup_event_enabled_seconds", EXPOSITION_COUNTER,
				      "seconds",
				      "Time the cgroup's event was enabled, summed over the CPUs "
				      "(it runs while the cgroup's tasks run)." },
	[EXPOSITION_F_CG_RUNNING] = { "pmctop_cgroup_event_running_seconds", EXPOSITION_COUNTER,
				      "seconds",
				      "Time the cgroup's event was on the PMU, counting, summed "
				      "over "
				      "the CPUs." },
	[EXPOSITION_F_PROC_COUNT] = { "pmctop_process_event_count", EXPOSITION_COUNTER, NULL,
				      "Raw count of an event in a process since pmctop opened it, "
				      "for the processes using the most CPU." },
	[EXPOSITION_F_PROC_ENABLED] = { "pmctop_process_event_enabled_seconds", EXPOSITION_COUNTER,
					"seconds", "Time the process's event was enabled." },
	[EXPOSITION_F_PROC_RUNNING] = { "pmctop_process_event_running_seconds", EXPOSITION_COUNTER,
					"seconds",
					"Time the process's event was on the PMU, counting." },
	[EXPOSITION_F_PROC_OMITTED] = { "pmctop_processes_omitted", EXPOSITION_GAUGE, NULL,
					"Processes shown by pmctop but left out of the per-process "
					"series." },
	[EXPOSITION_F_SELF_CPU] = { "process_cpu_seconds", EXPOSITION_COUNTER, "seconds",
				    "User and system CPU time pmctop itself has used." },
	[EXPOSITION_F_SELF_RSS] = { "process_resident_memory_bytes", EXPOSITION_GAUGE, "bytes",
				    "Resident memory of pmctop itself." },
	[EXPOSITION_F_SELF_FDS] = { "process_open_fds", EXPOSITION_GAUGE, NULL,
				    "File descriptors pmctop has open (counters take one each)." },
	[EXPOSITION_F_SELF_MAX_FDS] = { "process_max_fds", EXPOSITION_GAUGE, NULL,
					"The file descriptors pmctop may open: its budget." },
};

static const char *const EXPOSITION_STATUS_NAMES[] = {
	[EXPOSITION_COUNTED] = "counted",	    [EXPOSITION_NOT_SUPPORTED] = "not_supported",
	[EXPOSITION_MULTIPLEXED] = "multiplexed",   [EXPOSITION_NEVER_RAN] = "never_ran",
	[EXPOSITION_SUSPECT_ZERO] = "suspect_zero",
};

const char *exposition_status_name(enum exposition_status s)
{
	return EXPOSITION_STATUS_NAMES[s];
}

struct exposition *exposition_new(size_t nev)
{
	struct exposition *x = xcalloc(1, sizeof(*x));

	x->nev = nev;
	x->last = xcalloc(nev ? nev : 1, sizeof(*x->last));
	x->status = xcalloc(nev ? nev : 1, sizeof(*x->status));
	return x;
}

void exposition_free(struct exposition *x)
{
	if (!x)
		return;
	free(x->last);
	free(x->status);
	free(x);
}

/*
 * Whether some process or cgroup of s counts event e: task-clock is counted
 * per task only (a CPU has no task), so its CPU counts always fail.
 */
static bool exposition_counted_elsewhere(const struct snapshot *s, size_t e)
{
	for (size_t t = 0; t < s->ntasks; t++)
		if (!s->tasks[t].err && !s->tasks[t].c[e].err)
			return true;
	for (size_t g = 0; g < s->cg.n; g++)
		if (!s->cg.v[g].err && !s->cg.v[g].c[e].err)
			return true;
	return false;
}

/* The status of event e from its counts summed over the CPUs in the interval (d). */
static enum exposition_status exposition_judge(const struct ev *e, const struct snap_count *d)
{
	if (d->enabled == 0)
		return EXPOSITION_COUNTED; /* no time passed: nothing to say against it */
	if (d->running == 0)
		return EXPOSITION_NEVER_RAN;
	if (e->hw && d->value == 0)
		return EXPOSITION_SUSPECT_ZERO;
	if (d->running < d->enabled)
		return EXPOSITION_MULTIPLEXED;
	return EXPOSITION_COUNTED;
}

void exposition_update(struct exposition *x, const struct model *m)
{
	const struct snapshot *s = &m->prev; /* after model_update: the latest counts */

	x->ticks++;
	for (size_t e = 0; e < x->nev && e < m->ev.n; e++) {
		struct snap_count sum = { 0, 0, 0, 0 }, d;
		size_t ok = 0;
		int err = 0;

		for (size_t c = 0; c < s->ncpus; c++) {
			const struct snap_count *k = &s->cpus[c].c[e];

			if (k->err) {
				err = err ? err : k->err;
				continue;
			}
			sum.value += k->value;
			sum.enabled += k->enabled;
			sum.running += k->running;
			ok++;
		}
		if (m->ev.ev[e].err || (s->ncpus && !ok && err)) {
			x->status[e] = !m->ev.ev[e].err && exposition_counted_elsewhere(s, e)
					       ? EXPOSITION_COUNTED
					       : EXPOSITION_NOT_SUPPORTED;
			continue;
		}
		d = sum;
		/* a CPU that went away makes the sums fall: judge the counts since the start */
		if (x->have_last && sum.value >= x->last[e].value &&
		    sum.enabled >= x->last[e].enabled && sum.running >= x->last[e].running) {
			d.value -= x->last[e].value;
			d.enabled -= x->last[e].enabled;
			d.running -= x->last[e].running;
		}
		x->status[e] = s->ncpus ? exposition_judge(&m->ev.ev[e], &d) : EXPOSITION_COUNTED;
		x->last[e] = sum;
	}
	x->have_last = true;
}

/* The reason a status has, for its reason label; NULL for none. */
static const char *exposition_reason(const struct exposition *x, const struct model *m, size_t e)
{
	switch (x->status[e]) {
	case EXPOSITION_NOT_SUPPORTED: {
		int err = m->ev.ev[e].err;

		for (size_t c = 0; !err && c < m->prev.ncpus; c++)
			err = m->prev.cpus[c].c[e].err;
		return errmsg_short(err ? err : -ENOENT);
	}
	case EXPOSITION_NEVER_RAN:
		return "no free counter while it was enabled";
	case EXPOSITION_SUSPECT_ZERO:
		return "a hardware counter that ran and counted nothing";
	default:
		return NULL;
	}
}

void exposition_label_value(FILE *f, const char *s)
{
	size_t len = strlen(s), size = TEXTSAFE_MAX(len);
	char small[512], *hex = size <= sizeof(small) ? small : xmalloc(size);

	/*
	 * Reversibly (TEXTSAFE_HEX), never '?' or U+FFFD: two cgroups whose
	 * names differ only in what is unsafe stay two series. What is left
	 * is UTF-8 without controls; the format escapes '\\' and '"'.
	 */
	textsafe_escape(hex, size, s, len, TEXTSAFE_HEX, -1);
	fputc('"', f);
	for (const char *p = hex; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputc('"', f);
	if (hex != small)
		free(hex);
}

static void exposition_sample_name(FILE *f, size_t fam)
{
	const struct exposition_family *y = &EXPOSITION_FAMILIES[fam];

	fputs(y->name, f);
	if (y->type == EXPOSITION_COUNTER)
		fputs("_total", f);
	else if (y->type == EXPOSITION_INFO)
		fputs("_info", f);
}

/*
 * HELP and TYPE (and UNIT in OpenMetrics). The 0.0.4 text names the
 * family as its samples are named and has no info type.
 */
static void exposition_family(FILE *f, enum exposition_format fmt, size_t fam)
{
	static const char *const types[] = {
		[EXPOSITION_COUNTER] = "counter",
		[EXPOSITION_GAUGE] = "gauge",
		[EXPOSITION_INFO] = "info",
	};
	const struct exposition_family *y = &EXPOSITION_FAMILIES[fam];

	if (fmt == EXPOSITION_OPENMETRICS) {
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", y->name, y->help, y->name,
			types[y->type]);
		if (y->unit)
			fprintf(f, "# UNIT %s %s\n", y->name, y->unit);
		return;
	}
	fputs("# HELP ", f);
	exposition_sample_name(f, fam);
	fprintf(f, " %s\n# TYPE ", y->help);
	exposition_sample_name(f, fam);
	fprintf(f, " %s\n", y->type == EXPOSITION_COUNTER ? "counter" : "gauge");
}

/* A number as both formats take it: integers exactly, NaN for unknown. */
static void exposition_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.9g", v);
}

/* Nanoseconds as seconds, exactly. */
static void exposition_ns(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

static const char *exposition_pmu(const struct ev *e, const struct exposition_info *info)
{
	if (!e->hw)
		return "software";
	return info->hw_pmu && *info->hw_pmu ? info->hw_pmu : "cpu";
}

static void exposition_single(FILE *f, enum exposition_format fmt, size_t fam, double v)
{
	exposition_family(f, fmt, fam);
	exposition_sample_name(f, fam);
	fputc(' ', f);
	exposition_num(f, v);
	fputc('\n', f);
}

static void exposition_head(FILE *f, enum exposition_format fmt, const struct model *m,
			    const struct exposition *x, const struct exposition_info *info)
{
	const char *host = m->host[0] ? m->host : "";

	exposition_family(f, fmt, EXPOSITION_F_BUILD);
	exposition_sample_name(f, EXPOSITION_F_BUILD);
	fputs("{version=", f);
	exposition_label_value(f, info->version ? info->version : "");
	fputs("} 1\n", f);
	exposition_family(f, fmt, EXPOSITION_F_SOURCE);
	exposition_sample_name(f, EXPOSITION_F_SOURCE);
	fputs("{mode=", f);
	exposition_label_value(f, info->mode ? info->mode : "");
	fputs(",host=", f);
	exposition_label_value(f, host);
	fputs(",kernel=", f);
	exposition_label_value(f, m->kernel);
	fputs(",pmu=", f);
	exposition_label_value(f, info->hw_pmu && *info->hw_pmu ? info->hw_pmu : "cpu");
	fputs("} 1\n", f);
	exposition_family(f, fmt, EXPOSITION_F_TICKS);
	exposition_sample_name(f, EXPOSITION_F_TICKS);
	fprintf(f, " %" PRIu64 "\n", x->ticks);
	exposition_single(f, fmt, EXPOSITION_F_INTERVAL, m->have_prev && m->dt > 0 ? m->dt : NAN);
	exposition_single(f, fmt, EXPOSITION_F_TASKS, (double)m->ntasks_seen);
	exposition_single(f, fmt, EXPOSITION_F_NOT_COUNTED, (double)m->not_counted);
}

static void exposition_statuses(FILE *f, enum exposition_format fmt, const struct model *m,
				const struct exposition *x, const struct exposition_info *info)
{
	exposition_family(f, fmt, EXPOSITION_F_STATUS);
	for (size_t e = 0; e < x->nev && e < m->ev.n; e++) {
		const char *reason = exposition_reason(x, m, e);

		exposition_sample_name(f, EXPOSITION_F_STATUS);
		fputs("{event=", f);
		exposition_label_value(f, m->ev.ev[e].name);
		fputs(",pmu=", f);
		exposition_label_value(f, exposition_pmu(&m->ev.ev[e], info));
		fprintf(f, ",status=\"%s\"", exposition_status_name(x->status[e]));
		if (reason) {
			fputs(",reason=", f);
			exposition_label_value(f, reason);
		}
		fputs("} 1\n", f);
	}
}

/* Which part of a count a family carries. */
enum exposition_part { EXPOSITION_VALUE, EXPOSITION_ENABLED, EXPOSITION_RUNNING };

static void exposition_count(FILE *f, const struct snap_count *c, enum exposition_part part)
{
	fputc(' ', f);
	if (part == EXPOSITION_VALUE)
		fprintf(f, "%" PRIu64, c->value);
	else
		exposition_ns(f, part == EXPOSITION_ENABLED ? c->enabled : c->running);
	fputc('\n', f);
}

static void exposition_cpus(FILE *f, enum exposition_format fmt, const struct model *m,
			    const struct exposition_info *info)
{
	static const size_t fams[] = {
		EXPOSITION_F_CPU_COUNT,
		EXPOSITION_F_CPU_ENABLED,
		EXPOSITION_F_CPU_RUNNING,
	};
	const struct snapshot *s = &m->prev;

	for (size_t p = 0; p < sizeof(fams) / sizeof(fams[0]); p++) {
		exposition_family(f, fmt, fams[p]);
		for (size_t c = 0; c < s->ncpus; c++)
			for (size_t e = 0; e < m->ev.n && e < s->nev; e++) {
				const struct snap_count *k = &s->cpus[c].c[e];

				if (k->err || m->ev.ev[e].err)
					continue;
				exposition_sample_name(f, fams[p]);
				fprintf(f, "{cpu=\"%d\",pmu=", s->cpus[c].cpu);
				exposition_label_value(f, exposition_pmu(&m->ev.ev[e], info));
				fputs(",event=", f);
				exposition_label_value(f, m->ev.ev[e].name);
				fputc('}', f);
				exposition_count(f, k, (enum exposition_part)p);
			}
	}
}

/*
 * The non-idle time of each CPU, /proc/stat's clock ticks in seconds:
 * cycles over it give the GHz of the CPU rows and of the machine.
 */
static void exposition_busy(FILE *f, enum exposition_format fmt, const struct model *m)
{
	const struct snapshot *s = &m->prev;

	exposition_family(f, fmt, EXPOSITION_F_CPU_BUSY);
	for (size_t c = 0; c < s->ncpus; c++) {
		exposition_sample_name(f, EXPOSITION_F_CPU_BUSY);
		fprintf(f, "{cpu=\"%d\"} ", s->cpus[c].cpu);
		exposition_num(f, m->clk_tck > 0 ? (double)s->cpus[c].busy / m->clk_tck : NAN);
		fputc('\n', f);
	}
}

/*
 * Per cgroup: the raw counts summed over the CPUs, labelled with the path
 * below the hierarchy's root. Cgroups not counted have no samples.
 */
static void exposition_cgroups(FILE *f, enum exposition_format fmt, const struct model *m,
			       const struct exposition_info *info)
{
	static const size_t fams[] = {
		EXPOSITION_F_CG_COUNT,
		EXPOSITION_F_CG_ENABLED,
		EXPOSITION_F_CG_RUNNING,
	};
	const struct snapshot *s = &m->prev;

	exposition_single(f, fmt, EXPOSITION_F_CGROUPS, (double)s->cg.n);
	for (size_t p = 0; p < sizeof(fams) / sizeof(fams[0]); p++) {
		exposition_family(f, fmt, fams[p]);
		for (size_t c = 0; c < s->cg.n; c++)
			for (size_t e = 0; e < m->ev.n && e < s->nev; e++) {
				const struct snap_count *k = &s->cg.v[c].c[e];

				if (s->cg.v[c].err || k->err || m->ev.ev[e].err)
					continue;
				exposition_sample_name(f, fams[p]);
				fputs("{cgroup=", f);
				exposition_label_value(f, s->cg.v[c].path);
				fputs(",pmu=", f);
				exposition_label_value(f, exposition_pmu(&m->ev.ev[e], info));
				fputs(",event=", f);
				exposition_label_value(f, m->ev.ev[e].name);
				fputc('}', f);
				exposition_count(f, k, (enum exposition_part)p);
			}
	}
}

/* Busiest first; rows with no %CPU after the rest, then by pid. */
static int exposition_by_cpu(const void *pa, const void *pb)
{
	const struct model_row *a = *(const struct model_row *const *)pa;
	const struct model_row *b = *(const struct model_row *const *)pb;
	double va = a->v[COL_CPU], vb = b->v[COL_CPU];

	if (isnan(va) != isnan(vb))
		return isnan(va) ? 1 : -1;
	if (!isnan(va) && va != vb)
		return va > vb ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static void exposition_processes(FILE *f, enum exposition_format fmt, const struct model *m,
				 const struct exposition_info *info)
{
	static const size_t fams[] = {
		EXPOSITION_F_PROC_COUNT,
		EXPOSITION_F_PROC_ENABLED,
		EXPOSITION_F_PROC_RUNNING,
	};
	const struct model_row **top = xcalloc(m->nrows ? m->nrows : 1, sizeof(*top));
	size_t n = 0;

	for (size_t i = 0; i < m->nrows; i++)
		if (!m->rows[i].err && snapshot_find_task(&m->prev, m->rows[i].id))
			top[n++] = &m->rows[i];
	qsort(top, n, sizeof(*top), exposition_by_cpu);
	if (n > info->top_processes)
		n = info->top_processes;
	for (size_t p = 0; p < sizeof(fams) / sizeof(fams[0]); p++) {
		exposition_family(f, fmt, fams[p]);
		for (size_t i = 0; i < n; i++) {
			const struct snap_task *t = snapshot_find_task(&m->prev, top[i]->id);

			for (size_t e = 0; e < m->ev.n && e < m->prev.nev; e++) {
				if (t->c[e].err || m->ev.ev[e].err)
					continue;
				exposition_sample_name(f, fams[p]);
				fprintf(f, "{pid=\"%d\",comm=", t->pid);
				exposition_label_value(f, t->comm);
				fputs(",pmu=", f);
				exposition_label_value(f, exposition_pmu(&m->ev.ev[e], info));
				fputs(",event=", f);
				exposition_label_value(f, m->ev.ev[e].name);
				fputc('}', f);
				exposition_count(f, &t->c[e], (enum exposition_part)p);
			}
		}
	}
	exposition_single(f, fmt, EXPOSITION_F_PROC_OMITTED, (double)(m->nrows - n));
	free(top);
}

static void exposition_self(FILE *f, enum exposition_format fmt, const struct exposition_self *s)
{
	exposition_single(f, fmt, EXPOSITION_F_SELF_CPU, s->cpu_seconds);
	exposition_single(f, fmt, EXPOSITION_F_SELF_RSS, s->rss_bytes);
	exposition_single(f, fmt, EXPOSITION_F_SELF_FDS, s->open_fds);
	exposition_single(f, fmt, EXPOSITION_F_SELF_MAX_FDS, s->max_fds);
}

int exposition_render(const struct exposition *x, FILE *f, enum exposition_format fmt,
		      const struct model *m, const struct exposition_info *info)
{
	exposition_head(f, fmt, m, x, info);
	exposition_statuses(f, fmt, m, x, info);
	exposition_cpus(f, fmt, m, info);
	exposition_busy(f, fmt, m);
	if (m->prev.cg.on)
		exposition_cgroups(f, fmt, m, info);
	if (info->top_processes)
		exposition_processes(f, fmt, m, info);
	exposition_self(f, fmt, &info->self);
	if (fmt == EXPOSITION_OPENMETRICS)
		fputs("# EOF\n", f);
	if (fflush(f) == EOF || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
