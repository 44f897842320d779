/*
 * layers.c: TAKAT solved layer by layer, for the whole game.
 *
 * Stones never leave the board, so the stones on it only grow: a drop goes
 * from layer n (n stones on the board) to layer n + 1, a move stays in
 * layer n. The fullest layer is solved first, then each layer below it with
 * the values of the one above. Within a layer:
 *
 *   - every position is first judged from its turns alone: won when a turn
 *     makes a stack of six for White or drops into a lost position of the
 *     layer above; lost when every turn reaches a won position (or there is
 *     no turn);
 *   - then values spread backwards, round after round, from the positions
 *     decided in the round before: the predecessors of a lost position are
 *     won, and a predecessor of a won position is looked at again and is lost
 *     when all its turns now reach won positions. Predecessors are exact and
 *     cheap to find: the ko cell holds the stone the last turn put there, so
 *     it came from one of the ko cell's neighbours; each candidate is checked
 *     with the forward rules (takat_turn_check) before anything is set;
 *   - what is never decided is a draw.
 *
 * Positions are not hashed: a layer is a flat array of 2-bit values,
 * addressed by a perfect index of (the heights, the colours of the stones
 * in cell order, the side to move, the ko cell). Layer files carry a checksum,
 * so a run can stop after any layer and go on later; within a layer the work
 * is saved every few minutes (a round is done in segments of its chunks, and
 * the values and both frontiers at a segment's end are a complete state).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#if !defined(__wasi__)
#include <pthread.h>
#define LAYERS_THREADS 1
#else
#define LAYERS_THREADS 0
#endif

#define KO_SLOTS 8          /* the ko cell 0..6, or 7: none */
#define HEIGHT_CODES 279936 /* 6^7: heights 0..5 in each of the 7 cells */
#define FILE_MAGIC "TAKATLY1"
#define PART_MAGIC "TAKATCP1"
#define SEGMENTS 64 /* a round in at most this many pieces, a saved point after any */

/* The ranking tables of one layer: which height tuples and colour strings
 * it has, and the rank of each. */
typedef struct Shape {
    int n, wmin, wmax;
    uint32_t comps; /* height tuples summing to n */
    uint8_t (*heights)[TAKAT_CELLS];
    uint32_t colours;      /* colour strings of n stones (bit = Black) with wmin..wmax White */
    uint32_t *strings;     /* by rank */
    uint32_t *colour_rank; /* [1 << n]: rank, or UINT32_MAX */
    uint64_t slots;
} Shape;

struct TakatLayers {
    int white, black;   /* stones each side has in all */
    int32_t *comp_rank; /* [HEIGHT_CODES]: rank among the tuples of its sum */
    Shape shape[TAKAT_STONES_WHITE + TAKAT_STONES_BLACK + 2];
    uint64_t *values[TAKAT_STONES_WHITE + TAKAT_STONES_BLACK + 2]; /* loaded layers, or NULL */
    size_t mapped[TAKAT_STONES_WHITE + TAKAT_STONES_BLACK + 2]; /* bytes of a mapped file, or 0 */
#if LAYERS_THREADS
    pthread_mutex_t lock; /* takat_layers_value: layers are mapped on first use */
#endif
    char dir[1024];
    TakatLayersProgress progress; /* after each round, or NULL */
    void *progress_ctx;
    double checkpoint_every;            /* seconds between saved points; < 0: never */
    const volatile sig_atomic_t *stop;  /* save and give up when nonzero, or NULL */
};

/* ---- ranking ------------------------------------------------------------- */

static int height_code(const uint8_t *h) {
    int code = 0;
    for (int c = TAKAT_CELLS - 1; c >= 0; c--) code = code * 6 + h[c];
    return code;
}

/* Frees a layer's tables (a failed build leaves none half made); false. */
static bool shape_drop(Shape *s) {
    free(s->heights);
    free(s->colour_rank);
    free(s->strings);
    s->heights = NULL;
    s->colour_rank = NULL;
    s->strings = NULL;
    return false;
}

