#!/usr/bin/env python3
"""node-cost.py: the CPU time a TEI engine spends on `go nodes N`.

    bench/node-cost.py SIZE NODES POSITIONS.tps ENGINE [ARGS...]
    bench/node-cost.py SIZE NODES GAMES.ptn ENGINE [ARGS...]

With a .tps file, each position (one TPS a line, '#' lines skipped) is
searched from a fresh game (teinewgame, komi 2) for NODES nodes. With a
.ptn file, each game is played through as a match plays it: one teinewgame,
then every ply's position (the game's start and the moves so far) searched
for NODES nodes, so an engine that keeps its tree between moves (Tiltak
does) gets the same help it gets in a match; a fresh game a position can
cost such an engine several times more. The engine's CPU seconds (user +
system, from the kernel, so other load on the machine does not count) are
printed in all and per move. Run it at a few NODES for each engine to find
the counts that cost both engines the same time, the counts
bench/vs-tiltak-nodes.sh takes (bench/ELO.md): with the .ptn form, on the
games of a match.
"""
import resource
import subprocess
import sys

import ptn


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    size, nodes, path, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    searches = []  # (teinewgame first?, position command)
    if path.endswith(".ptn"):
        for game in ptn.games(path):
            if game.tags.get('Size') != str(size):
                continue
            start, moves = game.tags.get('TPS'), game.plies
            setup = f"position tps {start}" if start else "position startpos"
            for i in range(len(moves)):
                searches.append((i == 0, setup + (" moves " + " ".join(moves[:i]) if i else "")))
    else:
        with open(path) as f:
            for l in f:
                if l.strip() and not l.startswith('#'):
                    searches.append((True, f"position tps {l.strip()}"))
    if not searches:
        sys.exit(f"{path}: no position of size {size}")
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
    for new_game, position in searches:
        if new_game:
            send(f"teinewgame {size}")
        send(position)
        send(f"go nodes {nodes}")
        wait_for("bestmove")
    send("quit")
    engine.wait()
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = use.ru_utime + use.ru_stime
    print(f"{cmd[0]}: {len(searches)} positions, {nodes} nodes each: {cpu:.2f} CPU s, "
          f"{cpu / len(searches) * 1000:.1f} ms a move")


if __name__ == "__main__":
    main()
