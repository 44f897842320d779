/*
 * api.c: the rules, notation and engine for a web page, compiled to
 * WebAssembly (wasm32-wasi, the same src/core, src/notation and src/engine
 * as the native build, on one thread). A few exported functions take and
 * give text, so JavaScript needs no knowledge of the C structures: the
 * caller writes its NUL-terminated input into the shared buffer
 * (tak_buffer, tak_buffer_size bytes), calls, and reads the NUL-terminated
 * answer from the same buffer. A negative return means the answer is an
 * error message for people. web/tak-engine.js wraps these; docs/wasm.md
 * documents that wrapper.
 *
 * Positions are TPS; the rules are those of the TPS's size, with the komi
 * in half flats and the reserves given (stones 0 and capstones -1: the
 * size's standard ones).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tak/engine.h"
#include "tak/tak.h"

#define EXPORT(name) __attribute__((export_name(#name)))
#define BUFFER_SIZE (1 << 16)

static char buffer[BUFFER_SIZE];
static TakEngine *engine;

EXPORT(tak_buffer) char *tak_buffer(void) { return buffer; }
EXPORT(tak_buffer_size) int tak_buffer_size(void) { return BUFFER_SIZE; }

/* The one engine (16 MB table, one thread), made when first needed. */
static bool the_engine(void) {
    if (engine == NULL) engine = tak_engine_new(16, 1);
    return engine != NULL;
}

static int answer_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buffer, sizeof buffer, fmt, ap);
    va_end(ap);
    return -1;
}

/* Reads the TPS at `text` (up to a newline) with the rules of its size: the
 * komi, and the reserves given (0: the size's standard ones); false (with
 * the error in the buffer) when bad. */
static bool read_position(const char *text, int half_komi, int stones, int caps,
                          TakPosition *pos) {
    char tps[TAK_TPS_MAX];
    size_t n = strcspn(text, "\n");
    if (n >= sizeof tps) return answer_error("the TPS is too long"), false;
    memcpy(tps, text, n);
    tps[n] = '\0';
    TakError err;
    TakPosition probe;
    if (!tak_tps_read(tps, NULL, &probe, &err)) return answer_error("bad TPS: %s", err.message), false;
    TakRules rules;
    if (!tak_rules_standard(&rules, tak_position_size(&probe), &err))
        return answer_error("%s", err.message), false;
    rules.half_komi = half_komi;
    if (stones > 0) rules.stones = stones;
    if (caps >= 0) rules.capstones = caps;
    if (!tak_rules_validate(&rules, &err) || !tak_tps_read(tps, &rules, pos, &err))
        return answer_error("%s", err.message), false;
    return true;
}

/* In: a TPS. Out: its legal moves in long PTN, separated by spaces.
 * Returns how many. */
EXPORT(tak_legal) int tak_legal(int half_komi, int stones, int caps) {
    TakPosition pos;
    if (!read_position(buffer, half_komi, stones, caps, &pos)) return -1;
    static TakMoveList list;
    int n = tak_moves_generate(&pos, &list);
    size_t used = 0;
    buffer[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write_long(list.moves[i], tak_position_size(&pos), NULL, text);
        int w = snprintf(buffer + used, sizeof buffer - used, "%s%s", i ? " " : "", text);
        if (w < 0 || (size_t)w >= sizeof buffer - used) return answer_error("too many moves");
        used += (size_t)w;
    }
    return n;
}

/* In: a TPS, a newline, a move in PTN. Out: the TPS after it. Returns 1, or
 * 2 when the move ends the game. */
EXPORT(tak_play) int tak_play(int half_komi, int stones, int caps) {
    TakPosition pos;
    if (!read_position(buffer, half_komi, stones, caps, &pos)) return -1;
    const char *nl = strchr(buffer, '\n');
    if (nl == NULL) return answer_error("no move after the TPS");
    TakMove move;
    TakError err;
    if (!tak_move_parse(&pos, nl + 1, &move, &err)) return answer_error("illegal move '%.20s': %s", nl + 1, err.message);
    TakUndo undo;
    tak_position_make(&pos, move, &undo);
    if (tak_tps_write(&pos, buffer, sizeof buffer) < 0) return answer_error("cannot write the TPS");
    return tak_position_is_over(&pos) ? 2 : 1;
}

