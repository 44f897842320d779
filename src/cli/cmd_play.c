/*
 * cmd_play.c: `tak play`: reads the options, sets up the players (you against
 * the engine by default, two humans, or two engines to watch), and runs a
 * game or a match of several, with the rule book's multi-game scoring and,
 * on request, its University wagering rules (bids, antes, the pot). One
 * game's turns are play_game.c's.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"

static const CliCommand play_command = {
    "play",
    "[--size N | --game-type T | --tps TPS] [--stones N] [--capstones N] [--komi K]\n"
    "                [--allow-pass] [--human-vs-human | --engine-vs-engine] [--level N]\n"
    "                [--color white|black|random] [--match N] [--wager] [--seed N] [--ascii]",
    "Plays Tak in the terminal, at once: by default a 5x5 game against the\n"
    "engine at level 5 of 10, you playing White. Type moves in PTN (a1, Sc3,\n"
    "Cb2, 3c3>12, ...) or a command: help, hint, moves [SQ], undo, save FILE,\n"
    "load FILE, tps, draw, resign, quit. While the engine thinks, its best line\n"
    "is shown; press Enter to make it move now.\n"
    "\n"
    "Options:\n"
    "  --size N            board size, 3..8 (default 5), standard reserves\n"
    "  --game-type T       childrens (4x4, 15+0), travelers (5x5, 20+1),\n"
    "                      courtly (6x6, 30+1) or masters (8x8, 50+2)\n"
    "  --tps TPS           start from this position\n"
    "  --stones N          stones in each reserve (custom)\n"
    "  --capstones N       capstones in each reserve (custom)\n"
    "  --komi K            flats added to Black's count, whole or half (default 0)\n"
    "  --allow-pass        turn the no-pass rule off: a stack may be lifted and\n"
    "                      put back as a pass (written 1c3)\n"
    "  --human-vs-human    two people at one keyboard\n"
    "  --engine-vs-engine  watch the engine play itself\n"
    "  --level N           the engine's strength, 1..10 (default 5)\n"
    "  --think S           the most seconds the engine thinks per move\n"
    "                      (default: the level's own limit; 5 at level 10)\n"
    "  --color C           your colour in the first game: white (default),\n"
    "                      black or random\n"
    "  --match N           play N games; the first player of game 1 is drawn at\n"
    "                      random, then players alternate. The winner of a game\n"
    "                      scores the board's squares plus the pieces left in\n"
    "                      their reserve.\n"
    "  --wager             the rule book's University wagering rules: each game\n"
    "                      both ante 10 coins, bid for the first move (the high\n"
    "                      bidder pays the bid into the pot), a called Tak costs\n"
    "                      the opponent 2 coins or the game (nobody pays twice in\n"
    "                      a row), and the winner takes the pot plus a coin per\n"
    "                      unplayed piece of their reserve from the loser\n"
    "  --save FILE         save each finished game as PTN (FILE, or FILE-N.ptn\n"
    "                      in a match)\n"
    "  --delay MS          pause after each move of engine against engine\n"
    "                      (default 500 at a terminal)\n"
    "  --seed N            seed of the random choices (default: the clock)\n"
    "  --ascii             plain ASCII board, no colours (also when not a\n"
    "                      terminal, with TERM=dumb or NO_COLOR set)\n"
    "  --help              show this help\n",
};

typedef enum Mode { MODE_VS_ENGINE, MODE_HUMANS, MODE_ENGINES } Mode;

typedef struct PlayOptions {
    int size, half_komi, level, games;
    long stones, capstones; /* -1: the standard count */
    const char *tps, *save;
    bool size_given, type_given, color_given, random_color, allow_pass, wager, ascii;
    TakGameType type;
    Mode mode;
    int human;
    double think_s;
    long delay_ms; /* -1: default */
    uint64_t seed;
} PlayOptions;

static int need(const CliCommand *cmd, const char *opt, const char *value) {
    return value == NULL ? cli_usage_error(cmd, "%s needs a value", opt) : CLI_OK;
}

