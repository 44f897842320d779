/*
 * cmd_playtak.c: `tak playtak`, our engine as a bot on a PlayTak server
 * (playtak.com or one built from its source). This file reads the options
 * and runs the bots, one connection each, in one poll loop; a bot's own work
 * is in playtak_bot.c and the protocol in the library (playtak.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "playtak_bot.h"

#define PT_CONNECTIONS_MAX 16
#define PASSWORD_ENV "TAK_PLAYTAK_PASSWORD"

static const CliCommand playtak_command = {
    "playtak",
    "[--server HOST:PORT] [--user NAME [--password-file FILE]] [--level N]\n"
    "       [--seek SPEC] [--accept [--accept-sizes ...]] [--games N] [OPTIONS]",
    "Plays on a PlayTak server (PlayTak's text protocol over TCP, as on\n"
    "playtak.com:10000) with our engine: logs in, posts a seek or accepts\n"
    "others' seeks by the rules given, plays each game on the server's clock,\n"
    "and logs every game as PTN. One line on stdout for each game that ends;\n"
    "what happens on the way goes to stderr.\n"
    "\n"
    "Connection:\n"
    "  --server HOST:PORT  the server (playtak.com:10000): a name, an IPv4\n"
    "                      address, or an IPv6 one in brackets ([::1]:10000);\n"
    "                      resolved at start (a name that does not exist stops\n"
    "                      the bot; a resolver not answering yet is tried\n"
    "                      again) and again whenever no address answers\n"
    "  --user NAME         log in as NAME; the password is read from the\n"
    "                      environment variable " PASSWORD_ENV " or from\n"
    "                      --password-file, never from the command line.\n"
    "                      (Names starting with Guest are the server's guests'.)\n"
    "                      Without --user: a guest, with a random rejoin token\n"
    "  --password-file F   the password is the first line of file F\n"
    "  --no-reconnect      stop when the connection is lost (by default the bot\n"
    "                      reconnects, backing off 1 s to 30 s, and the server\n"
    "                      resumes its game in progress)\n"
    "  --connections N     N bots at once, each its own guest and engine, so\n"
    "                      N games at once (1..16; PlayTak gives a player one\n"
    "                      game at a time, so with --user only 1)\n"
    "  -v, --verbose       log every protocol line to stderr (passwords masked)\n"
    "\n"
    "Games:\n"
    "  --seek SPEC         post a seek, again after each game. SPEC is\n"
    "                      SIZE,MIN+SEC[,COLOR][,KOMI][,unrated][,opponent=NAME]:\n"
    "                      MIN minutes on each clock (decimals allowed), SEC\n"
    "                      seconds of increment, COLOR W, B or A (either; the\n"
    "                      default), KOMI in flats 0 to 4 (halves allowed).\n"
    "                      E.g. --seek 6,10+5  --seek 5,3+2,W,2,unrated\n"
    "  --accept            accept others' seeks that meet these rules:\n"
    "  --accept-sizes L    sizes, e.g. 5,6 (default 3-8)\n"
    "  --accept-time A-B   initial time from A to B minutes (default any)\n"
    "  --accept-increment A-B  increment from A to B seconds (default any)\n"
    "  --accept-rated R    yes (rated only), no (unrated only) or any (default)\n"
    "  --accept-from L     only these players, e.g. alice,bob (default anyone)\n"
    "                      Tournament seeks are never accepted.\n"
    "  --games N           stop after N games (default 0: play on)\n"
    "  --ptn-dir DIR       write each finished game to DIR as PTN\n"
    "\n"
    "Play:\n"
    "  --level N           strength 1 (a beginner) to 10 (full strength; default)\n"
    "  --hash MB           each engine's table (64)\n"
    "  --threads N         each engine's search threads (1)\n"
    "  --margin MS         milliseconds kept on the clock for the network (500)\n"
    "  --undo POLICY       a takeback request: refuse (default) or accept\n"
    "  --draw POLICY       a draw offer: refuse, accept, or losing (the default:\n"
    "                      accept when our last search scored the game a flat or\n"
    "                      more against us)\n"
    "  --no-chat           no greeting. By default the bot greets its opponent,\n"
    "                      thanks them at the end, and answers a Tell containing\n"
    "                      'eval' with its last evaluation\n"
    "  --help              show this help\n"
    "\n"
    "Exit status: 0 when the games asked for were played, 1 when the server\n"
    "could not be reached or refused the login, 2 wrong usage.\n",
};

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
}

/* HOST:PORT, an IPv6 host in brackets ([::1]:10000; the last colon ends a bare one). */
static bool parse_server(const char *value, PtConfig *cfg) {
    const char *colon = strrchr(value, ':');
    if (!colon || colon == value || colon[1] == '\0') return false;
    const char *host = value;
    size_t n = (size_t)(colon - value);
    if (value[0] == '[') {
        if (n < 3 || colon[-1] != ']') return false;
        host++;
        n -= 2;
    }
    if (n >= sizeof cfg->host || strlen(colon + 1) >= sizeof cfg->port) return false;
    long port;
    if (!cli_parse_int(colon + 1, 1, 65535, &port)) return false;
    memcpy(cfg->host, host, n);
    cfg->host[n] = '\0';
    snprintf(cfg->port, sizeof cfg->port, "%ld", port);
    return true;
}