static bool shape_build(TakatLayers *L, int n) {
    Shape *s = &L->shape[n];
    if (s->heights) return true;
    s->n = n;
    s->wmin = n - L->black > 0 ? n - L->black : 0;
    s->wmax = n < L->white ? n : L->white;
    s->comps = 0;
    for (int code = 0; code < HEIGHT_CODES; code++) {
        int sum = 0;
        for (int c = 0, x = code; c < TAKAT_CELLS; c++, x /= 6) sum += x % 6;
        if (sum == n) s->comps++;
    }
    s->heights = malloc((s->comps ? s->comps : 1) * sizeof *s->heights);
    s->colour_rank = malloc(((size_t)1 << n) * sizeof *s->colour_rank);
    if (!s->heights || !s->colour_rank) return shape_drop(s);
    uint32_t k = 0;
    for (int code = 0; code < HEIGHT_CODES; code++) {
        uint8_t h[TAKAT_CELLS];
        int sum = 0;
        for (int c = 0, x = code; c < TAKAT_CELLS; c++, x /= 6) sum += h[c] = (uint8_t)(x % 6);
        if (sum != n) continue;
        memcpy(s->heights[k], h, TAKAT_CELLS);
        L->comp_rank[code] = (int32_t)k++;
    }
    s->colours = 0;
    for (uint32_t bits = 0; bits < ((uint32_t)1 << n); bits++) {
        int w = n - __builtin_popcount(bits);
        s->colour_rank[bits] = w >= s->wmin && w <= s->wmax ? s->colours++ : UINT32_MAX;
    }
    s->strings = malloc((s->colours ? s->colours : 1) * sizeof *s->strings);
    if (!s->strings) return shape_drop(s);
    for (uint32_t bits = 0; bits < ((uint32_t)1 << n); bits++)
        if (s->colour_rank[bits] != UINT32_MAX) s->strings[s->colour_rank[bits]] = bits;
    s->slots = (uint64_t)s->comps * s->colours * 2 * KO_SLOTS;
    return true;
}

static uint64_t index_of(const TakatLayers *L, const TakatPosition *pos) {
    int n = pos->on_board[0] + pos->on_board[1];
    const Shape *s = &L->shape[n];
    uint32_t bits = 0;
    int off = 0;
    for (int c = 0; c < TAKAT_CELLS; c++) {
        bits |= (uint32_t)pos->stones[c] << off;
        off += pos->height[c];
    }
    uint64_t comp = (uint64_t)L->comp_rank[height_code(pos->height)];
    uint64_t colour = s->colour_rank[bits];
    int ko = pos->ko == TAKAT_NO_CELL ? 7 : pos->ko;
    return ((comp * s->colours + colour) * 2 + pos->side) * KO_SLOTS + (uint64_t)ko;
}

/* The position at `index` of layer `s`; false for a slot that is none (a ko
 * cell that is empty). */
static bool position_at(const TakatLayers *L, const Shape *s, uint64_t index, TakatPosition *pos) {
    int ko = (int)(index % KO_SLOTS);
    index /= KO_SLOTS;
    int side = (int)(index & 1);
    index >>= 1;
    uint32_t bits = s->strings[index % s->colours];
    const uint8_t *h = s->heights[index / s->colours];
    if (ko != 7 && h[ko] == 0) return false;
    memset(pos, 0, sizeof *pos);
    int off = 0;
    for (int c = 0; c < TAKAT_CELLS; c++) {
        pos->height[c] = h[c];
        pos->stones[c] = (uint8_t)((bits >> off) & ((1u << h[c]) - 1));
        off += h[c];
    }
    pos->on_board[TAKAT_BLACK] = (uint8_t)__builtin_popcount(bits);
    pos->on_board[TAKAT_WHITE] = (uint8_t)(s->n - pos->on_board[TAKAT_BLACK]);
    pos->total[TAKAT_WHITE] = (uint8_t)L->white;
    pos->total[TAKAT_BLACK] = (uint8_t)L->black;
    pos->side = (uint8_t)side;
    pos->ko = ko == 7 ? TAKAT_NO_CELL : (uint8_t)ko;
    return true;
}

/* ---- 2-bit values ---------------------------------------------------------- */

static inline int value_get(const uint64_t *v, uint64_t i) {
    return (int)((__atomic_load_n(&v[i >> 5], __ATOMIC_RELAXED) >> ((i & 31) * 2)) & 3);
}

