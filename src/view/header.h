/* The header: host, events, what is listed, the memory lines, and the per-core meters. */
#ifndef PMCTOP_VIEW_HEADER_H
#define PMCTOP_VIEW_HEADER_H

#include "view/layout.h"
#include "view/view.h"

/* The lines the header takes: three, and the memory meters' two where they are shown. */
int header_lines(const struct view_ctx *v);
/* Draw the header from the top line of c; returns its lines (header_lines). */
int header_draw(struct canvas *c, const struct view_ctx *v);
/*
 * The lines the core meters of m take on a w-wide screen atop a body of body lines, with the
 * blank after, their layout in *lc; 0 when they do not fit (or there is no CPU).
 */
int header_cores_fit(const struct model *m, int w, int body, struct layout_cores *lc);
/* Draw the per-core meters from line y; returns the lines used (header_cores_fit). */
int header_cores(struct canvas *c, int y, int body, const struct view_ctx *v);

#endif
