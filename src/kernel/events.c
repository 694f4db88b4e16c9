/* libpfm4 wrapper: the only file that includes <perfmon/...>. */
#include "config.h"
#include "kernel/events.h"

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
	"alignment-faults",
	"emulation-faults",
};

/* perf's generic events, as `perf list` names and groups them: the name, another spelling */
struct events_generic {
	const char *name, *alias;
	uint32_t type;
	uint64_t config;
};

static const struct events_generic EVENTS_HARDWARE[] = {
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

static const struct events_generic EVENTS_SOFTWARE[] = {
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	/* libpfm4 4.13 knows neither of these two */
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	/* PERF_COUNT_SW_CGROUP_SWITCHES: Linux 5.13, newer than the oldest header pmctop takes */
	{ "cgroup-switches", NULL, PERF_TYPE_SOFTWARE, 11 },
};

/* perf's cache names and the operations its table gives each (bit = PERF_COUNT_HW_CACHE_OP_*) */
static const struct {
	const char *name;
	unsigned id, ops;
} EVENTS_CACHES[] = {
	{ "L1-dcache", PERF_COUNT_HW_CACHE_L1D, 7 }, { "L1-icache", PERF_COUNT_HW_CACHE_L1I, 5 },
	{ "LLC", PERF_COUNT_HW_CACHE_LL, 7 },	     { "dTLB", PERF_COUNT_HW_CACHE_DTLB, 7 },
	{ "iTLB", PERF_COUNT_HW_CACHE_ITLB, 1 },     { "branch", PERF_COUNT_HW_CACHE_BPU, 1 },
	{ "node", PERF_COUNT_HW_CACHE_NODE, 7 },
};

static const char *const EVENTS_CACHE_OPS[][2] = {
	{ "loads", "load-misses" },
	{ "stores", "store-misses" },
	{ "prefetches", "prefetch-misses" },
};

#define EVENTS_N(t) (sizeof(t) / sizeof((t)[0]))

int events_init(void)
{
	return pfm_initialize() == PFM_SUCCESS ? 0 : -EIO;
}

void events_fini(void)
{
	pfm_terminate();
}

/* libpfm4's encoding of name at privilege levels plm into attr; 0, -ENOENT or -EINVAL. */
static int events_pfm(const char *name, int plm, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	switch (pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT_EXT, &arg)) {
	case PFM_SUCCESS:
		return 0;
	case PFM_ERR_NOTFOUND:
	case PFM_ERR_NOTSUPP:
		return -ENOENT;
	default:
		return -EINVAL;
	}
}

/* Call cb for every generic event of perf (hardware, software, then cache); stop at true. */
typedef bool (*events_generic_cb)(const struct events_generic *g, const char *section, void *arg);

static bool events_each_generic(events_generic_cb cb, void *arg)
{
	for (size_t i = 0; i < EVENTS_N(EVENTS_HARDWARE); i++)
		if (cb(&EVENTS_HARDWARE[i], "Hardware events", arg))
			return true;
	for (size_t i = 0; i < EVENTS_N(EVENTS_SOFTWARE); i++)
		if (cb(&EVENTS_SOFTWARE[i], "Software events", arg))
			return true;
	for (size_t c = 0; c < EVENTS_N(EVENTS_CACHES); c++)
		for (unsigned op = 0; op < 3; op++)
			for (unsigned miss = 0; miss < 2; miss++) {
				char name[64];
				struct events_generic g;

				if (!(EVENTS_CACHES[c].ops & (1u << op)))
					continue;
				snprintf(name, sizeof(name), "%s-%s", EVENTS_CACHES[c].name,
					 EVENTS_CACHE_OPS[op][miss]);
				g.name = name;
				g.alias = NULL;
				g.type = PERF_TYPE_HW_CACHE;
				g.config = EVENTS_CACHES[c].id | op << 8 | miss << 16;
				if (cb(&g, "Hardware cache events", arg))
					return true;
			}
	return false;
}

struct events_finding {
	const char *name;
	struct events_generic found;
};

static bool events_find_one(const struct events_generic *g, const char *section, void *arg)
{
	struct events_finding *f = arg;

	(void)section;
	if (strcasecmp(g->name, f->name) && (!g->alias || strcasecmp(g->alias, f->name)))
		return false;
	f->found = *g;
	return true;
}

/* perf's generic event spelled name (with or without "perf::") into attr; 0 or -ENOENT. */
static int events_generic(const char *name, int plm, struct perf_event_attr *attr)
{
	struct events_finding f = { name, { NULL, NULL, 0, 0 } };

	if (!strncasecmp(f.name, "perf::", 6))
		f.name += 6;
	if (!events_each_generic(events_find_one, &f))
		return -ENOENT;
	memset(attr, 0, sizeof(*attr));
	attr->type = f.found.type;
	attr->config = f.found.config;
	/* as libpfm4 sets them for its own perf events */
	attr->exclude_user = !(plm & PFM_PLM3);
	attr->exclude_kernel = !(plm & PFM_PLM0);
	attr->exclude_hv = !(plm & PFM_PLMH);
	return 0;
}

