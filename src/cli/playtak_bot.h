/*
 * playtak_bot.h: one connection of `tak playtak` to a PlayTak server: its
 * socket, its session (the library's TakPtSession), its engine and the
 * search thread that thinks on the server's clock, and the policies it was
 * given. cmd_playtak.c reads the options and runs several bots in one loop.
 */
#ifndef TAK_CLI_PLAYTAK_BOT_H
#define TAK_CLI_PLAYTAK_BOT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "tak/engine.h"
#include "tak/playtak.h"

#define PT_PLAYERS_MAX 32
/* Seconds between pings: the server's README asks for one every 30 s. */
#define PT_PING_EVERY_S 30
/* Seconds the server's name may take to resolve (at start, and each time
 * it is looked up again after every address failed). */
#define PT_RESOLVE_WAIT_S 10

typedef enum { PT_UNDO_REFUSE, PT_UNDO_ACCEPT } PtUndoPolicy;
typedef enum { PT_DRAW_REFUSE, PT_DRAW_ACCEPT, PT_DRAW_LOSING } PtDrawPolicy;

/* Everything the options say; shared, read-only, by every bot. */
struct addrinfo;

typedef struct PtConfig {
    char host[256];                   /* a name or an address, IPv6 without brackets */
    char port[16];
    struct addrinfo *addrs;           /* host's addresses, resolved before the bots start;
                                       * NULL when the resolver could not answer yet */
    const char *user;                 /* NULL: a guest */
    char password[128];
    int level;
    size_t hash_mb;
    int threads;
    bool seeking;
    TakPtSeekRequest seek;
    char seek_opponent[TAK_PT_NAME_MAX];
    bool accepting;
    unsigned accept_sizes;            /* bit s: size s accepted */
    int accept_time_min_s, accept_time_max_s;
    int accept_inc_min_s, accept_inc_max_s;
    int accept_rated;                 /* -1 either, 0 unrated only, 1 rated only */
    char accept_from[PT_PLAYERS_MAX][TAK_PT_NAME_MAX];
    int accept_from_count;            /* 0: anyone */
    PtUndoPolicy undo;
    PtDrawPolicy draw;
    bool chat;
    const char *ptn_dir;
    int games;                        /* stop after this many games each; 0: never */
    bool reconnect;
    int64_t margin_ms;                /* kept in hand for the network */
    bool verbose;
    int ping_every_s;                 /* PT_PING_EVERY_S; a test may shorten it */
} PtConfig;

/* OFFLINE, then CONNECTING (the TCP connection under way), CONNECTED (the
 * login sent), LOGGED_IN (welcomed); DONE at the end. */
typedef enum { PT_OFFLINE, PT_CONNECTING, PT_CONNECTED, PT_LOGGED_IN, PT_DONE } PtState;

typedef struct PtBot {
    const PtConfig *cfg;
    int id;                           /* 1.. for the log */
    PtState state;
    int fd;
    const struct addrinfo *addr_next; /* while connecting: the next address to try */
    struct addrinfo *addrs;           /* host's addresses as last looked up again, or NULL:
                                       * cfg->addrs */
    struct PtLookup *lookup;          /* the lookup under way after every address failed */
    double lookup_deadline;           /* ... given up after this */
    double connect_deadline;          /* when the address tried now is given up */
    char connect_why[256];            /* why the last address failed */
    char in[TAK_PT_LINE_MAX * 8];
    size_t in_len;
    bool discarding;                  /* skipping the rest of an over-long line */
    char token[21];                   /* a guest's rejoin token */
    TakPtSession session;
    TakEngine *engine;
    int wake[2];                      /* the search thread writes a byte here when done */

    /* The search in flight, if any: its copy of the game, so the session may
     * change (an undo, a reconnection) while it runs. */
    bool searching;
    pthread_t thread;
    int search_game;
    size_t search_ply;                /* plies in the game when it started */
    TakPosition search_pos;
    uint64_t *search_history;         /* the hashes before it (malloc'd, its own copy) */
    TakSearchLimits limits;
    TakSearchInfo info;
    TakMove best;

    int last_score;                   /* our last search's score, our view */
    bool have_score;
    bool seek_posted, accept_sent;
    int accept_no;                    /* the seek last accepted */
    int refused[8];                   /* seeks whose Accept was refused: not tried again */
    int refused_next;
    int games_done;
    int backoff_s;
    double next_connect, connected_at, last_ping, last_input, accept_time;
    double last_eval;                 /* when 'eval' was last answered */
    double free_at;                   /* no seek or accept before this (after a game) */
    char last_sent[TAK_PT_WRITE_MAX]; /* for the log, when the server says NOK */
    bool failed;                      /* a login refused: no point retrying */
    int restarted[TAK_PT_GAMES_MAX];  /* games the server started (again) on this connection */
    int restarted_count;
} PtBot;

/* How a lookup went: the addresses; not yet (the resolver's EAI_AGAIN, or
 * no answer in time: try again later); or failed (no such name, say). */
typedef enum { PT_RESOLVED, PT_RESOLVE_LATER, PT_RESOLVE_FAILED } PtResolved;

/* Resolves host and port (getaddrinfo, any family) on a thread of its own,
 * waiting at most wait_s: the addresses in *out (freeaddrinfo them), or,
 * with why (the resolver's reason, or that it did not answer in time),
 * whether it may do better later. */
PtResolved pt_resolve(const char *host, const char *port, int wait_s, struct addrinfo **out,
                      char *why, size_t cap);

/* A bot ready to connect (to cfg->addrs, or the addresses it looks up again
 * when none of them answers); false when out of memory. */
bool pt_bot_init(PtBot *bot, const PtConfig *cfg, int id);
/* Stops its search, closes its connection, frees its engine and session. */
void pt_bot_free(PtBot *bot);

/* The descriptors to poll for the bot (its socket when connected, its wake
 * pipe): writes up to 2 into fds[]; returns how many. */
int pt_bot_poll_fds(const PtBot *bot, int fds[2]);

/* Does whatever is due: connects (or reconnects after its back-off), reads
 * the socket and answers each line, collects a finished search and sends its
 * move, starts a search on its turn, pings. `now` is cli_seconds(). */
void pt_bot_step(PtBot *bot, double now);

/* True when the bot has played its games (or cannot go on). */
static inline bool pt_bot_is_done(const PtBot *bot) { return bot->state == PT_DONE; }

#endif
