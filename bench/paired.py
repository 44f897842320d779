#!/usr/bin/env python3
"""paired.py NAME_A A.ptn... -- NAME_B B.ptn...: two runs of the same
openings, compared game by game.

Each side is an engine's name (as it appears in the games' Player1/Player2
tags; a part of it is enough, as racetrack's players are paths) and the PTN
files of its run (`tak match` and racetrack both write several games a
file). A game of one run is paired with the game of the other run that
started from the same opening with the named engine on the same colour: the
opening is the game's TPS tag where it has one (`tak match --book`),
otherwise the moves before the first comment (racetrack plays a book's
moves without comments, then every engine move has one). With --by-round,
games are paired by their Round tag instead, for runs that write neither.

Prints each run's points in the paired games, the difference B - A summed
over them and one standard error of that sum (from the spread of the
per-game differences), and how many games changed result: the same games
played by two versions of an engine (or at two clocks) differ by much less
noise than two separate scores do.

    bench/paired.py main OLD/*.ptn -- cand NEW/*.ptn
"""
import math
import signal
import sys

import ptn


def opening(game):
    if 'TPS' in game.tags:
        return 'TPS ' + game.tags['TPS']
    commented = [i for i, c in enumerate(game.comments) if c]
    return 'moves ' + ' '.join(game.plies[:commented[0]] if commented else game.plies)


def run(name, paths, by_round):
    """The named engine's points by pairing key, and how many games had no result."""
    points, unfinished = {}, 0
    for path in paths:
        for game in ptn.games(path):
            where, tags = f"{path}:{game.line}", game.tags
            white, black = tags.get('Player1', ''), tags.get('Player2', '')
            if (name in white) == (name in black):
                ptn.die(f"{where}: '{name}' should be exactly one of the players "
                        f"(Player1 \"{white}\", Player2 \"{black}\")")
            colour = 'white' if name in white else 'black'
            if game.result not in ptn.POINTS:
                unfinished += 1
                continue
            if by_round:
                if 'Round' not in tags:
                    ptn.die(f"{where}: no Round tag to pair by")
                key = ('round', tags['Round'])
            else:
                key = (tags.get('Size', '?'), opening(game), colour)
            if key in points:
                ptn.die(f"{where}: a second game with the same "
                        f"{'Round' if by_round else 'opening and colour'} in one run")
            score = ptn.POINTS[game.result]
            points[key] = score if colour == 'white' else 1.0 - score
    return points, unfinished


def main(argv):
    by_round = '--by-round' in argv
    argv = [a for a in argv if a != '--by-round']
    if '--' not in argv:
        ptn.die("usage: paired.py [--by-round] NAME_A A.ptn... -- NAME_B B.ptn...")
    cut = argv.index('--')
    a, b = argv[:cut], argv[cut + 1:]
    if len(a) < 2 or len(b) < 2:
        ptn.die("each side needs an engine's name and at least one PTN file")
    pa, ua = run(a[0], a[1:], by_round)
    pb, ub = run(b[0], b[1:], by_round)
    common = sorted(set(pa) & set(pb))
    if not common:
        ptn.die("no game of one run started as a game of the other did")
    diffs = [pb[k] - pa[k] for k in common]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    print(f"{n} paired games: {a[0]} {sum(pa[k] for k in common):g} points, "
          f"{b[0]} {sum(pb[k] for k in common):g} points; "
          f"difference {sum(diffs):+g} +- {spread * math.sqrt(n):.1f} points (one standard error), "
          f"{sum(1 for d in diffs if d)} games changed")
    left = len(pa) - n, len(pb) - n
    if any(left) or ua or ub:
        print(f"left out: {left[0]} and {left[1]} games without a partner, "
              f"{ua} and {ub} without a result")


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    main(sys.argv[1:])