/*
 * perf's modifier string ("u", "k", "uk", "p", "pp", "ppp", "upp") into the
 * privilege levels *plm (unchanged when it names none) and *precise. false
 * when s is not one.
 */
static bool events_perf_mods(const char *s, int *plm, unsigned *precise)
{
	int levels = 0;
	unsigned p = 0;

	if (!*s || s[strspn(s, "ukhp")])
		return false;
	for (; *s; s++) {
		if (*s == 'p')
			p++;
		else
			levels |= *s == 'u' ? PFM_PLM3 : *s == 'k' ? PFM_PLM0 : PFM_PLMH;
	}
	if (p > 3)
		return false;
	if (levels)
		*plm = levels;
	*precise = p;
	return true;
}

int events_encode(const char *name, bool kernel, struct perf_event_attr *attr, bool *hw)
{
	int plm = PFM_PLM3 | (kernel ? PFM_PLM0 : 0);
	const char *colon;
	char base[256];
	unsigned precise = 0;
	int r;

	if (!name || !*name)
		return -ENOENT;
	r = events_pfm(name, plm, attr);
	if (r) {
		/*
		 * perf's spellings libpfm4 does not take: its generic events
		 * libpfm4 lacks, and its modifiers after one colon ("page-faults:p",
		 * "cycles:upp"); libpfm4's own (":u", ":k") have been tried above
		 */
		colon = strrchr(name, ':');
		if (colon && colon > name && colon[-1] != ':' &&
		    (size_t)(colon - name) < sizeof(base) &&
		    events_perf_mods(colon + 1, &plm, &precise)) {
			memcpy(base, name, (size_t)(colon - name));
			base[colon - name] = '\0';
		} else {
			/* a known event with a modifier nobody knows is invalid, not unknown */
			if (colon && (size_t)(colon - name) < sizeof(base)) {
				memcpy(base, name, (size_t)(colon - name));
				base[colon - name] = '\0';
				if (!events_pfm(base, plm, attr) ||
				    !events_generic(base, plm, attr))
					return -EINVAL;
			}
			snprintf(base, sizeof(base), "%s", name);
		}
		if (events_pfm(base, plm, attr) && events_generic(base, plm, attr))
			return r;
		/* a precise level asks the guest to be left out, as perf does */
		attr->precise_ip = precise;
		if (precise)
			attr->exclude_guest = 1;
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

bool events_match(const char *s, const char *pattern)
{
	return !pattern || !*pattern || strcasestr(s, pattern);
}

struct events_listing {
	FILE *f;
	const char *pattern;
	const char *section; /* the heading printed last */
	const char *pmu;     /* libpfm4's PMU whose heading was printed last */
	size_t n;
};

void events_list_entry(FILE *f, const char *section, const char **last, const char *name,
		       const char *desc)
{
	if (!*last || strcmp(*last, section))
		fprintf(f, "%s%s:\n", *last ? "\n" : "", section);
	*last = section;
	fprintf(f, EVENTS_LIST_FMT, name, desc);
}

static bool events_list_generic_one(const struct events_generic *g, const char *section, void *arg)
{
	struct events_listing *ls = arg;
	char name[128];

	if (!events_match(g->name, ls->pattern) &&
	    (!g->alias || !events_match(g->alias, ls->pattern)))
		return false;
	if (g->alias)
		snprintf(name, sizeof(name), "%s OR %s", g->name, g->alias);
	else
		snprintf(name, sizeof(name), "%s", g->name);
	/* perf's tag: the section's name in the singular */
	events_list_entry(ls->f, section, &ls->section, name,
			  g->type == PERF_TYPE_HARDWARE	  ? "[Hardware event]"
			  : g->type == PERF_TYPE_SOFTWARE ? "[Software event]"
							  : "[Hardware cache event]");
	ls->n++;
	return false;
}

size_t events_list_generic(FILE *f, const char *pattern, const char **last)
{
	struct events_listing ls = { f, pattern, *last, NULL, 0 };

	events_each_generic(events_list_generic_one, &ls);
	*last = ls.section;
	return ls.n;
}

static void events_list_one(const pfm_pmu_info_t *pi, const pfm_event_info_t *ei, void *arg)
{
	struct events_listing *ls = arg;
	char full[256];

	/* libpfm4's other names of one event ("This is an alias for ...") are listed once */
	if (ei->equiv)
		return;
	snprintf(full, sizeof(full), "%s::%s", pi->name, ei->name);
	if (!events_match(full, ls->pattern) &&
	    !events_match(ei->desc ? ei->desc : "", ls->pattern))
		return;
	if (!ls->pmu || strcmp(ls->pmu, pi->name)) {
		fprintf(ls->f, "%s%s events (libpfm4):\n", ls->section ? "\n" : "", pi->name);
		ls->pmu = pi->name;
		ls->section = "libpfm4";
	}
	fprintf(ls->f, EVENTS_LIST_FMT, full, ei->desc ? ei->desc : "");
	ls->n++;
}

size_t events_list_pmus(FILE *f, const char *pattern, const char **last)
{
	struct events_listing ls = { f, pattern, *last, NULL, 0 };

	/* perf's own PMUs are the generic events, listed under their perf names */
	events_each(false, events_list_one, &ls);
	*last = ls.section;
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
