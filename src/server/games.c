/*
 * games.c: the games in memory. A game is loaded from the store when a
 * connection asks for it and dropped when nobody follows it and no engine
 * searches for it; every change goes to the store first, then to memory and
 * to the followers. The state message is built once per change and shared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "internal.h"

static const char code_alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";

void games_random_code(char *out, size_t len) {
    unsigned char raw[64];
    size_t got = 0;
    while (got < len) {
        ssize_t n = getrandom(raw + got, len - got, 0);
        if (n > 0) got += (size_t)n;
    }
    for (size_t i = 0; i < len; i++) out[i] = code_alphabet[raw[i] & 31];
    out[len] = '\0';
}

int games_random_color(void) {
    char c[2];
    games_random_code(c, 1);
    return (c[0] - 'a') & 1;
}

static size_t bucket_of(const Server *s, const char *id) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *p = id; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return (size_t)(h % s->bucket_count);
}

static LiveGame *lookup(Server *s, const char *id) {
    for (LiveGame *g = s->buckets[bucket_of(s, id)]; g; g = g->hnext)
        if (strcmp(g->info.id, id) == 0) return g;
    return NULL;
}

LiveGame *games_loaded(Server *s, const char *id) { return lookup(s, id); }

static void live_free(LiveGame *g) {
    tak_game_free(&g->game);
    stored_game_free(&g->info);
    if (g->state) outbuf_release(g->state);
    chat_free(g->chat);
    free(g);
}

static void add(Server *s, LiveGame *g) {
    size_t b = bucket_of(s, g->info.id);
    g->hnext = s->buckets[b];
    s->buckets[b] = g;
    s->game_count++;
}

/* Builds the live game of a stored one, replaying every move. */
static LiveGame *from_stored(StoredGame *info, TakError *err) {
    LiveGame *g = calloc(1, sizeof *g);
    if (g == NULL) {
        tak_error_set(err, "out of memory");
        return NULL;
    }
    TakPosition start;
    bool ok = info->start_tps[0] ? tak_tps_read(info->start_tps, &info->rules, &start, err)
                                 : tak_position_init(&start, &info->rules, err);
    if (!ok || !tak_game_init(&g->game, &start, err)) {
        free(g);
        return NULL;
    }
    for (size_t i = 0; i < info->move_count; i++) {
        TakMove m;
        if (!tak_move_parse(&g->game.current, info->moves[i], &m, err) ||
            !tak_game_play(&g->game, m, err)) {
            tak_game_free(&g->game);
            free(g);
            return NULL;
        }
    }
    if (info->end != TAK_END_NONE) tak_game_end(&g->game, (TakEnd)info->end, info->winner);
    g->info = *info;
    g->moves_cap = info->move_count;
    memset(info, 0, sizeof *info); /* the moves are the live game's now */
    g->offer[0] = g->offer[1] = -1;
    g->over_told = tak_game_result(&g->game).end != TAK_END_NONE; /* old news */
    return g;
}

static void engine_kick(Server *s, LiveGame *g);

LiveGame *games_find(Server *s, const char *id, TakError *err) {
    LiveGame *g = lookup(s, id);
    if (g) return g;
    StoredGame info;
    bool found = false;
    if (!s->store->ops->load_game(s->store, id, &info, &found, err)) return NULL;
    if (!found) {
        tak_error_set(err, "no game %s", id);
        return NULL;
    }
    g = from_stored(&info, err);
    stored_game_free(&info);
    if (g == NULL) return NULL;
    add(s, g);
    players_game_over(s, g);           /* an end no process recorded (it died first) */
    int64_t now = clock_now_ms();
    clock_release(s, g, now); /* a hold whose time ran out while nobody had it loaded */
    clock_check(s, g, now); /* a time that ran out while nobody had it loaded */
    engine_kick(s, g); /* a game against the engine resumes where it stopped */
    playtak_port_game_listed(s, g, false);
    return g;
}

