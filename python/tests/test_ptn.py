"""PTN games through the binding: real games replayed as the command replays
them, branches and notes read and written back, errors with line and column."""
import subprocess

import pytest

import tak
from conftest import REPO

BRANCHED = """[Size "5"]
[Player1 "Ann"]

{before it all}
1. a1 e5 {a note}
2. c3 d3?
3. c4 d4 R-0

{2w1}
2. b3 {why not} c2
3. c4 d5

{2w1/3b1}
3. -- b2!
"""


def test_real_game_matches_tak_replay(shared):
    path = shared / "games/real/0001_s4.ptn"
    game = tak.PtnGame.read(path.read_text())
    tak_bin = REPO / "build/tak"
    if tak_bin.exists():
        want = subprocess.run([str(tak_bin), "replay", str(path)], capture_output=True, text=True,
                              check=True).stdout.split("\n")
        assert game.position.tps == want[0]
        assert game.position.result.code == want[1]
    assert game.position.tps == "x,1,x2/1,1,22221,212/x,1,221,22221S/x2,1,2 2 21"
    assert game.tags["Size"] == "4" and game.tag("size") == "4"
    assert len(game.moves) == 41 and game.moves[0] == "c2"


def test_every_real_game_replays(shared):
    files = sorted((shared / "games/real").glob("*.ptn"))[:40]
    assert files
    for f in files:
        g = tak.PtnGame.read(f.read_text())
        again = tak.PtnGame.read(g.write())
        assert again.position == g.position, f.name


def test_branches_notes_and_marks():
    g = tak.PtnGame.read(BRANCHED)
    assert g.tags == {"Size": "5", "Player1": "Ann"}
    assert g.preface == "before it all"
    assert g.moves == ["a1", "e5", "c3", "d3", "c4", "d4"]
    assert g.comments[1] == "a note" and g.marks[3] == "?"
    assert g.result == "R-0"
    b = g.branches
    assert [x.name for x in b] == ["2w1", "2w1/3b1"]
    assert (b[0].parent, b[0].start, b[0].moves, b[0].comments) == (-1, 2, ["b3", "c2", "c4", "d5"], ["why not", None, None, None])
    assert (b[1].parent, b[1].start, b[1].moves, b[1].marks) == (0, 5, ["b2"], ["!"])
    again = tak.PtnGame.read(g.write())
    assert again.write() == g.write()
    assert again.branches == b and again.comments == g.comments


def test_build_a_game_with_a_branch():
    g = tak.PtnGame.from_game(tak.Game(5))
    for m in ["a1", "e5", "c3"]:
        g.play(m)
    i = g.add_branch("2w1", start=2)
    g.play("b2", line=i, comment="the other way", marks="!?")
    g.set_tag("Player1", "Bo")
    text = g.write()
    assert '[Player1 "Bo"]' in text and "{2w1}" in text and "b2!? {the other way}" in text
    back = tak.PtnGame.read(text)
    assert back.branches[0].moves == ["b2"] and back.moves == ["a1", "e5", "c3"]
    with pytest.raises(tak.IllegalMoveError):
        g.play("a1")  # taken
    with pytest.raises(tak.TakError):
        g.add_branch("bad{name", start=1)
    with pytest.raises(ValueError):
        g.play("d4", line=7)


@pytest.mark.parametrize("text,line,column,words", [
    ('[Size "5"]\n\n1. a1 e5\n2. a1 b2\n', 4, 4, "a1"),
    ('[Size "5"]\n\n1. a1 e5\n2. c3 q9\n', 4, 7, ""),
    ('[Size "5"\n', 1, 0, ""),
    ('[Size "12"]\n\n1. a1\n', 1, 0, ""),
])
def test_bad_ptn_says_where(text, line, column, words):
    with pytest.raises(tak.PtnError) as e:
        tak.PtnGame.read(text)
    assert e.value.line == line
    if column:
        assert e.value.column == column
    assert words in e.value.message and str(e.value).startswith(f"line {line}")


def test_game_to_ptn_and_back():
    game = tak.Game(4)
    for m in ["a1", "d4", "b2", "c3", "b3", "c2", "b4", "c1", "b1"]:
        game.play(m)
    assert game.is_over and game.result.code == "R-0"
    back = tak.PtnGame.read(game.to_ptn({"Event": "test"}))
    assert back.tag("Event") == "test" and back.tag("Result") == "R-0"
    assert back.position == game.position
    assert [str(m) for m in back.game().moves] == back.moves