/* Sets an unknown value; false when it was already set. */
static inline bool value_set(uint64_t *v, uint64_t i, int value) {
    uint64_t *w = &v[i >> 5], shift = (i & 31) * 2;
    uint64_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
    for (;;) {
        if ((old >> shift) & 3) return false;
        uint64_t next = old | ((uint64_t)value << shift);
        if (__atomic_compare_exchange_n(w, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return true;
    }
}

static inline void bit_set(uint64_t *b, uint64_t i) {
    __atomic_fetch_or(&b[i >> 6], (uint64_t)1 << (i & 63), __ATOMIC_RELAXED);
}

static uint64_t words_of(uint64_t slots) { return (slots + 31) / 32; }

/* ---- the board's symmetries ------------------------------------------------------- */

/* The 6 symmetries of the board that keep the red cells red: turns by a
 * third and the reflections through a red cell. Around the ring (a2, b3, c3,
 * c2, b1, a1) the red cells are every other one; the centre stays. The rules
 * only know adjacency and red cells, so images of a position have one value.
 * Each layer is solved on one image of each position (the one with the least
 * index) and its value written to every image. */
static const uint8_t ring[6] = {0, 1, 4, 6, 5, 2};
static uint8_t sym_cell[6][TAKAT_CELLS];

static void symmetries_init(void) {
    if (sym_cell[1][0] || sym_cell[1][1]) return;
    for (int g = 0; g < 6; g++) {
        sym_cell[g][TAKAT_CENTRE] = TAKAT_CENTRE;
        for (int i = 0; i < 6; i++) {
            int j = g < 3 ? (i + 2 * g) % 6 : (2 * (g - 3) - i + 6) % 6;
            sym_cell[g][ring[i]] = ring[j];
        }
    }
}

static void image_of(const TakatPosition *pos, int g, TakatPosition *out) {
    *out = *pos;
    for (int c = 0; c < TAKAT_CELLS; c++) {
        int d = sym_cell[g][c];
        out->height[d] = pos->height[c];
        out->stones[d] = pos->stones[c];
    }
    if (pos->ko != TAKAT_NO_CELL) out->ko = sym_cell[g][pos->ko];
}

/* The indexes of the 6 images of `pos` (some may be equal); returns the least. */
static uint64_t images(const TakatLayers *L, const TakatPosition *pos, uint64_t idx[6]) {
    uint64_t least = UINT64_MAX;
    for (int g = 0; g < 6; g++) {
        TakatPosition im;
        image_of(pos, g, &im);
        idx[g] = index_of(L, &im);
        if (idx[g] < least) least = idx[g];
    }
    return least;
}

/* ---- judging a position from its turns ----------------------------------------- */

/* The value of a child for its side to move: a stack of six is White's win;
 * otherwise the table of its layer (UNKNOWN while not decided). */
static int child_value(const TakatLayers *L, const TakatPosition *child) {
    if (takat_has_six(child))
        return child->side == TAKAT_WHITE ? TAKAT_VALUE_WIN : TAKAT_VALUE_LOSS;
    int n = child->on_board[0] + child->on_board[1];
    return value_get(L->values[n], index_of(L, child));
}

/* WIN when a turn reaches a lost child, LOSS when every turn reaches a won
 * one (or there is none), else UNKNOWN. */
static int judge(const TakatLayers *L, const TakatPosition *pos) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    bool all_won = true;
    for (int i = 0; i < n; i++) {
        TakatPosition child = *pos;
        takat_position_apply(&child, list.turns[i]);
        int v = child_value(L, &child);
        if (v == TAKAT_VALUE_LOSS) return TAKAT_VALUE_WIN;
        if (v != TAKAT_VALUE_WIN) all_won = false;
    }
    return all_won ? TAKAT_VALUE_LOSS : TAKAT_VALUE_UNKNOWN;
}

/* Whether every turn of `pos` reaches a won position (it is lost): stops at
 * the first that does not. */
static bool all_turns_won(const TakatLayers *L, const TakatPosition *pos) {
    TakatTurnList list;
    int n = takat_turns_generate(pos, &list);
    for (int i = 0; i < n; i++) {
        TakatPosition child = *pos;
        takat_position_apply(&child, list.turns[i]);
        if (child_value(L, &child) != TAKAT_VALUE_WIN) return false;
    }
    return true;
}

/* ---- one layer ------------------------------------------------------------------- */

typedef struct Work {
    TakatLayers *L;
    int n;
    uint64_t *values, *frontier, *next;
    uint64_t chunks, chunk_slots;
    int round; /* 0: judge everything; else: spread from the frontier */
    const uint8_t *height_class; /* [comps]: HEIGHTS_* */
} Work;

/* How a layer's height tuple stands among its images' (the comp rank is
 * the most significant part of an index, and ranks follow the heights'
 * codes): some image has lower heights, so no position with these heights
 * is the least image of itself; or these are lower than every other
 * image's, so every position with them is; or an image has the same
 * heights, and the colours, side and ko decide. */
enum { HEIGHTS_NEVER_LEAST, HEIGHTS_ALWAYS_LEAST, HEIGHTS_TIED };

static uint8_t *height_classes(const Shape *s) {
    uint8_t *cls = malloc(s->comps ? s->comps : 1);
    if (!cls) return NULL;
    for (uint32_t k = 0; k < s->comps; k++) {
        int own = height_code(s->heights[k]), tied = 0, lower = 0;
        for (int g = 1; g < 6; g++) {
            uint8_t h[TAKAT_CELLS];
            for (int c = 0; c < TAKAT_CELLS; c++) h[sym_cell[g][c]] = s->heights[k][c];
            int code = height_code(h);
            lower |= code < own;
            tied |= code == own;
        }
        cls[k] = lower ? HEIGHTS_NEVER_LEAST : tied ? HEIGHTS_TIED : HEIGHTS_ALWAYS_LEAST;
    }
    return cls;
}

/* Sets `value` on every image of `pos` and marks the least for the next
 * round; returns 1 when this call decided it. */
static uint64_t decide(Work *w, const TakatPosition *pos, int value) {
    uint64_t idx[6];
    uint64_t least = images(w->L, pos, idx);
    if (!value_set(w->values, least, value)) return 0;
    for (int g = 0; g < 6; g++)
        if (idx[g] != least) value_set(w->values, idx[g], value);
    bit_set(w->next, least);
    return 1;
}

/* Spreads from `p` (decided this way) to its predecessors in the layer. */
static uint64_t spread(Work *w, const TakatPosition *p, int value) {
    TakatLayers *L = w->L;
    if (p->ko == TAKAT_NO_CELL) return 0;
    int k = p->ko, h = p->height[k];
    unsigned moved = (p->stones[k] >> (h - 1)) & 1u;
    uint64_t decided = 0;
    for (int f = 0; f < TAKAT_CELLS; f++) {
        if (!((takat_neighbours[k] >> f) & 1) || p->height[f] >= TAKAT_MAX_HEIGHT - 1) continue;
        TakatPosition q = *p;
        q.height[k]--;
        q.stones[k] &= (uint8_t)((1u << q.height[k]) - 1);
        q.stones[f] |= (uint8_t)(moved << q.height[f]);
        q.height[f]++;
        q.side ^= 1;
        q.ko = TAKAT_NO_CELL;
        if (!takat_turn_check(&q, takat_move(f, k), NULL)) continue;
        for (int ko = 0; ko < KO_SLOTS; ko++) {
            if (ko == f || (ko != 7 && q.height[ko] == 0)) continue;
            q.ko = ko == 7 ? TAKAT_NO_CELL : (uint8_t)ko;
            uint64_t qi = index_of(L, &q);
            if (value_get(w->values, qi)) continue;
            int qv = value == TAKAT_VALUE_LOSS ? TAKAT_VALUE_WIN
                     : all_turns_won(L, &q)    ? TAKAT_VALUE_LOSS
                                               : TAKAT_VALUE_UNKNOWN;
            if (qv) decided += decide(w, &q, qv);
        }
    }
    return decided;
}

/* One chunk of a round; returns how many positions it decided. */
static uint64_t work_chunk(void *ctx, uint64_t chunk) {
    Work *w = ctx;
    TakatLayers *L = w->L;
    uint64_t decided = 0;
    const Shape *s = &L->shape[w->n];
    uint64_t first = chunk * w->chunk_slots, last = first + w->chunk_slots;
    if (last > s->slots) last = s->slots;
    if (w->round == 0) {
        TakatPosition pos;
        uint64_t idx[6], per_comp = (uint64_t)s->colours * 2 * KO_SLOTS;
        for (uint64_t i = first; i < last; i++) {
            int cls = w->height_class[i / per_comp];
            if (cls == HEIGHTS_NEVER_LEAST) { /* on to the next height tuple */
                i = (i / per_comp + 1) * per_comp - 1;
                continue;
            }
            if (!position_at(L, s, i, &pos)) continue;
            if (value_get(w->values, i)) continue;
            if (cls == HEIGHTS_TIED && images(L, &pos, idx) != i) continue;
            int v = judge(L, &pos);
            if (v) decided += decide(w, &pos, v);
        }
        return decided;
    }
    /* chunk_slots is a multiple of 64: whole words of the frontier. */
    for (uint64_t word = first / 64; word * 64 < last; word++) {
        uint64_t bits = w->frontier[word];
        while (bits) {
            uint64_t i = word * 64 + (uint64_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            TakatPosition pos;
            if (!position_at(L, s, i, &pos)) continue;
            decided += spread(w, &pos, value_get(w->values, i));
        }
    }
    return decided;
}

/* Chunks [next, end) dealt out to threads, one at a time. */
typedef struct Chunks {
    uint64_t (*fn)(void *ctx, uint64_t chunk); /* returns a count to sum */
    void *ctx;
    uint64_t next, end; /* next taken with __atomic_fetch_add */
    uint64_t sum;
} Chunks;

static void *chunks_thread(void *arg) {
    Chunks *c = arg;
    uint64_t sum = 0;
    for (;;) {
        uint64_t chunk = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED);
        if (chunk >= c->end) break;
        sum += c->fn(c->ctx, chunk);
    }
    __atomic_fetch_add(&c->sum, sum, __ATOMIC_RELAXED);
    return NULL;
}

/* Runs fn on chunks [from, to) on `threads` threads (the caller is one of
 * them; a helper that cannot be started leaves its share to the rest) and
 * returns the sum of what it returned. */
static uint64_t run_chunks(uint64_t (*fn)(void *, uint64_t), void *ctx, uint64_t from,
                           uint64_t to, int threads) {
    Chunks c = {fn, ctx, from, to, 0};
    if (threads > TAKAT_LAYERS_MAX_THREADS) threads = TAKAT_LAYERS_MAX_THREADS;
#if LAYERS_THREADS
    pthread_t helper[TAKAT_LAYERS_MAX_THREADS];
    bool started[TAKAT_LAYERS_MAX_THREADS] = {false};
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&helper[i], NULL, chunks_thread, &c) == 0;
    chunks_thread(&c);
    for (int i = 1; i < threads; i++)
        if (started[i]) pthread_join(helper[i], NULL);
#else
    (void)threads;
    chunks_thread(&c);
#endif
    return c.sum;
}

