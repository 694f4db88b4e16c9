/* The key table: every binding, which dispatch, the help screen and the footer all read. */
#ifndef PMCTOP_VIEW_KEYS_H
#define PMCTOP_VIEW_KEYS_H

#include "view/ui.h"

#endif
