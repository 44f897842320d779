// clock.test.js: the server's game clocks: refused time controls; no clock
// before both sides have moved; the mover charged and the increment and
// extra time added; a flag while nobody moves, a move after the flag; a
// takeback giving the time back; the engine on the clock; the Clock tag and
// the time result in the PTN; and a restart, during which no clock runs
// (unless another server sharing the store stays up), nor after it till
// both players are back.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { startServer, serverForTests, connect, play } = require('./lib.js');

const srv = serverForTests(test);
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

async function timedGame(port, clock, opts = {}) {
  const a = await connect(port);
  const r = await a.send({ type: 'create', opponent: 'friend', size: 3, ...clock, ...opts });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  await a.nextState((s) => s.game === r.game);
  const b = await connect(port);
  const j = await b.send({ type: 'join', game: r.game, invite: r.invite });
  assert.equal(j.type, 'ok');
  await b.nextState();
  return { a, b, game: r.game, token: r.token, tokenB: j.token };
}

test('time controls: refused ones say why', async () => {
  const c = await connect(srv.port);
  const cases = [
    [{ time: -1 }, /'time' must be a number of seconds from 0 to 10800/],
    [{ time: 'ten' }, /'time' must be a number/],
    [{ time: 0.5 }, /at least 1 second/],
    [{ increment: 5 }, /needs a 'time'/],
    [{ time: 60, extra_time: 30 }, /go together/],
    [{ time: 60, extra_move: 20 }, /go together/],
    [{ time: 60, increment: 301 }, /'increment' must be/],
    [{ time: 60, extra_time: 60, extra_move: 501 }, /'extra_move' must be a whole number from 0 to 500/],
  ];
  for (const [opts, why] of cases) {
    const r = await c.send({ type: 'create', opponent: 'friend', size: 3, ...opts });
    assert.equal(r.type, 'error', JSON.stringify(opts));
    assert.match(r.message, why);
  }
  const r = await c.send({ type: 'create', opponent: 'friend', size: 3 });
  assert.equal((await c.nextState((s) => s.game === r.game)).clock, null, 'untimed by default');
  await c.close();
});

test('the clocks start once both sides have moved; moves are charged, the increment and extra time added', async () => {
  const { a, b } = await timedGame(srv.port, { time: 60, increment: 2, extra_time: 30, extra_move: 2 });
  let s = a.state;
  assert.deepEqual(s.clock.left_ms, [60000, 60000]);
  assert.equal(s.clock.running, null, 'no clock before the first moves');
  await play(a, b, ['a1', 'c3']);
  s = await a.nextState((s) => s.ply === 2);
  assert.equal(s.clock.running, 'white');
  assert.deepEqual(s.clock.left_ms, [60000, 60000], 'the first moves are free');
  await sleep(300);
  await play(a, b, ['b2']); // White's second move: charged ~300 ms, +2 s, +30 s extra
  s = await b.nextState((s) => s.ply === 3);
  const white = s.clock.left_ms[0];
  assert.ok(white <= 60000 - 300 + 2000 + 30000 && white > 60000 - 1500 + 2000 + 30000, `white ${white}`);
  assert.equal(s.clock.running, 'black');
  assert.ok(Math.abs(s.clock.turn_start_ms - Date.now()) < 1000, 'the turn started now');
  await a.close(); await b.close();
});

test('a flag while nobody moves, seen by both; the PTN says time and the clock', async () => {
  const { a, b } = await timedGame(srv.port, { time: 1 });
  await play(a, b, ['a1', 'c3']);
  const [sa, sb] = await Promise.all([a.nextState((s) => s.result, 4000), b.nextState((s) => s.result, 4000)]);
  for (const s of [sa, sb]) {
    assert.equal(s.result.code, '0-1');
    assert.match(s.result.text, /time/i);
    assert.equal(s.clock.running, null);
    assert.equal(s.clock.left_ms[0], 0, 'the flag fell');
  }
  const e = await a.send({ type: 'export' });
  assert.match(e.ptn, /\[Clock "0:01 \+0"\]/);
  assert.match(e.ptn, /\[Result "0-1"\]/);
  assert.match((await a.send({ type: 'move', move: 'b2' })).message, /over/);
  await a.close(); await b.close();
});

