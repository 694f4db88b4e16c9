/* Sampling: per-thread, per-CPU inherited events sharing one ring per CPU (as perf record -p). */
#include "config.h"
#include "collect/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/cpumap.h"
#include "collect/events.h"
#include "collect/proc.h"
#include "util/xalloc.h"

#define SAMPLER_RING_ORDER 5	/* 32 data pages per CPU */
#define SAMPLER_BASE_TYPE                                                                   \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |      \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU)

const unsigned SAMPLER_PRECISE_ORDER[4] = { 3, 2, 1, 0 };

struct sampler_ring {
	int cpu;
	struct ring ring;
	bool hup;
};

struct sampler {
	const struct sysops *ops;	/* borrowed */
	int pid;
	enum sample_kind kind;
	uint64_t period;
	struct sampler_attrs a;
	uint64_t ids[256];	/* event id -> which attr, for the op of PEBS samples */
	uint8_t id_attr[256];
	size_t nids;
	int *fds;
	size_t nfds, fdcap;
	struct sampler_ring *rings;
	size_t nrings;
	struct ring_stats st;
	bool no_format_lost;	/* the kernel has no PERF_FORMAT_LOST */
	bool no_inherit_thread;	/* nor attr.inherit_thread */
	ring_sample_cb cb;	/* during a drain */
	void *arg;
};

int sampler_pebs_attrs(unsigned precise, uint64_t period, bool kernel, struct sampler_attrs *out)
{
	static const struct {
		const char *name;
		enum mem_op op;
	} EV[] = {
		{ "MEM_INST_RETIRED:ALL_LOADS", MEM_OP_LOAD },
		{ "MEM_INST_RETIRED:ALL_STORES", MEM_OP_STORE },
	};

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < 2; i++) {
		struct perf_event_attr *a = &out->attr[out->n];
		bool hw;

		if (events_encode(EV[i].name, kernel, a, &hw))
			continue;
		a->precise_ip = precise;
		a->sample_period = period ? period : 10007;	/* prime: no lockstep with loops */
		a->sample_type = SAMPLER_BASE_TYPE | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
		a->exclude_hv = 1;
		out->op[out->n] = EV[i].op;
		out->name[out->n] = EV[i].name;
		out->n++;
	}
	return out->n ? 0 : -ENOENT;
}

void sampler_ibs_attrs(int ibs_type, uint64_t period, struct sampler_attrs *out)
{
	struct perf_event_attr *a = &out->attr[0];
	uint64_t p = period ? period : 100000;

	memset(out, 0, sizeof(*out));
	a->size = sizeof(*a);
	a->type = (uint32_t)ibs_type;
	/* IBS counts in units of 16 and takes no exclude_* bits at all */
	a->sample_period = p < 16 ? 16 : p & ~(uint64_t)15;
	a->sample_type = SAMPLER_BASE_TYPE | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT_STRUCT;
	out->op[0] = MEM_OP_NA;
	out->name[0] = "ibs_op";
	out->n = 1;
}

void sampler_fault_attrs(uint64_t period, bool kernel, struct sampler_attrs *out)
{
	struct perf_event_attr *a = &out->attr[0];

	memset(out, 0, sizeof(*out));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_PAGE_FAULTS;
	a->sample_period = period ? period : 1;
	a->sample_type = SAMPLER_BASE_TYPE;
	a->exclude_kernel = !kernel;
	a->exclude_hv = 1;
	out->op[0] = MEM_OP_NA;
	out->name[0] = "page-faults";
	out->n = 1;
}

static void sampler_close_fds(struct sampler *s)
{
	for (size_t i = 0; i < s->nrings; i++)
		ring_unmap(&s->rings[i].ring);
	for (size_t i = 0; i < s->nfds; i++)
		s->ops->close(s->ops->ctx, s->fds[i]);
	free(s->rings);
	free(s->fds);
	s->rings = NULL;
	s->fds = NULL;
	s->nrings = s->nfds = s->fdcap = 0;
	s->nids = 0;
}

