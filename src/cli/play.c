/*
 * play.c: `tak play`, a game in the terminal against the simple computer
 * opponent or a second human. Moves are read as PTN, one line at a time, so
 * the same loop serves a person at a terminal and a script piping moves in
 * (then each line read is echoed, to keep the transcript readable).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"

static const CliCommand play_command = {
    "play",
    "[--size N | --tps TPS] [--komi K] [--human-vs-human | --color white|black|random]\n"
    "                [--seed N]",
    "Plays a game of Tak in the terminal. Type moves in PTN (a1, Sc3, Cb2,\n"
    "3c3>12, ...) or one of: help, moves, undo, tps, resign, quit.\n"
    "By default you play White against a simple computer opponent, which wins\n"
    "by road when it can, blocks a road threat when it can, and otherwise plays\n"
    "a random move. A third repetition of a position is a draw.\n"
    "\n"
    "Options:\n"
    "  --size N           board size, 3..8 (default 5)\n"
    "  --tps TPS          start from this position instead of an empty board\n"
    "  --komi K           flats added to Black's count, whole or half (default 0)\n"
    "  --human-vs-human   two people at one keyboard\n"
    "  --color C          your colour against the computer: white (default),\n"
    "                     black or random\n"
    "  --seed N           seed of the computer's choices (default: the clock)\n"
    "  --help             show this help\n",
};

typedef struct PlayOptions {
    int size, half_komi;
    const char *tps;
    bool size_given, color_given, two_humans;
    int human; /* colour of the human against the computer */
    bool random_color;
    uint64_t seed;
} PlayOptions;

static int parse_options(int argc, char **argv, PlayOptions *o) {
    const CliCommand *cmd = &play_command;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        long n;
        if (cli_option(argc, argv, &i, "--size", &value)) {
            if (value == NULL) return cli_usage_error(cmd, "--size needs a value");
            if (!cli_parse_int(value, TAK_MIN_SIZE, TAK_MAX_SIZE, &n))
                return cli_fail(cmd, "bad size '%s': a board is %d to %d squares wide", value,
                                TAK_MIN_SIZE, TAK_MAX_SIZE);
            o->size = (int)n;
            o->size_given = true;
        } else if (cli_option(argc, argv, &i, "--tps", &value)) {
            if (value == NULL) return cli_usage_error(cmd, "--tps needs a value");
            o->tps = value;
        } else if (cli_option(argc, argv, &i, "--komi", &value)) {
            if (value == NULL) return cli_usage_error(cmd, "--komi needs a value");
            if (!cli_parse_komi(value, &o->half_komi))
                return cli_fail(cmd, "bad komi '%s': a whole or half number of flats, -%d to %d",
                                value, TAK_MAX_HALF_KOMI / 2, TAK_MAX_HALF_KOMI / 2);
        } else if (cli_option(argc, argv, &i, "--color", &value)) {
            if (value == NULL) return cli_usage_error(cmd, "--color needs a value");
            o->color_given = true;
            o->random_color = strcmp(value, "random") == 0;
            if (strcmp(value, "white") == 0)
                o->human = TAK_WHITE;
            else if (strcmp(value, "black") == 0)
                o->human = TAK_BLACK;
            else if (!o->random_color)
                return cli_usage_error(cmd, "--color is white, black or random, not '%s'", value);
        } else if (cli_option(argc, argv, &i, "--seed", &value)) {
            if (value == NULL) return cli_usage_error(cmd, "--seed needs a value");
            if (!cli_parse_int(value, 0, 0x7FFFFFFFL, &n))
                return cli_usage_error(cmd, "--seed is a whole number, not '%s'", value);
            o->seed = (uint64_t)n;
        } else if (strcmp(arg, "--human-vs-human") == 0) {
            o->two_humans = true;
        } else if (arg[0] == '-') {
            return cli_usage_error(cmd, "unknown option '%s'", arg);
        } else {
            return cli_usage_error(cmd, "unexpected argument '%s'", arg);
        }
    }
    if (o->tps != NULL && o->size_given)
        return cli_usage_error(cmd, "give --size or --tps, not both");
    if (o->two_humans && o->color_given)
        return cli_usage_error(cmd, "--color is for a game against the computer");
    return CLI_OK;
}

