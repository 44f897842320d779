/**
 * \file
 * playtak.h: PlayTak's text protocol (the playtak.com server, github
 * USTakAssociation/tak-server): server lines read into a TakPtMessage, client
 * lines written (and read into a TakPtCommand, for a server), PlayTak's moves ("P A1 C", "M A1 A3 1 2") converted to and
 * from ours, and a session that follows what the server says (seeks, games,
 * clocks, takebacks, endings) so that a client need only choose its moves.
 *
 * The formats are the server's own (Client.java, Game.java, Seek.java at the
 * commit named in bench/PLAYTAK.md). Every reader fails with a TakError
 * naming what was wrong and the 1-based column where, and never writes its
 * output on failure. Nothing here does input or output: the caller owns the
 * connection and hands whole lines (without their line ending) to the reader.
 */
#ifndef TAK_PLAYTAK_H
#define TAK_PLAYTAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tak/error.h"
#include "tak/game.h"
#include "tak/move.h"

/** Room for a player's name: the server allows 4-16 letters, digits and '_'
 * (guests are "Guest123"); longer names are refused as malformed. */
#define TAK_PT_NAME_MAX 32
/** Room for the text of a chat line, a message or an error (the server cuts
 * chat at 256 bytes; a longer text is cut here too, never refused). */
#define TAK_PT_TEXT_MAX 512
/** The longest server line read: anything longer is refused. */
#define TAK_PT_LINE_MAX 1024
/** Room for any client line this module writes, terminator included. */
#define TAK_PT_WRITE_MAX 600

/** The kinds of line a PlayTak server sends. */
typedef enum TakPtKind {
    TAK_PT_WELCOME,          /**< "Welcome!" on connecting */
    TAK_PT_LOGIN_PROMPT,     /**< "Login or Register" */
    TAK_PT_LOGGED_IN,        /**< "Welcome NAME!": name */
    TAK_PT_AUTH_FAILURE,     /**< "Authentication failure" */
    TAK_PT_IS_MOD,           /**< "Is Mod" */
    TAK_PT_OK,               /**< "OK" */
    TAK_PT_NOK,              /**< "NOK": the last command was refused */
    TAK_PT_ERROR,            /**< "Error:TEXT" or "Error TEXT": text */
    TAK_PT_MESSAGE,          /**< "Message TEXT": text */
    TAK_PT_ONLINE,           /**< "Online N": count */
    TAK_PT_SEEK_NEW,         /**< "Seek new ...": seek */
    TAK_PT_SEEK_REMOVE,      /**< "Seek remove ...": seek */
    TAK_PT_GAMELIST_ADD,     /**< "GameList Add ...": listed */
    TAK_PT_GAMELIST_REMOVE,  /**< "GameList Remove ...": listed */
    TAK_PT_OBSERVE,          /**< "Observe ...": listed */
    TAK_PT_GAME_START,       /**< "Game Start ...": start */
    TAK_PT_GAME_MOVE,        /**< "Game#N P ..." or "Game#N M ...": game, move */
    TAK_PT_GAME_TIME,        /**< "Game#N Time W B" (seconds) or "Timems W B": game, time_ms */
    TAK_PT_GAME_OVER,        /**< "Game#N Over RESULT": game, result */
    TAK_PT_GAME_ABANDONED,   /**< "Game#N Abandoned. NAME quit": game, name */
    TAK_PT_GAME_OFFER_DRAW,  /**< "Game#N OfferDraw": game */
    TAK_PT_GAME_REMOVE_DRAW, /**< "Game#N RemoveDraw": game */
    TAK_PT_GAME_REQUEST_UNDO,/**< "Game#N RequestUndo": game */
    TAK_PT_GAME_REMOVE_UNDO, /**< "Game#N RemoveUndo": game */
    TAK_PT_GAME_UNDO,        /**< "Game#N Undo": take back the last ply; game */
    TAK_PT_GAME_SHOW,        /**< "Game#N Show ...": game, text (what follows "Show ") */
    TAK_PT_SHOUT,            /**< "Shout <NAME> TEXT": name, text */
    TAK_PT_SHOUT_ROOM,       /**< "ShoutRoom ROOM <NAME> TEXT": room, name, text */
    TAK_PT_TELL,             /**< "Tell <NAME> TEXT": name, text */
    TAK_PT_TOLD,             /**< "Told <NAME> TEXT": name, text */
    TAK_PT_JOINED_ROOM,      /**< "Joined room ROOM": room */
    TAK_PT_LEFT_ROOM,        /**< "Left room ROOM": room */
    TAK_PT_NOTICE,           /**< the account replies ("Registered ...", "Registration Error: ...",
                                  "Reset token sent", "Password changed", "Wrong password",
                                  "No such player", ...): text, the whole line */
    TAK_PT_KIND_COUNT
} TakPtKind;

