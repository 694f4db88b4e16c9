/* The prompts: search and filter as they are typed, the delay, the time to go to, the menus' keys. */
#ifndef PMCTOP_VIEW_INPUT_H
#define PMCTOP_VIEW_INPUT_H

#include "view/ui.h"

unsigned input_key(struct ui *u, int key, const struct model *m, const struct ui_list *l);

void input_start(struct ui *u, enum ui_prompt p, const char *initial);

#endif
