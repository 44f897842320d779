/*
 * player.c: the two kinds of match player behind one face. A program runs as
 * `/bin/sh -c COMMAND` in its own process group (so a kill reaches whatever
 * it started), its stdin a socket we write with MSG_NOSIGNAL (a dead engine
 * gives EPIPE, not a signal) and its stdout a pipe read with poll() against
 * deadlines. Our own engine is a TakTeiSession whose output lines go to a
 * queue that player_read waits on.
 */
#define _GNU_SOURCE /* pipe2, accept4-style flags */

#include "player.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tak/tei.h"

extern char **environ;

#define READ_BUF 65536

/* Output of the in-process engine, waiting to be read. */
typedef struct Line {
    struct Line *next;
    char text[];
} Line;

struct Player {
    bool is_process;
    /* A process. */
    pid_t pid;
    int in_fd, out_fd;
    char buf[READ_BUF];
    size_t start, end; /* unread bytes: buf[start..end) */
    bool eof;
    /* In process. */
    TakTeiSession *session;
    pthread_mutex_t lock;
    pthread_cond_t ready;
    Line *head, *tail;
};

int64_t player_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int ms_until(int64_t deadline) {
    int64_t left = deadline - player_now_ms();
    return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

/* ---- In process ------------------------------------------------------ */

static void queue_line(const char *text, void *user) {
    Player *p = user;
    size_t n = strlen(text);
    Line *line = malloc(sizeof *line + n + 1);
    if (line == NULL) return; /* the reader times out rather than crash */
    memcpy(line->text, text, n + 1);
    line->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->tail) p->tail->next = line;
    else p->head = line;
    p->tail = line;
    pthread_cond_signal(&p->ready);
    pthread_mutex_unlock(&p->lock);
}

static Player *start_self(int hash_mb, TakError *err) {
    Player *p = calloc(1, sizeof *p);
    if (p == NULL) {
        tak_error_set(err, "out of memory");
        return NULL;
    }
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&p->ready, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&p->lock, NULL);
    TakTeiConfig config = {.hash_mb = hash_mb};
    p->session = tak_tei_new(&config, queue_line, p);
    if (p->session == NULL) {
        pthread_cond_destroy(&p->ready);
        pthread_mutex_destroy(&p->lock);
        free(p);
        tak_error_set(err, "cannot create the engine (out of memory?)");
        return NULL;
    }
    return p;
}

static int read_self(Player *p, char *buf, size_t cap, int64_t deadline) {
    struct timespec until = {.tv_sec = deadline / 1000, .tv_nsec = (deadline % 1000) * 1000000};
    pthread_mutex_lock(&p->lock);
    while (p->head == NULL) {
        if (pthread_cond_timedwait(&p->ready, &p->lock, &until) == ETIMEDOUT && p->head == NULL) {
            pthread_mutex_unlock(&p->lock);
            return 0;
        }
    }
    Line *line = p->head;
    p->head = line->next;
    if (p->head == NULL) p->tail = NULL;
    pthread_mutex_unlock(&p->lock);
    snprintf(buf, cap, "%s", line->text);
    free(line);
    return 1;
}

static void stop_self(Player *p) {
    tak_tei_free(p->session);
    for (Line *l = p->head, *next; l != NULL; l = next) {
        next = l->next;
        free(l);
    }
    pthread_cond_destroy(&p->ready);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* ---- A process ------------------------------------------------------- */

static Player *start_process(const char *command, TakError *err) {
    int sv[2] = {-1, -1}, out[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(out, O_CLOEXEC) != 0) {
        tak_error_set(err, "cannot make pipes: %s", strerror(errno));
        goto fail;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, sv[1], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    char sh[] = "/bin/sh", dash_c[] = "-c";
    char *cmd = strdup(command);
    char *argv[] = {sh, dash_c, cmd, NULL};
    pid_t pid;
    int rc = cmd ? posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ) : ENOMEM;
    free(cmd);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        tak_error_set(err, "cannot start '%s': %s", command, strerror(rc));
        goto fail;
    }
    close(sv[1]);
    close(out[1]);
    Player *p = calloc(1, sizeof *p);
    if (p == NULL) {
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
        close(sv[0]);
        close(out[0]);
        tak_error_set(err, "out of memory");
        return NULL;
    }
    p->is_process = true;
    p->pid = pid;
    p->in_fd = sv[0];
    p->out_fd = out[0];
    fcntl(p->in_fd, F_SETFL, fcntl(p->in_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    return p;
fail:
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0) close(sv[i]);
        if (out[i] >= 0) close(out[i]);
    }
    return NULL;
}

