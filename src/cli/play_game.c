/*
 * play_game.c: one game of `tak play`: whose turn it is, the commands a
 * human may type, the engine's moves, and the calls of Tak under the
 * University wagering rules. The match around it (scores, bids, saving at
 * the end) is cmd_play.c's.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "play.h"

static void draw(PlayGame *g) {
    PlayBoardInfo info = {.names = {g->names[0], g->names[1]}, .wager = g->wager,
                          .wager_player = {g->player_of[0], g->player_of[1]}};
    play_draw(stdout, &g->game, &g->style, &info);
}

static bool is_over(const PlayGame *g) { return tak_game_result(&g->game).end != TAK_END_NONE; }

static void print_help(void) {
    printf("Type a move in PTN: a placement (a1, Sc3 for a wall, Cb2 for a capstone)\n"
           "or a stack move (a1>, 3c3+, 3c3>12: count, square, direction + - > <, drops).\n"
           "Commands:\n"
           "  hint          the engine's suggestion\n"
           "  moves [SQ]    list the legal moves (only those of square SQ)\n"
           "  undo          take back your last move (a human opponent is asked)\n"
           "  save FILE     save the game as PTN;  load FILE  continue a PTN game\n"
           "  tps           print the position as TPS\n"
           "  draw          offer a draw;  resign  give up the game\n"
           "  quit          leave (asks first when the game is not saved)\n"
           "  help          this text\n"
           "While the engine thinks, press Enter to make it move now.\n");
}

/* The legal moves, all of them or those that place on or move from `square`. */
static int list_moves(const TakPosition *pos, int square, char *out, size_t cap) {
    TakMoveList list;
    int n = tak_moves_generate(pos, &list), shown = 0, column = 0;
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (square >= 0 && tak_move_square(list.moves[i]) != square) continue;
        char text[TAK_MOVE_TEXT_MAX];
        int len = tak_move_write(list.moves[i], tak_position_size(pos), pos, text);
        const char *sep = column == 0 ? "" : column + len + 1 > 78 ? "\n" : " ";
        if (*sep == '\n') column = 0;
        int w = snprintf(out + used, cap - used, "%s%s", sep, text);
        if (w < 0 || (size_t)w >= cap - used) break;
        used += (size_t)w;
        column += len + (column ? 1 : 0);
        shown++;
    }
    return shown;
}

static void print_moves(const TakPosition *pos, const char *arg) {
    int square = -1;
    if (arg && *arg) {
        square = tak_square_parse(arg, tak_position_size(pos));
        if (square < 0) {
            printf("'%s' is not a square of this board (a1 to %c%d).\n", arg,
                   'a' + tak_position_size(pos) - 1, tak_position_size(pos));
            return;
        }
    }
    static char text[TAK_MAX_MOVES * 12];
    int n = list_moves(pos, square, text, sizeof text);
    if (n > 0) printf("%s\n", text);
    if (square >= 0)
        printf("%d legal move%s with %s.\n", n, n == 1 ? "" : "s", arg);
    else
        printf("%d legal moves.\n", n);
}

/* After a refused move: the legal moves of the square it named, if any. */
static void suggest(const TakPosition *pos, const char *line) {
    int size = tak_position_size(pos);
    for (const char *p = line; *p; p++) {
        if (p[0] < 'a' || p[0] >= 'a' + size || p[1] < '1' || p[1] >= '1' + size) continue;
        char name[3] = {p[0], p[1], '\0'};
        int square = tak_square_parse(name, size);
        static char text[TAK_MAX_MOVES * 12];
        int n = list_moves(pos, square, text, sizeof text);
        if (n > 0 && n <= 40)
            printf("Legal moves with %s: %s\n", name, text);
        else if (n > 40)
            printf("%s has %d legal moves; type 'moves %s' to see them.\n", name, n, name);
        else
            printf("There is no legal move with %s now.\n", name);
        return;
    }
    printf("Type 'moves' for the legal moves, 'help' for the notation.\n");
}

static bool looks_like_word(const char *line) {
    size_t n = 0;
    for (; line[n]; n++)
        if (!isalpha((unsigned char)line[n])) return false;
    return n >= 4;
}

