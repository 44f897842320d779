"""Tak for Python: the rules, the notation and the engine of libtak.

A thin binding over the C library (ctypes): every rule, every parser and the
search run in C; this module only shapes them as Python classes. Positions
and moves, PTN games with branches and notes, perft, and the engine::

    import tak
    game, engine = tak.Game(size=5), tak.Engine(level=3)
    while not game.is_over:
        game.play(engine.best_move(game, nodes=5000))
    print(game.to_ptn())

Bad input raises a subclass of :class:`TakError` (a ``ValueError``) carrying
the C library's message and, for PTN, the line and column.
"""
from __future__ import annotations

import ctypes
import enum
import threading
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _lib
from ._lib import lib

__all__ = [
    "TakError", "TpsError", "PtnError", "IllegalMoveError", "Color", "End", "WHITE", "BLACK",
    "Move", "Result", "Position", "Game", "PtnGame", "Branch", "Engine", "SearchLine",
    "SearchResult", "library_version", "__version__",
]

#: The version of the C library this module runs on ("1.0.0").
library_version: str = lib.tak_version().decode()
__version__ = library_version

SCORE_WIN = 30000
SCORE_WIN_MIN = 29000
LEVEL_MIN, LEVEL_MAX = 1, 10
MULTIPV_MAX = 16
_UINT64_MAX = (1 << 64) - 1
_TIME_MS_MAX = 24 * 3600 * 1000  # a day: more is a mistake, not a search


# ---- errors ----------------------------------------------------------------

class TakError(ValueError):
    """Bad input, as the C library describes it.

    ``message`` is what was wrong; ``line`` and ``column`` (1-based) say where
    in the input, or are 0 when the error has no place (a single move, a TPS).
    """

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        self.message = message
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(where + message)

    @classmethod
    def _from(cls, err: _lib.Error, prefix: str = "") -> "TakError":
        return cls(prefix + err.message.decode("utf-8", "replace"), err.line, err.column)


class TpsError(TakError):
    """A malformed TPS, or one the rules cannot hold."""


class PtnError(TakError):
    """A malformed PTN game, or an illegal move in it (with its line and column)."""


class IllegalMoveError(TakError):
    """A move that is malformed, or illegal in the position (or the game is over)."""


# ---- small values ------------------------------------------------------------

class Color(enum.IntEnum):
    """A player: White moves first."""
    WHITE = 0
    BLACK = 1


WHITE = Color.WHITE
BLACK = Color.BLACK


class End(enum.IntEnum):
    """How a game ended (TakEnd)."""
    NONE = 0
    ROAD = 1
    BOARD_FULL = 2
    RESERVES = 3
    REPETITION = 4
    RESIGNATION = 5
    TIME = 6
    AGREEMENT = 7


@dataclass(frozen=True)
class Result:
    """Where a game stands: ``end`` is ``End.NONE`` while it goes on; ``winner``
    is None for a draw or an unfinished game; ``code`` is PTN's ("R-0", "0-F",
    "1/2-1/2", "*" while unfinished); ``text`` says it in words."""
    end: End
    winner: Optional[Color]
    code: str
    text: str

    @property
    def is_over(self) -> bool:
        return self.end != End.NONE

    @classmethod
    def _from(cls, r: _lib.Result) -> "Result":
        buf = ctypes.create_string_buffer(96)
        text = lib.tak_result_describe(r, buf, len(buf)).decode()
        winner = Color(r.winner) if r.winner in (0, 1) else None
        return cls(End(r.end), winner, lib.tak_result_code(r).decode(), text)