static int parse_options(int argc, char **argv, PlayOptions *o) {
    const CliCommand *cmd = &play_command;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        long n;
#define OPTION(name) (cli_option(argc, argv, &i, name, &value) && (need(cmd, name, value) == CLI_OK || (status = CLI_USAGE, true)))
        int status = CLI_OK;
        if (OPTION("--size")) {
            if (status) return status;
            if (!cli_parse_int(value, TAK_MIN_SIZE, TAK_MAX_SIZE, &n))
                return cli_fail(cmd, "bad size '%s': a board is %d to %d squares wide", value,
                                TAK_MIN_SIZE, TAK_MAX_SIZE);
            o->size = (int)n;
            o->size_given = true;
        } else if (OPTION("--game-type")) {
            if (status) return status;
            if (!tak_game_type_from_name(value, &o->type))
                return cli_usage_error(cmd, "--game-type is childrens, travelers, courtly or "
                                            "masters, not '%s'", value);
            o->type_given = true;
        } else if (OPTION("--tps")) {
            if (status) return status;
            o->tps = value;
        } else if (OPTION("--stones")) {
            if (status) return status;
            if (!cli_parse_int(value, 1, TAK_MAX_RESERVE, &n))
                return cli_fail(cmd, "bad --stones '%s': 1 to %d", value, TAK_MAX_RESERVE);
            o->stones = n;
        } else if (OPTION("--capstones")) {
            if (status) return status;
            if (!cli_parse_int(value, 0, TAK_MAX_RESERVE, &n))
                return cli_fail(cmd, "bad --capstones '%s': 0 to %d", value, TAK_MAX_RESERVE);
            o->capstones = n;
        } else if (OPTION("--komi")) {
            if (status) return status;
            if (!cli_parse_komi(value, &o->half_komi))
                return cli_fail(cmd, "bad komi '%s': a whole or half number of flats, -%d to %d",
                                value, TAK_MAX_HALF_KOMI / 2, TAK_MAX_HALF_KOMI / 2);
        } else if (OPTION("--level")) {
            if (status) return status;
            if (!cli_parse_int(value, TAK_LEVEL_MIN, TAK_LEVEL_MAX, &n))
                return cli_usage_error(cmd, "--level is %d to %d, not '%s'", TAK_LEVEL_MIN,
                                       TAK_LEVEL_MAX, value);
            o->level = (int)n;
        } else if (OPTION("--think")) {
            if (status) return status;
            char *end;
            o->think_s = strtod(value, &end);
            if (*end != '\0' || !(o->think_s > 0) || o->think_s > 3600)
                return cli_usage_error(cmd, "--think is a number of seconds, not '%s'", value);
        } else if (OPTION("--match")) {
            if (status) return status;
            if (!cli_parse_int(value, 1, TAK_SCORE_MAX_GAMES, &n))
                return cli_usage_error(cmd, "--match is a number of games, 1 to %d, not '%s'",
                                       TAK_SCORE_MAX_GAMES, value);
            o->games = (int)n;
        } else if (OPTION("--save")) {
            if (status) return status;
            o->save = value;
        } else if (OPTION("--delay")) {
            if (status) return status;
            if (!cli_parse_int(value, 0, 60000, &o->delay_ms))
                return cli_usage_error(cmd, "--delay is milliseconds, 0 to 60000, not '%s'", value);
        } else if (OPTION("--color")) {
            if (status) return status;
            o->color_given = true;
            o->random_color = strcmp(value, "random") == 0;
            if (strcmp(value, "white") == 0)
                o->human = TAK_WHITE;
            else if (strcmp(value, "black") == 0)
                o->human = TAK_BLACK;
            else if (!o->random_color)
                return cli_usage_error(cmd, "--color is white, black or random, not '%s'", value);
        } else if (OPTION("--seed")) {
            if (status) return status;
            if (!cli_parse_int(value, 0, 0x7FFFFFFFL, &n))
                return cli_usage_error(cmd, "--seed is a whole number, not '%s'", value);
            o->seed = (uint64_t)n;
        } else if (strcmp(arg, "--human-vs-human") == 0) {
            o->mode = MODE_HUMANS;
        } else if (strcmp(arg, "--engine-vs-engine") == 0) {
            o->mode = MODE_ENGINES;
        } else if (strcmp(arg, "--allow-pass") == 0) {
            o->allow_pass = true;
        } else if (strcmp(arg, "--wager") == 0) {
            o->wager = true;
        } else if (strcmp(arg, "--ascii") == 0) {
            o->ascii = true;
        } else if (arg[0] == '-') {
            return cli_usage_error(cmd, "unknown option '%s'", arg);
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", arg);
        }
#undef OPTION
    }
    if ((o->tps != NULL) + o->size_given + o->type_given > 1)
        return cli_usage_error(cmd, "give one of --size, --game-type and --tps");
    if (o->mode != MODE_VS_ENGINE && o->color_given)
        return cli_usage_error(cmd, "--color is for a game against the engine");
    return CLI_OK;
}

