/* Recording writer and line parser; the parser takes bytes so it can be fuzzed. */
#include "config.h"
#include "stream/recording.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/xalloc.h"

#define RECORDING_MAX_TOKENS 512

void recording_escape(const char *s, char *out, size_t size)
{
	size_t o = 0;

	if (size < 2)
		return;
	if (!*s) {
		out[0] = '%';
		out[1] = '\0';
		return;
	}
	for (; *s && o + 4 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= 0x20 || c == 0x7f || c == '%') {
			snprintf(out + o, size - o, "%%%02X", c);
			o += 3;
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

static int recording_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int recording_unescape(char *s)
{
	char *w = s;

	if (!strcmp(s, "%")) {
		*s = '\0';
		return 0;
	}
	for (char *p = s; *p; p++) {
		if (*p == '%') {
			int hi = recording_hex(p[1]), lo = hi < 0 ? -1 : recording_hex(p[2]);

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return -EINVAL;
			*w++ = (char)(hi * 16 + lo);
			p += 2;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return 0;
}

static int recording_ferr(FILE *f)
{
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

/* The mode as facts: KEY=VALUE fields, strings escaped; a reader skips keys it does not know. */
static void recording_write_facts(FILE *f, const struct errmsg_mode *m)
{
	char pmu[200], ev[800];
	const char *en = m->why.err ? errmsg_errno_name(m->why.err) : "ok";

	recording_escape(m->pmu, pmu, sizeof(pmu));
	recording_escape(m->why.name, ev, sizeof(ev));
	fprintf(f,
		"modefacts hw=%d asked=%d kernel=%d pmu=%s counters=%d free=%d watchdog=%d "
		"cpu_hw=%d task_hw=%d thread_sets=%d why=%s event=%s paranoid=%d",
		m->hw, m->hw_asked, m->kernel, pmu, m->counters, m->counters_free, m->watchdog,
		m->cpu_hw, m->task_hw, m->thread_sets, en ? en : "EINVAL", ev, m->why.paranoid);
	/* only when so: recordings of per-task events stay as they were */
	if (m->proc)
		fputs(" proc=1", f);
	if (m->bpf)
		fputs(" bpf=1", f);
	fputc('\n', f);
}

int recording_write_header(FILE *f, const struct evlist *ev, const char *mode,
			   const struct errmsg_mode *facts, const char *host, const char *kernel)
{
	char h[200], k[200];

	recording_escape(host, h, sizeof(h));
	recording_escape(kernel, k, sizeof(k));
	fprintf(f, "%s %d\n", RECORDING_MAGIC, RECORDING_VERSION);
	fprintf(f, "host %s %s\n", h, k);
	if (facts)
		recording_write_facts(f, facts);
	else
		fprintf(f, "mode %s\n", mode);
	for (size_t i = 0; i < ev->n; i++) {
		const struct ev *e = &ev->ev[i];
		const char *en = e->err ? errmsg_errno_name(e->err) : "ok";
		char name[512];

		recording_escape(e->name, name, sizeof(name));
		fprintf(f, "event %zu %d %s %s %s %s\n", i, e->group, e->hw ? "hw" : "sw",
			e->user ? "user" : "default", en ? en : "EINVAL", name);
	}
	return recording_ferr(f);
}

static void recording_write_counts(FILE *f, const struct snap_count *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (c[i].err) {
			const char *en = errmsg_errno_name(c[i].err);

			fprintf(f, " -%s", en ? en : "EINVAL");
		} else {
			fprintf(f, " %" PRIu64 "/%" PRIu64 "/%" PRIu64, c[i].value, c[i].enabled,
				c[i].running);
		}
	}
}

/* at OFFSET: when the entry just written was read, in ns after its tick; none when at the tick. */
static void recording_write_at(FILE *f, const struct snapshot *s, uint64_t t_ns)
{
	if (t_ns > s->t_ns)
		fprintf(f, "at %" PRIu64 "\n", t_ns - s->t_ns);
}

int recording_write_snapshot(FILE *f, const struct snapshot *s)
{
	fprintf(f, "tick %" PRIu64 " %.6f %.2f %.2f %.2f", s->t_ns, s->wall, s->load[0], s->load[1],
		s->load[2]);
	if (s->uptime >= 0)
		fprintf(f, " %.2f", s->uptime);
	fputc('\n', f);
	if (s->mem_total_kib && s->mem.known)
		fprintf(f,
			"memtotal %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			s->mem_total_kib, s->mem.free_kib, s->mem.buffers_kib, s->mem.cached_kib,
			s->mem.sreclaimable_kib, s->mem.swap_total_kib, s->mem.swap_free_kib,
			s->mem.avail_kib);
	else if (s->mem_total_kib)
		fprintf(f, "memtotal %" PRIu64 "\n", s->mem_total_kib);
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct snap_cpu *c = &s->cpus[i];

		fprintf(f, "cpu %d %llu %llu", c->cpu, c->busy, c->total);
		recording_write_counts(f, c->c, s->nev);
		fputc('\n', f);
		recording_write_at(f, s, c->t_ns);
	}
	for (size_t i = 0; i < s->ntasks + s->nthreads; i++) {
		bool thr = i >= s->ntasks;
		const struct snap_task *t = thr ? &s->threads[i - s->ntasks] : &s->tasks[i];
		char user[128], comm[256], *cmd;
		size_t cl = strlen(t->cmdline) * 3 + 2;
		const char *en = t->err ? errmsg_errno_name(t->err) : "ok";

		cmd = xmalloc(cl);
		recording_escape(t->user, user, sizeof(user));
		recording_escape(t->comm, comm, sizeof(comm));
		recording_escape(t->cmdline, cmd, cl);
		/* a thread line names its process where a task line names the parent */
		fprintf(f, "%s %d %d %u %s %c %d %llu %s", thr ? "thread" : "task", t->pid,
			thr ? t->tgid : t->ppid, t->uid, user, t->state, t->threads, t->start,
			en ? en : "EINVAL");
		recording_write_counts(f, t->c, s->nev);
		fprintf(f, " %s %s", comm, cmd);
		free(cmd);
		/* the cgroup only where known: lines without it read as before */
		if (t->cgroup) {
			cmd = xmalloc(strlen(t->cgroup) * 3 + 2);
			recording_escape(t->cgroup, cmd, strlen(t->cgroup) * 3 + 2);
			fprintf(f, " %s", cmd);
			free(cmd);
		}
		fputc('\n', f);
		recording_write_at(f, s, t->t_ns);
		/* a line of its own, so that the task line keeps the shape old readers know */
		if (t->pflags & SNAP_TASK_PROC) {
			fprintf(f, "procinfo %" PRIu64 " %" PRIu64 " %u", t->rss_kib, t->cpu_ns,
				t->pflags & SNAP_TASK_KTHREAD ? 1u : 0u);
			/* optional trailing fields: lines without them read as before */
			if (t->pflags & SNAP_TASK_MORE)
				fprintf(f, " %" PRIu64 " %d %d", t->virt_kib, t->nice,
					t->processor);
			if ((t->pflags & SNAP_TASK_MORE) && (t->pflags & SNAP_TASK_SHR))
				fprintf(f, " %" PRIu64, t->shr_kib);
			fputc('\n', f);
		}
	}
	if (s->cg.on)
		fprintf(f, "cgroups %" PRIu64 " %" PRIu64 "\n", s->cg.fds, s->cg.budget);
	for (size_t i = 0; i < s->cg.n; i++) {
		const struct snap_cgroup *g = &s->cg.v[i];
		size_t pl = strlen(g->path) * 3 + 2;
		char *path = xmalloc(pl);
		const char *en = g->err ? errmsg_errno_name(g->err) : "ok";

		recording_escape(g->path, path, pl);
		fprintf(f, "cgroup %s %s", path, en ? en : "EINVAL");
		recording_write_counts(f, g->c, s->nev);
		fputc('\n', f);
		recording_write_at(f, s, g->t_ns);
		free(path);
	}
	if (s->smp.pid) {
		const struct snap_sampling *p = &s->smp;
		char src[100];

		recording_escape(p->source, src, sizeof(src));
		fprintf(f, "sampling %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %s", p->pid, p->period,
			p->lost, p->throttled, src);
		/* the two later fields only when set: older readers take the line as before */
		if (p->flags || p->nonmem)
			fprintf(f, " %u %" PRIu64, p->flags, p->nonmem);
		fputc('\n', f);
		for (size_t i = 0; p->maps_changed && i < p->nmaps; i++) {
			char name[300];

			recording_escape(p->maps[i].name, name, sizeof(name));
			fprintf(f, "map %llx %llx %s\n", p->maps[i].start, p->maps[i].end, name);
		}
		/* the mappings samples were taken in: before the samples that name them */
		for (size_t i = 0; p->n && i < p->nareas; i++) {
			const struct mem_area *a = &p->areas[i];
			size_t len = strlen(a->name) * 3 + 2;
			char *name = xmalloc(len);

			recording_escape(a->name, name, len);
			fprintf(f, "area %llx %llx %llx %x:%x %llu %s\n", a->start, a->end,
				a->pgoff, a->maj, a->min, a->ino, name);
			free(name);
		}
		for (size_t i = 0; i < p->n; i++) {
			const struct snap_sample *x = &p->v[i];

			fprintf(f, "sample %u %u %" PRIx64 " %" PRIx64 " %" PRIu64 " %u %u", x->tid,
				x->cpu, x->addr, x->ip, x->weight, x->op, x->level);
			/* period and mapping only when they say something: older lines stay */
			if ((x->period && x->period != 1) || x->area || x->page_node || x->cpu_node)
				fprintf(f, " %" PRIu64 " %u", x->period ? x->period : 1, x->area);
			/* the nodes as 1 + node, 0 not known: after the two above */
			if (x->page_node || x->cpu_node)
				fprintf(f, " %u %u", x->page_node, x->cpu_node);
			fputc('\n', f);
		}
	}
	fputs("end\n", f);
	return recording_ferr(f);
}

void recording_reader_init(struct recording_reader *r)
{
	memset(r, 0, sizeof(*r));
	evlist_init(&r->ev);
}

void recording_reader_release(struct recording_reader *r)
{
	evlist_release(&r->ev);
}

__attribute__((format(printf, 2, 3))) static int recording_fail(struct recording_reader *r,
								const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int recording_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (*end || errno)
		return -EINVAL;
	return 0;
}

static int recording_int(const char *s, int *v)
{
	char *end;
	long x;

	if (!isdigit((unsigned char)*s) && *s != '-')
		return -EINVAL;
	errno = 0;
	x = strtol(s, &end, 10);
	if (*end || errno || x < -1 || x > 0x7fffffff)
		return -EINVAL;
	*v = (int)x;
	return 0;
}

static int recording_double(const char *s, double *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	/* inf and nan parse, but no time, load or count is either: JSON could not carry them */
	if (*end || errno || !isfinite(*v))
		return -EINVAL;
	return 0;
}

static int recording_errname(const char *s, int *err)
{
	int e;

	if (!strcmp(s, "ok")) {
		*err = 0;
		return 0;
	}
	e = errmsg_errno_value(s);
	if (!e)
		return -EINVAL;
	*err = -e;
	return 0;
}

static int recording_count(const char *s, struct snap_count *c)
{
	unsigned long long v[3];
	char tmp[96], *p = tmp;

	memset(c, 0, sizeof(*c));
	if (s[0] == '-')
		return recording_errname(s + 1, &c->err) || !c->err ? -EINVAL : 0;
	if (strlen(s) >= sizeof(tmp))
		return -EINVAL;
	strcpy(tmp, s);
	for (int i = 0; i < 3; i++) {
		char *slash = strchr(p, '/');

		if ((i < 2) != (slash != NULL))
			return -EINVAL;
		if (slash)
			*slash = '\0';
		if (recording_ull(p, &v[i]))
			return -EINVAL;
		p = slash ? slash + 1 : p;
	}
	if (v[2] > v[1])
		return -EINVAL;
	c->value = v[0];
	c->enabled = v[1];
	c->running = v[2];
	return 0;
}

static int recording_counts(struct recording_reader *r, char **tok, size_t ntok,
			    struct snap_count *c)
{
	if (ntok < r->ev.n)
		return recording_fail(r, "expected %zu counts (one per event), found %zu", r->ev.n,
				      ntok);
	for (size_t i = 0; i < r->ev.n; i++)
		if (recording_count(tok[i], &c[i]))
			return recording_fail(r,
					      "expected a count 'value/enabled/running' "
					      "(running <= enabled) or '-ERRNO' for event %zu, "
					      "found '%.40s'",
					      i, tok[i]);
	return 0;
}

/* A modefacts line: the facts, then the mode text in this pmctop's words. */
static int recording_modefacts(struct recording_reader *r, char **tok, size_t ntok)
{
	struct errmsg_mode *m = &r->facts;

	memset(m, 0, sizeof(*m));
	m->watchdog = -1;
	m->why.paranoid = -2;
	for (size_t i = 1; i < ntok; i++) {
		char *v = strchr(tok[i], '=');
		int *num = NULL;
		bool *flag = NULL;
		int n;

		if (!v)
			return recording_fail(r, "expected KEY=VALUE in 'modefacts', found '%.20s'",
					      tok[i]);
		*v++ = '\0';
		if (!strcmp(tok[i], "pmu") || !strcmp(tok[i], "event")) {
			if (recording_unescape(v))
				return recording_fail(r, "expected an escaped %s name", tok[i]);
			if (!strcmp(tok[i], "pmu"))
				snprintf(m->pmu, sizeof(m->pmu), "%s", v);
			else
				snprintf(m->why.name, sizeof(m->why.name), "%s", v);
			continue;
		}
		if (!strcmp(tok[i], "why")) {
			if (recording_errname(v, &m->why.err))
				return recording_fail(
					r, "expected 'ok' or an errno name, found '%.20s'", v);
			continue;
		}
		flag = !strcmp(tok[i], "hw")		? &m->hw
		       : !strcmp(tok[i], "asked")	? &m->hw_asked
		       : !strcmp(tok[i], "kernel")	? &m->kernel
		       : !strcmp(tok[i], "thread_sets") ? &m->thread_sets
		       : !strcmp(tok[i], "proc")	? &m->proc
		       : !strcmp(tok[i], "bpf")		? &m->bpf
							: NULL;
		num = !strcmp(tok[i], "counters")   ? &m->counters
		      : !strcmp(tok[i], "free")	    ? &m->counters_free
		      : !strcmp(tok[i], "watchdog") ? &m->watchdog
		      : !strcmp(tok[i], "cpu_hw")   ? &m->cpu_hw
		      : !strcmp(tok[i], "task_hw")  ? &m->task_hw
		      : !strcmp(tok[i], "paranoid") ? &m->why.paranoid
						    : NULL;
		if (!flag && !num)
			continue; /* a fact of a newer pmctop: its text is not ours to guess */
		if (recording_int(v, &n) || n < -2 || n > 4096 || (flag && n != 0 && n != 1))
			return recording_fail(r, "expected a number for '%s', found '%.20s'",
					      tok[i], v);
		if (flag)
			*flag = n;
		else
			*num = n;
	}
	r->have_facts = true;
	errmsg_mode(r->mode, sizeof(r->mode), m);
	return 0;
}

static int recording_header_line(struct recording_reader *r, char **tok, size_t ntok)
{
	if (!strcmp(tok[0], "modefacts"))
		return recording_modefacts(r, tok, ntok);
	if (!strcmp(tok[0], "host")) {
		if (ntok != 3 || recording_unescape(tok[1]) || recording_unescape(tok[2]))
			return recording_fail(r, "expected 'host NAME KERNEL'");
		snprintf(r->host, sizeof(r->host), "%s", tok[1]);
		snprintf(r->kernel, sizeof(r->kernel), "%s", tok[2]);
		return 0;
	}
	if (!strcmp(tok[0], "event")) {
		int idx, group, err;
		bool hw, user;

		if (ntok != 7)
			return recording_fail(r, "expected 'event INDEX GROUP hw|sw user|default "
						 "ok|ERRNO NAME'");
		if (recording_int(tok[1], &idx) || idx != (int)r->ev.n)
			return recording_fail(r, "expected event index %zu, found '%.20s'", r->ev.n,
					      tok[1]);
		if (recording_int(tok[2], &group) || group < 0 || group > 4096)
			return recording_fail(r, "expected a group number, found '%.20s'", tok[2]);
		if (strcmp(tok[3], "hw") && strcmp(tok[3], "sw"))
			return recording_fail(r, "expected 'hw' or 'sw', found '%.20s'", tok[3]);
		if (strcmp(tok[4], "user") && strcmp(tok[4], "default"))
			return recording_fail(r, "expected 'user' or 'default', found '%.20s'",
					      tok[4]);
		if (recording_errname(tok[5], &err))
			return recording_fail(r, "expected 'ok' or an errno name, found '%.20s'",
					      tok[5]);
		if (recording_unescape(tok[6]) || !*tok[6])
			return recording_fail(r, "expected an event name, found '%.40s'", tok[6]);
		if (r->ev.n >= 256)
			return recording_fail(r, "too many events (256 at most)");
		hw = !strcmp(tok[3], "hw");
		user = !strcmp(tok[4], "user");
		idx = evlist_add(&r->ev, tok[6], group, hw, user);
		r->ev.ev[idx].err = err;
		return 0;
	}
	return recording_fail(
		r, "expected 'host', 'mode', 'modefacts', 'event' or 'tick', found '%.20s'",
		tok[0]);
}

static int recording_task(struct recording_reader *r, char **tok, size_t ntok,
			  struct snapshot *snap, bool thread)
{
	struct snap_task *t;
	int pid, ppid, threads, err;
	unsigned long long uid, start;
	char *cgroup = NULL;

	/* a last field after the command line is the cgroup (recordings made with cgroups) */
	if (ntok == 9 + r->ev.n + 3) {
		cgroup = tok[--ntok];
		if (recording_unescape(cgroup) || cgroup[0] != '/')
			return recording_fail(r,
					      "expected a cgroup path such as '/a/b', found "
					      "'%.40s'",
					      cgroup);
	}
	if (ntok != 9 + r->ev.n + 2)
		return recording_fail(
			r,
			"expected '%s' then %zu counts, COMM, CMDLINE and an optional CGROUP (%zu "
			"fields), found %zu",
			thread ? "thread TID PID UID USER STATE THREADS START ERR"
			       : "task PID PPID UID USER STATE THREADS START ERR",
			r->ev.n, 11 + r->ev.n, ntok);
	if (recording_int(tok[1], &pid) || pid <= 0)
		return recording_fail(r, "expected a pid, found '%.20s'", tok[1]);
	if (recording_int(tok[2], &ppid) || ppid < 0)
		return recording_fail(r, "expected a parent pid, found '%.20s'", tok[2]);
	if (recording_ull(tok[3], &uid) || uid > 0xffffffffu)
		return recording_fail(r, "expected a uid, found '%.20s'", tok[3]);
	if (recording_unescape(tok[4]) || strlen(tok[4]) > 32)
		return recording_fail(r, "expected a user name, found '%.40s'", tok[4]);
	if (strlen(tok[5]) != 1 || !isalpha((unsigned char)tok[5][0]))
		return recording_fail(r, "expected a one-letter state, found '%.20s'", tok[5]);
	if (recording_int(tok[6], &threads) || threads < 0)
		return recording_fail(r, "expected a thread count, found '%.20s'", tok[6]);
	if (recording_ull(tok[7], &start))
		return recording_fail(r, "expected a start time, found '%.20s'", tok[7]);
	if (recording_errname(tok[8], &err))
		return recording_fail(r, "expected 'ok' or an errno name, found '%.20s'", tok[8]);
	if (thread) {
		if (ppid <= 0)
			return recording_fail(
				r, "expected the pid the thread belongs to, found '%.20s'", tok[2]);
		if (snap->nthreads && snap->threads[snap->nthreads - 1].pid >= pid)
			return recording_fail(
				r, "expected threads in increasing tid order, found %d", pid);
		t = snapshot_add_thread(snap, pid, ppid);
	} else {
		if (snap->ntasks && snap->tasks[snap->ntasks - 1].pid >= pid)
			return recording_fail(r, "expected tasks in increasing pid order, found %d",
					      pid);
		t = snapshot_add_task(snap, pid);
	}
	if (recording_counts(r, tok + 9, ntok - 11, t->c))
		return -EINVAL;
	if (recording_unescape(tok[ntok - 2]) || recording_unescape(tok[ntok - 1]))
		return recording_fail(r, "expected escaped COMM and CMDLINE");
	if (!thread)
		t->ppid = ppid;
	t->uid = (unsigned)uid;
	snprintf(t->user, sizeof(t->user), "%s", tok[4]);
	t->state = tok[5][0];
	t->threads = threads;
	t->start = start;
	t->err = err;
	snprintf(t->comm, sizeof(t->comm), "%s", tok[ntok - 2]);
	snapshot_task_set_cmdline(t, tok[ntok - 1]);
	snapshot_task_set_cgroup(t, cgroup);
	return 0;
}

/* "cgroups FDS BUDGET": cgroups were counted in this tick, their descriptors and the budget. */
static int recording_cgroups(struct recording_reader *r, char **tok, size_t ntok,
			     struct snapshot *snap)
{
	unsigned long long fds, budget;

	if (ntok != 3 || recording_ull(tok[1], &fds) || recording_ull(tok[2], &budget))
		return recording_fail(r, "expected 'cgroups FDS BUDGET' (numbers)");
	snap->cg.on = true;
	snap->cg.fds = fds;
	snap->cg.budget = budget;
	return 0;
}

static int recording_cgroup(struct recording_reader *r, char **tok, size_t ntok,
			    struct snapshot *snap)
{
	struct snap_cgroup *g;
	int err;

	if (ntok != 3 + r->ev.n)
		return recording_fail(r, "expected 'cgroup PATH STATUS' then %zu counts", r->ev.n);
	if (recording_unescape(tok[1]) || tok[1][0] != '/')
		return recording_fail(r, "expected a cgroup path such as '/a/b', found '%.40s'",
				      tok[1]);
	if (snap->cg.n && strcmp(snap->cg.v[snap->cg.n - 1].path, tok[1]) >= 0)
		return recording_fail(r,
				      "expected cgroups in increasing path order, found "
				      "'%.40s'",
				      tok[1]);
	if (recording_errname(tok[2], &err))
		return recording_fail(r, "expected 'ok' or an errno name, found '%.20s'", tok[2]);
	g = snapshot_add_cgroup(snap, tok[1]);
	g->err = err;
	snap->cg.on = true;
	return recording_counts(r, tok + 3, ntok - 3, g->c);
}

/*
 * procinfo RSS_KIB CPU_NS FLAGS [VIRT_KIB NICE PROCESSOR [SHR_KIB]]: the /proc facts of the
 * task or thread line just before; the trailing fields came later and are optional.
 */
static int recording_procinfo(struct recording_reader *r, char **tok, size_t ntok,
			      struct snapshot *snap)
{
	unsigned long long rss, cpu, flags, virt = 0, shr = 0, proc = 0;
	long long nice = 0;
	struct snap_task *t;
	char *end;

	if (ntok != 4 && ntok != 7 && ntok != 8)
		return recording_fail(r, "expected 'procinfo RSS_KIB CPU_NS FLAGS [VIRT_KIB NICE "
					 "PROCESSOR [SHR_KIB]]'");
	if (!r->info_for)
		return recording_fail(r, "expected a 'task' or 'thread' line before 'procinfo'");
	if (recording_ull(tok[1], &rss) || recording_ull(tok[2], &cpu) ||
	    recording_ull(tok[3], &flags) || flags > 1)
		return recording_fail(r, "expected RSS_KIB and CPU_NS as numbers and FLAGS 0 or 1");
	if (ntok >= 7) {
		errno = 0;
		nice = strtoll(tok[5], &end, 10);
		if (recording_ull(tok[4], &virt) || recording_ull(tok[6], &proc) || errno ||
		    end == tok[5] || *end || nice < -20 || nice > 19 || proc > INT_MAX ||
		    (ntok == 8 && recording_ull(tok[7], &shr)))
			return recording_fail(r,
					      "expected VIRT_KIB, PROCESSOR and SHR_KIB as numbers "
					      "and NICE from -20 to 19");
	}
	t = r->info_for == 1 ? &snap->tasks[snap->ntasks - 1] : &snap->threads[snap->nthreads - 1];
	r->info_for = 0;
	t->rss_kib = rss;
	t->cpu_ns = cpu;
	t->pflags = SNAP_TASK_PROC | (flags ? SNAP_TASK_KTHREAD : 0);
	if (ntok >= 7) {
		t->virt_kib = virt;
		t->nice = (int)nice;
		t->processor = (int)proc;
		t->pflags |= SNAP_TASK_MORE;
	}
	if (ntok == 8) {
		t->shr_kib = shr;
		t->pflags |= SNAP_TASK_SHR;
	}
	return 0;
}

/* at OFFSET: the entry of the line just before was read OFFSET ns after its tick began. */
static int recording_at(struct recording_reader *r, char **tok, size_t ntok, struct snapshot *snap)
{
	unsigned long long off;
	int kind = r->at_for;

	r->at_for = 0;
	if (ntok != 2 || recording_ull(tok[1], &off))
		return recording_fail(r, "expected 'at OFFSET_NS'");
	if (!kind)
		return recording_fail(
			r, "expected a 'cpu', 'task', 'thread' or 'cgroup' line before 'at'");
	if (!off || off > UINT64_MAX - snap->t_ns)
		return recording_fail(r, "expected an offset above 0 that keeps the time in range");
	if (kind == 1)
		snap->tasks[snap->ntasks - 1].t_ns = snap->t_ns + off;
	else if (kind == 2)
		snap->threads[snap->nthreads - 1].t_ns = snap->t_ns + off;
	else if (kind == 3)
		snap->cpus[snap->ncpus - 1].t_ns = snap->t_ns + off;
	else
		snap->cg.v[snap->cg.n - 1].t_ns = snap->t_ns + off;
	return 0;
}

static int recording_memtotal(struct recording_reader *r, char **tok, size_t ntok,
			      struct snapshot *snap)
{
	unsigned long long kib, v[7];

	/* the meters' fields came later: a recording without them shows the meters empty */
	if ((ntok != 2 && ntok != 9) || recording_ull(tok[1], &kib) || !kib)
		return recording_fail(r, "expected 'memtotal KIB' with KIB above 0, then none or "
					 "'FREE BUFFERS CACHED SRECLAIMABLE SWAPTOTAL SWAPFREE "
					 "AVAIL'");
	for (size_t i = 2; i < ntok; i++)
		if (recording_ull(tok[i], &v[i - 2]))
			return recording_fail(r, "expected numbers of KiB after 'memtotal'");
	snap->mem_total_kib = kib;
	if (ntok == 9)
		snap->mem = (struct snap_mem){ .known = true,
					       .free_kib = v[0],
					       .buffers_kib = v[1],
					       .cached_kib = v[2],
					       .sreclaimable_kib = v[3],
					       .swap_total_kib = v[4],
					       .swap_free_kib = v[5],
					       .avail_kib = v[6] };
	return 0;
}

static int recording_cpu(struct recording_reader *r, char **tok, size_t ntok, struct snapshot *snap)
{
	struct snap_cpu *c;
	int cpu;
	unsigned long long busy, total;

	if (ntok != 4 + r->ev.n)
		return recording_fail(r, "expected 'cpu ID BUSY TOTAL' then %zu counts", r->ev.n);
	if (recording_int(tok[1], &cpu) || cpu < 0 || cpu > 65535)
		return recording_fail(r, "expected a CPU number, found '%.20s'", tok[1]);
	if (recording_ull(tok[2], &busy) || recording_ull(tok[3], &total) || busy > total)
		return recording_fail(r, "expected BUSY <= TOTAL clock ticks");
	if (snap->ncpus && snap->cpus[snap->ncpus - 1].cpu >= cpu)
		return recording_fail(r, "expected CPUs in increasing order, found %d", cpu);
	c = snapshot_add_cpu(snap, cpu);
	c->busy = busy;
	c->total = total;
	return recording_counts(r, tok + 4, ntok - 4, c->c);
}

static int recording_xnum(const char *s, unsigned long long *v)
{
	char *end;

	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return *end || errno ? -EINVAL : 0;
}

static int recording_sampling(struct recording_reader *r, char **tok, size_t ntok,
			      struct snapshot *snap)
{
	unsigned long long period, lost, thr, flags = 0, nonmem = 0;
	int pid;

	if (ntok != 6 && ntok != 8)
		return recording_fail(r, "expected 'sampling PID PERIOD LOST THROTTLED SOURCE "
					 "[FLAGS NONMEM]'");
	if (ntok == 8 &&
	    (recording_ull(tok[6], &flags) || flags > 7 || recording_ull(tok[7], &nonmem)))
		return recording_fail(r, "expected FLAGS 0-7 and NONMEM as numbers");
	if (recording_int(tok[1], &pid) || pid <= 0)
		return recording_fail(r, "expected the sampled pid, found '%.20s'", tok[1]);
	if (recording_ull(tok[2], &period) || recording_ull(tok[3], &lost) ||
	    recording_ull(tok[4], &thr))
		return recording_fail(r, "expected PERIOD LOST THROTTLED as numbers");
	if (recording_unescape(tok[5]))
		return recording_fail(r, "expected an escaped SOURCE");
	snap->smp.pid = pid;
	snap->smp.period = period;
	snap->smp.lost = lost;
	snap->smp.throttled = thr;
	snap->smp.flags = (unsigned)flags;
	snap->smp.nonmem = nonmem;
	snprintf(snap->smp.source, sizeof(snap->smp.source), "%s", tok[5]);
	return 0;
}

static int recording_map(struct recording_reader *r, char **tok, size_t ntok, struct snapshot *snap)
{
	unsigned long long a, b;
	struct mem_map *m;

	if (ntok != 4)
		return recording_fail(r, "expected 'map START END NAME'");
	if (!snap->smp.pid)
		return recording_fail(r, "expected a 'sampling' line before 'map'");
	if (recording_xnum(tok[1], &a) || recording_xnum(tok[2], &b) || b < a)
		return recording_fail(r, "expected hexadecimal START <= END");
	if (snap->smp.nmaps && snap->smp.maps[snap->smp.nmaps - 1].end > a)
		return recording_fail(r, "expected mappings in increasing address order");
	if (recording_unescape(tok[3]))
		return recording_fail(r, "expected an escaped NAME");
	m = snapshot_add_map(snap);
	memset(m, 0, sizeof(*m));
	m->start = a;
	m->end = b;
	m->cut = strlen(tok[3]) >= sizeof(m->name);
	snprintf(m->name, sizeof(m->name), "%s", tok[3]);
	snap->smp.maps_changed = true;
	return 0;
}

static int recording_sample(struct recording_reader *r, char **tok, size_t ntok,
			    struct snapshot *snap)
{
	unsigned long long tid, cpu, addr, ip, w, op, lvl, period = 1, area = 0, pnode = 0,
							   cnode = 0;
	struct snap_sample *x;

	if (ntok != 8 && ntok != 10 && ntok != 12)
		return recording_fail(r, "expected 'sample TID CPU ADDR IP WEIGHT OP LEVEL "
					 "[PERIOD AREA [PAGENODE CPUNODE]]'");
	if (ntok >= 10 && (recording_ull(tok[8], &period) || !period ||
			   recording_ull(tok[9], &area) || area > snap->smp.nareas))
		return recording_fail(r, "expected PERIOD > 0 and AREA 0-%zu", snap->smp.nareas);
	if (ntok == 12 && (recording_ull(tok[10], &pnode) || pnode > UINT16_MAX ||
			   recording_ull(tok[11], &cnode) || cnode > UINT16_MAX))
		return recording_fail(r, "expected PAGENODE and CPUNODE 0-%u (1 + node)",
				      UINT16_MAX);
	if (!snap->smp.pid)
		return recording_fail(r, "expected a 'sampling' line before 'sample'");
	if (recording_ull(tok[1], &tid) || tid > 0x7fffffff || recording_ull(tok[2], &cpu) ||
	    cpu > 65535)
		return recording_fail(r, "expected TID and CPU as numbers");
	if (recording_xnum(tok[3], &addr) || recording_xnum(tok[4], &ip))
		return recording_fail(r, "expected hexadecimal ADDR and IP");
	if (recording_ull(tok[5], &w) || recording_ull(tok[6], &op) || op > 3 ||
	    recording_ull(tok[7], &lvl) || lvl >= MEM_LVL_MAX)
		return recording_fail(r, "expected WEIGHT, OP 0-3 and LEVEL 0-%d", MEM_LVL_MAX - 1);
	x = snapshot_add_sample(snap);
	x->tid = (uint32_t)tid;
	x->cpu = (uint32_t)cpu;
	x->addr = addr;
	x->ip = ip;
	x->weight = w;
	x->op = (uint8_t)op;
	x->level = (uint8_t)lvl;
	x->period = period;
	x->area = (uint32_t)area;
	x->page_node = (uint16_t)pnode;
	x->cpu_node = (uint16_t)cnode;
	return 0;
}

static int recording_area(struct recording_reader *r, char **tok, size_t ntok,
			  struct snapshot *snap)
{
	unsigned long long a, b, off, ino;
	unsigned maj, min;
	char c;
	struct mem_area x;

	if (ntok != 7)
		return recording_fail(r, "expected 'area START END PGOFF MAJ:MIN INODE NAME'");
	if (!snap->smp.pid)
		return recording_fail(r, "expected a 'sampling' line before 'area'");
	if (recording_xnum(tok[1], &a) || recording_xnum(tok[2], &b) || b < a ||
	    recording_xnum(tok[3], &off))
		return recording_fail(r, "expected hexadecimal START <= END and PGOFF");
	if (sscanf(tok[4], "%x:%x%c", &maj, &min, &c) != 2 || recording_ull(tok[5], &ino))
		return recording_fail(r, "expected MAJ:MIN in hexadecimal and INODE");
	if (snap->smp.nareas >= UINT32_MAX - 1)
		return recording_fail(r, "too many areas");
	if (recording_unescape(tok[6]))
		return recording_fail(r, "expected an escaped NAME");
	x = (struct mem_area){ a, b, off, maj, min, ino, tok[6] };
	snapshot_add_area(snap, &x);
	return 0;
}

static int recording_tick(struct recording_reader *r, char **tok, size_t ntok,
			  struct snapshot *snap)
{
	unsigned long long t;
	double wall, load[3], up = -1;

	if (ntok != 6 && ntok != 7)
		return recording_fail(r, "expected 'tick NS WALL LOAD1 LOAD5 LOAD15 [UPTIME]'");
	if (recording_ull(tok[1], &t))
		return recording_fail(r, "expected tick time in ns, found '%.20s'", tok[1]);
	if (r->have_t && t <= r->last_t)
		return recording_fail(r, "expected tick times to increase, found %llu after %llu",
				      t, r->last_t);
	if (recording_double(tok[2], &wall) || wall < 0)
		return recording_fail(r, "expected wall-clock seconds, found '%.20s'", tok[2]);
	for (int i = 0; i < 3; i++)
		if (recording_double(tok[3 + i], &load[i]) || load[i] < 0)
			return recording_fail(r, "expected a load average, found '%.20s'",
					      tok[3 + i]);
	if (ntok == 7 && (recording_double(tok[6], &up) || up < 0))
		return recording_fail(r, "expected the uptime in seconds, found '%.20s'", tok[6]);
	snapshot_release(snap);
	snapshot_init(snap, r->ev.n);
	r->last_t = t;
	r->have_t = true;
	snap->t_ns = t;
	snap->wall = wall;
	memcpy(snap->load, load, sizeof(load));
	snap->uptime = up;
	snprintf(snap->host, sizeof(snap->host), "%s", r->host);
	snprintf(snap->kernel, sizeof(snap->kernel), "%s", r->kernel);
	return 0;
}

int recording_feed(struct recording_reader *r, const char *line, size_t len, struct snapshot *snap)
{
	char *buf, *tok[RECORDING_MAX_TOKENS];
	size_t ntok = 0;
	int ret = 0, at_for = 0;

	r->line++;
	r->err[0] = '\0';
	if (len && line[len - 1] == '\r')
		len--;
	if (len > RECORDING_MAX_LINE)
		return recording_fail(r, "line longer than %d bytes", RECORDING_MAX_LINE);
	if (memchr(line, '\0', len))
		return recording_fail(r, "expected text, found a NUL byte");
	if (!r->seen_magic) {
		char want[64];

		snprintf(want, sizeof(want), "%s %d", RECORDING_MAGIC, RECORDING_VERSION);
		if (len != strlen(want) || memcmp(line, want, len))
			return recording_fail(r, "expected '%s' (is this a pmctop recording?)",
					      want);
		r->seen_magic = true;
		return 0;
	}
	if (len == 0 || line[0] == '#')
		return 0;
	buf = xstrndup(line, len);
	for (char *p = buf; *p;) {
		if (ntok == RECORDING_MAX_TOKENS) {
			ret = recording_fail(r, "too many fields (%d at most)",
					     RECORDING_MAX_TOKENS);
			goto out_free;
		}
		tok[ntok++] = p;
		p = strchr(p, ' ');
		if (!p)
			break;
		*p++ = '\0';
		if (*p == ' ' || *p == '\0') {
			ret = recording_fail(r, "expected single spaces between fields");
			goto out_free;
		}
	}
	if (ntok == 0) {
		ret = recording_fail(r, "expected a record");
		goto out_free;
	}
	if (!r->header_done && strcmp(tok[0], "tick")) {
		/* the mode text keeps its spaces: take it from the original line */
		if (!strcmp(tok[0], "mode")) {
			snprintf(r->mode, sizeof(r->mode), "%.*s", (int)(len > 5 ? len - 5 : 0),
				 line + 5);
			goto out_free;
		}
		ret = recording_header_line(r, tok, ntok);
		goto out_free;
	}
	if (!r->header_done) {
		if (r->ev.n == 0) {
			ret = recording_fail(r, "expected at least one 'event' line before 'tick'");
			goto out_free;
		}
		r->header_done = true;
	}
	if (!strcmp(tok[0], "tick")) {
		if (r->in_tick) {
			ret = recording_fail(r, "expected 'end' before the next 'tick'");
			goto out_free;
		}
		ret = recording_tick(r, tok, ntok, snap);
		r->in_tick = ret == 0;
	} else if (!r->in_tick) {
		ret = recording_fail(r, "expected 'tick', found '%.20s'", tok[0]);
	} else if (!strcmp(tok[0], "cpu")) {
		ret = recording_cpu(r, tok, ntok, snap);
		at_for = ret ? 0 : 3;
	} else if (!strcmp(tok[0], "task")) {
		ret = recording_task(r, tok, ntok, snap, false);
		r->info_for = r->at_for = ret ? 0 : 1;
		goto out_free;
	} else if (!strcmp(tok[0], "thread")) {
		ret = recording_task(r, tok, ntok, snap, true);
		r->info_for = r->at_for = ret ? 0 : 2;
		goto out_free;
	} else if (!strcmp(tok[0], "at")) {
		/* between a task or thread line and its procinfo line */
		ret = recording_at(r, tok, ntok, snap);
		goto out_free;
	} else if (!strcmp(tok[0], "procinfo")) {
		ret = recording_procinfo(r, tok, ntok, snap);
		goto out_free;
	} else if (!strcmp(tok[0], "memtotal")) {
		ret = recording_memtotal(r, tok, ntok, snap);
	} else if (!strcmp(tok[0], "cgroups")) {
		ret = recording_cgroups(r, tok, ntok, snap);
	} else if (!strcmp(tok[0], "cgroup")) {
		ret = recording_cgroup(r, tok, ntok, snap);
		at_for = ret ? 0 : 4;
	} else if (!strcmp(tok[0], "sampling")) {
		ret = recording_sampling(r, tok, ntok, snap);
	} else if (!strcmp(tok[0], "map")) {
		ret = recording_map(r, tok, ntok, snap);
	} else if (!strcmp(tok[0], "area")) {
		ret = recording_area(r, tok, ntok, snap);
	} else if (!strcmp(tok[0], "sample")) {
		ret = recording_sample(r, tok, ntok, snap);
	} else if (!strcmp(tok[0], "end")) {
		if (ntok != 1) {
			ret = recording_fail(r, "expected 'end' alone");
		} else {
			r->in_tick = false;
			ret = 1;
		}
	} else {
		ret = recording_fail(
			r,
			"expected 'cpu', 'task', 'thread', 'at', 'procinfo', 'memtotal', "
			"'cgroups', "
			"'cgroup', 'sampling', 'map', 'area', 'sample' or 'end', found '%.20s'",
			tok[0]);
	}
	/* a procinfo or at line belongs to the entry line right before it */
	r->info_for = 0;
	r->at_for = at_for;
out_free:
	free(buf);
	return ret;
}
