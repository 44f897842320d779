/*
 * internal.h: what the server's files share, each entry under the file that
 * defines it (request.h, the handlers' helpers, is a header of its own). All
 * of it is owned by one Server, reached from libwebsockets' context user
 * pointer; nothing is global. Everything here is touched only by the event
 * loop's thread, except the engine pool's queues (under its mutex).
 */
#ifndef TAK_SERVER_INTERNAL_H
#define TAK_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <libwebsockets.h>

#include "request.h"
#include "server.h"
#include "store.h"
#include "tak/engine.h"
#include "tak/tak.h"
#include "tak/takat.h"

#define MESSAGE_MAX 65536 /* the largest WebSocket message accepted (a PTN import) */
#define QUEUE_MAX 64      /* messages waiting for a slow reader before it is dropped */
#define ANALYZE_MS_MAX                                                                             \
    1000 /* an analysis searches at most this long (less if --engine-movetime is less) */
#define ANALYSES_QUEUED_MAX 4 /* analyses queued or searching, all connections together */
#define ANALYZE_DEPTH_MAX 12  /* ... and at most this deep */

/* The server's types, each defined below under the file that owns it. */
typedef struct Server Server;               /* the process (server.c) */
typedef struct Session Session;             /* a connection (session.c) */
typedef struct LiveGame LiveGame;           /* a Tak game in memory (games.c) */
typedef struct LiveTakatGame LiveTakatGame; /* a TAKAT game, in memory only (takat_games.c) */
typedef struct EngineJob EngineJob;         /* a search for a worker (engine_pool.c) */
typedef struct SeatPlayer SeatPlayer;       /* who takes a seat (players.c) */
typedef struct Chat Chat;                   /* a game's chat rooms (chat.c) */
typedef struct Lobby Lobby;                 /* seeks and their followers (lobby.c) */
typedef struct Cluster Cluster;             /* the other processes of a shared store (cluster.c) */
typedef struct PtConn PtConn;               /* a PlayTak-protocol connection (playtak_port.c) */
typedef struct PtPort PtPort;               /* the PlayTak port's listener (playtak_port.c) */

/* ---- chat (chat.c) ------------------------------------------------------------ */

/* A rate limit: `tokens` left, refilled by time since `stamp_ms` (chat.c). */
typedef struct Bucket {
    int tokens;
    int64_t stamp_ms;
} Bucket;
/* Takes one token from a bucket of `burst` refilled one per `refill_ms`;
 * false when it is empty. A bucket never used is full. */
bool bucket_take(Bucket *b, int burst, int refill_ms);

bool chat_on_send(const Request *r); /* the "chat" request */
/* Says `text` in the room ss may talk in, of the game it follows (the
 * players' when it holds a seat, else the spectators'): the rules the "chat"
 * request applies (plain text, CHAT_TEXT_MAX characters, ss's and the room's
 * rate limits), then kept and sent to the room; false, with why, when refused.
 * A PlayTak connection's message is sent to the page's members only: the port
 * tells its own connections, under the sender's name. */
bool chat_say(Session *ss, const char *text, TakError *err);
/* Takes one of the messages ss may send now (the chat's rate limit, which
 * chat_say takes too); false when it must wait. */
bool chat_may_send(Session *ss);
void chat_history(Session *ss);      /* sends what ss may read of its game's chat */
void chat_free(Chat *chat);          /* with its game */
/* Another process saved a message in game `id`'s room: read it, if the game is here. */
void chat_refresh(Server *s, const char *id, int room);

/* ---- HTTP: the page and /api (http.c) ---------------------------------------------- */

/* A file of the page (generated from web/ at build time by scripts/embed-web.sh,
 * into web_assets[]), or an API answer made for one request. */
typedef struct Asset {
    const char *path;
    const char *mime;
    const unsigned char *data;
    unsigned int len;
    const char *etag; /* quoted, for If-None-Match; NULL for an API answer */
    const unsigned char *gz; /* the same bytes gzip'd, or NULL where that is no smaller */
    unsigned int gz_len;
    const char *gz_etag; /* the gzip'd bytes' own ETag */
} Asset;
extern const Asset web_assets[];
extern const unsigned web_asset_count;

