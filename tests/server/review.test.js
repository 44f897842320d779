// review.test.js: the messages added for review and new games: `analyze` (the
// engine's score and line for a past position of a finished game, from a
// worker), with its bad input answered by errors. Run: node --test tests/server/
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { serverForTests, friendGame, play, connect, waitFor } = require('./lib.js');

const srv = serverForTests(test);

test('analyze: score and best line of a past position, once the game is over', async () => {
  const { a, b, game } = await friendGame(srv.port);
  await play(a, b, ['c3', 'a3', 'a2', 'c2']);
  let r = await a.send({ type: 'analyze', ply: 2 });
  assert.match(r.message, /when the game is over/, 'no coaching during the game');
  await play(a, b, ['b3', 'b1', 'a1']); // White misses nothing: a1-a2-a3
  await a.nextState((s) => s.result);

  // A watcher may ask too. After c3 a3 a2 c2, White wins at once with a1.
  const w = await connect(srv.port);
  await w.send({ type: 'join', game });
  r = await w.send({ type: 'analyze', ply: 4 });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.equal(r.for, 'analyze');
  assert.equal(r.ply, 4);
  assert.equal(r.best, 'a1');
  assert.deepEqual(r.pv.slice(0, 1), ['a1']);
  assert.equal(r.win_in, 1, 'White wins in one ply');
  assert.ok(r.score > 0 && r.depth >= 1 && r.nodes >= 1, JSON.stringify(r));

  // The start: some line, a finite score; the final position: nothing to play.
  r = await a.send({ type: 'analyze', ply: 0, game });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.ok(r.pv.length >= 1 && /^[a-c][1-3]$/.test(r.best), JSON.stringify(r));
  r = await a.send({ type: 'analyze', ply: 7 });
  assert.deepEqual([r.type, r.best, r.pv], ['ok', null, []]);

  // One at a time per connection: the second is refused, the first answered.
  const first = b.send({ type: 'analyze', ply: 1 });
  const second = await b.send({ type: 'analyze', ply: 2 });
  assert.match(second.message, /one analysis at a time/);
  assert.equal((await first).type, 'ok');
  for (const c of [a, b, w]) await c.close();
});

