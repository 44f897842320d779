#!/usr/bin/env python3
"""tiltak-judge.py: Tiltak as a judge of our engines' moves, position by position.

A match against Tiltak needs hundreds of games to tell a change of 50 Elo,
because a game's result is one bit decided by a few moves (bench/ELO.md,
"What a match against Tiltak can tell"). This asks a finer question of the
same referee: in each position, which move does each of our engines choose,
and how much does Tiltak, searching the position after it, think that move
gives away? Every position is judged, not only the few that decide a game,
so a hundred positions say more about the early middle game (where our lost
games are decided, bench/when-decided.py) than a hundred games do.

    bench/tiltak-judge.py [--size 5] [--komi 2] [--ours-ms 500] [--judge-ms 1000]
        [--plies 5-30] [--limit N] [--jobs 2] POSITIONS NAME=BINARY ...

POSITIONS is a file of TPS lines, or a PTN file of games (racetrack writes
them, bench/vs-tiltak.sh keeps them): from each game, every position with a
ply count in --plies (0-based, the 4-ply opening included) and the game not
yet over, cut with `build/tak replay`. TILTAK names Tiltak's tei binary
(built by yourself for measurement; this script neither fetches nor builds
it). Each engine gets `go movetime OURS_MS` in each position; Tiltak then
searches the position after that move for JUDGE_MS and its score (from the
side to move there, so negated) is the move's worth. Tiltak's own choice in
the position, searched as long, is the yardstick: a move's loss is Tiltak's
score for its own choice minus its score for ours (negative when Tiltak
thinks ours better than what it found). Moves that several engines share are
judged once. Prints, per engine: the mean loss in centipawns of Tiltak's
scale, the share of moves losing more than 50 and 150, and how often the
engine chose Tiltak's own move.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

import ptn


def search(binary, args, size, half_komi, tps, moves, ms):
    """(bestmove, last score in cp from the side to move) of a movetime search."""
    pos = f"position tps {tps}" + (" moves " + " ".join(moves) if moves else "")
    commands = ["tei", f"setoption name HalfKomi value {half_komi}", "isready",
                f"teinewgame {size}", pos, f"go movetime {ms}"]
    proc = subprocess.Popen([binary] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    proc.stdin.write("\n".join(commands) + "\n")
    proc.stdin.flush()  # stdin stays open: some engines stop searching at its end
    best, score = None, None
    for line in proc.stdout:
        m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
        if m:
            score = int(m.group(2)) if m.group(1) == "cp" else (
                10000 if int(m.group(2)) > 0 else -10000)
        if line.startswith("bestmove"):
            best = line.split()[1]
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    if best is None:
        raise RuntimeError(f"{binary}: no bestmove for {tps} {moves}")
    return best, score


def positions_from_ptn(path, plies, tak):
    """TPS of the positions at plies [a, b] of every game in a PTN file."""
    out = []
    for game in ptn.games(path):
        keep = "\n".join(f'[{k} "{game.tags[k]}"]' for k in ("Size", "Komi", "TPS") if k in game.tags)
        for p in range(plies[0], min(plies[1], len(game.plies) - 1) + 1):
            try:
                proc = subprocess.run([tak, "replay", "-"], input=f"{keep}\n\n{ptn.numbered(game, p)}\n",
                                      capture_output=True, text=True)
            except OSError as e:
                ptn.die(f"{tak}: {e.strerror} (build it with make)")
            lines = proc.stdout.strip().splitlines()
            if proc.returncode != 0:
                ptn.die(f"{path}:{game.line}: ply {p}: {proc.stderr.strip()}")
            if len(lines) >= 2 and lines[-1] == "*":
                out.append(lines[-2])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--komi", type=float, default=2)
    ap.add_argument("--ours-ms", type=int, default=500)
    ap.add_argument("--judge-ms", type=int, default=1000)
    ap.add_argument("--plies", default="5-30")
    ap.add_argument("--limit", type=int, default=0, help="at most N positions (evenly spread)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("positions")
    ap.add_argument("engines", nargs="+", metavar="NAME=BINARY")
    a = ap.parse_args()
    tiltak = os.environ.get("TILTAK")
    if not tiltak:
        sys.exit("tiltak-judge.py: set TILTAK to Tiltak's tei binary")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tak = os.path.join(root, "build", "tak")
    engines = [e.split("=", 1) for e in a.engines]
    if any(len(e) != 2 for e in engines):
        sys.exit("tiltak-judge.py: engines are NAME=BINARY")
    half_komi = int(round(a.komi * 2))
    lo, hi = (int(x) for x in a.plies.split("-"))
    text = open(a.positions).read()
    if "[" in text.split("\n", 1)[0]:
        tpss = positions_from_ptn(a.positions, (lo, hi), tak)
    else:
        tpss = [l.strip() for l in text.splitlines() if l.strip()]
    if a.limit and len(tpss) > a.limit:
        tpss = [tpss[i * len(tpss) // a.limit] for i in range(a.limit)]
    print(f"{len(tpss)} positions, ours {a.ours_ms} ms a move, Tiltak judges {a.judge_ms} ms",
          flush=True)

    def judge(tps):
        own, own_score = search(tiltak, [], a.size, half_komi, tps, [], a.judge_ms)
        chosen = {name: search(binary, ["tei"], a.size, half_komi, tps, [], a.ours_ms)[0]
                  for name, binary in engines}
        worth = {own: own_score}
        for move in set(chosen.values()):
            if move not in worth:
                _, s = search(tiltak, [], a.size, half_komi, tps, [move], a.judge_ms)
                worth[move] = None if s is None else -s
        return {name: (m, m == own, None if worth[m] is None or own_score is None
                       else own_score - worth[m]) for name, m in chosen.items()}

    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for i, r in enumerate(pool.map(judge, tpss)):
            results.append(r)
            if (i + 1) % 20 == 0:
                print(f"  {i + 1} positions judged", file=sys.stderr, flush=True)
    print(f"{'engine':<12} {'mean loss':>9} {'> 50':>6} {'> 150':>6} {'Tiltak move':>11}")
    for name, _ in engines:
        losses = [r[name][2] for r in results if r[name][2] is not None]
        same = sum(r[name][1] for r in results)
        n = len(losses)
        print(f"{name:<12} {sum(losses) / n:9.1f} {sum(x > 50 for x in losses) / n:6.0%} "
              f"{sum(x > 150 for x in losses) / n:6.0%} {same / len(results):11.0%}")
    if len(engines) == 2:
        d = [r[engines[0][0]][2] - r[engines[1][0]][2] for r in results
             if r[engines[0][0]][2] is not None and r[engines[1][0]][2] is not None]
        mean = sum(d) / len(d)
        sd = (sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)) ** 0.5
        print(f"{engines[0][0]} minus {engines[1][0]}: {mean:+.1f} ± {1.96 * sd / len(d) ** 0.5:.1f} "
              f"(95%, {len(d)} positions)")


if __name__ == "__main__":
    main()
