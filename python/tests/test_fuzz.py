"""Fuzzing the binding's boundary: mutated TPS, PTN, moves and rule options
go through every entry point that parses. Each must either work (and then
round-trip) or raise one of the binding's exceptions; never crash the
interpreter (a crash fails the whole run). Seeded, so a failure replays;
TAK_FUZZ_ITERATIONS runs it longer."""
import os
import random

import pytest

import tak

SEEDS_TPS = ["x5/x5/x5/x5/x5 1 1", "x5/x2,2S,x2/x2,121,x2/x5/x5 1 4",
             "x2,2,x,2/x,12,x,12,x/212,x2,2121C,x/x,1,112221,1,1/x5 2 21",
             "x8/x8/x8/x8/x8/x8/x8/22221111,2,x6 1 9", "1,1,1,1,x/x5/x5/2,2,2,2,x/x5 1 5"]
SEEDS_PTN = ['[Size "5"]\n[Komi "2"]\n\n1. a1 e5 {n}\n2. Cc3 Sd3\n3. c3> d3<?\n\n{2w1}\n2. b2 c2\n',
             '[Size "4"]\n\n1. Fc2 Fa3\n2. Fd4 Fd3\n3. 1d4-1 Fd2\n4. 2d3-2 1c2>1 R-0\n']
SEEDS_MOVES = ["a1", "Sd3", "Cc3", "3b2+111", "e4<*'", "c3>", "2a1>11", "1c3", "8h8-1111112"]
ALPHABET = "x12345678/,SCFabcdefgh+-<>*'!?{}[]\". \n\t-0\\\x00é"
N = int(os.environ.get("TAK_FUZZ_ITERATIONS", "3000"))
ALLOWED = (tak.TakError, ValueError, TypeError, IndexError)


def mutate(rng: random.Random, text: str) -> str:
    s = list(text)
    for _ in range(rng.choice([1, 1, 1, 2, 4])):
        op = rng.randrange(5)
        i = rng.randrange(len(s) + 1)
        if op == 0 and s:
            del s[min(i, len(s) - 1)]
        elif op == 1:
            s.insert(i, rng.choice(ALPHABET))
        elif op == 2 and s:
            s[min(i, len(s) - 1)] = rng.choice("x12S1C2,/" if rng.random() < 0.7 else ALPHABET)
        elif op == 3:
            s[i:i] = list(rng.choice(SEEDS_TPS + SEEDS_MOVES))
        else:
            j = rng.randrange(len(s) + 1)
            s[i:j] = s[i:j] * rng.randint(0, 30)
    return "".join(s)


def test_fuzz_tps_and_moves():
    rng = random.Random(41)
    ok = 0
    for _ in range(N):
        text = mutate(rng, rng.choice(SEEDS_TPS))
        opts = rng.choice([{}, {"komi": rng.choice([0, 2.5, -3, 0.25, 99])},
                           {"stones": rng.randint(-2, 80), "capstones": rng.randint(-1, 70)},
                           {"no_pass": False, "repetition_draw": True}])
        try:
            p = tak.Position.from_tps(text, **opts)
        except ALLOWED:
            continue
        ok += 1
        assert tak.Position.from_tps(p.tps, **opts) == p
        for m in [mutate(rng, rng.choice(SEEDS_MOVES)) for _ in range(3)]:
            before = p.copy()
            try:
                played = p.play(m)
            except ALLOWED:
                assert p == before
                continue
            assert played in before.legal_moves()
            p.undo()
            assert p == before
        moves = p.legal_moves()
        if moves:
            p.play(rng.choice(moves))
            p.undo()
        assert len(moves) == p.count_moves()
    assert ok > N // 20, "the mutations reject almost every TPS: the fuzzer tests nothing"


def test_fuzz_ptn():
    rng = random.Random(42)
    ok = 0
    for _ in range(N):
        text = mutate(rng, rng.choice(SEEDS_PTN))
        try:
            g = tak.PtnGame.read(text)
        except ALLOWED:
            continue
        ok += 1
        again = tak.PtnGame.read(g.write())
        assert again.position == g.position and again.moves == g.moves
        assert len(again.branches) == len(g.branches)
    assert ok > N // 50


@pytest.mark.parametrize("bad", [None, 5, b"x5/x5/x5/x5/x5 1 1", "x5/x5/x5/x5/x5 1 1\x00junk",
                                 "x5/" * 100000 + " 1 1"])
def test_hostile_values_raise(bad):
    with pytest.raises(ALLOWED):
        tak.Position.from_tps(bad)
    with pytest.raises(ALLOWED):
        tak.PtnGame.read(bad)
    with pytest.raises(ALLOWED):
        tak.Position(5).play(bad)


def test_fuzz_move_codes():
    """Moves built from raw codes: refused when they name no square of the
    board, else written and checked by the library without harm."""
    rng = random.Random(43)
    p = tak.Position.from_tps(SEEDS_TPS[2])
    legal = set(p.legal_moves())
    played = 0
    for _ in range(N):
        code = rng.choice([rng.getrandbits(18), rng.getrandbits(32), rng.randrange(-5, 64)])
        size = rng.choice([5, 5, 5, rng.randrange(-1, 12)])
        try:
            m = tak.Move(code, size)
        except ALLOWED:
            continue
        assert len(str(m)) >= 2
        try:
            p.play(m)
        except ALLOWED:
            assert m not in legal
            continue
        assert m in legal
        played += 1
        p.undo()
    assert played > 0
    with pytest.raises(ValueError):
        tak.Move(63, 5)
