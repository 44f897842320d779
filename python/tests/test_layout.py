"""The ctypes structures against the C headers: sizes and the offsets of every
field the binding reads, as the C compiler lays them out."""
import ctypes
import shutil
import subprocess

import pytest

from tak import _lib
from conftest import REPO

FIELDS = {
    "TakPosition": (_lib.Position, ["rules", "owner", "walls", "caps", "height", "stack", "stones",
                                    "capstones", "side", "ply", "hash", "result"]),
    "TakUndo": (_lib.Undo, ["hash", "result", "flattened"]),
    "TakRules": (_lib.Rules, ["size", "stones", "capstones", "half_komi", "no_pass", "repetition_draw"]),
    "TakGame": (_lib.Game, ["start", "current", "moves", "hashes", "count", "capacity", "ended"]),
    "TakPtnBranch": (_lib.PtnBranch, ["name", "parent", "start", "game", "comments", "marks",
                                      "preface", "result"]),
    "TakPtn": (_lib.Ptn, ["tags", "tag_count", "rules", "game", "comments", "marks", "preface",
                          "result", "branches", "branch_count"]),
    "TakMoveList": (_lib.MoveList, ["count", "moves"]),
    "TakSearchLimits": (_lib.SearchLimits, ["depth", "nodes", "movetime_ms", "time_left_ms",
                                            "increment_ms", "moves_to_go", "infinite"]),
    "TakSearchInfo": (_lib.SearchInfo, ["depth", "seldepth", "multipv", "score", "nodes", "time_ms",
                                        "hashfull", "pv_length", "pv"]),
    "TakError": (_lib.Error, ["line", "column", "message"]),
}


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    d = tmp_path_factory.mktemp("layout")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "tak/tak.h"',
             '#include "tak/engine.h"', "int main(void) {"]
    for name, (_, fields) in FIELDS.items():
        lines.append(f'printf("{name} %zu\\n", sizeof({name}));')
        for f in fields:
            lines.append(f'printf("{name}.{f} %zu\\n", offsetof({name}, {f}));')
    lines.append("return 0; }")
    (d / "layout.c").write_text("\n".join(lines))
    subprocess.run([cc, "-std=c11", "-I", str(REPO / "include"), str(d / "layout.c"), "-o",
                    str(d / "layout")], check=True)
    out = subprocess.run([str(d / "layout")], check=True, capture_output=True, text=True).stdout
    return dict((k, int(v)) for k, v in (line.split() for line in out.splitlines()))


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_struct_matches_c(c_layout, name):
    struct, fields = FIELDS[name]
    assert ctypes.sizeof(struct) == c_layout[name], f"sizeof({name})"
    for f in fields:
        assert getattr(struct, f).offset == c_layout[f"{name}.{f}"], f"{name}.{f}"


def test_positions_are_16_byte_aligned():
    for _ in range(50):
        assert ctypes.addressof(_lib.new(_lib.Position)) % 16 == 0
