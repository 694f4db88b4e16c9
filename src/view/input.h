/* The prompts: search and filter as they are typed, the delay, the time to go to, the menus' keys. */
#ifndef PMCTOP_VIEW_INPUT_H
#define PMCTOP_VIEW_INPUT_H

#include "view/ui.h"

/* Open prompt p with initial text (cut to fit); the filter prompt keeps the filter for Esc. */
void input_start(struct ui *u, enum ui_prompt p, const char *initial);
/*
 * A key while a prompt or menu is open (u->prompt is not UI_PROMPT_NONE): edits the text, or
 * goes to the open menu's keys; Enter commits, Esc cancels. Returns UI_ACT_* flags.
 */
unsigned input_key(struct ui *u, int key, const struct model *m, const struct ui_list *l);

#endif
