/*
 * baseline.c: a TEI engine of ordinary strength to measure ours against:
 * plain fixed-depth alpha-beta (negamax, moves in generator order, no table,
 * no pruning, no extensions) over a material-only evaluation: flats on top
 * minus the opponent's, less komi, from the side to move's view. A finished
 * game scores +-WIN (nearer wins first). Without a time limit every search
 * goes to the fixed depth (option Depth, 3 unless set); with one ("go
 * movetime MS", or a clock "go wtime .. btime .. winc .. binc ..") it deepens
 * iteratively from depth 1 and plays the best move of the last depth it
 * finished, so it can be matched against our engine at equal time. Nothing
 * carries between iterations (no table, no reordering): still plain alpha-beta.
 *
 * With --eval roads the evaluation also knows roads, as a hobby engine's
 * does: each group of road pieces (flats and capstones on top, joined
 * orthogonally) scores the square of its reach (the longer side of its
 * bounding box), mine minus the opponent's. The search stays as plain.
 * Usage: baseline [--eval material|roads]   (then TEI on stdin/stdout)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tak/notation.h"
#include "tak/tak.h"

#define WIN 30000

typedef struct Baseline {
    int depth, half_komi, size;
    bool roads;          /* --eval roads */
    int64_t deadline_ms; /* 0: no time limit */
    uint64_t nodes;
    bool aborted;        /* the deadline passed mid-iteration */
    TakPosition pos;
    TakMoveList lists[16]; /* one per ply of the search */
} Baseline;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int material(const TakPosition *pos, int half_komi) {
    int flats[2];
    tak_position_flat_counts(pos, flats);
    int white = 100 * (flats[0] - flats[1]) - 50 * half_komi;
    return pos->side == TAK_WHITE ? white : -white;
}

/* Squares orthogonally next to `set` on a board of side n. */
static TakBitboard neighbours(TakBitboard set, int n) {
    TakBitboard board = n * n == 64 ? ~(TakBitboard)0 : ((TakBitboard)1 << (n * n)) - 1;
    TakBitboard first_file = 0;
    for (int r = 0; r < n; r++) first_file |= (TakBitboard)1 << (r * n);
    TakBitboard last_file = first_file << (n - 1);
    return ((set << n) | (set >> n) | ((set & ~last_file) << 1) | ((set & ~first_file) >> 1)) &
           board;
}

/* The sum over `color`'s road groups of the square of their reach. */
static int road_reach(const TakPosition *pos, TakColor color) {
    int n = pos->rules.size, score = 0;
    TakBitboard left = pos->owner[color] & ~pos->walls;
    while (left) {
        TakBitboard group = left & -left, grown;
        while ((grown = group | (neighbours(group, n) & left)) != group) group = grown;
        left &= ~group;
        int min_rank = n, max_rank = -1, min_file = n, max_file = -1;
        for (TakBitboard g = group; g; g &= g - 1) {
            int sq = __builtin_ctzll(g), rank = sq / n, file = sq % n;
            if (rank < min_rank) min_rank = rank;
            if (rank > max_rank) max_rank = rank;
            if (file < min_file) min_file = file;
            if (file > max_file) max_file = file;
        }
        int reach = max_rank - min_rank > max_file - min_file ? max_rank - min_rank + 1
                                                              : max_file - min_file + 1;
        score += reach * reach;
    }
    return score;
}

static int evaluate(const Baseline *b, const TakPosition *pos) {
    int score = material(pos, b->half_komi);
    if (b->roads) score += 12 * (road_reach(pos, pos->side) - road_reach(pos, !pos->side));
    return score;
}

