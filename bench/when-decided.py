#!/usr/bin/env python3
"""when-decided.py PTN...: when the games we lost against Tiltak were decided.

Reads racetrack's PTN files (several games a file, each move followed by its
engine's comment "{score/depth seconds}", the score from White's side) and,
for every game our engine lost, finds the first ply after which Tiltak's own
score (turned to its side) reached +0.5 and never fell below +0.3 again
("Tiltak sure"), and what our engine's own score was at that moment.
Prints the quartiles of that ply by size and by our colour.

    bench/when-decided.py OUT_DIR/*.ptn      (the files bench/vs-tiltak.sh writes)

With --clock, prints instead where each engine's clock went: the mean
seconds a move for moves 1-10, 11-20, 21-30, 31-40 and 41-50 of all games
(the comments' times; the book's opening moves have none). With --moves,
what Tiltak thought of our moves, in all games: how far its own score (for
its side) rose from its move before ours to its move after, by the kind of
our move (a flat, wall or capstone placed on the edge, the next ring in or
nearer the centre; a spread) and by move number; Tiltak's reply is in the
difference too, so only the comparison between kinds means much. --ours NAME
says which engine is ours when its path is not the tak-COMMIT-STAMP copy
that bench/vs-tiltak.sh makes (Player1 is White). With --signs, how well
each engine reads the game: by size and by twenty plies, the share of its
scores (of 0.15 or more either way) in decisive games whose sign names the
winner.
"""
import re
import statistics
import sys

import ptn

args, clock, by_move, signs, ours_name = sys.argv[1:], False, False, False, None
while args and args[0].startswith('--'):
    if args[0] == '--clock':
        clock, args = True, args[1:]
    elif args[0] == '--moves':
        by_move, args = True, args[1:]
    elif args[0] == '--signs':
        signs, args = True, args[1:]
    elif args[0] == '--ours' and len(args) > 1:
        ours_name, args = args[1], args[2:]
    else:
        sys.exit(f"when-decided.py: unknown option {args[0]}")

rows = []
seconds = {'ours': {}, 'Tiltak': {}}  # by tens of moves: the times of that engine's moves
right = {}  # (size, engine, ply // 20): [scores whose sign named the winner, scores]
moves = {}  # (kind, move-number band): the rises of Tiltak's score across our moves of that kind
BANDS = (('1-5', 5), ('6-10', 10), ('11-20', 20), ('21-', None))  # by move number: name, last move


def band_of(move_number):
    return next(name for name, last in BANDS if last is None or move_number <= last)


def move_kind(move, size):
    """'flat edge', 'wall ring 1', 'cap centre', 'spread': what a PTN move is and where."""
    m = re.match(r'^([FSC]?)([a-h])([1-8])$', move)
    if not m:
        return 'spread'
    f, r = ord(m.group(2)) - ord('a'), int(m.group(3)) - 1
    ring = min(r, size - 1 - r, f, size - 1 - f)
    where = ['edge', 'ring 1'][ring] if ring < 2 else 'centre'
    return {'': 'flat', 'F': 'flat', 'S': 'wall', 'C': 'cap'}[m.group(1)] + ' ' + where


