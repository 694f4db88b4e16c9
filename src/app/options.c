/* argv -> struct options; every bad value gets a message naming it. */
#include "config.h"
#include "app/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/cgroupfs.h"
#include "model/columns.h"
#include "out/exporter.h"
#include "util/parse.h"
#include "util/xalloc.h"

enum {
	OPT_LIST_EVENTS = 256,
	OPT_RECORD,
	OPT_RECORD_SIZE,
	OPT_REPLAY,
	OPT_PROC_ROOT,
	OPT_NO_CPUS,
	OPT_READ_ALL,
	OPT_SAMPLE,
	OPT_SAMPLE_SOURCE,
	OPT_SAMPLE_PERIOD,
	OPT_PAGE_SIZE,
	OPT_HALF_LIFE,
	OPT_TOP,
	OPT_LISTEN,
	OPT_EXPORT_PROCESSES,
	OPT_CGROUPS,
	OPT_CGROUP,
	OPT_CGROUP_DEPTH,
	OPT_CGROUP_FILTER,
	OPT_NO_MOUSE,
	OPT_KERNEL_THREADS,
	OPT_PER_USER,
	OPT_BPF,
	OPT_HW_TOP,
	OPT_TASK_COUNTS,
	OPT_CONFIG,
	OPT_NO_CONFIG,
	OPT_COLUMNS,
};