/* ---- files --------------------------------------------------------------------------- */

typedef struct FileHeader {
    char magic[8];
    uint32_t layer, white, black, rounds;
    uint64_t slots, positions, wins, losses, draws;
    uint64_t checksum; /* FNV-1a over the value words */
    double seconds;
} FileHeader;

static uint64_t checksum(const uint64_t *v, uint64_t words) {
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < words; i++) {
        h ^= v[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void layer_path(const TakatLayers *L, int n, char *buf, size_t size) {
    snprintf(buf, size, "%s/takat-%d-%d-layer%02d.bin", L->dir, L->white, L->black, n);
}

/* Reads the header of layer n's file; false when it is missing or not ours. */
static bool read_header(const TakatLayers *L, int n, FileHeader *hd) {
    char path[1100];
    layer_path(L, n, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool ok = fread(hd, sizeof *hd, 1, f) == 1 && memcmp(hd->magic, FILE_MAGIC, 8) == 0 &&
              hd->layer == (uint32_t)n && hd->white == (uint32_t)L->white &&
              hd->black == (uint32_t)L->black && hd->slots == L->shape[n].slots;
    fclose(f);
    return ok;
}

/* Layer n's ranking tables, and its file's path and header; false (err says
 * why) when the tables cannot be built or the file is missing or not ours. */
static bool layer_file(TakatLayers *L, int n, char path[1100], FileHeader *hd, TakError *err) {
    if (!shape_build(L, n)) return tak_error_set(err, "out of memory for layer %d's tables", n);
    layer_path(L, n, path, 1100);
    if (!read_header(L, n, hd))
        return tak_error_set(err, "%s: missing or not a layer file of this game", path);
    return true;
}

static bool load_layer(TakatLayers *L, int n, TakError *err) {
    if (L->values[n]) return true;
    char path[1100];
    FileHeader hd;
    if (!layer_file(L, n, path, &hd, err)) return false;
    uint64_t words = words_of(hd.slots);
    uint64_t *v = malloc(words * sizeof *v);
    if (!v)
        return tak_error_set(err, "out of memory for layer %d (%llu values)", n,
                             (unsigned long long)hd.slots);
    FILE *f = fopen(path, "rb");
    bool ok =
        f && fseek(f, (long)sizeof hd, SEEK_SET) == 0 && fread(v, sizeof *v, words, f) == words;
    if (f) fclose(f);
    if (!ok || checksum(v, words) != hd.checksum) {
        free(v);
        return tak_error_set(
            err, "%s: %s", path,
            ok ? "checksum mismatch (a damaged file: remove it to solve the layer again)"
               : "cannot read");
    }
    L->values[n] = v;
    return true;
}

/* Forgets layer n's values (read, mapped or being solved). */
static void values_drop(TakatLayers *L, int n) {
    if (L->mapped[n])
        munmap((char *)L->values[n] - sizeof(FileHeader), L->mapped[n]);
    else
        free(L->values[n]);
    L->values[n] = NULL;
    L->mapped[n] = 0;
}

/* Layer n for looking positions up: its file mapped read-only rather than
 * read, so a game that walks through every layer holds only the pages it
 * touched (the full game's tables are 20 GB). The checksum is verify's
 * business: checking it here would read the whole file on first use. */
static bool map_layer(TakatLayers *L, int n, TakError *err) {
    if (L->values[n]) return true;
    char path[1100];
    FileHeader hd;
    if (!layer_file(L, n, path, &hd, err)) return false;
    size_t bytes = sizeof hd + words_of(hd.slots) * 8;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (uint64_t)st.st_size != bytes) {
        if (fd >= 0) close(fd);
        return tak_error_set(err, "%s: %s", path,
                             fd < 0 ? "cannot open" : "not the size its header says (damaged?)");
    }
    void *base = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) return tak_error_set(err, "%s: cannot map it", path);
    L->values[n] = (uint64_t *)((char *)base + sizeof hd);
    L->mapped[n] = bytes;
    return true;
}

/* Writes `head` then each of the `count` arrays of words to `path`, through
 * a temporary file that is on disk before it takes the name. */
static bool write_file(const char *path, const void *head, size_t head_size,
                       const uint64_t *const *arrays, const uint64_t *words, int count,
                       TakError *err) {
    char tmp[1110];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return tak_error_set(err, "cannot write %s: %s", tmp, strerror(errno));
    bool ok = fwrite(head, head_size, 1, f) == 1;
    for (int i = 0; ok && i < count; i++)
        ok = fwrite(arrays[i], sizeof(uint64_t), words[i], f) == words[i];
    ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return tak_error_set(err, "writing %s failed", path);
    }
    return true;
}

