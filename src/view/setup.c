/* The setup screen (F2): columns, the header's meters and the colours; its keys and its drawing. */
#include "config.h"
#include "view/setup.h"

#include <stdio.h>
#include <strings.h>

#include "view/canvas.h"
#include "view/ui.h"
#include "view/view.h"

/* The header's meters: the names the settings file gives them. */
static const char *const SETUP_METER_NAMES[UI_METER_MAX] = {
	[UI_METER_CPUS] = "cpus", [UI_METER_UPTIME] = "uptime", [UI_METER_LOAD] = "load",
	[UI_METER_SELF] = "self", [UI_METER_MEMORY] = "memory",
};

static const char *const SETUP_SCHEME_NAMES[UI_SCHEME_MAX] = {
	[UI_SCHEME_DEFAULT] = "default",
	[UI_SCHEME_MONO] = "mono",
	[UI_SCHEME_LIGHT] = "light",
};

bool setup_meter_shown(const struct ui *u, enum ui_meter k)
{
	return k == UI_METER_CPUS ? u->show_cpus : !(u->setup.meters_off & (1u << k));
}

const char *setup_meter_name(enum ui_meter k)
{
	return k < UI_METER_MAX ? SETUP_METER_NAMES[k] : "";
}

const char *setup_scheme_name(enum ui_scheme k)
{
	return k < UI_SCHEME_MAX ? SETUP_SCHEME_NAMES[k] : "";
}

int setup_meter_find(const char *name)
{
	for (int k = 0; k < UI_METER_MAX; k++)
		if (!strcasecmp(SETUP_METER_NAMES[k], name))
			return k;
	return -1;
}

int setup_scheme_find(const char *name)
{
	for (int k = 0; k < UI_SCHEME_MAX; k++)
		if (!strcasecmp(SETUP_SCHEME_NAMES[k], name))
			return k;
	return -1;
}

/* The entries of a setup section. */
static size_t setup_entries(enum ui_setup_section s)
{
	return s == UI_SETUP_COLUMNS  ? COL_MAX
	       : s == UI_SETUP_METERS ? UI_METER_MAX
				      : UI_SCHEME_MAX;
}

void setup_move(struct ui *u, int key)
{
	size_t *sel = &u->setup.sel[u->setup.sec], n = setup_entries(u->setup.sec);

	switch (key) {
	case UI_KEY_UP:
		*sel = *sel ? *sel - 1 : 0;
		break;
	case UI_KEY_DOWN:
		*sel = *sel + 1 < n ? *sel + 1 : n - 1;
		break;
	case UI_KEY_PGUP:
	case UI_KEY_HOME:
		*sel = 0;
		break;
	default: /* PgDn, End */
		*sel = n - 1;
		break;
	}
}

unsigned setup_toggle(struct ui *u)
{
	size_t sel = u->setup.sel[u->setup.sec];

	switch (u->setup.sec) {
	case UI_SETUP_COLUMNS: {
		int id = u->setup.cols.order[sel];

		if (columns_get(id)->rest) {
			snprintf(u->status, sizeof(u->status),
				 "%s is always shown, last: it takes the rest of the line",
				 columns_get(id)->title);
			return 0;
		}
		u->setup.cols.hidden ^= 1u << id;
		u->hscroll = 0; /* the scroll stops were those of other columns */
		return UI_ACT_COLUMNS;
	}
	case UI_SETUP_METERS:
		if (sel == UI_METER_CPUS)
			u->show_cpus = !u->show_cpus;
		else
			u->setup.meters_off ^= 1u << sel;
		return 0;
	default:
		u->setup.scheme = (enum ui_scheme)sel;
		return UI_ACT_SCHEME;
	}
}

/* F7/F8 in the columns: the highlighted column moves, and the highlight with it. */
void setup_order(struct ui *u, int dir)
{
	size_t *sel = &u->setup.sel[UI_SETUP_COLUMNS];

	if (u->setup.sec != UI_SETUP_COLUMNS) {
		snprintf(u->status, sizeof(u->status), "only columns have an order: Tab to them");
		return;
	}
	if (columns_choice_move(&u->setup.cols, *sel, dir)) {
		*sel = dir < 0 ? *sel - 1 : *sel + 1;
		u->hscroll = 0;
	} else if (columns_get(u->setup.cols.order[*sel])->rest)
		snprintf(u->status, sizeof(u->status),
			 "%s stays last: it takes the rest of the line",
			 columns_get(u->setup.cols.order[*sel])->title);
}

/* The setup screen's sections: their titles and widths. */
static const struct {
	const char *title;
	int w;
} SETUP_SECTIONS[UI_SETUP_MAX] = {
	[UI_SETUP_COLUMNS] = { "Columns", 22 },
	[UI_SETUP_METERS] = { "Meters", 26 },
	[UI_SETUP_COLOURS] = { "Colours", 22 },
};

static const char *const SETUP_METER_LABELS[UI_METER_MAX] = {
	[UI_METER_CPUS] = "CPU meters",	       [UI_METER_UPTIME] = "uptime",
	[UI_METER_LOAD] = "load average",      [UI_METER_SELF] = "pmctop's own cost",
	[UI_METER_MEMORY] = "memory and swap",
};