static const struct option OPTIONS_LONG[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "pid", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'u' },
	{ "sort", required_argument, NULL, 's' },
	{ "reverse", no_argument, NULL, 'r' },
	{ "output", required_argument, NULL, 'o' },
	{ "events", required_argument, NULL, 'e' },
	{ "cmdline", no_argument, NULL, 'c' },
	{ "threads", no_argument, NULL, 'H' },
	{ "kernel-threads", no_argument, NULL, OPT_KERNEL_THREADS },
	{ "per-user", no_argument, NULL, OPT_PER_USER },
	{ "bpf", no_argument, NULL, OPT_BPF },
	{ "list-events", optional_argument, NULL, OPT_LIST_EVENTS },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "record-size", required_argument, NULL, OPT_RECORD_SIZE },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "proc-root", required_argument, NULL, OPT_PROC_ROOT },
	{ "no-cpus", no_argument, NULL, OPT_NO_CPUS },
	{ "read-all", no_argument, NULL, OPT_READ_ALL },
	{ "hw-top", required_argument, NULL, OPT_HW_TOP },
	{ "task-counts", required_argument, NULL, OPT_TASK_COUNTS },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "sample-source", required_argument, NULL, OPT_SAMPLE_SOURCE },
	{ "sample-period", required_argument, NULL, OPT_SAMPLE_PERIOD },
	{ "page-size", required_argument, NULL, OPT_PAGE_SIZE },
	{ "half-life", required_argument, NULL, OPT_HALF_LIFE },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "export-processes", required_argument, NULL, OPT_EXPORT_PROCESSES },
	{ "cgroups", no_argument, NULL, OPT_CGROUPS },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "cgroup-depth", required_argument, NULL, OPT_CGROUP_DEPTH },
	{ "cgroup-filter", required_argument, NULL, OPT_CGROUP_FILTER },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *f)
{
	fputs("Usage: pmctop [OPTION]...\n"
	      "   or: pmctop [OPTION]... -- COMMAND [ARG]...\n"
	      "Show hardware performance counters per process and per core, like top.\n"
	      "With COMMAND: run it, show it and its children while it runs, then print a\n"
	      "summary of its whole run as perf stat does (to standard error; to standard\n"
	      "output with -b in text) and exit with its status (128+N when killed by\n"
	      "signal N, 127 when it cannot be found, 126 when it cannot be run).\n"
	      "\n"
	      "  -b, --batch             print frames as text instead of the screen\n"
	      "  -n, --iterations N      stop after N frames (-b -n 1: one frame, counted over 0.2 "
	      "s)\n"
	      "  -d, --delay SECONDS     time between frames (default 1; 0 replays at full speed)\n"
	      "  -p, --pid PID[,PID...]  only these processes\n"
	      "  -u, --user USER         only processes of USER (name or uid)\n"
	      "  -s, --sort COLUMN       sort by COLUMN: pid, user, threads, state, nice, virt,\n"
	      "                          res, shr, mem, cputime, lastcpu, cpu, ghz, ipc, cpi,\n"
	      "                          cache, l1d, dtlb, brmis, pf, cs, mig, counted, cgroup,\n"
	      "                          command, or an -e event name (default cpu)\n"
	      "  -r, --reverse           reverse the sort order\n"
	      "  -o, --output FORMAT     batch format: text, csv or json (JSON Lines)\n"
	      "  -e, --events LIST       also count these events (comma-separated perf or libpfm4\n"
	      "                          names, e.g. cycles, LLC-load-misses, alignment-faults,\n"
	      "                          MEM_INST_RETIRED:ALL_LOADS:u, perf's modifiers u, k, p,\n"
	      "                          pp, ppp (page-faults:p, cycles:upp), tracepoints\n"
	      "                          (sched:sched_switch: kernel mode, root or CAP_PERFMON),\n"
	      "                          or PMU/TERMS/ from sysfs, e.g. cpu/event=0xc0,umask=0/);\n"
	      "                          per second on the screen and in text, counts per\n"
	      "                          interval in CSV and JSON\n"
	      "  -c, --cmdline           show command lines instead of names\n"
	      "  -H, --threads           show threads as rows, each counted on its own\n"
	      "      --kernel-threads    list kernel threads too (key K); counted only where\n"
	      "                          kernel mode may be counted (root, CAP_PERFMON)\n"
	      "      --per-user          batch: one row per user, the totals of their processes\n"
	      "                          (ratios from the summed counts; key W on the screen)\n"
	      "      --list-events[=PAT] list the events, each once, grouped as perf list does\n"
	      "                          (tracepoints only with PAT), and exit\n"
	      "      --record FILE       also write what is collected to FILE (mode 0600: it\n"
	      "                          holds every command line); a symbolic link another\n"
	      "                          user owns in a sticky directory such as /tmp, a FIFO\n"
	      "                          or anything but a regular file is refused\n"
	      "      --record-size SIZE  past SIZE bytes (K, M or G suffix; default 1G, 0 for\n"
	      "                          no bound) FILE becomes FILE.1, replacing the one\n"
	      "                          before, and a new FILE starts: each replays alone\n"
	      "      --replay FILE       show a recording instead of live data\n"
	      "      --no-cpus           do not open per-core counters\n"
	      "      --task-counts WAY   how processes and threads are counted: bpf (a BPF\n"
	      "                          program sums per-CPU counters at each context switch:\n"
	      "                          root or CAP_BPF+CAP_PERFMON, at most 16 events; where\n"
	      "                          it cannot load, says why and uses perf), proc (the\n"
	      "                          kernel's own counts in /proc: software events only,\n"
	      "                          no perf permission needed), perf (per-task perf\n"
	      "                          events) or auto (default: bpf where permitted and\n"
	      "                          loadable, else proc when /proc keeps every event\n"
	      "                          counted, else perf; the log says why)\n"
	      "      --bpf               the same as --task-counts=bpf\n"
	      "      --read-all          read every process every tick, also those that did\n"
	      "                          not run, and every thread of a big process\n"
	      "                          (nothing estimated)\n"
	      "      --hw-top K          hardware events for the K busiest processes only (by\n"
	      "                          CPU time); the rest count software events (default:\n"
	      "                          all, or the busiest that fit the descriptors)\n"
	      "      --no-mouse          leave the mouse to the terminal (clicks do not sort or\n"
	      "                          select)\n"
	      "      --proc-root DIR     read processes from DIR instead of /proc (for tests)\n"
	      "      --sample PID        sample PID's data addresses; with -b, print its hot "
	      "pages\n"
	      "      --sample-source SRC auto (default), pebs, ibs or faults\n"
	      "      --sample-period N   events per sample (default: 1 fault, 10007 PEBS events)\n"
	      "      --page-size SIZE    hot-page size: 4k (default) or 2m\n"
	      "      --half-life SECONDS how fast old samples fade from the histogram (default 2)\n"
	      "      --top N             hot pages per batch frame (default 20)\n"
	      "      --listen [ADDR:]PORT serve /metrics for Prometheus on ADDR (default\n"
	      "                          127.0.0.1; [::1]:PORT for IPv6), with no terminal\n"
	      "      --export-processes K with --listen, also the top K processes by CPU\n"
	      "      --cgroups           one row per cgroup (v2), counted per cgroup: the\n"
	      "                          screen starts in the cgroup view (key G); with -b or\n"
	      "                          --listen cgroups are counted instead of processes\n"
	      "      --cgroup PATH       also count the cgroup PATH (below the hierarchy, e.g.\n"
	      "                          /system.slice/ssh.service); repeatable\n"
	      "      --cgroup-depth N    count the cgroups down to N levels below the root\n"
	      "                          (default 1: the top-level ones; 0: only --cgroup)\n"
	      "      --cgroup-filter PATH only processes in the cgroup PATH or below it\n"
	      "      --config FILE       the settings file to read, and to write from the setup\n"
	      "                          (F2), instead of $XDG_CONFIG_HOME/pmctop/pmctoprc\n"
	      "                          (default ~/.config/pmctop/pmctoprc)\n"
	      "      --no-config         read no settings file (the setup writes none)\n"
	      "      --columns LIST      the table's columns, in order (e.g.\n"
	      "                          pid,user,nice,virt,res,shr,lastcpu,cpu,ipc,command;\n"
	      "                          default: all but nice, virt, shr, lastcpu); over the\n"
	      "                          settings file\n"
	      "  -h, --help              show this help and exit\n"
	      "  -V, --version           show the version and exit\n"
	      "\n"
	      "Exit status: 0 success, 1 runtime failure, 2 bad usage; with COMMAND, its own.\n",
	      f);
}

