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
import re
import signal
import sys

RESULTS = {'R-0': 1.0, 'F-0': 1.0, '1-0': 1.0, '0-R': 0.0, '0-F': 0.0, '0-1': 0.0, '1/2-1/2': 0.5}
TAG = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def die(message):
    sys.exit(f"paired.py: {message}")


def games(path):
    """Yields (line number, tags, move text) for each game of a PTN file."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except OSError as e:
        die(f"{path}: {e.strerror}")
    tags, moves, start, in_moves = {}, [], None, False
    for number, line in enumerate(lines, 1):
        m = TAG.match(line)
        if m and in_moves:  # a tag after moves starts the next game
            yield start, tags, ' '.join(moves)
            tags, moves, start, in_moves = {}, [], None, False
        if m:
            tags[m.group(1)] = m.group(2)
            start = start or number
        elif line.strip():
            moves.append(line.strip())
            in_moves = True
            start = start or number
    if tags or moves:
        yield start, tags, ' '.join(moves)


def opening(tags, moves):
    if 'TPS' in tags:
        return 'TPS ' + tags['TPS']
    book, commented = moves.split('{', 1)[0].split(), '{' in moves
    if commented:
        book = book[:-1]  # the first engine move, whose comment follows it
    while book and (re.fullmatch(r'\d+\.', book[-1]) or book[-1] in RESULTS):
        book = book[:-1]
    return 'moves ' + ' '.join(book)


def run(name, paths, by_round):
    """The named engine's points by pairing key, and how many games had no result."""
    points, unfinished = {}, 0
    for path in paths:
        for line, tags, moves in games(path):
            where = f"{path}:{line}"
            white, black = tags.get('Player1', ''), tags.get('Player2', '')
            if (name in white) == (name in black):
                die(f"{where}: '{name}' should be exactly one of the players "
                    f"(Player1 \"{white}\", Player2 \"{black}\")")
            colour = 'white' if name in white else 'black'
            result = tags.get('Result')
            if result not in RESULTS:
                unfinished += 1
                continue
            if by_round:
                if 'Round' not in tags:
                    die(f"{where}: no Round tag to pair by")
                key = ('round', tags['Round'])
            else:
                key = (tags.get('Size', '?'), opening(tags, moves), colour)
            if key in points:
                die(f"{where}: a second game with the same "
                    f"{'Round' if by_round else 'opening and colour'} in one run")
            score = RESULTS[result]
            points[key] = score if colour == 'white' else 1.0 - score
    return points, unfinished


def main(argv):
    by_round = '--by-round' in argv
    argv = [a for a in argv if a != '--by-round']
    if '--' not in argv:
        die("usage: paired.py [--by-round] NAME_A A.ptn... -- NAME_B B.ptn...")
    cut = argv.index('--')
    a, b = argv[:cut], argv[cut + 1:]
    if len(a) < 2 or len(b) < 2:
        die("each side needs an engine's name and at least one PTN file")
    pa, ua = run(a[0], a[1:], by_round)
    pb, ub = run(b[0], b[1:], by_round)
    common = sorted(set(pa) & set(pb))
    if not common:
        die("no game of one run started as a game of the other did")
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