class Move:
    """A move of a board of some size. ``str(move)`` is its PTN ("a1", "Sc3",
    "3b2+12"); moves compare equal when they are the same move on the same size."""
    __slots__ = ("code", "size")

    def __init__(self, code: int, size: int) -> None:
        """A move from the library's packed code (Position.legal_move_codes)
        for a board of `size`; ValueError for a code that is no move there."""
        _int(size, "size", 3, 8)
        _int(code, "code", 0, (1 << 18) - 1)
        if code & 63 >= size * size:
            raise ValueError(f"move code {code} names a square off the {size}x{size} board")
        self.code = code
        self.size = size

    @classmethod
    def _of(cls, code: int, size: int) -> "Move":
        """A move the library made (no checks: it is one)."""
        m = cls.__new__(cls)
        m.code = code
        m.size = size
        return m

    def __str__(self) -> str:
        buf = ctypes.create_string_buffer(_lib.MOVE_TEXT_MAX)
        lib.tak_move_write(self.code, self.size, None, buf)
        return buf.value.decode()

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.code == other.code and self.size == other.size
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.code, self.size))

    @property
    def square(self) -> str:
        """The square it places on or lifts from ("c3")."""
        return _square_name(self.code & 63, self.size)

    @property
    def is_placement(self) -> bool:
        return (self.code >> 6) & 3 != 3


MoveLike = Union[Move, str]


def _square_name(square: int, size: int) -> str:
    buf = ctypes.create_string_buffer(3)
    lib.tak_square_name(square, size, buf)
    return buf.value.decode()


def _squares(bits: int, size: int) -> List[str]:
    return [_square_name(sq, size) for sq in range(size * size) if bits >> sq & 1]


def _text(value: str, what: str) -> bytes:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    data = value.encode("utf-8")
    if b"\0" in data:
        raise TakError(f"{what} contains a NUL character")
    return data


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low}..{high}, not {value}")
    return value


def _rules(size: int, komi: float, stones: Optional[int], capstones: Optional[int],
           no_pass: bool, repetition_draw: bool) -> _lib.Rules:
    rules = _lib.Rules()
    err = _lib.Error()
    _int(size, "size", 0, 1 << 30)
    if not lib.tak_rules_standard(ctypes.byref(rules), size, ctypes.byref(err)):
        raise TakError._from(err)
    half = komi * 2
    if isinstance(komi, bool) or not isinstance(komi, (int, float)) or half != int(half):
        raise ValueError(f"komi must be a whole or half number of flats, not {komi!r}")
    rules.half_komi = int(half)
    if stones is not None:
        rules.stones = _int(stones, "stones", 1, 1 << 30)
    if capstones is not None:
        rules.capstones = _int(capstones, "capstones", 0, 1 << 30)
    rules.no_pass = bool(no_pass)
    rules.repetition_draw = bool(repetition_draw)
    if not lib.tak_rules_validate(ctypes.byref(rules), ctypes.byref(err)):
        raise TakError._from(err)
    return rules


# One move list per thread: 35 KB, filled by the generator without allocating.
_local = threading.local()


def _move_list() -> _lib.MoveList:
    ml = getattr(_local, "moves", None)
    if ml is None:
        ml = _local.moves = _lib.MoveList()
    return ml


# ---- positions -----------------------------------------------------------------

