#!/usr/bin/env python3
"""node-cost.py: the CPU time a TEI engine spends on `go nodes N`.

    bench/node-cost.py SIZE NODES POSITIONS.tps ENGINE [ARGS...]

Each position of the file (one TPS a line, '#' lines skipped) is searched
from a fresh game (teinewgame, komi 2) for NODES nodes; the engine's CPU
seconds (user + system, from the kernel, so other load on the machine does
not count) are printed in all and per move. Run it at a few NODES for each
engine to find the counts that cost both engines the same time, the counts
bench/vs-tiltak-nodes.sh takes (bench/ELO.md).
"""
import resource
import subprocess
import sys


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    size, nodes, path, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    with open(path) as f:
        positions = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        for line in engine.stdout:
            if line.startswith(prefix):
                return
        sys.exit(f"{cmd[0]}: ended before '{prefix}'")

    send("tei")
    wait_for("teiok")
    send("setoption name HalfKomi value 4")
    send("isready")
    wait_for("readyok")
    for tps in positions:
        send(f"teinewgame {size}")
        send(f"position tps {tps}")
        send(f"go nodes {nodes}")
        wait_for("bestmove")
    send("quit")
    engine.wait()
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = use.ru_utime + use.ru_stime
    print(f"{cmd[0]}: {len(positions)} positions, {nodes} nodes each: {cpu:.2f} CPU s, "
          f"{cpu / len(positions) * 1000:.1f} ms a move")


if __name__ == "__main__":
    main()