/* Open every attr on every thread and CPU; the first fd per CPU owns that CPU's ring. */
static int sampler_open_all(struct sampler *s, const int *tids, size_t ntids, const int *cpus,
			    size_t ncpus)
{
	long page = sysconf(_SC_PAGESIZE);

	s->rings = xcalloc(ncpus, sizeof(*s->rings));
	for (size_t c = 0; c < ncpus; c++) {
		struct sampler_ring *r = &s->rings[s->nrings];
		bool mapped = false;

		r->cpu = cpus[c];
		for (size_t k = 0; k < s->a.n; k++) {
			for (size_t t = 0; t < ntids; t++) {
				struct perf_event_attr a = s->a.attr[k];
				int fd, e;

				a.size = sizeof(a);
				a.inherit = 1;
				perf_compat_set_inherit_thread(&a, !s->no_inherit_thread);
				a.watermark = 1;
				a.wakeup_watermark = (uint32_t)(page << SAMPLER_RING_ORDER) / 2;
				a.sample_id_all = 1;
				/* LOST records can undercount; the kernel's per-event count does not */
				a.read_format = s->no_format_lost ? 0 : PERF_FORMAT_LOST;
				fd = sysops_perf_open(s->ops, &a, tids[t], cpus[c], -1);
				if (fd == -EINVAL && !s->no_format_lost) {
					/* before Linux 6.0 */
					s->no_format_lost = true;
					a.read_format = 0;
					fd = sysops_perf_open(s->ops, &a, tids[t], cpus[c], -1);
				}
				if (fd == -ESRCH)
					continue;	/* the thread exited meanwhile */
				if (fd < 0)
					return fd;
				s->fds = xgrow(s->fds, &s->fdcap, s->nfds + 1, sizeof(*s->fds));
				s->fds[s->nfds++] = fd;
				if (s->nids < 256) {
					s->ops->ioctl(s->ops->ctx, fd, PERF_EVENT_IOC_ID,
						      (unsigned long)&s->ids[s->nids]);
					s->id_attr[s->nids++] = (uint8_t)k;
				}
				if (!mapped) {
					e = ring_map(&r->ring, s->ops, fd, SAMPLER_RING_ORDER,
						     a.sample_type);
					if (e)
						return e;
					mapped = true;
					s->nrings++;
				} else {
					e = s->ops->ioctl(s->ops->ctx, fd, PERF_EVENT_IOC_SET_OUTPUT,
							  (unsigned long)r->ring.fd);
					if (e < 0)
						return e;
				}
			}
		}
	}
	return s->nrings ? 0 : -ESRCH;
}

static int sampler_try(struct sampler *s, const int *tids, size_t ntids, const int *cpus,
		       size_t ncpus)
{
	int r = sampler_open_all(s, tids, ntids, cpus, ncpus);

	if (r)
		sampler_close_fds(s);
	return r;
}

