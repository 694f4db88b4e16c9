/* The terminal: the only module that speaks ncursesw. */
#ifndef PMCTOP_TUI_H
#define PMCTOP_TUI_H

#include <stdbool.h>

#include "view/canvas.h"
#include "view/ui.h"

/*
 * Take over the terminal. color: use colours if the terminal has them
 * (the caller has already looked at NO_COLOR); mouse: report clicks. Returns 0, or -1 with a
 * message in err when there is no usable terminal.
 */
int tui_init(bool color, bool mouse, char *err, size_t errsize);
/* Map the canvas attributes to the terminal's by scheme (mono when colours are off). */
void tui_scheme(enum ui_scheme scheme);
/* Give the terminal back; safe to call twice. */
void tui_end(void);
/* Whether the locale is UTF-8 (bars and marks may use it). */
bool tui_utf8(void);
/* The terminal's size now. */
void tui_size(int *w, int *h);
/* Take a new size after SIGWINCH. */
void tui_resize(void);
/*
 * The next key as a ui_key or the Unicode code point of a character typed (UTF-8 decoded by the
 * terminal's locale), or UI_KEY_NONE when none is waiting. A click of the
 * first button is UI_KEY_MOUSE with its cell in *x, *y; the wheel gives Up and Down.
 */
int tui_key(int *x, int *y);
/* Show the canvas. */
void tui_draw(const struct canvas *c);
/* Restore the terminal before a crash takes the process down. */
void tui_install_crash_handlers(void);

#endif
