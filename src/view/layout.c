/* Layout maths, kept pure so the tests can walk every width. */
#include "config.h"
#include "view/layout.h"

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
