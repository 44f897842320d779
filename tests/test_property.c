/*
 * test_property.c: thousands of random games over every size and a spread of
 * rule options, checking after every ply what must hold of any position:
 * make/unmake restore it exactly, the incremental hash is the hash, TPS reads
 * back what it wrote, the generator, the counter and the legality check agree
 * (and reject what is not generated), and the result agrees with the board
 * (roads, flats, reserves, komi) recomputed here independently.
 *
 * Deterministic: one seed, a PRNG in a struct. TAK_PROPERTY_GAMES=N sets the
 * number of games (default below); TAK_PROPERTY_SEED=S another seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/support.h"

/* About 5 s at -O3; under the sanitizers (ten times slower) fewer games. */
#if defined(__SANITIZE_ADDRESS__)
#define DEFAULT_GAMES 250
#else
#define DEFAULT_GAMES 1200
#endif
#define MAX_PLIES 240
/* Children made and unmade per ply (all of them when there are fewer). */
#define CHILDREN_PER_PLY 40
/* Move codes, legal or not, tried per ply against the generated list. */
#define RANDOM_CODES_PER_PLY 24

typedef struct Rng {
    uint64_t state;
} Rng;

static uint64_t rng_next(Rng *rng) { return tak_random_next(&rng->state); }

static int rng_below(Rng *rng, int n) { return (int)(rng_next(rng) % (uint64_t)n); }

/* What a run needs besides the position: big buffers off the stack. */
typedef struct Checker {
    Rng rng;
    TakMoveList list;
    TakMove sorted[TAK_MAX_MOVES];
    long plies, children, codes; /* what was checked, for the summary */
    long ends[TAK_END_AGREEMENT + 1], unfinished, flattens, passes;
    const char *where; /* the game and ply, for messages */
    char where_buf[160];
    char tps[TAK_TPS_MAX]; /* the position, for messages */
} Checker;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            print_error("%s in %s\n", ck->where, support_tps(pos, ck->tps));                       \
            fail_msg(__VA_ARGS__);                                                                 \
        }                                                                                          \
    } while (0)

/* ---- independent facts about a position ------------------------------- */

static TakBitboard all_squares(int size) {
    int n = size * size;
    return n == 64 ? ~(TakBitboard)0 : ((TakBitboard)1 << n) - 1;
}

static TakStackBits height_mask(int h) {
    return h >= 128 ? ~(TakStackBits)0 : (((TakStackBits)1 << h) - 1);
}

/* Field by field, stack bits above each height ignored: "the same position
 * exactly", as make/unmake must leave it. */
static bool same_exactly(const TakPosition *a, const TakPosition *b) {
    if (memcmp(&a->rules, &b->rules, sizeof a->rules) != 0) return false;
    if (a->owner[0] != b->owner[0] || a->owner[1] != b->owner[1]) return false;
    if (a->walls != b->walls || a->caps != b->caps) return false;
    if (memcmp(a->height, b->height, sizeof a->height) != 0) return false;
    for (int sq = 0; sq < TAK_MAX_SQUARES; sq++)
        if ((a->stack[sq] & height_mask(a->height[sq])) !=
            (b->stack[sq] & height_mask(b->height[sq])))
            return false;
    if (memcmp(a->stones, b->stones, sizeof a->stones) != 0) return false;
    if (memcmp(a->capstones, b->capstones, sizeof a->capstones) != 0) return false;
    return a->side == b->side && a->ply == b->ply && a->hash == b->hash &&
           a->result.end == b->result.end && a->result.winner == b->result.winner;
}