/** A seek as the server lists it ("Seek new NO NAME SIZE TIME INCR W/B/A
 * KOMI PIECES CAPS UNRATED TOURNAMENT TRIGGER AMOUNT OPPONENT"; servers of
 * the second version leave out TRIGGER and AMOUNT). */
typedef struct TakPtSeek {
    int no;
    char name[TAK_PT_NAME_MAX];     /**< who posted it */
    int size;
    int time_s, increment_s;
    char color;                     /**< the seeker's colour: 'W', 'B' or 'A' (either) */
    int half_komi;                  /**< 0..8 on PlayTak: half flats */
    int pieces, capstones;          /**< each player's reserve */
    bool unrated, tournament;
    int trigger_move, extra_time_s; /**< extra time added at that move (0 0: none) */
    char opponent[TAK_PT_NAME_MAX]; /**< the only player who may accept, or "" for anyone */
} TakPtSeek;

/** A game as the game list shows it ("GameList Add NO WHITE BLACK SIZE TIME
 * INCR KOMI PIECES CAPS UNRATED TOURNAMENT TRIGGER AMOUNT"). */
typedef struct TakPtListed {
    int no;
    char white[TAK_PT_NAME_MAX], black[TAK_PT_NAME_MAX];
    int size, time_s, increment_s, half_komi, pieces, capstones;
    bool unrated, tournament;
    int trigger_move, extra_time_s;
} TakPtListed;

/** "Game Start NO SIZE WHITE vs BLACK COLOR TIME KOMI PIECES CAPS TRIGGER
 * AMOUNT". The increment is not in it: the game list or the seek has it. */
typedef struct TakPtStart {
    int no, size;
    char white[TAK_PT_NAME_MAX], black[TAK_PT_NAME_MAX];
    TakColor color; /**< the colour of the player it was sent to */
    int time_s, half_komi, pieces, capstones, trigger_move, extra_time_s;
} TakPtStart;

/** A move in PlayTak's words, before a board size gives it squares: files
 * are 0 for 'A', ranks 0 for '1'. */
typedef struct TakPtMove {
    bool is_place;
    int file, rank;           /**< the square placed on, or the stack's square */
    TakPieceType piece;       /**< a placement's piece */
    int to_file, to_rank;     /**< a spread's last square */
    int drops[TAK_MAX_SIZE];  /**< a spread's drops, in order */
    int drop_count;
} TakPtMove;

/** One server line, read. Only the fields its kind names are set. */
typedef struct TakPtMessage {
    TakPtKind kind;
    int game;                        /**< the NO of "Game#NO ..." */
    int count;                       /**< Online */
    int64_t time_ms[2];              /**< Time/Timems, by colour, in milliseconds */
    char result[8];                  /**< Over: "R-0", "0-R", "F-0", "0-F", "1-0", "0-1",
                                          "1/2-1/2", "0-0" (aborted) */
    char name[TAK_PT_NAME_MAX];
    char room[TAK_PT_NAME_MAX * 2];
    char text[TAK_PT_TEXT_MAX];
    TakPtSeek seek;
    TakPtListed listed;
    TakPtStart start;
    TakPtMove move;
} TakPtMessage;