/* In: a TPS. Out: the leaf count of a perft to `depth`, in decimal. */
EXPORT(tak_perft) int tak_perft_text(int half_komi, int stones, int caps, int depth) {
    TakPosition pos;
    if (!read_position(buffer, half_komi, stones, caps, &pos)) return -1;
    if (depth < 0 || depth > 6) return answer_error("depth 0 to 6");
    snprintf(buffer, sizeof buffer, "%llu", (unsigned long long)tak_perft(&pos, depth));
    return 0;
}

/* In: a TPS. Searches it at `level` (1-10) for `nodes` nodes or `ms`
 * milliseconds (0: no such bound; both 0: 100,000 nodes). Out: JSON with
 * the best move, the score for the side to move (hundredths of a flat, or
 * "win_in" plies), depth, nodes, time and the line. */
EXPORT(tak_search) int tak_search(int half_komi, int stones, int caps, int level, int nodes,
                                  int ms) {
    TakPosition pos;
    if (!read_position(buffer, half_komi, stones, caps, &pos)) return -1;
    if (!the_engine()) return answer_error("out of memory");
    tak_engine_set_level(engine, level < TAK_LEVEL_MIN || level > TAK_LEVEL_MAX ? TAK_LEVEL_MAX : level);
    TakSearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.nodes = nodes > 0 ? (uint64_t)nodes : 0;
    limits.movetime_ms = ms > 0 ? ms : 0;
    if (!limits.nodes && !limits.movetime_ms) limits.nodes = 100000;
    TakSearchInfo info;
    TakMove best = tak_engine_search(engine, &pos, NULL, 0, &limits, NULL, NULL, &info);
    int size = tak_position_size(&pos);
    char text[TAK_MOVE_TEXT_MAX];
    size_t used = 0;
    if (best == TAK_MOVE_NONE) return answer_error("no legal move: the game is over");
    tak_move_write(best, size, &pos, text);
    int score = info.score, mate = score >= TAK_SCORE_WIN_MIN || score <= -TAK_SCORE_WIN_MIN;
    int plies = TAK_SCORE_WIN - (score < 0 ? -score : score);
    used += (size_t)snprintf(buffer, sizeof buffer,
                             "{\"best\":\"%s\",\"score\":%d,\"win_in\":%s%d,\"depth\":%d,"
                             "\"nodes\":%llu,\"time_ms\":%lld,\"pv\":[",
                             text, mate ? 0 : score, mate && score < 0 ? "-" : "", mate ? plies : 0,
                             info.depth, (unsigned long long)info.nodes, (long long)info.time_ms);
    TakPosition walk = pos;
    for (int i = 0; i < info.pv_length && !tak_position_is_over(&walk); i++) {
        TakUndo undo;
        tak_move_write(info.pv[i], size, &walk, text);
        used += (size_t)snprintf(buffer + used, sizeof buffer - used, "%s\"%s\"", i ? "," : "", text);
        tak_position_make(&walk, info.pv[i], &undo);
    }
    snprintf(buffer + used, sizeof buffer - used, "]}");
    return 0;
}

/* The game's start: the TPS on the buffer's first line (cut there), or the
 * empty board of `size` when that line is empty. */
static bool read_start(int half_komi, int stones, int caps, int size, TakPosition *pos) {
    if (buffer[0]) return read_position(buffer, half_komi, stones, caps, pos);
    char empty[TAK_TPS_MAX];
    int n = 0;
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) return answer_error("size 3 to 8"), false;
    for (int r = 0; r < size; r++) n += snprintf(empty + n, sizeof empty - (size_t)n, "%sx%d", r ? "/" : "", size);
    snprintf(empty + n, sizeof empty - (size_t)n, " 1 1");
    return read_position(empty, half_komi, stones, caps, pos);
}

/* The position after the plies of `plies` (space-separated PTN, up to
 * `count` of them) from the start in the buffer's first line; the moves
 * played are kept in `moves`. Returns how many were played, -1 (error in
 * the buffer) when one is not legal. */