class Position:
    """A Tak position: the stacks, the reserves, the side to move and the rules.

    ``Position(5)`` is the empty 5x5 board; ``Position.from_tps(text)`` reads
    TPS. ``play`` and ``undo`` change it in place (``copy`` first to keep it).
    """
    __slots__ = ("_p", "_undo")

    def __init__(self, size: int = 5, *, komi: float = 0, stones: Optional[int] = None,
                 capstones: Optional[int] = None, no_pass: bool = True,
                 repetition_draw: bool = False) -> None:
        rules = _rules(size, komi, stones, capstones, no_pass, repetition_draw)
        self._p = _lib.new(_lib.Position)
        self._undo: List[Tuple[int, _lib.Undo]] = []
        err = _lib.Error()
        if not lib.tak_position_init(self._p, ctypes.byref(rules), ctypes.byref(err)):
            raise TakError._from(err)

    @classmethod
    def from_tps(cls, tps: str, *, komi: float = 0, stones: Optional[int] = None,
                 capstones: Optional[int] = None, no_pass: bool = True,
                 repetition_draw: bool = False) -> "Position":
        """Reads a TPS ("x5/x5/x5/x5/x5 1 1"); the size comes from it, the other
        rules from the arguments (standard reserves when left out). Raises
        TpsError saying what was wrong."""
        data = _text(tps, "a TPS")
        rules = None
        if komi or stones is not None or capstones is not None or not no_pass or repetition_draw:
            size = tps.strip().split(" ")[0].count("/") + 1
            if not 3 <= size <= 8:
                raise TpsError(f"bad TPS: a board of {size} rows")
            rules = ctypes.byref(_rules(size, komi, stones, capstones, no_pass, repetition_draw))
        self = cls.__new__(cls)
        self._p = _lib.new(_lib.Position)
        self._undo = []
        err = _lib.Error()
        if not lib.tak_tps_read(data, rules, self._p, ctypes.byref(err)):
            raise TpsError._from(err, "bad TPS: ")
        return self

    @classmethod
    def _wrap(cls, p: _lib.Position) -> "Position":
        self = cls.__new__(cls)
        self._p = _lib.new(_lib.Position)
        ctypes.memmove(ctypes.addressof(self._p), ctypes.addressof(p), ctypes.sizeof(_lib.Position))
        self._undo = []
        return self

    def copy(self) -> "Position":
        """An independent copy (without the undo history)."""
        return Position._wrap(self._p)

    __copy__ = copy

    # -- looking at it

    @property
    def tps(self) -> str:
        """The position in TPS."""
        buf = ctypes.create_string_buffer(_lib.TPS_MAX)
        lib.tak_tps_write(self._p, buf, len(buf))
        return buf.value.decode()

    def __str__(self) -> str:
        return self.tps

    def __repr__(self) -> str:
        return f"Position.from_tps({self.tps!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return bool(lib.tak_position_equal(self._p, other._p))
        return NotImplemented

    # Mutable (play, undo), so not hashable; `hash` is the Zobrist key.
    __hash__ = None  # type: ignore[assignment]

    @property
    def hash(self) -> int:
        """The position's 64-bit Zobrist hash (stacks, tops and side to move)."""
        return self._p.hash

    @property
    def size(self) -> int:
        return self._p.rules.size

    @property
    def komi(self) -> float:
        return self._p.rules.half_komi / 2

    @property
    def side(self) -> Color:
        """The side to move."""
        return Color(self._p.side)

    @property
    def ply(self) -> int:
        """Plies since the empty board."""
        return self._p.ply

    @property
    def move_number(self) -> int:
        return self._p.ply // 2 + 1

    @property
    def reserves(self) -> Tuple[Tuple[int, int], Tuple[int, int]]:
        """((White's stones, capstones), (Black's stones, capstones)) left to play."""
        p = self._p
        return ((p.stones[0], p.capstones[0]), (p.stones[1], p.capstones[1]))

    def stack(self, square: str) -> str:
        """The stack on a square as TPS writes it, bottom first ("12S": a white
        flat under a black wall), or "" when empty."""
        sq = lib.tak_square_parse(_text(square, "a square"), self.size)
        if sq < 0:
            raise ValueError(f"{square!r} is not a square of a {self.size}x{self.size} board")
        h = self._p.height[sq]
        if h == 0:
            return ""
        bits = self._p.stack[2 * sq] | self._p.stack[2 * sq + 1] << 64
        text = "".join("2" if bits >> (h - 1 - level) & 1 else "1" for level in range(h))
        b = 1 << sq
        return text + ("S" if self._p.walls & b else "C" if self._p.caps & b else "")

    def flat_counts(self) -> Tuple[int, int]:
        """Flats on top for White and Black (komi not included)."""
        counts = (ctypes.c_int * 2)()
        lib.tak_position_flat_counts(self._p, counts)
        return counts[0], counts[1]

    @property
    def result(self) -> Result:
        """The result on the board (repetition is known only to a Game)."""
        return Result._from(self._p.result)

    @property
    def is_over(self) -> bool:
        return self._p.result.end != 0

    def has_road(self, color: Color) -> bool:
        return bool(lib.tak_position_has_road(self._p, Color(color)))

    def road(self, color: Color) -> List[str]:
        """The squares of `color`'s roads ([] when it has none)."""
        return _squares(lib.tak_position_road_squares(self._p, Color(color)), self.size)

    def has_tak(self, color: Color) -> bool:
        """True when `color`, were it to move, could complete a road in one move."""
        return bool(lib.tak_position_has_tak(self._p, Color(color)))

    def evaluate(self) -> int:
        """The engine's static evaluation, hundredths of a flat for the side to move."""
        return lib.tak_engine_evaluate(self._p)

    # -- moves

    def legal_moves(self) -> List[Move]:
        """Every legal move ([] once the game is over)."""
        ml = _move_list()
        n = lib.tak_moves_generate(self._p, ml)
        size = self._p.rules.size
        return [Move._of(code, size) for code in ml.moves[:n]]

    def legal_move_codes(self) -> List[int]:
        """The legal moves as the library's packed codes (no objects made):
        the fast path for bulk work."""
        ml = _move_list()
        n = lib.tak_moves_generate(self._p, ml)
        return ml.moves[:n]

    def count_moves(self) -> int:
        """The number of legal moves, counted in C without listing them."""
        return lib.tak_moves_count(self._p)

    def parse_move(self, text: str) -> Move:
        """The move a PTN ply names here ("c3", "Sd4", "3c3>12"). Raises
        IllegalMoveError when it is malformed or illegal here."""
        code = ctypes.c_uint32()
        err = _lib.Error()
        if not lib.tak_move_parse(self._p, _text(text, "a move"), ctypes.byref(code), ctypes.byref(err)):
            raise IllegalMoveError._from(err, f"illegal move {text!r}: ")
        return Move._of(code.value, self.size)

    def _checked(self, move: MoveLike) -> int:
        if isinstance(move, str):
            return self.parse_move(move).code
        if not isinstance(move, Move):
            raise TypeError(f"a move is a Move or PTN text, not {type(move).__name__}")
        if move.size != self.size:
            raise IllegalMoveError(f"illegal move {str(move)!r}: a move of a {move.size}x{move.size} board")
        err = _lib.Error()
        if not lib.tak_move_check(self._p, move.code, ctypes.byref(err)):
            raise IllegalMoveError._from(err, f"illegal move {str(move)!r}: ")
        return move.code

    def is_legal(self, move: MoveLike) -> bool:
        try:
            self._checked(move)
        except IllegalMoveError:
            return False
        return True

    def move_text(self, move: Move) -> str:
        """The PTN of a legal move here, with '*' when it flattens a wall."""
        buf = ctypes.create_string_buffer(_lib.MOVE_TEXT_MAX)
        lib.tak_move_write(move.code, self.size, self._p, buf)
        return buf.value.decode()

    def play(self, move: MoveLike) -> Move:
        """Plays a move (a Move or PTN) after checking it; returns it. Raises
        IllegalMoveError and leaves the position as it was."""
        code = self._checked(move)
        undo = _lib.Undo()
        lib.tak_position_make(self._p, code, ctypes.byref(undo))
        self._undo.append((code, undo))
        return Move._of(code, self.size)

    def undo(self) -> Move:
        """Takes back the last move played with `play`; IndexError when none."""
        if not self._undo:
            raise IndexError("no move to take back")
        code, undo = self._undo.pop()
        lib.tak_position_unmake(self._p, code, ctypes.byref(undo))
        return Move._of(code, self.size)

    def perft(self, depth: int, *, full: bool = False) -> int:
        """The number of move sequences of `depth` plies, counted in C (full:
        making and unmaking every leaf)."""
        _int(depth, "depth", 0, 64)
        return (lib.tak_perft_full if full else lib.tak_perft)(self._p, depth)


