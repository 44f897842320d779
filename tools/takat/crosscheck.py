#!/usr/bin/env python3
"""crosscheck.py: a third path for the layered TAKAT tables.

Draws random positions of one layer (any heights of 0-5 summing to the
layer, any colours within the game's stones, either side to move, the ko
on an occupied cell or none), asks the layered tables for each value
(`tak takat layers value`) and solves the same position again from scratch
with the hash-table solver (`tak takat solve --pos`, which enumerates what
is reachable from it and settles it by its own retrograde analysis). The
two share the move generator and nothing else. A position whose reachable
set is larger than --max-positions is skipped and counted.

    tools/takat/crosscheck.py DIR LAYER [--count N] [--seed S]
        [--stones W,B] [--max-positions N] [--tak build/tak]

Exit status 0 when every compared position agrees, 1 on any disagreement,
2 when a command fails.
"""
import argparse
import random
import re
import subprocess
import sys

CELLS = ["a2", "b3", "a1", "b2", "c3", "b1", "c2"]  # TPS order (takat.md)


def random_position(rng, n, white, black):
    lo, hi = max(0, n - black), min(white, n)
    if lo > hi:
        raise ValueError(f"layer {n} does not exist with {white}+{black} stones")
    w = rng.randint(lo, hi)
    while True:  # heights: a random composition of n into 7 parts of 0-5
        cuts = sorted(rng.randint(0, n) for _ in range(6))
        heights = [b - a for a, b in zip([0] + cuts, cuts + [n])]
        if max(heights) <= 5:
            break
    colours = ["1"] * w + ["2"] * (n - w)
    rng.shuffle(colours)
    stacks, k = [], 0
    for h in heights:
        stacks.append("".join(colours[k:k + h]) or "x")
        k += h
    side = rng.choice("12")
    occupied = [CELLS[i] for i, h in enumerate(heights) if h]
    ko = rng.choice(occupied) if occupied and rng.random() < 0.5 else None
    return ",".join(stacks) + " " + side + (" " + ko if ko else "")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("layer", type=int)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stones", default="6,15")
    ap.add_argument("--max-positions", type=int, default=3000000)
    ap.add_argument("--tak", default="build/tak")
    a = ap.parse_args()
    white, black = (int(x) for x in a.stones.split(","))
    stones = ["--stones", a.stones]
    rng = random.Random(a.seed)
    agree = differ = skipped = 0
    for _ in range(a.count):
        pos = random_position(rng, a.layer, white, black)
        rc, out, err = run([a.tak, "takat", "layers", "value", pos, a.dir] + stones)
        if rc != 0:
            print(f"{pos}: layers value failed: {err.strip()}", file=sys.stderr)
            return 2
        table = out.strip().split()[0]
        rc, out, err = run([a.tak, "takat", "solve", "--pos", pos, "--no-verify", "--depth", "1",
                            "--max-positions", str(a.max_positions)] + stones)
        last = out.strip().split("\n")[-1] if out.strip() else ""
        if rc != 0 or not last.startswith("result:"):
            print(f"{pos}: solve failed: {err.strip() or last}", file=sys.stderr)
            return 2
        if "unsolved" in last:
            skipped += 1
            continue
        m = re.match(r"result: a (win|loss|draw) ", last)
        solved = m.group(1) if m else "?"
        if solved == table:
            agree += 1
        else:
            differ += 1
            print(f"DIFFER {pos}: tables {table}, hash-table solver: {last}")
    print(f"layer {a.layer}: {agree} agree, {differ} differ, {skipped} too large to solve from scratch")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
