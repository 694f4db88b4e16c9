/* pmctop: options -> source and view -> run the loop. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/cgroupfs.h"
#include "kernel/events.h"
#include "kernel/evspec.h"
#include "kernel/pmu.h"
#include "collect/runcount.h"
#include "stream/evlist.h"
#include "app/command.h"
#include "app/loop.h"
#include "model/model.h"
#include "app/options.h"
#include "app/rcfile.h"
#include "out/exporter.h"
#include "out/output.h"
#include "out/summary.h"
#include "stream/source_record.h"
#include "util/safefile.h"
#include "collect/source_live.h"
#include "stream/perfdata.h"
#include "stream/source_perf.h"
#include "stream/source_replay.h"
#include "util/textsafe.h"
#include "util/xalloc.h"

#define EXIT_USAGE 2
/* -- CMD that cannot be run: as a shell says it */
#define EXIT_NOT_FOUND 127
#define EXIT_NOT_EXECUTABLE 126

__attribute__((format(printf, 1, 2))) static void main_usage_error(const char *fmt, ...)
{
	va_list ap;

	char msg[2048];

	/* the message quotes the command line, which may be a file's or a cgroup's name */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	textsafe_fprintf(stderr, "pmctop: %s\nTry 'pmctop --help' for more information.\n", msg);
}

/* Counting every thread of every process takes many descriptors. */
static void main_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Build the event list: the default set, then every -e event. 0, or 2 after saying which name is bad. */
static int main_events(const struct options *o, struct evlist *ev)
{
	int sw_group = -1, hw_group = -1, hw_in = 0;

	evlist_add_defaults(ev, true);
	for (size_t i = 0; i < o->nevents; i++) {
		struct perf_event_attr attr;
		enum evspec_kind kind;
		bool hw = false;
		int r = evspec_encode(NULL, NULL, o->events[i], true, &attr, &kind, &hw);
		bool spec = kind == EVSPEC_PMU;
		int k;

		if (r && spec) {
			char msg[1024];

			textsafe_fprintf(
				stderr, "%s",
				errmsg_bad_event(msg, sizeof(msg), o->events[i], r, true, NULL, 0));
			return EXIT_USAGE;
		}
		if (spec) {
			/* a PMU's own events do not share a group with another PMU's */
			if (evlist_find(ev, o->events[i]) < 0)
				evlist_add(ev, o->events[i], ev->ngroups, true, true);
			continue;
		}
		if (r) {
			char sug[3][128], msg[1024];
			size_t ns = r == -EACCES ? 0 : events_suggest(o->events[i], sug, 3);

			textsafe_fprintf(stderr, "%s",
					 errmsg_bad_event(msg, sizeof(msg), o->events[i], r, false,
							  (const char(*)[128])sug, ns));
			return EXIT_USAGE;
		}
		k = evlist_find(ev, o->events[i]);
		if (k >= 0) {
			ev->ev[k].user = true;
			continue;
		}
		if (!hw) {
			if (sw_group < 0)
				sw_group = ev->ngroups;
			evlist_add(ev, o->events[i], sw_group, false, true);
			continue;
		}
		/* four per group fits every PMU's general counters; the probe splits further */
		if (hw_group < 0 || hw_in == 4) {
			hw_group = ev->ngroups;
			hw_in = 0;
		}
		evlist_add(ev, o->events[i], hw_group, true, true);
		hw_in++;
	}
	return 0;
}

static int main_check_user(const char *user)
{
	char *end;
	unsigned long v = strtoul(user, &end, 10);

	if (!*end && end != user && v <= 0xffffffffu)
		return 0;
	if (getpwnam(user))
		return 0;
	main_usage_error("no such user '%s': give a user name or a numeric uid", user);
	return -1;
}

