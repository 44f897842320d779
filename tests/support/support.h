/*
 * support.h: helpers shared by the test programs (see README.md: every
 * tests/support/ file is linked into every test). They fail the running cmocka
 * test with a message naming the input, so a test reads as a list of facts.
 *
 * Include <cmocka.h> (with its prerequisites) before this header.
 */
#ifndef TAK_TEST_SUPPORT_H
#define TAK_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "tak/tak.h"

/* "$TAK_SHARED/<relative>" or "../shared/<relative>", written into buf. */
const char *support_shared_path(const char *relative, char *buf, size_t cap);

/* The whole file, NUL-terminated (malloc'd; the caller frees); NULL when it
 * cannot be read. *len (when not NULL) gets the length. */
char *support_read_file(const char *path, size_t *len);

/* Standard rules of `size`; fails the test when the library refuses them. */
TakRules support_rules(int size);

/* The position of `tps` under `rules` (NULL: the standard rules of its size);
 * fails the test with the reader's error when it is refused. */
TakPosition support_position(const char *tps, const TakRules *rules);

/* The TPS of `pos`, written into buf (TAK_TPS_MAX bytes). */
const char *support_tps(const TakPosition *pos, char *buf);

/* The move that PTN text names on a board of `size`, built with
 * tak_move_place / tak_move_spread (no notation module involved): "a1",
 * "Sd3", "Cb4", "c3+", "3b2+111", "2d4<11". Fails the test on text it
 * cannot read. A pass ("1c3") cannot be built this way: see support_move. */
TakMove support_move_code(const char *text, int size);

/* True when `move` is in the list tak_moves_generate makes for `pos`. */
bool support_is_generated(const TakPosition *pos, TakMove move);

/* The legal move that `text` names in `pos`: it must be generated and
 * tak_move_is_legal, or the test fails. A pass "1c3" is the generated pass
 * from c3. */
TakMove support_move(const TakPosition *pos, const char *text);

/* Plays `text` (see support_move) with tak_position_apply, and checks the
 * incremental hash against tak_position_compute_hash. */
void support_play(TakPosition *pos, const char *text);

/* Plays a list of plies separated by spaces. */
void support_play_all(TakPosition *pos, const char *plies);

#endif