/* SIZE,MIN+SEC[,COLOR][,KOMI][,unrated][,opponent=NAME] */
static bool parse_seek(const char *value, PtConfig *cfg, char *why, size_t cap) {
    char buf[256];
    if (strlen(value) >= sizeof buf) return snprintf(why, cap, "too long"), false;
    strcpy(buf, value);
    TakPtSeekRequest r = {.color = 'A'};
    cfg->seek_opponent[0] = '\0'; /* each --seek says its own opponent, or none */
    int field = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save), field++) {
        long v;
        if (field == 0) {
            if (!cli_parse_int(tok, 3, 8, &v)) return snprintf(why, cap, "size '%s' is not 3-8", tok), false;
            r.size = (int)v;
        } else if (field == 1) {
            char *plus = strchr(tok, '+');
            if (!plus) return snprintf(why, cap, "clock '%s' is not MIN+SEC", tok), false;
            *plus = '\0';
            char *end;
            errno = 0;
            double minutes = strtod(tok, &end);
            if (errno || end == tok || *end || !(minutes > 0) || minutes > 10000)
                return snprintf(why, cap, "'%s' is not a number of minutes", tok), false;
            if (!cli_parse_int(plus + 1, 0, 3600, &v))
                return snprintf(why, cap, "'%s' is not an increment in seconds", plus + 1), false;
            r.time_s = (int)lround(minutes * 60);
            r.increment_s = (int)v;
        } else if (strcmp(tok, "W") == 0 || strcmp(tok, "B") == 0 || strcmp(tok, "A") == 0) {
            r.color = tok[0];
        } else if (strcmp(tok, "unrated") == 0) {
            r.unrated = true;
        } else if (strncmp(tok, "opponent=", 9) == 0) {
            if (!tak_pt_name_is_valid(tok + 9))
                return snprintf(why, cap, "'%s' is not a PlayTak name", tok + 9), false;
            snprintf(cfg->seek_opponent, sizeof cfg->seek_opponent, "%s", tok + 9);
        } else {
            int half;
            if (!cli_parse_komi(tok, &half) || half < 0 || half > 8)
                return snprintf(why, cap, "'%s' is not a colour, a komi of 0-4, 'unrated' or opponent=NAME", tok), false;
            r.half_komi = half;
        }
    }
    if (field < 2) return snprintf(why, cap, "need at least SIZE,MIN+SEC"), false;
    cfg->seek = r;
    cfg->seek.opponent = cfg->seek_opponent;
    TakError err;
    char line[TAK_PT_WRITE_MAX];
    if (tak_pt_write_seek(&cfg->seek, line, sizeof line, &err) < 0)
        return snprintf(why, cap, "%s", err.message), false;
    cfg->seeking = true;
    return true;
}

static bool parse_range(const char *value, long lo, long hi, int *a, int *b) {
    long x, y;
    if (!cli_parse_pair(value, '-', lo, hi, lo, hi, &x, &y) || x > y) return false;
    *a = (int)x;
    *b = (int)y;
    return true;
}