static int replay(char *plies, TakPosition *pos, TakMove *moves, int count) {
    int played = 0;
    for (char *p = plies; played < count && *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        char *end = p + strcspn(p, " ");
        char save = *end;
        *end = '\0';
        TakError err;
        if (!tak_move_parse(pos, p, &moves[played], &err))
            return answer_error("ply %d '%.20s': %s", played + 1, p, err.message);
        TakUndo undo;
        tak_position_make(pos, moves[played], &undo);
        *end = save;
        p = end;
        played++;
    }
    return played;
}

/* In: the game's start (a TPS; an empty line for the empty board of `size`),
 * a newline, its plies in PTN separated by spaces. Out: the position after
 * the first `ply` of them as the server's game state describes a position:
 * JSON with "ply", "turn", "move_number", "board" (a1 first, each stack
 * bottom to top as 1/2, then S or C), "tps", "stash", "flats", "tak". */
EXPORT(tak_view) int tak_view(int half_komi, int stones, int caps, int size, int ply) {
    char *nl = strchr(buffer, '\n');
    if (nl == NULL) return answer_error("no plies line after the start");
    *nl = '\0';
    char *plies = nl + 1;
    TakPosition pos;
    if (!read_start(half_komi, stones, caps, size, &pos)) return -1;
    static TakMove played_moves[1000];
    if (ply < 0 || ply > 1000) return answer_error("ply 0 to 1000");
    int played = replay(plies, &pos, played_moves, ply);
    if (played < 0) return -1;
    if (played < ply) return answer_error("the game has %d plies, not %d", played, ply);
    /* The plies are read: the answer goes over them, in the buffer. */
    int n = tak_position_size(&pos), used = 0;
    char tps[TAK_TPS_MAX];
    if (tak_tps_write(&pos, tps, sizeof tps) < 0) return answer_error("cannot write the TPS");
    int flats[2];
    tak_position_flat_counts(&pos, flats);
    used += snprintf(buffer, sizeof buffer, "{\"ply\":%d,\"turn\":\"%s\",\"move_number\":%ld,\"board\":[", ply,
                     tak_position_side(&pos) == TAK_WHITE ? "white" : "black", tak_position_move_number(&pos));
    for (int sq = 0; sq < n * n; sq++) {
        used += snprintf(buffer + used, sizeof buffer - (size_t)used, "%s\"", sq ? "," : "");
        int h = tak_position_height(&pos, sq);
        for (int level = 0; level < h && used < (int)sizeof buffer - 8; level++)
            buffer[used++] = tak_position_piece_color(&pos, sq, level) == TAK_WHITE ? '1' : '2';
        if (h > 0 && tak_position_top_type(&pos, sq) == TAK_WALL) buffer[used++] = 'S';
        if (h > 0 && tak_position_top_type(&pos, sq) == TAK_CAP) buffer[used++] = 'C';
        buffer[used++] = '"';
    }
    snprintf(buffer + used, sizeof buffer - (size_t)used,
             "],\"tps\":\"%s\",\"stash\":[[%d,%d],[%d,%d]],\"flats\":[%d,%d],\"tak\":[%s,%s]}", tps,
             pos.stones[0], pos.capstones[0], pos.stones[1], pos.capstones[1], flats[0], flats[1],
             tak_position_has_tak(&pos, TAK_WHITE) ? "true" : "false",
             tak_position_has_tak(&pos, TAK_BLACK) ? "true" : "false");
    return 0;
}

/* In: a game as tak_view takes it. Searches every position of it for
 * `nodes` nodes and judges each ply as `tak analyze --game` does (a
 * mistake from 100 hundredths of a flat lost, a blunder from 300). Out:
 * JSON: "scores", one a position, White's view in hundredths of a flat
 * (wins as +-2000), "wins", one a position, the plies to a win the search
 * found (White's: negative when Black wins; 0 when none, or the game is
 * over), "marks", one a ply ("", "?" or "??"), and "best", the
 * engine's move in each position ("" when over). */
