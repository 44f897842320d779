/*
 * cmd_analyze.c: `tak analyze`, the engine as a coach. For one position
 * (TPS) it prints the search depth by depth, then the best move, the
 * evaluation and the line. For a whole game (--game FILE.ptn) it evaluates
 * every position and marks the moves that lost the most, from the mover's
 * view: '?' for a mistake, '??' for a blunder, then sums up each player.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tak/engine.h"

static const CliCommand analyze_command = {
    "analyze",
    "[--depth N | --movetime MS | --nodes N] [--komi K] [--hash MB] [--threads N]\n"
    "       (TPS | --game FILE.ptn [--mistake CP] [--blunder CP])",
    "Evaluates a position given as TPS: the search depth by depth, then the best\n"
    "move, the evaluation and the expected line. Scores are in flats from\n"
    "White's view (+ is good for White); '#N' is a road or flat win in N moves\n"
    "for White, '#-N' for Black; '1-0' or '0-1' a game already over.\n"
    "\n"
    "With --game, evaluates every position of a PTN game and lists each move\n"
    "with the evaluation before and after it and the engine's choice; a move\n"
    "that loses at least CP hundredths of a flat for its player (from their\n"
    "view) is marked '?' (--mistake, 100) or '?\?' (--blunder, 300; also any\n"
    "move that turns a game not lost into a lost one). A summary per player\n"
    "and the worst moves follow.\n"
    "\n"
    "Options:\n"
    "  --depth N       search N plies per position\n"
    "  --movetime MS   search MS milliseconds per position (2000; 300 with --game)\n"
    "  --nodes N       search N nodes per position\n"
    "  --komi K        komi in flats for a TPS (a game's Komi tag otherwise)\n"
    "  --hash MB       transposition table size (64)\n"
    "  --threads N     search threads (1)\n"
    "  --help          show this help\n",
};


typedef struct AnalyzeArgs {
    TakSearchLimits limits;
    bool has_limit, has_komi;
    int half_komi;
    long hash, threads, mistake, blunder;
    const char *tps, *game;
} AnalyzeArgs;

/* A score (side to move's view) written from White's view. */
static const char *format_score(int score, TakColor side, char *buf, size_t cap) {
    int white = side == TAK_WHITE ? score : -score;
    /* A finished game: its result. */
    if (white == TAK_SCORE_WIN || white == -TAK_SCORE_WIN)
        snprintf(buf, cap, "%s", white > 0 ? "1-0" : "0-1");
    else if (white >= TAK_SCORE_WIN_MIN)
        snprintf(buf, cap, "#%d", (TAK_SCORE_WIN - white + 1) / 2);
    else if (white <= -TAK_SCORE_WIN_MIN)
        snprintf(buf, cap, "#-%d", (TAK_SCORE_WIN + white + 1) / 2);
    else
        snprintf(buf, cap, "%+.2f", white / 100.0);
    return buf;
}

static void write_line(const TakPosition *start, const TakMove *pv, int n, char *buf, size_t cap) {
    TakPosition pos = *start;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (tak_position_is_over(&pos) || !tak_move_is_legal(&pos, pv[i])) break;
        char text[TAK_MOVE_TEXT_MAX];
        int k = tak_move_write(pv[i], tak_position_size(&pos), &pos, text);
        if (len + (size_t)k + 2 > cap) break;
        if (len > 0) buf[len++] = ' ';
        memcpy(buf + len, text, (size_t)k + 1);
        len += (size_t)k;
        TakUndo undo;
        tak_position_make(&pos, pv[i], &undo);
    }
}

typedef struct ReportCtx {
    const TakPosition *pos;
} ReportCtx;

static void print_depth(const TakSearchInfo *info, void *user) {
    const ReportCtx *ctx = user;
    char score[16], line[2048];
    format_score(info->score, tak_position_side(ctx->pos), score, sizeof score);
    write_line(ctx->pos, info->pv, info->pv_length, line, sizeof line);
    printf("depth %2d  %7s  nodes %10llu  %6lld ms  %s\n", info->depth, score,
           (unsigned long long)info->nodes, (long long)info->time_ms, line);
    fflush(stdout);
}

