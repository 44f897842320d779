/*
 * cmd_takat.c: `tak takat`, the front end of the TAKAT module (takat.h):
 * perft, the legal turns of a position, the solver, and a terminal game
 * against the AI or a second human. One file, as the subcommands share the
 * board drawing and the option parsing.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tak/takat.h"

int cmd_takat(int argc, char **argv);
int cmd_takat_layers(int argc, char **argv);

static const CliCommand takat_command = {
    "takat",
    "COMMAND [OPTIONS] [ARGS]",
    "TAKAT, the second game (shared/spec/takat.md): 7 cells, stacks of up to 6.\n"
    "\n"
    "Commands:\n"
    "  perft [--pos POS] DEPTH   count the turn sequences of DEPTH turns\n"
    "  moves POS                 list the legal turns of a position, one a line\n"
    "  solve [OPTIONS]           solve by retrograde analysis (or say how far it got)\n"
    "  layers ACTION DIR         the whole game, layer by layer (solve, verify, value)\n"
    "  play [OPTIONS]            play in the terminal against the AI or a human\n"
    "\n"
    "Positions are written as in takat.md: 'x,x,1,x,x,x,x 2 a1' (cells a2,b3,a1,\n"
    "b2,c3,b1,c2 from bottom to top, 1 White, 2 Black, x empty; the side to move;\n"
    "the ko cell if any). Run 'tak takat COMMAND --help' for a command's options.\n",
};

static const CliCommand perft_cmd = {
    "takat perft",
    "[--pos POS] DEPTH",
    "Counts the legal turn sequences of exactly DEPTH turns from the start (or\n"
    "POS); a finished game counts 0 below it. Prints the count on the last line.\n"
    "\n"
    "Options:\n"
    "  --pos POS   start from this position string\n"
    "  --help      show this help\n",
};

static const CliCommand moves_cmd = {
    "takat moves",
    "POS",
    "Lists the legal turns of the position POS, one a line: drops as a cell\n"
    "(a2), moves as two cells (b2-c3). A finished game lists nothing.\n",
};

static const CliCommand solve_cmd = {
    "takat solve",
    "[--pos POS] [--stones W,B] [--max-positions N] [--depth D] [--hash MB] [--save FILE]\n"
    "       [--no-verify]",
    "Enumerates every position reachable from the start (or POS) and solves them\n"
    "by retrograde analysis: won, lost or drawn (neither side can force a win)\n"
    "for the side to move, with the number of turns to the end. Then checks the\n"
    "table (every win has a turn to a loss, every loss only turns to wins, every\n"
    "draw a turn to a draw) and compares the root with an alpha-beta search.\n"
    "When more than N positions are reachable it says how far it got and runs\n"
    "the alpha-beta proof search from the root alone, to D turns.\n"
    "\n"
    "Options:\n"
    "  --pos POS            the root (default: the start)\n"
    "  --max-positions N    stop enumerating past N positions (default 100000000;\n"
    "                       about 100 bytes each)\n"
    "  --stones W,B         a reduced game: W White and B Black stones in all\n"
    "  --depth D            proof-search depth when the table cannot be built\n"
    "                       (default 20); one iterative deepening, a line a depth\n"
    "  --hash MB            the proof search's table (default 512)\n"
    "  --save FILE          save the table for the AI (tak takat play --table)\n"
    "  --no-verify          skip the table check\n",
};

static const CliCommand play_cmd = {
    "takat play",
    "[--level N] [--color white|black|random] [--human-vs-human] [--pos POS]\n"
    "       [--seed S] [--table FILE] [--layers DIR [--stones W,B]]",
    "Plays TAKAT in the terminal (or from any stdin). Type a turn as in the\n"
    "notation: a drop is a cell (a2), a move two cells (b2-c3). Commands:\n"
    "  help    this list          moves   the legal turns\n"
    "  undo    take back a turn (your last one against the AI)\n"
    "  quit    leave the game\n"
    "\n"
    "Options:\n"
    "  --level N          the AI's strength, 1 (weak) to 10 (perfect with a table,\n"
    "                     else a deep search); default 5\n"
    "  --color C          your colour: white, black or random (default white)\n"
    "  --human-vs-human   two people at one terminal, no AI\n"
    "  --pos POS          start from this position\n"
    "  --seed S           the AI's random seed (default: from the clock)\n"
    "  --table FILE       a solution table from 'tak takat solve --save'\n"
    "  --layers DIR       the layered tables of 'tak takat layers solve DIR': level 10\n"
    "                     keeps the value they give, and each turn shows it\n"
    "  --stones W,B       a reduced game of W White and B Black stones (default 6,15)\n",
};

bool cli_takat_stones(const CliCommand *cmd, const char *value, long *white, long *black, int *rc) {
    if (cli_parse_pair(value, ',', 1, TAKAT_STONES_WHITE, 1, TAKAT_STONES_BLACK, white, black))
        return true;
    *rc = cli_usage_error(cmd, "--stones needs W,B: White 1-%d, Black 1-%d (for example 3,5)",
                          TAKAT_STONES_WHITE, TAKAT_STONES_BLACK);
    return false;
}

static bool read_pos(const CliCommand *cmd, const char *text, TakatPosition *pos, int *rc) {
    TakError err;
    char where[TAK_ERROR_MESSAGE_MAX + 40];
    if (takat_position_parse(text, pos, &err)) return true;
    *rc = cli_fail(cmd, "bad position '%s': %s", text, tak_error_describe(&err, where, sizeof where));
    return false;
}

/* The start of a game of `white` and `black` stones, or the position `text`
 * (may be NULL) in that game; on failure reports it and sets *rc. */