LiveGame *games_create(Server *s, const StoredGame *info, const TakGame *game, TakError *err) {
    if (!s->store->ops->create_game(s->store, info, err)) return NULL;
    StoredGame copy = *info;
    copy.created_s = clock_now_ms() / 1000; /* as the store stamps it */
    copy.moves = NULL;
    copy.left_ms = NULL;
    copy.import_ptn = NULL;
    if (info->import_ptn && (copy.import_ptn = stored_text_copy(info->import_ptn)) == NULL) {
        tak_error_set(err, "out of memory");
        return NULL;
    }
    if (info->move_count) {
        if (!stored_game_reserve(&copy, info->move_count)) {
            stored_game_free(&copy);
            tak_error_set(err, "out of memory");
            return NULL;
        }
        memcpy(copy.moves, info->moves, info->move_count * sizeof *copy.moves);
        for (size_t i = 0; i < info->move_count; i++)
            copy.left_ms[i] = info->left_ms ? info->left_ms[i] : -1;
    }
    (void)game; /* replaying the stored form checks the import once more */
    LiveGame *g = from_stored(&copy, err);
    stored_game_free(&copy);
    if (g == NULL) return NULL;
    add(s, g);
    players_game_over(s, g); /* an imported game that is over */
    lobby_changed(s);
    playtak_port_game_listed(s, g, false);
    engine_kick(s, g);
    return g;
}

void games_unload_if_idle(Server *s, LiveGame *g) {
    if (g->sub_count > 0 || g->engine_busy) return;
    LiveGame **p = &s->buckets[bucket_of(s, g->info.id)];
    while (*p && *p != g) p = &(*p)->hnext;
    if (*p) *p = g->hnext;
    s->game_count--;
    playtak_port_game_listed(s, g, true);
    live_free(g);
}

void games_free_all(Server *s) {
    for (size_t b = 0; b < s->bucket_count; b++) {
        while (s->buckets[b]) {
            LiveGame *g = s->buckets[b];
            s->buckets[b] = g->hnext;
            live_free(g);
        }
    }
    s->game_count = 0;
}

/* ---- changes ------------------------------------------------------------- */

/* A write the store refused may mean another process changed the game
 * first: take the stored game, so the next try starts from it. */
static void catch_up(Server *s, LiveGame *g) {
    if (s->cluster) games_refresh(s, g->info.id, g->game.count, g->offer, g->thinking_elsewhere);
}

bool games_play(Server *s, LiveGame *g, TakMove move, TakError *err) {
    char text[TAK_MOVE_TEXT_MAX];
    tak_move_write(move, g->info.rules.size, &g->game.current, text);
    int64_t now = clock_now_ms(), left_after, turn_start, flagged_at;
    if (!clock_charge(g, now, &left_after, &turn_start, &flagged_at)) {
        /* Too late: the mover's time ran out before the move came. */
        int mover = (int)tak_position_side(&g->game.current);
        TakError end_err;
        games_end(s, g, TAK_END_TIME, !mover, &end_err);
        return tak_error_set(err, "your time ran out %.1f s before this move came",
                             (double)(now - flagged_at) / 1000);
    }
    if (!tak_game_play(&g->game, move, err)) return false;
    size_t ply = g->game.count - 1;
    if (!s->store->ops->append_move(s->store, g->info.id, ply, text, left_after, turn_start,
                                    err)) {
        tak_game_undo(&g->game);
        catch_up(s, g);
        return false;
    }
    if (g->info.move_count == g->moves_cap) {
        size_t cap = g->moves_cap ? g->moves_cap * 2 : 32;
        if (!stored_game_reserve(&g->info, cap)) abort(); /* memory and store would disagree */
        g->moves_cap = cap;
    }
    g->info.left_ms[g->info.move_count] = left_after;
    memcpy(g->info.moves[g->info.move_count++], text, sizeof text);
    g->info.turn_start_ms = turn_start;
    g->offer[OFFER_DRAW] = g->offer[OFFER_TAKEBACK] = -1;
    s->moves++;
    games_changed(s, g);
    return true;
}

bool games_undo(Server *s, LiveGame *g, size_t count, TakError *err) {
    if (count == 0 || count > g->game.count) return tak_error_set(err, "nothing to take back");
    size_t keep = g->game.count - count;
    /* The side then to move starts its clock again, from its time then. */
    int64_t turn_start = clock_timed(g) && keep >= 2 ? clock_now_ms() : 0;
    if (!s->store->ops->truncate_moves(s->store, g->info.id, g->game.count, keep, turn_start,
                                       err)) {
        catch_up(s, g);
        return false;
    }
    g->info.turn_start_ms = turn_start;
    while (g->game.count > keep) tak_game_undo(&g->game);
    g->info.move_count = keep;
    g->generation++;
    g->offer[OFFER_DRAW] = g->offer[OFFER_TAKEBACK] = -1;
    games_changed(s, g);
    return true;
}