static int negamax(Baseline *b, int depth, int ply, int alpha, int beta) {
    TakPosition *pos = &b->pos;
    if (pos->result.end != TAK_END_NONE) {
        if (pos->result.winner < 0) return 0;
        return pos->result.winner == (int)pos->side ? WIN - ply : -(WIN - ply);
    }
    if (depth == 0) return evaluate(b, pos);
    if ((++b->nodes & 1023) == 0 && b->deadline_ms && now_ms() >= b->deadline_ms) b->aborted = true;
    if (b->aborted) return 0;
    TakMoveList *list = &b->lists[ply];
    int n = tak_moves_generate(pos, list);
    int best = -WIN - 1;
    for (int i = 0; i < n; i++) {
        TakUndo undo;
        tak_position_make(pos, list->moves[i], &undo);
        int score = -negamax(b, depth - 1, ply + 1, -beta, -alpha);
        tak_position_unmake(pos, list->moves[i], &undo);
        if (score > best) best = score;
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    return best;
}

/* One full-width search of the root to `depth`; TAK_MOVE_NONE if aborted. */
static TakMove search_depth(Baseline *b, int depth) {
    TakMoveList *list = &b->lists[0];
    int n = tak_moves_generate(&b->pos, list);
    TakMove best_move = n > 0 ? list->moves[0] : TAK_MOVE_NONE;
    int alpha = -WIN - 1;
    for (int i = 0; i < n; i++) {
        TakMove m = list->moves[i];
        TakUndo undo;
        tak_position_make(&b->pos, m, &undo);
        int score = -negamax(b, depth - 1, 1, -WIN - 1, -alpha);
        tak_position_unmake(&b->pos, m, &undo);
        if (b->aborted) return TAK_MOVE_NONE;
        if (score > alpha) {
            alpha = score;
            best_move = m;
        }
        if (alpha >= WIN - 16) break; /* a forced win: nothing scores higher */
    }
    return best_move;
}

static TakMove search_root(Baseline *b) {
    b->aborted = false;
    b->nodes = 0;
    if (b->deadline_ms == 0) return search_depth(b, b->depth);
    TakMove best = search_depth(b, 1); /* depth 1 always finishes */
    for (int d = 2; d <= 15 && !b->aborted; d++) {
        TakMove m = search_depth(b, d);
        if (m != TAK_MOVE_NONE) best = m;
    }
    return best;
}

/* Sets the deadline from a go command's limits; none for fixed depth. */
static void set_deadline(Baseline *b, const char *go) {
    int64_t movetime = 0, left = 0, inc = 0;
    const char *p;
    bool white = b->pos.side == TAK_WHITE;
    if ((p = strstr(go, "movetime "))) movetime = atoll(p + 9);
    if ((p = strstr(go, white ? "wtime " : "btime "))) left = atoll(p + 6);
    if ((p = strstr(go, white ? "winc " : "binc "))) inc = atoll(p + 5);
    int64_t budget = 0;
    if (movetime > 0) {
        budget = movetime - (movetime / 10 < 50 ? movetime / 10 : 50);
    } else if (left > 0 || inc > 0) {
        budget = left / 20 + inc * 4 / 5; /* about twenty moves to go */
        int64_t cap = left / 3 + inc;
        if (budget > cap) budget = cap;
    }
    b->deadline_ms = budget > 0 ? now_ms() + budget : 0;
}

/* "position startpos|tps B S N [moves m...]": false on a bad position. */
static bool set_position(Baseline *b, char *args) {
    TakRules rules;
    TakError err;
    if (!tak_rules_standard(&rules, b->size, &err)) return false;
    rules.half_komi = b->half_komi;
    char *moves = strstr(args, " moves");
    if (moves) *moves = '\0';
    if (strncmp(args, "tps ", 4) == 0) {
        if (!tak_tps_read(args + 4, &rules, &b->pos, &err)) return false;
    } else if (!tak_position_init(&b->pos, &rules, &err)) {
        return false;
    }
    if (moves == NULL) return true;
    for (char *tok = strtok(moves + 6, " \n"); tok; tok = strtok(NULL, " \n")) {
        TakMove m;
        if (!tak_move_parse(&b->pos, tok, &m, &err)) return false;
        tak_position_make(&b->pos, m, &(TakUndo){0});
    }
    return true;
}

int main(int argc, char **argv) {
    static Baseline b = {.depth = 3, .half_komi = 0, .size = 6};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--eval") == 0 && i + 1 < argc &&
            (strcmp(argv[i + 1], "roads") == 0 || strcmp(argv[i + 1], "material") == 0)) {
            b.roads = strcmp(argv[++i], "roads") == 0;
        } else {
            fprintf(stderr, "usage: baseline [--eval material|roads]\n");
            return 2;
        }
    }
    char line[65536];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "tei") == 0) {
            printf("id name %s\nid author tak\n", b.roads ? "baseline-roads" : "baseline-ab");
            printf("option name Depth type spin default 3 min 1 max 8\nteiok\n");
        } else if (strcmp(line, "isready") == 0) {
            printf("readyok\n");
        } else if (strncmp(line, "setoption name HalfKomi value ", 30) == 0) {
            b.half_komi = atoi(line + 30);
        } else if (strncmp(line, "setoption name Depth value ", 27) == 0) {
            int d = atoi(line + 27);
            b.depth = d < 1 ? 1 : d > 8 ? 8 : d;
        } else if (strncmp(line, "teinewgame", 10) == 0) {
            if (line[10] == ' ') b.size = atoi(line + 11);
        } else if (strncmp(line, "position ", 9) == 0) {
            if (!set_position(&b, line + 9)) fprintf(stderr, "bad position: %s\n", line);
        } else if (strncmp(line, "go", 2) == 0) {
            char text[TAK_MOVE_TEXT_MAX];
            set_deadline(&b, line);
            TakMove m = search_root(&b);
            tak_move_write(m, b.pos.rules.size, &b.pos, text);
            printf("bestmove %s\n", text);
        } else if (strcmp(line, "quit") == 0) {
            break;
        }
    }
    return 0;
}
