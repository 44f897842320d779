/*
 * ptn_setup.c: the rules and start position a PTN file's tags describe:
 * Size, Komi, Flats/Flats1/Flats2, Caps/Caps1/Caps2, Opening and TPS. Other
 * tags are kept as text and not judged here (Result is judged after the
 * moves are replayed). A value that cannot be meant is an error at the tag.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The tags the setup reads, by index in `known`. */
enum {
    SIZE, KOMI, FLATS, FLATS1, FLATS2, CAPS, CAPS1, CAPS2, OPENING, TPS, RESULT,
    ZUGZWANG, REPETITION, KNOWN
};
/* Zugzwang and Repetition are this project's: PTN has no tag for the no-pass
 * rule (the name is seed 001's) or for the repetition draw, and without them a
 * game with a pass could not be read back. Other tools ignore unknown tags. */
static const char *const known[KNOWN] = {"Size",  "Komi",  "Flats",    "Flats1", "Flats2",
                                         "Caps",  "Caps1", "Caps2",    "Opening", "TPS",
                                         "Result", "Zugzwang", "Repetition"};

typedef struct Found {
    const char *value[KNOWN];
    NotationSite site[KNOWN];
} Found;

static bool fail_at(TakError *err, NotationSite site, const char *fmt, const char *tag,
                    const char *value) {
    /* Values are quoted back only in part: a message has a fixed size. */
    return tak_error_set_at(err, site.line, site.column, fmt, tag, value);
}

/* Finds each known tag once; a second one is an error (which would win?). */
static bool find_known(const TakPtn *ptn, const NotationSite *sites, Found *found, TakError *err) {
    memset(found, 0, sizeof *found);
    for (size_t i = 0; i < ptn->tag_count; i++) {
        for (int k = 0; k < KNOWN; k++) {
            if (!notation_name_equal(ptn->tags[i].name, known[k])) continue;
            if (found->value[k])
                return tak_error_set_at(err, sites[i].line, sites[i].column,
                                        "a second %s tag (the first is on line %d)", known[k],
                                        found->site[k].line);
            found->value[k] = ptn->tags[i].value;
            found->site[k] = sites[i];
        }
    }
    return true;
}

/* A whole number from 0 to `max`, digits only. */
static bool parse_count(const char *text, int max, int *out) {
    int n = 0;
    if (!*text) return false;
    for (; *text; text++) {
        if (*text < '0' || *text > '9') return false;
        n = n * 10 + (*text - '0');
        if (n > max) return false;
    }
    *out = n;
    return true;
}

/* Komi in flats, halves allowed ("2", "1.5", "-0.5", "2.0"), as half flats. */
static bool parse_komi(const char *text, int *half_komi) {
    bool negative = *text == '-';
    if (*text == '-' || *text == '+') text++;
    if (*text < '0' || *text > '9') return false;
    int whole = 0;
    while (*text >= '0' && *text <= '9') {
        whole = whole * 10 + (*text++ - '0');
        if (whole > TAK_MAX_HALF_KOMI) return false;
    }
    int half = 0;
    if (*text == '.') {
        text++;
        if (*text == '5')
            half = 1;
        else if (*text != '0')
            return false;
        text++;
        while (*text == '0') text++;
    }
    if (*text) return false;
    int value = whole * 2 + half;
    if (value > TAK_MAX_HALF_KOMI) return false;
    *half_komi = negative ? -value : value;
    return true;
}

/* One reserve count from the plain tag and the per-player tags: a plain tag
 * sets both; the per-player ones must agree with it and with each other,
 * since TakRules has one count for both players. `index` is FLATS or CAPS. */
static bool reserve_count(const Found *found, int index, int standard, int *out, TakError *err) {
    const char *what = index == FLATS ? "stones" : "capstones";
    int values[3];
    for (int k = 0; k < 3; k++) {
        values[k] = standard;
        const char *v = found->value[index + k];
        if (v && !parse_count(v, 999, &values[k]))
            return fail_at(err, found->site[index + k], "%s must be a whole number of %s",
                           known[index + k], what);
    }
    int white = found->value[index + 1] ? values[1] : values[0];
    int black = found->value[index + 2] ? values[2] : values[0];
    for (int k = 1; k < 3; k++) {
        if (found->value[index] && found->value[index + k] && values[k] != values[0])
            return tak_error_set_at(err, found->site[index + k].line, found->site[index + k].column,
                                    "%s (%d) disagrees with %s (%d)", known[index + k], values[k],
                                    known[index], values[0]);
    }
    int last = found->value[index + 2] ? index + 2 : index + 1;
    if (white != black)
        return tak_error_set_at(err, found->site[last].line, found->site[last].column,
                                "%s %d and %s %d differ: both players must have the same %s here",
                                known[index + 1], white, known[index + 2], black, what);
    *out = white;
    return true;
}

