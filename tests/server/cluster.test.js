// cluster.test.js: two `tak serve` processes on different ports sharing one
// PostgreSQL database. A game made on one is joined, played, watched, drawn,
// taken back and resigned from the other; moves and invitations raced on
// both are won by exactly one. Runs under scripts/with-postgres.sh (which
// sets TAK_TEST_PG, as make test-server does); skipped otherwise.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { startServer, connect, waitFor, identify, uniqueName } = require('./lib.js');

const PG = process.env.TAK_TEST_PG;
const skip = PG ? false : 'no PostgreSQL: run under scripts/with-postgres.sh (make test-server does)';

let A, B;
test.before(async () => {
  if (!PG) return;
  [A, B] = await Promise.all([startServer({ db: PG }), startServer({ db: PG })]);
});
test.after(async () => {
  for (const s of [A, B]) {
    if (!s) continue;
    assert.equal(await s.stop(), 0, s.stderr());
    assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error/);
  }
});

// A friend game created on A, its invitation taken on B.
async function sharedGame(size = 3) {
  const a = await connect(A.port);
  const r = await a.send({ type: 'create', opponent: 'friend', size });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  const b = await connect(B.port);
  const j = await b.send({ type: 'join', game: r.game, invite: r.invite });
  assert.equal(j.type, 'ok', JSON.stringify(j));
  assert.equal(j.seat, 'black');
  await a.nextState((s) => s.seats.black === 'taken'); // told by B
  return { a, b, game: r.game, tokenA: r.token, tokenB: j.token, invite: r.invite };
}

test('an invitation made on A is taken on B; moves either way reach players and watchers on the other', { skip }, async () => {
  const { a, b, game, invite } = await sharedGame();
  const w = await connect(B.port); // watches on B
  assert.equal((await w.send({ type: 'join', game })).seat, null);
  const wa = await connect(A.port); // and on A
  await wa.send({ type: 'join', game });

  assert.deepEqual((await a.send({ type: 'move', move: 'a1' })).ply, 1);
  for (const c of [w, b]) assert.deepEqual((await c.nextState((s) => s.ply === 1)).moves, ['a1']);
  assert.equal((await b.send({ type: 'move', move: 'c3' })).ply, 2);
  for (const c of [a, wa]) assert.deepEqual((await c.nextState((s) => s.ply === 2)).moves, ['a1', 'c3']);
  assert.equal((await a.send({ type: 'move', move: 'b2', ply: 2 })).ply, 3);
  const s = await w.nextState((s) => s.ply === 3);
  assert.equal(s.turn, 'black');
  assert.equal(s.board[4], '1');

  // The spent invitation is spent on both servers.
  for (const port of [A.port, B.port]) {
    const c = await connect(port);
    const j = await c.send({ type: 'join', game, invite });
    assert.equal(j.type, 'error');
    assert.match(j.message, /used/);
    await c.close();
  }
  for (const c of [a, b, w, wa]) await c.close();
});

test('offers, takeback, draw and resignation cross servers', { skip }, async () => {
  let { a, b } = await sharedGame();
  for (const [i, m] of ['a1', 'c3', 'b2'].entries()) {
    assert.equal((await (i % 2 ? b : a).send({ type: 'move', move: m })).type, 'ok');
    await (i % 2 ? a : b).nextState((s) => s.ply === i + 1);
  }
  // White asks on A to take back b2; Black, on B, sees it and accepts.
  assert.equal((await a.send({ type: 'takeback' })).type, 'ok');
  await b.nextState((s) => s.offers.takeback === 'white');
  const t = await b.send({ type: 'accept', what: 'takeback' });
  assert.deepEqual([t.type, t.ply], ['ok', 2]);
  let s = await a.nextState((s) => s.ply === 2);
  assert.deepEqual(s.moves, ['a1', 'c3']);
  assert.equal(s.offers.takeback, null);
  // A draw offered on B, accepted on A.
  assert.equal((await b.send({ type: 'draw' })).type, 'ok');
  await a.nextState((s) => s.offers.draw === 'black');
  assert.equal((await a.send({ type: 'accept', what: 'draw' })).type, 'ok');
  s = await b.nextState((s) => s.result);
  assert.equal(s.result.code, '1/2-1/2');
  await a.close(); await b.close();

  ({ a, b } = await sharedGame());
  assert.equal((await b.send({ type: 'resign' })).type, 'ok');
  s = await a.nextState((s) => s.result);
  assert.equal(s.result.code, '1-0');
  // The ending is the store's: a move on A after it is refused.
  assert.match((await a.send({ type: 'move', move: 'a1' })).message, /over/);
  await a.close(); await b.close();
});