test('a move after the flag loses on time rather than being played', async () => {
  const { a, b } = await timedGame(srv.port, { time: 1 });
  await play(a, b, ['a1', 'c3']);
  await sleep(1050);
  // Whichever comes first, the server's tick or this move, White has lost on time.
  const r = await a.send({ type: 'move', move: 'b2' });
  assert.equal(r.type, 'error');
  assert.match(r.message, /time ran out|over/);
  const s = await b.nextState((s) => s.result);
  assert.equal(s.result.code, '0-1');
  assert.deepEqual(s.moves, ['a1', 'c3']);
  await a.close(); await b.close();
});

test('a takeback gives the clocks back as they were', async () => {
  const { a, b } = await timedGame(srv.port, { time: 30, increment: 1 });
  await play(a, b, ['a1', 'c3', 'b2']);
  const before = (await a.nextState((s) => s.ply === 3)).clock.left_ms;
  await sleep(400);
  await play(b, a, ['b3']); // Black: charged, +1 s
  await a.nextState((s) => s.ply === 4);
  assert.equal((await a.send({ type: 'takeback' })).type, 'ok');
  assert.equal((await b.send({ type: 'accept', what: 'takeback' })).type, 'ok');
  const s = await a.nextState((s) => s.ply === 2);
  assert.deepEqual(s.clock.left_ms, [30000, 30000], 'both back to their time at ply 2');
  assert.equal(s.clock.running, 'white');
  assert.ok(before[0] > 30000 && before[0] <= 31000, `White had ${before[0]} ms after b2: charged, +1 s`);
  await a.close(); await b.close();
});

test('the engine plays on its clock', async () => {
  const c = await connect(srv.port);
  const r = await c.send({ type: 'create', opponent: 'engine', level: 10, size: 5, time: 3, color: 'white' });
  assert.equal(r.type, 'ok');
  for (const m of ['a1', 'e5', 'b2']) {
    const ply = c.state ? c.state.ply : 0;
    await c.nextState((s) => s.turn === 'white' && s.ply >= ply);
    assert.equal((await c.send({ type: 'move', move: c.state.legal.includes(m) ? m : c.state.legal[0] })).type, 'ok');
  }
  const s = await c.nextState((s) => s.ply === 6, 8000);
  assert.equal(s.result, null, 'the engine did not lose on time');
  assert.ok(s.clock.left_ms[1] < 3000 && s.clock.left_ms[1] > 1000, `engine ${s.clock.left_ms[1]} ms`);
  await c.close();
});

test('a restart: no clock runs while the server is down, nor till both players are back', async () => {
  let own = await startServer();
  const { a, b, game, token, tokenB } = await timedGame(own.port, { time: 60 });
  await play(a, b, ['a1', 'c3']);
  const s0 = await a.nextState((s) => s.ply === 2);
  await sleep(1000);
  await own.kill();
  await a.closed; await b.closed;
  await sleep(3000); // down for 3 s
  own = await startServer({ db: own.db, port: own.port });
  const c = await connect(own.port);
  let j = await c.send({ type: 'join', game, token });
  assert.equal(j.type, 'ok');
  let s1 = await c.nextState();
  let d = null;
  if (!process.env.TAK_TEST_PG) {
    // Every server was down: White's clock is held where it stopped, not
    // running, till Black's page is back too (clock.c says why).
    assert.equal(s1.clock.running, null);
    assert.equal(s1.clock.held, true);
    assert.ok(s1.clock.left_ms[0] > 57000 && s1.clock.left_ms[0] <= 59500, `White ${s1.clock.left_ms[0]} ms, held`);
    await sleep(1000);
    d = await connect(own.port);
    j = await d.send({ type: 'join', game, token: tokenB });
    assert.equal(j.type, 'ok');
    s1 = await c.nextState((s) => s.clock.running === 'white');
    assert.equal(s1.clock.held, false);
  }
  assert.equal(s1.clock.running, 'white');
  assert.deepEqual(s1.clock.left_ms, [60000, 60000]);
  // White's clock has run for the 1 s before the kill (but for the last
  // heartbeat's quarter second, or more on a loaded machine) and the moment
  // since both came back, not the 3 s between nor the 1 s White waited.
  const used = j.now_ms - s1.clock.turn_start_ms, moved = s1.clock.turn_start_ms - s0.clock.turn_start_ms;
  if (process.env.TAK_TEST_PG) {
    // A shared PostgreSQL store: this file's other server was up all along,
    // as another server of a cluster would be, so the clock rightly ran.
    assert.ok(used >= 3400 && moved === 0, `white used ${used} ms (started ${moved} ms later)`);
  } else {
    assert.ok(used >= 500 && used < 2500 && moved >= 3500, `white used ${used} ms (started ${moved} ms later)`);
  }
  await c.close();
  if (d) await d.close();
  assert.equal(await own.stop(), 0);
});

