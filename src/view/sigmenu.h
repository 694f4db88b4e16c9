/* The signal menu: its signals, its keys, the question before sending, and its drawing. */
#ifndef PMCTOP_VIEW_SIGMENU_H
#define PMCTOP_VIEW_SIGMENU_H

#include <stdbool.h>
#include <stddef.h>

struct canvas;
struct model;
struct ui;

/* The signal menu's part of struct ui: its highlight and the question before sending. */
struct sigmenu_state {
	size_t sel;    /* the highlighted entry */
	int typed;     /* a number typed in the menu; 0 for none */
	char ask[224]; /* the question of UI_PROMPT_CONFIRM */
	bool ask_gone; /* a target of the question exited: y sends nothing */
};

/* One entry of the signal menu. */
struct ui_signal {
	int num;
	const char *name; /* without SIG */
};

/* The signal menu, in its order; *n gets its length. */
const struct ui_signal *sigmenu_signals(size_t *n);
/* The name of signal num ("TERM"), or NULL for one the menu does not list. */
const char *sigmenu_signal_name(int num);
/*
 * A key in the signal menu: move, type a number, jump by a letter; Enter asks before sending
 * to u->tags.targets (UI_PROMPT_CONFIRM), Esc closes. Returns UI_ACT_* flags.
 */
unsigned sigmenu_key(struct ui *u, int key, const struct model *m);
/* Draw the signal menu over the left of lines y .. y + h - 1: its entries, the chosen one lit. */
void sigmenu_draw(struct canvas *c, int y, int h, const struct ui *u);

#endif