EXPORT(tak_graph) int tak_graph(int half_komi, int stones, int caps, int size, int nodes) {
    char *nl = strchr(buffer, '\n');
    if (nl == NULL) return answer_error("no plies line after the start");
    *nl = '\0';
    TakPosition start;
    if (!read_start(half_komi, stones, caps, size, &start)) return -1;
    enum { PLIES_MAX = 1000 };
    static TakMove moves[PLIES_MAX];
    static int scores[PLIES_MAX + 1], white_cp[PLIES_MAX + 1], wins[PLIES_MAX + 1];
    static char best[PLIES_MAX + 1][TAK_MOVE_TEXT_MAX];
    static uint64_t hashes[PLIES_MAX + 1];
    TakPosition pos = start;
    int n = replay(nl + 1, &pos, moves, PLIES_MAX);
    if (n < 0) return -1;
    if (!the_engine()) return answer_error("out of memory");
    tak_engine_set_level(engine, TAK_LEVEL_MAX);
    tak_engine_new_game(engine);
    TakSearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.nodes = nodes > 0 ? (uint64_t)nodes : 20000;
    /* One pass over the game: each position's score for its mover, for
     * White, and the engine's move in it. */
    pos = start;
    for (int i = 0; i <= n; i++) {
        hashes[i] = pos.hash;
        best[i][0] = '\0';
        TakResult r = tak_position_result(&pos);
        if (r.end != TAK_END_NONE) {
            scores[i] = r.winner < 0 ? 0 : r.winner == (int)tak_position_side(&pos) ? TAK_SCORE_WIN : -TAK_SCORE_WIN;
        } else {
            TakSearchInfo info;
            TakMove m = tak_engine_search(engine, &pos, hashes, (size_t)i, &limits, NULL, NULL, &info);
            scores[i] = info.score;
            if (m != TAK_MOVE_NONE) tak_move_write(m, tak_position_size(&pos), &pos, best[i]);
        }
        int white = tak_position_side(&pos) == TAK_WHITE ? scores[i] : -scores[i];
        white_cp[i] = white > 2000 ? 2000 : white < -2000 ? -2000 : white;
        int plies = TAK_SCORE_WIN - (white < 0 ? -white : white);
        wins[i] = white >= TAK_SCORE_WIN_MIN ? plies : white <= -TAK_SCORE_WIN_MIN ? -plies : 0;
        if (i < n) {
            TakUndo undo;
            tak_position_make(&pos, moves[i], &undo);
        }
    }
    size_t used = (size_t)snprintf(buffer, sizeof buffer, "{\"scores\":[");
    for (int i = 0; i <= n; i++)
        used += (size_t)snprintf(buffer + used, sizeof buffer - used, "%s%d", i ? "," : "", white_cp[i]);
    used += (size_t)snprintf(buffer + used, sizeof buffer - used, "],\"wins\":[");
    for (int i = 0; i <= n; i++)
        used += (size_t)snprintf(buffer + used, sizeof buffer - used, "%s%d", i ? "," : "", wins[i]);
    used += (size_t)snprintf(buffer + used, sizeof buffer - used, "],\"marks\":[");
    for (int i = 0; i < n; i++) {
        int judged = tak_engine_judge_move(scores[i], -scores[i + 1], 100, 300, NULL);
        used += (size_t)snprintf(buffer + used, sizeof buffer - used, "%s\"%s\"", i ? "," : "",
                                 judged == 2 ? "??" : judged == 1 ? "?" : "");
    }
    used += (size_t)snprintf(buffer + used, sizeof buffer - used, "],\"best\":[");
    for (int i = 0; i <= n && used < sizeof buffer - 32; i++)
        used += (size_t)snprintf(buffer + used, sizeof buffer - used, "%s\"%s\"", i ? "," : "", best[i]);
    snprintf(buffer + used, sizeof buffer - used, "]}");
    return n;
}

/* ---- the analysis board: a search that reports as it goes ------------------------ */

/* The page's function that receives each report (JSON text, `length`
 * bytes): a Web Worker posts it on to the page while the search goes on. A
 * wasm call cannot be interrupted, so a page stops this search by ending
 * the worker that runs it (docs/wasm.md says why). */
__attribute__((import_module("tak"), import_name("report"))) extern void js_report(const char *text,
                                                                                    int length);

