/* The setup screen (F2): columns, the header's meters and the colours; its keys and its drawing. */
#ifndef PMCTOP_VIEW_SETUP_H
#define PMCTOP_VIEW_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

struct canvas;
struct ui;
struct view_ctx;

/* The parts of the header the setup screen shows or hides (the CPU meters are show_cpus). */
enum ui_meter {
	UI_METER_CPUS,	 /* the per-core meters (also the key 1) */
	UI_METER_UPTIME, /* "up 1 day 02:03" */
	UI_METER_LOAD,	 /* the load averages */
	UI_METER_SELF,	 /* pmctop's own cost */
	UI_METER_MEMORY, /* top's "MiB Mem" and "MiB Swap" lines */
	UI_METER_MAX
};

/* Colour schemes; out/tui.c maps each to the terminal's attributes. */
enum ui_scheme {
	UI_SCHEME_DEFAULT,
	UI_SCHEME_MONO,	 /* attributes only, as NO_COLOR gives */
	UI_SCHEME_LIGHT, /* for terminals with a light background */
	UI_SCHEME_MAX
};

/* The sections of the setup screen, left to right. */
enum ui_setup_section { UI_SETUP_COLUMNS, UI_SETUP_METERS, UI_SETUP_COLOURS, UI_SETUP_MAX };

/* The setup screen's part of struct ui: the settings it shows, which the settings file keeps. */
struct setup_state {
	struct col_choice cols; /* the table's columns; the loop gives them to the model */
	unsigned meters_off;	/* bit per enum ui_meter hidden (not UI_METER_CPUS) */
	enum ui_scheme scheme;
	enum ui_setup_section sec; /* the section in use */
	size_t sel[UI_SETUP_MAX];  /* the highlighted entry of each section */
};

/* Whether meter k of the header is shown. */
bool setup_meter_shown(const struct ui *u, enum ui_meter k);
/* The name of meter k and of scheme k, as the setup screen and the settings file say them. */
const char *setup_meter_name(enum ui_meter k);
const char *setup_scheme_name(enum ui_scheme k);
/* The meter or scheme called name; -1 when none is. */
int setup_meter_find(const char *name);
int setup_scheme_find(const char *name);
/* A movement key in the section in use: its highlighted entry. */
void setup_move(struct ui *u, int key);
/*
 * Show or hide the highlighted column or meter, or choose the highlighted colours. Returns
 * UI_ACT_COLUMNS or UI_ACT_SCHEME when the loop must pass the change on, else 0.
 */
unsigned setup_toggle(struct ui *u);
/* F7/F8 in the columns: the highlighted column moves by dir, and the highlight with it. */
void setup_order(struct ui *u, int dir);
/*
 * The setup screen (F2) on lines y0 .. y0 + h - 1: the columns in their order, shown or
 * hidden; the header's meters; the colour schemes. Side by side, the section in use
 * highlighted; the highlighted entry's description on the last line.
 */
void setup_draw(struct canvas *c, int y0, int h, const struct view_ctx *v);

#endif