/* Everything the loop needs, passed around instead of kept in globals. */
typedef struct Session {
    TakGame game;
    PlayOpponent opponent;
    bool two_humans;
    TakColor human;
    bool echo; /* stdin is not a terminal: echo what is read */
} Session;

static const char *color_name(TakColor c) { return c == TAK_WHITE ? "White" : "Black"; }

static bool is_computer(const Session *s, TakColor c) { return !s->two_humans && c != s->human; }

static void print_help(void) {
    printf("Type a move in PTN: a placement (a1, Sc3 for a wall, Cb2 for a capstone)\n"
           "or a stack move (a1>, 3c3+, 3c3>12: count, square, direction, drops).\n"
           "Commands:\n"
           "  moves    list the legal moves\n"
           "  undo     take back your last move\n"
           "  tps      print the position as TPS\n"
           "  resign   give up the game\n"
           "  quit     leave without a result\n"
           "  help     this text\n");
}

static void print_moves(const TakPosition *pos) {
    TakMoveList list;
    int n = tak_moves_generate(pos, &list), column = 0;
    for (int i = 0; i < n; i++) {
        char text[TAK_MOVE_TEXT_MAX];
        int len = tak_move_write(list.moves[i], tak_position_size(pos), pos, text);
        if (column + len + 1 > 78) {
            printf("\n");
            column = 0;
        }
        column += printf("%s%s", column ? " " : "", text);
    }
    printf("\n%d legal moves.\n", n);
}

/* Takes back the last move; against the computer, its reply and the
 * human's move before it, so that the human is to move again. */
static void undo(Session *s) {
    size_t plies = s->two_humans ? 1 : 2;
    if (s->game.count < plies) {
        printf("Nothing to take back.\n");
        return;
    }
    for (size_t i = 0; i < plies; i++) tak_game_undo(&s->game);
    play_draw(stdout, &s->game);
}

/* Removes white space at both ends of line, in place. */
static char *trim(char *line) {
    while (isspace((unsigned char)*line)) line++;
    size_t n = strlen(line);
    while (n > 0 && isspace((unsigned char)line[n - 1])) line[--n] = '\0';
    return line;
}

typedef enum Turn { TURN_PLAYED, TURN_AGAIN, TURN_QUIT } Turn;

/* Reads and carries out one line of the human to move. */
static Turn human_turn(Session *s) {
    TakColor side = tak_position_side(&s->game.current);
    printf("%s, move %ld> ", color_name(side), tak_position_move_number(&s->game.current));
    fflush(stdout);
    char buf[256];
    if (fgets(buf, sizeof buf, stdin) == NULL) {
        printf("\n(end of input)\n");
        return TURN_QUIT;
    }
    if (strchr(buf, '\n') == NULL) {
        /* Longer than any move or command: drop the rest of the line too. */
        int c;
        while ((c = getchar()) != EOF && c != '\n') {}
    }
    char *line = trim(buf);
    if (s->echo) printf("%s\n", line);
    if (*line == '\0') return TURN_AGAIN;
    if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0) {
        print_help();
    } else if (strcmp(line, "moves") == 0) {
        print_moves(&s->game.current);
    } else if (strcmp(line, "undo") == 0) {
        undo(s);
    } else if (strcmp(line, "tps") == 0) {
        char tps[TAK_TPS_MAX];
        tak_tps_write(&s->game.current, tps, sizeof tps);
        printf("%s\n", tps);
    } else if (strcmp(line, "resign") == 0) {
        tak_game_end(&s->game, TAK_END_RESIGNATION, (int)!side);
        printf("%s resigns.\n", color_name(side));
        return TURN_PLAYED;
    } else if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0) {
        return TURN_QUIT;
    } else {
        TakMove move;
        TakError err;
        tak_error_clear(&err);
        if (!tak_move_parse(&s->game.current, line, &move, &err) ||
            !tak_game_play(&s->game, move, &err)) {
            char why[TAK_ERROR_MESSAGE_MAX + 64];
            printf(
                "Not a legal move '%s': %s\n(type 'moves' for the legal moves, 'help' for help)\n",
                line, tak_error_describe(&err, why, sizeof why));
            return TURN_AGAIN;
        }
        return TURN_PLAYED;
    }
    return TURN_AGAIN;
}

