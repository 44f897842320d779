// takat.test.js: TAKAT (the second game) over the WebSocket: create against
// the AI or a friend, join by invitation, turns checked by the TAKAT module
// (bad and illegal ones refused with its reason), a game against the AI
// played to its end, resignation. Run: node --test tests/server/
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { serverForTests, connect } = require('./lib.js');

const srv = serverForTests(test);

// Waits for the next takat_state satisfying pred.
function takatState(c, pred = () => true, ms = 10000) {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error('no such takat state')), ms);
    const look = () => {
      const s = [...c.others].reverse().find((m) => m.type === 'takat_state');
      if (s && pred(s)) { clearTimeout(t); res(s); return true; }
      return false;
    };
    if (look()) return;
    c.ws.on('message', function on() { if (look()) c.ws.off('message', on); });
  });
}

test('HTTP: /t/ID is the page, its script (takat.js bundled in /app.js) is served', async () => {
  for (const [path, type] of [['/t/abcdefghij', 'text/html'], ['/app.js', 'text/javascript']]) {
    const res = await fetch(srv.url + path);
    assert.equal(res.status, 200, path);
    assert.ok(res.headers.get('content-type').startsWith(type), path);
  }
});

test('TAKAT against the AI, to the end: legal turns from the server, the AI answers', async () => {
  const c = await connect(srv.port);
  const r = await c.send({ type: 'takat_create', opponent: 'engine', level: 1, color: 'white' });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  let s = await takatState(c, (s) => s.game === r.game);
  assert.deepEqual(s.legal.sort(), ['a1', 'a2', 'b1', 'b3', 'c2', 'c3']);
  assert.deepEqual([s.centre, s.red.sort().join(), s.turn, s.ko, s.reserve.join()], ['b2', 'a1,b3,c2', 'white', null, '6,15']);
  assert.deepEqual(s.seats, { white: 'taken', black: 'engine' });
  assert.equal(s.perfect, null, 'no tables: no verdict');
  for (const [turn, why] of [['b2', /centre|b2/i], ['zz', /bad turn/], ['a2-a2', /bad turn/], ['b2-c3', /./],
    ['aé', /./], ['xé', /./], ['a2-bé', /./]]) {
    const e = await c.send({ type: 'takat_turn', turn });
    assert.equal(e.type, 'error', turn);
    assert.match(e.message, why, turn);
  }
  assert.match((await c.send({ type: 'takat_turn', turn: 5 })).message, /'turn' must be a string/);
  assert.match((await c.send({ type: 'takat_turn', turn: 'a2', ply: 3 })).message, /moved on/);
  assert.equal((await c.send({ type: 'takat_turn', turn: 'a2', ply: 0 })).type, 'ok');
  s = await takatState(c, (s) => s.ply === 2);
  assert.equal(s.moves[0], 'a2');
  assert.ok(s.ko, 'the AI\'s cell is the ko cell');
  // Play the first legal turn each time until the game ends.
  for (let i = 0; i < 400 && !s.result; i++) {
    if (s.turn === 'white' && !s.thinking) {
      const m = await c.send({ type: 'takat_turn', turn: s.legal[0], ply: s.ply });
      assert.equal(m.type, 'ok', JSON.stringify(m));
    }
    const ply = s.ply;
    s = await takatState(c, (x) => x.result || (x.ply > ply && x.turn === 'white'));
  }
  assert.ok(s.result, 'the game ended');
  assert.match(s.result.text, /wins|Draw/);
  assert.deepEqual(s.legal, []);
  assert.match((await c.send({ type: 'takat_turn', turn: 'a1' })).message, /over/);
  await c.close();
});

test('TAKAT between friends: invitation, turns in order, watchers, resignation; bad input', async () => {
  const a = await connect(srv.port);
  assert.match((await a.send({ type: 'takat_turn', turn: 'a2' })).message, /join a TAKAT game first/);
  assert.match((await a.send({ type: 'takat_create', level: 11 })).message, /'level'/);
  assert.match((await a.send({ type: 'takat_create', opponent: 'cat' })).message, /'opponent'/);
  const r = await a.send({ type: 'takat_create', opponent: 'friend', color: 'black' });
  assert.equal(r.seat, 'black');
  assert.equal(r.invite.length, 24);
  const b = await connect(srv.port);
  assert.match((await b.send({ type: 'takat_join', game: r.game, invite: 'x'.repeat(24) })).message, /invitation/);
  assert.match((await b.send({ type: 'takat_join', game: 'zzzzzzzzzz' })).message, /no TAKAT game/);
  assert.match((await b.send({ type: 'takat_join', game: r.game, token: 'nope' })).message, /secret/);
  const j = await b.send({ type: 'takat_join', game: r.game, invite: r.invite });
  assert.deepEqual([j.type, j.seat], ['ok', 'white']);
  assert.match((await a.send({ type: 'takat_turn', turn: 'a2' })).message, /not your turn/);
  assert.equal((await b.send({ type: 'takat_turn', turn: 'a2' })).type, 'ok');
  // Black has fewer stones on the board: a forced drop, and never on a2.
  const s = await takatState(a, (s) => s.ply === 1);
  assert.equal(s.forced_drop, true);
  assert.deepEqual(s.legal.sort(), ['a1', 'b1', 'b3', 'c2', 'c3']);
  assert.match((await a.send({ type: 'takat_turn', turn: 'a2-b2' })).message, /illegal/);
  const w = await connect(srv.port);
  assert.equal((await w.send({ type: 'takat_join', game: r.game })).seat, null);
  assert.match((await w.send({ type: 'takat_turn', turn: 'a1' })).message, /only a player/);
  assert.match((await w.send({ type: 'takat_join', game: r.game, invite: r.invite })).message, /used/);
  assert.equal((await a.send({ type: 'takat_resign' })).type, 'ok');
  const end = await takatState(w, (s) => s.result);
  assert.deepEqual([end.result.winner, end.result.text], ['white', 'White wins: Black resigned']);
  // A Tak message on a TAKAT connection is refused, and the other way round.
  assert.match((await a.send({ type: 'move', move: 'a1' })).message, /join a game first/);
  for (const c of [a, b, w]) await c.close();
});

test('--takat-layers: a directory without solved layers leaves level 10 to its search; a missing one is refused', async () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { spawnSync } = require('node:child_process');
  const { TAK } = require('./lib.js');
  const missing = path.join(os.tmpdir(), 'tak-no-such-layers-' + process.pid);
  const bad = spawnSync(TAK, ['serve', '--port', '0', '--takat-layers', missing], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /cannot read .*tak-no-such-layers/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tak-layers-'));
  const { startServer } = require('./lib.js');
  const s2 = await startServer({ args: ['--takat-layers', dir] });
  try {
    const c = await connect(s2.port);
    const r = await c.send({ type: 'takat_create', opponent: 'engine', level: 10, color: 'black' });
    assert.equal(r.type, 'ok', JSON.stringify(r));
    const s = await takatState(c, (x) => x.game === r.game && x.ply === 1, 30000);
    assert.equal(s.perfect, null, 'no table reaches the position: no verdict');
    assert.equal(s.moves.length, 1, 'the AI played by its search');
    await c.close();
  } finally {
    await s2.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