/* A GET of `uri`: starts the answer (a file of the page, or /api/...); lws' return value. */
int http_start(struct lws *wsi, Session *ss, const char *uri);
/* Writes the next piece of the answer; lws' return value. */
int http_write(struct lws *wsi, Session *ss);
/* The HTTP connection closed: frees what it was sending. */
void http_closed(Session *ss);

/* ---- connections (session.c) ------------------------------------------------------ */

/* A message written once and queued to many connections; LWS_PRE bytes of
 * room before the text, as lws_write needs. */
typedef struct Outbuf {
    int refs;
    size_t len;
    unsigned char *data; /* LWS_PRE + len bytes */
} Outbuf;

Outbuf *outbuf_new(const char *text, size_t len);
Outbuf *outbuf_json(json_t *msg); /* takes the reference to msg */
void outbuf_release(Outbuf *b);

/* One connection (lws per-session data): HTTP fields for a page request,
 * the rest for a WebSocket. */
struct Session {
    struct lws *wsi;
    Server *server;
    /* HTTP */
    const struct Asset *asset;
    char *body; /* an API answer (malloc'd), sent as body_asset */
    struct Asset body_asset;
    bool gzip; /* the asset goes out in its gzip form */
    /* WebSocket */
    bool is_ws;
    LiveGame *game;       /* the game this connection follows, or NULL */
    int seat;             /* the colour it holds there, or -1 for a watcher */
    Session *prev, *next; /* in game->subs */
    Outbuf *queue[QUEUE_MAX];
    int qhead, qlen;
    bool closing;
    char *rx;
    size_t rx_len;
    bool rx_too_big, rx_binary;
    uint64_t id; /* unique for the server's life: analysis answers find their asker by it */
    LiveTakatGame *takat;   /* the TAKAT game this connection follows, or NULL */
    Session *tprev, *tnext; /* in takat->subs */
    int analyses;           /* analyze requests of this connection still searching */
    Bucket chat_bucket;     /* the chat messages it may still send */
    int64_t player;         /* the player it identified as (players.c), or 0 */
    char player_name[STORE_NAME_LEN + 1];
    PtConn *pt; /* a PlayTak-protocol connection's own part (no wsi), or NULL */
};

/* A WebSocket connection opened (ss is lws' zeroed per-session data). */
void session_open(Session *ss, struct lws *wsi, Server *server);
/* Collects one message from its fragments, within MESSAGE_MAX, and hands it
 * to protocol_handle when whole. */
void session_receive(Session *ss, const void *in, size_t len);
/* The connection may be written: sends the next queued message; -1 closes it. */
int session_write(Session *ss);
/* The connection closed: leaves its game, seeks and queue. */
void session_close(Session *ss);
void session_send(Session *ss, Outbuf *b); /* queues b (takes a reference) */
void session_send_json(Session *ss, json_t *msg);
/* Follows g (leaving any other game of either kind) in `seat` (-1 watches),
 * and sends it g's state and chat. */
void session_attach(Session *ss, LiveGame *g, int seat);
void session_detach(Session *ss);

/* ---- games in memory (games.c) ------------------------------------------------------ */

struct LiveGame {
    StoredGame info; /* ids, seats, rules; info.moves holds the PTN of every ply */
    size_t moves_cap;
    TakGame game;
    /* offer[0] draw, offer[1] takeback: the colour offering (0, 1), the
     * colour whose offer was just declined plus 2 (2, 3: shown to it until
     * the game changes), or -1 */
    int offer[2];
    bool engine_busy;         /* a search for this game is queued or running */
    uint32_t busy_generation; /* the generation the engine's search started at */
    bool thinking_elsewhere;  /* another process's engine searches for it (cluster.c) */
    uint32_t generation;      /* bumped by takebacks, so a stale engine answer is dropped */
    Session *subs;
    int sub_count;
    Outbuf *state;  /* the state message, cached until the game changes */
    Chat *chat;     /* its chat rooms, or NULL before the first message */
    bool over_told; /* the lobby has been told the game ended */
    int pt_no;      /* its number on the PlayTak port (playtak_port.c), or 0 before one is needed */
    bool pt_listed; /* PlayTak clients have been told it is in their game list */
    LiveGame *hnext;
};