/* The last completed depth's lines, for the final answer. */
static TakSearchInfo last_lines[TAK_MULTIPV_MAX];
static int last_count;

/* One line as JSON: the score as tak_search gives it (for the side to
 * move: hundredths of a flat, or "win_in" plies), the line in PTN. */
static int line_json(const TakSearchInfo *info, const TakPosition *pos, char *out, size_t cap) {
    int score = info->score, mate = score >= TAK_SCORE_WIN_MIN || score <= -TAK_SCORE_WIN_MIN;
    int plies = TAK_SCORE_WIN - (score < 0 ? -score : score);
    int used = snprintf(out, cap,
                        "{\"multipv\":%d,\"depth\":%d,\"seldepth\":%d,\"score\":%d,\"win_in\":%s%d,"
                        "\"nodes\":%llu,\"time_ms\":%lld,\"pv\":[",
                        info->multipv, info->depth, info->seldepth, mate ? 0 : score,
                        mate && score < 0 ? "-" : "", mate ? plies : 0,
                        (unsigned long long)info->nodes, (long long)info->time_ms);
    TakPosition walk = *pos;
    for (int i = 0; i < info->pv_length && !tak_position_is_over(&walk) && used < (int)cap - 32; i++) {
        char text[TAK_MOVE_TEXT_MAX];
        TakUndo undo;
        tak_move_write(info->pv[i], tak_position_size(&walk), &walk, text);
        used += snprintf(out + used, cap - (size_t)used, "%s\"%s\"", i ? "," : "", text);
        tak_position_make(&walk, info->pv[i], &undo);
    }
    used += snprintf(out + used, cap - (size_t)used, "]}");
    return used < (int)cap ? used : (int)cap - 1;
}

static void analyze_report(const TakSearchInfo *info, void *user) {
    static char text[4096];
    if (info->multipv == 1) last_count = 0;
    if (last_count < TAK_MULTIPV_MAX) last_lines[last_count++] = *info;
    js_report(text, line_json(info, user, text, sizeof text));
}

/* In: a TPS. Searches it at full strength with `lines` best lines
 * (MultiPV, 1 to 16), until `depth` plies, `nodes` nodes or `ms`
 * milliseconds (0: no such bound; all 0: until the search ends, which on a
 * real position is never), calling js_report with each line of each
 * completed depth. Out: the last depth's lines, a JSON array. Returns how
 * many. */
EXPORT(tak_analyze) int tak_analyze(int half_komi, int stones, int caps, int lines, int depth,
                                    int nodes, int ms) {
    TakPosition pos;
    if (!read_position(buffer, half_komi, stones, caps, &pos)) return -1;
    if (tak_position_is_over(&pos)) return answer_error("no legal move: the game is over");
    if (!the_engine()) return answer_error("out of memory");
    tak_engine_set_level(engine, TAK_LEVEL_MAX);
    tak_engine_set_multipv(engine, lines);
    TakSearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.depth = depth > 0 ? depth : 0;
    limits.nodes = nodes > 0 ? (uint64_t)nodes : 0;
    limits.movetime_ms = ms > 0 ? ms : 0;
    limits.infinite = !limits.depth && !limits.nodes && !limits.movetime_ms;
    last_count = 0;
    TakSearchInfo info;
    tak_engine_search(engine, &pos, NULL, 0, &limits, analyze_report, &pos, &info);
    tak_engine_set_multipv(engine, 1);
    size_t used = (size_t)snprintf(buffer, sizeof buffer, "[");
    for (int i = 0; i < last_count && used < sizeof buffer - 4096; i++) {
        if (i) buffer[used++] = ',';
        used += (size_t)line_json(&last_lines[i], &pos, buffer + used, sizeof buffer - used - 2);
    }
    snprintf(buffer + used, sizeof buffer - used, "]");
    return last_count;
}

/* In: a TPS. Out: how the game stands there, as the server's states say
 * it: JSON with "code" ("R-0", ... ; "" while it goes on), "text" (for
 * people), "winner" (0 White, 1 Black, -1 none) and "road" (the squares of
 * the winner's roads, when a road ended it). Returns 1 when over, else 0. */
