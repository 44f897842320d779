// players.test.js: identities without passwords and ratings. A secret claims
// a unique name (in any case) for good; a forged or unknown secret takes no
// one's name or seat; hostile names and secrets are refused with the reason.
// A rated game (a rated seek taken by a named player) updates both players'
// Glicko-2 ratings exactly once, whatever ends it; names, ratings and games
// survive a restart; the PTN carries Rating1/Rating2 (the ratings before the
// game); the players' pages and the leaderboard are served as JSON.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { startServer, serverForTests, connect, play, waitFor, uniqueName, newIdentity, identify, tempDb } = require('./lib.js');

const srv = serverForTests(test);

const getJson = async (port, path) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: r.status, body: await r.json() };
};

// A rated game between two new players on the server at `port`: a seeks
// (rated, 3x3, White), b takes it; both follow the game. Resolves with the
// clients, the game and the players.
async function ratedGame(port, { a, b, pa, pb, rated = true } = {}) {
  a = a || await connect(port); b = b || await connect(port);
  pa = pa || await identify(a, uniqueName('Ann')); pb = pb || await identify(b, uniqueName('Ben'));
  const k = await a.send({ type: 'seek', size: 3, color: 'white', rated });
  assert.equal(k.type, 'ok', JSON.stringify(k));
  const acc = await b.send({ type: 'accept_seek', seek: k.seek });
  assert.equal(acc.type, 'ok', JSON.stringify(acc));
  const told = await waitFor(() => a.others.find((m) => m.type === 'seek_accepted' && m.seek === k.seek));
  assert.equal((await a.send({ type: 'join', game: told.game, token: told.token })).seat, 'white');
  await a.nextState((s) => s.game === acc.game);
  return { a, b, pa, pb, game: acc.game };
}

// White's road on 3x3 (a2 b2 c2), as protocol.test.js plays it.
const ROAD = ['c1', 'a1', 'a2', 'b1', 'b2', 'a3', 'c2'];

test('a secret claims a unique name for good: the same secret is the same player, another is refused', async () => {
  const c = await connect(srv.port);
  const name = uniqueName('Zoe');
  const p = await identify(c, name);
  assert.deepEqual([p.name, p.rating, p.rd, p.games, p.provisional], [name, 1500, 350, 0, true]);
  // The same secret, on another connection, without a name: the same player.
  const d = await connect(srv.port);
  const again = await identify(d, undefined, p.identity);
  assert.equal(again.name, name);
  // ... and with the name in another case: still that player, not a new one.
  assert.equal((await identify(d, name.toUpperCase(), p.identity)).name, name);
  // A name cannot be changed.
  const other = uniqueName('Yan');
  assert.match((await d.send({ type: 'identify', identity: p.identity, name: other })).message, /name is '.*' already/);
  // Another secret cannot claim it, in any case.
  const e = await connect(srv.port);
  for (const n of [name, name.toLowerCase(), name.toUpperCase()]) {
    const r = await e.send({ type: 'identify', identity: newIdentity(), name: n });
    assert.equal(r.type, 'error');
    assert.match(r.message, /is taken/);
  }
  // An unknown secret without a name is nobody yet.
  const u = await e.send({ type: 'identify', identity: newIdentity() });
  assert.deepEqual([u.type, u.player], ['ok', null]);
  for (const x of [c, d, e]) await x.close();
});