test('analyze: a cap on queued analyses that leaving and joining again does not get around', async () => {
  const { a, b, game } = await friendGame(srv.port, { size: 6 });
  await play(a, b, ['a1', 'f6']);
  assert.equal((await a.send({ type: 'resign' })).type, 'ok');
  const c = await connect(srv.port);
  const replies = [];
  for (let i = 0; i < 8; i++) {
    assert.equal((await c.send({ type: 'join', game })).type, 'ok');
    c.send({ type: 'analyze', ply: i % 3 }).then((r) => replies.push(r), () => {});
    assert.equal((await c.send({ type: 'leave' })).type, 'ok');
  }
  await waitFor(() => replies.length >= 3, 3000);
  // Answers for a connection that left are dropped; what comes back is refusals.
  assert.ok(replies.every((r) => r.type === 'error' && /busy with other analyses/.test(r.message)),
    JSON.stringify(replies));
  // Once the queue drains, analysis opens again.
  assert.equal((await c.send({ type: 'join', game })).type, 'ok');
  let r;
  for (let tries = 0; tries < 100; tries++) {
    r = await c.send({ type: 'analyze', ply: 1 });
    if (r.type === 'ok') break;
    assert.match(r.message, /busy with other analyses/);
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.equal(r.type, 'ok', JSON.stringify(r));
  for (const x of [a, b, c]) await x.close();
});

test('analyze: bad input is refused and the connection stays usable', async () => {
  const c = await connect(srv.port);
  assert.match((await c.send({ type: 'analyze', ply: 0 })).message, /join a game first/);
  const { a, b, game } = await friendGame(srv.port);
  await play(a, b, ['a1', 'c3']);
  assert.equal((await a.send({ type: 'resign' })).type, 'ok');
  await c.send({ type: 'join', game });
  for (const [msg, why] of [
    [{}, /'ply' must be from 0 to 2/],
    [{ ply: 3 }, /'ply' must be from 0 to 2/],
    [{ ply: -1 }, /'ply'/],
    [{ ply: 'one' }, /'ply' must be a whole number/],
    [{ ply: 1.5 }, /'ply' must be a whole number/],
    [{ ply: 1, game: 'zzzzzzzzzz' }, /follows game/],
    [{ ply: 1, game: 7 }, /'game' must be a string/],
  ]) {
    const r = await c.send({ type: 'analyze', ...msg });
    assert.equal(r.type, 'error', JSON.stringify(msg));
    assert.equal(r.for, 'analyze');
    assert.match(r.message, why, JSON.stringify(msg));
  }
  assert.equal((await c.send({ type: 'analyze', ply: 2 })).type, 'ok');
  // Leaving drops an answer still on its way; the connection goes on.
  const pending = c.send({ type: 'analyze', ply: 1 });
  await c.send({ type: 'leave' });
  assert.equal((await c.send({ type: 'ping' })).type, 'ok');
  void pending;
  for (const x of [a, b, c]) await x.close();
});

test('setup (rule enforcement off): the server checks each edited board as a TPS', async () => {
  const c = await connect(srv.port);
  const empty = Array(9).fill('');
  let r = await c.send({ type: 'setup', size: 3, board: empty });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.equal(r.tps, 'x3/x3/x3 1 1', 'an empty board starts at move 1');
  assert.deepEqual(r.stash, [[10, 0], [10, 0]]);
  // Anything goes: stacks of both colours, walls, Black to move, a move number.
  const board = ['12', '', '2S', '', '1', '', '', '', '21'];
  r = await c.send({ type: 'setup', size: 3, board, turn: 'black', move_number: 7 });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.equal(r.tps, 'x2,21/x,1,x/12,x,2S 2 7');
  assert.deepEqual([r.turn, r.move_number, r.result], ['black', 7, null]);
  assert.deepEqual(r.stash, [[7, 0], [7, 0]]);
  // Custom reserves and capstones count too; a road shows as a result.
  r = await c.send({ type: 'setup', size: 4, stones: 12, capstones: 1, board: ['1C', '1', '1', '1', ...Array(12).fill('')] });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.deepEqual(r.stash[0], [9, 0]);
  assert.match(r.result.code, /R-0/);
  // The TPS continues as a game.
  r = await c.send({ type: 'create', opponent: 'engine', level: 1, color: 'white', tps: 'x2,21/x,1,x/12,x,2S 1 7' });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  const s = await c.nextState((s) => s.game === r.game);
  assert.deepEqual([s.ply, s.move_number, s.turn, s.start], [0, 7, 'white', 'x2,21/x,1,x/12,x,2S 1 7']);
  assert.equal(s.no_pass, true);
  for (const [msg, why] of [
    [{ size: 3 }, /'board' must be an array of 9/],
    [{ size: 3, board: Array(8).fill('') }, /'board' must be an array of 9/],
    [{ size: 9, board: [] }, /'size'/],
    [{ size: 3, board: ['3', ...Array(8).fill('')] }, /square a1/],
    [{ size: 3, board: ['S', ...Array(8).fill('')] }, /square a1/],
    [{ size: 3, board: ['1S1', ...Array(8).fill('')] }, /square a1/],
    [{ size: 3, board: [7, ...Array(8).fill('')] }, /square a1/],
    [{ size: 3, board: ['1'.repeat(11), ...Array(8).fill('')] }, /./],
    [{ size: 3, board: ['1C', ...Array(8).fill('')] }, /./], // no capstones on 3x3
    [{ size: 3, board: empty, turn: 'red' }, /'turn'/],
    [{ size: 3, board: empty, move_number: 0 }, /'move_number'/],
    [{ size: 3, board: empty, komi: 'lots' }, /komi/],
    [{ size: 3, board: empty, stones: 0 }, /'stones'/],
  ]) {
    const e = await c.send({ type: 'setup', ...msg });
    assert.equal(e.type, 'error', JSON.stringify(msg));
    assert.equal(e.for, 'setup');
    assert.match(e.message, why, JSON.stringify(msg));
  }
  assert.equal((await c.send({ type: 'ping' })).type, 'ok');
  await c.close();
});

test('matches: rematch swaps colours (same players, same rules), score rows carry the rule book points', async () => {
  const { a, b, game } = await friendGame(srv.port, { komi: 1 });
  assert.match((await a.send({ type: 'rematch', number: 2, of: 3 })).message, /not over/);
  await play(a, b, ['c3', 'a3', 'a2', 'c2', 'b3', 'b1', 'a1']); // White (a) wins by road
  await a.nextState((s) => s.result);
  const w = await connect(srv.port);
  await w.send({ type: 'join', game });
  assert.match((await w.send({ type: 'rematch', number: 2, of: 3 })).message, /only a player/);
  for (const [msg, why] of [
    [{ number: 1, of: 3 }, /'number'/],
    [{ number: 4, of: 3 }, /past the match/],
    [{ number: 2, of: 99 }, /'of'/],
    [{ number: 'two', of: 3 }, /'number'/],
  ]) assert.match((await a.send({ type: 'rematch', ...msg })).message, why, JSON.stringify(msg));

  // b asks first: the next game is made, a hears of it, a asking too joins it.
  const r = await b.send({ type: 'rematch', number: 2, of: 3 });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.deepEqual([r.seat, r.from, r.number, r.of], ['white', game, 2, 3]);
  const pushed = await (async () => { for (let i = 0; i < 200; i++) { const m = a.others.find((o) => o.type === 'next'); if (m) return m; await new Promise((res) => setTimeout(res, 10)); } })();
  assert.deepEqual([pushed.game, pushed.from, pushed.number, pushed.of], [r.game, game, 2, 3]);
  const r2 = await a.send({ type: 'rematch', number: 2, of: 3 });
  assert.deepEqual([r2.type, r2.game, r2.seat], ['ok', r.game, 'black']);
  const s = await b.nextState((s) => s.game === r.game);
  assert.deepEqual([s.komi, s.size, s.ply, s.seats.white, s.seats.black], [1, 3, 0, 'taken', 'taken']);
  // The seat secrets carry over: b plays White now, a Black.
  assert.equal((await b.send({ type: 'move', move: 'a1' })).type, 'ok');
  assert.match((await b.send({ type: 'move', move: 'a2' })).message, /not your turn/);
  assert.equal((await a.send({ type: 'move', move: 'c3' })).type, 'ok');
  assert.equal((await a.send({ type: 'resign' })).type, 'ok'); // Black resigns: b wins game 2

  // Each winner scores the 9 squares plus the stones left in their reserve.
  const sc = await w.send({ type: 'score', games: [game, r.game] });
  assert.equal(sc.type, 'ok', JSON.stringify(sc));
  assert.deepEqual(sc.rows.map((x) => [x.result, x.winner]), [['R-0', 'white'], ['1-0', 'white']]);
  assert.equal(sc.rows[0].points, 9 + 10 - 4, 'White\'s a3 (placed by Black), a2, b3, a1 are on the board');
  assert.equal(sc.rows[1].points, 9 + 10 - 1, 'one White flat (c3, placed by Black) is on the board');
  for (const [msg, why] of [
    [{}, /'games'/], [{ games: [] }, /'games'/], [{ games: 'abc' }, /'games'/],
    [{ games: Array(26).fill(game) }, /'games'/], [{ games: [5] }, /no game/], [{ games: ['zzzzzzzzzz'] }, /no game/],
  ]) assert.match((await w.send({ type: 'score', ...msg })).message, why, JSON.stringify(msg));
  // Against the engine: the engine's colour swaps too.
  const e = await connect(srv.port);
  const ce = await e.send({ type: 'create', opponent: 'engine', level: 1, size: 3, color: 'white' });
  await e.nextState((s) => s.game === ce.game);
  await e.send({ type: 'resign' });
  const re = await e.send({ type: 'rematch', number: 2, of: 2 });
  assert.deepEqual([re.type, re.seat], ['ok', 'black']);
  const se = await e.nextState((s) => s.game === re.game && s.ply === 1); // the engine opens as White
  assert.equal(se.seats.white, 'engine');
  for (const c of [a, b, w, e]) await c.close();
});