enum { OFFER_DRAW = 0, OFFER_TAKEBACK = 1, OFFER_DECLINED = 2 };

LiveGame *games_find(Server *s, const char *id, TakError *err); /* loads from the store */
LiveGame *games_loaded(Server *s, const char *id); /* the game if in memory, else NULL */
LiveGame *games_create(Server *s, const StoredGame *info, const TakGame *game, TakError *err);
void games_unload_if_idle(Server *s, LiveGame *g);
void games_free_all(Server *s);
bool games_play(Server *s, LiveGame *g, TakMove move, TakError *err);
bool games_undo(Server *s, LiveGame *g, size_t count, TakError *err);
/* Takes back colour `who`'s last move and anything played after it (one ply
 * or two, with games_undo); false with err when `who` has not moved yet. */
bool games_take_back(Server *s, LiveGame *g, int who, TakError *err);
bool games_end(Server *s, LiveGame *g, TakEnd end, int winner, TakError *err);
/* Ends the hold of a clock after a restart (clock.c): the clock runs from
 * turn_start, saved first; false, and still held, when the store refuses it.
 * Another process that ended it first is caught up with (true). */
bool games_release_hold(Server *s, LiveGame *g, int64_t turn_start, TakError *err);
void games_changed(Server *s,
                   LiveGame *g); /* drops the cached state, broadcasts, kicks the engine */
void games_engine_done(Server *s, EngineJob *job);
/* Another process changed game `id` (to `plies` plies): reload it if it is
 * followed here, take its offers and whether an engine thinks for it (unless
 * the store has moved on since, when a newer word is coming), push it to the
 * followers. games_refresh_all does so for every loaded game. */
void games_refresh(Server *s, const char *id, size_t plies, const int offer[2], bool thinking);
void games_refresh_all(Server *s);
/* A new game's record from an imported PTN (its text kept for export): rules,
 * start, moves and result into info, which the caller frees; false (out of
 * memory) with err. */
bool games_import_ptn(const TakPtn *ptn, const char *text, StoredGame *info, TakError *err);
/* Gives seat `seat` of g to p with a new secret (in g->info), in the store
 * first, and closes the invitation. */
bool games_take_seat(Server *s, LiveGame *g, int seat, const SeatPlayer *p, TakError *err);
void games_random_code(char *out, size_t len);
int games_random_color(void); /* TAK_WHITE or TAK_BLACK, at random (a "random" colour asked for) */

/* ---- a game as the page sees it (games_json.c) ------------------------------------ */

const char *games_color_name(int color); /* "white" or "black", of either game */
json_t *games_board_json(const TakPosition *pos, size_t ply);
Outbuf *games_state(LiveGame *g); /* the state message (a reference), cached until g changes */

/* ---- the game in PTN (export.c) ------------------------------------------------------ */

/* The game in PTN, as "export" gives it: malloc'd, NULL with err. */
char *export_ptn(const LiveGame *g, TakError *err);

/* ---- clocks (clock.c) ------------------------------------------------------ */

int64_t clock_now_ms(void); /* wall-clock ms since 1970 */
bool clock_timed(const LiveGame *g);
/* The colour whose clock runs, or -1 (untimed, not started, or over). */
int clock_running(const LiveGame *g);
/* Each side's time left at `now` (the running one's may be negative). */
void clock_left(const LiveGame *g, int64_t now, int64_t left[2]);
/* For the move about to be made at `now`: the mover's time left after it
 * (-1 untimed) and when the next turn's clock starts (0: not yet); false,
 * with when the time ran out, when it came too late. */
bool clock_charge(const LiveGame *g, int64_t now, int64_t *left_after, int64_t *turn_start,
                  int64_t *flagged_at);
/* Ends the game on time if the side to move has run out at `now`. */
void clock_check(Server *s, LiveGame *g, int64_t now);
/* Lets a clock held after a restart (clock.c) run again once both players
 * are back or the hold's time is up: saves where it starts, once for the
 * whole cluster, and tells the followers. Nothing when it is not held. */