test('the same seat on both servers: moves raced for one ply, exactly one is recorded', { skip }, async () => {
  for (let round = 0; round < 10; round++) {
    const { a, b, game, tokenA } = await sharedGame();
    const a2 = await connect(B.port); // White again, on B
    assert.equal((await a2.send({ type: 'join', game, token: tokenA })).seat, 'white');
    await a2.nextState();
    const replies = await Promise.all([
      a.send({ type: 'move', move: 'a1' }), a2.send({ type: 'move', move: 'c1' })]);
    const oks = replies.filter((r) => r.type === 'ok');
    assert.equal(oks.length, 1, JSON.stringify(replies));
    const lost = replies.find((r) => r.type === 'error');
    assert.match(lost.message, /changed meanwhile|not your turn/);
    // Both servers, and the store, agree on the one move.
    const want = replies[0].type === 'ok' ? ['a1'] : ['c1'];
    for (const c of [a, a2, b]) assert.deepEqual((await c.nextState((s) => s.ply === 1)).moves, want);
    for (const port of [A.port, B.port]) {
      const c = await connect(port);
      await c.send({ type: 'join', game });
      assert.deepEqual((await c.nextState()).moves, want);
      await c.close();
    }
    for (const c of [a, a2, b]) await c.close();
  }
});

test('one invitation raced on both servers: one seat, one winner', { skip }, async () => {
  for (let round = 0; round < 10; round++) {
    const a = await connect(A.port);
    const r = await a.send({ type: 'create', size: 3 });
    const [x, y] = [await connect(A.port), await connect(B.port)];
    const replies = await Promise.all([x, y].map((c) =>
      c.send({ type: 'join', game: r.game, invite: r.invite })));
    assert.equal(replies.filter((j) => j.type === 'ok' && j.seat === 'black').length, 1,
      JSON.stringify(replies));
    for (const c of [a, x, y]) await c.close();
  }
});

test('a game against the engine on A is watched on B, engine moves included', { skip }, async () => {
  const p = await connect(A.port);
  const r = await p.send({ type: 'create', opponent: 'engine', level: 1, size: 4, color: 'black' });
  assert.equal(r.type, 'ok');
  const w = await connect(B.port);
  await w.send({ type: 'join', game: r.game });
  // The engine opens (on A; B, loading the game at the engine's turn, may
  // search too, and the store takes one answer). The player moves when A
  // shows it, as the page does.
  const s1 = await w.nextState((s) => s.ply === 1);
  assert.equal(s1.seats.white, 'engine');
  assert.deepEqual((await p.nextState((s) => s.ply === 1)).moves, s1.moves);
  const m = await p.send({ type: 'move', move: s1.legal[0] });
  assert.equal(m.type, 'ok', JSON.stringify(m));
  const s3 = await w.nextState((s) => s.ply === 3); // and answered
  assert.equal(s3.moves[1], s1.legal[0]);
  assert.equal(s3.thinking, false);
  await p.close(); await w.close();
});