static bool read_game_pos(const CliCommand *cmd, const char *text, long white, long black,
                          TakatPosition *pos, int *rc) {
    takat_position_start_reduced(pos, (int)white, (int)black);
    if (text && !read_pos(cmd, text, pos, rc)) return false;
    if (pos->on_board[TAKAT_WHITE] > white || pos->on_board[TAKAT_BLACK] > black) {
        *rc = cli_fail(cmd, "the position has more stones than --stones %ld,%ld", white, black);
        return false;
    }
    pos->total[TAKAT_WHITE] = (uint8_t)white;
    pos->total[TAKAT_BLACK] = (uint8_t)black;
    return true;
}

static int cmd_perft_takat(int argc, char **argv) {
    const CliCommand *cmd = &perft_cmd;
    const char *pos_text = NULL, *depth_text = NULL, *value;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--pos", &value)) {
            if (!value) return cli_usage_error(cmd, "--pos needs a value");
            pos_text = value;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0' && !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
            return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (!depth_text) {
            depth_text = argv[i];
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    if (!depth_text) return cli_usage_error(cmd, "DEPTH is missing");
    long depth;
    if (!cli_parse_int(depth_text, 0, 30, &depth))
        return cli_usage_error(cmd, "DEPTH must be a whole number from 0 to 30, not '%s'", depth_text);
    TakatPosition pos;
    int rc;
    takat_position_start(&pos);
    if (pos_text && !read_pos(cmd, pos_text, &pos, &rc)) return rc;
    printf("%llu\n", (unsigned long long)takat_perft(&pos, (int)depth));
    return CLI_OK;
}

static int cmd_moves_takat(int argc, char **argv) {
    const CliCommand *cmd = &moves_cmd;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    if (argc < 2) return cli_usage_error(cmd, "POS is missing");
    if (argc > 2) return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
    if (argv[1][0] == '-' && argv[1][1] == '-') return cli_usage_error(cmd, "unknown option '%s'", argv[1]);
    TakatPosition pos;
    int rc;
    if (!read_pos(cmd, argv[1], &pos, &rc)) return rc;
    TakatTurnList list;
    int n = takat_turns_generate(&pos, &list);
    char buf[TAKAT_TURN_MAX];
    for (int i = 0; i < n; i++) printf("%s\n", takat_turn_format(list.turns[i], buf));
    return CLI_OK;
}

/* ---- solve ---------------------------------------------------------------- */

static void solve_progress(const char *phase, const TakatSolveStats *st, void *user) {
    (void)user;
    if (strcmp(phase, "enumerate") == 0)
        fprintf(stderr, "  enumerating: %llu positions, %llu turns, %.0f s\n",
                (unsigned long long)st->positions, (unsigned long long)st->links, st->seconds);
}

/* The proof search's report: one line a depth, with the time from its start. */
typedef struct ProofReport {
    double start;
} ProofReport;

static void proof_progress(int depth, const TakatSearchResult *r, void *user) {
    const ProofReport *report = user;
    char tbuf[TAKAT_TURN_MAX];
    double seconds = cli_seconds() - report->start;
    if (r->score > 500 || r->score < -500)
        printf("  depth %d: the side to move %s in %d turn%s (%s), %llu nodes, %.1f s\n", depth,
               r->score > 0 ? "wins" : "loses", 1000 - abs(r->score),
               1000 - abs(r->score) == 1 ? "" : "s", takat_turn_format(r->turn, tbuf),
               (unsigned long long)r->nodes, seconds);
    else
        printf("  depth %d: no forced win for either side, %llu nodes, %.1f s\n", depth,
               (unsigned long long)r->nodes, seconds);
    fflush(stdout);
}

static const char *value_name(TakatValue v) {
    switch (v) {
    case TAKAT_VALUE_WIN: return "a win";
    case TAKAT_VALUE_LOSS: return "a loss";
    case TAKAT_VALUE_DRAW: return "a draw";
    default: return "unknown";
    }
}

static int cmd_solve_takat(int argc, char **argv) {
    const CliCommand *cmd = &solve_cmd;
    const char *pos_text = NULL, *save = NULL, *value;
    long max_positions = 100000000, depth = 20, hash_mb = 512;
    long white = TAKAT_STONES_WHITE, black = TAKAT_STONES_BLACK;
    int rc;
    bool verify = true;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--pos", &value)) {
            if (!value) return cli_usage_error(cmd, "--pos needs a value");
            pos_text = value;
        } else if (cli_option(argc, argv, &i, "--save", &value)) {
            if (!value) return cli_usage_error(cmd, "--save needs a value");
            save = value;
        } else if (cli_option(argc, argv, &i, "--max-positions", &value)) {
            if (!value || !cli_parse_int(value, 1, 4000000000L, &max_positions))
                return cli_usage_error(cmd, "--max-positions needs a number from 1 to 4000000000");
        } else if (cli_option(argc, argv, &i, "--depth", &value)) {
            if (!value || !cli_parse_int(value, 1, 60, &depth))
                return cli_usage_error(cmd, "--depth needs a number from 1 to 60");
        } else if (cli_option(argc, argv, &i, "--hash", &value)) {
            if (!value || !cli_parse_int(value, 1, 65536, &hash_mb))
                return cli_usage_error(cmd, "--hash needs a number of megabytes from 1 to 65536");
        } else if (cli_option(argc, argv, &i, "--stones", &value)) {
            if (!cli_takat_stones(cmd, value, &white, &black, &rc)) return rc;
        } else if (strcmp(argv[i], "--no-verify") == 0) {
            verify = false;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    TakatPosition root;
    char buf[TAKAT_POSITION_MAX];
    if (!read_game_pos(cmd, pos_text, white, black, &root, &rc)) return rc;
    printf("root: %s\n", takat_position_format(&root, buf));
    TakError err;
    TakatSolveStats st;
    TakatSolution *sol = takat_solve(&root, (uint64_t)max_positions, solve_progress, NULL, &st, &err);
    if (!sol) {
        printf("retrograde analysis stopped: %s (%.1f s)\n", err.message, st.seconds);
        printf("proof search from the root (alpha-beta, repetition ignored, %ld MB table):\n",
               hash_mb);
        fflush(stdout);
        ProofReport report = {cli_seconds()};
        TakatSearchResult r = takat_prove(&root, (int)depth, (size_t)hash_mb, proof_progress, &report);
        if (r.score > 500 || r.score < -500) {
            printf("result: %s for the side to move\n", r.score > 0 ? "a win" : "a loss");
            return CLI_OK;
        }
        printf("result: unsolved (no forced win within %ld turns)\n", depth);
        return CLI_OK;
    }
    int dist;
    TakatValue v = takat_solution_value(sol, &root, &dist);
    printf("positions: %llu\nturns: %llu\nwins: %llu\nlosses: %llu\ndraws: %llu\n"
           "passes: %d\nlongest win: %d turns\ntime: %.2f s\n",
           (unsigned long long)st.positions, (unsigned long long)st.links,
           (unsigned long long)st.wins, (unsigned long long)st.losses,
           (unsigned long long)st.draws, st.passes, st.longest, st.seconds);
    int status = CLI_OK;
    if (verify) {
        uint64_t bad = takat_solution_verify(sol);
        printf("table check: %llu positions inconsistent\n", (unsigned long long)bad);
        if (bad) status = CLI_BAD_INPUT;
        if (v != TAKAT_VALUE_DRAW) {
            TakatSearchResult r = takat_search(&root, dist);
            bool agree = (v == TAKAT_VALUE_WIN ? r.score == 1000 - dist : r.score == -(1000 - dist));
            if (dist > 1) {
                TakatSearchResult shorter = takat_search(&root, dist - 1);
                agree = agree && shorter.score == 0;
            }
            printf("alpha-beta check: %s\n", agree ? "agrees" : "DISAGREES");
            if (!agree) status = CLI_BAD_INPUT;
        }
    }
    if (save) {
        if (!takat_solution_save(sol, save, &err)) {
            takat_solution_free(sol);
            return cli_fail(cmd, "%s", err.message);
        }
        printf("saved: %s\n", save);
    }
    printf("result: %s for the side to move", value_name(v));
    if (v != TAKAT_VALUE_DRAW) printf(" in %d turn%s", dist, dist == 1 ? "" : "s");
    printf("\n");
    takat_solution_free(sol);
    return status;
}

/* ---- play ----------------------------------------------------------------- */

/* One cell as "a1* WWB#": name, red mark, contents bottom to top, safety. */
static void cell_text(const TakatPosition *pos, int cell, char *out) {
    char stack[8];
    int h = pos->height[cell];
    for (int i = 0; i < h; i++) stack[i] = takat_stone(pos, cell, i) == TAKAT_BLACK ? 'B' : 'W';
    stack[h] = '\0';
    TakatSafety s = takat_safety(pos, cell);
    const char *mark = s == TAKAT_PERMANENT ? "#" : s == TAKAT_TEMPORARY ? "~" : "";
    sprintf(out, "%s%c %s%s", takat_cell_name(cell),
            cell == TAKAT_CENTRE ? '+' : takat_cell_is_red(cell) ? '*' : ' ',
            h ? stack : ".", mark);
}

static void draw(const TakatPosition *pos) {
    char c[TAKAT_CELLS][24];
    for (int i = 0; i < TAKAT_CELLS; i++) cell_text(pos, i, c[i]);
    /* Rows of 2, 3 and 2 cells: a2 b3 / a1 b2 c3 / b1 c2. */
    printf("\n        %-13s %-13s\n", c[0], c[1]);
    printf("  %-13s %-13s %-13s\n", c[2], c[3], c[4]);
    printf("        %-13s %-13s\n\n", c[5], c[6]);
    printf("  * red cell   + centre (b2)   stacks bottom to top, W White, B Black\n"
           "  ~ temporarily safe top   # permanently safe top\n");
    printf("  Reserves: White %d, Black %d.   %s to move.", takat_reserve(pos, TAKAT_WHITE),
           takat_reserve(pos, TAKAT_BLACK), takat_color_name(pos->side));
    if (pos->ko < TAKAT_CELLS) printf("   Ko: %s.", takat_cell_name(pos->ko));
    if (takat_forced_drop(pos)) printf("   Black must drop.");
    printf("\n");
}

static void list_moves(const TakatPosition *pos) {
    TakatTurnList list;
    char buf[TAKAT_TURN_MAX];
    int n = takat_turns_generate(pos, &list);
    printf("legal turns (%d):", n);
    for (int i = 0; i < n; i++) printf(" %s", takat_turn_format(list.turns[i], buf));
    printf("\n");
}

static void announce(const TakatGame *game) {
    switch (game->result) {
    case TAKAT_WHITE_WINS:
        printf("Game over: White wins (%s).\n", takat_has_six(&game->pos)
                                                     ? "a stack of six"
                                                     : "Black has no legal turn");
        break;
    case TAKAT_BLACK_WINS: printf("Game over: Black wins (White has no legal turn).\n"); break;
    case TAKAT_DRAW: printf("Game over: a draw (the same position a third time).\n"); break;
    default: break;
    }
}

/* What the layered tables say of the position: who wins with perfect play. */
static void print_verdict(TakatLayers *layers, const TakatPosition *pos) {
    TakError err;
    TakatValue v = takat_layers_value(layers, pos, &err);
    if (v == TAKAT_VALUE_UNKNOWN) {
        printf("Perfect play: not known (%s)\n", err.message);
        return;
    }
    int mover = pos->side, winner = v == TAKAT_VALUE_WIN ? mover : mover ^ 1;
    if (v == TAKAT_VALUE_DRAW)
        printf("Perfect play: a draw\n");
    else
        printf("Perfect play: %s wins\n", takat_color_name(winner));
}

static int cmd_play_takat(int argc, char **argv) {
    const CliCommand *cmd = &play_cmd;
    const char *pos_text = NULL, *table = NULL, *layers_dir = NULL, *value;
    long level = 5, seed_value = -1, white = TAKAT_STONES_WHITE, black = TAKAT_STONES_BLACK;
    int human_color = TAKAT_WHITE, rc;
    bool two_humans = false, random_color = false;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--level", &value)) {
            if (!value || !cli_parse_int(value, 1, 10, &level))
                return cli_usage_error(cmd, "--level needs a number from 1 to 10");
        } else if (cli_option(argc, argv, &i, "--color", &value)) {
            if (value && strcmp(value, "white") == 0) human_color = TAKAT_WHITE;
            else if (value && strcmp(value, "black") == 0) human_color = TAKAT_BLACK;
            else if (value && strcmp(value, "random") == 0) random_color = true;
            else return cli_usage_error(cmd, "--color needs white, black or random");
        } else if (cli_option(argc, argv, &i, "--pos", &value)) {
            if (!value) return cli_usage_error(cmd, "--pos needs a value");
            pos_text = value;
        } else if (cli_option(argc, argv, &i, "--table", &value)) {
            if (!value) return cli_usage_error(cmd, "--table needs a file");
            table = value;
        } else if (cli_option(argc, argv, &i, "--layers", &value)) {
            if (!value) return cli_usage_error(cmd, "--layers needs a directory");
            layers_dir = value;
        } else if (cli_option(argc, argv, &i, "--stones", &value)) {
            if (!cli_takat_stones(cmd, value, &white, &black, &rc)) return rc;
        } else if (cli_option(argc, argv, &i, "--seed", &value)) {
            if (!value || !cli_parse_int(value, 0, 2147483647L, &seed_value))
                return cli_usage_error(cmd, "--seed needs a number from 0 to 2147483647");
        } else if (strcmp(argv[i], "--human-vs-human") == 0) {
            two_humans = true;
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
        }
    }
    uint64_t seed = seed_value >= 0 ? (uint64_t)seed_value : (uint64_t)(cli_seconds() * 1e6);
    if (random_color) human_color = (int)((seed >> 3) & 1);
    TakatPosition start;
    if (!read_game_pos(cmd, pos_text, white, black, &start, &rc)) return rc;
    TakError err;
    TakatSolution *sol = NULL;
    if (table && !(sol = takat_solution_load(table, &err))) return cli_fail(cmd, "%s", err.message);
    TakatLayers *layers = NULL;
    if (layers_dir && !(layers = takat_layers_open(layers_dir, (int)white, (int)black, &err))) {
        takat_solution_free(sol);
        return cli_fail(cmd, "%s", err.message);
    }

    TakatGame *game = malloc(sizeof *game);
    if (!game) {
        takat_solution_free(sol);
        takat_layers_close(layers);
        return cli_fail(cmd, "out of memory");
    }
    takat_game_init(game, &start);
    if (two_humans)
        printf("TAKAT: two players. Type 'help' for the commands.\n");
    else
        printf("TAKAT: you play %s against the AI (level %ld). Type 'help' for the commands.\n",
               takat_color_name(human_color), level);
    char line[256], buf[TAKAT_TURN_MAX];
    bool show = true;
    while (game->result == TAKAT_ONGOING) {
        if (show) {
            draw(&game->pos);
            if (layers) print_verdict(layers, &game->pos);
        }
        show = true;
        if (!two_humans && game->pos.side != human_color) {
            TakatTurn t = takat_ai_choose_in_game(game, (int)level, sol, layers, &seed);
            takat_game_play(game, t, NULL);
            printf("AI plays %s\n", takat_turn_format(t, buf));
            continue;
        }
        printf("%s> ", takat_color_name(game->pos.side));
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\nend of input: leaving the game\n");
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *word = line + strspn(line, " \t");
        if (*word == '\0') {
            show = false;
            continue;
        }
        if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0) {
            printf("bye\n");
            break;
        }
        if (strcmp(word, "help") == 0) {
            printf("Type a turn: a drop is a cell (a2), a move two cells (b2-c3).\n"
                   "Commands: help, moves (list the legal turns), undo, quit.\n");
            show = false;
            continue;
        }
        if (strcmp(word, "moves") == 0) {
            list_moves(&game->pos);
            show = false;
            continue;
        }
        if (strcmp(word, "undo") == 0) {
            /* Against the AI, take back the AI's reply and your turn. */
            int n = two_humans ? 1 : game->pos.side == human_color ? 2 : 1;
            if (game->count < n) {
                printf("nothing to undo\n");
                show = false;
                continue;
            }
            while (n-- > 0) takat_game_undo(game);
            printf("taken back\n");
            continue;
        }
        TakatTurn t;
        if (!takat_turn_parse(word, &t, &err)) {
            printf("not a turn: %s (type 'help')\n", err.message);
            show = false;
            continue;
        }
        if (!takat_game_play(game, t, &err)) {
            printf("illegal: %s\n", err.message);
            show = false;
            continue;
        }
    }
    if (game->result != TAKAT_ONGOING) {
        draw(&game->pos);
        announce(game);
    }
    free(game);
    takat_solution_free(sol);
    takat_layers_close(layers);
    return CLI_OK;
}

int cmd_takat(int argc, char **argv) {
    if (argc < 2) {
        cli_usage_error(&takat_command, "a command is needed (perft, moves, solve, layers, play)");
        return CLI_USAGE;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0)
        return cli_help(&takat_command);
    if (strcmp(sub, "perft") == 0) return cmd_perft_takat(argc - 1, argv + 1);
    if (strcmp(sub, "moves") == 0) return cmd_moves_takat(argc - 1, argv + 1);
    if (strcmp(sub, "solve") == 0) return cmd_solve_takat(argc - 1, argv + 1);
    if (strcmp(sub, "play") == 0) return cmd_play_takat(argc - 1, argv + 1);
    if (strcmp(sub, "layers") == 0) return cmd_takat_layers(argc - 1, argv + 1);
    return cli_usage_error(&takat_command, "unknown command '%s'", sub);
}
