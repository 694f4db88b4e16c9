/* libpfm4 wrapper: the only file that includes <perfmon/...>. */
#include "config.h"
#include "collect/events.h"

#include <ctype.h>
#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Names users type that are perf's, not libpfm4's, spellings. */
static const char *const EVENTS_PERF_NAMES[] = {
	"cycles",
	"cpu-cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branches",
	"branch-instructions",
	"branch-misses",
	"bus-cycles",
	"ref-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"task-clock",
	"cpu-clock",
	"page-faults",
	"faults",
	"minor-faults",
	"major-faults",
	"context-switches",
	"cs",
	"cpu-migrations",
	"migrations",
	"L1-dcache-loads",
	"L1-dcache-load-misses",
	"L1-dcache-stores",
	"L1-icache-load-misses",
	"LLC-loads",
	"LLC-load-misses",
	"LLC-stores",
	"dTLB-loads",
	"dTLB-load-misses",
	"dTLB-stores",
	"iTLB-loads",
	"iTLB-load-misses",
	"branch-loads",
	"branch-load-misses",
};

int events_init(void)
{
	return pfm_initialize() == PFM_SUCCESS ? 0 : -EIO;
}

void events_fini(void)
{
	pfm_terminate();
}

int events_encode(const char *name, bool kernel, struct perf_event_attr *attr, bool *hw)
{
	pfm_perf_encode_arg_t arg;
	int plm = PFM_PLM3 | (kernel ? PFM_PLM0 : 0);
	int r;

	if (!name || !*name)
		return -ENOENT;
	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	switch (r) {
	case PFM_SUCCESS:
		break;
	case PFM_ERR_NOTFOUND:
	case PFM_ERR_NOTSUPP:
		return -ENOENT;
	default:
		return -EINVAL;
	}
	/* libpfm4 writes its own idea of the size; the kernel wants ours */
	attr->size = sizeof(*attr);
	*hw = attr->type != PERF_TYPE_SOFTWARE;
	return 0;
}

size_t events_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row;
	size_t d;

	if (la > 200)
		la = 200;
	if (lb > 200)
		lb = 200;
	row = calloc(lb + 1, sizeof(*row));
	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = prev + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* Fill pi for PMU p; false unless libpfm4 finds it present. */
static bool events_pmu_info(pfm_pmu_t p, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return pfm_get_pmu_info(p, pi) == PFM_SUCCESS && pi->is_present;
}

typedef void (*events_visit_cb)(const pfm_pmu_info_t *pi, const pfm_event_info_t *ei, void *arg);

/* Visit every event of every present PMU; generic: the perf_events PMUs too. */
static void events_each(bool generic, events_visit_cb cb, void *arg)
{
	pfm_pmu_t p;

	pfm_for_all_pmus (p) {
		pfm_pmu_info_t pi;

		if (!events_pmu_info(p, &pi))
			continue;
		if (!generic && (pi.pmu == PFM_PMU_PERF_EVENT || pi.pmu == PFM_PMU_PERF_EVENT_RAW))
			continue;
		for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t ei;

			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(i, PFM_OS_PERF_EVENT_EXT, &ei) == PFM_SUCCESS)
				cb(&pi, &ei, arg);
		}
	}
}

struct events_cand {
	char name[128];
	size_t dist;
};

static void events_consider(struct events_cand *best, size_t max, size_t *n, const char *cand,
			    const char *want)
{
	size_t d = events_distance(want, cand);
	size_t limit = strlen(want) / 3 + 1;

	if (d > limit)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcasecmp(best[i].name, cand))
			return;
	if (*n == max && d >= best[max - 1].dist)
		return;
	size_t pos = *n < max ? (*n)++ : max - 1;

	while (pos > 0 && best[pos - 1].dist > d) {
		best[pos] = best[pos - 1];
		pos--;
	}
	snprintf(best[pos].name, sizeof(best[pos].name), "%s", cand);
	best[pos].dist = d;
}

struct events_suggesting {
	struct events_cand best[8];
	size_t n, max;
	char want[128];
};

static void events_suggest_one(const pfm_pmu_info_t *pi, const pfm_event_info_t *ei, void *arg)
{
	struct events_suggesting *sg = arg;

	(void)pi;
	events_consider(sg->best, sg->max, &sg->n, ei->name, sg->want);
}

size_t events_suggest(const char *name, char (*out)[128], size_t max)
{
	struct events_suggesting sg;
	const char *colon;

	if (max > 8)
		max = 8;
	if (!max)
		return 0;
	memset(&sg, 0, sizeof(sg));
	sg.max = max;
	/* compare the event part only: "skl::FOO:u" -> "FOO" */
	colon = strstr(name, "::");
	snprintf(sg.want, sizeof(sg.want), "%s", colon ? colon + 2 : name);
	sg.want[strcspn(sg.want, ":")] = '\0';
	for (size_t i = 0; i < sizeof(EVENTS_PERF_NAMES) / sizeof(EVENTS_PERF_NAMES[0]); i++)
		events_consider(sg.best, max, &sg.n, EVENTS_PERF_NAMES[i], sg.want);
	/* perf's own names stand for the generic PMU: skip libpfm4's spellings of them */
	events_each(false, events_suggest_one, &sg);
	for (size_t i = 0; i < sg.n; i++)
		memcpy(out[i], sg.best[i].name, sizeof(out[i]));
	return sg.n;
}

static bool events_match(const char *s, const char *pattern)
{
	size_t lp, ls;

	if (!pattern || !*pattern)
		return true;
	lp = strlen(pattern);
	ls = strlen(s);
	for (size_t i = 0; i + lp <= ls; i++)
		if (!strncasecmp(s + i, pattern, lp))
			return true;
	return false;
}

struct events_listing {
	FILE *f;
	const char *pattern;
	size_t n;
};

static void events_list_one(const pfm_pmu_info_t *pi, const pfm_event_info_t *ei, void *arg)
{
	struct events_listing *ls = arg;
	char full[256];

	snprintf(full, sizeof(full), "%s::%s", pi->name, ei->name);
	if (!events_match(full, ls->pattern) &&
	    !events_match(ei->desc ? ei->desc : "", ls->pattern))
		return;
	fprintf(ls->f, "%-48s %s\n", full, ei->desc ? ei->desc : "");
	ls->n++;
}

size_t events_list(FILE *f, const char *pattern)
{
	struct events_listing ls = { f, pattern, 0 };

	events_each(true, events_list_one, &ls);
	return ls.n;
}

const char *events_hw_pmu(int *counters)
{
	pfm_pmu_t p;

	pfm_for_all_pmus (p) {
		pfm_pmu_info_t pi;

		if (!events_pmu_info(p, &pi) || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		if (counters)
			*counters = pi.num_cntrs;
		return pi.name;
	}
	return NULL;
}
