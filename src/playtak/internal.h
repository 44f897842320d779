/*
 * internal.h: what the files of src/playtak/ share and nothing else sees.
 */
#ifndef TAK_PLAYTAK_INTERNAL_H
#define TAK_PLAYTAK_INTERNAL_H

#include <stdbool.h>

#include "tak/playtak.h"

/* A byte a PlayTak name may hold: a letter, a digit or '_'. */
bool pt_name_char(char ch);

#endif
