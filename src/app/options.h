/* Command-line options: argv to struct options, with no side effects. */
#ifndef PMCTOP_OPTIONS_H
#define PMCTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "collect/source_live.h"
#include "out/output.h"

/* --record-size: the default bound, and the range a bound may take (0 aside) */
#define OPTIONS_RECORD_SIZE (1ull << 30)
#define OPTIONS_RECORD_SIZE_MIN (1ull << 10)
#define OPTIONS_RECORD_SIZE_MAX (1ull << 40)

struct options {
	bool batch;
	long iterations; /* -1: until stopped */
	double delay;	 /* seconds between frames */
	bool delay_set;
	int *pids;
	size_t npids;
	char *user;
	char *sort;
	bool sort_reverse;
	enum output_format format;
	bool cmdline;
	bool threads;	     /* -H: threads as rows */
	bool kernel_threads; /* --kernel-threads: list kernel threads too */
	bool per_user;	     /* --per-user: batch rows are per-user totals */
	char **events;	     /* -e names, split at commas */
	size_t nevents;
	bool list_events;
	char *list_pattern;
	char *record;
	/* --record-size: the bound past which the recording rotates (0: none) */
	unsigned long long record_size;
	char *replay;
	char *proc_root; /* --proc-root, for tests */
	bool no_cpus;
	bool bpf;      /* --bpf: --task-counts=bpf by its older name */
	bool read_all; /* --read-all: no skipping of processes that did not run */
	/* --task-counts: process counts by BPF, from /proc or per-task events (default auto) */
	enum live_task_counts task_counts;
	bool task_counts_set;
	unsigned
		hw_top; /* --hw-top K: hardware events for the K busiest processes; 0: all that fit */
	bool no_mouse;	     /* --no-mouse: the terminal keeps its own mouse (text selection) */
	int sample_pid;	     /* --sample: 0 when not sampling */
	char *sample_source; /* auto, pebs, ibs, faults */
	unsigned long long sample_period; /* 0: the source's default */
	unsigned page_shift;		  /* 12 or 21 */
	double halflife;
	long top;	       /* pages per frame */
	char *listen;	       /* --listen [ADDR:]PORT: serve /metrics; NULL for none */
	long export_processes; /* --export-processes K: per-process series; 0 for none */
	bool cgroups;	     /* --cgroups: cgroup rows (the view; headless: instead of processes) */
	char **cgroup_paths; /* --cgroup PATH, repeatable: also count these cgroups */
	size_t ncgroup_paths;
	int cgroup_depth; /* --cgroup-depth N: levels of the hierarchy counted (default 1) */
	bool cgroup_depth_set;
	char *cgroup_filter; /* --cgroup-filter PATH: only processes in PATH or below */
	char *columns;	     /* --columns LIST: the table's columns, over the settings file's */
	char *config;	     /* --config FILE: the settings file instead of the usual one */
	bool no_config;	     /* --no-config: read and write no settings file */
	/* -- CMD [ARGS]: run CMD and watch it and its children; NULL-terminated, NULL for none */
	char **command;
	size_t ncommand;
	bool help;
	bool version;
};

/*
 * Parse argv into o (initialised here). Returns 0, or -EINVAL with a
 * one-line message naming the bad input in err. Owns its strings; release
 * with options_release.
 */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errsize);
void options_release(struct options *o);
/* Print the --help text. */
void options_usage(FILE *f);
/* Whether the options ask for cgroups (--cgroups, --cgroup, --cgroup-depth, --cgroup-filter). */
bool options_cgroups_asked(const struct options *o);
/* Parse a comma-separated pid list; 0 or -EINVAL (message in err). Pure. */
int options_parse_pids(const char *s, int **pids, size_t *n, char *err, size_t errsize);

#endif