# ---- games -----------------------------------------------------------------------

class Game:
    """A game with its history: repetition, takebacks, resignation and draws.

    ``Game(5)`` starts on the empty 5x5 board; ``Game(start=position)`` from
    any position. ``position`` is a copy of where it stands now.
    """

    def __init__(self, size: int = 5, *, start: Optional[Position] = None, komi: float = 0,
                 stones: Optional[int] = None, capstones: Optional[int] = None,
                 no_pass: bool = True, repetition_draw: bool = False) -> None:
        if start is None:
            start = Position(size, komi=komi, stones=stones, capstones=capstones, no_pass=no_pass,
                             repetition_draw=repetition_draw)
        elif not isinstance(start, Position):
            raise TypeError("start must be a Position")
        self._g = _lib.new(_lib.Game)
        err = _lib.Error()
        if not lib.tak_game_init(self._g, start._p, ctypes.byref(err)):
            raise TakError._from(err)
        self._owned = True

    def __del__(self) -> None:
        if getattr(self, "_owned", False):
            self._owned = False
            lib.tak_game_free(self._g)

    @property
    def start(self) -> Position:
        return Position._wrap(self._g.start)

    @property
    def position(self) -> Position:
        """A copy of the current position."""
        return Position._wrap(self._g.current)

    @property
    def moves(self) -> List[Move]:
        size = self._g.start.rules.size
        return [Move._of(self._g.moves[i], size) for i in range(self._g.count)]

    def __len__(self) -> int:
        return self._g.count

    @property
    def result(self) -> Result:
        """The result: the board's, or repetition, resignation, time, agreement."""
        return Result._from(lib.tak_game_result(self._g))

    @property
    def is_over(self) -> bool:
        return lib.tak_game_result(self._g).end != 0

    def legal_moves(self) -> List[Move]:
        if self.is_over:
            return []
        return Position._wrap(self._g.current).legal_moves()

    def play(self, move: MoveLike) -> Move:
        """Plays a move (Move or PTN) if legal and the game is not over."""
        if self.is_over:
            raise IllegalMoveError(f"illegal move {str(move)!r}: the game is over")
        code = Position._wrap(self._g.current)._checked(move)
        err = _lib.Error()
        if not lib.tak_game_play(self._g, code, ctypes.byref(err)):
            raise IllegalMoveError._from(err, f"illegal move {str(move)!r}: ")
        return Move._of(code, self._g.start.rules.size)

    def undo(self) -> None:
        """Takes back the last move (and an ending the game recorded)."""
        if not lib.tak_game_undo(self._g):
            raise IndexError("no move to take back")

    def resign(self, color: Color) -> None:
        """`color` resigns."""
        self._end(End.RESIGNATION, 1 - Color(color))

    def lose_on_time(self, color: Color) -> None:
        self._end(End.TIME, 1 - Color(color))

    def agree_draw(self) -> None:
        self._end(End.AGREEMENT, -1)

    def _end(self, end: End, winner: int) -> None:
        if not lib.tak_game_end(self._g, int(end), winner):
            raise TakError("the game is already over")

    @property
    def occurrences(self) -> int:
        """How many times the current position has occurred, itself included."""
        return lib.tak_game_occurrences(self._g)

    def _history(self) -> Tuple[ctypes.Array, int]:
        n = self._g.count
        arr = (ctypes.c_uint64 * max(n, 1))(*[self._g.hashes[i] for i in range(n)])
        return arr, n

    def to_ptn(self, tags: Optional[dict] = None) -> str:
        """The game as PTN, with the tags of its rules and result (and `tags`)."""
        ptn = PtnGame.from_game(self)
        for name, value in (tags or {}).items():
            ptn.set_tag(name, value)
        return ptn.write()


