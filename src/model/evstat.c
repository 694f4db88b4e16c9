/* Per-event time shares over one interval, and what they say of each event. */
#include "config.h"
#include "model/evstat.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Add the deltas of one pair of count arrays; counts that went backwards add nothing. */
static void evstat_add(uint64_t *en, uint64_t *run, uint64_t *val, const struct snap_count *a,
		       const struct snap_count *b)
{
	if (a->err || b->err || b->enabled < a->enabled || b->running < a->running ||
	    b->value < a->value)
		return;
	*en += b->enabled - a->enabled;
	*run += b->running - a->running;
	if (val)
		*val += b->value - a->value;
}

void evstat_update(struct evstat *st, const struct evlist *ev, const struct snapshot *prev,
		   const struct snapshot *cur)
{
	for (size_t i = 0; i < ev->n; i++) {
		bool suspect = st[i].suspect;

		memset(&st[i], 0, sizeof(st[i]));
		st[i].suspect = suspect;
	}
	for (size_t t = 0; t < cur->ntasks; t++) {
		const struct snap_task *b = &cur->tasks[t];
		const struct snap_task *a = snapshot_find_task(prev, b->pid);

		if (b->err || !a || a->err || a->start != b->start)
			continue;
		for (size_t i = 0; i < ev->n && i < cur->nev && i < prev->nev; i++) {
			struct evstat *s = &st[i];

			if (b->c[i].err) {
				if (!s->tasks_failed++)
					s->task_err = b->c[i].err;
				continue;
			}
			s->tasks++;
			evstat_add(&s->en_tasks, &s->run_tasks, &s->value, &a->c[i], &b->c[i]);
		}
	}
	for (size_t c = 0; c < cur->ncpus; c++) {
		const struct snap_cpu *b = &cur->cpus[c], *a = NULL;

		for (size_t k = 0; k < prev->ncpus && !a; k++)
			if (prev->cpus[k].cpu == b->cpu)
				a = &prev->cpus[k];
		if (!a)
			continue;
		for (size_t i = 0; i < ev->n && i < cur->nev && i < prev->nev; i++)
			evstat_add(&st[i].en_cpus, &st[i].run_cpus, NULL, &a->c[i], &b->c[i]);
	}
}

double evstat_share(const struct evstat *st, bool cpus)
{
	uint64_t en = cpus ? st->en_cpus : st->en_tasks, run = cpus ? st->run_cpus : st->run_tasks;

	return en ? (double)run / (double)en : NAN;
}

enum evstat_status evstat_status(const struct ev *e, const struct evstat *st)
{
	int err = e->err < 0 ? -e->err : e->err;
	double pt, pc;

	if (err)
		return err == ENOENT || err == EOPNOTSUPP ? EVSTAT_UNSUPPORTED : EVSTAT_FAILED;
	if (!st)
		return EVSTAT_IDLE;
	if (st->suspect)
		return EVSTAT_SUSPECT;
	pt = evstat_share(st, false);
	pc = evstat_share(st, true);
	if (isnan(pt) && isnan(pc))
		return EVSTAT_IDLE;
	/* never on the PMU: in every process and on every CPU where it was enabled */
	if ((isnan(pt) || pt == 0) && (isnan(pc) || pc == 0))
		return EVSTAT_NEVER_RAN;
	if ((!isnan(pt) && pt < 1) || (!isnan(pc) && pc < 1))
		return EVSTAT_MULTIPLEXED;
	return EVSTAT_COUNTED;
}

const char *evstat_status_name(enum evstat_status s)
{
	switch (s) {
	case EVSTAT_UNSUPPORTED:
		return "not supported";
	case EVSTAT_FAILED:
		return "failed";
	case EVSTAT_SUSPECT:
		return "suspect";
	case EVSTAT_NEVER_RAN:
		return "never ran";
	case EVSTAT_MULTIPLEXED:
		return "multiplexed";
	case EVSTAT_COUNTED:
		return "counted";
	case EVSTAT_IDLE:
		return "idle";
	}
	return "?";
}