test('hostile identities and names are refused, saying why; the connection stays usable', async () => {
  const c = await connect(srv.port);
  const cases = [
    [{}, /'identity' is missing/],
    [{ identity: 42 }, /'identity' must be a string/],
    [{ identity: 'short' }, /20 to 128/],
    [{ identity: 'x'.repeat(129) }, /20 to 128|too long/],
    [{ identity: 'x'.repeat(10000) }, /too long/],
    [{ identity: 'a'.repeat(30) + ' ' }, /letters, digits/],
    [{ identity: newIdentity(), name: 'A' }, /2 to 20/],
    [{ identity: newIdentity(), name: 'x'.repeat(21) }, /2 to 20/],
    [{ identity: newIdentity(), name: '<img src=x>' }, /letters, digits/],
    [{ identity: newIdentity(), name: 'Аnna' }, /letters, digits/], // Cyrillic A
    [{ identity: newIdentity(), name: 'ann\u202e' }, /letters, digits/],
    [{ identity: newIdentity(), name: 'TakEngine' }, /kept for the engine/],
    [{ identity: newIdentity(), name: 'admin' }, /kept for the engine/],
    [{ identity: newIdentity(), name: ['x'] }, /'name' must be a string/],
  ];
  for (const [msg, why] of cases) {
    const r = await c.send({ type: 'identify', ...msg });
    assert.equal(r.type, 'error', JSON.stringify(msg).slice(0, 60));
    assert.equal(r.for, 'identify');
    assert.match(r.message, why);
  }
  assert.match((await c.raw('{"type":"identify","identity":')).message, /malformed JSON/);
  assert.match((await c.raw('{"type":"identify","identity":"' + 'a'.repeat(30) + '\\u0000"}')).message, /malformed JSON|NUL/);
  assert.equal((await c.send({ type: 'ping' })).type, 'ok');
  await c.close();
});

test('a forged secret takes no seat: only the seat\'s player (or its seat secret) does', async () => {
  const { a, b, pa, game } = await ratedGame(srv.port, { rated: false });
  // A new connection of A's identity (a new browser) gets A's seat, and its secret.
  const a2 = await connect(srv.port);
  await identify(a2, undefined, pa.identity);
  const j = await a2.send({ type: 'join', game });
  assert.deepEqual([j.type, j.seat, typeof j.token], ['ok', 'white', 'string']);
  // A forged secret is nobody: it watches.
  const f = await connect(srv.port);
  const forged = pa.identity.slice(0, -1) + (pa.identity.endsWith('A') ? 'B' : 'A');
  assert.deepEqual((await f.send({ type: 'identify', identity: forged })).player, null);
  const jf = await f.send({ type: 'join', game });
  assert.deepEqual([jf.type, jf.seat, jf.token], ['ok', null, undefined]);
  assert.match((await f.send({ type: 'move', move: 'a1' })).message, /only a player/);
  // ... and cannot play under A's name.
  assert.match((await f.send({ type: 'seek', name: pa.name, size: 3 })).message, /is taken/);
  for (const x of [a, b, a2, f]) await x.close();
});