static bool parse_names(const char *value, PtConfig *cfg) {
    char buf[PT_PLAYERS_MAX * TAK_PT_NAME_MAX];
    if (strlen(value) >= sizeof buf) return false;
    strcpy(buf, value);
    cfg->accept_from_count = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!tak_pt_name_is_valid(tok) || cfg->accept_from_count == PT_PLAYERS_MAX) return false;
        snprintf(cfg->accept_from[cfg->accept_from_count++], TAK_PT_NAME_MAX, "%s", tok);
    }
    return cfg->accept_from_count > 0;
}

static bool parse_sizes(const char *value, unsigned *mask) {
    char buf[64];
    if (strlen(value) >= sizeof buf) return false;
    strcpy(buf, value);
    *mask = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long s;
        if (!cli_parse_int(tok, 3, 8, &s)) return false;
        *mask |= 1u << s;
    }
    return *mask != 0;
}

/* The password: the environment's, else the file's first line. */
static int read_password(PtConfig *cfg, const char *file) {
    const char *env = getenv(PASSWORD_ENV);
    if (env && !*env) env = NULL; /* set but empty: as good as unset */
    if (file) {
        size_t len;
        char *text = cli_read_file(file, &len);
        if (!text) return cli_fail(&playtak_command, "cannot read %s: %s", file, strerror(errno));
        text[strcspn(text, "\r\n")] = '\0';
        snprintf(cfg->password, sizeof cfg->password, "%s", text);
        free(text);
    } else if (env) {
        snprintf(cfg->password, sizeof cfg->password, "%s", env);
    } else {
        return cli_usage_error(&playtak_command, "--user needs a password: set %s or give --password-file",
                               PASSWORD_ENV);
    }
    /* The password ends the Login line: a space would split it, a control
     * byte (a newline above all) would end the line or start another. */
    const char *from = file ? file : PASSWORD_ENV;
    if (cfg->password[0] == '\0')
        return cli_fail(&playtak_command, "the password in %s is empty", from);
    for (const char *p = cfg->password; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == ' ' || ch < 0x20 || ch == 0x7f)
            return cli_fail(&playtak_command,
                            "the password in %s has a space or a control character", from);
    }
    return CLI_OK;
}