/* The rules the options ask for, and the start position. */
static int start_position(const PlayOptions *o, TakPosition *pos) {
    const CliCommand *cmd = &play_command;
    int size = o->size;
    if (o->tps != NULL) {
        int status = cli_read_tps(cmd, o->tps, NULL, pos);
        if (status != CLI_OK) return status;
        size = tak_position_size(pos);
    }
    TakRules rules;
    TakError err;
    if (o->type_given)
        tak_rules_for_game_type(&rules, o->type);
    else if (!tak_rules_standard(&rules, size, &err))
        return cli_fail_error(cmd, NULL, &err);
    if (o->stones >= 0) rules.stones = (int)o->stones;
    if (o->capstones >= 0) rules.capstones = (int)o->capstones;
    rules.half_komi = o->half_komi;
    rules.no_pass = !o->allow_pass;
    rules.repetition_draw = true;
    if (!tak_rules_validate(&rules, &err)) return cli_fail_error(cmd, "bad rules", &err);
    if (o->tps != NULL) return cli_read_tps(cmd, o->tps, &rules, pos);
    if (!tak_position_init(pos, &rules, &err)) return cli_fail_error(cmd, NULL, &err);
    return CLI_OK;
}

/* The players of the match, numbered 0 and 1 whatever colour they play. */
typedef struct Match {
    PlayOptions *o;
    PlayInput in;
    PlayStyle style;
    PlayEngine engine;
    TakPosition start;
    char names[2][40];
    bool is_engine[2];
    TakMatchScore score;
    TakWager wager;
    uint64_t rng;
    bool quit;
} Match;

static int ask_bid(Match *m, int player) {
    char prompt[96], buf[64];
    snprintf(prompt, sizeof prompt, "%s, your bid for the first move (0-%d coins): ",
             m->names[player], TAK_WAGER_MAX_BID);
    for (;;) {
        if (!play_read_line(&m->in, prompt, buf, sizeof buf)) return 0;
        long n;
        if (cli_parse_int(buf, 0, TAK_WAGER_MAX_BID, &n)) return (int)n;
        printf("A bid is a whole number of coins from 0 to %d.\n", TAK_WAGER_MAX_BID);
    }
}

/* The wager's opening: antes, then bids; returns the player moving first. */
static int wager_opening(Match *m) {
    tak_wager_start_game(&m->wager);
    printf("Each player antes %d coins; the pot is %d.\n", TAK_WAGER_ANTE, m->wager.pot);
    int bids[2];
    for (int p = 0; p < 2; p++) {
        if (m->is_engine[p]) {
            bids[p] = play_engine_bid(tak_position_size(&m->start), &m->rng);
        } else {
            bids[p] = ask_bid(m, p);
        }
    }
    for (int p = 0; p < 2; p++)
        printf("%s bid%s %d.\n", m->names[p], strcmp(m->names[p], "You") ? "s" : "", bids[p]);
    int first = tak_wager_bid(&m->wager, bids, (int)play_random(&m->rng, 2));
    printf("%s %s, moves first and pays %d into the pot; the pot is %d.\n", m->names[first],
           bids[0] == bids[1] ? "wins the tied bid by lot" : "bids highest", bids[first],
           m->wager.pot);
    return first;
}