for path in args:
    for game in ptn.games(path):
        if not game.plies:
            continue
        size, result, white_first = game.tags.get('Size', ''), game.result, game.white_first
        white_moved = lambda ply: (ply % 2 == 0) == white_first
        # Ours is the copy bench/vs-tiltak.sh names tak-COMMIT-STAMP; Player1 is White.
        white = game.tags.get('Player1', '')
        ours_white = white == ours_name if ours_name else white.rsplit('/', 1)[-1].startswith('tak-')
        white_won, black_won = ptn.POINTS.get(result) == 1.0, ptn.POINTS.get(result) == 0.0
        lost = (ours_white and black_won) or (not ours_white and white_won)
        if not (lost or clock or by_move or signs):
            continue
        ours, tiltak, played = [], [], game.plies
        for ply, comment in enumerate(game.comments):
            m = re.match(r'([-+]?[0-9.]+)/\d+(?: ([0-9.]+)s)?', comment)
            if not m:
                continue
            v = float(m.group(1))  # from White's side
            is_ours = white_moved(ply) == ours_white
            (ours if is_ours else tiltak).append((ply, v if white_moved(ply) else -v))
            if m.group(2):
                seconds['ours' if is_ours else 'Tiltak'].setdefault(min(ply // 20, 4), []).append(float(m.group(2)))
        if by_move and size.isdigit():
            score = dict(tiltak)
            for p in range(4, len(played)):
                if white_moved(p) != ours_white or p - 1 not in score or p + 1 not in score:
                    continue
                key = (move_kind(played[p], int(size)), band_of(p // 2 + 1))
                moves.setdefault(key, []).append(score[p + 1] - score[p - 1])
        if signs and (white_won or black_won):
            for who, scores in (('ours', ours), ('Tiltak', tiltak)):
                for p, v in scores:  # v for the side that moved at ply p
                    if abs(v) >= 0.15:
                        cell = right.setdefault((size, who, min(p // 20, 6)), [0, 0])
                        cell[0] += (v > 0) == (white_won if white_moved(p) else black_won)
                        cell[1] += 1
        if not lost:
            continue
        for i, (p, v) in enumerate(tiltak):
            if v >= 0.5 and all(w >= 0.3 for _, w in tiltak[i:]):
                ours_then = [w for q, w in ours if q <= p + 1]
                rows.append((size, ours_white, p, len(played), ours_then[-1] if ours_then else 0.0))
                break

if by_move:
    bands = [name for name, _ in BANDS]
    print(f"{'our move':<14}" + "".join(f"{'moves ' + b:>24}" for b in bands))
    for kind in sorted({k for k, _ in moves}):
        cells = []
        for b in bands:
            v = moves.get((kind, b), [])
            cells.append(f"{statistics.mean(v):+.3f} {sum(x > 0.15 for x in v) / len(v):4.0%} ({len(v):4d})"
                         if v else '')
        print(f"{kind:<14}" + "".join(f"{c:>24}" for c in cells))
    print("(each cell: the mean rise of Tiltak's score, the share of moves that raised it more than 0.15, and how many)")
    sys.exit(0)

if signs:
    for size in sorted({k[0] for k in right}):
        for band in sorted({k[2] for k in right if k[0] == size}):
            cells = [right.get((size, who, band)) for who in ('ours', 'Tiltak')]
            plies = f"{band * 20}-{band * 20 + 19}" if band < 6 else "120-"  # the last band holds the rest
            print(f"{size}x{size} plies {plies}: " + "  ".join(
                f"{who} {c[0] / c[1]:.2f} ({c[1]})" for who, c in zip(('ours', 'Tiltak'), cells) if c))
    sys.exit(0)

if clock:
    for who, by in seconds.items():
        print(f"{who:<6} " + "  ".join(
            f"moves {b * 10 + 1}-{b * 10 + 10}: {statistics.mean(v):.2f} s ({len(v)})"
            for b, v in sorted(by.items())))
    sys.exit(0)

for size in sorted({r[0] for r in rows}):
    for white in (True, False):
        r = [x for x in rows if x[0] == size and x[1] == white]
        if len(r) < 2:
            continue
        q = statistics.quantiles([x[2] for x in r], n=4)
        print(f"{size}x{size}, ours {'White' if white else 'Black'}: {len(r)} lost games; Tiltak sure at ply "
              f"{q[1]:.0f} (quartiles {q[0]:.0f}-{q[2]:.0f}) of {statistics.median(x[3] for x in r):.0f}; "
              f"by ply 20 in {sum(x[2] <= 20 for x in r) / len(r):.0%}; our own score then {statistics.median(x[4] for x in r):+.2f}")