static int analyze_position(const AnalyzeArgs *a, TakEngine *engine) {
    const CliCommand *cmd = &analyze_command;
    int size = 1;
    for (const char *p = a->tps; *p && *p != ' '; p++) size += *p == '/';
    TakRules rules;
    TakPosition pos;
    TakError err;
    char why[TAK_ERROR_MESSAGE_MAX + 64];
    if (!tak_rules_standard(&rules, size, &err))
        return cli_fail(cmd, "bad TPS '%s': %s", a->tps, err.message);
    rules.half_komi = a->half_komi;
    if (!tak_tps_read(a->tps, &rules, &pos, &err))
        return cli_fail(cmd, "bad TPS '%s': %s", a->tps, tak_error_describe(&err, why, sizeof why));
    if (tak_position_is_over(&pos)) {
        char desc[128];
        printf("game over: %s\n", tak_result_describe(tak_position_result(&pos), desc, sizeof desc));
        return CLI_OK;
    }
    ReportCtx ctx = {&pos};
    TakSearchInfo info;
    memset(&info, 0, sizeof info);
    TakMove best = tak_engine_search(engine, &pos, NULL, 0, &a->limits, print_depth, &ctx, &info);
    char text[TAK_MOVE_TEXT_MAX] = "--", score[16], line[2048];
    if (best != TAK_MOVE_NONE) tak_move_write(best, size, &pos, text);
    write_line(&pos, info.pv, info.pv_length, line, sizeof line);
    printf("best move: %s\n", text);
    printf("evaluation: %s (White's view; %s to move)\n",
           format_score(info.score, tak_position_side(&pos), score, sizeof score),
           tak_color_name(tak_position_side(&pos)));
    printf("line: %s\n", line);
    return CLI_OK;
}

/* The score of position `pos` (side to move's view): the result when the
 * game is over, else a search. */
static int evaluate(TakEngine *engine, const TakPosition *pos, TakResult result, const uint64_t *history,
                    size_t n, const TakSearchLimits *limits, TakMove *best) {
    *best = TAK_MOVE_NONE;
    if (result.end != TAK_END_NONE) {
        if (result.winner < 0) return 0;
        return result.winner == (int)tak_position_side(pos) ? TAK_SCORE_WIN : -TAK_SCORE_WIN;
    }
    TakSearchInfo info;
    memset(&info, 0, sizeof info);
    *best = tak_engine_search(engine, pos, history, n, limits, NULL, NULL, &info);
    return info.score;
}

typedef struct Flagged {
    size_t ply;
    int drop;
} Flagged;

static int analyze_game(const AnalyzeArgs *a, TakEngine *engine) {
    const CliCommand *cmd = &analyze_command;
    size_t len;
    char *text = cli_read_file(a->game, &len);
    if (text == NULL) return cli_fail(cmd, "cannot read %s: %s", a->game, strerror(errno));
    TakPtn ptn;
    TakError err;
    char why[TAK_ERROR_MESSAGE_MAX + 64];
    bool ok = tak_ptn_read(text, len, &ptn, &err);
    free(text);
    if (!ok) {
        tak_ptn_free(&ptn);
        return cli_fail(cmd, "%s: %s", a->game, tak_error_describe(&err, why, sizeof why));
    }
    const TakGame *g = &ptn.game;
    size_t n = g->count;
    int *scores = malloc((n + 1) * sizeof *scores);
    TakMove *bests = malloc((n + 1) * sizeof *bests);
    Flagged *flags = malloc((n + 1) * sizeof *flags);
    if (scores == NULL || bests == NULL || flags == NULL) {
        free(scores), free(bests), free(flags);
        tak_ptn_free(&ptn);
        return cli_fail(cmd, "out of memory");
    }
    /* Positions 0..n, replayed from the start. */
    TakPosition pos = g->start;
    int size = tak_position_size(&pos);
    const char *p1 = tak_ptn_tag(&ptn, "Player1"), *p2 = tak_ptn_tag(&ptn, "Player2");
    printf("%s vs %s, %dx%d, %zu plies\n", p1 ? p1 : "White", p2 ? p2 : "Black", size, size, n);
    TakPosition *positions = malloc((n + 1) * sizeof *positions);
    if (positions == NULL) {
        free(scores), free(bests), free(flags);
        tak_ptn_free(&ptn);
        return cli_fail(cmd, "out of memory");
    }
    for (size_t i = 0; i <= n; i++) {
        positions[i] = pos;
        TakResult result = i == n ? tak_game_result(g) : tak_position_result(&pos);
        scores[i] = evaluate(engine, &pos, result, g->hashes, i, &a->limits, &bests[i]);
        if (i < n) {
            TakUndo undo;
            tak_position_make(&pos, g->moves[i], &undo);
        }
    }
    int counts[2][2] = {{0, 0}, {0, 0}}; /* [player][mistake, blunder] */
    size_t flagged = 0;
    for (size_t i = 0; i < n; i++) {
        const TakPosition *before = &positions[i];
        TakColor mover = tak_position_side(before);
        int s_before = scores[i], s_after = -scores[i + 1];
        int drop;
        int judged = tak_engine_judge_move(s_before, s_after, (int)a->mistake, (int)a->blunder, &drop);
        const char *mark = judged == 2 ? "??" : judged == 1 ? "?" : "";
        if (judged) counts[mover][judged - 1]++;
        if (*mark) flags[flagged++] = (Flagged){i, drop};
        char move[TAK_MOVE_TEXT_MAX], best[TAK_MOVE_TEXT_MAX] = "", e0[16], e1[16];
        tak_move_write(g->moves[i], size, before, move);
        if (bests[i] != TAK_MOVE_NONE && bests[i] != g->moves[i]) tak_move_write(bests[i], size, before, best);
        strcat(move, mark);
        printf("%4ld%s %-12s %7s -> %-7s%s%s\n", tak_position_move_number(before),
               mover == TAK_WHITE ? ". " : "...", move, format_score(s_before, mover, e0, sizeof e0),
               format_score(s_after, mover, e1, sizeof e1), *best ? "  best " : "", best);
    }
    char desc[128];
    printf("result: %s (%s)\n", tak_result_code(tak_game_result(g)),
           tak_result_describe(tak_game_result(g), desc, sizeof desc));
    for (int c = 0; c < 2; c++)
        printf("%s: %d mistakes (?), %d blunders (?\?)\n",
               c == 0 ? (p1 ? p1 : "White") : (p2 ? p2 : "Black"), counts[c][0], counts[c][1]);
    /* The worst moves, biggest loss first. */
    for (size_t i = 1; i < flagged; i++)
        for (size_t j = i; j > 0 && flags[j].drop > flags[j - 1].drop; j--) {
            Flagged t = flags[j];
            flags[j] = flags[j - 1];
            flags[j - 1] = t;
        }
    for (size_t i = 0; i < flagged && i < 3; i++) {
        const TakPosition *before = &positions[flags[i].ply];
        char move[TAK_MOVE_TEXT_MAX];
        tak_move_write(g->moves[flags[i].ply], size, before, move);
        printf("worst %zu: %ld%s %s, lost %.2f flats\n", i + 1, tak_position_move_number(before),
               tak_position_side(before) == TAK_WHITE ? "." : "...", move, flags[i].drop / 100.0);
    }
    free(positions);
    free(scores), free(bests), free(flags);
    tak_ptn_free(&ptn);
    return CLI_OK;
}

