/**
 * \file
 * random.h: the one pseudo-random generator the project uses (splitmix64),
 * whose whole state is a word the caller owns, so that games, books and
 * engine levels replay from a seed and threads share nothing; and its mixing
 * step, which the hashes use.
 */
#ifndef TAK_RANDOM_H
#define TAK_RANDOM_H

#include <stdint.h>

/** splitmix64's step as a pure function of x: a bijection that spreads
 * every bit of x over the result, so it also serves as a hash of a key
 * (Zobrist keys, table indices). */
static inline uint64_t tak_random_mix(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/** The next 64 random bits; advances *state. */
static inline uint64_t tak_random_next(uint64_t *state) {
    uint64_t x = *state;
    *state += 0x9E3779B97F4A7C15ull;
    return tak_random_mix(x);
}

#endif
