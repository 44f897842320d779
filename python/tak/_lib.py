"""The C library, loaded with ctypes: its structures and function signatures.

Everything here mirrors include/tak/*.h. TakPosition holds 128-bit stacks
(16-byte aligned), which ctypes cannot align by itself, so the structures
that hold one carry explicit padding and are allocated at a 16-byte address
(`new`); tests/test_layout.py compiles the C offsets and sizes and compares.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_int, c_int64,
                    c_size_t, c_uint8, c_uint32, c_uint64, c_void_p)
from pathlib import Path

MAX_SQUARES = 64
MAX_MOVES = 8704
PV_MAX = 64
ERROR_MESSAGE_MAX = 200
TPS_MAX = 1024
MOVE_TEXT_MAX = 24


def _load() -> ctypes.CDLL:
    """libtak.so: $TAK_LIBRARY, else the copy installed with this package,
    else the system's (ld.so's search path, as `make install` puts it)."""
    explicit = os.environ.get("TAK_LIBRARY")
    if explicit:
        return ctypes.CDLL(explicit)
    here = Path(__file__).resolve().parent
    bundled = sorted(here.glob("libtak.so*"))
    if bundled:
        return ctypes.CDLL(str(bundled[0]))
    for name in ("libtak.so.1", ctypes.util.find_library("tak")):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                pass
    raise ImportError("tak: libtak.so not found (install the C library, or set TAK_LIBRARY)")


lib = _load()
libc = ctypes.CDLL(None)
libc.free.argtypes = [c_void_p]
libc.free.restype = None


class Error(Structure):
    _fields_ = [("line", c_int), ("column", c_int), ("message", c_char * ERROR_MESSAGE_MAX)]


class Rules(Structure):
    _fields_ = [("size", c_int), ("stones", c_int), ("capstones", c_int), ("half_komi", c_int),
                ("no_pass", c_bool), ("repetition_draw", c_bool)]


class Result(Structure):
    _fields_ = [("end", c_int), ("winner", c_int)]


class Position(Structure):
    _fields_ = [("rules", Rules), ("_pad0", c_uint8 * 4),
                ("owner", c_uint64 * 2), ("walls", c_uint64), ("caps", c_uint64),
                ("height", c_uint8 * MAX_SQUARES), ("_pad1", c_uint8 * 8),
                ("stack", c_uint64 * (2 * MAX_SQUARES)),  # unsigned __int128 each, low word first
                ("stones", c_uint8 * 2), ("capstones", c_uint8 * 2), ("side", c_uint8),
                ("ply", c_uint32), ("hash", c_uint64), ("result", Result)]


class Undo(Structure):
    _fields_ = [("hash", c_uint64), ("result", Result), ("flattened", c_bool)]


class Game(Structure):
    _fields_ = [("start", Position), ("current", Position), ("moves", POINTER(c_uint32)),
                ("hashes", POINTER(c_uint64)), ("count", c_size_t), ("capacity", c_size_t),
                ("ended", Result), ("_pad", c_uint8 * 8)]


class PtnTag(Structure):
    _fields_ = [("name", c_char_p), ("value", c_char_p)]


class PtnBranch(Structure):
    _fields_ = [("name", c_char_p), ("parent", c_int), ("start", c_size_t), ("_pad", c_uint8 * 8),
                ("game", Game), ("comments", POINTER(c_char_p)), ("marks", POINTER(c_char_p)),
                ("preface", c_char_p), ("result", c_char * 8)]


class Ptn(Structure):
    _fields_ = [("tags", POINTER(PtnTag)), ("tag_count", c_size_t), ("rules", Rules),
                ("_pad", c_uint8 * 12), ("game", Game), ("comments", POINTER(c_char_p)),
                ("marks", POINTER(c_char_p)), ("preface", c_char_p), ("result", c_char * 8),
                ("branches", POINTER(PtnBranch)), ("branch_count", c_size_t)]


class MoveList(Structure):
    _fields_ = [("count", c_int), ("moves", c_uint32 * MAX_MOVES)]


class SearchLimits(Structure):
    _fields_ = [("depth", c_int), ("nodes", c_uint64), ("movetime_ms", c_int64),
                ("time_left_ms", c_int64 * 2), ("increment_ms", c_int64 * 2),
                ("moves_to_go", c_int), ("infinite", c_bool)]


class SearchInfo(Structure):
    _fields_ = [("depth", c_int), ("seldepth", c_int), ("multipv", c_int), ("score", c_int),
                ("nodes", c_uint64), ("time_ms", c_int64), ("hashfull", c_int),
                ("pv_length", c_int), ("pv", c_uint32 * PV_MAX)]


SearchReport = ctypes.CFUNCTYPE(None, POINTER(SearchInfo), c_void_p)


def new(struct: type) -> Structure:
    """A zeroed instance of `struct` at a 16-byte aligned address (the
    alignment of the C structures that hold 128-bit stacks)."""
    size = ctypes.sizeof(struct)
    buf = (c_char * (size + 16))()
    offset = -ctypes.addressof(buf) % 16
    return struct.from_buffer(buf, offset)  # keeps buf alive


_P = POINTER
_SIGNATURES = {
    "tak_version": (c_char_p, []),
    "tak_rules_standard": (c_bool, [_P(Rules), c_int, _P(Error)]),
    "tak_rules_validate": (c_bool, [_P(Rules), _P(Error)]),
    "tak_position_init": (c_bool, [_P(Position), _P(Rules), _P(Error)]),
    "tak_position_flat_counts": (None, [_P(Position), c_int * 2]),
    "tak_position_has_road": (c_bool, [_P(Position), c_int]),
    "tak_position_road_squares": (c_uint64, [_P(Position), c_int]),
    "tak_position_has_tak": (c_bool, [_P(Position), c_int]),
    "tak_position_equal": (c_bool, [_P(Position), _P(Position)]),
    "tak_moves_generate": (c_int, [_P(Position), _P(MoveList)]),
    "tak_moves_count": (c_uint64, [_P(Position)]),
    "tak_move_check": (c_bool, [_P(Position), c_uint32, _P(Error)]),
    "tak_position_make": (None, [_P(Position), c_uint32, _P(Undo)]),
    "tak_position_unmake": (None, [_P(Position), c_uint32, _P(Undo)]),
    "tak_position_apply": (c_bool, [_P(Position), c_uint32, _P(Error)]),
    "tak_perft": (c_uint64, [_P(Position), c_int]),
    "tak_perft_full": (c_uint64, [_P(Position), c_int]),
    "tak_tps_read": (c_bool, [c_char_p, _P(Rules), _P(Position), _P(Error)]),
    "tak_tps_write": (c_int, [_P(Position), c_char_p, c_size_t]),
    "tak_square_name": (None, [c_int, c_int, c_char_p]),
    "tak_square_parse": (c_int, [c_char_p, c_int]),
    "tak_move_parse": (c_bool, [_P(Position), c_char_p, _P(c_uint32), _P(Error)]),
    "tak_move_write": (c_int, [c_uint32, c_int, _P(Position), c_char_p]),
    "tak_game_init": (c_bool, [_P(Game), _P(Position), _P(Error)]),
    "tak_game_free": (None, [_P(Game)]),
    "tak_game_result": (Result, [_P(Game)]),
    "tak_game_play": (c_bool, [_P(Game), c_uint32, _P(Error)]),
    "tak_game_undo": (c_bool, [_P(Game)]),
    "tak_game_end": (c_bool, [_P(Game), c_int, c_int]),
    "tak_game_occurrences": (c_int, [_P(Game)]),
    "tak_result_code": (c_char_p, [Result]),
    "tak_result_describe": (c_char_p, [Result, c_char_p, c_size_t]),
    "tak_ptn_read": (c_bool, [c_char_p, c_size_t, _P(Ptn), _P(Error)]),
    "tak_ptn_free": (None, [_P(Ptn)]),
    "tak_ptn_tag": (c_char_p, [_P(Ptn), c_char_p]),
    "tak_ptn_set_tag": (c_bool, [_P(Ptn), c_char_p, c_char_p]),
    "tak_ptn_from_game": (c_bool, [_P(Ptn), _P(Game), _P(Error)]),
    "tak_ptn_add_branch": (c_int, [_P(Ptn), c_char_p, c_int, c_size_t, _P(Error)]),
    "tak_ptn_play": (c_bool, [_P(Ptn), c_int, c_uint32, c_char_p, c_char_p, _P(Error)]),
    "tak_ptn_write": (c_void_p, [_P(Ptn)]),
    "tak_engine_new": (c_void_p, [c_size_t, c_int]),
    "tak_engine_free": (None, [c_void_p]),
    "tak_engine_set_level": (None, [c_void_p, c_int]),
    "tak_engine_set_multipv": (None, [c_void_p, c_int]),
    "tak_engine_set_seed": (None, [c_void_p, c_uint64]),
    "tak_engine_new_game": (None, [c_void_p]),
    "tak_engine_stop": (None, [c_void_p]),
    "tak_engine_search": (c_uint32, [c_void_p, _P(Position), _P(c_uint64), c_size_t,
                                     _P(SearchLimits), SearchReport, c_void_p, _P(SearchInfo)]),
    "tak_engine_evaluate": (c_int, [_P(Position)]),
}

for _name, (_res, _args) in _SIGNATURES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args

