/*
 * clock.c: game clocks, kept by the server (the page only shows them). A
 * timed game gives each player the base time, the increment after each of
 * their moves and, once, extra time after their move number extra_move. No
 * clock runs before each side has made its first move (so a friend can take
 * the seat). From then on each move is stamped when it arrives: its mover is
 * charged the time since their turn began, and a move that comes after the
 * mover's time ran out (by so much as a millisecond; exactly zero left is in
 * time) loses on time instead of being played. The server also ends a game
 * whose mover's time runs out while nothing arrives, on its tick.
 *
 * What is stored: the mover's time left after each ply, and when the
 * current turn began (StoredGame), so the clocks are right after a
 * takeback, a reload and a restart; the time every server was down is given
 * back (store heartbeat), so nobody's clock runs while no server does.
 *
 * After such a restart the clock of the side to move is held, not charged,
 * until both players' pages are back (each seat followed here; the engine's
 * is always back) or STORE_CLOCK_HOLD_MS has passed, then runs on from where
 * it stopped. A page needs up to its retry time (4 s at most) to see that the
 * server is back: charging the mover for it charges them for time they could
 * not see the board. Both, not the mover alone: a move made while the other
 * page is still away would start the other side's clock while it is blind;
 * a move made while held is charged what its mover used before the restart
 * and holds the next turn's clock the same way. The mover back alone thinks
 * free until the other page comes, at most STORE_CLOCK_HOLD_MS after the
 * start; a player who has gone holds the game no longer than that.
 *
 * The hold is the game's, in the store (held_since_ms), set by the restart
 * for every running clock at once: every process of a cluster holds it the
 * same, loading and unloading a game does not hold it again, and the first
 * process to end it does so for all (one conditional write). "Both back"
 * means both seats followed on the process that ends the hold: a process
 * sees only its own pages, and telling the others which seats it follows
 * would be a write per page. Two pages on two processes so wait out the
 * hold's time, which charges nobody and is the longest a hold lasts anyway.
 */
#include <stdio.h>
#include <time.h>

#include "internal.h"

int64_t clock_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool clock_timed(const LiveGame *g) { return g->info.clock.base_ms > 0; }

/* The colour that made ply `i` (0-based) of the game. */
static int ply_color(const LiveGame *g, size_t i) {
    size_t count = g->game.count;
    int side = (int)tak_position_side(&g->game.current);
    int start = (int)((side + count) & 1); /* the side to move before the first ply */
    return (int)((start + i) & 1);
}

/* Each side's time left when the current turn began. */
static void left_at_turn_start(const LiveGame *g, int64_t left[2]) {
    left[0] = left[1] = g->info.clock.base_ms;
    bool seen[2] = {false, false};
    for (size_t i = g->info.move_count; i-- > 0 && !(seen[0] && seen[1]);) {
        int c = ply_color(g, i);
        if (seen[c]) continue;
        seen[c] = true;
        if (g->info.left_ms && g->info.left_ms[i] >= 0) left[c] = g->info.left_ms[i];
    }
}

/* When the current turn's clock counts from at `now`. Held, it does not
 * count from the later of the hold's start and the turn's (a move made while
 * held) until now, or the end of the hold's time: a hold not yet ended at
 * its time counts as ended then. */
static int64_t counted_from(const LiveGame *g, int64_t now) {
    int64_t start = g->info.turn_start_ms, held = g->info.held_since_ms;
    if (held == 0) return start;
    int64_t from = held > start ? held : start, last = held + STORE_CLOCK_HOLD_MS;
    int64_t to = now < last ? now : last;
    return to > from ? start + (to - from) : start;
}

/* Whether the running clock is held after a restart. */
static bool is_held(const LiveGame *g) {
    return g->info.held_since_ms != 0 && clock_running(g) >= 0;
}

int clock_running(const LiveGame *g) {
    if (!clock_timed(g) || g->info.turn_start_ms <= 0) return -1;
    if (tak_game_result(&g->game).end != TAK_END_NONE) return -1;
    return (int)tak_position_side(&g->game.current);
}

void clock_left(const LiveGame *g, int64_t now, int64_t left[2]) {
    left_at_turn_start(g, left);
    int mover = clock_running(g);
    if (mover >= 0) left[mover] -= now - counted_from(g, now);
}

/* How many moves the colour of ply `i` has made up to and including it
 * (the sides alternate). */
static int own_moves(size_t i) { return (int)(i / 2) + 1; }

