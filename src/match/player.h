/*
 * player.h: one engine of a match, seen as lines in and lines out with
 * deadlines: either a child process (any TEI program) or this library's own
 * TEI session in process. Internal to src/match.
 */
#ifndef TAK_MATCH_PLAYER_H
#define TAK_MATCH_PLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tak/error.h"
#include "tak/match.h"

typedef struct Player Player;

/* Milliseconds on a monotonic clock. */
int64_t player_now_ms(void);

/* Starts the engine `spec` describes (an in-process one gets `self_hash_mb`
 * of table unless its options say otherwise). NULL with err on failure. */
Player *player_start(const TakPlayerSpec *spec, int self_hash_mb, TakError *err);

/* Sends one line (the newline is added). False when the engine is gone or
 * does not take input before `deadline_ms`. */
bool player_send(Player *p, const char *line, int64_t deadline_ms);

/* Reads the next line into buf (NUL-terminated, without its newline; longer
 * lines are cut). 1: a line; 0: none before deadline_ms; -1: the engine has
 * gone (exited, closed its output). */
int player_read(Player *p, char *buf, size_t cap, int64_t deadline_ms);

/* Says `quit`, waits a little, then kills whatever is left. NULL is fine. */
void player_stop(Player *p);

#endif