static void computer_turn(Session *s) {
    const TakPosition *pos = &s->game.current;
    TakMove move = play_opponent_choose(&s->opponent, pos);
    char text[TAK_MOVE_TEXT_MAX];
    tak_move_write(move, tak_position_size(pos), pos, text);
    printf("%s (computer) plays %s\n", color_name(tak_position_side(pos)), text);
    tak_game_play(&s->game, move, NULL);
}

static void print_end(const Session *s) {
    TakResult result = tak_game_result(&s->game);
    char words[128];
    if (result.end == TAK_END_NONE) {
        printf("Game abandoned after %zu plies. Result: *\n", s->game.count);
        return;
    }
    play_draw(stdout, &s->game);
    printf("%s. Result: %s\n", tak_result_describe(result, words, sizeof words),
           tak_result_code(result));
}

static void play_loop(Session *s) {
    play_draw(stdout, &s->game);
    while (tak_game_result(&s->game).end == TAK_END_NONE) {
        if (is_computer(s, tak_position_side(&s->game.current))) {
            computer_turn(s);
            if (tak_game_result(&s->game).end == TAK_END_NONE) play_draw(stdout, &s->game);
            continue;
        }
        Turn turn = human_turn(s);
        if (turn == TURN_QUIT) break;
        if (turn == TURN_PLAYED && tak_game_result(&s->game).end == TAK_END_NONE && s->two_humans)
            play_draw(stdout, &s->game);
    }
    print_end(s);
}

/* The empty board, or the TPS, under the standard rules of its size with
 * the komi asked for, and the repetition draw of computer games. */
static int start_position(const PlayOptions *o, TakPosition *pos) {
    const CliCommand *cmd = &play_command;
    int size = o->size;
    /* A TPS gives the size; read it once to learn it, then under the rules. */
    if (o->tps != NULL) {
        int status = cli_read_tps(cmd, o->tps, NULL, pos);
        if (status != CLI_OK) return status;
        size = tak_position_size(pos);
    }
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, size, &err)) return cli_fail_error(cmd, NULL, &err);
    rules.half_komi = o->half_komi;
    rules.repetition_draw = true;
    if (o->tps != NULL) return cli_read_tps(cmd, o->tps, &rules, pos);
    if (!tak_position_init(pos, &rules, &err)) return cli_fail_error(cmd, NULL, &err);
    return CLI_OK;
}

int cmd_play(int argc, char **argv) {
    const CliCommand *cmd = &play_command;
    if (cli_wants_help(argc, argv)) return cli_help(cmd);
    PlayOptions o = {
        .size = 5, .human = TAK_WHITE, .seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32)};
    int status = parse_options(argc, argv, &o);
    if (status != CLI_OK) return status;

    TakPosition start;
    status = start_position(&o, &start);
    if (status != CLI_OK) return status;
    Session s = {.two_humans = o.two_humans, .echo = !isatty(STDIN_FILENO)};
    play_opponent_init(&s.opponent, o.seed);
    s.human = o.random_color ? (TakColor)play_random(&s.opponent, 2) : (TakColor)o.human;
    TakError err;
    if (!tak_game_init(&s.game, &start, &err)) return cli_fail_error(cmd, NULL, &err);

    int size = tak_position_size(&start);
    if (s.two_humans)
        printf("Tak on %dx%d, two players. Type 'help' for help.\n", size, size);
    else
        printf("Tak on %dx%d: you play %s against the computer. Type 'help' for help.\n", size,
               size, color_name(s.human));
    play_loop(&s);
    tak_game_free(&s.game);
    return CLI_OK;
}