static bool save_layer(const TakatLayers *L, int n, const uint64_t *v, FileHeader *hd,
                       TakError *err) {
    char path[1100];
    layer_path(L, n, path, sizeof path);
    uint64_t words = words_of(hd->slots);
    hd->checksum = checksum(v, words);
    return write_file(path, hd, sizeof *hd, &v, &words, 1, err);
}

/* A layer's work in progress: the values and both frontiers at the end of a
 * segment, and where the round stood. */
typedef struct PartHeader {
    char magic[8];
    uint32_t layer, white, black, round;
    uint64_t slots, chunk; /* the first chunk of `round` not done yet */
    uint64_t decided;      /* decided so far in `round` */
    uint64_t checksum;     /* FNV-1a over the values, then the frontier, then the next */
    double seconds;        /* spent on the layer so far */
} PartHeader;

static void part_path(const TakatLayers *L, int n, char *buf, size_t size) {
    snprintf(buf, size, "%s/takat-%d-%d-layer%02d.part", L->dir, L->white, L->black, n);
}

static uint64_t part_checksum(const Work *w, uint64_t words, uint64_t bit_words) {
    uint64_t sums[3] = {checksum(w->values, words), checksum(w->frontier, bit_words),
                        checksum(w->next, bit_words)};
    return checksum(sums, 3);
}