/** The name of a kind, for logs and errors ("Game Start", "Seek new"). */
const char *tak_pt_kind_name(TakPtKind kind);

/** Reads one server line (no line ending; a trailing "\r" is allowed). On
 * failure `out` is untouched and err names what was wrong and its column:
 * an unknown message, a missing or malformed field, a number out of range,
 * a name the server could not have sent, a line too long. */
bool tak_pt_read(const char *line, TakPtMessage *out, TakError *err);

/* ---- moves -------------------------------------------------------------- */

/** Reads PlayTak's move text ("P A1", "P C3 W", "P B2 C", "M A1 A3 1 2"),
 * checking its syntax only (a spread must go in a straight line, its drops
 * must number its squares). Columns in err are within `text`. */
bool tak_pt_move_read(const char *text, TakPtMove *out, TakError *err);

/** The move `pt` names on a board of `size`; false (err says why) when a
 * square is off the board or the drops are more than the carry limit. It
 * is not checked against a position: tak_game_play does that. */
bool tak_pt_move_to_move(const TakPtMove *pt, int size, TakMove *out, TakError *err);

/** Writes `move` (a board of `size`) as PlayTak writes it: "P A1", "P C3 W",
 * "P B2 C", "M A1 A3 1 2"; returns the length, or -1 for a pass (PlayTak has
 * none) or when cap is too small. */
int tak_pt_move_write(TakMove move, int size, char *buf, size_t cap);

/* ---- client lines --------------------------------------------------------- */

/** What a client asks for in a seek (written as the third version, "Seek
 * SIZE TIME INCR COLOR KOMI PIECES CAPS UNRATED TOURNAMENT TRIGGER AMOUNT
 * OPPONENT"). */
typedef struct TakPtSeekRequest {
    int size;
    int time_s, increment_s;
    char color;               /**< 'W', 'B' or 'A' */
    int half_komi;            /**< 0..8 */
    int pieces, capstones;    /**< 0 0: PlayTak's standard reserves of the size */
    bool unrated, tournament;
    int trigger_move, extra_time_s;
    const char *opponent;     /**< NULL or "" for anyone */
} TakPtSeekRequest;

/** PlayTak's standard reserves of `size` (3..8): 10+0, 15+0, 21+1, 30+1,
 * 40+2, 50+2 (the server's own table). False for another size. */
bool tak_pt_standard_pieces(int size, int *pieces, int *capstones);

/** Writes the seek line; -1 (err says why) for a value the server would
 * refuse or change (size, colour, komi, reserves, a malformed opponent). */
int tak_pt_write_seek(const TakPtSeekRequest *req, char *buf, size_t cap, TakError *err);

/** Writes "Game#NO " and the move; -1 as tak_pt_move_write. */
int tak_pt_write_move(int game, TakMove move, int size, char *buf, size_t cap);

/** True for a name the server accepts in Login, Tell and a seek's opponent:
 * a letter, then 3-15 letters, digits or '_'. */
bool tak_pt_name_is_valid(const char *name);

/** Writes "Tell NAME TEXT" with the text cut to the server's 256 bytes and
 * any line break made a space; -1 for a bad name or an empty text. */
int tak_pt_write_tell(const char *name, const char *text, char *buf, size_t cap);

/* ---- client lines, read (for a server) -------------------------------------- */

/** Room for a Login's password (a secret of our server's players is 32 bytes). */
#define TAK_PT_SECRET_MAX 128
/** Room for a chat room's name: the server allows 1-64 bytes, no space. */
#define TAK_PT_ROOM_MAX 65