bool games_take_back(Server *s, LiveGame *g, int who, TakError *err) {
    /* who to move: their last move is two plies back, the opponent's reply after it */
    size_t n = (int)tak_position_side(&g->game.current) == who ? 2 : 1;
    if (n > g->game.count) return tak_error_set(err, "there is no move of yours to take back");
    return games_undo(s, g, n, err);
}

bool games_release_hold(Server *s, LiveGame *g, int64_t turn_start, TakError *err) {
    /* Saved, so that no process holds it again nor a restart gives its time again. */
    bool released = false;
    if (!s->store->ops->release_hold(s->store, g->info.id, g->info.held_since_ms,
                                     g->info.turn_start_ms, turn_start, &released, err)) {
        catch_up(s, g);
        return false;
    }
    if (!released) { /* another process ended it first, or a move came: take theirs */
        catch_up(s, g);
        return true;
    }
    g->info.held_since_ms = 0;
    g->info.turn_start_ms = turn_start;
    games_changed(s, g);
    return true;
}

bool games_end(Server *s, LiveGame *g, TakEnd end, int winner, TakError *err) {
    if (tak_position_is_over(&g->game.current) || g->game.ended.end != TAK_END_NONE)
        return tak_error_set(err, "the game is over");
    if (!s->store->ops->set_ending(s->store, g->info.id, (int)end, winner, err)) {
        catch_up(s, g);
        return false;
    }
    tak_game_end(&g->game, end, winner);
    g->info.end = (int)end;
    g->info.winner = winner;
    g->offer[OFFER_DRAW] = g->offer[OFFER_TAKEBACK] = -1;
    games_changed(s, g);
    return true;
}

/* The state to every follower; a PlayTak connection gets what changed as its lines. */
static void broadcast(Server *s, LiveGame *g) {
    playtak_port_game_listed(s, g, false);
    if (g->subs) {
        Outbuf *b = games_state(g);
        for (Session *ss = g->subs; ss; ss = ss->next)
            if (ss->pt)
                playtak_port_game_changed(s, ss, g);
            else
                session_send(ss, b);
        if (b) outbuf_release(b);
    }
}

void games_changed(Server *s, LiveGame *g) {
    if (g->state) outbuf_release(g->state);
    g->state = NULL;
    g->thinking_elsewhere = false; /* a change made here: this process's engine answers it */
    if (!g->over_told && tak_game_result(&g->game).end != TAK_END_NONE) {
        g->over_told = true;
        lobby_game_over(s, g);
    }
    players_game_over(s, g); /* before the announcement, so other processes read the ratings */
    engine_kick(s, g); /* first, so the state says the engine is thinking */
    cluster_announce(s->cluster, g);
    broadcast(s, g);
}

/* ---- other processes sharing the store (cluster.c) -------------------------- */

static bool same_record(const LiveGame *a, const LiveGame *b) {
    return a->info.move_count == b->info.move_count && a->info.end == b->info.end &&
           a->info.winner == b->info.winner &&
           (a->info.move_count == 0 ||
            memcmp(a->info.moves, b->info.moves, a->info.move_count * sizeof *a->info.moves) == 0);
}

void games_refresh(Server *s, const char *id, size_t plies, const int offer[2], bool thinking) {
    LiveGame *g = lookup(s, id);
    if (g == NULL) return; /* not followed here: it is loaded fresh when asked for */
    StoredGame info;
    bool found = false;
    TakError err;
    LiveGame *fresh = NULL;
    if (s->store->ops->load_game(s->store, id, &info, &found, &err) && found) {
        fresh = from_stored(&info, &err);
        stored_game_free(&info);
    } else if (!found) {
        tak_error_set(&err, "it is gone from the store");
    }
    if (fresh == NULL) {
        if (!s->config->quiet) fprintf(stderr, "tak serve: refreshing %s: %s\n", id, err.message);
        return;
    }
    /* The stored record replaces ours; followers and this process's engine
     * search stay (a search of a changed position is dropped when done). */
    if (!same_record(g, fresh)) g->generation++;
    tak_game_free(&g->game);
    stored_game_free(&g->info);
    g->game = fresh->game;
    g->info = fresh->info;
    g->moves_cap = fresh->moves_cap;
    free(fresh);
    /* Offers and a search belong to the plies they were announced at. */
    bool current = plies == g->game.count;
    g->offer[OFFER_DRAW] = current ? offer[OFFER_DRAW] : -1;
    g->offer[OFFER_TAKEBACK] = current ? offer[OFFER_TAKEBACK] : -1;
    g->thinking_elsewhere = current && thinking;
    if (g->state) outbuf_release(g->state);
    g->state = NULL;
    broadcast(s, g);
}