# ---- PTN -------------------------------------------------------------------------

def _strings(arr: ctypes.Array, lo: int, hi: int) -> List[Optional[str]]:
    if not arr:
        return [None] * (hi - lo)
    return [None if not arr[i] else arr[i].decode("utf-8", "replace") for i in range(lo, hi)]


def _line_moves(g: _lib.Game, lo: int) -> List[str]:
    """The PTN of a game's plies from `lo`, each written in the position
    before it (so a flattening gets its '*')."""
    pos = Position._wrap(g.start)
    out = []
    for i in range(g.count):
        code = g.moves[i]
        if i >= lo:
            out.append(pos.move_text(Move._of(code, pos.size)))
        undo = _lib.Undo()
        lib.tak_position_make(pos._p, code, ctypes.byref(undo))
    return out


@dataclass
class Branch:
    """A line of play that leaves the main line (parent -1) or another branch
    (its index) at ply `start`: its `moves` replace that line's from there."""
    name: str
    parent: int
    start: int
    moves: List[str]
    comments: List[Optional[str]]
    marks: List[Optional[str]]
    preface: Optional[str]
    result: str


class PtnGame:
    """A whole PTN game: tags, the main line with its notes and marks, and its
    branches. ``PtnGame.read(text)`` checks every move; ``write()`` gives PTN
    back (branches as PTN Ninja writes them)."""

    def __init__(self) -> None:
        self._t = _lib.new(_lib.Ptn)
        self._owned = True

    def __del__(self) -> None:
        if getattr(self, "_owned", False):
            self._owned = False
            lib.tak_ptn_free(self._t)

    @classmethod
    def read(cls, text: str) -> "PtnGame":
        """Parses and replays a PTN game. Raises PtnError with the line and
        column of what was wrong (a malformed tag or move, an illegal move)."""
        data = _text(text, "PTN")
        self = cls()
        err = _lib.Error()
        if not lib.tak_ptn_read(data, len(data), self._t, ctypes.byref(err)):
            raise PtnError._from(err)
        return self

    @classmethod
    def from_game(cls, game: Game) -> "PtnGame":
        """The PTN of a game, with the tags of its rules and result."""
        self = cls()
        err = _lib.Error()
        if not lib.tak_ptn_from_game(self._t, game._g, ctypes.byref(err)):
            raise TakError._from(err)
        return self

    @property
    def tags(self) -> dict:
        """The tags in file order, unknown ones included."""
        t = self._t
        return {t.tags[i].name.decode(): t.tags[i].value.decode() for i in range(t.tag_count)}

    def tag(self, name: str) -> Optional[str]:
        """A tag's value (the name case-insensitive), or None."""
        v = lib.tak_ptn_tag(self._t, _text(name, "a tag name"))
        return None if v is None else v.decode()

    def set_tag(self, name: str, value: str) -> None:
        if not lib.tak_ptn_set_tag(self._t, _text(name, "a tag name"), _text(str(value), "a tag value")):
            raise TakError(f"cannot set tag {name!r} to {value!r} (a name is letters, digits and '_')")

    @property
    def start(self) -> Position:
        return Position._wrap(self._t.game.start)

    @property
    def position(self) -> Position:
        """The position at the end of the main line."""
        return Position._wrap(self._t.game.current)

    @property
    def moves(self) -> List[str]:
        """The main line's moves in PTN."""
        return _line_moves(self._t.game, 0)

    @property
    def comments(self) -> List[Optional[str]]:
        """comments[i]: the note after ply i, or None."""
        return _strings(self._t.comments, 0, self._t.game.count)

    @property
    def marks(self) -> List[Optional[str]]:
        """marks[i]: the marks written after ply i ("'", "!?"), or None."""
        return _strings(self._t.marks, 0, self._t.game.count)

    @property
    def preface(self) -> Optional[str]:
        p = self._t.preface
        return None if p is None else p.decode("utf-8", "replace")

    @property
    def result(self) -> str:
        """The result token that closed the main line, or ""."""
        return self._t.result.decode()

    @property
    def branches(self) -> List[Branch]:
        out = []
        for i in range(self._t.branch_count):
            b = self._t.branches[i]
            lo, hi = b.start, b.game.count
            out.append(Branch(b.name.decode(), b.parent, lo, _line_moves(b.game, lo),
                              _strings(b.comments, lo, hi), _strings(b.marks, lo, hi),
                              None if b.preface is None else b.preface.decode("utf-8", "replace"),
                              b.result.decode()))
        return out

    def game(self) -> Game:
        """The main line as a Game."""
        g = Game(start=self.start)
        for i in range(self._t.game.count):
            g.play(Move._of(self._t.game.moves[i], self.start.size))
        return g

    def play(self, move: MoveLike, *, line: int = -1, comment: Optional[str] = None,
             marks: Optional[str] = None) -> None:
        """Plays a move at the end of a line (-1: the main line; else a
        branch's index), with its note and marks."""
        g = self._t.game if line == -1 else self._branch(line).game
        code = Position._wrap(g.current)._checked(move)
        err = _lib.Error()
        c = None if comment is None else _text(comment, "a comment")
        m = None if marks is None else _text(marks, "marks")
        if not lib.tak_ptn_play(self._t, line, code, c, m, ctypes.byref(err)):
            raise IllegalMoveError._from(err, f"illegal move {str(move)!r}: ")

    def _branch(self, line: int) -> _lib.PtnBranch:
        _int(line, "line", -1, self._t.branch_count - 1)
        return self._t.branches[line]

    def add_branch(self, name: str, *, start: int, parent: int = -1) -> int:
        """A new, empty branch named `name` leaving line `parent` at its ply
        `start`; returns its index (play its moves with ``play(line=...)``)."""
        _int(start, "start", 0, _UINT64_MAX)
        if parent != -1:
            self._branch(parent)
        err = _lib.Error()
        i = lib.tak_ptn_add_branch(self._t, _text(name, "a branch name"), parent, start, ctypes.byref(err))
        if i < 0:
            raise TakError._from(err)
        return i

    def write(self) -> str:
        """The game as PTN text."""
        p = lib.tak_ptn_write(self._t)
        if not p:
            raise MemoryError("tak_ptn_write")
        try:
            return ctypes.string_at(p).decode("utf-8", "replace")
        finally:
            _lib.libc.free(p)

    __str__ = write


