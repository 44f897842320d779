/* drops.c: converting between drop lists and the packed drop code of move.h. */
#include "tak/move.h"

unsigned tak_drops_encode(const int *drops, int n) {
    unsigned code = 0;
    int carried = 0;
    if (n <= 0) return 0;
    for (int i = 0; i < n; i++) {
        if (drops[i] < 1 || drops[i] > 8) return 0;
        carried += drops[i];
        if (carried > 8) return 0;
        code |= 1u << (carried - 1);
    }
    return code;
}

int tak_drops_decode(unsigned code, int drops[8]) {
    int n = 0, last = 0;
    code &= 0xFFu;
    for (int piece = 1; code; piece++, code >>= 1) {
        if (code & 1u) {
            drops[n++] = piece - last;
            last = piece;
        }
    }
    return n;
}