static void check_structure(Checker *ck, const TakPosition *pos) {
    int size = pos->rules.size;
    TakBitboard board = all_squares(size);
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    CHECK((pos->owner[0] & pos->owner[1]) == 0, "a square owned by both");
    CHECK((occupied & ~board) == 0, "a piece off the board");
    CHECK((pos->walls & pos->caps) == 0, "a top both wall and capstone");
    CHECK(((pos->walls | pos->caps) & ~occupied) == 0, "a wall or capstone on an empty square");
    int pieces[2] = {0, 0};
    for (int sq = 0; sq < size * size; sq++) {
        int h = pos->height[sq];
        bool here = (occupied >> sq) & 1;
        CHECK(here == (h > 0), "height %d on square %d that is %s", h, sq,
              here ? "owned" : "empty");
        if (h == 0) continue;
        int top = (int)(pos->stack[sq] & 1);
        CHECK((pos->owner[top] >> sq) & 1, "top colour of square %d disagrees with owner", sq);
        for (int level = 0; level < h; level++) pieces[tak_position_piece_color(pos, sq, level)]++;
    }
    for (int c = 0; c < 2; c++) {
        int caps = __builtin_popcountll(pos->caps & pos->owner[c]);
        CHECK(caps + pos->capstones[c] == pos->rules.capstones, "capstones of %d not conserved", c);
        CHECK(pieces[c] + pos->stones[c] + pos->capstones[c] ==
                  pos->rules.stones + pos->rules.capstones,
              "pieces of %d not conserved: %d on the board, %d + %d in reserve", c, pieces[c],
              pos->stones[c], pos->capstones[c]);
    }
    CHECK(pos->side == (pos->ply & 1), "side %d at ply %u", pos->side, pos->ply);
    CHECK(pos->hash == tak_position_compute_hash(pos),
          "incremental hash %#" PRIx64 " is not %#" PRIx64, pos->hash,
          tak_position_compute_hash(pos));
}

/* The result, from the rules of rules.md, against the position's own. */
static void check_result(Checker *ck, const TakPosition *pos) {
    TakResult r = tak_position_result(pos);
    bool road[2] = {tak_position_has_road(pos, TAK_WHITE), tak_position_has_road(pos, TAK_BLACK)};
    for (int c = 0; c < 2; c++) {
        TakBitboard sq = tak_position_road_squares(pos, (TakColor)c);
        CHECK((sq != 0) == road[c], "road squares %#" PRIx64 " for colour %d, road %d", sq, c,
              road[c]);
        CHECK((sq & ~(pos->owner[c] & ~pos->walls)) == 0,
              "road squares %#" PRIx64 " not all colour %d's flats or capstones", sq, c);
    }
    int size = pos->rules.size;
    bool full = (pos->owner[0] | pos->owner[1]) == all_squares(size);
    bool empty_reserve =
        pos->stones[0] + pos->capstones[0] == 0 || pos->stones[1] + pos->capstones[1] == 0;
    int flats[2];
    tak_position_flat_counts(pos, flats);
    for (int c = 0; c < 2; c++)
        CHECK(flats[c] == __builtin_popcountll(pos->owner[c] & ~pos->walls & ~pos->caps),
              "tak_position_flat_counts %d for colour %d", flats[c], c);
    if (road[0] || road[1]) {
        int mover = pos->ply > 0 ? !pos->side : -1;
        int want = road[0] && road[1] ? mover : road[0] ? TAK_WHITE : TAK_BLACK;
        CHECK(r.end == TAK_END_ROAD && r.winner == want, "roads %d/%d but result {%d, %d}", road[0],
              road[1], r.end, r.winner);
        return;
    }
    if (full || empty_reserve) {
        int white = 2 * flats[0], black = 2 * flats[1] + pos->rules.half_komi;
        int want = white > black ? TAK_WHITE : black > white ? TAK_BLACK : -1;
        CHECK((r.end == TAK_END_BOARD_FULL && full) || (r.end == TAK_END_RESERVES && empty_reserve),
              "board full %d, reserve empty %d, but end %d", full, empty_reserve, r.end);
        CHECK(r.winner == want, "flats %d:%d komi %d/2, but winner %d", flats[0], flats[1],
              pos->rules.half_komi, r.winner);
        return;
    }
    CHECK(r.end == TAK_END_NONE && r.winner == -1, "nothing ends the game, but result {%d, %d}",
          r.end, r.winner);
}

/* ---- moves ------------------------------------------------------------ */

static int compare_moves(const void *a, const void *b) {
    TakMove x = *(const TakMove *)a, y = *(const TakMove *)b;
    return (x > y) - (x < y);
}