// A server with a timed game two plies in (White to move), then killed, its
// pages cut off: where the restart tests below start.
async function cutOffMidGame(time) {
  const own = await startServer();
  const { a, b, game, token, tokenB } = await timedGame(own.port, { time });
  await play(a, b, ['a1', 'c3']);
  await a.nextState((s) => s.ply === 2);
  await own.kill();
  await a.closed; await b.closed;
  return { own, game, token, tokenB };
}

// The hold has an end: a player whose page does not come back after a
// restart keeps the other's clock stopped for 10 s at most (clock.c).
test('a restart: a player who stays away holds the clock no longer than 10 s', { skip: process.env.TAK_TEST_PG && 'a shared store: this file\'s other server stays up, so nothing is held' }, async () => {
  let { own, game, token } = await cutOffMidGame(60);
  await sleep(1500);
  own = await startServer({ db: own.db, port: own.port });
  const started = Date.now();
  const c = await connect(own.port);
  assert.equal((await c.send({ type: 'join', game, token })).type, 'ok');
  assert.equal((await c.nextState()).clock.held, true, 'held while Black is away');
  const s = await c.nextState((x) => x.clock.running === 'white', 15000);
  const waited = Date.now() - started;
  assert.ok(waited >= 9000 && waited < 12500, `held ${waited} ms`);
  assert.equal(s.clock.held, false);
  await c.close();
  assert.equal(await own.stop(), 0);
});

// SQL on the test's SQLite store, from outside the server (the sqlite3 tool).
function sqlite(db, sql) {
  return require('node:child_process').execFileSync('sqlite3', ['-cmd', '.timeout 5000', db, sql], { encoding: 'utf8' }).trim();
}

// The same on a PostgreSQL store (the psql tool; `db` its URI).
function psql(db, sql) {
  return require('node:child_process').execFileSync('psql', ['-qAt', db, '-c', sql], { encoding: 'utf8' }).trim();
}

