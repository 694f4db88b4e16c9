/* The prompts: search and filter as they are typed, the delay, the time to go to, the menus' keys. */
#ifndef PMCTOP_VIEW_INPUT_H
#define PMCTOP_VIEW_INPUT_H

#include <stdbool.h>

#include "view/prompt.h"

struct model;
struct ui;
struct ui_list;

enum ui_prompt {
	UI_PROMPT_NONE,
	UI_PROMPT_SEARCH,
	UI_PROMPT_FILTER,
	UI_PROMPT_USER, /* u: the users menu: Up/Down, Enter shows the entry's processes, Esc */
	UI_PROMPT_DELAY,
	UI_PROMPT_TIME,	   /* ':': the time of a replay to go to */
	UI_PROMPT_SIGNAL,  /* the signal menu: Up/Down, a number or a letter, Enter */
	UI_PROMPT_CONFIRM, /* y sends the chosen signal; any other key cancels */
	UI_PROMPT_SORT,	   /* F6: the sort menu: Up/Down, Enter sorts by the entry, Esc */
};

/* The prompts' part of struct ui. */
struct input_state {
	enum ui_prompt prompt;	      /* the prompt or menu open */
	struct prompt line;	      /* the text typed in the prompt */
	char search[PROMPT_MAX];      /* the search as typed */
	bool search_miss;	      /* the search typed matches no row: the prompt says so */
	char filter_prev[PROMPT_MAX]; /* the filter before the prompt: Esc in it restores it */
};

/*
 * A time to go to in a replay: "+SECONDS" from its start (*rel set), or
 * "HH:MM[:SS]" of the recorded day; 0 or -EINVAL. Pure.
 */
int input_parse_time(const char *s, bool *rel, double *seconds);
/* Open prompt p with initial text (cut to fit); the filter prompt keeps the filter for Esc. */
void input_start(struct ui *u, enum ui_prompt p, const char *initial);
/*
 * A key while a prompt or menu is open (u->input.prompt is not UI_PROMPT_NONE): edits the text, or
 * goes to the open menu's keys; Enter commits, Esc cancels. Returns UI_ACT_* flags.
 */
unsigned input_key(struct ui *u, int key, const struct model *m, const struct ui_list *l);

#endif
