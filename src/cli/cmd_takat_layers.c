/*
 * cmd_takat_layers.c: `tak takat layers`, the whole game of TAKAT solved
 * layer by layer (takat.h, layers.c): solving (resumable), checking by the
 * second path, and asking a position's value.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tak/takat.h"

int cmd_takat_layers(int argc, char **argv);

static const CliCommand layers_cmd = {
    "takat layers",
    "(solve | verify | value POS) DIR [--stones W,B] [--threads N] [--down-to N] [--layers A-B]\n"
    "  [--progress] [--checkpoint SECONDS] [--turns]",
    "Solves TAKAT for good, layer by layer (layer n: every position with n stones\n"
    "on the board), from the fullest layer down; each solved layer is a file in\n"
    "DIR, 2 bits a position with a checksum, so an interrupted run resumes at\n"
    "the first layer without a file. Within a layer the work so far is saved\n"
    "every ten minutes and on SIGINT or SIGTERM (DIR/takat-W-B-layerNN.part), and\n"
    "the next run goes on from there. One line a layer: positions, wins, losses,\n"
    "draws for the side to move, rounds, seconds.\n"
    "\n"
    "  solve DIR         solve the layers DIR lacks, down to --down-to (0), then\n"
    "                    print the value of the start\n"
    "  verify DIR        check each layer against its turns and the layer above\n"
    "                    (--layers A-B, default all); exit 1 on any disagreement\n"
    "  value POS DIR     the value of a position for its side to move; with\n"
    "                    --turns, then every turn and what it leads to for the\n"
    "                    side that plays it (win, loss or draw with perfect play)\n"
    "\n"
    "Options:\n"
    "  --stones W,B      a reduced game: W White and B Black stones (default 6,15)\n"
    "  --threads N       1 to 64 (default 2)\n"
    "  --down-to N       the lowest layer to solve (default 0: the start)\n"
    "  --layers A-B      the layers to verify\n"
    "  --turns           with value: each turn's value too\n"
    "  --progress        while solving, a line on stderr after each round\n"
    "  --checkpoint S    save the work within a layer every S seconds (default\n"
    "                    600; 0: after every piece of a round, -1: only when stopped)\n",
};

static const char *value_name(TakatValue v) {
    switch (v) {
    case TAKAT_VALUE_WIN:
        return "win";
    case TAKAT_VALUE_LOSS:
        return "loss";
    case TAKAT_VALUE_DRAW:
        return "draw";
    default:
        return "unknown";
    }
}

/* Each turn of `pos` and its value for the side that plays it; false (with
 * err) when a child's layer cannot be read. */
static bool print_turns(TakatLayers *layers, const TakatPosition *pos, TakError *err) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    for (int i = 0; i < n; i++) {
        TakatPosition child = *pos;
        takat_position_apply(&child, list.turns[i]);
        TakatValue v = takat_layers_value(layers, &child, err);
        if (v == TAKAT_VALUE_UNKNOWN) return false;
        /* The child's value is its mover's, the opponent of the turn's player. */
        TakatValue mine = v == TAKAT_VALUE_WIN ? TAKAT_VALUE_LOSS : v == TAKAT_VALUE_LOSS ? TAKAT_VALUE_WIN : v;
        char text[TAKAT_TURN_MAX];
        printf("%s %s\n", takat_turn_format(list.turns[i], text), value_name(mine));
    }
    return true;
}

static void print_layer(const TakatLayerStats *s, const char *note) {
    printf("layer %2d: %llu positions, %llu wins, %llu losses, %llu draws, %d rounds, %.1f s, %.1f "
           "MB%s\n",
           s->layer, (unsigned long long)s->positions, (unsigned long long)s->wins,
           (unsigned long long)s->losses, (unsigned long long)s->draws, s->rounds, s->seconds,
           (double)s->bytes / 1e6, note);
    fflush(stdout);
}

static void print_round(void *ctx, int layer, int round, uint64_t decided, double seconds) {
    (void)ctx;
    fprintf(stderr, "layer %2d round %3d: %llu decided, %.1f s\n", layer, round,
            (unsigned long long)decided, seconds);
}

static volatile sig_atomic_t stop_asked;

static void on_stop_signal(int sig) {
    (void)sig;
    stop_asked = 1;
}

static int solve(TakatLayers *layers, int down_to, int threads, int white, int black) {
    TakError err;
    TakatLayerStats st;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    for (int n = takat_layers_top(layers); n >= down_to; n--) {
        if (takat_layers_have(layers, n) && takat_layers_stats(layers, n, &st)) {
            print_layer(&st, " (solved before)");
            continue;
        }
        if (stop_asked) return cli_fail(&layers_cmd, "stopped before layer %d; solve again to go on", n);
        if (!takat_layers_solve(layers, n, threads, &st, &err))
            return cli_fail(&layers_cmd, "layer %d: %s", n, err.message);
        char note[64] = "";
        if (st.resumed_round >= 0)
            snprintf(note, sizeof note, " (went on from a saved point in round %d)", st.resumed_round);
        print_layer(&st, note);
    }
    if (down_to > 0) return CLI_OK;
    TakatPosition start;
    takat_position_start_reduced(&start, white, black);
    TakatValue v = takat_layers_value(layers, &start, &err);
    if (v == TAKAT_VALUE_UNKNOWN) return cli_fail(&layers_cmd, "the start: %s", err.message);
    printf("start (White to move): %s\n", value_name(v));
    return CLI_OK;
}

