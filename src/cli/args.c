/*
 * args.c: helpers every subcommand shares: help and usage messages, options
 * with values, numbers, reading a whole file or stdin, and a clock. Kept
 * apart so that each subcommand's file is only about its own job.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int cli_help(const CliCommand *cmd) {
    printf("usage: tak %s %s\n\n%s", cmd->name, cmd->usage, cmd->help);
    return CLI_OK;
}

int cli_usage_error(const CliCommand *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tak %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: tak %s %s\nTry 'tak %s --help'.\n", cmd->name, cmd->usage, cmd->name);
    return CLI_USAGE;
}

int cli_fail(const CliCommand *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tak %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_BAD_INPUT;
}

int cli_fail_error(const CliCommand *cmd, const char *context, const TakError *err) {
    char why[TAK_ERROR_MESSAGE_MAX + 64];
    tak_error_describe(err, why, sizeof why);
    if (context == NULL) return cli_fail(cmd, "%s", why);
    return cli_fail(cmd, "%s: %s", context, why);
}

int cli_read_tps(const CliCommand *cmd, const char *tps, const TakRules *rules, TakPosition *pos) {
    TakError err;
    tak_error_clear(&err);
    if (tak_tps_read(tps, rules, pos, &err)) return CLI_OK;
    char context[TAK_TPS_MAX + 16];
    snprintf(context, sizeof context, "bad TPS '%.*s'", TAK_TPS_MAX, tps);
    return cli_fail_error(cmd, context, &err);
}

int cli_single_argument(const CliCommand *cmd, int argc, char **argv, const char *what,
                        const char **arg) {
    int first = 1;
    bool after_dashes = first < argc && strcmp(argv[first], "--") == 0;
    if (after_dashes) first++;
    if (first >= argc) return cli_usage_error(cmd, "missing %s", what);
    /* A lone "-" is an argument (stdin), not an option. */
    if (!after_dashes && argv[first][0] == '-' && argv[first][1] != '\0')
        return cli_usage_error(cmd, "unknown option '%s'", argv[first]);
    if (first + 1 < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[first + 1]);
    *arg = argv[first];
    return CLI_OK;
}

bool cli_option(int argc, char **argv, int *i, const char *name, const char **value) {
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0') return false;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return true;
}

bool cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    }
    return false;
}

bool cli_parse_int(const char *text, long min, long max, long *out) {
    if (text == NULL || *text == '\0') return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) return false;
    *out = v;
    return true;
}

bool cli_parse_pair(const char *text, char sep, long min_a, long max_a, long min_b, long max_b,
                    long *a, long *b) {
    char buf[64];
    if (text == NULL || strlen(text) >= sizeof buf) return false;
    strcpy(buf, text);
    char *mid = strchr(buf, sep);
    if (!mid) return false;
    *mid = '\0';
    return cli_parse_int(buf, min_a, max_a, a) && cli_parse_int(mid + 1, min_b, max_b, b);
}

bool cli_parse_komi(const char *text, int *half_komi) {
    if (text == NULL || *text == '\0') return false;
    const char *p = text;
    bool negative = *p == '-';
    if (*p == '-' || *p == '+') p++;
    if (*p < '0' || *p > '9') return false;
    long whole = 0;
    while (*p >= '0' && *p <= '9') {
        whole = whole * 10 + (*p++ - '0');
        if (whole > TAK_MAX_HALF_KOMI) return false;
    }
    long half = 2 * whole;
    if (*p == '.') {
        p++;
        /* Only .0 and .5 are komi values (".50" and ".00" too). */
        if (*p == '5')
            half += 1;
        else if (*p != '0')
            return false;
        p++;
        while (*p == '0') p++;
    }
    if (*p != '\0' || half > TAK_MAX_HALF_KOMI) return false;
    *half_komi = (int)(negative ? -half : half);
    return true;
}

char *cli_read_file(const char *path, size_t *len) {
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1) break;
        char *bigger = realloc(buf, cap * 2);
        if (bigger == NULL) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf != NULL && ferror(f)) {
        int saved = errno ? errno : EIO;
        free(buf);
        buf = NULL;
        errno = saved;
    }
    if (!is_stdin) {
        int saved = errno;
        fclose(f);
        errno = saved;
    }
    if (buf == NULL) return NULL;
    buf[n] = '\0';
    *len = n;
    return buf;
}

double cli_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