static void save_name(const Match *m, int game, char *buf, size_t cap) {
    if (m->o->games <= 1) {
        snprintf(buf, cap, "%s", m->o->save);
        return;
    }
    const char *dot = strrchr(m->o->save, '.');
    int stem = dot ? (int)(dot - m->o->save) : (int)strlen(m->o->save);
    snprintf(buf, cap, "%.*s-%d%s", stem, m->o->save, game, dot ? dot : ".ptn");
}

/* Offers to save a finished game (at a terminal), or saves it to --save. */
static void save_finished(Match *m, PlayGame *g, int game) {
    char path[1024];
    if (m->o->save) {
        save_name(m, game, path, sizeof path);
        play_game_save(g, path);
        return;
    }
    if (!m->in.tty || g->saved_count == g->game.count) return;
    if (!play_read_line(&m->in, "Save this game as PTN? File name (Enter: no): ", path,
                        sizeof path)) {
        m->quit = true;
        return;
    }
    if (path[0]) play_game_save(g, path);
}

static void print_table(const Match *m, int game, int winner, int points, const char *code) {
    int games = m->o->games;
    if (games <= 1) return;
    printf("Game %d of %d: %s. %s\n", game, games, code,
           winner < 0 ? "Nobody scores." : "");
    if (winner >= 0) printf("%s scores %d.\n", m->names[winner], points);
    printf("Score after %d game%s: %s %d, %s %d (wins %d-%d, draws %d)\n", m->score.games,
           m->score.games == 1 ? "" : "s", m->names[0], m->score.points[0], m->names[1],
           m->score.points[1], m->score.wins[0], m->score.wins[1], m->score.draws);
}

/* Plays game number `game` of the match. */
static void play_one(Match *m, int game) {
    int first = tak_score_first_player(&m->score, game);
    if (m->o->wager) first = wager_opening(m);
    PlayGame g = {.in = &m->in, .style = m->style, .engine = &m->engine,
                  .wager = m->o->wager ? &m->wager : NULL, .saved_count = SIZE_MAX};
    g.player_of[TAK_WHITE] = first;
    g.player_of[TAK_BLACK] = !first;
    for (int c = 0; c < 2; c++) {
        g.is_engine[c] = m->is_engine[g.player_of[c]];
        g.names[c] = m->names[g.player_of[c]];
    }
    g.delay_ms = m->o->delay_ms >= 0 ? m->o->delay_ms : (m->in.tty || isatty(STDOUT_FILENO)) ? 500 : 0;
    if (!tak_game_init(&g.game, &m->start, NULL)) {
        m->quit = true;
        return;
    }
    g.saved_count = SIZE_MAX;
    int size = tak_position_size(&m->start);
    if (m->o->games > 1) printf("\n=== Game %d of %d ===\n", game, m->o->games);
    printf("Tak on %dx%d: %s play%s White, %s play%s Black", size, size, g.names[TAK_WHITE],
           strcmp(g.names[TAK_WHITE], "You") ? "s" : "", g.names[TAK_BLACK],
           strcmp(g.names[TAK_BLACK], "You") ? "s" : "");
    if (m->is_engine[0] || m->is_engine[1]) printf(" (engine level %d)", m->o->level);
    printf(". Type 'help' for help.\n");
    tak_engine_new_game(m->engine.engine);
    play_game_run(&g);

    TakResult result = tak_game_result(&g.game);
    char words[128];
    if (result.end == TAK_END_NONE) {
        printf("Game abandoned after %zu plies. Result: *\n", g.game.count);
        m->quit = true;
    } else {
        printf("%s. Result: %s\n", tak_result_describe(result, words, sizeof words),
               tak_result_code(result));
        int winner = result.winner < 0 ? -1 : g.player_of[result.winner];
        int points = tak_score_points(&g.game.current, result);
        tak_score_record(&m->score, winner, points);
        print_table(m, game, winner, points, tak_result_code(result));
        if (m->o->wager) {
            int reserve = result.winner < 0 ? 0
                                            : g.game.current.stones[result.winner] +
                                                  g.game.current.capstones[result.winner];
            TakWagerSettlement s = tak_wager_finish(&m->wager, winner, reserve);
            if (winner < 0)
                printf("The pot of %d is shared.\n", s.pot);
            else
                printf("%s takes the pot of %d coins and %d more from %s (unplayed pieces).\n",
                       m->names[winner], s.pot, s.bonus, m->names[!winner]);
            printf("Coins: %s %+d, %s %+d.\n", m->names[0], m->wager.balance[0], m->names[1],
                   m->wager.balance[1]);
        }
        save_finished(m, &g, game);
    }
    if (g.quit) m->quit = true;
    tak_game_free(&g.game);
}

