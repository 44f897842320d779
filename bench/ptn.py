"""ptn.py: the games of a PTN file, as bench/'s scripts read them.

    import ptn
    for game in ptn.games(path):
        game.line        # the line the game starts on
        game.tags        # {'Size': '5', 'Player1': ..., ...}
        game.plies       # ['a1', 'e5', ...]: the moves, without numbers, marks or comments
        game.comments    # the comment after each ply, '' where none (racetrack's "0.31/9 1.2s")
        game.result      # the Result tag, else the result after the moves, else ''
        game.white_first # whether White plays the first ply (a TPS tag can give Black the move)
    ptn.numbered(game, n)  # the game's first n plies as move text, numbered from its start
    ptn.POINTS             # White's points for each finished result

`tak match`, racetrack and PTN Ninja write several games a file: each its
tags, then its moves; a tag after moves starts the next game. A file that
cannot be read, or a word in the moves that is no move, number or result,
ends the script with FILE:LINE and what was wrong.
"""
import os
import re
import sys

POINTS = {'R-0': 1.0, 'F-0': 1.0, '1-0': 1.0, '0-R': 0.0, '0-F': 0.0, '0-1': 0.0, '1/2-1/2': 0.5}
RESULTS = set(POINTS) | {'0-0', '*'}  # 0-0: an aborted game's record
TAG = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
TOKEN = re.compile(r'\{[^}]*\}?|[^\s{}]+')
NUMBER = re.compile(r'\d+\.+')
MOVE = re.compile(r'[FSC]?[a-h][1-8]|[1-8]?[a-h][1-8][<>+-][1-8]*\*?')
MARKS = '\'"!?'  # tak (') and tinue (") marks, and the annotator's ! and ?


class Game:
    def __init__(self, line):
        self.line, self.tags, self.plies, self.comments, self.result = line, {}, [], [], ''

    @property
    def white_first(self):
        fields = self.tags.get('TPS', '').split()
        return len(fields) < 2 or fields[1] != '2'

    @property
    def first_move(self):
        fields = self.tags.get('TPS', '').split()
        return int(fields[2]) if len(fields) > 2 and fields[2].isdigit() else 1


def die(message):
    sys.exit(f"{os.path.basename(sys.argv[0])}: {message}")


def games(path):
    """The games of a PTN file, in order (a list)."""
    try:
        with open(path, encoding='utf-8-sig') as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        die(f"{path}: {getattr(e, 'strerror', None) or e}")
    found, game, in_moves, open_comment = [], None, False, None
    for number, line in enumerate(lines, 1):
        m = None if open_comment is not None else TAG.match(line)
        if m and in_moves or game is None and line.strip():
            game, in_moves = Game(number), False  # a tag after moves starts the next game
            found.append(game)
        if m:
            game.tags[m.group(1)] = m.group(2)
            continue
        if open_comment is not None:  # a comment that began on an earlier line
            end = line.find('}')
            open_comment += ' ' + (line if end < 0 else line[:end])
            if end < 0:
                continue
            attach(game, open_comment)
            open_comment, line = None, line[end + 1:]
        for token in TOKEN.findall(line):
            in_moves = True
            if token.startswith('{'):
                if token.endswith('}'):
                    attach(game, token[1:-1])
                else:
                    open_comment = token[1:]
            elif NUMBER.fullmatch(token) or token == '--':
                continue  # '--': the colour a TPS start skips
            elif token in RESULTS:
                game.result = game.result or token
            elif MOVE.fullmatch(token.rstrip(MARKS)):
                game.plies.append(token.rstrip(MARKS))
                game.comments.append('')
            else:
                die(f"{path}:{number}: '{token}' is no move, move number or result")
    if open_comment is not None:
        die(f"{path}:{len(lines)}: a comment opened with '{{' is never closed")
    for game in found:
        game.result = game.tags.get('Result') or game.result
    return found


def attach(game, comment):
    """A comment belongs to the ply before it; one before any ply is dropped."""
    if game.comments:
        game.comments[-1] = (game.comments[-1] + ' ' + comment.strip()).strip()


def numbered(game, n):
    """The first n plies as PTN move text from the game's start: "2. -- c3 3. c2 d3"."""
    words, move, white = [], game.first_move, game.white_first
    if not white:
        words += [f"{move}.", '--']
    for ply in game.plies[:n]:
        if white:
            words.append(f"{move}.")
        words.append(ply)
        if not white:
            move += 1
        white = not white
    return ' '.join(words)