/* A tag that switches a rule: `yes` sets *rule, `no` clears it (any case),
 * anything else is an error at the tag; an absent tag leaves *rule. */
static bool rule_switch(const Found *found, int tag, const char *yes, const char *no, bool *rule,
                        TakError *err) {
    const char *v = found->value[tag];
    if (!v) return true;
    if (notation_name_equal(v, yes) || notation_name_equal(v, no)) {
        *rule = notation_name_equal(v, yes);
        return true;
    }
    tak_error_set_at(err, found->site[tag].line, found->site[tag].column,
                     "%s must be \"%s\" or \"%s\", not \"%.20s\"", known[tag], yes, no, v);
    return false;
}

/* The site of the first reserve tag present, for errors about the counts. */
static NotationSite reserve_site(const Found *found) {
    for (int k = FLATS; k <= CAPS2; k++)
        if (found->value[k]) return found->site[k];
    NotationSite none = {0, 0};
    return none;
}

/* The board size a TPS value claims, from its rows; 0 when it has none. */
static int tps_rows(const char *tps) {
    while (*tps == ' ' || *tps == '\t') tps++;
    if (!*tps) return 0;
    int rows = 1;
    for (; *tps && *tps != ' ' && *tps != '\t'; tps++) rows += *tps == '/';
    return rows;
}

bool notation_ptn_setup(const TakPtn *ptn, const NotationSite *sites, TakRules *rules,
                        TakPosition *start, TakError *err) {
    Found found;
    if (!find_known(ptn, sites, &found, err)) return false;

    int size = 0;
    if (found.value[SIZE]) {
        if (!parse_count(found.value[SIZE], TAK_MAX_SIZE, &size) || size < TAK_MIN_SIZE)
            return fail_at(err, found.site[SIZE],
                           "%s must be a board size from 3 to 8, not \"%.20s\"", known[SIZE],
                           found.value[SIZE]);
    } else if (found.value[TPS]) {
        /* No Size: the TPS says it (read below, where its errors are found). */
        const char *tps = found.value[TPS];
        size = tps_rows(tps);
        if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) {
            /* Let the TPS reader say what is wrong with it. */
            if (!notation_tps_scan(tps, strlen(tps), NULL, start, err))
                notation_error_relocate(err, found.site[TPS].line, found.site[TPS].column, "TPS: ");
            return false;
        }
    } else {
        return tak_error_set_at(err, 1, 1, "no Size tag (nor a TPS tag to take the size from)");
    }

    TakRules r;
    tak_rules_standard(&r, size, NULL);
    if (found.value[KOMI] && !parse_komi(found.value[KOMI], &r.half_komi))
        return fail_at(err, found.site[KOMI],
                       "%s must be a number of flats from -10 to 10, halves allowed, not \"%.20s\"",
                       known[KOMI], found.value[KOMI]);
    if (!reserve_count(&found, FLATS, r.stones, &r.stones, err)) return false;
    if (!reserve_count(&found, CAPS, r.capstones, &r.capstones, err)) return false;
    if (!tak_rules_validate(&r, err)) {
        NotationSite site = reserve_site(&found);
        notation_error_relocate(err, site.line, site.column, NULL);
        return false;
    }
    if (!rule_switch(&found, ZUGZWANG, "on", "off", &r.no_pass, err) ||
        !rule_switch(&found, REPETITION, "draw", "none", &r.repetition_draw, err))
        return false;
    if (found.value[OPENING] && !notation_name_equal(found.value[OPENING], "swap"))
        return fail_at(err, found.site[OPENING],
                       "%s \"%.20s\" is not supported (only \"swap\", the standard opening)",
                       known[OPENING], found.value[OPENING]);

    TakPosition pos;
    if (found.value[TPS]) {
        const char *tps = found.value[TPS];
        if (found.value[SIZE] && tps_rows(tps) != size)
            return tak_error_set_at(err, found.site[TPS].line, found.site[TPS].column,
                                    "the TPS has %d rows, but the Size tag says %d", tps_rows(tps),
                                    size);
        if (!notation_tps_scan(tps, strlen(tps), &r, &pos, err)) {
            notation_error_relocate(err, found.site[TPS].line, found.site[TPS].column, "TPS: ");
            return false;
        }
    } else if (!tak_position_init(&pos, &r, err)) {
        return false;
    }
    *rules = r;
    *start = pos;
    return true;
}
