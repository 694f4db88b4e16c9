/* The header: host, events, what is listed, the memory lines, and the per-core meters. */
#ifndef PMCTOP_VIEW_HEADER_H
#define PMCTOP_VIEW_HEADER_H

#include "view/layout.h"
#include "view/view.h"

/* The header's lines: three, and the memory meters' two where they are shown. */
int header_lines(const struct view_ctx *v);

int header_draw(struct canvas *c, const struct view_ctx *v);

/* Lines the core meters take atop a body of body lines, with the blank after; 0 when hidden. */
int header_cores_fit(const struct model *m, int w, int body, struct layout_cores *lc);

/* The per-core meters; returns the lines used. */
int header_cores(struct canvas *c, int y, int body, const struct view_ctx *v);

#endif