test('a rated game updates both ratings once; the PTN has the ratings before it; the pages show it', async () => {
  const { a, b, pa, pb, game } = await ratedGame(srv.port);
  const s0 = a.state;
  assert.equal(s0.rated, true);
  assert.deepEqual(s0.ratings, { white: { before: 1500, after: null }, black: { before: 1500, after: null } });
  await play(a, b, ROAD);
  const s = await b.nextState((s) => s.result && s.ratings.white.after !== null);
  assert.equal(s.result.code, 'R-0');
  assert.ok(s.ratings.white.after > 1500 && s.ratings.black.after < 1500, JSON.stringify(s.ratings));
  assert.equal(s.ratings.white.after - 1500, 1500 - s.ratings.black.after, 'equal players move equally');
  // Nothing more can end it, so nothing rates it again.
  assert.match((await b.send({ type: 'resign' })).message, /over/);
  const ptn = (await a.send({ type: 'export' })).ptn;
  assert.match(ptn, new RegExp(`\\[Player1 "${pa.name}"\\][\\s\\S]*\\[Rating1 "1500"\\]`));
  assert.match(ptn, new RegExp(`\\[Player2 "${pb.name}"\\][\\s\\S]*\\[Rating2 "1500"\\]`));
  // The download link gives the same PTN.
  const dl = await fetch(`http://127.0.0.1:${srv.port}/api/games/${game}.ptn`);
  assert.equal(dl.status, 200);
  assert.equal(await dl.text(), ptn);
  // Both pages: one rated game each, in the history and the list.
  const wa = await getJson(srv.port, `/api/players/${pa.name}`), wb = await getJson(srv.port, `/api/players/${pb.name.toLowerCase()}`);
  assert.equal(wa.status, 200);
  assert.deepEqual([wa.body.name, wa.body.games, wb.body.games], [pa.name, 1, 1]);
  assert.equal(Math.round(wa.body.rating), s.ratings.white.after);
  assert.equal(wa.body.history.length, 1);
  assert.deepEqual([wa.body.recent[0].game, wa.body.recent[0].result, wa.body.recent[0].color, wa.body.recent[0].opponent, wa.body.recent[0].rated],
    [game, 'R-0', 'white', pb.name, true]);
  assert.equal(wa.body.recent[0].rating_before, 1500);
  // How it ended, its clock and its length, for the page to say.
  assert.deepEqual([wa.body.recent[0].end, wa.body.recent[0].clock, wa.body.recent[0].plies], ['road', null, ROAD.length]);
  assert.equal(wa.body.recent[0].ptn, `/api/games/${game}.ptn`);
  assert.equal(wb.body.recent[0].color, 'black');
  // The leaderboard lists the winner above the loser.
  const lb = (await getJson(srv.port, '/api/leaderboard')).body.players.map((p) => p.name);
  assert.ok(lb.indexOf(pa.name) >= 0 && lb.indexOf(pa.name) < lb.indexOf(pb.name), JSON.stringify(lb));
  // A second game: its PTN carries the ratings the first left them with.
  const second = await ratedGame(srv.port, { a, b, pa, pb });
  assert.deepEqual(second.a.state.ratings.white.before, s.ratings.white.after);
  assert.match((await b.send({ type: 'export' })).ptn, new RegExp(`\\[Rating1 "${s.ratings.white.after}"\\][\\s\\S]*\\[Rating2 "${s.ratings.black.after}"\\]`));
  // Resigning ends it too; a draw by agreement is rated as well.
  assert.equal((await a.send({ type: 'resign' })).type, 'ok');
  await b.nextState((s) => s.game === second.game && s.ratings.white.after !== null);
  const third = await ratedGame(srv.port, { a, b, pa, pb });
  assert.equal((await a.send({ type: 'draw' })).type, 'ok');
  assert.equal((await b.send({ type: 'accept', what: 'draw' })).type, 'ok');
  await a.nextState((s) => s.game === third.game && s.result && s.ratings.black.after !== null);
  assert.equal((await getJson(srv.port, `/api/players/${pa.name}`)).body.games, 3);
  assert.equal((await getJson(srv.port, `/api/players/${pb.name}`)).body.history.length, 3);
  for (const x of [a, b]) await x.close();
});

test('a rated game lost on time is rated too', async () => {
  const a = await connect(srv.port), b = await connect(srv.port);
  const tim = (await identify(a, uniqueName('Tim'))).name;
  await identify(b, uniqueName('Tom'));
  const k = await a.send({ type: 'seek', size: 3, color: 'white', rated: true, time: 1 });
  const acc = await b.send({ type: 'accept_seek', seek: k.seek });
  assert.equal(acc.type, 'ok', JSON.stringify(acc));
  const told = await waitFor(() => a.others.find((m) => m.type === 'seek_accepted'));
  await a.send({ type: 'join', game: told.game, token: told.token });
  await play(a, b, ['a1', 'c3']); // both clocks start; White's runs out in a second
  const s = await b.nextState((s) => s.result && s.ratings.white.after !== null, 5000);
  assert.equal(s.result.code, '0-1');
  const [lost] = (await getJson(srv.port, `/api/players/${tim}`)).body.recent;
  assert.deepEqual([lost.end, lost.clock, lost.plies], ['time', { base_ms: 1000, increment_ms: 0 }, 2]);
  assert.ok(s.ratings.black.after > 1500 && s.ratings.white.after < 1500);
  for (const x of [a, b]) await x.close();
});