static int parse_options(int argc, char **argv, PtConfig *cfg, int *connections) {
    const char *password_file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long n;
        char why[200];
        const char *arg = argv[i];
#define OPT(name) cli_option(argc, argv, &i, name, &v)
#define NEED(name)                                                                                 \
    if (!v) return cli_usage_error(&playtak_command, "%s needs a value", name)
        if (OPT("--server")) {
            NEED("--server");
            if (!parse_server(v, cfg)) return cli_usage_error(&playtak_command, "--server needs HOST:PORT");
        } else if (OPT("--user")) {
            NEED("--user");
            if (!tak_pt_name_is_valid(v))
                return cli_usage_error(&playtak_command, "'%s' is not a PlayTak name", v);
            /* The server reads "Login Guest..." as a guest's login, the
             * password as its rejoin token: such a name cannot be a user's. */
            if (strncasecmp(v, "guest", 5) == 0)
                return cli_usage_error(&playtak_command,
                                       "'%s': PlayTak keeps names starting with 'Guest' for guests "
                                       "(leave out --user to play as one)",
                                       v);
            cfg->user = v;
        } else if (OPT("--password-file")) {
            NEED("--password-file");
            password_file = v;
        } else if (OPT("--password")) {
            return cli_usage_error(&playtak_command,
                                   "no password on the command line (others can see it): set "
                                   "%s or use --password-file",
                                   PASSWORD_ENV);
        } else if (OPT("--level")) {
            NEED("--level");
            if (!cli_parse_int(v, TAK_LEVEL_MIN, TAK_LEVEL_MAX, &n))
                return cli_usage_error(&playtak_command, "--level needs 1 to 10");
            cfg->level = (int)n;
        } else if (OPT("--hash")) {
            NEED("--hash");
            if (!cli_parse_int(v, 1, 65536, &n)) return cli_usage_error(&playtak_command, "--hash needs 1 to 65536");
            cfg->hash_mb = (size_t)n;
        } else if (OPT("--threads")) {
            NEED("--threads");
            if (!cli_parse_int(v, 1, 256, &n)) return cli_usage_error(&playtak_command, "--threads needs 1 to 256");
            cfg->threads = (int)n;
        } else if (OPT("--margin")) {
            NEED("--margin");
            if (!cli_parse_int(v, 0, 60000, &n)) return cli_usage_error(&playtak_command, "--margin needs 0 to 60000");
            cfg->margin_ms = n;
        } else if (OPT("--seek")) {
            NEED("--seek");
            if (!parse_seek(v, cfg, why, sizeof why))
                return cli_usage_error(&playtak_command, "bad --seek '%s': %s", v, why);
        } else if (strcmp(arg, "--accept") == 0) {
            cfg->accepting = true;
        } else if (OPT("--accept-sizes")) {
            NEED("--accept-sizes");
            if (!parse_sizes(v, &cfg->accept_sizes))
                return cli_usage_error(&playtak_command, "--accept-sizes needs sizes 3-8, e.g. 5,6");
            cfg->accepting = true;
        } else if (OPT("--accept-time")) {
            NEED("--accept-time");
            int a, b;
            if (!parse_range(v, 0, 10000, &a, &b))
                return cli_usage_error(&playtak_command, "--accept-time needs A-B minutes");
            cfg->accept_time_min_s = a * 60;
            cfg->accept_time_max_s = b * 60;
            cfg->accepting = true;
        } else if (OPT("--accept-increment")) {
            NEED("--accept-increment");
            if (!parse_range(v, 0, 3600, &cfg->accept_inc_min_s, &cfg->accept_inc_max_s))
                return cli_usage_error(&playtak_command, "--accept-increment needs A-B seconds");
            cfg->accepting = true;
        } else if (OPT("--accept-rated")) {
            NEED("--accept-rated");
            if (strcmp(v, "yes") == 0) cfg->accept_rated = 1;
            else if (strcmp(v, "no") == 0) cfg->accept_rated = 0;
            else if (strcmp(v, "any") == 0) cfg->accept_rated = -1;
            else return cli_usage_error(&playtak_command, "--accept-rated needs yes, no or any");
            cfg->accepting = true;
        } else if (OPT("--accept-from")) {
            NEED("--accept-from");
            if (!parse_names(v, cfg))
                return cli_usage_error(&playtak_command, "--accept-from needs PlayTak names, e.g. alice,bob");
            cfg->accepting = true;
        } else if (OPT("--games")) {
            NEED("--games");
            if (!cli_parse_int(v, 0, 1000000, &n)) return cli_usage_error(&playtak_command, "--games needs a count");
            cfg->games = (int)n;
        } else if (OPT("--ptn-dir")) {
            NEED("--ptn-dir");
            cfg->ptn_dir = v;
        } else if (OPT("--undo")) {
            NEED("--undo");
            if (strcmp(v, "refuse") == 0) cfg->undo = PT_UNDO_REFUSE;
            else if (strcmp(v, "accept") == 0) cfg->undo = PT_UNDO_ACCEPT;
            else return cli_usage_error(&playtak_command, "--undo needs refuse or accept");
        } else if (OPT("--draw")) {
            NEED("--draw");
            if (strcmp(v, "refuse") == 0) cfg->draw = PT_DRAW_REFUSE;
            else if (strcmp(v, "accept") == 0) cfg->draw = PT_DRAW_ACCEPT;
            else if (strcmp(v, "losing") == 0) cfg->draw = PT_DRAW_LOSING;
            else return cli_usage_error(&playtak_command, "--draw needs refuse, accept or losing");
        } else if (OPT("--connections")) {
            NEED("--connections");
            if (!cli_parse_int(v, 1, PT_CONNECTIONS_MAX, &n))
                return cli_usage_error(&playtak_command, "--connections needs 1 to %d", PT_CONNECTIONS_MAX);
            *connections = (int)n;
        } else if (strcmp(arg, "--no-chat") == 0) {
            cfg->chat = false;
        } else if (strcmp(arg, "--no-reconnect") == 0) {
            cfg->reconnect = false;
        } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            cfg->verbose = true;
        } else {
            return cli_usage_error(&playtak_command, "unexpected argument '%s'", arg);
        }
#undef OPT
#undef NEED
    }
    if (!cfg->seeking && !cfg->accepting)
        return cli_usage_error(&playtak_command, "nothing to do: give --seek or --accept");
    if (cfg->user && *connections > 1)
        return cli_usage_error(&playtak_command,
                               "PlayTak gives a player one game at a time: --connections must be 1 "
                               "with --user");
    if (password_file && !cfg->user)
        return cli_usage_error(&playtak_command, "--password-file is for --user");
    if (cfg->ptn_dir && access(cfg->ptn_dir, W_OK | X_OK) != 0)
        return cli_fail(&playtak_command, "--ptn-dir %s: %s", cfg->ptn_dir, strerror(errno));
    if (cfg->user) return read_password(cfg, password_file);
    return CLI_OK;
}

