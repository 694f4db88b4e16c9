/* The screen as a whole: the current view laid out and drawn on a canvas by the screens' files. */
#ifndef PMCTOP_VIEW_H
#define PMCTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/selfcost.h"
#include "util/errmsg.h"
#include "view/canvas.h"
#include "model/model.h"
#include "view/pager.h"
#include "view/ui.h"

struct view_ctx {
	const struct model *m;
	bool have_frame;    /* m holds rows (a second snapshot came) */
	const struct ui *u; /* the loop applies view_page to it before drawing */
	const struct ui_list *list;
	const char *mode; /* the source's event mode line */
	const char *host;
	const char *kernel;
	double uptime; /* seconds; < 0 when unknown (replays) */
	bool replay;
	const struct selfcost *self; /* borrowed: pmctop's own cost when live; NULL in replays */
	const char *const *log;	     /* messages for the user, oldest first */
	size_t nlog;
	bool utf8;			 /* UTF-8 bars, else ASCII */
	const char *sample_err;		 /* why the drilled process is not sampled; "" if it is */
	const struct errmsg_mode *facts; /* the source's mode facts; NULL when it has none */
	/*
	 * Names an instruction address of the sampled process among the model's
	 * mappings ("main+0x1c (app)"); NULL shows bare addresses.
	 */
	const char *(*ip_name)(void *arg, uint64_t ip, char *buf, size_t size);
	void *ip_arg;
	bool ip_local;		   /* the names come from this machine's files (a replay) */
	const char *settings_path; /* where the setup's w writes; NULL when there is none */
};

/*
 * Layout of the current view of ctx on a w x h screen, a pure function: the lines a page key
 * moves (list rows on screen, or lines of help or log), 0 when nothing pages; *list is set
 * when a list is on screen, whose selection list_set_page must then keep in view.
 */
size_t view_page(const struct view_ctx *ctx, int w, int h, bool *list);
/* The screen line of the list's column titles in that layout; -1 when no list is on screen. */
int view_list_y(const struct view_ctx *ctx, int w, int h);
/* Draw the current view of ctx on c (cleared first); changes nothing but c. */
void view_render(struct canvas *c, const struct view_ctx *ctx);

#endif
