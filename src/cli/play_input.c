/*
 * play_input.c: reading the players' lines. At a terminal, GNU readline
 * gives line editing and a history (when the build found it: TAK_HAVE_READLINE);
 * otherwise, and always when stdin is a pipe, plain fgets, echoing each line
 * after its prompt so a scripted game's transcript reads like a real one.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef TAK_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "play.h"

void play_input_init(PlayInput *in) {
    in->tty = isatty(STDIN_FILENO);
    in->echo = !in->tty;
#ifdef TAK_HAVE_READLINE
    in->readline = in->tty && isatty(STDOUT_FILENO);
    if (in->readline) rl_readline_name = "tak";
#else
    in->readline = false;
#endif
}

void play_input_free(PlayInput *in) {
#ifdef TAK_HAVE_READLINE
    if (in->readline) clear_history();
#else
    (void)in;
#endif
}

/* Removes white space at both ends, moving the text to the start of buf. */
static void trim(char *buf) {
    char *start = buf;
    while (isspace((unsigned char)*start)) start++;
    size_t n = strlen(start);
    while (n > 0 && isspace((unsigned char)start[n - 1])) n--;
    memmove(buf, start, n);
    buf[n] = '\0';
}

bool play_read_line(PlayInput *in, const char *prompt, char *buf, size_t cap) {
#ifdef TAK_HAVE_READLINE
    if (in->readline) {
        fflush(stdout);
        char *line = readline(prompt);
        if (line == NULL) {
            printf("\n");
            return false;
        }
        snprintf(buf, cap, "%s", line);
        free(line);
        trim(buf);
        /* History holds what was typed, without repeats of the line before. */
        HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
        if (*buf && (last == NULL || strcmp(last->line, buf) != 0)) add_history(buf);
        return true;
    }
#endif
    fputs(prompt, stdout);
    fflush(stdout);
    if (fgets(buf, (int)cap, stdin) == NULL) {
        printf("\n");
        return false;
    }
    if (strchr(buf, '\n') == NULL) {
        /* Longer than any move or command: drop the rest of the line too. */
        int c;
        while ((c = getchar()) != EOF && c != '\n') {}
    }
    trim(buf);
    if (in->echo) printf("%s\n", buf);
    return true;
}

int play_ask_yes_no(PlayInput *in, const char *question, bool dflt) {
    char prompt[256], answer[64];
    snprintf(prompt, sizeof prompt, "%s [%s] ", question, dflt ? "Y/n" : "y/N");
    for (;;) {
        if (!play_read_line(in, prompt, answer, sizeof answer)) return -1;
        if (answer[0] == '\0') return dflt;
        char c = (char)tolower((unsigned char)answer[0]);
        if (c == 'y') return 1;
        if (c == 'n') return 0;
        printf("Please answer yes or no.\n");
    }
}

bool play_input_key_pressed(PlayInput *in, int ms) {
    if (!in->tty) return false;
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&p, 1, ms) <= 0 || !(p.revents & POLLIN)) return false;
    /* The terminal is in line mode here: drop the line typed. */
    char junk[256];
    ssize_t n = read(STDIN_FILENO, junk, sizeof junk);
    (void)n;
    return true;
}
