/*
 * play_board.c: the board of `tak play`. Two forms of one layout: Unicode box
 * drawing with piece glyphs and ANSI colours for a terminal, and plain ASCII
 * for pipes, logs, TERM=dumb and NO_COLOR. Each square shows its top piece
 * (colour and kind) and the stack's height; taller stacks are spelled out
 * below the board, bottom to top, in TPS digits (1 White, 2 Black). The
 * squares of the last move are highlighted (reverse video, or '*' in ASCII).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "play.h"

PlayStyle play_style_detect(bool ascii) {
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    bool fancy = !ascii && isatty(STDOUT_FILENO) && term != NULL && strcmp(term, "dumb") != 0 &&
                 (no_color == NULL || no_color[0] == '\0');
    return (PlayStyle){.unicode = fancy, .color = fancy};
}

TakBitboard play_move_squares(TakMove move, int size) {
    int square = tak_move_square(move);
    TakBitboard b = (TakBitboard)1 << square;
    if (!tak_move_is_spread(move)) return b;
    static const int dfile[4] = {0, 0, 1, -1}, drank[4] = {1, -1, 0, 0};
    int dir = (int)tak_move_direction(move), file = square % size, rank = square / size;
    for (int i = 0; i < tak_move_distance(move); i++) {
        file += dfile[dir];
        rank += drank[dir];
        if (file < 0 || file >= size || rank < 0 || rank >= size) break;
        b |= (TakBitboard)1 << (rank * size + file);
    }
    return b;
}

/* ANSI sequences, empty in ASCII. */
static const char *ansi(const PlayStyle *st, const char *seq) { return st->color ? seq : ""; }
static const char *const PIECE_COLOR[2] = {"\033[1;33m", "\033[1;35m"}; /* gold, magenta */
#define RESET "\033[0m"
#define BOLD "\033[1m"
#define REVERSE "\033[7m"
#define RED "\033[1;31m"

/* Glyphs: White hollow, Black solid; flat, wall, capstone. */
static const char *const GLYPH[2][3] = {{"○", "▯", "◇"}, {"●", "▮", "◆"}};

/* One square in ASCII, 6 characters: "W", "BS", "WC(3)", "B(12)". */
static void ascii_cell(const TakPosition *pos, int square, char buf[16]) {
    int height = tak_position_height(pos, square);
    if (height == 0) {
        strcpy(buf, ".");
        return;
    }
    TakColor top = tak_position_piece_color(pos, square, height - 1);
    static const char *const type_suffix[] = {"", "S", "C"};
    int n = snprintf(buf, 16, "%c%s", top == TAK_WHITE ? 'W' : 'B',
                     type_suffix[tak_position_top_type(pos, square)]);
    if (height > 1) snprintf(buf + n, (size_t)(16 - n), "(%d)", height);
}

static void draw_files(FILE *out, int size, int width) {
    fprintf(out, "   ");
    /* Each cell is a bar and `width` characters; the letter sits mid-cell. */
    for (int file = 0; file < size; file++)
        fprintf(out, "%*c%*s", width / 2 + 2, 'a' + file, width - width / 2 - 1, "");
    fprintf(out, "\n");
}

/* A horizontal rule: `l`, `m`, `r` are the left, middle and right joints. */
static void draw_rule(FILE *out, const PlayStyle *st, int size, int width, const char *l,
                      const char *m, const char *r) {
    fprintf(out, "   %s", st->unicode ? l : "+");
    for (int file = 0; file < size; file++) {
        for (int i = 0; i < width; i++) fputs(st->unicode ? "─" : "-", out);
        fputs(file + 1 < size ? (st->unicode ? m : "+") : (st->unicode ? r : "+"), out);
    }
    fprintf(out, "\n");
}

static void draw_cell(FILE *out, const PlayStyle *st, const TakPosition *pos, int square,
                      bool last, int width) {
    const char *bar = st->unicode ? "│" : "|";
    fputs(bar, out);
    int height = tak_position_height(pos, square);
    if (!st->unicode) {
        char text[16];
        ascii_cell(pos, square, text);
        fprintf(out, "%c%-*s", last ? '*' : ' ', width - 1, height ? text : "");
        return;
    }
    if (last) fputs(REVERSE, out);
    if (height == 0) {
        fprintf(out, "%*s", width, "");
    } else {
        TakColor top = tak_position_piece_color(pos, square, height - 1);
        char h[8] = "";
        if (height > 1) snprintf(h, sizeof h, "%d", height);
        fprintf(out, " %s%s%s%s %-*s", PIECE_COLOR[top], GLYPH[top][tak_position_top_type(pos, square)],
                RESET, last ? REVERSE : "", width - 3, h);
    }
    if (last) fputs(RESET, out);
}