static bool save_part(const Work *w, PartHeader *ph, uint64_t words, uint64_t bit_words,
                      TakError *err) {
    char path[1100];
    part_path(w->L, w->n, path, sizeof path);
    ph->checksum = part_checksum(w, words, bit_words);
    const uint64_t *arrays[3] = {w->values, w->frontier, w->next};
    const uint64_t sizes[3] = {words, bit_words, bit_words};
    return write_file(path, ph, sizeof *ph, arrays, sizes, 3, err);
}

/* Takes up a saved point of layer n, when there is one: 1 when taken, 0
 * when there is none, -1 (err says why) when it is damaged or not ours. */
static int load_part(Work *w, PartHeader *ph, uint64_t words, uint64_t bit_words, TakError *err) {
    char path[1100];
    part_path(w->L, w->n, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    const TakatLayers *L = w->L;
    bool ours = fread(ph, sizeof *ph, 1, f) == 1 && memcmp(ph->magic, PART_MAGIC, 8) == 0 &&
                ph->layer == (uint32_t)w->n && ph->white == (uint32_t)L->white &&
                ph->black == (uint32_t)L->black && ph->slots == L->shape[w->n].slots &&
                ph->chunk <= w->chunks;
    bool read = ours && fread(w->values, sizeof(uint64_t), words, f) == words &&
                fread(w->frontier, sizeof(uint64_t), bit_words, f) == bit_words &&
                fread(w->next, sizeof(uint64_t), bit_words, f) == bit_words;
    fclose(f);
    if (!read || part_checksum(w, words, bit_words) != ph->checksum) {
        tak_error_set(err, "%s: %s (remove it to solve the layer from its start)", path,
                      !ours ? "not a saved point of this layer" : !read ? "cannot read it" : "checksum mismatch");
        return -1;
    }
    return 1;
}

/* ---- the public side ---------------------------------------------------------------------- */

TakatLayers *takat_layers_open(const char *dir, int white, int black, TakError *err) {
    if (white < 1 || white > TAKAT_STONES_WHITE || black < 1 || black > TAKAT_STONES_BLACK) {
        tak_error_set(err, "stones: White 1-%d and Black 1-%d", TAKAT_STONES_WHITE,
                      TAKAT_STONES_BLACK);
        return NULL;
    }
    TakatLayers *L = calloc(1, sizeof *L);
    if (!L || !(L->comp_rank = malloc(HEIGHT_CODES * sizeof *L->comp_rank))) {
        free(L);
        tak_error_set(err, "out of memory");
        return NULL;
    }
#if LAYERS_THREADS
    pthread_mutex_init(&L->lock, NULL);
#endif
    if (strlen(dir) >= sizeof L->dir) {
        takat_layers_close(L);
        tak_error_set(err, "directory name too long");
        return NULL;
    }
    /* Reading is enough to look values up (tables on a read-only disk);
     * solving checks that it can write. */
    if (access(dir, R_OK | X_OK) != 0) {
        tak_error_set(err, "cannot read %s: %s", dir, strerror(errno));
        takat_layers_close(L);
        return NULL;
    }
    strcpy(L->dir, dir);
    L->checkpoint_every = 600;
    L->white = white;
    L->black = black;
    return L;
}

void takat_layers_close(TakatLayers *L) {
    if (!L) return;
    for (int n = 0; n < TAKAT_STONES_WHITE + TAKAT_STONES_BLACK + 2; n++) {
        free(L->shape[n].heights);
        free(L->shape[n].strings);
        free(L->shape[n].colour_rank);
        values_drop(L, n);
    }
    free(L->comp_rank);
#if LAYERS_THREADS
    pthread_mutex_destroy(&L->lock);
#endif
    free(L);
}

int takat_layers_top(const TakatLayers *L) { return L->white + L->black; }

/* The header of layer n's file, when there is one for this game. */
static bool header_of(const TakatLayers *L, int n, FileHeader *hd) {
    TakatLayers *m = (TakatLayers *)L; /* the shape tables are built on first use */
    return n >= 0 && n <= takat_layers_top(L) && shape_build(m, n) && read_header(L, n, hd);
}

static void stats_of(const FileHeader *hd, TakatLayerStats *stats) {
    stats->layer = (int)hd->layer;
    stats->positions = hd->positions;
    stats->wins = hd->wins;
    stats->losses = hd->losses;
    stats->draws = hd->draws;
    stats->rounds = (int)hd->rounds;
    stats->seconds = hd->seconds;
    stats->bytes = words_of(hd->slots) * 8;
    stats->checksum = hd->checksum;
    stats->resumed_round = -1;
}

bool takat_layers_have(const TakatLayers *L, int n) {
    FileHeader hd;
    return header_of(L, n, &hd);
}

bool takat_layers_solve(TakatLayers *L, int n, int threads, TakatLayerStats *stats, TakError *err) {
    double start = takat_seconds();
    int top = takat_layers_top(L);
    if (n < 0 || n > top) return tak_error_set(err, "no layer %d: layers run 0-%d", n, top);
    if (access(L->dir, W_OK) != 0)
        return tak_error_set(err, "cannot write in %s: %s", L->dir, strerror(errno));
    if (!shape_build(L, n)) return tak_error_set(err, "out of memory for layer %d's tables", n);
    if (n < top && !load_layer(L, n + 1, err)) return false;
    symmetries_init();
    const Shape *s = &L->shape[n];
    uint64_t words = words_of(s->slots), bit_words = (s->slots + 63) / 64;
    values_drop(L, n);
    L->values[n] = calloc(words, sizeof(uint64_t));
    uint64_t *frontier = calloc(bit_words, sizeof(uint64_t)),
             *next = calloc(bit_words, sizeof(uint64_t));
    uint8_t *height_class = height_classes(s);
    if (!L->values[n] || !frontier || !next || !height_class) {
        free(frontier);
        free(next);
        free(height_class);
        values_drop(L, n);
        return tak_error_set(err, "out of memory for layer %d (%llu positions)", n,
                             (unsigned long long)s->slots);
    }
    Work w = {.L = L, .n = n, .values = L->values[n], .frontier = frontier, .next = next,
              .height_class = height_class};
    w.chunk_slots = 1 << 16;
    w.chunks = (s->slots + w.chunk_slots - 1) / w.chunk_slots;
    PartHeader ph;
    int resumed = load_part(&w, &ph, words, bit_words, err);
    if (resumed < 0) {
        free(frontier);
        free(next);
        free(height_class);
        values_drop(L, n);
        return false;
    }
    int rounds = resumed ? (int)ph.round : 0;
    uint64_t chunk = resumed ? ph.chunk : 0, decided = resumed ? ph.decided : 0;
    start -= resumed ? ph.seconds : 0;
    uint64_t segment = (w.chunks + SEGMENTS - 1) / SEGMENTS;
    double saved = takat_seconds();
    for (;;) {
        w.round = rounds;
        while (chunk < w.chunks) {
            uint64_t to = chunk + segment < w.chunks ? chunk + segment : w.chunks;
            decided += run_chunks(work_chunk, &w, chunk, to, threads);
            chunk = to;
            bool stopping = L->stop && *L->stop;
            bool due = L->checkpoint_every >= 0 && takat_seconds() - saved >= L->checkpoint_every;
            if (chunk == w.chunks || !(stopping || due)) continue;
            PartHeader at = {.layer = (uint32_t)n, .white = (uint32_t)L->white,
                             .black = (uint32_t)L->black, .round = (uint32_t)rounds,
                             .slots = s->slots, .chunk = chunk, .decided = decided,
                             .seconds = takat_seconds() - start};
            memcpy(at.magic, PART_MAGIC, 8);
            bool ok = save_part(&w, &at, words, bit_words, err);
            saved = takat_seconds();
            if (ok && !stopping) continue;
            free(w.frontier);
            free(w.next);
            free(height_class);
            values_drop(L, n);
            if (ok)
                tak_error_set(err, "stopped in round %d; the work so far is saved, solve again to go on",
                              rounds);
            return false;
        }
        if (L->progress) L->progress(L->progress_ctx, n, rounds, decided, takat_seconds() - start);
        rounds++;
        if (decided == 0) break;
        uint64_t *t = w.frontier;
        w.frontier = w.next;
        w.next = t;
        memset(w.next, 0, bit_words * sizeof(uint64_t));
        chunk = 0;
        decided = 0;
    }
    free(w.frontier);
    free(w.next);
    free(height_class);
    /* What was never decided is a draw; slots that are no position stay 0. */
    FileHeader hd;
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, FILE_MAGIC, 8);
    hd.layer = (uint32_t)n;
    hd.white = (uint32_t)L->white;
    hd.black = (uint32_t)L->black;
    hd.rounds = (uint32_t)rounds;
    hd.slots = s->slots;
    TakatPosition pos;
    for (uint64_t i = 0; i < s->slots; i++) {
        if (!position_at(L, s, i, &pos)) continue;
        hd.positions++;
        int v = value_get(L->values[n], i);
        if (v == TAKAT_VALUE_UNKNOWN) value_set(L->values[n], i, v = TAKAT_VALUE_DRAW);
        if (v == TAKAT_VALUE_WIN)
            hd.wins++;
        else if (v == TAKAT_VALUE_LOSS)
            hd.losses++;
        else
            hd.draws++;
    }
    hd.seconds = takat_seconds() - start;
    if (!save_layer(L, n, L->values[n], &hd, err)) {
        values_drop(L, n); /* not on disk: not to be taken for a solved layer */
        return false;
    }
    char path[1100];
    part_path(L, n, path, sizeof path);
    remove(path); /* done with: the layer's file has it all */
    /* The layer above is no longer needed by anything below. */
    if (n < top) values_drop(L, n + 1);
    if (stats) {
        stats_of(&hd, stats);
        stats->resumed_round = resumed ? (int)ph.round : -1;
    }
    return true;
}