static int verify(TakatLayers *layers, int first, int last, int threads) {
    TakError err;
    uint64_t bad_total = 0;
    for (int n = last; n >= first; n--) {
        double t0 = cli_seconds();
        uint64_t bad = takat_layers_verify(layers, n, threads, &err);
        if (bad == UINT64_MAX) return cli_fail(&layers_cmd, "layer %d: %s", n, err.message);
        printf("layer %2d: %llu positions inconsistent (%.1f s)\n", n, (unsigned long long)bad,
               cli_seconds() - t0);
        fflush(stdout);
        bad_total += bad;
    }
    printf("verify: %llu positions inconsistent in all\n", (unsigned long long)bad_total);
    return bad_total ? CLI_BAD_INPUT : CLI_OK;
}

int cmd_takat_layers(int argc, char **argv) {
    const CliCommand *cmd = &layers_cmd;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    if (argc < 3)
        return cli_usage_error(cmd, "an action (solve, verify, value) and a directory are needed");
    const char *action = argv[1], *pos_text = NULL, *dir, *value;
    int a = 2;
    if (strcmp(action, "value") == 0) {
        if (argc < 4) return cli_usage_error(cmd, "value needs a position and a directory");
        pos_text = argv[a++];
    } else if (strcmp(action, "solve") != 0 && strcmp(action, "verify") != 0) {
        return cli_usage_error(cmd, "unknown action '%s' (solve, verify, value)", action);
    }
    dir = argv[a++];
    long white = TAKAT_STONES_WHITE, black = TAKAT_STONES_BLACK, threads = 2, down_to = 0;
    long first = 0, last = -1, checkpoint = 600;
    bool progress = false, turns = false;
    int rc;
    for (int i = a; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--stones", &value)) {
            if (!cli_takat_stones(cmd, value, &white, &black, &rc)) return rc;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (!value || !cli_parse_int(value, 1, TAKAT_LAYERS_MAX_THREADS, &threads))
                return cli_usage_error(cmd, "--threads needs 1 to %d", TAKAT_LAYERS_MAX_THREADS);
        } else if (cli_option(argc, argv, &i, "--down-to", &value)) {
            if (!value || !cli_parse_int(value, 0, 21, &down_to))
                return cli_usage_error(cmd, "--down-to needs a layer from 0 to 21");
        } else if (cli_option(argc, argv, &i, "--layers", &value)) {
            if (!cli_parse_pair(value, '-', 0, 21, 0, 21, &first, &last) || first > last)
                return cli_usage_error(cmd, "--layers needs A-B with 0 <= A <= B <= 21");
        } else if (cli_option(argc, argv, &i, "--checkpoint", &value)) {
            if (!value || !cli_parse_int(value, -1, 86400, &checkpoint))
                return cli_usage_error(cmd, "--checkpoint needs seconds from -1 to 86400");
        } else if (strcmp(argv[i], "--progress") == 0) {
            progress = true;
        } else if (strcmp(argv[i], "--turns") == 0 && pos_text != NULL) {
            turns = true;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    TakError err;
    TakatLayers *layers = takat_layers_open(dir, (int)white, (int)black, &err);
    if (!layers) return cli_fail(cmd, "%s", err.message);
    if (progress) takat_layers_on_progress(layers, print_round, NULL);
    takat_layers_on_checkpoint(layers, (double)checkpoint, &stop_asked);
    int top = takat_layers_top(layers);
    if (strcmp(action, "solve") == 0) {
        rc =
            solve(layers, down_to > top ? top : (int)down_to, (int)threads, (int)white, (int)black);
    } else if (strcmp(action, "verify") == 0) {
        if (last < 0 || last > top) last = top;
        rc = first > last ? cli_usage_error(cmd, "no such layers: the game has 0-%d", top)
                          : verify(layers, (int)first, (int)last, (int)threads);
    } else {
        TakatPosition pos;
        char where[TAK_ERROR_MESSAGE_MAX + 40];
        if (!takat_position_parse(pos_text, &pos, &err)) {
            rc = cli_fail(cmd, "bad position '%s': %s", pos_text,
                          tak_error_describe(&err, where, sizeof where));
        } else {
            pos.total[TAKAT_WHITE] = (uint8_t)white;
            pos.total[TAKAT_BLACK] = (uint8_t)black;
            TakatValue v = TAKAT_VALUE_UNKNOWN;
            if (pos.on_board[0] > white || pos.on_board[1] > black)
                tak_error_set(&err, "more stones on the board than the game has");
            else
                v = takat_layers_value(layers, &pos, &err);
            if (v != TAKAT_VALUE_UNKNOWN) printf("%s\n", value_name(v));
            if (v != TAKAT_VALUE_UNKNOWN && turns && !print_turns(layers, &pos, &err))
                v = TAKAT_VALUE_UNKNOWN;
            rc = v == TAKAT_VALUE_UNKNOWN ? cli_fail(cmd, "%s", err.message) : CLI_OK;
        }
    }
    takat_layers_close(layers);
    return rc;
}