static void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->iterations = -1;
	o->delay = 1.0;
	o->format = OUTPUT_TEXT;
	o->page_shift = 12;
	o->halflife = 2.0;
	o->top = 20;
	o->cgroup_depth = 1;
	o->task_counts = LIVE_COUNTS_AUTO; /* BPF where permitted, else /proc, else perf */
	o->record_size = OPTIONS_RECORD_SIZE;
}

/* SIZE of --record-size: bytes with an optional K, M or G (powers of 1024); 0 or -EINVAL. */
static int options_size(const char *v, unsigned long long *out)
{
	unsigned long long n, mul = 1;
	char *end;

	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == 'k' || *end == 'K')
		mul = 1ull << 10;
	else if (*end == 'm' || *end == 'M')
		mul = 1ull << 20;
	else if (*end == 'g' || *end == 'G')
		mul = 1ull << 30;
	if (mul > 1)
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || n > OPTIONS_RECORD_SIZE_MAX / mul || (n && n * mul < OPTIONS_RECORD_SIZE_MIN))
		return -EINVAL;
	*out = n * mul;
	return 0;
}

bool options_cgroups_asked(const struct options *o)
{
	return o->cgroups || o->ncgroup_paths || o->cgroup_depth_set || o->cgroup_filter;
}

/* A cgroup path for opt: "/a/b", "a/b" or one under the mount point; 0 or -EINVAL with err. */
static int options_cgroup_path(const char *opt, const char *v, char *err, size_t errsize)
{
	char path[CGROUPFS_PATH_MAX];
	int r = cgroupfs_normalize(NULL, v, path, sizeof(path));

	if (r == -ENAMETOOLONG)
		snprintf(err, errsize,
			 "cgroup path '%.64s...' for %s is too long (%d bytes at most)", v, opt,
			 CGROUPFS_PATH_MAX - 1);
	else if (r)
		snprintf(err, errsize,
			 "invalid cgroup path '%s' for %s: give a path such as /system.slice or "
			 "/sys/fs/cgroup/system.slice, without '.' or '..'",
			 v, opt);
	return r ? -EINVAL : 0;
}