static bool in_sorted(const Checker *ck, int n, TakMove m) {
    return bsearch(&m, ck->sorted, (size_t)n, sizeof m, compare_moves) != NULL;
}

/* A move code from the space of well-formed codes (a square of the 8x8
 * board, a kind, a direction and a drop code), legal or not. */
static TakMove random_code(Rng *rng) {
    int sq = rng_below(rng, 64);
    int kind = rng_below(rng, 4);
    if (kind != TAK_SPREAD) return tak_move_place(sq, (TakMoveKind)kind);
    return tak_move_spread(sq, (TakDirection)rng_below(rng, 4), (unsigned)rng_below(rng, 256));
}

static void check_move_shape(Checker *ck, const TakPosition *pos, TakMove m) {
    int size = pos->rules.size, sq = tak_move_square(m);
    CHECK(sq < size * size, "move %#x off the board", (unsigned)m);
    if (!tak_move_is_spread(m)) {
        CHECK(pos->height[sq] == 0, "placement %#x on an occupied square", (unsigned)m);
        if (tak_position_is_opening(pos))
            CHECK(tak_move_kind(m) == TAK_PLACE_FLAT, "opening placement %#x not a flat",
                  (unsigned)m);
        if (tak_move_kind(m) == TAK_PLACE_CAP)
            CHECK(pos->capstones[pos->side] > 0, "capstone placed from an empty reserve");
        else
            CHECK(pos->stones[tak_position_is_opening(pos) ? !pos->side : pos->side] > 0,
                  "stone placed from an empty reserve");
        return;
    }
    CHECK(!tak_position_is_opening(pos), "move %#x in the opening", (unsigned)m);
    CHECK((pos->owner[pos->side] >> sq) & 1, "move %#x of a stack not controlled", (unsigned)m);
    if (tak_move_is_pass(m)) {
        CHECK(!pos->rules.no_pass, "a pass under the no-pass rule");
        return;
    }
    int count = tak_move_count(m);
    CHECK(count <= size && count <= pos->height[sq], "move %#x lifts %d of %d", (unsigned)m, count,
          pos->height[sq]);
}

static void check_moves(Checker *ck, const TakPosition *pos, int *count) {
    TakMoveList *list = &ck->list;
    int n = tak_moves_generate(pos, list);
    *count = n;
    CHECK(n >= 0 && n <= TAK_MAX_MOVES, "%d moves", n);
    CHECK(tak_moves_count(pos) == (uint64_t)n, "tak_moves_count %" PRIu64 ", generated %d",
          tak_moves_count(pos), n);
    CHECK(tak_position_is_over(pos) == (n == 0), "game over %d with %d moves",
          tak_position_is_over(pos), n);
    memcpy(ck->sorted, list->moves, (size_t)n * sizeof(TakMove));
    qsort(ck->sorted, (size_t)n, sizeof(TakMove), compare_moves);
    int passes = 0;
    for (int i = 0; i < n; i++) {
        CHECK(i == 0 || ck->sorted[i] != ck->sorted[i - 1], "move %#x generated twice",
              (unsigned)ck->sorted[i]);
        CHECK(tak_move_is_legal(pos, list->moves[i]), "generated move %#x is not legal",
              (unsigned)list->moves[i]);
        check_move_shape(ck, pos, list->moves[i]);
        passes += tak_move_is_pass(list->moves[i]);
    }
    if (!pos->rules.no_pass && n > 0 && !tak_position_is_opening(pos))
        CHECK(passes == __builtin_popcountll(pos->owner[pos->side]), "%d passes for %d stacks",
              passes, __builtin_popcountll(pos->owner[pos->side]));
    CHECK(!tak_move_is_legal(pos, TAK_MOVE_NONE), "TAK_MOVE_NONE is legal");
    for (int k = 0; k < RANDOM_CODES_PER_PLY; k++) {
        TakMove m = random_code(&ck->rng);
        if (tak_move_is_pass(m) && !pos->rules.no_pass)
            continue; /* which direction a pass carries is free */
        bool generated = in_sorted(ck, n, m);
        CHECK(tak_move_is_legal(pos, m) == generated, "code %#x: legal %d, generated %d",
              (unsigned)m, tak_move_is_legal(pos, m), generated);
        if (!generated && k == 0) {
            TakPosition copy = *pos;
            TakError err;
            CHECK(!tak_position_apply(&copy, m, &err), "tak_position_apply took %#x", (unsigned)m);
            CHECK(memcmp(&copy, pos, sizeof copy) == 0, "a refused move changed the position");
        }
        ck->codes++;
    }
}