void clock_release(Server *s, LiveGame *g, int64_t now);
/* Four times a second: every loaded game's flag. */
void clock_tick(Server *s);
json_t *clock_json(const LiveGame *g); /* the state's "clock", or null when untimed */
/* PTN's Clock tag ("10:00 +5"). */
void clock_tag(const StoredClock *c, char *out, size_t cap);

/* ---- engine pool (engine_pool.c) ---------------------------------------- */

/* A job is a move for an engine opponent (JOB_PLAY), an analysis asked
 * for in review (JOB_ANALYZE: a bounded search whose score and line go back
 * to the asking connection, found by its id, with the request's req), or a
 * turn for a TAKAT engine opponent (JOB_TAKAT). */
enum { JOB_PLAY = 0, JOB_ANALYZE = 1, JOB_TAKAT = 2 };

struct EngineJob {
    int kind;
    char game_id[STORE_ID_LEN + 1];
    uint64_t session_id; /* JOB_ANALYZE: who asked */
    json_t *req;         /* JOB_ANALYZE: the request's req (a reference), or NULL */
    TakSearchInfo info;  /* JOB_ANALYZE: the last completed depth */
    TakatGame *
        takat; /* JOB_TAKAT: the game so far (a copy); the engine's turn comes back in takat_turn */
    TakatTurn takat_turn;
    uint64_t seed;
    uint32_t generation;
    size_t ply;
    TakPosition pos;
    uint64_t *history;
    size_t history_len;
    int level;
    int64_t time_left_ms, increment_ms; /* JOB_PLAY in a timed game: the engine's clock */
    TakMove best;
    EngineJob *next;
};

typedef struct EnginePool {
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    EngineJob *todo, *todo_tail, *done;
    bool stopping;
    int count;
    pthread_t *threads;
    TakEngine **engines;
    int movetime_ms;
    int analyze_ms;              /* the bound of an analysis search */
    TakatLayers *takat_layers;   /* the solved TAKAT layers, or NULL (shared, read-only) */
    struct lws_context *context; /* woken with lws_cancel_service when a job is done */
} EnginePool;

bool engine_pool_start(EnginePool *pool, int threads, int movetime_ms, TakatLayers *takat_layers,
                       struct lws_context *ctx);
void engine_pool_stop(EnginePool *pool);
/* Queues a search (the job is the pool's from here on). */
void engine_pool_submit(EnginePool *pool, EngineJob *job);
/* Takes every finished job, oldest first (the caller frees them). */
EngineJob *engine_pool_take_done(EnginePool *pool);
void engine_job_free(EngineJob *job);

/* ---- the process (server.c) ------------------------------------------------------ */

struct Server {
    const TakServerConfig *config;
    struct lws_context *context;
    Store *store;
    EnginePool pool;
    LiveGame **buckets;
    size_t bucket_count, game_count;
    uint64_t messages, moves; /* counters for the log */
    Cluster *cluster;         /* the other processes of a shared store (cluster.c), or NULL */
    uint64_t next_session_id;
    int analyses_queued;        /* JOB_ANALYZE jobs not yet answered (a connection that leaves
                                   and joins again must not get around ANALYSES_QUEUED_MAX) */
    LiveTakatGame *takat_games; /* TAKAT games, in memory only (takat_games.c) */
    TakatLayers *takat_layers;  /* the solved layers (--takat-layers), or NULL */
    size_t takat_count;
    int64_t heartbeat_ms; /* when the store last heard this server is up */
    Lobby *lobby;         /* made when first used */
    Bucket new_players;   /* names claimed on this server (players.c): no flood of them */
    PtPort *ptport;       /* the PlayTak port (--playtak-port), or NULL */
};

/* ---- processes sharing a PostgreSQL store (cluster.c) ------------------- */

struct ev_loop;
/* Listens for the other processes' changes on a connection of its own,
 * watched by `loop`. */
Cluster *cluster_start(Server *s, struct ev_loop *loop, const char *conninfo, TakError *err);
void cluster_stop(Cluster *c); /* NULL is fine */
/* Tells the other processes that g changed (after the store committed it);
 * nothing when c is NULL. */
void cluster_announce(Cluster *c, const LiveGame *g);
/* Tells the other processes that game `id`'s room got a message (saved). */
void cluster_announce_chat(Cluster *c, const char *id, int room);