/** The kinds of line a PlayTak client sends. */
typedef enum TakPtCommandKind {
    TAK_PT_CMD_CLIENT,       /**< "Client TEXT": text (the client's name) */
    TAK_PT_CMD_PROTOCOL,     /**< "Protocol TEXT": text (the version asked for) */
    TAK_PT_CMD_LOGIN_GUEST,  /**< "Login Guest [TOKEN]": secret, the token ("" or 20 small letters) */
    TAK_PT_CMD_LOGIN,        /**< "Login NAME PASSWORD": name, secret (a name may not begin "Guest") */
    TAK_PT_CMD_SEEK,         /**< "Seek ..." in any version: seek, seek_version (size 0 withdraws) */
    TAK_PT_CMD_ACCEPT,       /**< "Accept NO": game, the seek's number */
    TAK_PT_CMD_MOVE,         /**< "Game#NO P ..." or "Game#NO M ...": game, move */
    TAK_PT_CMD_RESIGN,       /**< "Game#NO Resign": game */
    TAK_PT_CMD_OFFER_DRAW,   /**< "Game#NO OfferDraw": game */
    TAK_PT_CMD_REMOVE_DRAW,  /**< "Game#NO RemoveDraw": game */
    TAK_PT_CMD_REQUEST_UNDO, /**< "Game#NO RequestUndo": game */
    TAK_PT_CMD_REMOVE_UNDO,  /**< "Game#NO RemoveUndo": game */
    TAK_PT_CMD_LIST,         /**< "List": the open seeks, again */
    TAK_PT_CMD_GAME_LIST,    /**< "GameList": the games being played */
    TAK_PT_CMD_SHOUT,        /**< "Shout TEXT": text */
    TAK_PT_CMD_TELL,         /**< "Tell NAME TEXT": name, text */
    TAK_PT_CMD_PING,         /**< "PING" */
    TAK_PT_CMD_QUIT,         /**< "quit" */
    TAK_PT_CMD_JOIN_ROOM,    /**< "JoinRoom ROOM": room */
    TAK_PT_CMD_LEAVE_ROOM,   /**< "LeaveRoom ROOM": room */
    TAK_PT_CMD_SHOUT_ROOM,   /**< "ShoutRoom ROOM TEXT": room, text */
    TAK_PT_CMD_OBSERVE,      /**< "Observe NO": game */
    TAK_PT_CMD_UNOBSERVE,    /**< "Unobserve NO": game */
    TAK_PT_CMD_KIND_COUNT
} TakPtCommandKind;

/** One client line, read. Only the fields its kind names are set; the rest are zero. */
typedef struct TakPtCommand {
    TakPtCommandKind kind;
    int game;                        /**< Game#NO, or the NO of Accept, Observe,
                                          Unobserve (0 .. 2^30) */
    char name[TAK_PT_NAME_MAX];      /**< Login's and Tell's: 1-31 bytes, no space */
    char secret[TAK_PT_SECRET_MAX];  /**< Login's password, Login Guest's token */
    char text[TAK_PT_TEXT_MAX];      /**< Client, Protocol, Shout, Tell, ShoutRoom: never
                                          empty, cut to fit */
    char room[TAK_PT_ROOM_MAX];      /**< JoinRoom's, LeaveRoom's, ShoutRoom's: 1-64 bytes, no space */
    TakPtSeek seek;                  /**< Seek: size .. opponent (no and name unused); the
                                          colour 'A' when a first-version seek gives none */
    int seek_version;                /**< Seek: 1 (SIZE TIME INCR [W|B]), 2 (... COLOR KOMI
                                          PIECES CAPS UNRATED TOURNAMENT OPPONENT), 3 (...
                                          TOURNAMENT TRIGGER AMOUNT OPPONENT) */
    TakPtMove move;                  /**< a move's syntax (tak_pt_move_read): the board's size
                                          and the position are for the server to check */
} TakPtCommand;

