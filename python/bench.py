"""bench.py: perft and move generation through the Python binding, beside
the same work done by the C command (`tak perft`), so the binding's cost
shows. Figures in bench/README.md ("The Python binding").

    python3 python/bench.py [path/to/tak]      (the package importable)
"""
import subprocess
import sys
import time

import tak

MIDDLEGAME = "x2,2,x,2/x,12,x,12,x/212,x2,2121C,x/x,1,112221,1,1/x5 2 21"


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


def main() -> None:
    tak_bin = sys.argv[1] if len(sys.argv) > 1 else "build/tak"
    print(f"tak {tak.library_version}, Python {sys.version.split()[0]}")

    pos = tak.Position(6)
    nodes, secs = timed(pos.perft, 5)
    print(f"perft 6x6 start depth 5 through Python: {nodes} in {secs:.2f} s, {nodes / secs / 1e6:.0f} M/s")
    t = time.perf_counter()
    out = subprocess.run([tak_bin, "perft", "--size", "6", "5"], capture_output=True, text=True,
                         check=True).stdout.split()[-1]
    c_secs = time.perf_counter() - t
    assert int(out) == nodes
    print(f"perft 6x6 start depth 5 by tak perft:   {out} in {c_secs:.2f} s, "
          f"{nodes / c_secs / 1e6:.0f} M/s (process start included)")

    p = tak.Position.from_tps(MIDDLEGAME)
    n = 20000
    count = p.count_moves()
    _, secs = timed(lambda: [p.count_moves() for _ in range(n)])
    print(f"count_moves() on a middlegame ({count} moves): {n / secs / 1e3:.0f} k calls/s, "
          f"{count * n / secs / 1e6:.1f} M moves/s")
    _, secs = timed(lambda: [p.legal_move_codes() for _ in range(n)])
    print(f"legal_move_codes(): {n / secs / 1e3:.0f} k calls/s, {count * n / secs / 1e6:.1f} M moves/s")
    n2 = n // 10
    _, secs = timed(lambda: [p.legal_moves() for _ in range(n2)])
    print(f"legal_moves() (a Move object each): {n2 / secs / 1e3:.1f} k calls/s, "
          f"{count * n2 / secs / 1e6:.2f} M moves/s")
    leaves, secs = timed(p.perft, 3)
    print(f"perft 3 of the middlegame in C (every move generated, the last ply counted): "
          f"{leaves / secs / 1e6:.0f} M moves/s")
    codes = p.legal_move_codes()
    m = [tak.Move(c, p.size) for c in codes]

    def make_unmake():
        for mv in m:
            p.play(mv)
            p.undo()
    _, secs = timed(lambda: [make_unmake() for _ in range(20)])
    print(f"play()+undo() through Python (checked): {20 * len(m) / secs / 1e3:.0f} k/s")


if __name__ == "__main__":
    main()
