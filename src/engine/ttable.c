/*
 * ttable.c: the transposition table shared by every search thread. Buckets
 * of four 16-byte entries; each entry is two relaxed atomic words, the first
 * holding key ^ data so that a torn read (words from two writes) is rejected
 * rather than trusted. No locks: Lazy SMP threads read and write freely.
 * The entries are 2 MB aligned and advised as huge pages where the system
 * has them (Linux THP in "madvise" mode): fewer TLB misses on random probes.
 */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "internal.h"

/* data: move 0..17, has-move 18, score+32768 19..34, depth 35..42,
 * bound 43..44, age 45..52. */
static inline uint64_t tt_pack(TakMove move, int score, int depth, int bound, uint8_t age) {
    uint64_t d = 0;
    if (move != TAK_MOVE_NONE) d |= (uint64_t)(move & 0x3FFFFu) | ((uint64_t)1 << 18);
    d |= (uint64_t)(uint16_t)(score + 32768) << 19;
    d |= (uint64_t)(uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth) << 35;
    d |= (uint64_t)(bound & 3) << 43;
    d |= (uint64_t)age << 45;
    return d;
}

static inline int tt_depth(uint64_t d) { return (int)((d >> 35) & 0xFF); }
static inline uint8_t tt_age(uint64_t d) { return (uint8_t)(d >> 45); }

bool tt_resize(TTable *tt, size_t megabytes) {
    if (megabytes < 1) megabytes = 1;
    size_t bytes = megabytes * 1024 * 1024, count = TT_BUCKET;
    while (count * 2 * sizeof(TTEntry) <= bytes) count *= 2;
    size_t size = count * sizeof(TTEntry), huge = (size_t)2 << 20;
    TTEntry *e = size >= huge ? aligned_alloc(huge, size) : malloc(size);
    if (e == NULL) return false;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= huge) madvise(e, size, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
    memset(e, 0, size); /* touch every page now, not in the search */
    free(tt->entries);
    tt->entries = e;
    tt->count = count;
    tt->age = 0;
    return true;
}

void tt_free(TTable *tt) {
    free(tt->entries);
    tt->entries = NULL;
    tt->count = 0;
}

void tt_clear(TTable *tt) {
    for (size_t i = 0; i < tt->count; i++) {
        atomic_store_explicit(&tt->entries[i].check, 0, memory_order_relaxed);
        atomic_store_explicit(&tt->entries[i].data, 0, memory_order_relaxed);
    }
    tt->age = 0;
}

void tt_new_search(TTable *tt) { tt->age = (uint8_t)(tt->age + 1); }

static inline TTEntry *tt_bucket(const TTable *tt, uint64_t key) {
    return &tt->entries[(key & (tt->count - 1)) & ~(size_t)(TT_BUCKET - 1)];
}

void tt_prefetch(const TTable *tt, uint64_t key) { __builtin_prefetch(tt_bucket(tt, key)); }

bool tt_probe(const TTable *tt, uint64_t key, TTHit *hit) {
    TTEntry *b = tt_bucket(tt, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) != key || d == 0) continue;
        hit->move = (d >> 18) & 1 ? (TakMove)(d & 0x3FFFFu) : TAK_MOVE_NONE;
        hit->score = (int)((d >> 19) & 0xFFFF) - 32768;
        hit->depth = tt_depth(d);
        hit->bound = (int)((d >> 43) & 3);
        hit->eval = 0;
        return true;
    }
    return false;
}

void tt_store(TTable *tt, uint64_t key, TakMove move, int score, int depth, int bound, int eval) {
    (void)eval;
    TTEntry *b = tt_bucket(tt, key), *victim = &b[0];
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key && d != 0) {
            /* Keep a deeper result of this search unless this one is exact. */
            if (bound != TT_EXACT && tt_age(d) == tt->age && tt_depth(d) > depth + 2) return;
            if (move == TAK_MOVE_NONE && ((d >> 18) & 1)) move = (TakMove)(d & 0x3FFFFu);
            victim = &b[i];
            break;
        }
        int value = tt_depth(d) - 8 * (uint8_t)(tt->age - tt_age(d));
        if (d == 0) value = -(1 << 29);
        if (value < worst) {
            worst = value;
            victim = &b[i];
        }
    }
    uint64_t d = tt_pack(move, score, depth, bound, tt->age);
    atomic_store_explicit(&victim->data, d, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ d, memory_order_relaxed);
}

int tt_hashfull(const TTable *tt) {
    size_t n = tt->count < 1000 ? tt->count : 1000, used = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = atomic_load_explicit(&tt->entries[i].data, memory_order_relaxed);
        if (d != 0 && tt_age(d) == tt->age) used++;
    }
    return n ? (int)(used * 1000 / n) : 0;
}

int tt_score_to(int score, int ply) {
    if (score >= TAK_SCORE_WIN_MIN) return score + ply;
    if (score <= -TAK_SCORE_WIN_MIN) return score - ply;
    return score;
}

int tt_score_from(int score, int ply) {
    if (score >= TAK_SCORE_WIN_MIN) return score - ply;
    if (score <= -TAK_SCORE_WIN_MIN) return score + ply;
    return score;
}
