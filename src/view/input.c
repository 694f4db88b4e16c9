/* The prompts: search and filter as they are typed, the delay, the time to go to, the menus' keys. */
#include "config.h"
#include "view/input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "view/list.h"
#include "view/sigmenu.h"
#include "view/sortmenu.h"
#include "view/ui.h"
#include "view/usermenu.h"

/*
 * Select the first row from row from on (wrapping) whose name or command line holds the search;
 * false, the selection kept, when none does.
 */
static bool input_search(struct ui *u, const struct ui_list *l, size_t from)
{
	/* the list on screen already holds only what the filters let through */
	const struct model_filter f = { .name = u->input.search, .kthreads = true };

	if (!u->input.search[0] || !l->n)
		return true;
	for (size_t k = 0; k < l->n; k++) {
		size_t i = (from + k) % l->n;

		if (model_row_wanted(&f, l->v[i])) {
			u->follow = false;
			u->sel = i;
			u->sel_id = l->v[i]->id;
			u->sel_pin = true;
			list_sync(u, l);
			return true;
		}
	}
	return false;
}

/* The next match after the selection (Enter on an empty search, F3 in it). */
static void input_search_next(struct ui *u, const struct ui_list *l)
{
	u->input.search_miss = !input_search(u, l, l->n ? (u->sel + 1) % l->n : 0);
	if (u->input.search_miss)
		snprintf(u->status, sizeof(u->status), "no process matches '%.120s'",
			 u->input.search);
}

int input_parse_time(const char *s, bool *rel, double *seconds)
{
	unsigned h, m, sec = 0;
	char *end, extra;
	double v;

	if (s[0] == '+') {
		if (!(s[1] >= '0' && s[1] <= '9') && s[1] != '.')
			return -EINVAL;
		v = strtod(s + 1, &end);
		if (*end || !isfinite(v) || v < 0 || v > 1e9)
			return -EINVAL;
		*rel = true;
		*seconds = v;
		return 0;
	}
	if (sscanf(s, "%2u:%2u:%2u%c", &h, &m, &sec, &extra) != 3 &&
	    sscanf(s, "%2u:%2u%c", &h, &m, &extra) != 2)
		return -EINVAL;
	if (strspn(s, "0123456789:") != strlen(s) || h > 23 || m > 59 || sec > 59)
		return -EINVAL;
	*rel = false;
	*seconds = h * 3600.0 + m * 60.0 + sec;
	return 0;
}

static unsigned input_commit(struct ui *u, const struct ui_list *l)
{
	enum ui_prompt p = u->input.prompt;
	double d;

	u->input.prompt = UI_PROMPT_NONE;
	switch (p) {
	case UI_PROMPT_SEARCH:
		/* the search went as it was typed; Enter on nothing typed: the last one's next */
		if (!u->input.line.len)
			input_search_next(u, l);
		else if (u->input.search_miss)
			snprintf(u->status, sizeof(u->status), "no process matches '%.120s'",
				 u->input.search);
		return 0;
	case UI_PROMPT_FILTER:
		/* the filter applied as it was typed: Enter keeps it */
		snprintf(u->filter, sizeof(u->filter), "%s", u->input.line.text);
		return 0;
	case UI_PROMPT_DELAY:
		if (!u->input.line.len)
			return 0;
		if (parse_delay(u->input.line.text, false, &d)) {
			snprintf(u->status, sizeof(u->status),
				 "invalid delay '%.64s': give seconds from 0.01 to 86400",
				 u->input.line.text);
			return 0;
		}
		u->delay = d;
		return UI_ACT_DELAY;
	case UI_PROMPT_TIME:
		if (!u->input.line.len)
			return 0;
		if (input_parse_time(u->input.line.text, &u->seek_rel, &u->seek_s)) {
			snprintf(
				u->status, sizeof(u->status),
				"invalid time '%.64s': give HH:MM:SS (the recorded time of day) or "
				"+SECONDS (from the start)",
				u->input.line.text);
			return 0;
		}
		return UI_ACT_SEEK;
	case UI_PROMPT_SIGNAL: /* these have keys of their own (sigmenu_key, the menus) */
	case UI_PROMPT_CONFIRM:
	case UI_PROMPT_SORT:
	case UI_PROMPT_USER:
	case UI_PROMPT_NONE:
		break;
	}
	return 0;
}

/*
 * The text of the prompt changed: as in htop, the search goes to the first row that matches
 * what is typed so far, and the filter applies at once (the list is built again before the next
 * key and the next frame).
 */
static void input_edited(struct ui *u, const struct ui_list *l)
{
	if (u->input.prompt == UI_PROMPT_SEARCH) {
		snprintf(u->input.search, sizeof(u->input.search), "%s", u->input.line.text);
		u->input.search_miss = !input_search(u, l, 0);
	} else if (u->input.prompt == UI_PROMPT_FILTER) {
		snprintf(u->filter, sizeof(u->filter), "%s", u->input.line.text);
	}
}

unsigned input_key(struct ui *u, int key, const struct model *m, const struct ui_list *l)
{
	if (u->input.prompt == UI_PROMPT_SIGNAL)
		return sigmenu_key(u, key, m);
	if (u->input.prompt == UI_PROMPT_SORT)
		return sortmenu_key(u, key, m);
	if (u->input.prompt == UI_PROMPT_USER)
		return usermenu_key(u, key, m);
	if (u->input.prompt == UI_PROMPT_CONFIRM) {
		u->input.prompt = UI_PROMPT_NONE;
		if (u->sig.ask_gone) {
			/* the question says which process exited; the status keeps it */
			snprintf(u->status, sizeof(u->status), "nothing sent: %.140s", u->sig.ask);
			return 0;
		}
		if (key == 'y' || key == 'Y')
			return UI_ACT_SIGNAL;
		snprintf(u->status, sizeof(u->status), "nothing sent");
		return 0;
	}
	if (key == UI_KEY_ESC) {
		/* Esc in the filter gives back the filter it had; the search stays where it went */
		if (u->input.prompt == UI_PROMPT_FILTER)
			snprintf(u->filter, sizeof(u->filter), "%s", u->input.filter_prev);
		u->input.prompt = UI_PROMPT_NONE;
		return 0;
	}
	/* F3 in the search: the next match, the prompt staying open as in htop */
	if (key == UI_KEY_F3 && u->input.prompt == UI_PROMPT_SEARCH) {
		input_search_next(u, l);
		u->status[0] = '\0';
		return 0;
	}
	if (key == UI_KEY_F4 && u->input.prompt == UI_PROMPT_FILTER)
		return input_commit(u, l);
	if (key == UI_KEY_ENTER || key == '\r')
		return input_commit(u, l);
	if (key == UI_KEY_BACKSPACE || key == 127 || key == 8) {
		if (!prompt_back(&u->input.line))
			return 0;
	} else if (key < 0 || !prompt_add(&u->input.line, (uint32_t)key)) {
		return 0; /* an arrow, a function key, a control: nothing typed */
	}
	input_edited(u, l);
	return 0;
}

void input_start(struct ui *u, enum ui_prompt p, const char *initial)
{
	u->input.prompt = p;
	u->input.search_miss = false;
	prompt_set(&u->input.line, initial);
	if (p == UI_PROMPT_FILTER)
		snprintf(u->input.filter_prev, sizeof(u->input.filter_prev), "%s", u->filter);
}
