/* Layout maths, kept pure so the tests can walk every width. */
#include "config.h"
#include "view/layout.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define LAYOUT_CORE_PREFERRED_W 60

size_t layout_fit(const struct layout_col *cand, size_t n, int width, int min_last, int *out)
{
	bool *keep = xcalloc(n ? n : 1, sizeof(*keep));
	int used = min_last;
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		keep[i] = true;
		used += cand[i].width + 1;
	}
	while (used > width) {
		size_t worst = n;

		for (size_t i = 0; i < n; i++)
			if (keep[i] && (worst == n || cand[i].prio < cand[worst].prio))
				worst = i;
		if (worst == n)
			break;
		keep[worst] = false;
		used -= cand[worst].width + 1;
	}
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			out[kept++] = cand[i].id;
	free(keep);
	return kept;
}

size_t layout_scroll(const struct layout_col *cand, size_t n, size_t pinned, size_t pos, int width,
		     int min_last, int *out, bool *dropped)
{
	struct layout_col *keep = xcalloc(n ? n : 1, sizeof(*keep));
	size_t k = 0, got, off = pos ? pos - 1 : 0;

	if (pinned > n)
		pinned = n;
	for (size_t i = 0; i < n; i++) {
		if (i >= pinned && i < pinned + off)
			continue;
		keep[k] = cand[i];
		/* the column the position brings in stays; the fit drops others for it */
		if (pos && i == pinned + off)
			keep[k].prio = INT_MAX;
		k++;
	}
	got = layout_fit(keep, k, width, min_last, out);
	*dropped = got < k;
	free(keep);
	return got;
}

size_t layout_scroll_stops(const struct layout_col *cand, size_t n, size_t pinned, int width,
			   int min_last, size_t *stops, size_t max)
{
	size_t scrollable = n > pinned ? n - pinned : 0, nstops = 1, nprev;
	int *prev = xcalloc(n ? n : 1, sizeof(*prev));
	int *cur = xcalloc(n ? n : 1, sizeof(*cur));
	bool dropped;

	stops[0] = 0;
	nprev = layout_scroll(cand, n, pinned, 0, width, min_last, prev, &dropped);
	/* a step that only scrolls off a column the fit had dropped anyway shows nothing new */
	for (size_t pos = 1; dropped && pos <= scrollable && nstops < max; pos++) {
		size_t k = layout_scroll(cand, n, pinned, pos, width, min_last, cur, &dropped);

		if (k == nprev && !memcmp(cur, prev, k * sizeof(*cur)))
			continue;
		stops[nstops++] = pos;
		memcpy(prev, cur, k * sizeof(*cur));
		nprev = k;
	}
	free(prev);
	free(cur);
	return nstops;
}

int layout_cores(int ncpus, int width, int max_rows, int min_w, struct layout_cores *out)
{
	int need, pref, cols;

	memset(out, 0, sizeof(*out));
	if (ncpus <= 0 || width < min_w || max_rows <= 0)
		return -1;
	/* enough columns for the rows allowed; more on wide screens, as meters need not be huge */
	need = (ncpus + max_rows - 1) / max_rows;
	pref = width / LAYOUT_CORE_PREFERRED_W;
	if (pref > ncpus)
		pref = ncpus;
	cols = need > pref ? need : pref;
	if (cols < 1)
		cols = 1;
	if (cols * (min_w + 1) - 1 > width)
		return -1;
	out->cols = cols;
	out->rows = (ncpus + cols - 1) / cols;
	out->cell_w = (width - (cols - 1)) / cols;
	return 0;
}

int layout_fields(const struct layout_field *f, size_t n, int width, int *choice)
{
	int total = 0;

	for (size_t i = 0; i < n; i++) {
		choice[i] = 1;
		total += f[i].cells;
	}
	while (total > width) {
		size_t low = n;

		for (size_t i = 0; i < n; i++)
			if (choice[i] && f[i].prio < LAYOUT_KEEP &&
			    (low == n || f[i].prio <= f[low].prio))
				low = i;
		if (low == n)
			break; /* what must stay is wider than the line */
		if (choice[low] == 1 && f[low].short_cells > 0 &&
		    f[low].short_cells < f[low].cells) {
			choice[low] = 2;
			total -= f[low].cells - f[low].short_cells;
		} else {
			total -= choice[low] == 2 ? f[low].short_cells : f[low].cells;
			choice[low] = 0;
		}
	}
	/*
	 * What a field of lower priority left behind may take back one that gave way:
	 * in order of priority (of equals, the leftmost first), each takes its text or
	 * else its short form where that fits.
	 */
	for (size_t done = 0, prev = n; done < n; done++) {
		size_t next = n;

		for (size_t i = 0; i < n; i++) {
			bool after = prev == n || f[i].prio < f[prev].prio ||
				     (f[i].prio == f[prev].prio && i > prev);

			if (after && (next == n || f[i].prio > f[next].prio))
				next = i;
		}
		if (next == n)
			break;
		prev = next;
		if (choice[next] == 1)
			continue;
		if (total - (choice[next] == 2 ? f[next].short_cells : 0) + f[next].cells <=
		    width) {
			total += f[next].cells - (choice[next] == 2 ? f[next].short_cells : 0);
			choice[next] = 1;
		} else if (!choice[next] && f[next].short_cells > 0 &&
			   total + f[next].short_cells <= width) {
			total += f[next].short_cells;
			choice[next] = 2;
		}
	}
	return total;
}