static int sampler_read_int(const struct sysops *ops, const char *path, int *v)
{
	char buf[64];
	long n;
	int fd = ops->openat(ops->ctx, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fd;
	n = ops->pread(ops->ctx, fd, buf, sizeof(buf) - 1, 0);
	ops->close(ops->ctx, fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return sscanf(buf, "%d", v) == 1 ? 0 : -EINVAL;
}

static void sampler_note(struct errmsg_notes *notes, enum errmsg_what what, const char *name,
			 int err)
{
	struct errmsg_fact f;

	errmsg_notes_add(notes, errmsg_fact_set(&f, what, err, name, -2, 0));
}

int sampler_open(struct sampler **out, int rootfd, int pid, const struct sampler_req *req,
		 struct errmsg_notes *notes, struct errmsg_fact *err)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	int *tids = NULL;
	size_t tcap = 0;
	struct cpumap cpus = { NULL, 0, 0 };
	char path[4096];
	long n;
	int r = -ENOENT;

	memset(notes, 0, sizeof(*notes));
	errmsg_fact_set(err, ERRMSG_SAMPLE, 0, NULL, -2, pid);
	s->ops = sysops_or_real(req->ops);
	s->pid = pid;
	s->no_inherit_thread = req->no_inherit_thread;
	s->no_format_lost = req->no_format_lost;
	snprintf(path, sizeof(path), "%d/task", pid);
	n = proc_list_ids(rootfd, path, &tids, &tcap);
	if (n <= 0) {
		errmsg_fact_set(err, ERRMSG_SAMPLE_TASK, -ESRCH, NULL, -2, pid);
		r = -ESRCH;
		goto out_fail;
	}
	if (cpumap_online(&cpus, s->ops, req->sysfs, rootfd) || !cpus.n) {
		errmsg_fact_set(err, ERRMSG_SAMPLE_CPUS, -ENOENT, NULL, -2, pid);
		r = -ENOENT;
		goto out_fail;
	}
	if (req->kind == SAMPLE_AUTO || req->kind == SAMPLE_PEBS) {
		r = -ENOENT;
		for (size_t p = 0; p < 3; p++) {
			if (sampler_pebs_attrs(SAMPLER_PRECISE_ORDER[p], req->period, req->kernel,
					       &s->a))
				break;
			r = sampler_try(s, tids, (size_t)n, cpus.cpu, cpus.n);
			/* a precise level the PMU cannot do: try the next lower one */
			if (r != -EINVAL && r != -EOPNOTSUPP)
				break;
		}
		if (!r) {
			s->kind = SAMPLE_PEBS;
			goto out_ok;
		}
		sampler_note(notes, ERRMSG_SAMPLE_PEBS, "MEM_INST_RETIRED", r);
		if (req->kind == SAMPLE_PEBS)
			goto out_err;
	}
	if (req->kind == SAMPLE_AUTO || req->kind == SAMPLE_IBS) {
		int type;

		snprintf(path, sizeof(path), "%s/bus/event_source/devices/ibs_op/type",
			 req->sysfs ? req->sysfs : "/sys");
		r = sampler_read_int(s->ops, path, &type);
		if (!r) {
			sampler_ibs_attrs(type, req->period, &s->a);
			r = sampler_try(s, tids, (size_t)n, cpus.cpu, cpus.n);
		}
		if (!r) {
			s->kind = SAMPLE_IBS;
			goto out_ok;
		}
		sampler_note(notes, ERRMSG_SAMPLE_IBS, "ibs_op", r);
		if (req->kind == SAMPLE_IBS)
			goto out_err;
	}
	sampler_fault_attrs(req->period, req->kernel, &s->a);
	r = sampler_try(s, tids, (size_t)n, cpus.cpu, cpus.n);
	if (!r) {
		s->kind = SAMPLE_FAULTS;
		goto out_ok;
	}
out_err:
	errmsg_fact_set(err, ERRMSG_SAMPLE, r ? r : -EINVAL, s->a.name[0], -2, pid);
out_fail:
	free(tids);
	cpumap_release(&cpus);
	sampler_close_fds(s);
	free(s);
	*out = NULL;
	return r ? r : -EINVAL;
out_ok:
	s->period = s->a.attr[0].sample_period;
	free(tids);
	cpumap_release(&cpus);
	*out = s;
	return 0;
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	sampler_close_fds(s);
	free(s);
}

enum sample_kind sampler_kind(const struct sampler *s)
{
	return s->kind;
}

uint64_t sampler_period(const struct sampler *s)
{
	return s->period;
}

size_t sampler_poll_fds(const struct sampler *s, int *fds, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nrings && n < max; i++)
		if (!s->rings[i].hup)
			fds[n++] = s->rings[i].ring.fd;
	return n;
}

void sampler_hangup(struct sampler *s, int fd)
{
	for (size_t i = 0; i < s->nrings; i++)
		if (s->rings[i].ring.fd == fd)
			s->rings[i].hup = true;
}

/* PEBS events say nothing of the op unless DATA_SRC does: take it from the event. */
static void sampler_fix_op(const struct ring_sample *in, void *arg)
{
	struct sampler *s = arg;
	struct ring_sample smp = *in;

	if (smp.op == MEM_OP_NA && s->a.n > 1)
		for (size_t i = 0; i < s->nids; i++)
			if (s->ids[i] == smp.id) {
				smp.op = s->a.op[s->id_attr[i]];
				break;
			}
	s->cb(&smp, s->arg);
}

void sampler_drain(struct sampler *s, ring_sample_cb cb, void *arg)
{
	s->cb = cb;
	s->arg = arg;
	for (size_t i = 0; i < s->nrings; i++)
		ring_drain(&s->rings[i].ring, sampler_fix_op, s, &s->st);
}

const struct ring_stats *sampler_stats(const struct sampler *s)
{
	return &s->st;
}

uint64_t sampler_lost(const struct sampler *s)
{
	uint64_t total = 0;

	if (s->no_format_lost)
		return s->st.lost;
	for (size_t i = 0; i < s->nfds; i++) {
		uint64_t v[2];	/* value, lost */

		if (sysops_read(s->ops, s->fds[i], v, sizeof(v)) == (long)sizeof(v))
			total += v[1];
	}
	/* an exited thread's count is gone with it: never report less than the records said */
	return total > s->st.lost ? total : s->st.lost;
}