static const char *const SETUP_METER_HELP[UI_METER_MAX] = {
	[UI_METER_CPUS] = "one meter per CPU under the header: busy %, IPC, GHz (key 1)",
	[UI_METER_UPTIME] = "how long the machine has been up, on the first line",
	[UI_METER_LOAD] = "the load averages over 1, 5 and 15 minutes, on the first line",
	[UI_METER_SELF] = "what pmctop itself costs: CPU %, memory, descriptors (live only)",
	[UI_METER_MEMORY] = "top's MiB Mem and MiB Swap lines from /proc/meminfo, under Tasks",
};

static const char *const SETUP_SCHEME_HELP[UI_SCHEME_MAX] = {
	[UI_SCHEME_DEFAULT] = "green good, yellow fair, red poor values on the default background",
	[UI_SCHEME_MONO] = "no colours: bold, underline and reverse only (as NO_COLOR gives)",
	[UI_SCHEME_LIGHT] = "darker colours that read on a light background",
};

/* The text of entry i of section s, and whether it is on; the description in help. */
static void setup_entry(const struct view_ctx *v, enum ui_setup_section s, size_t i, char *buf,
			size_t size, const char **help, const char **title, bool *dim)
{
	const struct ui *u = v->u;

	*dim = false;
	*title = NULL;
	if (s == UI_SETUP_COLUMNS) {
		const struct column *col = columns_get(u->setup.cols.order[i]);

		snprintf(buf, size, "[%c] %s%s",
			 columns_choice_shown(&u->setup.cols, col->id) ? 'x' : ' ', col->title,
			 col->rest ? " (last)" : "");
		*help = col->help;
		*title = col->title;
		*dim = !model_column_shown(v->m, col->id);
	} else if (s == UI_SETUP_METERS) {
		snprintf(buf, size, "[%c] %s", setup_meter_shown(u, (enum ui_meter)i) ? 'x' : ' ',
			 SETUP_METER_LABELS[i]);
		*help = SETUP_METER_HELP[i];
	} else {
		snprintf(buf, size, "(%c) %s", u->setup.scheme == (enum ui_scheme)i ? '*' : ' ',
			 setup_scheme_name((enum ui_scheme)i));
		*help = SETUP_SCHEME_HELP[i];
	}
}

/*
 * The setup screen (F2): the columns in their order, shown or hidden; the header's meters;
 * the colour schemes. Side by side, the section in use highlighted; the highlighted entry's
 * description on the last line. A long column list scrolls with its highlight.
 */
void setup_draw(struct canvas *c, int y0, int h, const struct view_ctx *v)
{
	static const size_t N[UI_SETUP_MAX] = { COL_MAX, UI_METER_MAX, UI_SCHEME_MAX };
	const struct ui *u = v->u;
	int rows = h - 4, x = 0;
	const char *sel_help = "", *sel_title = NULL;
	char line[96];

	if (h < 1)
		return;
	x = canvas_put(c, 0, y0, "Setup", CANVAS_HEADER, -1);
	if (v->settings_path)
		canvas_printf(c, x, y0, CANVAS_DIM, -1, "  applied at once; w saves them to %s",
			      v->settings_path);
	else
		canvas_put(c, x, y0, "  applied at once; no settings file to save to (--no-config)",
			   CANVAS_DIM, -1);
	if (rows < 1)
		return;
	x = 0;
	for (int s = 0; s < UI_SETUP_MAX; s++) {
		int w = SETUP_SECTIONS[s].w;
		size_t sel = u->setup.sel[s],
		       top = sel >= (size_t)rows ? sel - (size_t)rows + 1 : 0;
		int attr = s == (int)u->setup.sec ? CANVAS_TITLE_SORT : CANVAS_TITLE;

		canvas_fill(c, y0 + 2, x, x + w - 1, ' ', attr);
		/* a list cut short says where in it the highlight is */
		if (N[s] > (size_t)rows)
			canvas_printf(c, x + 1, y0 + 2, attr, w - 2, "%s %zu/%zu",
				      SETUP_SECTIONS[s].title, sel + 1, N[s]);
		else
			canvas_put(c, x + 1, y0 + 2, SETUP_SECTIONS[s].title, attr, w - 2);
		for (size_t i = top; i < N[s] && i - top < (size_t)rows; i++) {
			int y = y0 + 3 + (int)(i - top);
			const char *help, *title;
			bool dim, on = s == (int)u->setup.sec && i == sel;

			setup_entry(v, (enum ui_setup_section)s, i, line, sizeof(line), &help,
				    &title, &dim);
			if (on) {
				canvas_fill(c, y, x, x + w - 1, ' ', CANVAS_SELECTED);
				sel_help = help;
				sel_title = title;
			}
			canvas_put(c, x + 1, y, line,
				   on	 ? CANVAS_SELECTED
				   : dim ? CANVAS_DIM
					 : CANVAS_NORMAL,
				   w - 2);
		}
		x += w;
	}
	canvas_printf(
		c, 0, y0 + h - 1, CANVAS_DIM, -1, "%s%s%s%s", sel_title ? sel_title : "",
		sel_title ? ": " : "", sel_help,
		u->setup.sec == UI_SETUP_COLUMNS &&
				!model_column_shown(
					v->m, u->setup.cols.order[u->setup.sel[UI_SETUP_COLUMNS]])
			? "; no data in this event mode"
			: "");
}