void takat_layers_on_checkpoint(TakatLayers *L, double seconds, const volatile sig_atomic_t *stop) {
    L->checkpoint_every = seconds;
    L->stop = stop;
}

void takat_layers_on_progress(TakatLayers *L, TakatLayersProgress fn, void *ctx) {
    L->progress = fn;
    L->progress_ctx = ctx;
}

bool takat_layers_stats(const TakatLayers *L, int n, TakatLayerStats *stats) {
    FileHeader hd;
    if (!header_of(L, n, &hd)) return false;
    stats_of(&hd, stats);
    return true;
}

TakatValue takat_layers_value(TakatLayers *L, const TakatPosition *pos, TakError *err) {
    if (takat_has_six(pos)) return pos->side == TAKAT_WHITE ? TAKAT_VALUE_WIN : TAKAT_VALUE_LOSS;
    if (pos->total[0] != L->white || pos->total[1] != L->black) {
        tak_error_set(err, "the position is of a game with other stones than the tables'");
        return TAKAT_VALUE_UNKNOWN;
    }
    int n = pos->on_board[0] + pos->on_board[1];
#if LAYERS_THREADS
    pthread_mutex_lock(&L->lock);
#endif
    bool ok = map_layer(L, n, err);
#if LAYERS_THREADS
    pthread_mutex_unlock(&L->lock);
#endif
    return ok ? (TakatValue)value_get(L->values[n], index_of(L, pos)) : TAKAT_VALUE_UNKNOWN;
}