/* Makes and unmakes (some of) the moves; each child is checked too. */
static void check_children(Checker *ck, const TakPosition *pos, int n) {
    int step = n <= CHILDREN_PER_PLY ? 1 : n / CHILDREN_PER_PLY;
    for (int i = rng_below(&ck->rng, step); i < n; i += step) {
        TakMove m = ck->list.moves[i];
        TakPosition child = *pos;
        TakUndo undo;
        bool flattens = tak_move_flattens(pos, m);
        tak_position_make(&child, m, &undo);
        CHECK(undo.flattened == flattens, "move %#x: undo.flattened %d, tak_move_flattens %d",
              (unsigned)m, undo.flattened, flattens);
        CHECK(child.ply == pos->ply + 1 && child.side != pos->side,
              "move %#x did not pass the turn", (unsigned)m);
        if (tak_move_is_pass(m)) {
            CHECK(memcmp(child.height, pos->height, sizeof pos->height) == 0 &&
                      child.owner[0] == pos->owner[0] && child.owner[1] == pos->owner[1] &&
                      child.walls == pos->walls && child.caps == pos->caps,
                  "pass %#x changed the board", (unsigned)m);
        }
        check_structure(ck, &child);
        check_result(ck, &child);
        tak_position_unmake(&child, m, &undo);
        CHECK(tak_position_equal(&child, pos), "unmake of %#x: not tak_position_equal",
              (unsigned)m);
        CHECK(child.hash == pos->hash &&
                  memcmp(&child.result, &pos->result, sizeof child.result) == 0,
              "unmake of %#x: hash or result not restored", (unsigned)m);
        CHECK(same_exactly(&child, pos), "unmake of %#x: some field not restored", (unsigned)m);
        ck->children++;
    }
}

static void check_tps_round_trip(Checker *ck, const TakPosition *pos) {
    char tps[TAK_TPS_MAX], again[TAK_TPS_MAX];
    int len = tak_tps_write(pos, tps, sizeof tps);
    CHECK(len > 0 && (size_t)len == strlen(tps), "tak_tps_write returned %d", len);
    TakPosition back;
    TakError err;
    CHECK(tak_tps_read(tps, &pos->rules, &back, &err), "TPS %s not read back: %s", tps,
          err.message);
    CHECK(tak_position_equal(&back, pos), "TPS %s reads back as another position", tps);
    CHECK(back.hash == pos->hash, "TPS %s reads back with another hash", tps);
    CHECK(back.result.end == pos->result.end && back.result.winner == pos->result.winner,
          "TPS %s reads back with result {%d, %d}, not {%d, %d}", tps, back.result.end,
          back.result.winner, pos->result.end, pos->result.winner);
    tak_tps_write(&back, again, sizeof again);
    CHECK(strcmp(tps, again) == 0, "TPS %s written again as %s", tps, again);
}

static void check_position(Checker *ck, const TakPosition *pos, int *n) {
    check_structure(ck, pos);
    check_result(ck, pos);
    check_moves(ck, pos, n);
    check_children(ck, pos, *n);
    check_tps_round_trip(ck, pos);
    ck->plies++;
}

/* ---- the games -------------------------------------------------------- */

static TakRules random_rules(Rng *rng, int game) {
    TakRules r = support_rules(3 + game % 6);
    int kind = rng_below(rng, 8);
    if (kind < 3) r.half_komi = rng_below(rng, 2 * TAK_MAX_HALF_KOMI + 1) - TAK_MAX_HALF_KOMI;
    if (kind >= 5) { /* small reserves: games that end on them */
        r.stones = 1 + rng_below(rng, 2 * r.size);
        r.capstones = rng_below(rng, 3);
    }
    r.no_pass = rng_below(rng, 4) != 0;
    return r;
}

