/*
 * playtak_bot.c: one bot on a PlayTak server. The protocol's lines are read
 * and followed by the library (playtak.h); this file is the rest: the
 * socket, the search in its own thread (so pings, takebacks and draw offers
 * are answered while it thinks), the seek and accept rules, the undo and
 * draw policies, chat, PTN logs, and reconnection, after which the server
 * replays the game in progress and the bot plays on.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"
#include "playtak_bot.h"
#include "tak/ptn.h"
#include "tak/version.h"

/* The protocol's timing, in seconds. The ping interval is the config's
 * (PT_PING_EVERY_S unless a test shortens it); the silences allowed are counted
 * in it: the server answers every ping, and welcomes a client at once. */
enum {
    CONNECT_TIMEOUT_S = 10,
    BACKOFF_MAX_S = 30,    /* reconnection attempts back off 1, 2, 4 ... 30 s */
    ACCEPT_WAIT_S = 10,    /* an Accept unanswered this long is given up */
    SILENT_PINGS = 2,      /* logged in, nothing heard for 2 pings: the connection is dead */
    WELCOME_PINGS = 1,     /* connected, no "Welcome NAME!" within 1 ping interval: give up */
    EVAL_EVERY_S = 5,      /* at most one answer to 'eval' this often, whoever asks */
};
/* Seconds between a game's end and the next seek or accept. tak-server
 * (250d062) clears both players' game from the thread of the move that ended
 * it, after telling them: a new game started within those milliseconds is
 * cleared too, and every move in it answered NOK (seen at once against the
 * real server, bench/PLAYTAK.md). */
#define NEXT_GAME_DELAY_S 1.0
/* A draw is taken under the "losing" policy when our last search scored
 * the game this much or more against us (hundredths of a flat). */
#define DRAW_LOSING_SCORE 100

static void say(const PtBot *bot, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const PtBot *bot, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tak playtak[%d]: ", bot->id);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---- lifecycle ---------------------------------------------------------- */

static void random_token(char token[21]) {
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    FILE *f = fopen("/dev/urandom", "rb");
    unsigned char bytes[20];
    bool got = f && fread(bytes, 1, sizeof bytes, f) == sizeof bytes;
    if (f) fclose(f);
    for (int i = 0; i < 20; i++) {
        if (!got) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            bytes[i] = (unsigned char)(seed >> 56);
        }
        token[i] = (char)('a' + bytes[i] % 26);
    }
    token[20] = '\0';
}

bool pt_bot_init(PtBot *bot, const PtConfig *cfg, int id) {
    memset(bot, 0, sizeof *bot);
    bot->cfg = cfg;
    bot->id = id;
    bot->fd = -1;
    bot->state = PT_OFFLINE;
    tak_pt_session_init(&bot->session);
    random_token(bot->token);
    bot->last_eval = -EVAL_EVERY_S;
    if (pipe(bot->wake) != 0) return false;
    fcntl(bot->wake[0], F_SETFL, O_NONBLOCK);
    bot->engine = tak_engine_new(cfg->hash_mb, cfg->threads);
    if (!bot->engine) return false;
    tak_engine_set_level(bot->engine, cfg->level);
    tak_engine_set_seed(bot->engine, (uint64_t)time(NULL) * 31 + (uint64_t)id);
    return true;
}

static void stop_search(PtBot *bot) {
    if (!bot->searching) return;
    tak_engine_stop(bot->engine);
    pthread_join(bot->thread, NULL);
    char drain[16];
    while (read(bot->wake[0], drain, sizeof drain) > 0) {
    }
    free(bot->search_history);
    bot->search_history = NULL;
    bot->searching = false;
}

static void disconnect(PtBot *bot) {
    if (bot->fd >= 0) close(bot->fd);
    bot->fd = -1;
    bot->addr_next = NULL;
    bot->in_len = 0;
    bot->discarding = false;
}

static void lookup_abandon(struct PtLookup *l);

void pt_bot_free(PtBot *bot) {
    stop_search(bot);
    disconnect(bot);
    if (bot->lookup) lookup_abandon(bot->lookup);
    bot->lookup = NULL;
    if (bot->addrs) freeaddrinfo(bot->addrs);
    bot->addrs = NULL;
    tak_pt_session_free(&bot->session);
    if (bot->engine) tak_engine_free(bot->engine);
    bot->engine = NULL;
    if (bot->wake[0] > 0) close(bot->wake[0]);
    if (bot->wake[1] > 0) close(bot->wake[1]);
    bot->wake[0] = bot->wake[1] = -1;
}