// A store that refuses the write ending the hold: the clock stays held, and
// the pages are not told it runs from a start the store never saved; once
// the store takes it, the clock runs from the start it saved.
test('a restart: a hold the store cannot end stays held till it can', { skip: process.env.TAK_TEST_PG && 'the SQLite store: its file is changed from outside' }, async () => {
  let { own, game, token, tokenB } = await cutOffMidGame(60);
  await sleep(1500);
  own = await startServer({ db: own.db, port: own.port });
  const c = await connect(own.port);
  assert.equal((await c.send({ type: 'join', game, token })).type, 'ok');
  assert.equal((await c.nextState()).clock.held, true);
  sqlite(own.db, "CREATE TRIGGER refuse BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
  const d = await connect(own.port);
  assert.equal((await d.send({ type: 'join', game, token: tokenB })).type, 'ok'); // both back
  await sleep(1000);
  for (const s of [c.state, d.state]) {
    assert.equal(s.clock.held, true, 'still held: the store did not take the new start');
    assert.equal(s.clock.running, null);
  }
  sqlite(own.db, 'DROP TRIGGER refuse');
  const s = await c.nextState((x) => x.clock.running === 'white', 3000);
  assert.equal(s.clock.held, false);
  assert.equal(+sqlite(own.db, `SELECT turn_start FROM games WHERE id = '${game}'`), s.clock.turn_start_ms, 'the pages are told the start the store saved');
  await c.close(); await d.close();
  assert.equal(await own.stop(), 0);
});

// Review of the hold: it was held again each time the game was loaded after
// its 10 s, and each end gave another 10 s back (GET /api/games/ID.ptn
// loads and unloads it: about 30 of them gave back 5 minutes). The hold is
// the game's, in the store: given once per outage.
test('a restart: the hold is given once, however often the game is loaded', { skip: process.env.TAK_TEST_PG && 'the SQLite store: its file is changed from outside' }, async () => {
  let { own, game, token } = await cutOffMidGame(120);
  // White had thought 40 s when the server went down.
  const start = +sqlite(own.db, `SELECT turn_start FROM games WHERE id = '${game}'`);
  sqlite(own.db, `UPDATE games SET turn_start = ${start - 40000} WHERE id = '${game}'`);
  await sleep(1500);
  own = await startServer({ db: own.db, port: own.port });
  const up = Date.now();
  await sleep(10500); // nobody back: the hold's time runs out
  for (let i = 0; i < 5; i++) {
    const r = await fetch(`${own.url}/api/games/${game}.ptn`);
    assert.equal(r.status, 200);
    await r.text();
  }
  const c = await connect(own.port);
  const j = await c.send({ type: 'join', game, token });
  const s = await c.nextState();
  assert.equal(s.clock.running, 'white');
  assert.equal(s.clock.held, false);
  // White's 40 s, and the time since the hold's 10 s ended, not less.
  const used = j.now_ms - s.clock.turn_start_ms;
  const since = Date.now() - up - 10000;
  assert.ok(used >= 40000 + since - 1000 && used <= 40000 + since + 1500, `White used ${used} ms, ${since} ms since the hold`);
  await c.close();
  assert.equal(await own.stop(), 0);
});

// Review of the hold: only the first server of a cluster to start held the
// clocks; one starting a moment later held nothing, so two servers showed
// the same game held and running. The hold is in the store: every server
// holds it, one ends it for all. A page on each server: neither sees both,
// so the hold lasts its 10 s (clock.c says why).
test('a cluster restart: every server holds the clock, and it ends once for all', { skip: !process.env.TAK_TEST_PG && 'PostgreSQL: run under scripts/with-postgres.sh' }, async () => {
  // A database of its own: this file's other server must be down too.
  const name = 'hold_' + require('node:crypto').randomBytes(4).toString('hex');
  psql(process.env.TAK_TEST_PG, `CREATE DATABASE ${name}`);
  const db = process.env.TAK_TEST_PG.replace(/\/tak\?/, `/${name}?`);
  let [A, B] = await Promise.all([startServer({ db }), startServer({ db })]);
  const { a, b, game, token, tokenB } = await timedGame(A.port, { time: 60 });
  await play(a, b, ['a1', 'c3']);
  await a.nextState((s) => s.ply === 2);
  await sleep(500);
  await Promise.all([A.kill(), B.kill()]);
  const killed = Date.now();
  await a.closed; await b.closed;
  // White's clock stopped at the cluster's last heartbeat, which a loaded
  // machine may have sent well before the kill: read it, not guess it.
  const start = +psql(db, `SELECT turn_start FROM games WHERE id = '${game}'`);
  const thought = Math.max(0, +psql(db, 'SELECT alive_ms FROM servers WHERE id = 0') - start);
  assert.ok(thought <= killed - start, `the last heartbeat, ${thought} ms into White's turn, came after the kill`);
  await sleep(1500);
  A = await startServer({ db });
  const up = Date.now();
  await sleep(500);
  B = await startServer({ db }); // A's heartbeat is fresh: B finds no outage of its own
  const w = await connect(B.port);
  assert.equal((await w.send({ type: 'join', game, token })).type, 'ok');
  let s = await w.nextState();
  assert.equal(s.clock.held, true, 'held on the server that started second');
  assert.equal(s.clock.running, null);
  const k = await connect(A.port);
  assert.equal((await k.send({ type: 'join', game, token: tokenB })).type, 'ok');
  assert.equal((await k.nextState()).clock.held, true);
  const [sw, sk] = await Promise.all([w, k].map((c) => c.nextState((x) => x.clock.running === 'white', 15000)));
  const waited = Date.now() - up;
  assert.ok(waited >= 9000 && waited < 12500, `held ${waited} ms`);
  assert.equal(sw.clock.turn_start_ms, sk.clock.turn_start_ms, 'both servers run it from the same start');
  const used = Date.now() - sw.clock.turn_start_ms;
  // What White had thought by the last heartbeat before the kill, and the moment since.
  assert.ok(used >= thought && used < thought + 2500, `White used ${used} ms: ${thought} ms before the kill, not the hold`);
  for (const c of [w, k]) await c.close();
  for (const srv of [A, B]) assert.equal(await srv.stop(), 0, srv.stderr());
});