bool play_game_save(PlayGame *g, const char *path) {
    TakPtn ptn;
    TakError err;
    if (!tak_ptn_from_game(&ptn, &g->game, &err)) {
        printf("Cannot save: %s\n", err.message);
        return false;
    }
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y.%m.%d", localtime_r(&now, &tm));
    tak_ptn_set_tag(&ptn, "Player1", g->names[TAK_WHITE]);
    tak_ptn_set_tag(&ptn, "Player2", g->names[TAK_BLACK]);
    tak_ptn_set_tag(&ptn, "Date", date);
    tak_ptn_set_tag(&ptn, "Site", "tak play");
    char *text = tak_ptn_write(&ptn);
    tak_ptn_free(&ptn);
    if (text == NULL) {
        printf("Cannot save: out of memory\n");
        return false;
    }
    FILE *f = fopen(path, "w");
    bool ok = f != NULL && fputs(text, f) >= 0;
    if (f != NULL && fclose(f) != 0) ok = false;
    free(text);
    if (!ok) {
        printf("Cannot save to '%s'.\n", path);
        return false;
    }
    g->saved_count = g->game.count;
    printf("Saved the game (%zu plies) to %s.\n", g->game.count, path);
    return true;
}

static void load(PlayGame *g, const char *path) {
    size_t len;
    char *text = cli_read_file(path, &len);
    if (text == NULL) {
        printf("Cannot read '%s'.\n", path);
        return;
    }
    TakPtn ptn;
    TakError err;
    bool ok = tak_ptn_read(text, len, &ptn, &err);
    free(text);
    if (!ok) {
        char why[TAK_ERROR_MESSAGE_MAX + 64];
        printf("Cannot load '%s': %s\n", path, tak_error_describe(&err, why, sizeof why));
        tak_ptn_free(&ptn);
        return;
    }
    TakGame game;
    TakRules rules = ptn.game.start.rules;
    rules.repetition_draw = true;
    TakPosition start = ptn.game.start;
    start.rules = rules;
    if (tak_game_init(&game, &start, &err)) {
        for (size_t i = 0; i < ptn.game.count; i++) tak_game_play(&game, ptn.game.moves[i], NULL);
        if (ptn.game.ended.end != TAK_END_NONE) game.ended = ptn.game.ended;
        tak_game_free(&g->game);
        g->game = game;
        g->saved_count = game.count;
        printf("Loaded %s: %zu plies.\n", path, game.count);
        draw(g);
    }
    tak_ptn_free(&ptn);
}

static void hint(PlayGame *g) {
    TakSearchInfo info;
    TakMove move = play_engine_think(g->engine, &g->game, g->in, &info);
    if (move == TAK_MOVE_NONE) return;
    const TakPosition *pos = &g->game.current;
    char text[TAK_MOVE_TEXT_MAX], score[32];
    tak_move_write(move, tak_position_size(pos), pos, text);
    printf("Hint: %s (eval %s for %s)\n", text, play_score_text(info.score, score, sizeof score),
           tak_color_name(tak_position_side(pos)));
}

/* Against the engine: takes back moves until `side` is to move again, having
 * taken back at least one of its moves. Between humans: takes back the last
 * move if the player to move (who did not make it) accepts. */
static void undo(PlayGame *g, TakColor side) {
    bool vs_engine = g->is_engine[!side];
    size_t plies = !vs_engine ? 1 : tak_position_side(&g->game.current) == side ? 2 : 1;
    if (g->game.count < plies) {
        printf("Nothing to take back.\n");
        return;
    }
    if (!vs_engine) {
        char q[128], text[TAK_MOVE_TEXT_MAX];
        tak_move_write(g->game.moves[g->game.count - 1], tak_position_size(&g->game.current), NULL,
                       text);
        snprintf(q, sizeof q, "%s, do you accept taking back %s's move %s?", tak_color_name(side),
                 tak_color_name((TakColor)!side), text);
        if (play_ask_yes_no(g->in, q, false) != 1) {
            printf("Takeback refused.\n");
            return;
        }
    }
    for (size_t i = 0; i < plies; i++) tak_game_undo(&g->game);
    printf("Took back %zu move%s.\n", plies, plies == 1 ? "" : "s");
    draw(g);
}