EXPORT(tak_result) int tak_result(int half_komi, int stones, int caps) {
    TakPosition pos;
    if (!read_position(buffer, half_komi, stones, caps, &pos)) return -1;
    TakResult r = tak_position_result(&pos);
    char text[100] = "";
    if (r.end != TAK_END_NONE) tak_result_describe(r, text, sizeof text);
    int used = snprintf(buffer, sizeof buffer, "{\"code\":\"%s\",\"text\":\"%s\",\"winner\":%d,\"road\":[",
                        r.end == TAK_END_NONE ? "" : tak_result_code(r), text, r.winner);
    TakBitboard road = r.end == TAK_END_ROAD && r.winner >= 0 ? tak_position_road_squares(&pos, (TakColor)r.winner) : 0;
    for (int sq = 0, first = 1; sq < 64; sq++) {
        if (!((road >> sq) & 1)) continue;
        char name[3];
        tak_square_name(sq, tak_position_size(&pos), name);
        used += snprintf(buffer + used, sizeof buffer - (size_t)used, "%s\"%s\"", first ? "" : ",", name);
        first = 0;
    }
    snprintf(buffer + used, sizeof buffer - (size_t)used, "]}");
    return r.end != TAK_END_NONE;
}

/* In: a board as the page's position editor holds it: its size² squares, a1
 * first along ranks, separated by commas, each the colours of its stack
 * bottom to top ('1' White, '2' Black) then 'S' or 'C' for a wall or
 * capstone on top, empty for an empty square. Out: the position as a TPS,
 * `turn` (1 White, 2 Black) to move at `move_number` (0: 1 on an empty
 * board, else 2), read with the rules (reserves, capstones) as the server's
 * `setup` message reads it, so the editor works with the server gone. */
EXPORT(tak_setup) int tak_setup(int half_komi, int stones, int caps, int size, int turn,
                                int move_number) {
    if (size < TAK_MIN_SIZE || size > TAK_MAX_SIZE) return answer_error("size 3 to 8");
    if (turn != 1 && turn != 2) return answer_error("turn 1 (White) or 2 (Black)");
    const char *squares[TAK_MAX_SIZE * TAK_MAX_SIZE];
    int count = 0;
    bool empty = true;
    for (char *p = buffer;; p++) {
        if (count == size * size) return answer_error("more than %d squares", size * size);
        squares[count++] = p;
        p += strcspn(p, ",");
        bool last = *p == '\0';
        *p = '\0';
        if (last) break;
    }
    if (count != size * size) return answer_error("%d squares, not %d", count, size * size);
    char tps[TAK_TPS_MAX];
    size_t used = 0;
    for (int rank = size - 1; rank >= 0; rank--) {
        for (int file = 0; file < size; file++) {
            int sq = rank * size + file;
            const char *s = squares[sq];
            size_t n = strlen(s);
            for (size_t i = 0; i < n; i++)
                if (!(s[i] == '1' || s[i] == '2' || (i + 1 == n && i > 0 && (s[i] == 'S' || s[i] == 'C')))) {
                    char name[3];
                    tak_square_name(sq, size, name);
                    return answer_error("square %s: a stack is written as colours bottom to top (1 White, "
                                        "2 Black), then S or C for a wall or capstone on top", name);
                }
            if (n) empty = false;
            int w = snprintf(tps + used, sizeof tps - used, "%s%s", file ? "," : rank < size - 1 ? "/" : "",
                             n ? s : "x");
            if (w < 0 || (size_t)w >= sizeof tps - used) return answer_error("the board holds too many stones");
            used += (size_t)w;
        }
    }
    if (move_number <= 0) move_number = empty ? 1 : 2;
    int w = snprintf(tps + used, sizeof tps - used, " %d %d", turn, move_number);
    if (w < 0 || (size_t)w >= sizeof tps - used) return answer_error("the board holds too many stones");
    TakPosition pos;
    if (!read_position(tps, half_komi, stones, caps, &pos)) return -1;
    if (tak_tps_write(&pos, buffer, sizeof buffer) < 0) return answer_error("cannot write the TPS");
    return 0;
}
