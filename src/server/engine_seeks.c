/*
 * engine_seeks.c: the engine's standing seeks (--engine-seeks), as PlayTak's
 * bots keep theirs: posted in the lobby at start under the name TakEngineN (N
 * its level; a name no player may claim), seen by the page and the PlayTak
 * port alike. Whoever takes one plays the engine at that level on the seek's
 * clock (lobby_take starts the game), and the seek is posted again at once.
 * A PlayTak seek naming TakEngineN (any level, standing seek or not) is
 * taken by the engine at that level as soon as it is posted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define ENGINE_SEEKS_MAX 16        /* standing seeks at once */
#define ENGINE_SEEK_TIME_MAX 10800 /* seconds on a clock, as a PlayTak seek allows */
#define ENGINE_SEEK_INCR_MAX 300   /* seconds of increment, likewise */

/* A whole number from lo to hi at *p, up to a byte of `ends` (or the end). */
static bool number(const char **p, long lo, long hi, const char *ends, long *out) {
    char *end;
    if (**p < '0' || **p > '9') return false;
    long v = strtol(*p, &end, 10);
    if (v < lo || v > hi || (*end && !strchr(ends, *end))) return false;
    *p = end;
    *out = v;
    return true;
}

/* One item, "LEVEL:SIZE:MIN+SEC[:COLOR]", into want (its name, rules, clock, colour). */
static bool read_item(const char *item, LobbySeek *want, TakError *err) {
    const char *p = item;
    long level, size, minutes, seconds = 0, incr;
    memset(want, 0, sizeof *want);
    if (!number(&p, TAK_LEVEL_MIN, TAK_LEVEL_MAX, ":", &level) || *p++ != ':')
        return tak_error_set(err, "'%s': the level (first) is %d to %d", item, TAK_LEVEL_MIN,
                             TAK_LEVEL_MAX);
    if (!number(&p, TAK_MIN_SIZE, TAK_MAX_SIZE, ":", &size) || *p++ != ':')
        return tak_error_set(err, "'%s': the size (second) is %d to %d", item, TAK_MIN_SIZE,
                             TAK_MAX_SIZE);
    /* Minutes as the bot's --seek gives them, "0.5" allowed: whole seconds. */
    if (!number(&p, 0, ENGINE_SEEK_TIME_MAX / 60, ".+", &minutes))
        return tak_error_set(err, "'%s': the clock (third) is MIN+SEC, as 3+2 or 0.5+1", item);
    if (*p == '.') {
        long tenths;
        p++;
        if (!number(&p, 0, 9, "+", &tenths)) /* one digit: 0.1 minute is 6 s */
            return tak_error_set(err, "'%s': minutes have at most one decimal", item);
        seconds = tenths * 6;
    }
    seconds += minutes * 60;
    if (*p++ != '+' || !number(&p, 0, ENGINE_SEEK_INCR_MAX, ":", &incr))
        return tak_error_set(err, "'%s': the increment is 0 to %d seconds", item,
                             ENGINE_SEEK_INCR_MAX);
    want->color = 2;
    if (*p == ':') {
        const char *colors = "WBA";
        const char *c = p[1] ? strchr(colors, p[1]) : NULL;
        if (c == NULL || p[2] != '\0')
            return tak_error_set(err, "'%s': the engine's colour is W, B or A", item);
        want->color = (int)(c - colors);
    }
    if (!tak_rules_standard(&want->rules, (int)size, err)) return false;
    want->clock.base_ms = seconds * 1000;
    want->clock.increment_ms = seconds > 0 ? incr * 1000 : 0;
    want->engine_level = (int)level;
    engine_seeks_name((int)level, want->player.name, sizeof want->player.name);
    return true;
}

bool engine_seeks_post(Server *s, const char *spec, TakError *err) {
    char items[512];
    if (strlen(spec) >= sizeof items)
        return tak_error_set(err, "--engine-seeks is too long (%zu bytes at most)",
                             sizeof items - 1);
    snprintf(items, sizeof items, "%s", spec);
    int count = 0;
    char *save = NULL;
    for (char *item = strtok_r(items, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        LobbySeek want;
        if (++count > ENGINE_SEEKS_MAX)
            return tak_error_set(err, "--engine-seeks: %d seeks at most", ENGINE_SEEKS_MAX);
        if (!read_item(item, &want, err)) {
            char why[TAK_ERROR_MESSAGE_MAX];
            snprintf(why, sizeof why, "%s", err->message);
            return tak_error_set(err, "--engine-seeks: %s", why);
        }
        if (lobby_post(s, NULL, &want, err) == NULL) return false;
    }
    if (count == 0) return tak_error_set(err, "--engine-seeks: no seek given");
    return true;
}

void engine_seeks_taken(Server *s, const LobbySeek *k) {
    TakError err;
    if (lobby_post(s, NULL, k, &err) == NULL && !s->config->quiet)
        fprintf(stderr, "tak serve: the engine's seek is not posted again: %s\n", err.message);
}

/* ---- seeks naming the engine ------------------------------------------------ */

void engine_seeks_name(int level, char *out, size_t cap) {
    snprintf(out, cap, "%s%d", ENGINE_SEAT_NAME, level);
}

int engine_seeks_level(const char *name) {
    size_t n = strlen(ENGINE_SEAT_NAME);
    if (strncasecmp(name, ENGINE_SEAT_NAME, n) != 0) return 0;
    const char *p = name + n;
    long level;
    /* "TakEngine3" only: no sign, no leading zero, nothing after */
    if (*p == '0' || !number(&p, TAK_LEVEL_MIN, TAK_LEVEL_MAX, "", &level) || *p) return 0;
    return (int)level;
}

bool engine_seeks_challenged(Server *s, const LobbySeek *k, TakError *err) {
    int level = engine_seeks_level(k->opponent);
    if (level == 0) return true;
    char id[STORE_ID_LEN + 1], why[TAK_ERROR_MESSAGE_MAX];
    memcpy(id, k->id, sizeof id); /* k goes with the seek */
    if (lobby_take_for_engine(s, id, level, why, sizeof why) == NULL)
        return tak_error_set(err, "%s", why);
    return true;
}