int pt_bot_poll_fds(const PtBot *bot, int fds[2]) {
    int n = 0;
    if (bot->fd >= 0) fds[n++] = bot->fd;
    if (bot->searching) fds[n++] = bot->wake[0];
    return n;
}

/* ---- the connection ----------------------------------------------------- */

static void lost(PtBot *bot, double now, const char *why);

/* Writes one line whole; false when it could not (the connection is then
 * broken: half a line may have gone). */
static bool send_raw(PtBot *bot, const char *line) {
    if (bot->fd < 0) return false;
    if (bot->cfg->verbose) {
        /* The password never reaches a log: a user's Login line is masked
         * by who sends it, not by what the name looks like. */
        if (bot->cfg->user && strncmp(line, "Login ", 6) == 0)
            say(bot, "> Login %s ********", bot->cfg->user);
        else
            say(bot, "> %s", line);
    }
    if (strncmp(line, "Login ", 6) != 0 && strcmp(line, "PING") != 0)
        snprintf(bot->last_sent, sizeof bot->last_sent, "%s", line);
    char buf[TAK_PT_WRITE_MAX + 2];
    int n = snprintf(buf, sizeof buf, "%s\n", line);
    if (n < 0 || (size_t)n >= sizeof buf) {
        say(bot, "a line too long to send: dropped");
        return true; /* the connection is as it was */
    }
    size_t done = 0;
    while (done < (size_t)n) {
        ssize_t w = send(bot->fd, buf + done, (size_t)n - done, MSG_NOSIGNAL);
        if (w > 0) {
            done += (size_t)w;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            struct pollfd p = {.fd = bot->fd, .events = POLLOUT};
            if (poll(&p, 1, 5000) <= 0) return false;
        } else {
            return false;
        }
    }
    return true;
}

/* Sends a line; a line that did not go whole (an error, or the socket full
 * for 5 s) loses the connection, since the server may now read half a line
 * glued to the next. Callers need not check: the bot is offline after. */
static void send_line(PtBot *bot, const char *line) {
    if (bot->fd >= 0 && !send_raw(bot, line)) lost(bot, cli_seconds(), "cannot send to the server");
}

static void lost(PtBot *bot, double now, const char *why) {
    stop_search(bot);
    disconnect(bot);
    bot->seek_posted = bot->accept_sent = false;
    if (!bot->cfg->reconnect || bot->failed) {
        say(bot, "%s; not reconnecting", why);
        bot->failed = true;
        bot->state = PT_DONE;
        return;
    }
    bot->backoff_s = bot->backoff_s ? bot->backoff_s * 2 : 1;
    if (bot->backoff_s > BACKOFF_MAX_S) bot->backoff_s = BACKOFF_MAX_S;
    say(bot, "%s; reconnecting in %d s", why, bot->backoff_s);
    bot->state = PT_OFFLINE;
    bot->next_connect = now + bot->backoff_s;
}

/* The connection is made without blocking the loop the bots share (a
 * server that does not answer would hold every bot for CONNECT_TIMEOUT_S):
 * connect_start opens a socket to the first address, connect_check, at each
 * step, sees whether it connected, and tries the next address when not.
 * The name was resolved before the loop began (pt_resolve); when every
 * address has failed, the bot looks it up again (the server may have moved,
 * or the first lookup may have failed for the time being) on a thread, as
 * pt_resolve does, and collects the answer at a later step: a lookup, which
 * may wait seconds on a slow resolver, is never waited for inside the loop. */

/* A lookup on a thread of its own. Whichever of the thread and its waiter
 * lets go last frees it: the waiter when the answer came in time, else the
 * thread, once getaddrinfo returns. */
struct PtLookup {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    bool done, abandoned;
    char host[256], port[16];
    int rc;
    struct addrinfo *addrs;
};
typedef struct PtLookup Lookup;

static void lookup_free(Lookup *l) {
    if (l->rc == 0 && l->addrs) freeaddrinfo(l->addrs);
    pthread_mutex_destroy(&l->lock);
    pthread_cond_destroy(&l->done_cond);
    free(l);
}

static void *lookup_run(void *arg) {
    Lookup *l = arg;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *addrs = NULL;
    int rc = getaddrinfo(l->host, l->port, &hints, &addrs);
    pthread_mutex_lock(&l->lock);
    l->rc = rc;
    l->addrs = addrs;
    l->done = true;
    bool abandoned = l->abandoned;
    pthread_cond_signal(&l->done_cond);
    pthread_mutex_unlock(&l->lock);
    if (abandoned) lookup_free(l);
    return NULL;
}

