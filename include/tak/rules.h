/**
 * \file
 * rules.h: the rule options a Tak game is played under.
 *
 * A TakRules value is plain data, copied into every position, so that a
 * position alone says how it may be continued. Defaults follow the official
 * rule book (../shared/spec/rules.md); every deviation is a named field.
 */
#ifndef TAK_RULES_H
#define TAK_RULES_H

#include <stdbool.h>

#include "tak/error.h"

#define TAK_MIN_SIZE 3
#define TAK_MAX_SIZE 8
#define TAK_MAX_SQUARES (TAK_MAX_SIZE * TAK_MAX_SIZE)
/** A player's reserve (stones + capstones) is at most this, so that every
 * stack fits in 128 bits of colour. */
#define TAK_MAX_RESERVE 64
#define TAK_MAX_HALF_KOMI 20

typedef enum TakColor { TAK_WHITE = 0, TAK_BLACK = 1 } TakColor;

/** A colour's name as a message to a person writes it: "White" or "Black"
 * (anything but TAK_WHITE reads as "Black"). The library's own messages use
 * it; a protocol that spells colours otherwise (the server's JSON writes
 * "white") keeps its own spelling. */
const char *tak_color_name(TakColor color);

typedef struct TakRules {
    int size;          /**< 3..8 */
    int stones;        /**< stones per player at the start */
    int capstones;     /**< capstones per player at the start */
    int half_komi;     /**< -20..20, in half flats, added to Black's flat count */
    bool no_pass;      /**< default true: a move must change the board. When
                          false a player who controls a stack may pass by
                          lifting it and putting it all back. */
    bool repetition_draw; /**< default false: the third occurrence of a position
                             (stacks, reserves, side to move) is a draw. Only
                             TakGame, which keeps the history, applies it. */
} TakRules;

/** The named game types of the web implementation (seed 001). */
typedef enum TakGameType {
    TAK_GAME_CHILDRENS, /**< 4x4, 15 stones, no capstone */
    TAK_GAME_TRAVELERS, /**< 5x5, 20 stones + 1 capstone, as seed 001 says */
    TAK_GAME_COURTLY,   /**< 6x6, 30 + 1 */
    TAK_GAME_MASTERS,   /**< 8x8, 50 + 2 (also called Scholar's) */
    TAK_GAME_TYPE_COUNT
} TakGameType;

/** Standard rules for `size` (3..8): the rule book's reserves (7x7: 40 + 2),
 * komi 0, no-pass on, repetition off. Returns false for a size out of range. */
bool tak_rules_standard(TakRules *rules, int size, TakError *err);

/** Rules of a named game type. */
void tak_rules_for_game_type(TakRules *rules, TakGameType type);

/** Looks a game type up by name, case-insensitively: "childrens",
 * "children's", "children", "travelers", "traveler's", "courtly", "court",
 * "masters", "master's", "scholars", "scholar's". */
bool tak_game_type_from_name(const char *name, TakGameType *type);

/** The display name of a game type ("Children's", ...). */
const char *tak_game_type_name(TakGameType type);

/** Checks every field is in range (size 3..8, stones >= 1, capstones >= 0,
 * stones + capstones <= TAK_MAX_RESERVE, |half_komi| <= 20). */
bool tak_rules_validate(const TakRules *rules, TakError *err);

/** The carry limit: the board size. */
static inline int tak_rules_carry_limit(const TakRules *rules) { return rules->size; }

#endif