/** The name of a command kind, as its line begins ("Seek", "Game#N P/M", "Resign"). */
const char *tak_pt_command_name(TakPtCommandKind kind);

/** Reads one client line of `len` bytes (no line ending; a trailing "\r" is
 * allowed). Numbers are digits only, each in its range: sizes up to 8, time
 * and extra time up to 10800 s, increment up to 300 s, komi and reserves as
 * tak/rules.h allows, a trigger up to 1000, game and seek numbers up to 2^30.
 * On failure `out` is untouched and err names what was wrong and its 1-based
 * column: a line over TAK_PT_LINE_MAX, a NUL or control byte, an unknown
 * command, a missing or malformed field, a number out of range, a bad move,
 * text after a one-word command. Whether the command may be obeyed (logged
 * in, one's turn, a legal move) is the server's to say. */
bool tak_pt_client_read(const char *line, size_t len, TakPtCommand *out, TakError *err);

/* ---- session -------------------------------------------------------------- */

/** Games one session follows at once. PlayTak gives a player one game at a
 * time; a reconnection can briefly overlap an old game and a new one. */
#define TAK_PT_GAMES_MAX 4
/** Games remembered from the game list (for their increments). */
#define TAK_PT_LISTED_MAX 16
/** Open seeks remembered; more are left out until some go. */
#define TAK_PT_SEEKS_MAX 64

/** A game the session's player is in. */
typedef struct TakPtGame {
    bool active;              /**< the slot holds a game (finished or not) */
    TakPtStart start;
    int64_t increment_ms;     /**< -1 while unknown (the game list tells) */
    TakGame game;             /**< every ply so far, checked by the library */
    int64_t time_ms[2];       /**< the clocks as the server last gave them */
    bool draw_offered;        /**< the opponent offers a draw now */
    bool undo_requested;      /**< the opponent asks to take back now */
    bool over;
    char result[8];           /**< as in TakPtMessage, once over */
    bool abandoned;           /**< the opponent left: the server's "Abandoned" */
} TakPtGame;

/** What a client knows from the server's lines, fed one message at a time. */
typedef struct TakPtSession {
    bool logged_in;
    char name[TAK_PT_NAME_MAX];
    TakPtGame games[TAK_PT_GAMES_MAX];
    TakPtListed listed[TAK_PT_LISTED_MAX]; /**< ring of recent "GameList Add" */
    int listed_next;
    TakPtSeek seeks[TAK_PT_SEEKS_MAX]; /**< the open seeks, ours included, as listed */
    int seek_count;
    int resumed;              /**< games resumed (a "Game Start" for a game already held) */
} TakPtSession;

/** An empty session (nothing allocated yet). */
void tak_pt_session_init(TakPtSession *s);
/** Frees every game's history; the session is empty again. */
void tak_pt_session_free(TakPtSession *s);

/** Follows one server message: logs in (forgetting the seeks, which the
 * server lists again), keeps the open seeks, starts (or restarts, on a
 * reconnection) a game, plays the opponent's moves, takes back, sets the
 * clocks, ends games. False (err says why) when the message does not fit
 * what the session knows: a move that is illegal or for a game it does not
 * hold, a start it cannot play (rules out of the library's range), no room
 * for another game. The session stays as it was then. */
bool tak_pt_session_feed(TakPtSession *s, const TakPtMessage *msg, TakError *err);

/** Records the session's own move in game `no` (the server does not echo
 * it); false (err says why) when illegal or not its turn. */
bool tak_pt_session_play(TakPtSession *s, int no, TakMove move, TakError *err);

/** The game numbered `no`, or NULL. */
TakPtGame *tak_pt_session_game(TakPtSession *s, int no);

/** True when it is the session's player to move in `g`, and the game goes on. */
bool tak_pt_game_is_our_turn(const TakPtGame *g);

/** Forgets a finished game (frees its history). */
void tak_pt_session_forget(TakPtSession *s, int no);

#endif