/* ---- TAKAT games (takat_games.c) ------------------------------------------ */

/* A TAKAT game: players by seat secret or invitation, or the engine at a level.
 * Kept in memory only (not in the store): a restart ends them. */
struct LiveTakatGame {
    char id[STORE_ID_LEN + 1];
    char secret[2][STORE_SECRET_LEN + 1]; /* each seat's secret, "" while it is free */
    char invite[STORE_SECRET_LEN + 1];
    int engine_color, engine_level; /* the engine's colour, or -1 */
    int resigned;                   /* the colour that resigned, or -1 */
    bool engine_busy;
    uint64_t seed;
    TakatGame *game;    /* 50 KB: its own allocation */
    TakatValue perfect; /* the position's value for the side to move, from the
                         * solved layers; TAKAT_VALUE_UNKNOWN where they do not reach */
    Session *subs;
    LiveTakatGame *next;
};

LiveTakatGame *takat_games_create(Server *s, int engine_color, int engine_level, TakError *err);
LiveTakatGame *takat_games_find(Server *s, const char *id);
void takat_games_attach(Session *ss, LiveTakatGame *t, int seat);
void takat_games_detach(Session *ss);
bool takat_games_take_turn(Server *s, LiveTakatGame *t, TakatTurn turn, TakError *err);
void takat_games_resign(Server *s, LiveTakatGame *t, int color);
int takat_games_result(const LiveTakatGame *t); /* TakatResult, resignation counted */
void takat_games_engine_done(Server *s, EngineJob *job);
void takat_games_free_all(Server *s);
bool takat_games_on_create(const Request *r); /* "takat_create" */
bool takat_games_on_join(const Request *r);   /* "takat_join" */
bool takat_games_on_turn(const Request *r);   /* "takat_turn" */
bool takat_games_on_resign(const Request *r); /* "takat_resign" */

/* ---- the table of requests (protocol.c) ------------------------------------------ */

/* One WebSocket message, whole: parsed, and run by its type's handler. */
void protocol_handle(Session *ss, const char *text, size_t len);

/* ---- a game's players and its match (play.c) -------------------------------------- */

bool play_on_ping(const Request *r);   /* "ping": the server's clock */
bool play_on_create(const Request *r); /* "create": a game against a friend or the engine */
bool play_on_join(const Request *r);  /* "join": by seat secret, invitation or identity; or watch */
bool play_on_leave(const Request *r); /* "leave" */
bool play_on_move(const Request *r);  /* "move" */
bool play_on_takeback(const Request *r); /* "takeback": asked of a friend */
bool play_on_draw(const Request *r);     /* "draw": offered, or agreed to */
bool play_on_accept(const Request *r);   /* "accept": a draw or takeback offered */
bool play_on_decline(const Request *r);  /* "decline" */
bool play_on_resign(const Request *r);   /* "resign" */
bool play_on_rematch(const Request *r);  /* "rematch": the next game of a match */
bool play_on_score(const Request *r);    /* "score": a match's table */

/* ---- looking at games (review.c) --------------------------------------------------- */

bool review_on_view(const Request *r);    /* "view": a past position */
bool review_on_export(const Request *r);  /* "export": the game in PTN */
bool review_on_analyze(const Request *r); /* "analyze": answered by review_analysis_done */
bool review_on_setup(const Request *r);   /* "setup": a free board checked */
/* An analysis finished: answers its asker, if it still follows the game. */
void review_analysis_done(Server *s, EngineJob *job);

/* ---- players and ratings (players.c) ------------------------------------------ */

/* Who takes a seat: the player the connection identified as (id, name,
 * rating now), or nobody (all zero) for an anonymous one. */
struct SeatPlayer {
    int64_t id;
    char name[STORE_NAME_LEN + 1];
    double rating;
};
/* The connection's player, checking an optional "name" field names it (an
 * anonymous connection giving a name is told to claim it with "identify");
 * false after replying. */