/* A position's value as its turns say it must be. */
static int value_by_turns(const TakatLayers *L, const TakatPosition *pos) {
    TakatTurnList list;
    int count = takat_turns_generate(pos, &list);
    bool lost_child = false, drawn_child = false;
    for (int t = 0; t < count; t++) {
        TakatPosition child = *pos;
        takat_position_apply(&child, list.turns[t]);
        int cv = child_value(L, &child);
        lost_child |= cv == TAKAT_VALUE_LOSS;
        drawn_child |= cv == TAKAT_VALUE_DRAW || cv == TAKAT_VALUE_UNKNOWN;
    }
    return lost_child ? TAKAT_VALUE_WIN : drawn_child ? TAKAT_VALUE_DRAW : TAKAT_VALUE_LOSS;
}

#define CHECK_CHUNK_SLOTS 65536

typedef struct Check {
    TakatLayers *L;
    int n;
} Check;

/* One chunk of the verifier; returns how many of its positions break the rule. */
static uint64_t check_chunk(void *ctx, uint64_t chunk) {
    const Check *c = ctx;
    const Shape *s = &c->L->shape[c->n];
    const uint64_t *values = c->L->values[c->n];
    uint64_t first = chunk * CHECK_CHUNK_SLOTS, last = first + CHECK_CHUNK_SLOTS, bad = 0;
    if (last > s->slots) last = s->slots;
    TakatPosition pos;
    for (uint64_t i = first; i < last; i++)
        if (position_at(c->L, s, i, &pos) && value_get(values, i) != value_by_turns(c->L, &pos))
            bad++;
    return bad;
}

uint64_t takat_layers_verify(TakatLayers *L, int n, int threads, TakError *err) {
    if (!load_layer(L, n, err)) return UINT64_MAX;
    if (n < takat_layers_top(L) && !load_layer(L, n + 1, err)) return UINT64_MAX;
    Check c = {L, n};
    uint64_t chunks = (L->shape[n].slots + CHECK_CHUNK_SLOTS - 1) / CHECK_CHUNK_SLOTS;
    uint64_t bad = run_chunks(check_chunk, &c, 0, chunks, threads);
    if (n < takat_layers_top(L)) values_drop(L, n + 1); /* the layer below needs this one */
    return bad;
}