int cmd_analyze(int argc, char **argv) {
    const CliCommand *cmd = &analyze_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    AnalyzeArgs a = {.hash = 64, .threads = 1, .mistake = 100, .blunder = 300};
    for (int i = 1; i < argc; i++) {
        const char *v;
        long n;
        if (cli_option(argc, argv, &i, "--depth", &v)) {
            if (!cli_parse_int(v, 1, 128, &n)) return cli_usage_error(cmd, "--depth needs 1..128");
            a.limits.depth = (int)n, a.has_limit = true;
        } else if (cli_option(argc, argv, &i, "--movetime", &v)) {
            if (!cli_parse_int(v, 1, 100000000L, &n)) return cli_usage_error(cmd, "--movetime needs milliseconds");
            a.limits.movetime_ms = n, a.has_limit = true;
        } else if (cli_option(argc, argv, &i, "--nodes", &v)) {
            if (!cli_parse_int(v, 1, 1000000000000L, &n)) return cli_usage_error(cmd, "--nodes needs a count");
            a.limits.nodes = (uint64_t)n, a.has_limit = true;
        } else if (cli_option(argc, argv, &i, "--komi", &v)) {
            if (!cli_parse_komi(v, &a.half_komi)) return cli_usage_error(cmd, "bad --komi");
            a.has_komi = true;
        } else if (cli_option(argc, argv, &i, "--hash", &v)) {
            if (!cli_parse_int(v, 1, 65536, &a.hash)) return cli_usage_error(cmd, "--hash needs 1..65536");
        } else if (cli_option(argc, argv, &i, "--threads", &v)) {
            if (!cli_parse_int(v, 1, 64, &a.threads)) return cli_usage_error(cmd, "--threads needs 1..64");
        } else if (cli_option(argc, argv, &i, "--mistake", &v)) {
            if (!cli_parse_int(v, 1, 100000, &a.mistake)) return cli_usage_error(cmd, "--mistake needs CP");
        } else if (cli_option(argc, argv, &i, "--blunder", &v)) {
            if (!cli_parse_int(v, 1, 100000, &a.blunder)) return cli_usage_error(cmd, "--blunder needs CP");
        } else if (cli_option(argc, argv, &i, "--game", &v)) {
            if (v == NULL) return cli_usage_error(cmd, "--game needs a file");
            a.game = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (a.tps == NULL) {
            a.tps = argv[i];
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s' (quote the TPS)", argv[i]);
        }
    }
    if ((a.tps == NULL) == (a.game == NULL)) return cli_usage_error(cmd, "give a TPS or --game FILE");
    if (a.game && a.has_komi) return cli_usage_error(cmd, "--komi is for a TPS; a game has its Komi tag");
    if (!a.has_limit) a.limits.movetime_ms = a.game ? 300 : 2000;
    TakEngine *engine = tak_engine_new((size_t)a.hash, (int)a.threads);
    if (engine == NULL) return cli_fail(cmd, "cannot allocate %ld MB for the engine", a.hash);
    int status = a.game ? analyze_game(&a, engine) : analyze_position(&a, engine);
    tak_engine_free(engine);
    return status;
}