static bool send_process(Player *p, const char *line, int64_t deadline) {
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (msg == NULL) return false;
    memcpy(msg, line, n);
    msg[n++] = '\n';
    size_t done = 0;
    bool ok = true;
    while (done < n) {
        ssize_t k = send(p->in_fd, msg + done, n - done, MSG_NOSIGNAL);
        if (k > 0) {
            done += (size_t)k;
            continue;
        }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = {.fd = p->in_fd, .events = POLLOUT};
            if (poll(&pfd, 1, ms_until(deadline)) > 0) continue;
            if (player_now_ms() < deadline) continue;
        }
        ok = false;
        break;
    }
    free(msg);
    return ok;
}

/* Takes one line out of the buffer, if a whole one is there (or the buffer
 * is full, or the stream ended with a partial line). */
static bool take_line(Player *p, char *buf, size_t cap) {
    char *nl = memchr(p->buf + p->start, '\n', p->end - p->start);
    size_t len;
    if (nl != NULL) len = (size_t)(nl - (p->buf + p->start));
    else if (p->end - p->start == READ_BUF || (p->eof && p->end > p->start)) len = p->end - p->start;
    else return false;
    size_t copy = len < cap - 1 ? len : cap - 1;
    memcpy(buf, p->buf + p->start, copy);
    if (copy > 0 && buf[copy - 1] == '\r') copy--;
    buf[copy] = '\0';
    p->start += len + (nl != NULL);
    return true;
}

static int read_process(Player *p, char *buf, size_t cap, int64_t deadline) {
    for (;;) {
        if (take_line(p, buf, cap)) return 1;
        if (p->eof) return -1;
        if (p->start > 0) {
            memmove(p->buf, p->buf + p->start, p->end - p->start);
            p->end -= p->start;
            p->start = 0;
        }
        ssize_t k = read(p->out_fd, p->buf + p->end, READ_BUF - p->end);
        if (k > 0) {
            p->end += (size_t)k;
            continue;
        }
        if (k == 0) {
            p->eof = true;
            continue;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            p->eof = true;
            continue;
        }
        struct pollfd pfd = {.fd = p->out_fd, .events = POLLIN};
        int wait = ms_until(deadline);
        if (wait == 0 && player_now_ms() >= deadline) return 0;
        if (poll(&pfd, 1, wait) == 0 && player_now_ms() >= deadline) return 0;
    }
}

static void stop_process(Player *p) {
    send_process(p, "quit", player_now_ms() + 100);
    close(p->in_fd);
    /* Give it half a second to leave; WNOWAIT keeps the pid ours (a zombie)
     * until the group has been killed, so the kill cannot hit a stranger. */
    int64_t until = player_now_ms() + 500;
    siginfo_t info;
    for (;;) {
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) break;
        if (info.si_pid == p->pid || player_now_ms() >= until) break;
        struct timespec ten_ms = {0, 10 * 1000 * 1000};
        nanosleep(&ten_ms, NULL);
    }
    kill(-p->pid, SIGKILL);
    while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    close(p->out_fd);
    free(p);
}

/* ---- Either ---------------------------------------------------------- */

Player *player_start(const TakPlayerSpec *spec, int self_hash_mb, TakError *err) {
    if (spec->command != NULL) return start_process(spec->command, err);
    return start_self(self_hash_mb, err);
}

bool player_send(Player *p, const char *line, int64_t deadline_ms) {
    if (p->is_process) return send_process(p, line, deadline_ms);
    tak_tei_handle(p->session, line, strlen(line));
    return true;
}

int player_read(Player *p, char *buf, size_t cap, int64_t deadline_ms) {
    if (p->is_process) return read_process(p, buf, cap, deadline_ms);
    return read_self(p, buf, cap, deadline_ms);
}

void player_stop(Player *p) {
    if (p == NULL) return;
    if (p->is_process) stop_process(p);
    else stop_self(p);
}
