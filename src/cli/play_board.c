/*
 * play_board.c: the board of `tak play` as plain ASCII, so it reads the same
 * in any terminal, a pipe or a log. Each square shows its top piece and the
 * stack's height; stacks taller than one are also spelled out in full below
 * the board, bottom to top, in TPS digits (1 White, 2 Black).
 */
#include <string.h>

#include "play.h"

/* "." for an empty square; else W or B, then S or C for a wall or a
 * capstone, then the height in parentheses when above one: "BS", "WC(3)". */
static void cell_text(const TakPosition *pos, int square, char buf[16]) {
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
    for (int file = 0; file < size; file++)
        fprintf(out, " %-*c", file + 1 < size ? width : 1, 'a' + file);
    fprintf(out, "\n");
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

static void draw_player(FILE *out, const TakPosition *pos, TakColor color, const int flats[2]) {
    int half_komi = color == TAK_BLACK ? pos->rules.half_komi : 0;
    fprintf(out, "%s: %2d stones, %d capstone%s in reserve; %2d flat%s on top",
            color == TAK_WHITE ? "White" : "Black", pos->stones[color], pos->capstones[color],
            pos->capstones[color] == 1 ? "" : "s", flats[color], flats[color] == 1 ? "" : "s");
    if (half_komi != 0) {
        int magnitude = half_komi < 0 ? -half_komi : half_komi;
        fprintf(out, " %c %d%s komi", half_komi < 0 ? '-' : '+', magnitude / 2,
                magnitude % 2 ? ".5" : "");
    }
    fprintf(out, "\n");
}

void play_draw(FILE *out, const TakGame *game) {
    const TakPosition *pos = &game->current;
    int size = tak_position_size(pos);
    int width = 2;
    char cell[16];
    for (int square = 0; square < size * size; square++) {
        cell_text(pos, square, cell);
        int len = (int)strlen(cell);
        if (len > width) width = len;
    }
    fprintf(out, "\n");
    draw_files(out, size, width);
    for (int rank = size - 1; rank >= 0; rank--) {
        fprintf(out, "%2d ", rank + 1);
        for (int file = 0; file < size; file++) {
            cell_text(pos, rank * size + file, cell);
            fprintf(out, " %-*s", width, cell);
        }
        fprintf(out, " %d\n", rank + 1);
    }
    draw_files(out, size, width);
    draw_stacks(out, pos);

    int flats[2];
    tak_position_flat_counts(pos, flats);
    draw_player(out, pos, TAK_WHITE, flats);
    draw_player(out, pos, TAK_BLACK, flats);
    if (tak_game_result(game).end != TAK_END_NONE) return;
    TakColor side = tak_position_side(pos);
    fprintf(out, "Move %ld, %s to move%s.\n", tak_position_move_number(pos),
            side == TAK_WHITE ? "White" : "Black",
            tak_position_is_opening(pos) ? " (opening: place one of the opponent's flats)" : "");
    if (tak_position_has_tak(pos, (TakColor)!side))
        fprintf(out, "Tak: %s threatens to complete a road.\n",
                side == TAK_WHITE ? "Black" : "White");
}