static void offer_draw(PlayGame *g, TakColor side) {
    TakColor other = (TakColor)!side;
    bool accepted;
    if (g->is_engine[other]) {
        /* The engine is to move only after the human; look from its side. */
        int score = play_engine_evaluate(g->engine, &g->game);
        if (tak_position_side(&g->game.current) != other) score = -score;
        accepted = score <= 25;
        printf("%s (engine) %s the draw.\n", tak_color_name(other),
               accepted ? "accepts" : "declines");
    } else {
        char q[96];
        snprintf(q, sizeof q, "%s offers a draw. %s, do you accept?", tak_color_name(side),
                 tak_color_name(other));
        accepted = play_ask_yes_no(g->in, q, false) == 1;
        if (!accepted) printf("Draw declined.\n");
    }
    if (accepted) tak_game_end(&g->game, TAK_END_AGREEMENT, -1);
}

static bool confirm_quit(PlayGame *g) {
    if (g->game.count == 0 || g->saved_count == g->game.count) return true;
    return play_ask_yes_no(g->in, "The game is not saved (save FILE saves it). Quit anyway?",
                           false) != 0;
}

/* One line from the human to move. True when it moved (or the game ended). */
static bool human_turn(PlayGame *g) {
    TakColor side = tak_position_side(&g->game.current);
    char prompt[64], buf[256];
    snprintf(prompt, sizeof prompt, "%s, move %ld> ", tak_color_name(side),
             tak_position_move_number(&g->game.current));
    if (!play_read_line(g->in, prompt, buf, sizeof buf)) {
        printf("(end of input)\n");
        g->quit = true;
        return true;
    }
    char *arg = strchr(buf, ' ');
    if (arg) {
        *arg++ = '\0';
        while (*arg == ' ') arg++;
    }
    if (buf[0] == '\0') return false;
    if (strcmp(buf, "help") == 0 || strcmp(buf, "?") == 0) {
        print_help();
    } else if (strcmp(buf, "hint") == 0) {
        hint(g);
    } else if (strcmp(buf, "moves") == 0) {
        print_moves(&g->game.current, arg);
    } else if (strcmp(buf, "undo") == 0) {
        undo(g, side);
    } else if (strcmp(buf, "tps") == 0) {
        char tps[TAK_TPS_MAX];
        tak_tps_write(&g->game.current, tps, sizeof tps);
        printf("%s\n", tps);
    } else if (strcmp(buf, "board") == 0) {
        draw(g);
    } else if (strcmp(buf, "save") == 0 || strcmp(buf, "load") == 0) {
        if (arg == NULL || *arg == '\0')
            printf("%s needs a file name: %s FILE\n", buf, buf);
        else if (buf[0] == 's')
            play_game_save(g, arg);
        else
            load(g, arg);
    } else if (strcmp(buf, "resign") == 0) {
        tak_game_end(&g->game, TAK_END_RESIGNATION, (int)!side);
        printf("%s resigns.\n", tak_color_name(side));
        return true;
    } else if (strcmp(buf, "draw") == 0) {
        offer_draw(g, side);
        return is_over(g);
    } else if (strcmp(buf, "quit") == 0 || strcmp(buf, "exit") == 0) {
        if (confirm_quit(g)) {
            g->quit = true;
            return true;
        }
    } else {
        if (arg) arg[-1] = ' '; /* a move with a space in it: let the parser say why */
        TakMove move;
        TakError err;
        tak_error_clear(&err);
        if (looks_like_word(buf)) {
            printf("Unknown command '%s'. Type 'help' for the commands and the notation.\n", buf);
        } else if (!tak_move_parse(&g->game.current, buf, &move, &err) ||
                   !tak_game_play(&g->game, move, &err)) {
            char why[TAK_ERROR_MESSAGE_MAX + 64];
            printf("Not a legal move '%s': %s\n", buf, tak_error_describe(&err, why, sizeof why));
            suggest(&g->game.current, buf);
        } else {
            return true;
        }
    }
    return false;
}