test('casual games, friends\' games and the engine\'s are not rated; pages of nobody are 404', async () => {
  const { a, b, pa } = await ratedGame(srv.port, { rated: false });
  await play(a, b, ROAD);
  const s = await a.nextState((s) => s.result);
  assert.deepEqual([s.rated, s.ratings.white.after], [false, null]);
  const e = await connect(srv.port);
  await identify(e, undefined, pa.identity);
  assert.equal((await e.send({ type: 'create', opponent: 'engine', size: 3, level: 1 })).type, 'ok');
  assert.equal((await e.send({ type: 'resign' })).type, 'ok');
  const page = (await getJson(srv.port, `/api/players/${pa.name}`)).body;
  assert.equal(page.games, 0);
  assert.equal(page.recent.length, 2);
  // (Games begun in the same second may come in either order.)
  const engine = page.recent.find((g) => g.engine);
  assert.deepEqual([engine.engine, engine.result, engine.rated], ['Tak engine, level 1', '0-1', false]);
  // A rated seek needs a named taker.
  const k = await a.send({ type: 'seek', size: 3, rated: true });
  const anon = await connect(srv.port);
  assert.match((await anon.send({ type: 'accept_seek', seek: k.seek })).message, /rated game is played under a name/);
  for (const path of ['/api/players/nobody_here_x', '/api/players/%3Cb%3E', '/api/players/', '/api/games/zzzzzzzzzz.ptn', '/api/games/../etc', '/api/nothing'])
    assert.equal((await getJson(srv.port, path)).status, 404, path);
  for (const x of [a, b, e, anon]) await x.close();
});

test('names, ratings and games survive a restart; a game is not rated again', async () => {
  const db = tempDb();
  let s1 = await startServer({ db });
  const { a, b, pa, pb, game } = await ratedGame(s1.port);
  await play(a, b, ROAD);
  const s = await a.nextState((s) => s.result && s.ratings.white.after !== null);
  await a.close(); await b.close();
  assert.equal(await s1.stop(), 0);
  const s2 = await startServer({ db });
  try {
    const c = await connect(s2.port);
    const again = await identify(c, undefined, pa.identity);
    assert.equal(again.name, pa.name);
    assert.equal(Math.round(again.rating), s.ratings.white.after);
    assert.equal(again.games, 1);
    // The name is still taken; the game, loaded again, is not rated again.
    assert.match((await c.send({ type: 'identify', identity: newIdentity(), name: pb.name })).message, /taken/);
    const j = await c.send({ type: 'join', game });
    assert.equal(j.seat, 'white');
    const st = await c.nextState((x) => x.game === game);
    assert.deepEqual(st.ratings, s.ratings);
    const page = (await getJson(s2.port, `/api/players/${pb.name}`)).body;
    assert.deepEqual([page.games, page.recent[0].game], [1, game]);
    assert.match((await c.send({ type: 'export' })).ptn, /\[Rating1 "1500"\]/);
    await c.close();
  } finally {
    assert.equal(await s2.stop(), 0, s2.stderr());
  }
});

test('a flood of new names is cut off, and recovers; known identities are not held up', async () => {
  const c = await connect(srv.port), d = await connect(srv.port);
  const known = await identify(d, uniqueName('Known'));
  let ok = 0, refused = 0;
  for (let i = 0; i < 100; i++) {
    const r = await c.send({ type: 'identify', identity: newIdentity(), name: uniqueName('Flood') });
    if (r.type === 'ok') ok++; else if (/too many new names/.test(r.message)) refused++;
  }
  // (The server's other tests claimed some of the 50 at once already.)
  assert.ok(ok >= 1 && refused >= 10 && ok + refused === 100, `${ok} claimed, ${refused} refused`);
  assert.equal((await identify(d, undefined, known.identity)).name, known.name);
  assert.equal((await identify(d, known.name, known.identity)).name, known.name);
  await new Promise((res) => setTimeout(res, 600));
  const again = await c.send({ type: 'identify', identity: newIdentity(), name: uniqueName('Later') });
  assert.equal(again.type, 'ok', JSON.stringify(again));
  for (const x of [c, d]) await x.close();
});
