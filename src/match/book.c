/*
 * book.c: opening books for matches. An opening is a few random legal plies
 * from the empty board that a shallow search of our engine finds close to
 * equal, so that a match samples many balanced games instead of replaying
 * one. Books are plain text, one TPS a line, so any tool can read them.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tak/engine.h"
#include "tak/match.h"
#include "tak/notation.h"
#include "tak/random.h"

bool tak_book_opening(const char *line, const TakRules *rules, TakPosition *pos, TakError *err) {
    if (strchr(line, '/')) return tak_tps_read(line, rules, pos, err);
    if (!tak_position_init(pos, rules, err)) return false;
    const char *p = line;
    for (int plies = 0;; plies++) {
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0') {
            if (plies == 0) tak_error_set_at(err, 1, 1, "an empty line is no opening");
            return plies > 0;
        }
        size_t len = strcspn(p, " \t");
        char ply[TAK_MOVE_TEXT_MAX + 8];
        TakMove move;
        TakError e;
        int column = (int)(p - line) + 1;
        if (len >= sizeof ply) {
            tak_error_set_at(err, 1, column, "'%.*s...' is neither a ply nor a TPS", 12, p);
            return false;
        }
        memcpy(ply, p, len);
        ply[len] = '\0';
        if (!tak_move_parse(pos, ply, &move, &e)) {
            tak_error_set_at(err, 1, column, "ply '%s': %s", ply, e.message);
            return false;
        }
        TakUndo undo;
        tak_position_make(pos, move, &undo);
        p += len;
    }
}

/* A random ply of `list` (a flat's placement when `flats_only`), or
 * TAK_MOVE_NONE when there is none. */
static TakMove random_ply(const TakMoveList *list, bool flats_only, uint64_t *state) {
    int n = 0;
    for (int i = 0; i < list->count; i++) n += !flats_only || tak_move_kind(list->moves[i]) == TAK_PLACE_FLAT;
    if (n == 0) return TAK_MOVE_NONE;
    int pick = (int)(tak_random_next(state) % (uint64_t)n);
    for (int i = 0; i < list->count; i++)
        if ((!flats_only || tak_move_kind(list->moves[i]) == TAK_PLACE_FLAT) && pick-- == 0) return list->moves[i];
    return TAK_MOVE_NONE;
}

int tak_book_generate(const TakBookConfig *config, void (*emit)(const char *line, void *user),
                      void *user, TakError *err) {
    TakRules rules;
    if (!tak_rules_standard(&rules, config->size, err)) return -1;
    rules.half_komi = config->half_komi;
    if (!tak_rules_validate(&rules, err)) return -1;
    int lo = config->min_plies, hi = config->max_plies;
    if (lo < 1 || hi < lo || hi > 16) {
        tak_error_set(err, "plies must be 1 <= min <= max <= 16");
        return -1;
    }
    if (config->count < 1) {
        tak_error_set(err, "count must be at least 1");
        return -1;
    }
    int depth = config->depth > 0 ? config->depth : 3;
    int max_score = config->max_score > 0 ? config->max_score : 60;
    TakEngine *engine = tak_engine_new(16, 1);
    uint64_t *seen = malloc((size_t)config->count * sizeof *seen);
    TakMoveList *list = malloc(sizeof *list);
    if (engine == NULL || seen == NULL || list == NULL) {
        if (engine) tak_engine_free(engine);
        free(seen);
        free(list);
        tak_error_set(err, "out of memory");
        return -1;
    }
    uint64_t state = config->seed;
    int made = 0;
    long tries = 0, max_tries = 200L * config->count + 1000;
    while (made < config->count && tries++ < max_tries) {
        TakPosition pos;
        tak_position_init(&pos, &rules, NULL);
        int plies = lo + (int)(tak_random_next(&state) % (uint64_t)(hi - lo + 1));
        char moves[16 * (TAK_MOVE_TEXT_MAX + 1)] = "";
        size_t used = 0;
        for (int i = 0; i < plies && !tak_position_is_over(&pos); i++) {
            tak_moves_generate(&pos, list);
            TakMove move = random_ply(list, config->flats_only, &state);
            if (move == TAK_MOVE_NONE) break;
            char ply[TAK_MOVE_TEXT_MAX];
            tak_move_write(move, pos.rules.size, &pos, ply);
            int n = snprintf(moves + used, sizeof moves - used, "%s%s", used ? " " : "", ply);
            if (n < 0 || (size_t)n >= sizeof moves - used) break; /* cannot happen: 16 plies fit */
            used += (size_t)n;
            TakUndo undo;
            tak_position_make(&pos, move, &undo);
        }
        if (tak_position_is_over(&pos)) continue;
        bool duplicate = false;
        for (int i = 0; i < made && !duplicate; i++) duplicate = seen[i] == pos.hash;
        if (duplicate) continue;
        TakSearchLimits limits = {.depth = depth};
        TakSearchInfo info;
        memset(&info, 0, sizeof info);
        tak_engine_new_game(engine);
        tak_engine_search(engine, &pos, NULL, 0, &limits, NULL, NULL, &info);
        if (info.score > max_score || info.score < -max_score) continue;
        char tps[TAK_TPS_MAX];
        if (tak_tps_write(&pos, tps, sizeof tps) < 0) continue;
        seen[made++] = pos.hash;
        emit(config->as_moves ? moves : tps, user);
    }
    tak_engine_free(engine);
    free(seen);
    free(list);
    return made;
}

void tak_book_free(char **lines, size_t count) {
    if (lines == NULL) return;
    for (size_t i = 0; i < count; i++) free(lines[i]);
    free(lines);
}

bool tak_book_read(const char *text, size_t len, int size, char ***lines_out, size_t *count_out,
                   TakError *err) {
    TakRules rules;
    if (!tak_rules_standard(&rules, size, err)) return false;
    char **lines = NULL;
    size_t count = 0, cap = 0;
    int line_no = 0;
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n') j++;
        line_no++;
        size_t a = i, b = j;
        while (a < b && (text[a] == ' ' || text[a] == '\t' || text[a] == '\r')) a++;
        while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\r')) b--;
        i = j + 1;
        if (a == b || text[a] == '#') continue;
        char tps[TAK_TPS_MAX];
        if (b - a >= sizeof tps) {
            tak_error_set_at(err, line_no, 1, "line too long for an opening");
            goto fail;
        }
        memcpy(tps, text + a, b - a);
        tps[b - a] = '\0';
        TakPosition pos;
        TakError e;
        if (!tak_book_opening(tps, &rules, &pos, &e)) {
            tak_error_set_at(err, line_no, e.column > 0 ? e.column : 1, "%s", e.message);
            goto fail;
        }
        /* A line of plies is kept as the TPS it reaches; a TPS as written. */
        if (!strchr(tps, '/') && tak_tps_write(&pos, tps, sizeof tps) < 0) {
            tak_error_set_at(err, line_no, 1, "the opening cannot be written as a TPS");
            goto fail;
        }
        if (tak_position_is_over(&pos)) {
            tak_error_set_at(err, line_no, 1, "the game is already over in this opening");
            goto fail;
        }
        if (count == cap) {
            size_t bigger_cap = cap ? cap * 2 : 64;
            char **bigger = realloc(lines, bigger_cap * sizeof *bigger);
            if (bigger == NULL) goto oom;
            lines = bigger;
            cap = bigger_cap;
        }
        if ((lines[count] = strdup(tps)) == NULL) goto oom;
        count++;
    }
    *lines_out = lines;
    *count_out = count;
    return true;
oom:
    tak_error_set(err, "out of memory");
fail:
    tak_book_free(lines, count);
    return false;
}