/* Starts looking host up; NULL, with why, when it cannot. */
static Lookup *lookup_start(const char *host, const char *port, char *why, size_t cap) {
    Lookup *l = calloc(1, sizeof *l);
    if (l == NULL) return snprintf(why, cap, "out of memory"), NULL;
    snprintf(l->host, sizeof l->host, "%s", host);
    snprintf(l->port, sizeof l->port, "%s", port);
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->done_cond, NULL);
    pthread_t thread;
    if (pthread_create(&thread, NULL, lookup_run, l) != 0) {
        lookup_free(l);
        return snprintf(why, cap, "cannot start a thread to look it up"), NULL;
    }
    pthread_detach(thread);
    return l;
}

/* Whether l has its answer, waiting for it until `deadline` (NULL: not at all). */
static bool lookup_done(Lookup *l, const struct timespec *deadline) {
    pthread_mutex_lock(&l->lock);
    while (deadline && !l->done)
        if (pthread_cond_timedwait(&l->done_cond, &l->lock, deadline) == ETIMEDOUT) break;
    bool done = l->done;
    pthread_mutex_unlock(&l->lock);
    return done;
}

/* Lets go of a lookup that has not answered: its thread frees it. */
static void lookup_abandon(Lookup *l) {
    pthread_mutex_lock(&l->lock);
    bool done = l->done;
    l->abandoned = true;
    pthread_mutex_unlock(&l->lock);
    if (done) lookup_free(l);
}

/* The answer of a lookup that is done, which it frees. EAI_AGAIN is the
 * resolver's "for the time being" (no network yet at boot): worth another try. */
static PtResolved lookup_answer(Lookup *l, struct addrinfo **out, char *why, size_t cap) {
    PtResolved r = PT_RESOLVED;
    if (l->rc == 0 && l->addrs) {
        *out = l->addrs;
        l->addrs = NULL;
    } else {
        snprintf(why, cap, "%s", l->rc ? gai_strerror(l->rc) : "no address");
        r = l->rc == EAI_AGAIN ? PT_RESOLVE_LATER : PT_RESOLVE_FAILED;
    }
    lookup_free(l);
    return r;
}

PtResolved pt_resolve(const char *host, const char *port, int wait_s, struct addrinfo **out,
                      char *why, size_t cap) {
    Lookup *l = lookup_start(host, port, why, cap);
    if (l == NULL) return PT_RESOLVE_FAILED;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline); /* the clock pthread_cond_timedwait reads */
    deadline.tv_sec += wait_s;
    if (!lookup_done(l, &deadline)) {
        lookup_abandon(l);
        snprintf(why, cap, "no answer from the resolver in %d s", wait_s);
        return PT_RESOLVE_LATER;
    }
    return lookup_answer(l, out, why, cap);
}

/* After every address failed: the name is looked up again, unless it is
 * being looked up already. */
static void lookup_again(PtBot *bot, double now) {
    if (bot->lookup || !bot->cfg->reconnect || bot->failed) return;
    char why[128];
    bot->lookup = lookup_start(bot->cfg->host, bot->cfg->port, why, sizeof why);
    if (bot->lookup == NULL) say(bot, "cannot look %s up again: %s", bot->cfg->host, why);
    bot->lookup_deadline = now + PT_RESOLVE_WAIT_S;
}

/* The lookup's answer, once it has one: the addresses the next connection
 * tries. A lookup that fails leaves the addresses as they were. */
static void lookup_collect(PtBot *bot, double now) {
    if (!lookup_done(bot->lookup, NULL)) {
        if (now < bot->lookup_deadline) return;
        lookup_abandon(bot->lookup);
        bot->lookup = NULL;
        say(bot, "cannot look %s up again: no answer from the resolver in %d s", bot->cfg->host,
            PT_RESOLVE_WAIT_S);
        return;
    }
    struct addrinfo *addrs = NULL;
    char why[128];
    PtResolved r = lookup_answer(bot->lookup, &addrs, why, sizeof why);
    bot->lookup = NULL;
    if (r != PT_RESOLVED) {
        say(bot, "cannot look %s up again: %s", bot->cfg->host, why);
        return;
    }
    if (bot->addrs) freeaddrinfo(bot->addrs);
    bot->addrs = addrs;
    say(bot, "looked %s up again for the next connection", bot->cfg->host);
}

/* "host:port", an IPv6 host in brackets, for the log. */
static const char *server_name(const PtConfig *cfg, char *buf, size_t cap) {
    bool v6 = strchr(cfg->host, ':') != NULL;
    snprintf(buf, cap, "%s%.100s%s:%s", v6 ? "[" : "", cfg->host, v6 ? "]" : "", cfg->port);
    return buf;
}

