/* rules.c: standard reserves, named game types, the colours' names, and
 * checking rule options. */
#include "tak/rules.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* The rule book's reserves; 7x7 follows the community standard (40 + 2). */
static const struct { int stones, capstones; } standard_reserves[TAK_MAX_SIZE + 1] = {
    [3] = {10, 0}, [4] = {15, 0}, [5] = {21, 1}, [6] = {30, 1}, [7] = {40, 2}, [8] = {50, 2},
};

bool tak_rules_standard(TakRules *rules, int size, TakError *err) {
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE)
        return tak_error_set(err, "board size %d is not between %d and %d", size, TAK_MIN_SIZE,
                             TAK_MAX_SIZE);
    rules->size = size;
    rules->stones = standard_reserves[size].stones;
    rules->capstones = standard_reserves[size].capstones;
    rules->half_komi = 0;
    rules->no_pass = true;
    rules->repetition_draw = false;
    return true;
}

const char *tak_color_name(TakColor color) { return color == TAK_WHITE ? "White" : "Black"; }

static const struct {
    const char *display;
    int size, stones, capstones;
} game_types[TAK_GAME_TYPE_COUNT] = {
    [TAK_GAME_CHILDRENS] = {"Children's", 4, 15, 0},
    [TAK_GAME_TRAVELERS] = {"Traveler's", 5, 20, 1},
    [TAK_GAME_COURTLY] = {"Courtly", 6, 30, 1},
    [TAK_GAME_MASTERS] = {"Master's", 8, 50, 2},
};

void tak_rules_for_game_type(TakRules *rules, TakGameType type) {
    if ((unsigned)type >= TAK_GAME_TYPE_COUNT) type = TAK_GAME_COURTLY;
    tak_rules_standard(rules, game_types[type].size, NULL);
    rules->stones = game_types[type].stones;
    rules->capstones = game_types[type].capstones;
}

const char *tak_game_type_name(TakGameType type) {
    if ((unsigned)type >= TAK_GAME_TYPE_COUNT) return "unknown";
    return game_types[type].display;
}

bool tak_game_type_from_name(const char *name, TakGameType *type) {
    static const struct {
        const char *name;
        TakGameType type;
    } aliases[] = {
        {"childrens", TAK_GAME_CHILDRENS}, {"children", TAK_GAME_CHILDRENS},
        {"travelers", TAK_GAME_TRAVELERS}, {"traveller", TAK_GAME_TRAVELERS},
        {"travellers", TAK_GAME_TRAVELERS}, {"traveler", TAK_GAME_TRAVELERS},
        {"courtly", TAK_GAME_COURTLY},     {"court", TAK_GAME_COURTLY},
        {"masters", TAK_GAME_MASTERS},     {"master", TAK_GAME_MASTERS},
        {"scholars", TAK_GAME_MASTERS},    {"scholar", TAK_GAME_MASTERS},
    };
    if (!name) return false;
    /* Compare letters only, lower-cased, so "Children's", "children's game"
     * minus the word "game" and "CHILDRENS" all match. */
    char key[32];
    size_t n = 0;
    for (const char *p = name; *p; p++) {
        if (*p == '\'' || *p == '\xE2' || *p == '\x80' || *p == '\x99') continue; /* ' and ’ */
        if (!isalpha((unsigned char)*p)) return false;
        if (n + 1 >= sizeof key) return false;
        key[n++] = (char)tolower((unsigned char)*p);
    }
    key[n] = '\0';
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (strcmp(key, aliases[i].name) == 0) {
            *type = aliases[i].type;
            return true;
        }
    }
    return false;
}

bool tak_rules_validate(const TakRules *rules, TakError *err) {
    if (rules->size < TAK_MIN_SIZE || rules->size > TAK_MAX_SIZE)
        return tak_error_set(err, "board size %d is not between %d and %d", rules->size,
                             TAK_MIN_SIZE, TAK_MAX_SIZE);
    if (rules->stones < 1)
        return tak_error_set(err, "a reserve needs at least 1 stone (got %d)", rules->stones);
    if (rules->capstones < 0)
        return tak_error_set(err, "capstone count %d is negative", rules->capstones);
    if (rules->stones + rules->capstones > TAK_MAX_RESERVE)
        return tak_error_set(err, "a reserve of %d stones and %d capstones exceeds %d pieces",
                             rules->stones, rules->capstones, TAK_MAX_RESERVE);
    if (rules->half_komi < -TAK_MAX_HALF_KOMI || rules->half_komi > TAK_MAX_HALF_KOMI)
        return tak_error_set(err, "komi of %d half flats is not between %d and %d",
                             rules->half_komi, -TAK_MAX_HALF_KOMI, TAK_MAX_HALF_KOMI);
    return true;
}
