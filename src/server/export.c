/*
 * export.c: a game in PTN, for the "export" message and the download link
 * of the players' pages: the moves and result with the site's tags (the
 * players' names and ratings when it began, date, time, clock), and an
 * imported game's own tags, comments and marks.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static bool same_tag_name(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

/* The imported branches that still leave the game where they did: those
 * of the main line within the `common` plies the game still shares with
 * the import, and the branches of branches kept; each with its notes.
 * False when out of memory. */
static bool keep_branches(TakPtn *ptn, TakPtn *src, size_t common) {
    int *kept = malloc((src->branch_count ? src->branch_count : 1) * sizeof *kept);
    if (kept == NULL) return false;
    for (size_t k = 0; k < src->branch_count; k++) {
        TakPtnBranch *b = &src->branches[k];
        kept[k] = -1;
        int parent = b->parent < 0 ? -1 : kept[b->parent];
        if (b->parent < 0 ? b->start > common : parent < 0) continue;
        TakError err;
        int index = tak_ptn_add_branch(ptn, b->name, parent, b->start, &err);
        if (index < 0) continue; /* the game ends before it, say */
        for (size_t i = b->start; i < b->game.count; i++)
            if (!tak_ptn_play(ptn, index, b->game.moves[i], b->comments[i], b->marks[i], &err)) break;
        TakPtnBranch *to = &ptn->branches[index];
        to->preface = b->preface;
        b->preface = NULL;
        memcpy(to->result, b->result, sizeof to->result);
        kept[k] = index;
    }
    free(kept);
    return true;
}

/* An imported game's export gives back what the import said: its tags (but
 * those of the rules and the result, which the game's own state writes),
 * its opening comments, and each ply's comment and marks as long as the
 * game still follows the imported moves, and its branches that still leave
 * it where they did. False when out of memory. */
static bool keep_import(TakPtn *ptn, const char *imported) {
    static const char *const own[] = {"Size", "Komi", "Flats", "Caps", "TPS", "Result"};
    TakPtn src;
    TakError err;
    if (!tak_ptn_read(imported, strlen(imported), &src, &err)) return true; /* read once already */
    bool ok = true;
    for (size_t i = 0; ok && i < src.tag_count; i++) {
        bool skip = false;
        for (size_t k = 0; k < sizeof own / sizeof *own; k++)
            skip |= same_tag_name(src.tags[i].name, own[k]);
        if (!skip) ok = tak_ptn_set_tag(ptn, src.tags[i].name, src.tags[i].value);
    }
    if (ok && src.preface) {
        ptn->preface = src.preface;
        src.preface = NULL;
    }
    size_t n = src.game.count < ptn->game.count ? src.game.count : ptn->game.count, common = 0;
    while (common < n && src.game.moves[common] == ptn->game.moves[common]) common++;
    for (size_t i = 0; ok && i < common; i++) {
        if (src.comments && src.comments[i] && ptn->comments && !ptn->comments[i]) {
            ptn->comments[i] = src.comments[i];
            src.comments[i] = NULL;
        }
        if (src.marks && src.marks[i] && ptn->marks && !ptn->marks[i]) {
            ptn->marks[i] = src.marks[i];
            src.marks[i] = NULL;
        }
    }
    if (ok) ok = keep_branches(ptn, &src, common);
    tak_ptn_free(&src);
    return ok;
}

char *export_ptn(const LiveGame *g, TakError *err) {
    TakPtn ptn;
    if (!tak_ptn_from_game(&ptn, &g->game, err)) return NULL;
    tak_ptn_set_tag(&ptn, "Site", "tak serve");
    for (int c = 0; c < 2; c++) {
        char who[64];
        if (g->info.engine_color == c)
            snprintf(who, sizeof who, "Tak engine, level %d", g->info.engine_level);
        else
            snprintf(who, sizeof who, "%s", g->info.name[c][0] ? g->info.name[c] : "Anonymous");
        tak_ptn_set_tag(&ptn, c ? "Player2" : "Player1", who);
        /* A named player's rating when the game began. */
        if (g->info.rating[c] > 0) {
            char rating[24];
            snprintf(rating, sizeof rating, "%.0f", g->info.rating[c]);
            tak_ptn_set_tag(&ptn, c ? "Rating2" : "Rating1", rating);
        }
    }
    if (g->info.created_s > 0) {
        time_t t = (time_t)g->info.created_s;
        struct tm tm;
        char date[16], hms[16];
        gmtime_r(&t, &tm);
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
        strftime(hms, sizeof hms, "%H:%M:%S", &tm);
        tak_ptn_set_tag(&ptn, "Date", date);
        tak_ptn_set_tag(&ptn, "Time", hms);
    }
    if (clock_timed(g)) {
        char tag[40];
        clock_tag(&g->info.clock, tag, sizeof tag);
        tak_ptn_set_tag(&ptn, "Clock", tag);
    }
    if (g->info.import_ptn && !keep_import(&ptn, g->info.import_ptn)) {
        tak_ptn_free(&ptn);
        tak_error_set(err, "out of memory");
        return NULL;
    }
    char *text = tak_ptn_write(&ptn);
    tak_ptn_free(&ptn);
    if (text == NULL) tak_error_set(err, "out of memory");
    return text;
}