/* Starts connecting to the next address; false when none is left (why says
 * what went wrong with the last). */
static bool try_next_address(PtBot *bot, double now) {
    while (bot->addr_next) {
        const struct addrinfo *a = bot->addr_next;
        bot->addr_next = a->ai_next;
        int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) {
            snprintf(bot->connect_why, sizeof bot->connect_why, "%s", strerror(errno));
            continue;
        }
        fcntl(fd, F_SETFL, O_NONBLOCK);
        if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            snprintf(bot->connect_why, sizeof bot->connect_why, "%s", strerror(errno));
            close(fd);
            continue;
        }
        bot->fd = fd;
        bot->connect_deadline = now + CONNECT_TIMEOUT_S;
        return true;
    }
    return false;
}

static void connect_failed(PtBot *bot, double now) {
    lookup_again(bot, now);
    char msg[400], server[128];
    snprintf(msg, sizeof msg, "cannot connect to %s: %.200s",
             server_name(bot->cfg, server, sizeof server), bot->connect_why);
    lost(bot, now, msg);
}

static void connect_start(PtBot *bot, double now) {
    bot->addr_next = bot->addrs ? bot->addrs : bot->cfg->addrs;
    snprintf(bot->connect_why, sizeof bot->connect_why, "%s",
             bot->addr_next ? "no address" : "its name is not resolved yet");
    if (!try_next_address(bot, now)) {
        connect_failed(bot, now);
        return;
    }
    bot->state = PT_CONNECTING;
}

static void connected(PtBot *bot, double now);

