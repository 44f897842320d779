/*
 * net.c: a small learned correction to the linear evaluation. The linear
 * terms (evaluate.c) see roads, races and square classes; the network sees
 * the board itself: every square's top piece and the pieces buried under it,
 * each as the side to move's or the other's, the reserves and the komi, and
 * adds what the linear sum misses (how pieces stand together), in hundredths
 * of a flat from the side to move's view.
 *
 * One hidden layer of clipped-ReLU units (each size its own count) over sparse binary
 * inputs, worked out from scratch at each evaluation (a 5x5 middle game has
 * some forty inputs on, so the sum is a few hundred vector additions); the
 * weights of each size are in net_weights.c, written by `tune net` (the
 * first layer in int8, expanded here at start-up), and a size without a
 * network is evaluated by the linear terms alone.
 *
 * Not kept up move by move as NNUE engines do: our search evaluates about
 * one node in five that it makes (the rest end on the table, a road in one
 * or a threat), so sums moved with every move, from both colours' views,
 * cost more than counting afresh where needed (tried: 8% fewer nodes a
 * second on the 5x5 middle-game bench).
 */
#include <math.h>
#include <string.h>

#include "internal.h"

void engine_net_pack(const float *w1, int rows, int width, int8_t *q, float *max) {
    for (int i = 0; i < rows; i++) {
        const float *row = w1 + (size_t)i * width;
        float m = 0;
        for (int j = 0; j < width; j++) m = fabsf(row[j]) > m ? fabsf(row[j]) : m;
        max[i] = m;
        for (int j = 0; j < width; j++)
            q[(size_t)i * width + j] = (int8_t)(m > 0 ? lrint(row[j] * 127.0 / m) : 0);
    }
}

/* In double, so that a row's largest weight (127 of 127ths) comes back as
 * exactly its stored maximum and packing again gives the same bytes. */
void engine_net_unpack(const int8_t *q, const float *max, int rows, int width, float *w1) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < width; j++) {
            size_t k = (size_t)i * width + j;
            w1[k] = (float)(q[k] * (double)max[i] / 127.0);
        }
}

/* Run before main (and in the WebAssembly module by _initialize), so before
 * any search thread reads a network: every front end gets the same floats
 * without calling anything. */
__attribute__((constructor)) static void unpack_nets(void) {
    for (int s = TAK_MIN_SIZE; s <= TAK_MAX_SIZE; s++) {
        const NetStored *st = &engine_nets_stored[s];
        if (st->w1 && engine_nets[s])
            engine_net_unpack(st->w1, st->w1_max, engine_nets[s]->inputs, engine_nets[s]->hidden, st->w1_out);
    }
}

int engine_net_input_count(int size) { return size * size * NET_SQ_INPUTS + 2 * NET_RESERVE + 6 + 18; }

int engine_net_input_under(int size, int sym, int input) {
    if (input >= size * size * NET_SQ_INPUTS) return input; /* reserves, komi */
    int sq = input / NET_SQ_INPUTS, r = sq / size, f = sq % size;
    if (sym & 1) f = size - 1 - f;
    if (sym & 2) r = size - 1 - r;
    if (sym & 4) {
        int t = r;
        r = f;
        f = t;
    }
    return (r * size + f) * NET_SQ_INPUTS + input % NET_SQ_INPUTS;
}

int engine_net_inputs(const TakPosition *pos, uint16_t idx[NET_MAX_ACTIVE]) {
    int size = pos->rules.size, mover = pos->side, n = 0;
    TakBitboard occupied = pos->owner[0] | pos->owner[1];
    for (TakBitboard b = occupied; b; b &= b - 1) {
        int sq = __builtin_ctzll(b), h = pos->height[sq];
        TakBitboard here = bit(sq);
        int kind = (pos->caps & here) ? 2 : (pos->walls & here) ? 1 : 0;
        int theirs = (pos->owner[mover] & here) ? 0 : 3;
        idx[n++] = (uint16_t)(sq * NET_SQ_INPUTS + theirs + kind);
        TakStackBits bits = pos->stack[sq];
        for (int d = 1; d < h; d++) {
            int slot = d <= NET_BURIED ? d : NET_BURIED;
            int colour = (int)((bits >> d) & 1);
            idx[n++] = (uint16_t)(sq * NET_SQ_INPUTS + 6 + 2 * (slot - 1) + (colour != mover));
        }
    }
    int base = size * size * NET_SQ_INPUTS;
    int own = pos->stones[mover], opp = pos->stones[mover ^ 1];
    idx[n++] = (uint16_t)(base + (own < NET_RESERVE ? own : NET_RESERVE - 1));
    idx[n++] = (uint16_t)(base + NET_RESERVE + (opp < NET_RESERVE ? opp : NET_RESERVE - 1));
    base += 2 * NET_RESERVE;
    idx[n++] = (uint16_t)(base + (pos->capstones[mover] < 2 ? pos->capstones[mover] : 2));
    idx[n++] = (uint16_t)(base + 3 + (pos->capstones[mover ^ 1] < 2 ? pos->capstones[mover ^ 1] : 2));
    base += 6;
    /* Without komi the colours are alike: one input for both. */
    int hk = pos->rules.half_komi < 0 ? 0 : pos->rules.half_komi > 8 ? 8 : pos->rules.half_komi;
    idx[n++] = (uint16_t)(base + (hk ? 9 * mover + hk : 0));
    return n;
}

/* Eight hidden units at a time, so that each input's row is added with a
 * few vector additions (left to itself, GCC gathers across rows instead),
 * and a block of NET_BLOCK units at a time, whose sums stay in registers. */
typedef float NetLane __attribute__((vector_size(8 * sizeof(float))));
#define NET_LANES (NET_BLOCK / 8)
_Static_assert(NET_BLOCK % 8 == 0 && NET_HIDDEN_MAX % NET_BLOCK == 0, "hidden units in lanes of 8");

float engine_net_forward(const EvalNet *net, const uint16_t *idx, int n, float *hidden) {
    float out = net->b2;
    for (int b = 0; b < net->hidden; b += NET_BLOCK) {
        NetLane acc[NET_LANES];
        memcpy(acc, net->b1 + b, sizeof acc);
        for (int i = 0; i < n; i++) {
            const float *row = net->w1 + (size_t)idx[i] * net->hidden + b;
            for (int l = 0; l < NET_LANES; l++) {
                NetLane r;
                memcpy(&r, row + 8 * l, sizeof r);
                acc[l] += r;
            }
        }
        float h[NET_BLOCK];
        memcpy(h, acc, sizeof h);
        for (int j = 0; j < NET_BLOCK; j++) {
            float a = h[j] < 0 ? 0 : h[j] > 1 ? 1 : h[j];
            if (hidden) hidden[b + j] = h[j];
            out += a * net->w2[b + j];
        }
    }
    return out * NET_OUTPUT_SCALE;
}

int engine_net_eval(const TakPosition *pos, const EvalNet *net) {
    uint16_t idx[NET_MAX_ACTIVE];
    int n = engine_net_inputs(pos, idx);
    float v = engine_net_forward(net, idx, n, NULL);
    return (int)(v < 0 ? v - 0.5f : v + 0.5f);
}