# ---- the engine ----------------------------------------------------------------

@dataclass(frozen=True)
class SearchLine:
    """One line of a search: its score (hundredths of a flat for the side to
    move), or ``win_in`` plies when it sees the end (positive: the side to
    move wins; score 0 then), and its moves."""
    multipv: int
    depth: int
    score: int
    win_in: Optional[int]
    nodes: int
    pv: List[Move] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best move (None when there is no legal
    move), its line's score, and every line asked for (``lines``)."""
    best: Optional[Move]
    score: int
    win_in: Optional[int]
    depth: int
    nodes: int
    time_ms: int
    pv: List[Move]
    lines: List[SearchLine]


def _score(raw: int) -> Tuple[int, Optional[int]]:
    if raw >= SCORE_WIN_MIN:
        return 0, SCORE_WIN - raw
    if raw <= -SCORE_WIN_MIN:
        return 0, -(SCORE_WIN + raw)
    return raw, None


class Engine:
    """The engine: its table, options and threads. Search positions or games
    with node, time or depth limits; ``level`` 1 (a beginner) to 10 (full
    strength). One search at a time per engine; ``close()`` (or ``with``)
    frees it at once."""

    def __init__(self, *, level: int = LEVEL_MAX, hash_mb: int = 16, threads: int = 1,
                 seed: Optional[int] = None) -> None:
        _int(hash_mb, "hash_mb", 1, 1 << 20)
        _int(threads, "threads", 1, 256)
        self._e = lib.tak_engine_new(hash_mb, threads)
        if not self._e:
            raise MemoryError(f"no memory for an engine with a {hash_mb} MB table")
        self._lock = threading.Lock()  # held by a search
        self._handle_lock = threading.Lock()  # held while the handle is read by stop or freed
        self.level = level
        if seed is not None:
            lib.tak_engine_set_seed(self._e, _int(seed, "seed", 0, _UINT64_MAX))

    @property
    def level(self) -> int:
        return self._level

    @level.setter
    def level(self, value: int) -> None:
        self._level = _int(value, "level", LEVEL_MIN, LEVEL_MAX)
        lib.tak_engine_set_level(self._handle(), value)

    def _handle(self) -> int:
        if not self._e:
            raise ValueError("the engine is closed")
        return self._e

    def close(self) -> None:
        """Frees the engine; a search running in another thread is stopped
        first and finishes before the engine goes."""
        if not getattr(self, "_e", None):
            return
        search_lock = getattr(self, "_lock", None)
        handle_lock = getattr(self, "_handle_lock", None)
        if search_lock is None or handle_lock is None:  # the constructor failed half-way
            lib.tak_engine_free(self._e)
            self._e = None
            return
        self.stop()
        with search_lock, handle_lock:
            if self._e:
                lib.tak_engine_free(self._e)
                self._e = None

    __del__ = close

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def new_game(self) -> None:
        """Forgets what it learnt of the previous game (its table)."""
        lib.tak_engine_new_game(self._handle())

    def stop(self) -> None:
        """Asks a running search (in another thread) to finish now."""
        with self._handle_lock:
            if self._e:
                lib.tak_engine_stop(self._e)

    def search(self, where: Union[Position, Game], *, nodes: Optional[int] = None,
               time_ms: Optional[int] = None, depth: Optional[int] = None,
               lines: int = 1) -> SearchResult:
        """Searches a position (or a game's, seeing its repetitions) until the
        first limit is reached: `nodes` (>= 1), `time_ms` (1 ms to a day),
        `depth` plies (1..64); 100,000 nodes when none is given. `lines` best
        lines (1..16). Limits out of range raise ValueError (TypeError when
        not ints) before any search."""
        if isinstance(where, Game):
            pos = where.position
            history, count = where._history()
        elif isinstance(where, Position):
            pos, history, count = where, None, 0
        else:
            raise TypeError("search a Position or a Game")
        limits = _lib.SearchLimits()
        if nodes is None and time_ms is None and depth is None:
            nodes = 100_000
        if nodes is not None:
            limits.nodes = _int(nodes, "nodes", 1, _UINT64_MAX)
        if time_ms is not None:
            limits.movetime_ms = _int(time_ms, "time_ms", 1, _TIME_MS_MAX)
        if depth is not None:
            limits.depth = _int(depth, "depth", 1, _lib.PV_MAX)
        _int(lines, "lines", 1, MULTIPV_MAX)
        got: dict = {}

        def report(info_p: ctypes.POINTER(_lib.SearchInfo), _user: int) -> None:
            info = info_p[0]
            got[info.multipv] = (info.depth, info.score, info.nodes, list(info.pv[:info.pv_length]))

        callback = _lib.SearchReport(report)
        final = _lib.SearchInfo()
        with self._lock:
            e = self._handle()
            lib.tak_engine_set_multipv(e, lines)
            best = lib.tak_engine_search(e, pos._p, history, count, ctypes.byref(limits), callback,
                                         None, ctypes.byref(final))
        size = pos.size
        found = []
        for k in sorted(got):
            d, raw, n, pv = got[k]
            score, win_in = _score(raw)
            found.append(SearchLine(k, d, score, win_in, n, [Move._of(m, size) for m in pv]))
        score, win_in = _score(final.score)
        pv = [Move._of(m, size) for m in final.pv[:final.pv_length]]
        return SearchResult(None if best == 0xFFFFFFFF else Move._of(best, size), score, win_in,
                            final.depth, final.nodes, final.time_ms, pv, found)

    def best_move(self, where: Union[Position, Game], **limits: int) -> Move:
        """The move it would play (as `search`). ValueError when the game is over."""
        result = self.search(where, **limits)
        if result.best is None:
            raise ValueError("no legal move: the game is over")
        return result.best