static void engine_turn(PlayGame *g) {
    const TakPosition *pos = &g->game.current;
    TakColor side = tak_position_side(pos);
    TakSearchInfo info;
    TakMove move = play_engine_think(g->engine, &g->game, g->in, &info);
    if (move == TAK_MOVE_NONE) {
        tak_game_end(&g->game, TAK_END_RESIGNATION, (int)!side);
        printf("%s (%s) has no move and resigns.\n", tak_color_name(side), g->names[side]);
        return;
    }
    char text[TAK_MOVE_TEXT_MAX], score[32];
    tak_move_write(move, tak_position_size(pos), pos, text);
    if (g->in->tty)
        printf("%s (%s) plays %s   [eval %s for %s, depth %d]\n", tak_color_name(side),
               g->names[side], text, play_score_text(info.score, score, sizeof score),
               tak_color_name(side), info.depth);
    else
        printf("%s (%s) plays %s\n", tak_color_name(side), g->names[side], text);
    tak_game_play(&g->game, move, NULL);
}

/* After `mover` moved under the wagering rules: when it has Tak and calling
 * it would cost the opponent, it may call; the opponent pays or resigns. */
static void wager_tak(PlayGame *g, TakColor mover) {
    if (g->wager == NULL || is_over(g) || !tak_position_has_tak(&g->game.current, mover)) return;
    TakColor other = (TakColor)!mover;
    int caller = g->player_of[mover];
    if (!tak_wager_call_is_owed(g->wager, caller)) {
        if (!g->is_engine[mover])
            printf("(You have Tak, but calling it costs %s nothing: nobody pays twice in a row.)\n",
                   tak_color_name(other));
        return;
    }
    bool call = true;
    if (!g->is_engine[mover]) {
        char q[160];
        snprintf(q, sizeof q,
                 "%s, you can complete a road next turn. Call Tak? (%s must pay %d "
                 "coins or resign)",
                 tak_color_name(mover), tak_color_name(other), TAK_WAGER_PENALTY);
        call = play_ask_yes_no(g->in, q, true) == 1;
    }
    if (!call) return;
    tak_wager_call_tak(g->wager, caller);
    printf("%s (%s) calls Tak!\n", tak_color_name(mover), g->names[mover]);
    bool pay;
    if (g->is_engine[other]) {
        /* The engine resigns only when it sees the road cannot be stopped. */
        pay = play_engine_evaluate(g->engine, &g->game) > -TAK_SCORE_WIN_MIN;
    } else {
        char q[128];
        snprintf(q, sizeof q, "%s, pay %d coins into the pot? (no: resign)", tak_color_name(other),
                 TAK_WAGER_PENALTY);
        pay = play_ask_yes_no(g->in, q, true) != 0;
    }
    if (pay) {
        tak_wager_pay_penalty(g->wager, g->player_of[other]);
        printf("%s (%s) pays %d coins; the pot is %d.\n", tak_color_name(other), g->names[other],
               TAK_WAGER_PENALTY, g->wager->pot);
    } else {
        tak_game_end(&g->game, TAK_END_RESIGNATION, (int)mover);
        printf("%s (%s) resigns rather than pay.\n", tak_color_name(other), g->names[other]);
    }
}

static void pause_ms(int64_t ms) {
    if (ms <= 0) return;
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

void play_game_run(PlayGame *g) {
    bool dirty = true;
    while (!is_over(g) && !g->quit) {
        TakColor side = tak_position_side(&g->game.current);
        if (g->is_engine[side]) {
            if (dirty && g->is_engine[!side] && g->game.count == 0) draw(g);
            engine_turn(g);
            wager_tak(g, side);
            dirty = true;
            if (g->is_engine[!side] && !is_over(g)) {
                draw(g);
                dirty = false;
                pause_ms(g->delay_ms);
            }
            continue;
        }
        if (dirty) draw(g);
        dirty = false;
        size_t before = g->game.count;
        if (human_turn(g) && g->game.count > before) {
            wager_tak(g, side);
            dirty = true;
        }
    }
    if (is_over(g)) draw(g);
}