static int main_check_pids(const struct options *o)
{
	const char *root = o->proc_root ? o->proc_root : "/proc";

	for (size_t i = 0; i < o->npids; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%d", root, o->pids[i]);
		if (stat(path, &st) < 0) {
			main_usage_error("no process with pid '%d': check it with 'ps -p %d'",
					 o->pids[i], o->pids[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * Headless with --cgroups: cgroups instead of processes, so the cost does
 * not grow with them, unless an option asks for processes too (--per-user sums them).
 */
static bool main_no_processes(const struct options *o)
{
	return o->cgroups && (o->batch || o->listen) && !o->export_processes && !o->npids &&
	       !o->user && !o->cgroup_filter && !o->threads && !o->sample_pid && !o->per_user;
}

/*
 * --cgroup-filter in the form the processes' paths have: below the v2
 * hierarchy, whose mount point (from mountinfo) may prefix what was given.
 * Live, a cgroup that is not there under that mount point matches nothing
 * ever: NULL after saying where it was looked for. A replay has no live
 * hierarchy to look in.
 */
static char *main_cgroup_filter(const struct options *o)
{
	char root[4096 + 32], path[CGROUPFS_PATH_MAX], *buf = xmalloc(1u << 20);
	struct cgroupfs_mount *mnt = xcalloc(1, sizeof(*mnt));
	const char *dir = NULL;
	FILE *f;

	snprintf(root, sizeof(root), "%s/self/mountinfo", o->proc_root ? o->proc_root : "/proc");
	f = o->replay ? NULL : fopen(root, "re");
	if (f) {
		size_t n = fread(buf, 1, (1u << 20) - 1, f);

		fclose(f);
		if (!cgroupfs_parse_mountinfo(buf, n, mnt))
			dir = mnt->dir;
	}
	if (cgroupfs_normalize(dir, o->cgroup_filter, path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", o->cgroup_filter); /* the options checked it */
	if (dir && !o->replay) {
		char full[sizeof(root) + CGROUPFS_PATH_MAX];
		struct stat st;

		snprintf(full, sizeof(full), "%s%s", dir, strcmp(path, "/") ? path : "");
		if (stat(full, &st) < 0 || !S_ISDIR(st.st_mode)) {
			main_usage_error("no cgroup '%s' for --cgroup-filter: '%s' is not a "
					 "directory of the cgroup v2 hierarchy mounted on '%s'",
					 o->cgroup_filter, full, dir);
			free(buf);
			free(mnt);
			return NULL;
		}
	}
	free(buf);
	free(mnt);
	return xstrdup(path);
}

/*
 * A recording, or a perf.data told by its magic (never by its name): a file
 * is peeked at with pread, a pipe's first bytes are read and handed on.
 */
static struct source *main_replay_source(const struct options *o, FILE *f, char *err,
					 size_t errsize)
{
	char magic[8];
	ssize_t n = pread(fileno(f), magic, sizeof(magic), 0);
	bool pipe = n < 0 && errno == ESPIPE;
	/* a frame is -d seconds of the capture (1 by default); -d 0 plays 1 s frames at once */
	double frame_s = o->delay_set && o->delay > 0 ? o->delay : 1.0;

	if (pipe) {
		n = 0;
		while (n < (ssize_t)sizeof(magic)) {
			ssize_t k = read(fileno(f), magic + n, sizeof(magic) - (size_t)n);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			n += k;
		}
	}
	if (n > 0 && perfdata_magic(magic, (size_t)n)) {
		int fd = dup(fileno(f));

		fclose(f);
		if (fd < 0) {
			snprintf(err, errsize, "cannot read '%s': %s", o->replay, strerror(errno));
			return NULL;
		}
		/* the source reads fd to its end and closes it */
		return source_perf_new(fd, magic, pipe ? (size_t)n : 0, o->replay, frame_s, err,
				       errsize);
	}
	if (pipe)
		return source_replay_new_prefixed(f, magic, n > 0 ? (size_t)n : 0, o->replay, err,
						  errsize);
	return source_replay_new(f, o->replay, err, errsize);
}

/* The live or replay source; NULL after saying why, with the exit status in *status. */
static struct source *main_source(const struct options *o, int *status)
{
	char err[1024];
	struct source *src;

	if (o->replay) {
		FILE *f = strcmp(o->replay, "-") ? fopen(o->replay, "re") : stdin;

		if (!f) {
			textsafe_fprintf(stderr, "pmctop: cannot open the recording '%s': %s\n",
					 o->replay, strerror(errno));
			*status = EXIT_USAGE;
			return NULL;
		}
		src = main_replay_source(o, f, err, sizeof(err));
		if (!src) {
			textsafe_fprintf(stderr, "pmctop: %s\n", err);
			*status = EXIT_USAGE;
		}
		return src;
	} else {
		struct evlist ev;
		bool usage_err = false;
		struct live_opts lo = {
			.proc_root = o->proc_root,
			.pids = o->pids,
			.npids = o->npids,
			.per_cpu = !o->no_cpus,
			/* the screen counts cgroups for its view (G); batch and exporter when asked */
			.cgroups = options_cgroups_asked(o) || (!o->batch && !o->listen),
			.cgroups_required = options_cgroups_asked(o),
			.cgroup_depth = o->cgroup_depth,
			.cgroup_paths = (const char *const *)o->cgroup_paths,
			.ncgroup_paths = o->ncgroup_paths,
			.no_tasks = main_no_processes(o),
			.threads = o->threads,
			.read_all = o->read_all,
			/* the exporter's listening socket and connections, left to it */
			.fd_keep = o->listen ? EXPORTER_MAX_FDS : 0,
			.hw_top = o->hw_top,
			.kernel_threads = o->kernel_threads,
			.task_counts = o->task_counts,
			.usage_err = &usage_err,
			/* the kernel's own words on its PMU, for the no-PMU notice; not for fixtures */
			.kmsg = o->proc_root ? NULL : "/dev/kmsg",
		};

		if (o->user) {
			struct passwd *pw = getpwnam(o->user);

			lo.by_uid = true;
			lo.uid = pw ? pw->pw_uid : (unsigned)strtoul(o->user, NULL, 10);
		}
		evlist_init(&ev);
		*status = main_events(o, &ev);
		if (*status) {
			evlist_release(&ev);
			return NULL;
		}
		src = source_live_new(&ev, &lo, err, sizeof(err));
		evlist_release(&ev);
		if (!src) {
			textsafe_fprintf(stderr, "pmctop: %s\n", err);
			*status = usage_err ? EXIT_USAGE : 1;
		}
		return src;
	}
}

/*
 * --record must never destroy what is being replayed, whatever the
 * spelling (./x, an absolute path, a symlink, a hard link): compare the
 * files themselves. 0, or -1 after saying why.
 */
static int main_check_record(const struct options *o)
{
	struct stat rs, ps;

	if (!o->record)
		return 0;
	if (!strcmp(o->record, "-")) {
		main_usage_error("'--record -' is not supported: give a file name (standard output "
				 "carries the frames)");
		return -1;
	}
	if (!o->replay || stat(o->record, &rs) < 0)
		return 0;
	if (!strcmp(o->replay, "-") ? fstat(STDIN_FILENO, &ps) < 0 : stat(o->replay, &ps) < 0)
		return 0; /* the replay's own open says what is wrong with it */
	if (rs.st_dev == ps.st_dev && rs.st_ino == ps.st_ino && S_ISREG(rs.st_mode)) {
		main_usage_error("'--record %s' is the recording being replayed: writing it would "
				 "destroy it; record to another file",
				 o->record);
		return -1;
	}
	return 0;
}

static int main_run(struct options *op);

/*
 * The command's end: wait for it (ended with SIGTERM when the screen or the
 * frames ended first) and print the summary of its run. Returns its exit
 * status as a shell gives it, or status when pmctop itself failed.
 */
static int main_command_end(const struct options *o, struct command *cmd, struct summary_run *run,
			    const struct runcount *rc, const struct evlist *ev, FILE *f, int status)
{
	struct snap_count *cnt = xcalloc(ev->n ? ev->n : 1, sizeof(*cnt));
	siginfo_t si;
	int st;

	memset(&si, 0, sizeof(si));
	if (cmd->go < 0 && waitid(P_PID, (id_t)cmd->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid != cmd->pid)
		kill(cmd->pid, SIGTERM);
	st = command_wait(cmd, run);
	if (st < 0) {
		free(cnt);
		return status ? status : 1;
	}
	if (rc)
		runcount_read(rc, cnt, ev->n);
	run->argv = (const char *const *)o->command;
	run->ev = ev;
	run->cnt = cnt;
	/* a command that never ran (pmctop failed first) has no run to sum up */
	if (rc)
		summary_print(f, run);
	fflush(f);
	free(cnt);
	return status ? status : command_exit_status(st);
}

/*
 * The settings file, for the screen and batch mode (the exporter has no use for it): read
 * into rc, its path into path ("" when there is none to read or write), and what was wrong
 * with it into msg ("" when nothing was).
 */
static void main_settings(const struct options *o, struct rcfile *rc, char *path, size_t size,
			  char *msg, size_t msgsize)
{
	rcfile_init(rc);
	path[0] = msg[0] = '\0';
	if (o->no_config || (o->listen && !o->batch))
		return;
	if (o->config)
		snprintf(path, size, "%s", o->config);
	else if (rcfile_path(getenv("XDG_CONFIG_HOME"), getenv("HOME"), path, size))
		path[0] = '\0';
	if (path[0])
		rcfile_load(rc, path, msg, msgsize);
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int status;

	/* the codeset only: whether names may reach the terminal as UTF-8 (textsafe_locale) */
	setlocale(LC_CTYPE, "");
	if (options_parse(&o, argc, argv, err, sizeof(err))) {
		main_usage_error("%s", err);
		options_release(&o);
		return EXIT_USAGE;
	}
	status = main_run(&o);
	events_fini();
	options_release(&o);
	return status;
}

/* Everything after the options; the caller releases them. */
static int main_run(struct options *op)
{
	struct options o = *op;
	struct source *src;
	struct model *m;
	struct output out = { 0 };
	struct loop_opts lo;
	struct source *rec = NULL; /* src itself when recording */
	struct exporter *ex = NULL;
	struct exposition_info xi;
	char *cgroup_filter = NULL;
	int status, col;
	struct rcfile rc;
	char rc_path[4096], rc_msg[1024];
	struct command cmd = { .go = -1 };
	struct summary_run run = { 0 };
	struct runcount *rcount = NULL;
	int cmd_pid = 0;

	if (o.help) {
		options_usage(stdout);
		return 0;
	}
	if (o.version) {
		printf("pmctop %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (events_init()) {
		textsafe_fprintf(stderr,
				 "pmctop: libpfm4 failed to initialise; event names cannot be "
				 "resolved\n");
		return 1;
	}
	if (o.list_events) {
		size_t n = evspec_list(stdout, NULL, o.list_pattern);

		if (!n && o.list_pattern) {
			textsafe_fprintf(stderr, "pmctop: no event matches '%s'\n", o.list_pattern);
			return 1;
		}
		return 0;
	}
	if (!o.batch && !o.listen && !isatty(STDOUT_FILENO)) {
		main_usage_error("standard output is not a terminal: use -b for batch mode");
		return EXIT_USAGE;
	}
	if (o.proc_root && access(o.proc_root, R_OK | X_OK)) {
		main_usage_error("cannot open '%s': %s", o.proc_root, strerror(errno));
		return EXIT_USAGE;
	}
	if (!o.replay && o.user && main_check_user(o.user))
		return EXIT_USAGE;
	if (!o.replay && main_check_pids(&o))
		return EXIT_USAGE;
	if (o.sample_pid && o.batch && !o.npids) {
		/* batch sampling shows the sampled process only */
		op->pids = xmalloc(sizeof(*op->pids));
		op->pids[0] = o.sample_pid;
		op->npids = 1;
		o.pids = op->pids;
		o.npids = 1;
		if (!o.replay && main_check_pids(&o))
			return EXIT_USAGE;
	}
	if (main_check_record(&o))
		return EXIT_USAGE;
	if (o.replay && o.nevents) {
		main_usage_error(
			"'-e' cannot be used with '--replay': the recording fixes the events");
		return EXIT_USAGE;
	}
	/* a file asked for by name must be there; only the default one may be missing */
	if (o.config && !o.no_config && access(o.config, R_OK) < 0) {
		main_usage_error("cannot read the settings file '%s' of --config: %s", o.config,
				 strerror(errno));
		return EXIT_USAGE;
	}
	main_settings(&o, &rc, rc_path, sizeof(rc_path), rc_msg, sizeof(rc_msg));
	/* the screen shows what was wrong with the file; batch mode says it once, here */
	if (rc_msg[0] && o.batch)
		textsafe_fprintf(stderr, "pmctop: %s\n", rc_msg);
	/* the command line wins over the file (the list was checked with the options) */
	if (o.columns) {
		char bad[64];

		columns_choice_parse(&rc.cols, o.columns, bad, sizeof(bad));
	}
	if (!o.sort && rc.sort_set) {
		o.sort = rc.sort;
		o.sort_reverse |= rc.reverse_set && rc.reverse;
	}
	if (!o.delay_set && rc.delay_set && !o.replay)
		o.delay = rc.delay;
	if (o.command) {
		int r = command_find(o.command[0], getenv("PATH"), cmd.file, sizeof(cmd.file));

		if (r == -ENOENT) {
			textsafe_fprintf(stderr, "pmctop: command '%s' not found\n", o.command[0]);
			return EXIT_NOT_FOUND;
		}
		if (r) {
			textsafe_fprintf(stderr, "pmctop: cannot run '%s': %s\n", o.command[0],
					 strerror(-r));
			return EXIT_NOT_EXECUTABLE;
		}
	}
	main_raise_nofile();
	/* a reader that goes away ("| head") ends the run quietly: see loop_batch */
	signal(SIGPIPE, SIG_IGN);
	if (o.command) {
		/* the child waits, unexeced, until its counters are open and the source watches */
		int r = command_start(&cmd, o.command);

		if (r) {
			textsafe_fprintf(stderr, "pmctop: cannot start '%s': %s\n", o.command[0],
					 strerror(-r));
			return 1;
		}
		cmd_pid = cmd.pid;
	}
	src = main_source(&o, &status);
	if (!src) {
		if (cmd.pid)
			command_wait(&cmd, &run);
		return status;
	}
	m = model_new(&src->ev);
	m->filter.pids = cmd_pid ? &cmd_pid : o.pids;
	m->filter.npids = cmd_pid ? 1 : o.npids;
	m->filter.tree = cmd_pid != 0;
	m->filter.user = o.user;
	if (o.cgroup_filter) {
		cgroup_filter = main_cgroup_filter(&o);
		if (!cgroup_filter) {
			status = EXIT_USAGE;
			goto out_model;
		}
		m->filter.cgroup = cgroup_filter;
	}
	m->filter.kthreads = o.kernel_threads;
	col = o.sort ? model_sort_key(m, o.sort) : COL_CPU;
	if (col < 0) {
		char keys[256];

		main_usage_error("unknown sort column '%s': use %s", o.sort,
				 columns_keys(keys, sizeof(keys), true));
		status = EXIT_USAGE;
		goto out_model;
	}
	model_sort(m, col, o.sort_reverse);
	/* the screen's and batch text's columns; CSV and JSON keep their fixed fields */
	m->cols = rc.cols;
	/*
	 * what costs a file per process and tick is read only for a column that
	 * shows it; CSV and JSON rows carry every field
	 */
	source_extras(src, o.batch && o.format != OUTPUT_TEXT ? SOURCE_EXTRA_SHR : model_extras(m));
	model_set_page_shift(m, o.page_shift);
	model_set_halflife(m, o.halflife);
	if (o.sample_pid && o.batch && (!o.replay || (source_caps(src) & SOURCE_CAP_SAMPLE))) {
		struct sample_req req = { SAMPLE_AUTO, o.sample_period };
		char serr[512];

		if (o.sample_source)
			sample_kind_parse(o.sample_source, &req.kind);
		if (source_sample(src, o.sample_pid, &req, serr, sizeof(serr))) {
			textsafe_fprintf(stderr, "pmctop: %s\n", serr);
			status = 1;
			goto out_model;
		}
	}
	if (o.record) {
		char rerr[1024], why[512], leaf[NAME_MAX + 1];
		int dirfd = -1;
		int fd = safefile_open_private(o.record, &dirfd, leaf, sizeof(leaf), why,
					       sizeof(why));
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

		if (!f) {
			if (fd >= 0) {
				snprintf(why, sizeof(why), "%s", strerror(errno));
				close(fd);
				close(dirfd);
			}
			textsafe_fprintf(
				stderr,
				"pmctop: cannot create the recording '%s': %s; record to a regular "
				"file of your own (a new name, or in a directory only you write "
				"in)\n",
				o.record, why);
			status = 1;
			goto out_model;
		}
		rec = source_record_new(src, f, o.record, rerr, sizeof(rerr));
		src = NULL; /* the wrapper owns it, and frees it on failure */
		if (!rec) {
			close(dirfd);
			textsafe_fprintf(stderr, "pmctop: %s\n", rerr);
			status = 1;
			goto out_model;
		}
		source_record_bound(rec, o.record_size, dirfd, leaf);
		src = rec;
	}
	memset(&out, 0, sizeof(out));
	out.f = stdout;
	out.fmt = o.format;
	out.show_cmdline = o.cmdline;
	out.threads = o.threads;
	out.per_user = o.per_user;
	out.sampling = o.sample_pid != 0;
	out.sample_pid = o.sample_pid;
	out.top = (size_t)o.top;
	out.no_processes = main_no_processes(&o);
	out.textsafe = textsafe_locale();
	if (o.threads)
		source_threads(src, 0, true);
	if (o.listen) {
		char xerr[512];

		ex = exporter_new(o.listen, xerr, sizeof(xerr));
		if (!ex) {
			textsafe_fprintf(stderr, "pmctop: %s\n", xerr);
			status = 1;
			goto out_rec;
		}
		memset(&xi, 0, sizeof(xi));
		xi.version = PACKAGE_VERSION;
		xi.mode = src->mode;
		xi.hw_pmu = o.replay || !evlist_any_hw(&src->ev) ? NULL : events_hw_pmu(NULL);
		xi.top_processes = (size_t)o.export_processes;
		/* the port may have been 0: say where the metrics are */
		textsafe_fprintf(stderr, "pmctop: serving metrics on http://%s/metrics\n",
				 exporter_address(ex));
		/* the labels name processes, cgroups and their users: anyone who can connect reads them */
		if (!exporter_local(ex))
			textsafe_fprintf(stderr,
					 "pmctop: listening on %s, which serves process and cgroup "
					 "names to the network; use 127.0.0.1 to keep it local\n",
					 exporter_address(ex));
	}
	if (cmd.pid) {
		rcount = runcount_new(NULL, &src->ev, cmd.pid);
		command_go(&cmd);
	}
	if (!o.batch && !o.listen) {
		struct loop_tui_opts to = {
			.child = cmd.pid,
			.delay = o.replay && !o.delay_set ? -1 : o.delay,
			.color = !getenv("NO_COLOR") || !*getenv("NO_COLOR"),
			.threads = o.threads,
			.cmdline = o.cmdline,
			.mouse = !o.no_mouse,
			.kernel_threads = o.kernel_threads,
			.per_user = o.per_user,
			.iterations = o.iterations,
			.sample_period = o.sample_period,
			.drill = o.sample_pid,
			.cgroups = o.cgroups,
			.rc = &rc,
			.rc_path = rc_path[0] ? rc_path : NULL,
			.rc_msg = rc_msg,
		};

		if (o.sample_source)
			sample_kind_parse(o.sample_source, &to.sample_kind);

		status = loop_tui(src, m, &to);
		goto out_rec;
	}
	memset(&lo, 0, sizeof(lo));
	lo.iterations = o.iterations;
	lo.delay = o.replay && !o.delay_set ? -1 : o.delay;
	lo.msgs = stderr;
	lo.sample_pid = o.batch && !o.replay ? o.sample_pid : 0;
	lo.child = cmd.pid;
	if (ex) {
		lo.ex = ex;
		lo.export_info = &xi;
	}
	status = loop_batch(src, m, o.batch ? &out : NULL, &lo);
out_rec:
	/* a recording that lost snapshots is a failed run, even when the frames went on */
	if (rec && (source_record_close(rec) || !source_record_ok(rec))) {
		source_print_messages(rec, stderr);
		if (!status)
			status = 1;
	}
out_model:
	if (cmd.pid)
		status = main_command_end(&o, &cmd, &run, rcount, src ? &src->ev : &m->ev,
					  /* CSV and JSON keep standard output to their records */
					  o.batch && o.format == OUTPUT_TEXT ? stdout : stderr,
					  status);
	runcount_free(rcount);
	output_release(&out);
	exporter_free(ex);
	model_free(m);
	free(cgroup_filter);
	source_free(src);
	return status;
}