void options_release(struct options *o)
{
	for (size_t i = 0; i < o->ncommand; i++)
		free(o->command[i]);
	free(o->command);
	free(o->pids);
	free(o->user);
	free(o->sort);
	for (size_t i = 0; i < o->nevents; i++)
		free(o->events[i]);
	free(o->events);
	free(o->list_pattern);
	free(o->record);
	free(o->replay);
	free(o->proc_root);
	free(o->sample_source);
	free(o->listen);
	for (size_t i = 0; i < o->ncgroup_paths; i++)
		free(o->cgroup_paths[i]);
	free(o->cgroup_paths);
	free(o->cgroup_filter);
	free(o->columns);
	free(o->config);
	options_init(o);
}

int options_parse_pids(const char *s, int **pids, size_t *n, char *err, size_t errsize)
{
	const char *p = s;
	size_t cap = 0;

	*n = 0;
	if (!*s) {
		snprintf(err, errsize, "'-p' needs a pid list such as '1234' or '1234,5678'");
		return -EINVAL;
	}
	while (*p) {
		const char *end;
		int v;

		if (parse_pid(p, &end, &v) || (*end && *end != ',')) {
			snprintf(err, errsize,
				 "invalid pid in '%s': give positive numbers separated by commas",
				 s);
			free(*pids);
			*pids = NULL;
			*n = 0;
			return -EINVAL;
		}
		*pids = xgrow(*pids, &cap, *n + 1, sizeof(**pids));
		(*pids)[(*n)++] = v;
		p = *end ? end + 1 : end;
		if (*end == ',' && !*p) {
			snprintf(err, errsize, "invalid pid list '%s': it ends with a comma", s);
			free(*pids);
			*pids = NULL;
			*n = 0;
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The length of the first event of a comma-separated list; the commas
 * between the slashes of a PMU/TERMS/ event (cpu/event=0xc0,umask=1/)
 * are its own.
 */
static size_t options_event_len(const char *p)
{
	size_t len = strcspn(p, ",/");

	if (p[len] == '/' && len > 0) {
		const char *close = strchr(p + len + 1, '/');

		if (close)
			return (size_t)(close + 1 - p) + strcspn(close + 1, ",");
	}
	return strcspn(p, ",");
}

static int options_events(struct options *o, const char *list, char *err, size_t errsize)
{
	const char *p = list;

	if (!*list) {
		snprintf(err, errsize, "'-e' needs an event list such as 'cycles,instructions'");
		return -EINVAL;
	}
	while (*p) {
		size_t len = options_event_len(p);

		if (len == 0) {
			snprintf(err, errsize, "empty event name in '%s'", list);
			return -EINVAL;
		}
		if (o->nevents >= 64) {
			snprintf(err, errsize, "too many events in '-e' (64 at most)");
			return -EINVAL;
		}
		o->events = xrealloc(o->events, (o->nevents + 1) * sizeof(*o->events));
		o->events[o->nevents++] = xstrndup(p, len);
		p += len;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errsize, "event list '%s' ends with a comma", list);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * Check a --columns list: every name a column (key or title), none twice, at
 * least one. 0, or -EINVAL with the sentence in err naming the bad column and
 * the good ones.
 */
static int options_columns(const char *list, char *err, size_t errsize)
{
	struct col_choice cc;
	char bad[64], keys[512];
	bool any = false;

	columns_keys(keys, sizeof(keys), false);
	if (columns_choice_parse(&cc, list, bad, sizeof(bad))) {
		if (columns_find(bad))
			snprintf(err, errsize,
				 "column '%s' is given twice in --columns: name each once", bad);
		else
			snprintf(err, errsize, "unknown column '%s' for --columns: use %s", bad,
				 keys);
		return -EINVAL;
	}
	for (const char *p = list; *p && !any; p++)
		any = *p != ',' && *p != ' ' && *p != '\t';
	if (!any) {
		snprintf(err, errsize, "'--columns' needs at least one column: use %s", keys);
		return -EINVAL;
	}
	return 0;
}

static void options_set(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errsize)
{
	const char *delay_arg = NULL;
	bool record_size_set = false;
	int c;

	options_init(o);
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-scanned "-abc" */
	/* '+': the first word that is not an option ends them, so a command keeps its own */
	while ((c = getopt_long(argc, argv, "+:bn:d:p:u:s:ro:e:cHhV", OPTIONS_LONG, NULL)) != -1) {
		char *end;
		const char *pend;
		long depth;

		switch (c) {
		case 'b':
			o->batch = true;
			break;
		case 'n':
			errno = 0;
			o->iterations = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || o->iterations <= 0) {
				snprintf(err, errsize,
					 "invalid frame count '%s' for -n: give a positive whole "
					 "number",
					 optarg);
				return -EINVAL;
			}
			break;
		case 'd':
			delay_arg = optarg;
			break;
		case 'p':
			free(o->pids);
			o->pids = NULL;
			if (options_parse_pids(optarg, &o->pids, &o->npids, err, errsize))
				return -EINVAL;
			break;
		case 'u':
			if (!*optarg) {
				snprintf(err, errsize, "'-u' needs a user name or uid");
				return -EINVAL;
			}
			options_set(&o->user, optarg);
			break;
		case 's':
			options_set(&o->sort, optarg);
			break;
		case 'r':
			o->sort_reverse = true;
			break;
		case 'o':
			if (output_parse_format(optarg, &o->format)) {
				snprintf(err, errsize,
					 "unknown output format '%s': use text, csv or json",
					 optarg);
				return -EINVAL;
			}
			break;
		case 'e':
			if (options_events(o, optarg, err, errsize))
				return -EINVAL;
			break;
		case 'c':
			o->cmdline = true;
			break;
		case 'H':
			o->threads = true;
			break;
		case OPT_KERNEL_THREADS:
			o->kernel_threads = true;
			break;
		case OPT_PER_USER:
			o->per_user = true;
			break;
		case OPT_BPF:
			o->bpf = true;
			break;
		case OPT_LIST_EVENTS:
			o->list_events = true;
			/* accept "--list-events PATTERN" as well as "--list-events=PATTERN" */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			if (optarg)
				options_set(&o->list_pattern, optarg);
			break;
		case OPT_RECORD:
			options_set(&o->record, optarg);
			break;
		case OPT_RECORD_SIZE:
			if (options_size(optarg, &o->record_size)) {
				snprintf(
					err, errsize,
					"invalid recording size '%s': give bytes from 1K to 1024G "
					"with an optional K, M or G (e.g. 100M), or 0 for no bound",
					optarg);
				return -EINVAL;
			}
			record_size_set = true;
			break;
		case OPT_REPLAY:
			options_set(&o->replay, optarg);
			break;
		case OPT_PROC_ROOT:
			options_set(&o->proc_root, optarg);
			break;
		case OPT_NO_CPUS:
			o->no_cpus = true;
			break;
		case OPT_READ_ALL:
			o->read_all = true;
			break;
		case OPT_NO_MOUSE:
			o->no_mouse = true;
			break;
		case OPT_SAMPLE:
			if (parse_pid(optarg, &pend, &o->sample_pid) || *pend) {
				snprintf(err, errsize,
					 "invalid pid '%s' for --sample: give one process id",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_SAMPLE_SOURCE:
			if (strcmp(optarg, "auto") && strcmp(optarg, "pebs") &&
			    strcmp(optarg, "ibs") && strcmp(optarg, "faults")) {
				snprintf(
					err, errsize,
					"unknown sample source '%s': use auto, pebs, ibs or faults",
					optarg);
				return -EINVAL;
			}
			options_set(&o->sample_source, optarg);
			break;
		case OPT_SAMPLE_PERIOD:
			errno = 0;
			o->sample_period = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || !o->sample_period ||
			    optarg[0] == '-' || o->sample_period > 1000000000ull) {
				snprintf(err, errsize,
					 "invalid sample period '%s': give a whole number from 1 "
					 "to 1000000000",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_PAGE_SIZE:
			if (!strcasecmp(optarg, "4k")) {
				o->page_shift = 12;
			} else if (!strcasecmp(optarg, "2m")) {
				o->page_shift = 21;
			} else {
				snprintf(err, errsize, "unknown page size '%s': use 4k or 2m",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_HALF_LIFE:
			errno = 0;
			o->halflife = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(o->halflife >= 0.1) ||
			    o->halflife > 3600) {
				snprintf(err, errsize,
					 "invalid half-life '%s': give seconds from 0.1 to 3600",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_TOP:
			errno = 0;
			o->top = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || o->top <= 0 || o->top > 256) {
				snprintf(err, errsize,
					 "invalid page count '%s' for --top: give 1 to 256",
					 optarg);
				return -EINVAL;
			}
			break;
		case OPT_LISTEN: {
			struct sockaddr_storage ss;
			socklen_t len;

			if (exporter_parse_listen(optarg, &ss, &len, err, errsize))
				return -EINVAL;
			options_set(&o->listen, optarg);
			break;
		}
		case OPT_EXPORT_PROCESSES:
			errno = 0;
			o->export_processes = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || o->export_processes <= 0 ||
			    o->export_processes > 1000) {
				snprintf(
					err, errsize,
					"invalid process count '%s' for --export-processes: give 1 "
					"to 1000",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_CGROUPS:
			o->cgroups = true;
			break;
		case OPT_CGROUP:
			if (options_cgroup_path("--cgroup", optarg, err, errsize))
				return -EINVAL;
			if (o->ncgroup_paths >= 256) {
				snprintf(err, errsize, "too many '--cgroup' options (256 at most)");
				return -EINVAL;
			}
			o->cgroup_paths = xrealloc(
				o->cgroup_paths, (o->ncgroup_paths + 1) * sizeof(*o->cgroup_paths));
			o->cgroup_paths[o->ncgroup_paths++] = xstrdup(optarg);
			break;
		case OPT_HW_TOP:
			errno = 0;
			depth = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || depth < 1 || depth > 1000000) {
				snprintf(err, errsize,
					 "invalid process count '%s' for --hw-top: give 1 to "
					 "1000000",
					 optarg);
				return -EINVAL;
			}
			o->hw_top = (unsigned)depth;
			break;
		case OPT_TASK_COUNTS:
			if (!strcmp(optarg, "auto")) {
				o->task_counts = LIVE_COUNTS_AUTO;
			} else if (!strcmp(optarg, "proc")) {
				o->task_counts = LIVE_COUNTS_PROC;
			} else if (!strcmp(optarg, "perf")) {
				o->task_counts = LIVE_COUNTS_PERF;
			} else if (!strcmp(optarg, "bpf")) {
				o->task_counts = LIVE_COUNTS_BPF;
			} else {
				snprintf(err, errsize,
					 "invalid value '%s' for --task-counts: give auto, bpf, "
					 "proc "
					 "or perf",
					 optarg);
				return -EINVAL;
			}
			o->task_counts_set = true;
			break;
		case OPT_CGROUP_DEPTH:
			errno = 0;
			depth = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || depth < 0 ||
			    depth > CGROUPFS_DEPTH_MAX) {
				snprintf(err, errsize,
					 "invalid depth '%s' for --cgroup-depth: give 0 to %d",
					 optarg, CGROUPFS_DEPTH_MAX);
				return -EINVAL;
			}
			o->cgroup_depth = (int)depth;
			o->cgroup_depth_set = true;
			break;
		case OPT_CGROUP_FILTER:
			if (options_cgroup_path("--cgroup-filter", optarg, err, errsize))
				return -EINVAL;
			options_set(&o->cgroup_filter, optarg);
			break;
		case OPT_CONFIG:
			if (!*optarg) {
				snprintf(err, errsize, "'--config' needs a file name");
				return -EINVAL;
			}
			options_set(&o->config, optarg);
			break;
		case OPT_NO_CONFIG:
			o->no_config = true;
			break;
		case OPT_COLUMNS:
			if (options_columns(optarg, err, errsize))
				return -EINVAL;
			options_set(&o->columns, optarg);
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			if (optopt)
				snprintf(err, errsize, "option '-%c' needs a value", optopt);
			else
				snprintf(err, errsize, "option '%s' needs a value",
					 argv[optind - 1]);
			return -EINVAL;
		default: {
			const char *tok = argv[optind - 1], *eq = strchr(tok, '=');

			/* "--no-mouse=1": a known long option given a value it does not take */
			for (size_t i = 0; eq && !strncmp(tok, "--", 2) && OPTIONS_LONG[i].name;
			     i++)
				if (strlen(OPTIONS_LONG[i].name) == (size_t)(eq - tok - 2) &&
				    !strncmp(OPTIONS_LONG[i].name, tok + 2,
					     (size_t)(eq - tok - 2))) {
					snprintf(err, errsize,
						 "option '--%s' takes no value: drop '%s'",
						 OPTIONS_LONG[i].name, eq);
					return -EINVAL;
				}
			if (optopt > 0 && optopt < 0x80 && isalnum(optopt))
				snprintf(err, errsize, "unknown option '-%c'", optopt);
			else
				snprintf(err, errsize, "unknown option '%s'", tok);
			return -EINVAL;
		}
		}
	}
	if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		if (optind == argc) {
			snprintf(err, errsize, "'--' must be followed by a command to run");
			return -EINVAL;
		}
		o->ncommand = (size_t)(argc - optind);
		o->command = xcalloc(o->ncommand + 1, sizeof(*o->command));
		for (size_t i = 0; i < o->ncommand; i++)
			o->command[i] = xstrdup(argv[optind + (int)i]);
		optind = argc;
	}
	if (optind < argc) {
		snprintf(err, errsize,
			 "unexpected argument '%s': a command to run comes after '--'",
			 argv[optind]);
		return -EINVAL;
	}
	if (o->command && (o->npids || o->replay || o->listen || o->sample_pid)) {
		snprintf(err, errsize,
			 "a command to run watches its own processes: it cannot be used with '%s'",
			 o->npids    ? "-p"
			 : o->replay ? "--replay"
			 : o->listen ? "--listen"
				     : "--sample");
		return -EINVAL;
	}
	if (o->per_user && (o->threads || o->sample_pid)) {
		snprintf(err, errsize, "'--per-user' sums processes: it cannot be used with '%s'",
			 o->threads ? "-H" : "--sample");
		return -EINVAL;
	}
	if (o->bpf && o->replay) {
		snprintf(err, errsize,
			 "'--bpf' is a way of counting live: it cannot be used with '--replay'");
		return -EINVAL;
	}
	if (o->bpf && o->task_counts_set && o->task_counts != LIVE_COUNTS_BPF &&
	    o->task_counts != LIVE_COUNTS_AUTO) {
		snprintf(err, errsize,
			 "'--bpf' is '--task-counts=bpf', and '--task-counts' asks for another way "
			 "of counting processes: give one");
		return -EINVAL;
	}
	if (o->bpf)
		o->task_counts = LIVE_COUNTS_BPF;
	if (o->task_counts_set && o->replay) {
		snprintf(err, errsize,
			 "'--task-counts' is a way of counting live: it cannot be used "
			 "with '--replay'");
		return -EINVAL;
	}
	if (o->config && o->no_config) {
		snprintf(err, errsize,
			 "'--config' and '--no-config' contradict each other: give one");
		return -EINVAL;
	}
	if (record_size_set && !o->record) {
		snprintf(err, errsize,
			 "'--record-size' bounds a recording: it needs '--record FILE'");
		return -EINVAL;
	}
	if (o->export_processes && !o->listen) {
		snprintf(err, errsize, "'--export-processes' needs '--listen'");
		return -EINVAL;
	}
	if (delay_arg) {
		if (parse_delay(delay_arg, o->replay != NULL, &o->delay)) {
			snprintf(err, errsize,
				 "invalid delay '%s' for -d: give seconds from 0.01 to 86400%s",
				 delay_arg, o->replay ? " (or 0 to replay at full speed)" : "");
			return -EINVAL;
		}
		o->delay_set = true;
	}
	return 0;
}