void games_refresh_all(Server *s) {
    for (size_t b = 0; b < s->bucket_count; b++)
        for (LiveGame *g = s->buckets[b]; g; g = g->hnext)
            games_refresh(s, g->info.id, g->game.count, g->offer, g->thinking_elsewhere);
}

/* ---- the engine ------------------------------------------------------------ */

static bool is_over(const LiveGame *g) {
    return tak_game_result(&g->game).end != TAK_END_NONE;
}

static void engine_kick(Server *s, LiveGame *g) {
    if (g->info.engine_color < 0 || g->engine_busy || is_over(g)) return;
    if (g->thinking_elsewhere) return; /* another process searches this very position */
    if ((int)tak_position_side(&g->game.current) != g->info.engine_color) return;
    EngineJob *job = calloc(1, sizeof *job);
    if (job == NULL) return;
    memcpy(job->game_id, g->info.id, sizeof job->game_id);
    job->generation = g->generation;
    job->ply = g->game.count;
    job->pos = g->game.current;
    job->level = g->info.engine_level;
    if (clock_timed(g)) {
        int64_t left[2];
        clock_left(g, clock_now_ms(), left);
        job->time_left_ms = left[g->info.engine_color] > 1 ? left[g->info.engine_color] : 1;
        job->increment_ms = g->info.clock.increment_ms;
    }
    job->history_len = g->game.count;
    if (job->history_len) {
        job->history = malloc(job->history_len * sizeof *job->history);
        if (job->history == NULL) {
            free(job);
            return;
        }
        memcpy(job->history, g->game.hashes, job->history_len * sizeof *job->history);
    }
    g->engine_busy = true;
    g->busy_generation = g->generation;
    engine_pool_submit(&s->pool, job);
}

void games_engine_done(Server *s, EngineJob *job) {
    LiveGame *g = lookup(s, job->game_id);
    if (g == NULL) return;
    g->engine_busy = false;
    bool current = job->generation == g->generation && job->ply == g->game.count && !is_over(g);
    if (current && job->best != TAK_MOVE_NONE) {
        TakError err;
        if (!games_play(s, g, job->best, &err) && !s->config->quiet)
            fprintf(stderr, "tak serve: engine move in %s: %s\n", g->info.id, err.message);
    } else {
        engine_kick(s, g); /* the position changed under the search: search again */
    }
    games_unload_if_idle(s, g);
}

/* ---- new games and their seats ------------------------------------------------- */

bool games_import_ptn(const TakPtn *ptn, const char *text, StoredGame *info, TakError *err) {
    info->rules = ptn->rules;
    /* Kept, so its export gives back its tags, comments and marks. */
    info->import_ptn = stored_text_copy(text);
    if (info->import_ptn == NULL) return tak_error_set(err, "out of memory");
    if (tak_ptn_tag(ptn, "TPS")) tak_tps_write(&ptn->game.start, info->start_tps, sizeof info->start_tps);
    info->move_count = ptn->game.count;
    info->moves = calloc(info->move_count ? info->move_count : 1, sizeof *info->moves);
    if (info->moves == NULL) return tak_error_set(err, "out of memory");
    TakPosition pos = ptn->game.start;
    for (size_t i = 0; i < ptn->game.count; i++) {
        TakUndo undo;
        tak_move_write(ptn->game.moves[i], info->rules.size, &pos, info->moves[i]);
        tak_position_make(&pos, ptn->game.moves[i], &undo);
    }
    info->winner = -1;
    if (ptn->game.ended.end != TAK_END_NONE) {
        info->end = (int)ptn->game.ended.end;
        info->winner = ptn->game.ended.winner;
    }
    return true;
}

bool games_take_seat(Server *s, LiveGame *g, int seat, const SeatPlayer *p, TakError *err) {
    char secret[STORE_SECRET_LEN + 1];
    games_random_code(secret, STORE_SECRET_LEN);
    if (!s->store->ops->take_seat(s->store, g->info.id, seat, secret, p->name, p->id, p->rating,
                                  err))
        return false;
    memcpy(g->info.secret[seat], secret, sizeof secret);
    players_seat(&g->info, seat, p);
    g->info.invite[0] = '\0';
    return true;
}