bool players_of_request(const Request *r, SeatPlayer *out);
/* Puts p in a game's seat `color`: name, id and rating. */
void players_seat(StoredGame *info, int color, const SeatPlayer *p);
/* A player's rating now, or `dflt` when there is none or it cannot be read. */
double players_rating_now(Server *s, int64_t player, double dflt);
bool players_on_identify(const Request *r); /* "identify" */
/* The player whose identity secret is `secret` (*found false for none, or
 * for a text that cannot be a secret); false with err when the store fails. */
bool players_by_secret(Server *s, const char *secret, StoredPlayer *out, bool *found,
                       TakError *err);
json_t *players_json(const StoredPlayer *p);
/* Records the end of g in the store once (rating a rated game) when it is
 * over and not recorded yet; g's result and ratings after follow. */
void players_game_over(Server *s, LiveGame *g);
/* At start: the rated games whose end is not recorded are loaded, which
 * records the end of those that ended (while a process died, say). */
void players_sweep(Server *s);
/* GET /api/...: a body (malloc'd; NULL when out of memory), its status and type. */
char *players_http(Server *s, const char *uri, int *status, const char **mime);

/* ---- the lobby (lobby.c) ------------------------------------------------------ */

/* An open seek. `no` numbers it for the PlayTak port; `opponent` ("" for
 * anyone) is the only name that may take it, or see it (PlayTak's seeks can
 * say; the page's lobby leaves such seeks out); an engine's standing seek
 * (engine_seeks.c) has no seeker and its level. */
typedef struct LobbySeek {
    char id[STORE_ID_LEN + 1];
    int no;
    Session *seeker;   /* NULL for the engine's */
    int engine_level;  /* the engine's seek: the level it plays at; 0 for a person's */
    SeatPlayer player; /* the seeker */
    TakRules rules;
    StoredClock clock;
    int color; /* the seeker's: 0 white, 1 black, 2 random */
    bool rated;
    char opponent[STORE_NAME_LEN + 1];
} LobbySeek;

/* Posts `want` (its player, rules, clock, colour, rated, opponent) for
 * `seeker` (NULL: the engine's, unlimited), giving it an id and a number; NULL
 * with err when the seeker or the lobby has too many. The pointer is good until the lobby next
 * changes. */
const LobbySeek *lobby_post(Server *s, Session *seeker, const LobbySeek *want, TakError *err);
/* Cancels seeker's seek `id` (NULL: any one of them); false when it has none. */
bool lobby_cancel(Server *s, Session *seeker, const char *id);
/* Takes the seek `id` (or, id NULL, numbered `no`) for `taker` on connection
 * taker_ss: the game starts with both seats given, the seeker is told
 * (seek_accepted, or PlayTak's Game Start); the taker's colour in *seat, the
 * seek in *taken. NULL, with why, when it is gone, one's own, rated for an
 * anonymous taker, for another opponent, or the game cannot be made. An
 * engine's seek (taken->engine_level) stands: the caller posts it again with
 * engine_seeks_taken once it has told the taker of its game, so that the
 * taker hears of its game before of the new seek. */
LiveGame *lobby_take(Server *s, Session *taker_ss, const char *id, int no, const SeatPlayer *taker,
                     int *seat, LobbySeek *taken, char *why, size_t cap);
/* The engine, at `level`, takes the seek `id` (one naming its seat): the game
 * starts, the engine in the taker's seat, and the seeker is told; NULL, with
 * why, when the seek is gone or the game cannot be made. */
LiveGame *lobby_take_for_engine(Server *s, const char *id, int level, char *why, size_t cap);
/* The open seeks (count in *count). */
const LobbySeek *lobby_seeks(Server *s, int *count);
bool lobby_on_join(const Request *r); /* "lobby": follow it */
bool lobby_on_seek(const Request *r); /* "seek": a game's rules and clock, as "create" takes them */
bool lobby_on_unseek(const Request *r);       /* "unseek" */
bool lobby_on_accept(const Request *r);       /* "accept_seek" */
const char *lobby_bad_name(const char *name); /* why it cannot be a name, or NULL */
/* Whether k is for the player `name` (who may see and take it): it names no
 * opponent, or names this one (any case). A name given in the shape PlayTak
 * clients are shown names was made the player's own when the seek was posted
 * (lobby_post), where exactly one player has that shape. */