/* The stacks of more than one piece, bottom to top: "c3 121C". */
static void draw_stacks(FILE *out, const TakPosition *pos) {
    int size = tak_position_size(pos);
    bool any = false;
    for (int rank = size - 1; rank >= 0; rank--) {
        for (int file = 0; file < size; file++) {
            int square = rank * size + file, height = tak_position_height(pos, square);
            if (height < 2) continue;
            char name[3];
            tak_square_name(square, size, name);
            fprintf(out, "%s %s ", any ? "," : "Stacks, bottom to top:", name);
            for (int level = 0; level < height; level++)
                fputc(tak_position_piece_color(pos, square, level) == TAK_WHITE ? '1' : '2', out);
            TakPieceType top = tak_position_top_type(pos, square);
            if (top != TAK_FLAT) fputc(top == TAK_WALL ? 'S' : 'C', out);
            any = true;
        }
    }
    if (any) fprintf(out, "\n");
}

static void komi_text(int half_komi, char *buf, size_t cap) {
    int magnitude = abs(half_komi);
    snprintf(buf, cap, "%s%d%s", half_komi < 0 ? "-" : "", magnitude / 2, magnitude % 2 ? ".5" : "");
}

static void draw_player(FILE *out, const PlayStyle *st, const TakPosition *pos, TakColor color,
                        const int flats[2], const PlayBoardInfo *info) {
    const char *name = info && info->names[color] ? info->names[color] : "";
    fprintf(out, "%s%s%s %-18s %2d stone%s, %d capstone%s in reserve; %2d flat%s on top",
            ansi(st, PIECE_COLOR[color]), tak_color_name(color), ansi(st, RESET),
            name, pos->stones[color], pos->stones[color] == 1 ? "" : "s", pos->capstones[color],
            pos->capstones[color] == 1 ? "" : "s", flats[color], flats[color] == 1 ? "" : "s");
    int half_komi = color == TAK_BLACK ? pos->rules.half_komi : 0;
    if (half_komi != 0) {
        char k[16], total[16];
        komi_text(half_komi, k, sizeof k);
        komi_text(2 * flats[color] + half_komi, total, sizeof total);
        fprintf(out, " %c %s komi = %s", half_komi < 0 ? '-' : '+', k + (half_komi < 0), total);
    }
    fprintf(out, "\n");
}

void play_draw(FILE *out, const TakGame *game, const PlayStyle *st, const PlayBoardInfo *info) {
    const TakPosition *pos = &game->current;
    int size = tak_position_size(pos);
    int width = st->unicode ? 5 : 7;
    TakBitboard last = 0;
    if (game->count > 0) last = play_move_squares(game->moves[game->count - 1], size);

    fprintf(out, "\n");
    draw_files(out, size, width);
    draw_rule(out, st, size, width, "┌", "┬", "┐");
    for (int rank = size - 1; rank >= 0; rank--) {
        fprintf(out, "%2d ", rank + 1);
        for (int file = 0; file < size; file++) {
            int square = rank * size + file;
            draw_cell(out, st, pos, square, (last >> square) & 1, width);
        }
        fprintf(out, "%s %d\n", st->unicode ? "│" : "|", rank + 1);
        if (rank > 0) draw_rule(out, st, size, width, "├", "┼", "┤");
    }
    draw_rule(out, st, size, width, "└", "┴", "┘");
    draw_files(out, size, width);
    if (st->unicode)
        fprintf(out, "%s○ ▯ ◇%s White  %s● ▮ ◆%s Black  (flat, wall, capstone; number: stack height)\n",
                PIECE_COLOR[0], RESET, PIECE_COLOR[1], RESET);
    draw_stacks(out, pos);

    int flats[2];
    tak_position_flat_counts(pos, flats);
    draw_player(out, st, pos, TAK_WHITE, flats, info);
    draw_player(out, st, pos, TAK_BLACK, flats, info);
    if (info && info->wager) {
        const TakWager *w = info->wager;
        fprintf(out, "Pot: %d coins. Coins won or lost: %s %+d, %s %+d.\n", w->pot,
                info->names[0], w->balance[info->wager_player[0]], info->names[1],
                w->balance[info->wager_player[1]]);
    }
    if (game->count > 0) {
        char text[TAK_MOVE_TEXT_MAX];
        tak_move_write(game->moves[game->count - 1], size, NULL, text);
        TakColor mover = (TakColor)!tak_position_side(pos);
        fprintf(out, "Last move: %s%s%s by %s.\n", ansi(st, BOLD), text, ansi(st, RESET),
                tak_color_name(mover));
    }
    if (tak_game_result(game).end != TAK_END_NONE) return;
    TakColor side = tak_position_side(pos);
    fprintf(out, "Move %ld, %s%s%s to move%s.\n", tak_position_move_number(pos),
            ansi(st, PIECE_COLOR[side]), tak_color_name(side), ansi(st, RESET),
            tak_position_is_opening(pos) ? " (opening: place one of the opponent's flats)" : "");
    if (tak_position_has_tak(pos, (TakColor)!side))
        fprintf(out, "%sTak!%s %s threatens to complete a road.\n", ansi(st, RED), ansi(st, RESET),
                tak_color_name(!side));
}