int cmd_playtak(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help(&playtak_command);
    PtConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    snprintf(cfg.host, sizeof cfg.host, "playtak.com");
    snprintf(cfg.port, sizeof cfg.port, "10000");
    cfg.level = TAK_LEVEL_MAX;
    cfg.hash_mb = 64;
    cfg.threads = 1;
    cfg.accept_sizes = 0x1f8; /* 3..8 */
    cfg.accept_time_max_s = 100000000;
    cfg.accept_inc_max_s = 100000000;
    cfg.accept_rated = -1;
    cfg.draw = PT_DRAW_LOSING;
    cfg.chat = true;
    cfg.reconnect = true;
    cfg.margin_ms = 500;
    cfg.ping_every_s = PT_PING_EVERY_S;
    /* Not in --help: the tests shorten the ping interval (and with it the
     * silence that counts as a dead connection) to see one in seconds. */
    const char *ping = getenv("TAK_PLAYTAK_PING_S");
    long ping_s;
    if (ping && cli_parse_int(ping, 1, 3600, &ping_s)) cfg.ping_every_s = (int)ping_s;
    int connections = 1;
    int rc = parse_options(argc, argv, &cfg, &connections);
    if (rc != CLI_OK) return rc;
    /* Before the loop, which a lookup would hold up: the bots share these
     * addresses. A name that does not exist stops the bot here; a resolver
     * that cannot answer yet (at boot, say) does not: the bots look the name
     * up again as they reconnect, backing off. */
    char why[300];
    PtResolved resolved =
        pt_resolve(cfg.host, cfg.port, PT_RESOLVE_WAIT_S, &cfg.addrs, why, sizeof why);
    if (resolved == PT_RESOLVE_FAILED || (resolved == PT_RESOLVE_LATER && !cfg.reconnect))
        return cli_fail(&playtak_command, "cannot resolve %s: %s", cfg.host, why);
    if (resolved == PT_RESOLVE_LATER)
        fprintf(stderr, "tak playtak: cannot resolve %s yet: %s; trying again\n", cfg.host, why);

    PtBot *bots = calloc((size_t)connections, sizeof *bots);
    if (!bots) {
        if (cfg.addrs) freeaddrinfo(cfg.addrs);
        return cli_fail(&playtak_command, "out of memory");
    }
    int made = 0;
    for (; made < connections; made++)
        if (!pt_bot_init(&bots[made], &cfg, made + 1)) {
            pt_bot_free(&bots[made]);
            break;
        }
    if (made < connections) {
        for (int i = 0; i < made; i++) pt_bot_free(&bots[i]);
        free(bots);
        if (cfg.addrs) freeaddrinfo(cfg.addrs);
        return cli_fail(&playtak_command, "out of memory for %d engines of %zu MB", connections, cfg.hash_mb);
    }

    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    for (;;) {
        struct pollfd fds[PT_CONNECTIONS_MAX * 2];
        int nfds = 0, live = 0;
        for (int i = 0; i < connections; i++) {
            if (pt_bot_is_done(&bots[i])) continue;
            live++;
            int own[2];
            int k = pt_bot_poll_fds(&bots[i], own);
            for (int j = 0; j < k; j++) fds[nfds++] = (struct pollfd){.fd = own[j], .events = POLLIN};
        }
        if (live == 0 || interrupted) break;
        poll(fds, (nfds_t)nfds, 100);
        double now = cli_seconds();
        for (int i = 0; i < connections; i++) pt_bot_step(&bots[i], now);
    }
    bool failed = false;
    for (int i = 0; i < connections; i++) {
        if (bots[i].failed || (cfg.games > 0 && bots[i].games_done < cfg.games)) failed = true;
        pt_bot_free(&bots[i]);
    }
    free(bots);
    if (cfg.addrs) freeaddrinfo(cfg.addrs);
    if (interrupted) return CLI_OK;
    return failed ? CLI_BAD_INPUT : CLI_OK;
}