test('a rated game ended on both servers at once is rated exactly once; both servers show it', { skip }, async () => {
  const a = await connect(A.port), b = await connect(A.port);
  const pa = await identify(a, uniqueName('Ann')), pb = await identify(b, uniqueName('Ben'));
  const k = await a.send({ type: 'seek', size: 3, color: 'white', rated: true });
  const acc = await b.send({ type: 'accept_seek', seek: k.seek });
  assert.equal(acc.type, 'ok', JSON.stringify(acc));
  const told = await waitFor(() => a.others.find((m) => m.type === 'seek_accepted'));
  await a.send({ type: 'join', game: told.game, token: told.token });
  // Black plays from B: the same player, by identity, on the other server.
  const b2 = await connect(B.port);
  await identify(b2, undefined, pb.identity);
  assert.equal((await b2.send({ type: 'join', game: acc.game })).seat, 'black');
  assert.equal((await a.send({ type: 'move', move: 'a1' })).type, 'ok');
  await b2.nextState((s) => s.ply === 1);
  // Both resign at once, on different servers: one ending, one rating.
  const [ra, rb] = await Promise.all([a.send({ type: 'resign' }), b2.send({ type: 'resign' })]);
  assert.deepEqual([ra.type, rb.type].sort(), ['error', 'ok']);
  const sa = await a.nextState((s) => s.result && s.ratings.white.after !== null);
  const sb = await b2.nextState((s) => s.result && s.ratings.white.after !== null);
  assert.deepEqual(sb.ratings, sa.ratings);
  for (const port of [A.port, B.port]) {
    for (const p of [pa, pb]) {
      const page = await (await fetch(`http://127.0.0.1:${port}/api/players/${p.name}`)).json();
      assert.equal(page.games, 1, `${p.name} on ${port}`);
    }
  }
  for (const c of [a, b, b2]) await c.close();
});

test('chat crosses servers: a message said on A reaches the room on B, and B\'s history has it', { skip }, async () => {
  const { a, b, game } = await sharedGame();
  const wb = await connect(B.port);
  await wb.send({ type: 'join', game });
  assert.equal((await a.send({ type: 'chat', text: 'from A' })).type, 'ok');
  const got = await waitFor(() => b.others.find((m) => m.type === 'chat'));
  assert.deepEqual([got.from, got.room, got.text], ['white', 'players', 'from A']);
  assert.equal((await b.send({ type: 'chat', text: 'from B' })).type, 'ok');
  await waitFor(() => a.others.filter((m) => m.type === 'chat').length === 2);
  assert.deepEqual(a.others.filter((m) => m.type === 'chat').map((m) => m.text), ['from A', 'from B']);
  assert.equal(wb.others.filter((m) => m.type === 'chat').length, 0, 'the spectators do not read the players');
  // A player joining later on B gets both in the history.
  const a2 = await connect(B.port);
  await a2.send({ type: 'join', game });
  const late = await connect(A.port);
  await late.send({ type: 'join', game });
  assert.equal((await wb.send({ type: 'chat', text: 'watching from B' })).type, 'ok');
  const seen = await waitFor(() => late.others.find((m) => m.type === 'chat'));
  assert.equal(seen.text, 'watching from B');
  for (const c of [a, b, wb, a2, late]) await c.close();
});

test('the database restarts: both servers reconnect, listen again and go on', { skip }, async () => {
  const { a, b, game } = await sharedGame();
  const w = await connect(B.port);
  await w.send({ type: 'join', game });
  await w.nextState();
  require('node:child_process').execFileSync(process.env.TAK_TEST_PG_RESTART);
  // The first write on a connection the restart broke fails (it is never
  // retried: it might have committed); the next one reconnects.
  let r;
  for (let i = 0; i < 20; i++) {
    r = await a.send({ type: 'move', move: 'a1' });
    if (r.type === 'ok') break;
    assert.match(r.message, /store|connection|terminat|closed/i, JSON.stringify(r));
    await new Promise((res) => setTimeout(res, 200));
  }
  assert.equal(r.type, 'ok', JSON.stringify(r));
  for (const c of [w, b]) assert.deepEqual((await c.nextState((s) => s.ply === 1)).moves, ['a1']);
  assert.equal((await b.send({ type: 'move', move: 'c3' })).type, 'ok');
  assert.deepEqual((await a.nextState((s) => s.ply === 2)).moves, ['a1', 'c3']);
  for (const c of [a, b, w]) await c.close();
});
