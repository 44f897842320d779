"""The engine through the binding: best move and score with limits, several
lines, levels, games with repetition; absurd limits refused."""
import random

import pytest

import tak

ROAD_IN_ONE = "1,1,1,1,x/x5/x5/2,2,2,2,x/x5 1 5"


def test_takes_the_road_in_one():
    with tak.Engine() as e:
        r = e.search(tak.Position.from_tps(ROAD_IN_ONE), nodes=5000)
        assert str(r.best) == "e5" and r.win_in == 1 and r.score == 0
        assert r.pv[0] == r.best and r.nodes > 0 and r.depth >= 1


def test_limits_are_obeyed():
    e = tak.Engine()
    p = tak.Position(6)
    r = e.search(p, depth=2)
    assert r.depth == 2 and r.best in p.legal_moves()
    r = e.search(p, nodes=3000)
    assert r.nodes <= 3000 + 2000  # checked between batches of nodes
    r = e.search(p, time_ms=50)
    assert r.time_ms < 1000 and r.best is not None


def test_several_lines():
    e = tak.Engine()
    r = e.search(tak.Position(5), depth=3, lines=3)
    assert [line.multipv for line in r.lines] == [1, 2, 3]
    firsts = {str(line.pv[0]) for line in r.lines}
    assert len(firsts) == 3 and str(r.best) in firsts
    assert r.lines[0].score >= r.lines[2].score - 50


def test_levels_and_seeds_replay():
    def game(seed):
        e = tak.Engine(level=2, seed=seed)
        g = tak.Game(5)
        for _ in range(12):
            if g.is_over:
                break
            g.play(e.best_move(g, nodes=2000))
        return [str(m) for m in g.moves]
    assert game(7) == game(7)


def test_absurd_limits_raise_and_do_not_search():
    e = tak.Engine()
    p = tak.Position(5)
    for bad in [dict(nodes=0), dict(nodes=-5), dict(nodes=1 << 64), dict(time_ms=-1),
                dict(time_ms=1 << 62), dict(depth=0), dict(depth=1000), dict(lines=0),
                dict(lines=17), dict(nodes=1.5), dict(nodes="9"), dict(nodes=True)]:
        with pytest.raises((ValueError, TypeError)):
            e.search(p, **bad)
    with pytest.raises(ValueError):
        tak.Engine(level=0)
    with pytest.raises(ValueError):
        tak.Engine(level=11)
    with pytest.raises(ValueError):
        tak.Engine(hash_mb=0)
    with pytest.raises(ValueError):
        tak.Engine(threads=-1)
    with pytest.raises(TypeError):
        e.search("x5/x5/x5/x5/x5 1 1")
    e.close()
    with pytest.raises(ValueError, match="closed"):
        e.search(p)


def test_finished_game_has_no_move():
    p = tak.Position.from_tps(ROAD_IN_ONE)
    p.play("e5")
    e = tak.Engine()
    assert e.search(p, nodes=100).best is None
    with pytest.raises(ValueError, match="over"):
        e.best_move(p, nodes=100)


def test_five_line_script_plays_a_game_against_the_engine():
    random.seed(3)
    game, engine = tak.Game(size=5), tak.Engine(level=3)
    while not game.is_over:
        game.play(random.choice(game.legal_moves()) if game.position.side == tak.WHITE
                  else engine.best_move(game, nodes=2000))
    assert game.result.is_over and game.result.code != "*"
    assert tak.PtnGame.read(game.to_ptn()).position == game.position


def test_game_undo_resign_and_repetition():
    g = tak.Game(5, repetition_draw=True)
    g.play("a1")
    g.play("e5")
    g.undo()
    assert len(g) == 1
    g.resign(tak.BLACK)
    assert g.result.code == "1-0" and g.is_over
    with pytest.raises(tak.IllegalMoveError, match="over"):
        g.play("e5")
    g.undo()
    assert not g.is_over and len(g) == 0


def test_close_while_another_thread_searches():
    """close() stops a search running in another thread and frees the engine
    only once that search has returned (it used to free it under the search)."""
    import threading
    import time

    e = tak.Engine()
    p = tak.Position(6)
    result = {}
    t = threading.Thread(target=lambda: result.update(r=e.search(p, time_ms=60_000)))
    t.start()
    time.sleep(0.3)
    start = time.monotonic()
    e.close()
    t.join(timeout=30)
    assert not t.is_alive() and time.monotonic() - start < 10
    assert result["r"].best in p.legal_moves()
    e.stop()  # after close: nothing to stop, no crash
    with pytest.raises(ValueError, match="closed"):
        e.search(p, depth=1)