bool lobby_seek_for(const LobbySeek *k, const char *name);
/* Looking for whom a seek's opponent `wanted` means: whether a player seen
 * has that name (any case), and how many others have it as their PlayTak
 * shape (pt_shown_name), the last of them in `name`. */
typedef struct LobbyNameSearch {
    const char *wanted;
    bool exact;
    int count;
    char name[STORE_NAME_LEN + 1];
} LobbyNameSearch;
/* A player named `name` ("" for none) is online: counted in m. */
void lobby_name_seen(LobbyNameSearch *m, const char *name);
void lobby_changed(Server *s);                /* a game started: tell the followers */
void lobby_game_over(Server *s, const LiveGame *g);
void lobby_session_closed(Server *s, Session *ss);
#define LOBBY_SLICE_MS 10   /* how often lobby_tick runs */
void lobby_tick(Server *s); /* sends the lobby to its followers if it changed, a slice at a time */
void lobby_free(Server *s);

/* ---- the engine's standing seeks (engine_seeks.c) ---------------------------- */

/* Posts the seeks of --engine-seeks ("LEVEL:SIZE:MIN+SEC[:COLOR]", by commas:
 * "3:5:3+2,7:6:10+5:W") under the names TakEngineN; false with err, saying
 * which item and what was wrong. */
bool engine_seeks_post(Server *s, const char *spec, TakError *err);
/* The engine's seek k was taken (its game started): it is posted again. */
void engine_seeks_taken(Server *s, const LobbySeek *k);
/* The engine's seat's name at `level` (ENGINE_SEAT_NAME and the level,
 * "TakEngine3"), as the lobby and PlayTak clients are shown it, in out (cap bytes). */
#define ENGINE_SEAT_NAME "TakEngine"
void engine_seeks_name(int level, char *out, size_t cap);
/* The level of the engine's seat a name is (engine_seeks_name's, any case),
 * or 0 for any other name. */
int engine_seeks_level(const char *name);
/* A seek naming an engine's seat (k->opponent) is taken by the engine at
 * once, as a bot takes a challenge; false, with err, when its game cannot be
 * made (the seek stays). True, doing nothing, for a seek naming no engine. */
bool engine_seeks_challenged(Server *s, const LobbySeek *k, TakError *err);

/* ---- PlayTak's protocol on a port of its own (playtak_port.c) ------------------ */

struct ev_loop;
/* Listens on config->playtak_port (TCP text lines, as PlayTak's port 10000)
 * with `loop`; false with err when it cannot. */
bool playtak_port_start(Server *s, struct ev_loop *loop, TakError *err);
void playtak_port_stop(Server *s); /* closes every connection; nothing when off */
/* A seek was posted (added) or went: told to every logged-in connection it is for. */
void playtak_port_seek_changed(Server *s, const LobbySeek *k, bool added);
/* Gives every player logged in on the port to lobby_name_seen. */
void playtak_port_names(Server *s, LobbyNameSearch *m);
/* Our name `name` (or "" for an anonymous seat) in PlayTak's shape, as its
 * clients are shown it (playtak_seeks.c): cut to 16, '-' made '_', a 'P'
 * before a name that starts with no letter, padded to 4 with '_'. */
void pt_shown_name(const char *name, char out[TAK_PT_NAME_MAX]);
/* A PlayTak connection's seek was taken: it plays g as `color`. */
void playtak_port_seek_taken(Server *s, Session *seeker, LiveGame *g, int color);
/* g changed: what its PlayTak follower ss has not seen yet, as PlayTak's lines. */
void playtak_port_game_changed(Server *s, Session *ss, LiveGame *g);
/* g was made, changed, or is leaving memory (`gone`): PlayTak clients are
 * told when it enters their game list (going on, both seats taken) or leaves it. */
void playtak_port_game_listed(Server *s, LiveGame *g, bool gone);
/* A message in the room of its game that PlayTak connection ss reads (chat.c),
 * `from` the page's "white", "black" or "spectator": told as PlayTak's chat
 * (a Tell from the opponent; a watcher in the game's room, a ShoutRoom). */
void playtak_port_chat(Session *ss, const char *from, const char *text);

#endif