static void final_score(const Match *m) {
    if (m->o->games <= 1 || m->score.games == 0) return;
    int leader = tak_score_leader(&m->score);
    printf("\nFinal score after %d game%s: %s %d, %s %d. ", m->score.games,
           m->score.games == 1 ? "" : "s", m->names[0], m->score.points[0], m->names[1],
           m->score.points[1]);
    if (leader < 0)
        printf("The match is drawn.\n");
    else
        printf("%s win%s the match.\n", m->names[leader], strcmp(m->names[leader], "You") ? "s" : "");
}

int cmd_play(int argc, char **argv) {
    const CliCommand *cmd = &play_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    PlayOptions o = {.size = 5, .level = 5, .games = 1, .stones = -1, .capstones = -1,
                     .human = TAK_WHITE, .delay_ms = -1,
                     .seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32)};
    int status = parse_options(argc, argv, &o);
    if (status != CLI_OK) return status;

    Match m = {.o = &o, .rng = o.seed};
    status = start_position(&o, &m.start);
    if (status != CLI_OK) return status;
    play_input_init(&m.in);
    m.style = play_style_detect(o.ascii);
    int64_t think_ms = o.think_s > 0 ? (int64_t)(o.think_s * 1000) : o.level == TAK_LEVEL_MAX ? 5000 : 0;
    if (!play_engine_init(&m.engine, o.level, think_ms, o.seed, m.in.tty && isatty(STDOUT_FILENO))) {
        play_input_free(&m.in);
        return cli_fail(cmd, "out of memory for the engine");
    }
    /* Player 0 is you (or the first human, or the first engine). */
    int first = 0;
    switch (o.mode) {
    case MODE_VS_ENGINE:
        snprintf(m.names[0], sizeof m.names[0], "You");
        snprintf(m.names[1], sizeof m.names[1], "Engine");
        m.is_engine[1] = true;
        first = o.random_color || (o.games > 1 && !o.color_given) ? (int)play_random(&m.rng, 2)
                                                                   : o.human == TAK_WHITE ? 0 : 1;
        break;
    case MODE_HUMANS:
        snprintf(m.names[0], sizeof m.names[0], "Player 1");
        snprintf(m.names[1], sizeof m.names[1], "Player 2");
        first = o.games > 1 ? (int)play_random(&m.rng, 2) : 0;
        break;
    case MODE_ENGINES:
        snprintf(m.names[0], sizeof m.names[0], "Engine A");
        snprintf(m.names[1], sizeof m.names[1], "Engine B");
        m.is_engine[0] = m.is_engine[1] = true;
        first = o.games > 1 ? (int)play_random(&m.rng, 2) : 0;
        break;
    }
    tak_score_init(&m.score, first);
    tak_wager_init(&m.wager);
    if (o.games > 1)
        printf("A match of %d games. %s moves first in game 1; then players alternate.\n", o.games,
               m.names[first]);
    for (int game = 1; game <= o.games && !m.quit; game++) play_one(&m, game);
    final_score(&m);
    play_engine_free(&m.engine);
    play_input_free(&m.in);
    return CLI_OK;
}
