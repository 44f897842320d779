"""Positions through the binding: TPS, legal moves, play and undo, results
and roads, perft; bad input raising with the C library's words."""
import re

import pytest

import tak

START5 = "x5/x5/x5/x5/x5 1 1"


def test_empty_board_and_tps_round_trip():
    p = tak.Position(5)
    assert p.tps == START5
    assert (p.size, p.side, p.move_number, p.ply) == (5, tak.WHITE, 1, 0)
    assert p.reserves == ((21, 1), (21, 1))
    tps = "x5/x2,2S,x2/x2,121,x2/x5/x5 1 4"
    q = tak.Position.from_tps(tps)
    assert q.tps == tps and str(q) == tps
    assert q.stack("c3") == "121" and q.stack("c4") == "2S" and q.stack("a1") == ""
    assert tak.Position.from_tps(q.tps) == q


def test_legal_moves_and_counts():
    p = tak.Position(5)
    moves = p.legal_moves()
    assert len(moves) == 25 == p.count_moves()
    assert sorted(str(m) for m in moves) == sorted(f"{f}{r}" for f in "abcde" for r in "12345")
    q = tak.Position.from_tps("x5/x2,2S,x2/x2,121,x2/x5/x5 1 4")
    assert len(q.legal_moves()) == 87 == len(q.legal_move_codes()) == q.count_moves()


def test_play_and_undo_restore_the_position():
    p = tak.Position(5)
    before = p.tps
    played = [p.play(m) for m in ["a1", "e5", "Cc3", "Sd4"]]
    assert [str(m) for m in played] == ["a1", "e5", "Cc3", "Sd4"]
    assert p.tps == "x4,1/x3,2S,x/x2,1C,x2/x5/2,x4 1 3"
    assert p.stack("d4") == "2S" and p.stack("a1") == "2" and p.side == tak.WHITE
    for _ in played:
        p.undo()
    assert p.tps == before
    with pytest.raises(IndexError):
        p.undo()


def test_illegal_moves_say_why_and_change_nothing():
    p = tak.Position.from_tps("x5/x2,2S,x2/x2,121,x2/x5/x5 1 4")
    before = p.tps
    with pytest.raises(tak.IllegalMoveError, match="c3 is not empty"):
        p.play("c3")
    with pytest.raises(tak.IllegalMoveError, match="illegal move 'z9'"):
        p.play("z9")
    with pytest.raises(tak.IllegalMoveError):
        p.play("4c3+")  # the stack has 3 pieces
    with pytest.raises(TypeError):
        p.play(12)
    six = tak.Position(6).legal_moves()[0]
    with pytest.raises(tak.IllegalMoveError, match="6x6"):
        p.play(six)
    assert p.tps == before
    assert not p.is_legal("c3") and p.is_legal("c2")


@pytest.mark.parametrize("bad", ["", "x5/x5 1 1", "x5/x5/x5/x5/x5 3 1", "x5/x5/x5/x5/x5 1 0",
                                 "x5/x5/x5/x5/x6 1 1", "q5/x5/x5/x5/x5 1 1", "x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1"])
def test_bad_tps_raises_with_the_library_message(bad):
    with pytest.raises(tak.TpsError) as e:
        tak.Position.from_tps(bad)
    assert e.value.message.startswith("bad TPS: ") and len(e.value.message) > len("bad TPS: ")
    assert isinstance(e.value, ValueError)


def test_rules_options():
    p = tak.Position.from_tps(START5, komi=2.5, stones=10, capstones=0)
    assert p.komi == 2.5 and p.reserves == ((10, 0), (10, 0))
    with pytest.raises(ValueError):
        tak.Position(5, komi=0.3)
    with pytest.raises(tak.TakError):
        tak.Position(9)
    with pytest.raises(tak.TakError):
        tak.Position(5, komi=11)


def test_road_and_result():
    p = tak.Position.from_tps("1,1,1,1,x/x5/x5/2,2,2,2,x/x5 1 5")
    assert p.has_tak(tak.WHITE) and p.has_tak(tak.BLACK) and not p.is_over
    assert p.result.code == "*"
    p.play("e5")
    r = p.result
    assert r.is_over and r.end == tak.End.ROAD and r.winner == tak.WHITE and r.code == "R-0"
    assert "road" in r.text
    assert p.road(tak.WHITE) == ["a5", "b5", "c5", "d5", "e5"] and p.road(tak.BLACK) == []
    assert p.legal_moves() == [] and p.count_moves() == 0
    with pytest.raises(tak.IllegalMoveError, match="the game is over"):
        p.play("e1")


def test_perft_matches_the_reference_table(shared):
    table = (shared / "spec/perft.md").read_text()
    row = re.search(r"^\| 5 \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", table, re.M)
    want = [int(x) for x in row.groups()]
    p = tak.Position(5)
    assert [p.perft(d) for d in range(1, 4)] == want[:3]
    assert p.perft(3, full=True) == want[2]
    q = tak.Position.from_tps("1,1,x,1,1/2,2,21,2,2/x2,2,x2/x5/x5 1 7")
    assert q.perft(2) == 3727
    with pytest.raises(ValueError):
        p.perft(-1)


def test_flattening_is_written_with_a_star():
    p = tak.Position.from_tps("x5/x5/x2,2S,x2/x2,1C,x2/x5 1 3")
    m = p.parse_move("c2+")
    assert str(m) == "c2+" and p.move_text(m) == "c2+*"
    p.play(m)
    assert p.stack("c3") == "21C"


def test_positions_compare_by_value_and_hash_by_key():
    a, b = tak.Position(5), tak.Position.from_tps(START5)
    assert a == b and a.hash == b.hash
    a.play("a1")
    assert a != b and a.hash != b.hash
    with pytest.raises(TypeError):
        hash(a)