static void connect_check(PtBot *bot, double now) {
    struct pollfd p = {.fd = bot->fd, .events = POLLOUT};
    int ready = poll(&p, 1, 0);
    if (ready == 0 && now < bot->connect_deadline) return;
    int err = 0;
    socklen_t len = sizeof err;
    if (ready == 1 && getsockopt(bot->fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) {
        bot->addr_next = NULL;
        connected(bot, now);
        return;
    }
    snprintf(bot->connect_why, sizeof bot->connect_why, "%s",
             ready == 0 ? "timed out" : strerror(err ? err : errno));
    close(bot->fd);
    bot->fd = -1;
    if (!try_next_address(bot, now)) connect_failed(bot, now);
}

static void connected(PtBot *bot, double now) {
    char server[128];
    say(bot, "connected to %s", server_name(bot->cfg, server, sizeof server));
    bot->state = PT_CONNECTED;
    bot->restarted_count = 0;
    bot->connected_at = bot->last_input = now;
    char line[TAK_PT_WRITE_MAX];
    snprintf(line, sizeof line, "Client tak-%s", tak_version());
    send_line(bot, line);
    send_line(bot, "Protocol 1"); /* clocks in milliseconds */
    if (bot->cfg->user)
        snprintf(line, sizeof line, "Login %s %s", bot->cfg->user, bot->cfg->password);
    else
        snprintf(line, sizeof line, "Login Guest %s", bot->token);
    send_line(bot, line);
}

/* ---- games -------------------------------------------------------------- */

static bool has_game(PtBot *bot) {
    for (int i = 0; i < TAK_PT_GAMES_MAX; i++)
        if (bot->session.games[i].active && !bot->session.games[i].over) return true;
    return false;
}

static const char *opponent(const TakPtGame *g) {
    return g->start.color == TAK_WHITE ? g->start.black : g->start.white;
}

static void tell(PtBot *bot, const char *name, const char *text) {
    char line[TAK_PT_WRITE_MAX];
    if (tak_pt_write_tell(name, text, line, sizeof line) > 0) send_line(bot, line);
}

static void write_ptn(PtBot *bot, const TakPtGame *g, char *path, size_t cap) {
    path[0] = '\0';
    if (!bot->cfg->ptn_dir) return;
    TakPtn ptn;
    TakError err;
    if (!tak_ptn_from_game(&ptn, &g->game, &err)) {
        say(bot, "game %d: no PTN: %s", g->start.no, err.message);
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char date[16], stamp[32], clock[48], site[300];
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(clock, sizeof clock, "%d:%02d +%lld", g->start.time_s / 60, g->start.time_s % 60,
             (long long)(g->increment_ms > 0 ? g->increment_ms / 1000 : 0));
    snprintf(site, sizeof site, "PlayTak %s, game %d", bot->cfg->host, g->start.no);
    tak_ptn_set_tag(&ptn, "Site", site);
    tak_ptn_set_tag(&ptn, "Date", date);
    tak_ptn_set_tag(&ptn, "Player1", g->start.white);
    tak_ptn_set_tag(&ptn, "Player2", g->start.black);
    tak_ptn_set_tag(&ptn, "Clock", clock);
    /* The server's word on the result: a time loss or an abort is not on the board. */
    tak_ptn_set_tag(&ptn, "Result", g->result);
    char *text = tak_ptn_write(&ptn);
    tak_ptn_free(&ptn);
    if (!text) return;
    snprintf(path, cap, "%s/playtak-%s-%d-%s-%s.ptn", bot->cfg->ptn_dir, stamp, g->start.no,
             g->start.white, g->start.black);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        say(bot, "cannot write %s: %s", path, strerror(errno));
        path[0] = '\0';
    }
    free(text);
}

static void game_over(PtBot *bot, TakPtGame *g) {
    if (bot->searching && bot->search_game == g->start.no) stop_search(bot);
    char path[1024];
    write_ptn(bot, g, path, sizeof path);
    printf("game %d: %s vs %s: %s%s (%s played %s)%s%s\n", g->start.no, g->start.white,
           g->start.black, g->result, g->abandoned ? " abandoned" : "", bot->session.name,
           tak_color_name(g->start.color), path[0] ? " -> " : "", path);
    fflush(stdout);
    if (bot->cfg->chat && !g->abandoned) tell(bot, opponent(g), "Thank you for the game!");
    tak_pt_session_forget(&bot->session, g->start.no);
    bot->games_done++;
    bot->seek_posted = bot->accept_sent = false;
    bot->free_at = cli_seconds() + NEXT_GAME_DELAY_S;
    bot->have_score = false;
}

/* On logging in again the server starts our game in progress (and replays
 * it) before it welcomes us; a game it did not start is gone: it ended while
 * we were away, or the server restarted. Its PTN is kept, unfinished. */
static void drop_lost_games(PtBot *bot) {
    for (int i = 0; i < TAK_PT_GAMES_MAX; i++) {
        TakPtGame *g = &bot->session.games[i];
        if (!g->active || g->over) continue;
        bool restarted = false;
        for (int k = 0; k < bot->restarted_count; k++)
            if (bot->restarted[k] == g->start.no) restarted = true;
        if (restarted) continue;
        say(bot, "game %d was not resumed by the server (it ended while we were away, or the "
            "server restarted): dropped", g->start.no);
        g->over = true;
        snprintf(g->result, sizeof g->result, "*");
        char path[1024];
        write_ptn(bot, g, path, sizeof path);
        printf("game %d: %s vs %s: lost track of it (%s played %s)%s%s\n", g->start.no,
               g->start.white, g->start.black, bot->session.name,
               tak_color_name(g->start.color), path[0] ? " -> " : "", path);
        fflush(stdout);
        tak_pt_session_forget(&bot->session, g->start.no);
    }
}

static void *search_main(void *arg) {
    PtBot *bot = arg;
    bot->best = tak_engine_search(bot->engine, &bot->search_pos, bot->search_history,
                                  bot->search_ply, &bot->limits, NULL, NULL, &bot->info);
    char byte = 1;
    ssize_t w = write(bot->wake[1], &byte, 1);
    (void)w;
    return NULL;
}

static void start_search(PtBot *bot, TakPtGame *g) {
    const TakGame *game = &g->game;
    bot->search_history = malloc((game->count + 1) * sizeof *bot->search_history);
    if (!bot->search_history) return;
    memcpy(bot->search_history, game->hashes, (game->count + 1) * sizeof *bot->search_history);
    bot->search_pos = game->current;
    bot->search_ply = game->count;
    bot->search_game = g->start.no;
    memset(&bot->limits, 0, sizeof bot->limits);
    memset(&bot->info, 0, sizeof bot->info);
    int64_t inc = g->increment_ms > 0 ? g->increment_ms : 0;
    for (int c = 0; c < 2; c++) {
        int64_t left = g->time_ms[c] - bot->cfg->margin_ms;
        bot->limits.time_left_ms[c] = left > 20 ? left : 20;
        bot->limits.increment_ms[c] = inc;
    }
    bot->searching = true;
    if (pthread_create(&bot->thread, NULL, search_main, bot) != 0) {
        bot->searching = false;
        free(bot->search_history);
        bot->search_history = NULL;
        say(bot, "cannot start a search thread");
    }
}

/* A search has ended: its move is sent if the game is still where it was. */
static void finish_search(PtBot *bot) {
    pthread_join(bot->thread, NULL);
    bot->searching = false;
    free(bot->search_history);
    bot->search_history = NULL;
    TakPtGame *g = tak_pt_session_game(&bot->session, bot->search_game);
    if (!g || !tak_pt_game_is_our_turn(g) || g->game.count != bot->search_ply) return;
    if (bot->best == TAK_MOVE_NONE) return;
    bot->last_score = bot->info.score;
    bot->have_score = true;
    char line[TAK_PT_WRITE_MAX];
    if (tak_pt_write_move(g->start.no, bot->best, g->start.size, line, sizeof line) < 0) {
        say(bot, "game %d: the engine chose a move PlayTak cannot say", g->start.no);
        return;
    }
    TakError err;
    if (!tak_pt_session_play(&bot->session, g->start.no, bot->best, &err)) {
        say(bot, "game %d: own move refused: %s", g->start.no, err.message);
        return;
    }
    send_line(bot, line);
}

static void score_text(const PtBot *bot, char *buf, size_t cap) {
    if (!bot->have_score) {
        snprintf(buf, cap, "I have not searched this game yet.");
        return;
    }
    char s[32];
    snprintf(buf, cap, "My evaluation: %s for me (hundredths of a flat: %d), level %d.",
             play_score_text(bot->last_score, s, sizeof s), bot->last_score, bot->cfg->level);
}

/* ---- accepting seeks ---------------------------------------------------- */

static bool seek_acceptable(const PtBot *bot, const TakPtSeek *k) {
    const PtConfig *c = bot->cfg;
    if (!c->accepting || strcmp(k->name, bot->session.name) == 0) return false;
    if (k->opponent[0] && strcasecmp(k->opponent, bot->session.name) != 0) return false;
    if (!(c->accept_sizes & (1u << k->size))) return false;
    if (k->time_s < c->accept_time_min_s || k->time_s > c->accept_time_max_s) return false;
    if (k->increment_s < c->accept_inc_min_s || k->increment_s > c->accept_inc_max_s) return false;
    if (c->accept_rated == 0 && !k->unrated) return false;
    if (c->accept_rated == 1 && k->unrated) return false;
    if (k->tournament) return false;
    TakRules rules;
    if (!tak_rules_standard(&rules, k->size, NULL)) return false;
    rules.stones = k->pieces;
    rules.capstones = k->capstones;
    rules.half_komi = k->half_komi;
    if (!tak_rules_validate(&rules, NULL)) return false;
    if (c->accept_from_count == 0) return true;
    for (int i = 0; i < c->accept_from_count; i++)
        if (strcasecmp(c->accept_from[i], k->name) == 0) return true;
    return false;
}

/* ---- the server's lines ------------------------------------------------- */

/* True when `text` asks for `word`: it starts with it (any case), after
 * spaces. Only a start counts, so that a greeting that mentions the word
 * (ours does) is not a request, and two bots do not answer each other. */
static bool asks_for(const char *text, const char *word) {
    while (*text == ' ') text++;
    return strncasecmp(text, word, strlen(word)) == 0;
}

static void on_message(PtBot *bot, const TakPtMessage *m, double now) {
    const PtConfig *cfg = bot->cfg;
    char line[TAK_PT_WRITE_MAX];
    TakPtGame *g = m->game ? tak_pt_session_game(&bot->session, m->game) : NULL;

    /* Whatever changes a game's plies makes a running search on it moot. */
    if (bot->searching && m->game == bot->search_game &&
        (m->kind == TAK_PT_GAME_UNDO || m->kind == TAK_PT_GAME_MOVE || m->kind == TAK_PT_GAME_OVER ||
         m->kind == TAK_PT_GAME_ABANDONED))
        stop_search(bot);
    if (bot->searching && m->kind == TAK_PT_GAME_START && m->start.no == bot->search_game)
        stop_search(bot);
    bool resumed = m->kind == TAK_PT_GAME_START && tak_pt_session_game(&bot->session, m->start.no);

    TakError err;
    if (!tak_pt_session_feed(&bot->session, m, &err)) {
        say(bot, "%s", err.message);
        if (m->kind == TAK_PT_GAME_START && !resumed) {
            /* A game we cannot play (rules beyond the library): resign it
             * at once rather than let the clock run out on the opponent. */
            snprintf(line, sizeof line, "Game#%d Resign", m->start.no);
            send_line(bot, line);
        }
        return;
    }
    switch (m->kind) {
    case TAK_PT_LOGGED_IN:
        drop_lost_games(bot);
        bot->state = PT_LOGGED_IN;
        bot->backoff_s = 0;
        bot->last_ping = now;
        say(bot, "logged in as %s", m->name);
        break;
    case TAK_PT_AUTH_FAILURE:
        say(bot, "login refused: Authentication failure");
        bot->failed = true;
        break;
    case TAK_PT_GAME_START: {
        g = tak_pt_session_game(&bot->session, m->start.no);
        if (bot->restarted_count < TAK_PT_GAMES_MAX) bot->restarted[bot->restarted_count++] = m->start.no;
        bot->accept_sent = bot->seek_posted = false;
        if (resumed) {
            say(bot, "game %d resumed", m->start.no);
            break;
        }
        tak_engine_new_game(bot->engine);
        bot->have_score = false;
        say(bot, "game %d: %s vs %s on %dx%d, playing %s", m->start.no, m->start.white,
            m->start.black, m->start.size, m->start.size,
            tak_color_name(m->start.color));
        if (cfg->chat) {
            snprintf(line, sizeof line,
                     "Hello %s! I am the tak engine at level %d. Good luck! Tell me 'eval' for "
                     "my evaluation.",
                     opponent(g), cfg->level);
            tell(bot, opponent(g), line);
        }
        break;
    }
    case TAK_PT_GAME_OVER:
    case TAK_PT_GAME_ABANDONED:
        if (g) game_over(bot, g);
        break;
    case TAK_PT_GAME_OFFER_DRAW: {
        bool take = cfg->draw == PT_DRAW_ACCEPT ||
                    (cfg->draw == PT_DRAW_LOSING && bot->have_score &&
                     bot->last_score <= -DRAW_LOSING_SCORE);
        say(bot, "game %d: draw offered: %s", m->game, take ? "accepted" : "declined");
        if (take) {
            snprintf(line, sizeof line, "Game#%d OfferDraw", m->game);
            send_line(bot, line);
        }
        break;
    }
    case TAK_PT_GAME_REQUEST_UNDO:
        say(bot, "game %d: takeback asked: %s", m->game,
            cfg->undo == PT_UNDO_ACCEPT ? "granted" : "declined");
        if (cfg->undo == PT_UNDO_ACCEPT) {
            snprintf(line, sizeof line, "Game#%d RequestUndo", m->game);
            send_line(bot, line);
        }
        break;
    case TAK_PT_NOK:
        say(bot, "the server said NOK (the last command sent: %.80s)", bot->last_sent);
        /* An accept refused (the seek went, or was not for us) leaves us free
         * again, and that seek is not tried again. Only a NOK right after
         * the Accept answers it: one after a later line (a Tell) answers
         * that, and an Accept left unanswered is given up after
         * ACCEPT_WAIT_S anyway. */
        if (bot->accept_sent && !has_game(bot) && strncmp(bot->last_sent, "Accept ", 7) == 0) {
            bot->refused[bot->refused_next] = bot->accept_no;
            bot->refused_next = (bot->refused_next + 1) % 8;
            bot->accept_sent = false;
        }
        break;
    case TAK_PT_TELL:
        /* Rate-limited: a flood of asks must not make us flood the server. */
        if (asks_for(m->text, "eval") && now - bot->last_eval >= EVAL_EVERY_S) {
            bot->last_eval = now;
            score_text(bot, line, sizeof line);
            tell(bot, m->name, line);
        }
        break;
    case TAK_PT_ERROR:
        say(bot, "server: Error: %s", m->text);
        break;
    case TAK_PT_MESSAGE:
        say(bot, "server: %s", m->text);
        break;
    default:
        break;
    }
}

/* The first 80 bytes of a server line, control bytes made '?', fit for a
 * terminal whatever the server sent. */
static const char *printable(const char *line, char out[81]) {
    size_t i = 0;
    for (; line[i] && i < 80; i++) {
        unsigned char ch = (unsigned char)line[i];
        out[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    out[i] = '\0';
    return out;
}

static void on_line(PtBot *bot, const char *line, double now) {
    char shown[81];
    if (bot->cfg->verbose) say(bot, "< %s", printable(line, shown));
    TakPtMessage m;
    TakError err;
    if (!tak_pt_read(line, &m, &err)) {
        say(bot, "unreadable line from the server (column %d: %s): %s", err.column, err.message,
            printable(line, shown));
        return;
    }
    on_message(bot, &m, now);
}

/* Reads what has come; returns false when the connection is gone. */
static bool read_input(PtBot *bot, double now) {
    for (;;) {
        ssize_t r = recv(bot->fd, bot->in + bot->in_len, sizeof bot->in - bot->in_len, 0);
        if (r == 0) return false;
        if (r < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        bot->last_input = now;
        bot->in_len += (size_t)r;
        size_t start = 0;
        for (size_t i = 0; i < bot->in_len; i++) {
            if (bot->in[i] != '\n' && bot->in[i] != '\0') continue;
            bot->in[i] = '\0';
            if (!bot->discarding && i > start) on_line(bot, bot->in + start, now);
            bot->discarding = false;
            start = i + 1;
            if (bot->fd < 0) return true;
        }
        memmove(bot->in, bot->in + start, bot->in_len - start);
        bot->in_len -= start;
        if (bot->in_len == sizeof bot->in) { /* a line longer than any the server sends */
            say(bot, "a line from the server over %zu bytes: skipped", sizeof bot->in);
            bot->in_len = 0;
            bot->discarding = true;
        }
    }
}

/* ---- the step ----------------------------------------------------------- */

static void think_if_our_turn(PtBot *bot) {
    if (bot->searching) return;
    for (int i = 0; i < TAK_PT_GAMES_MAX; i++) {
        TakPtGame *g = &bot->session.games[i];
        if (tak_pt_game_is_our_turn(g)) {
            start_search(bot, g);
            return;
        }
    }
}

/* Accepts the first open seek that meets the rules, when free. A seek
 * taken by another player first answers NOK, and the next one is tried. */
static void accept_if_free(PtBot *bot, double now) {
    if (!bot->cfg->accepting || has_game(bot) || now < bot->free_at) return;
    if (bot->accept_sent && now - bot->accept_time < ACCEPT_WAIT_S) return;
    bot->accept_sent = false;
    for (int i = 0; i < bot->session.seek_count; i++) {
        const TakPtSeek *k = &bot->session.seeks[i];
        bool refused = false;
        for (int r = 0; r < 8; r++)
            if (bot->refused[r] == k->no) refused = true;
        if (refused || !seek_acceptable(bot, k)) continue;
        char line[64];
        snprintf(line, sizeof line, "Accept %d", k->no);
        bot->accept_sent = true;
        bot->accept_time = now;
        bot->accept_no = k->no;
        say(bot, "accepting seek %d by %s", k->no, k->name);
        send_line(bot, line);
        return;
    }
}

static void seek_if_free(PtBot *bot, double now) {
    const PtConfig *cfg = bot->cfg;
    if (!cfg->seeking || bot->seek_posted || has_game(bot) || now < bot->free_at) return;
    char line[TAK_PT_WRITE_MAX];
    TakError err;
    if (tak_pt_write_seek(&cfg->seek, line, sizeof line, &err) < 0) return; /* checked at start */
    bot->seek_posted = true;
    send_line(bot, line);
}

void pt_bot_step(PtBot *bot, double now) {
    if (bot->state == PT_DONE) return;
    if (bot->lookup) lookup_collect(bot, now);
    if (bot->state == PT_OFFLINE) {
        if (now >= bot->next_connect) connect_start(bot, now);
        return;
    }
    if (bot->state == PT_CONNECTING) {
        connect_check(bot, now);
        return;
    }
    if (!read_input(bot, now)) {
        lost(bot, now, "the server closed the connection");
        return;
    }
    if (bot->failed) {
        lost(bot, now, "login refused");
        return;
    }
    /* A dead connection, or a server that stopped answering, looks the
     * same as a quiet one: only time tells them apart. */
    double ping_s = bot->cfg->ping_every_s;
    if (bot->state == PT_CONNECTED && now - bot->connected_at > WELCOME_PINGS * ping_s) {
        lost(bot, now, "no welcome from the server");
        return;
    }
    if (bot->state == PT_LOGGED_IN && now - bot->last_input > SILENT_PINGS * ping_s) {
        lost(bot, now, "the server stopped answering");
        return;
    }
    if (bot->searching) {
        char byte;
        if (read(bot->wake[0], &byte, 1) == 1) finish_search(bot);
    }
    if (bot->state != PT_LOGGED_IN) return;
    if (bot->cfg->games > 0 && bot->games_done >= bot->cfg->games && !has_game(bot)) {
        send_raw(bot, "quit"); /* going anyway: a failure is no loss */
        stop_search(bot);
        disconnect(bot);
        bot->state = PT_DONE;
        return;
    }
    accept_if_free(bot, now);
    seek_if_free(bot, now);
    think_if_our_turn(bot);
    if (now - bot->last_ping >= ping_s) {
        bot->last_ping = now;
        send_line(bot, "PING");
    }
}