/* How a game picks its moves: uniformly, or mostly flats (roads come
 * sooner), or mostly stack moves (tall stacks, flattenings, uncovering). */
enum { PICK_ANY, PICK_FLATS, PICK_SPREADS };

static TakMove pick_move(Checker *ck, int n, int policy) {
    const TakMove *moves = ck->list.moves;
    if (policy != PICK_ANY && rng_below(&ck->rng, 10) < 7) {
        int start = rng_below(&ck->rng, n);
        for (int k = 0; k < n; k++) {
            TakMove m = moves[(start + k) % n];
            if (policy == PICK_FLATS ? tak_move_kind(m) == TAK_PLACE_FLAT : tak_move_is_spread(m))
                return m;
        }
    }
    return moves[rng_below(&ck->rng, n)];
}

static void play_random_game(Checker *ck, int game) {
    TakRules rules = random_rules(&ck->rng, game);
    int policy = rng_below(&ck->rng, 3);
    TakPosition position;
    TakPosition *pos = &position; /* CHECK names it */
    TakError err;
    assert_true(tak_position_init(pos, &rules, &err));
    TakGame history;
    assert_true(tak_game_init(&history, pos, &err));
    for (int ply = 0;; ply++) {
        snprintf(ck->where_buf, sizeof ck->where_buf,
                 "game %d (size %d, %d+%d, komi %d/2, no_pass %d), ply %d", game, rules.size,
                 rules.stones, rules.capstones, rules.half_komi, rules.no_pass, ply);
        ck->where = ck->where_buf;
        int n;
        check_position(ck, pos, &n);
        if (n == 0 || ply == MAX_PLIES) break;
        TakMove m = pick_move(ck, n, policy);
        ck->flattens += tak_move_flattens(pos, m);
        ck->passes += tak_move_is_pass(m);
        CHECK(tak_position_apply(pos, m, &err), "tak_position_apply(%#x): %s", (unsigned)m,
              err.message);
        CHECK(tak_game_play(&history, m, &err), "tak_game_play(%#x): %s", (unsigned)m, err.message);
        CHECK(tak_position_equal(&history.current, pos) && history.current.hash == pos->hash,
              "TakGame's position differs from the position's");
    }
    if (tak_position_is_over(pos))
        ck->ends[pos->result.end]++;
    else
        ck->unfinished++;
    /* The game's history: a hash after every move, and undo to the start. */
    TakResult result = tak_game_result(&history);
    CHECK(history.hashes[history.count] == pos->hash, "hashes[count] is not the current hash");
    CHECK(result.end == pos->result.end && result.winner == pos->result.winner,
          "the game's result {%d, %d} differs from the board's", result.end, result.winner);
    while (history.count > 0) CHECK(tak_game_undo(&history), "tak_game_undo failed");
    CHECK(!tak_game_undo(&history), "tak_game_undo with nothing to take back");
    CHECK(same_exactly(&history.current, &history.start),
          "undoing everything does not give the start");
    tak_game_free(&history);
}

static void test_random_games(void **state) {
    (void)state;
    Checker *ck = calloc(1, sizeof *ck);
    assert_non_null(ck);
    const char *seed = getenv("TAK_PROPERTY_SEED");
    ck->rng.state = seed && *seed ? strtoull(seed, NULL, 0) : 0x7A4B2C1D5E6F8091ull;
    const char *games_env = getenv("TAK_PROPERTY_GAMES");
    int games = games_env && *games_env ? atoi(games_env) : DEFAULT_GAMES;
    for (int g = 0; g < games; g++) play_random_game(ck, g);
    print_message("%d games, %ld positions, %ld children made and unmade, %ld move codes tried\n",
                  games, ck->plies, ck->children, ck->codes);
    print_message(
        "endings: road %ld, board full %ld, reserves %ld, unfinished %ld; %ld flattenings, "
        "%ld passes played\n",
        ck->ends[TAK_END_ROAD], ck->ends[TAK_END_BOARD_FULL], ck->ends[TAK_END_RESERVES],
        ck->unfinished, ck->flattens, ck->passes);
    assert_true(games == 0 || ck->plies > games);
    free(ck);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