bool clock_charge(const LiveGame *g, int64_t now, int64_t *left_after, int64_t *turn_start,
                  int64_t *flagged_at) {
    *left_after = -1;
    *turn_start = 0;
    *flagged_at = 0;
    if (!clock_timed(g)) return true;
    size_t ply = g->game.count; /* the ply about to be played */
    int mover = (int)tak_position_side(&g->game.current);
    int64_t left[2];
    left_at_turn_start(g, left);
    int64_t mine = left[mover];
    if (g->info.turn_start_ms > 0) {
        int64_t from = counted_from(g, now);
        mine -= now - from;
        if (mine < 0) {
            *flagged_at = from + left[mover];
            return false;
        }
        mine += g->info.clock.increment_ms;
    }
    if (g->info.clock.extra_move > 0 && own_moves(ply) == g->info.clock.extra_move)
        mine += g->info.clock.extra_ms;
    *left_after = mine;
    /* The clocks start once both sides have moved. */
    *turn_start = ply + 1 >= 2 ? now : 0;
    return true;
}

void clock_check(Server *s, LiveGame *g, int64_t now) {
    int mover = clock_running(g);
    if (mover < 0) return;
    int64_t left[2];
    clock_left(g, now, left);
    if (left[mover] >= 0) return;
    TakError err;
    if (!games_end(s, g, TAK_END_TIME, !mover, &err) && !s->config->quiet)
        fprintf(stderr, "tak serve: time out in %s: %s\n", g->info.id, err.message);
}

/* Whether both seats are back: each the engine's or followed here by its player. */
static bool both_back(const LiveGame *g) {
    bool back[2] = {g->info.engine_color == 0, g->info.engine_color == 1};
    for (const Session *ss = g->subs; ss; ss = ss->next)
        if (ss->seat == 0 || ss->seat == 1) back[ss->seat] = true;
    return back[0] && back[1];
}

void clock_release(Server *s, LiveGame *g, int64_t now) {
    if (!is_held(g)) return;
    if (now < g->info.held_since_ms + STORE_CLOCK_HOLD_MS && !both_back(g)) return;
    /* A game loaded after the hold's time was up runs from then, not from now. */
    int64_t start = counted_from(g, now);
    TakError err;
    /* Still held when the store refuses it: the next tick tries again. */
    if (!games_release_hold(s, g, start, &err) && !s->config->quiet)
        fprintf(stderr, "tak serve: restarting the clock of %s: %s\n", g->info.id, err.message);
}

void clock_tick(Server *s) {
    int64_t now = clock_now_ms();
    for (size_t b = 0; b < s->bucket_count; b++)
        for (LiveGame *g = s->buckets[b], *next; g; g = next) {
            next = g->hnext; /* a game that ends may be unloaded */
            if (!clock_timed(g)) continue;
            clock_release(s, g, now);
            clock_check(s, g, now);
        }
}

json_t *clock_json(const LiveGame *g) {
    if (!clock_timed(g)) return json_null();
    const StoredClock *c = &g->info.clock;
    int64_t left[2];
    left_at_turn_start(g, left);
    TakResult r = tak_game_result(&g->game);
    if (r.end == TAK_END_TIME && r.winner >= 0) left[!r.winner] = 0; /* the flag fell */
    int mover = clock_running(g);
    bool held = is_held(g);
    if (held) { /* the mover's time where it stopped, no clock running */
        int64_t start = g->info.turn_start_ms, from = g->info.held_since_ms;
        if (from > start) left[mover] -= from - start;
        mover = -1;
    }
    return json_pack("{s:I, s:I, s:I, s:i, s:[I,I], s:o, s:I, s:b}", "base_ms",
                     (json_int_t)c->base_ms, "increment_ms", (json_int_t)c->increment_ms,
                     "extra_ms", (json_int_t)c->extra_ms, "extra_move", c->extra_move, "left_ms",
                     (json_int_t)left[0], (json_int_t)left[1], "running",
                     mover < 0 ? json_null() : json_string(mover ? "black" : "white"),
                     "turn_start_ms", (json_int_t)g->info.turn_start_ms, "held", held);
}

void clock_tag(const StoredClock *c, char *out, size_t cap) {
    long long base = c->base_ms / 1000, inc_ms = c->increment_ms;
    int n = snprintf(out, cap, "%lld:%02lld +%lld", base / 60, base % 60, inc_ms / 1000);
    if (n > 0 && (size_t)n < cap && inc_ms % 1000)
        snprintf(out + n, cap - (size_t)n, ".%03lld", inc_ms % 1000);
}
