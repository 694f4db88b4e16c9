/* The end of a command's run: its totals in perf stat's layout. */
#include "config.h"
#include "out/summary.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "util/textsafe.h"

/* A count as perf stat writes it: thousands grouped with commas. */
static const char *summary_group(char *buf, size_t size, uint64_t v)
{
	char raw[32];
	size_t n, o = 0;

	n = (size_t)snprintf(raw, sizeof(raw), "%llu", (unsigned long long)v);
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

/* A rate per second of CPU time, with perf stat's K and M. */
static void summary_rate(char *buf, size_t size, double v, double task_s)
{
	double r = task_s > 0 ? v / task_s : NAN;

	if (isnan(r))
		snprintf(buf, size, "%8s /sec", "-");
	else if (r >= 1e6)
		snprintf(buf, size, "%8.3f M/sec", r / 1e6);
	else if (r >= 1e3)
		snprintf(buf, size, "%8.3f K/sec", r / 1e3);
	else
		snprintf(buf, size, "%8.3f /sec", r);
}

/* The event's count scaled to the whole run; NAN when it did not count. */
static double summary_scaled(const struct snap_count *c)
{
	if (c->err || (!c->running && c->enabled))
		return NAN;
	if (c->running && c->running < c->enabled)
		return (double)c->value * (double)c->enabled / (double)c->running;
	return (double)c->value;
}

/* The scaled count of the event playing role, or NAN. */
static double summary_role(const struct summary_run *r, enum ev_role role)
{
	int i = r->ev->role_idx[role];

	return i < 0 ? NAN : summary_scaled(&r->cnt[i]);
}

static void summary_ratio(char *buf, size_t size, double num, double den, const char *what)
{
	if (isnan(num) || isnan(den) || den <= 0)
		buf[0] = '\0';
	else
		snprintf(buf, size, "%8.2f%% of all %s", 100 * num / den, what);
}

/* The comment of event i: what its count means beside the others. */
static void summary_comment(const struct summary_run *r, size_t i, double v, double task_s,
			    char *buf, size_t size)
{
	double cyc = summary_role(r, EV_CYCLES);

	buf[0] = '\0';
	switch (r->ev->ev[i].role) {
	case EV_CYCLES:
		if (task_s > 0)
			snprintf(buf, size, "%8.3f GHz", v / task_s / 1e9);
		break;
	case EV_INSTRUCTIONS:
		if (!isnan(cyc) && cyc > 0)
			snprintf(buf, size, "%8.2f  insn per cycle", v / cyc);
		break;
	case EV_CACHE_MISSES:
		summary_ratio(buf, size, v, summary_role(r, EV_CACHE_REFS), "cache refs");
		break;
	case EV_L1D_MISSES:
		summary_ratio(buf, size, v, summary_role(r, EV_L1D_LOADS), "L1-dcache accesses");
		break;
	case EV_DTLB_MISSES:
		summary_ratio(buf, size, v, summary_role(r, EV_DTLB_LOADS), "dTLB cache accesses");
		break;
	case EV_BRANCH_MISSES:
		summary_ratio(buf, size, v, summary_role(r, EV_BRANCHES), "branches");
		break;
	default:
		summary_rate(buf, size, v, task_s);
		break;
	}
}

/* rusage's number for the events it also keeps, or NAN. */
static double summary_from_rusage(const struct summary_run *r, enum ev_role role)
{
	switch (role) {
	case EV_TASK_CLOCK:
		return (r->ru.user_s + r->ru.sys_s) * 1e3; /* msec */
	case EV_PAGE_FAULTS:
		return (double)r->ru.faults;
	case EV_CTX_SWITCHES:
		return (double)r->ru.csw;
	default:
		return NAN;
	}
}

void summary_print(FILE *f, const struct summary_run *r)
{
	double task_s;
	int tc = r->ev->role_idx[EV_TASK_CLOCK];
	char cmd[1024];
	size_t o = 0;

	cmd[0] = '\0';
	for (size_t i = 0; r->argv[i] && o + 1 < sizeof(cmd); i++)
		o += (size_t)snprintf(cmd + o, sizeof(cmd) - o, "%s%s", i ? " " : "", r->argv[i]);
	if (o >= sizeof(cmd))
		o = sizeof(cmd) - 1;
	/* task-clock counts nanoseconds; without it, the rusage's CPU time */
	task_s = tc >= 0 ? summary_scaled(&r->cnt[tc]) / 1e9 : NAN;
	if (isnan(task_s))
		task_s = r->ru.user_s + r->ru.sys_s;
	textsafe_fprintf(f, "\n Performance counter stats for '%s':\n\n", cmd);
	for (size_t i = 0; i < r->ev->n; i++) {
		const struct snap_count *c = &r->cnt[i];
		enum ev_role role = r->ev->ev[i].role;
		const char *name = r->ev->ev[i].name;
		double v = summary_scaled(c);
		bool from_ru = false;
		char val[48], com[96];

		if (isnan(v) && !isnan(summary_from_rusage(r, role))) {
			v = summary_from_rusage(r, role);
			from_ru = true;
		} else if (role == EV_TASK_CLOCK && !isnan(v)) {
			v /= 1e6; /* ns to msec */
		}
		if (isnan(v)) {
			textsafe_fprintf(f, "%18s      %s\n",
					 c->err == -ENOENT || c->err == -EOPNOTSUPP ||
							 c->err == -EINVAL
						 ? "<not supported>"
						 : "<not counted>",
					 name);
			continue;
		}
		if (role == EV_TASK_CLOCK) {
			snprintf(val, sizeof(val), "%.2f", v);
			if (r->wall_s > 0)
				snprintf(com, sizeof(com), "%8.3f CPUs utilized",
					 v / 1e3 / r->wall_s);
			else
				com[0] = '\0';
			textsafe_fprintf(f, "%18s msec %-24s # %s%s\n", val, name, com,
					 from_ru ? "  (getrusage)" : "");
			continue;
		}
		summary_group(val, sizeof(val), (uint64_t)llround(v));
		summary_comment(r, i, v, task_s, com, sizeof(com));
		if (com[0])
			textsafe_fprintf(f, "%18s      %-24s # %s", val, name, com);
		else
			textsafe_fprintf(f, "%18s      %s", val, name);
		if (from_ru)
			textsafe_fprintf(f, "  (getrusage)");
		else if (c->running && c->running < c->enabled)
			textsafe_fprintf(f, "  (%.2f%%)",
					 100.0 * (double)c->running / (double)c->enabled);
		textsafe_fprintf(f, "\n");
	}
	textsafe_fprintf(f, "\n%18.9f seconds time elapsed\n\n", r->wall_s);
	textsafe_fprintf(f, "%18.9f seconds user\n", r->ru.user_s);
	textsafe_fprintf(f, "%18.9f seconds sys\n", r->ru.sys_s);
	if (WIFSIGNALED(r->status))
		textsafe_fprintf(f, "\n'%s' was killed by signal %d (%s)\n", cmd,
				 WTERMSIG(r->status), strsignal(WTERMSIG(r->status)));
	textsafe_fprintf(f, "\n");
}
