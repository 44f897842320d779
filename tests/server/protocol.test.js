// protocol.test.js: `tak serve` over its WebSocket and HTTP: every message
// type, hostile input (each answered with an error on a connection that
// stays usable), seats and watchers, reconnection, and a restart after
// kill -9 that loses no acknowledged move. Run: node --test tests/server/
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const WebSocket = require('ws');
const { startServer, serverForTests, friendGame, play, connect, waitFor, uniqueName, identify } = require('./lib.js');

const srv = serverForTests(test);

test('HTTP: the page and its files, links to games, 404 otherwise, served without hanging', async () => {
  await fetch(srv.url + '/'); // the client's own start-up is not the server's time
  for (const [p, type] of [['/', 'text/html'], ['/app.js', 'text/javascript'], ['/style.css', 'text/css'], ['/g/abcdefghij', 'text/html']]) {
    const t0 = performance.now();
    const res = await fetch(srv.url + p);
    const body = await res.text();
    const ms = performance.now() - t0;
    assert.equal(res.status, 200, p);
    assert.ok(res.headers.get('content-type').startsWith(type), p);
    assert.ok(body.length > 100, p);
    // The 100 ms target is measured by bench/server_load.js, not here:
    // a timed test on a shared machine only catches a server that hangs.
    assert.ok(ms < 5000, `${p} took ${ms} ms`);
  }
  assert.equal((await fetch(srv.url + '/nope.txt')).status, 404);
});

test('ping', async () => {
  const c = await connect(srv.port);
  const r = await c.send({ type: 'ping' });
  assert.deepEqual([r.type, r.for], ['ok', 'ping']);
  await c.close();
});

test('create against the engine: the engine answers, state carries legal moves', async () => {
  const c = await connect(srv.port);
  const r = await c.send({ type: 'create', opponent: 'engine', level: 1, size: 4, color: 'black' });
  assert.equal(r.type, 'ok');
  assert.equal(r.seat, 'black');
  assert.equal(r.token.length, 24);
  assert.equal(r.invite, undefined);
  const s = await c.nextState((s) => s.ply === 1); // the engine opened
  assert.equal(s.turn, 'black');
  assert.equal(s.seats.white, 'engine');
  assert.ok(s.legal.length > 0 && s.legal.every((m) => /^[a-d][1-4]$/.test(m)), 'opening: flats only');
  await c.close();
});

test('create: every option, and refused options say why', async () => {
  const c = await connect(srv.port);
  let r = await c.send({ type: 'create', size: 6, komi: 2.5, stones: 20, capstones: 2, no_pass: false });
  assert.equal(r.type, 'ok');
  let s = await c.nextState((s) => s.game === r.game);
  assert.deepEqual([s.size, s.komi, s.stones, s.capstones, s.stash[0][0]], [6, 2.5, 20, 2, 20]);
  r = await c.send({ type: 'create', tps: 'x3/x,1,x/2,x2 1 2' });
  assert.equal(r.type, 'ok');
  s = await c.nextState((s) => s.game === r.game);
  assert.equal(s.size, 3);
  assert.equal(s.tps, 'x3/x,1,x/2,x2 1 2');
  r = await c.send({ type: 'create', ptn: '[Size "4"]\n\n1. a1 d4 2. b2 c3\n' });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  s = await c.nextState((s) => s.game === r.game);
  assert.deepEqual(s.moves, ['a1', 'd4', 'b2', 'c3']);
  for (const [bad, why] of [
    [{ size: 9 }, /size/], [{ size: 'five' }, /size/], [{ komi: 0.3 }, /komi/], [{ opponent: 'cat' }, /opponent/],
    [{ color: 7 }, /color/], [{ level: 11 }, /level/], [{ tps: 'nonsense' }, /TPS/], [{ ptn: '1. a1 a1' }, /PTN/],
    [{ stones: 0 }, /stones/], [{ tps: 'x3/x3/x3 1 1', ptn: '1. a1' }, /not both/]]) {
    r = await c.send({ type: 'create', ...bad });
    assert.equal(r.type, 'error', JSON.stringify(bad));
    assert.match(r.message, why);
  }
  assert.equal((await c.send({ type: 'ping' })).type, 'ok', 'still usable');
  await c.close();
});

test('join: seat by secret, seat by invitation once, watchers; wrong secrets refused', async () => {
  const { a, b, game, tokenA, tokenB, seatB } = await friendGame(srv.port);
  assert.equal(seatB, 'black');
  assert.equal(tokenB.length, 24);
  const s = await a.nextState((s) => s.seats.black === 'taken');
  assert.equal(s.seats.white, 'taken');
  const w = await connect(srv.port);
  let r = await w.send({ type: 'join', game });
  assert.equal(r.seat, null);
  await w.nextState();
  r = await w.send({ type: 'join', game, invite: 'x'.repeat(24) });
  assert.equal(r.type, 'error');
  const again = await connect(srv.port);
  r = await again.send({ type: 'join', game, token: tokenA });
  assert.equal(r.seat, 'white');
  r = await again.send({ type: 'join', game, token: 'a'.repeat(24) });
  assert.match(r.message, /secret/);
  r = await again.send({ type: 'join', game: 'zzzzzzzzzz' });
  assert.match(r.message, /no game/);
  r = await again.send({ type: 'join', game: '../../etc' });
  assert.match(r.message, /no game/);
  r = await again.send({ type: 'join' });
  assert.match(r.message, /'game' is missing/);
  for (const c of [a, b, w, again]) await c.close();
});

test('the used invitation cannot take a seat again', async () => {
  const a = await connect(srv.port);
  const r = await a.send({ type: 'create', size: 3 });
  const b = await connect(srv.port);
  assert.equal((await b.send({ type: 'join', game: r.game, invite: r.invite })).type, 'ok');
  const c = await connect(srv.port);
  const j = await c.send({ type: 'join', game: r.game, invite: r.invite });
  assert.equal(j.type, 'error');
  assert.match(j.message, /used/);
  for (const x of [a, b, c]) await x.close();
});

test('move: seat holders only, in turn, legal, this game, this ply', async () => {
  const { a, b, game } = await friendGame(srv.port);
  const w = await connect(srv.port);
  await w.send({ type: 'join', game });
  let r = await w.send({ type: 'move', move: 'a1' });
  assert.match(r.message, /only a player/);
  r = await b.send({ type: 'move', move: 'a1' });
  assert.match(r.message, /not your turn/);
  r = await a.send({ type: 'move', move: 'Sa1' });
  assert.match(r.message, /illegal/);
  r = await a.send({ type: 'move', move: 'q9' });
  assert.match(r.message, /illegal/);
  r = await a.send({ type: 'move', move: 42 });
  assert.match(r.message, /'move' must be a string/);
  r = await a.send({ type: 'move' });
  assert.match(r.message, /'move' is missing/);
  r = await a.send({ type: 'move', move: 'a1', game: 'bbbbbbbbbb' });
  assert.match(r.message, /follows game/);
  r = await a.send({ type: 'move', move: 'a1', ply: 5 });
  assert.match(r.message, /moved on/);
  r = await a.send({ type: 'move', move: 'a1', ply: 0, game });
  assert.deepEqual([r.type, r.ply], ['ok', 1]);
  const s = await w.nextState((s) => s.ply === 1);
  assert.deepEqual(s.moves, ['a1']);
  assert.equal(s.board[0], '2');
  const fresh = await connect(srv.port);
  r = await fresh.send({ type: 'move', move: 'a2' });
  assert.match(r.message, /join a game first/);
  for (const c of [a, b, w, fresh]) await c.close();
});

test('a road win ends the game; moves after it are refused', async () => {
  const { a, b } = await friendGame(srv.port);
  await play(a, b, ['c1', 'a1', 'a2', 'b1', 'b2', 'a3']);
  let r = await a.send({ type: 'move', move: 'c2' });
  assert.equal(r.type, 'ok');
  // White: a2 b2 c2 across the board, east to west.
  const s = await b.nextState((s) => s.result);
  assert.equal(s.result.code, 'R-0');
  assert.match(s.result.text, /road/i);
  // The road's chain, for the page to show: a1 (White's flat, placed by Black on the first turn) joins it.
  assert.deepEqual(s.result.road.sort(), ['a1', 'a2', 'b2', 'c2']);
  assert.deepEqual(s.legal, []);
  r = await b.send({ type: 'move', move: 'c3' });
  assert.match(r.message, /over/);
  await a.close(); await b.close();
});

test('a flat win on a full 3x3 board', async () => {
  const { a, b } = await friendGame(srv.port);
  // Fills the board without a road; White ends with more flats.
  await play(a, b, ['a1', 'c3', 'b2', 'Sa3', 'Sb1', 'Sc1', 'c2', 'a2', 'b3']);
  const s = await a.nextState((s) => s.result);
  assert.match(s.result.code, /^(F-0|0-F|1\/2-1\/2)$/);
  assert.match(s.result.text, /flat|draw/i);
  await a.close(); await b.close();
});

test('takeback against a friend: request, decline, request, accept', async () => {
  const { a, b } = await friendGame(srv.port);
  await play(a, b, ['a1', 'c3', 'b2']);
  let r = await a.send({ type: 'takeback' });
  assert.equal(r.type, 'ok');
  assert.match((await a.send({ type: 'takeback' })).message, /asked already/);
  let s = await b.nextState((s) => s.offers.takeback === 'white');
  r = await a.send({ type: 'accept', what: 'takeback' });
  assert.match(r.message, /not offered/);
  r = await b.send({ type: 'decline', what: 'takeback' });
  assert.equal(r.type, 'ok');
  s = await a.nextState((s) => s.offers.takeback === null);
  assert.equal(s.declined.takeback, 'white', 'the asker is told the request was declined');
  await a.send({ type: 'takeback' });
  s = await a.nextState((s) => s.offers.takeback === 'white');
  assert.equal(s.declined.takeback, null, 'a new request replaces the refusal');
  r = await b.send({ type: 'accept', what: 'takeback' });
  assert.deepEqual([r.type, r.ply], ['ok', 2]);
  s = await a.nextState((s) => s.ply === 2);
  assert.deepEqual(s.moves, ['a1', 'c3']);
  r = await b.send({ type: 'accept', what: 'nonsense' });
  assert.match(r.message, /'what'/);
  r = await b.send({ type: 'accept' });
  assert.match(r.message, /'what' is missing/);
  await a.close(); await b.close();
});

test('names: the creator\'s and the invited friend\'s, on the state and in the PTN; refused ones say why', async () => {
  const a = await connect(srv.port);
  assert.match((await a.send({ type: 'create', opponent: 'friend', size: 4, name: 'E' })).message, /2 to 20/);
  assert.match((await a.send({ type: 'create', opponent: 'friend', size: 4, name: 'engine' })).message, /kept for the engine/);
  assert.match((await a.send({ type: 'create', opponent: 'friend', size: 4, name: 'Dana' })).message, /claim the name first/);
  const dana = uniqueName('Dana'), eve = uniqueName('Eve-9');
  await identify(a, dana);
  const r = await a.send({ type: 'create', opponent: 'friend', size: 4, name: dana, color: 'black' });
  assert.equal(r.type, 'ok');
  const b = await connect(srv.port);
  assert.match((await b.send({ type: 'join', game: r.game, invite: r.invite, name: '<b>' })).message, /letters, digits/);
  await identify(b, eve);
  assert.equal((await b.send({ type: 'join', game: r.game, invite: r.invite })).type, 'ok');
  const s = await a.nextState((s) => s.seats.white === 'taken');
  assert.deepEqual(s.names, { white: eve, black: dana });
  assert.deepEqual(s.ratings, { white: { before: 1500, after: null }, black: { before: 1500, after: null } });
  assert.equal(s.rated, false);
  const ptn = (await a.send({ type: 'export' })).ptn;
  assert.match(ptn, new RegExp(`\\[Player1 "${eve}"\\]`));
  assert.match(ptn, new RegExp(`\\[Player2 "${dana}"\\]`));
  assert.match(ptn, /\[Rating1 "1500"\]/);
  assert.match(ptn, /\[Rating2 "1500"\]/);
  const e = await connect(srv.port);
  const er = await e.send({ type: 'create', opponent: 'engine', level: 7, size: 3 });
  assert.equal(er.type, 'ok');
  const eptn = (await e.send({ type: 'export' })).ptn;
  assert.match(eptn, /\[Player1 "Anonymous"\][\s\S]*\[Player2 "Tak engine, level 7"\]/);
  assert.doesNotMatch(eptn, /Rating/, 'no rating for an anonymous player nor the engine');
  for (const c of [a, b, e]) await c.close();
});

test('an imported game exports with its tags, comments, marks and branches, as PlayTak and PTN Ninja write them', async () => {
  const branches = '\n{2b1}\n2. -- d4 {or this}\n3. b2\n\n{2b1/3w1}\n3. a2\n\n{4w1}\n4. e3\n';
  const imported = [
    '[Site "PlayTak.com"]', '[Event "Online Play"]', '[Date "2024.03.02"]', '[Time "18:03:11"]',
    '[Player1 "alion02"]', '[Player2 "Syme"]', '[Clock "15:0 +10"]', '[Size "5"]', '[Komi "2"]',
    '', '{the opening}', '1. a1 e5 {a quiet start}', '2. c3\' c4!?', '3. b3?? {a mistake} d3!', '4. a3', branches].join('\n');
  const a = await connect(srv.port);
  const r = await a.send({ type: 'create', opponent: 'friend', ptn: imported });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  const e = (await a.send({ type: 'export' })).ptn;
  for (const tag of ['Site "PlayTak.com"', 'Event "Online Play"', 'Date "2024.03.02"', 'Time "18:03:11"',
    'Player1 "alion02"', 'Player2 "Syme"', 'Clock "15:0 +10"', 'Size "5"', 'Komi "2"'])
    assert.ok(e.includes(`[${tag}]`), `${tag} in\n${e}`);
  assert.match(e, /\{the opening\}\n1\. a1 e5 \{a quiet start\}\n2\. c3' c4!\?\n3\. b3\?\? \{a mistake\} d3!\n4\. a3\n/);
  assert.ok(e.endsWith('\n' + branches), e);
  assert.doesNotMatch(e, /tak serve/);
  // Played on, the export keeps the imported plies' notes and adds the new ply plainly.
  const b = await connect(srv.port);
  await b.send({ type: 'join', game: r.game, invite: r.invite });
  assert.equal((await b.send({ type: 'move', move: 'e4' })).type, 'ok');
  const e2 = (await a.send({ type: 'export' })).ptn;
  assert.match(e2, /3\. b3\?\? \{a mistake\} d3!\n4\. a3 e4\n/);
  assert.ok(e2.endsWith('\n' + branches), 'the branches still leave the game where they did');
  // Taken back to where a branch leaves it, the game has no ply for the
  // branch to stand beside: that branch goes, the others stay.
  assert.equal((await b.send({ type: 'takeback' })).type, 'ok');
  await a.nextState((s) => s.offers.takeback === 'black');
  assert.equal((await a.send({ type: 'accept', what: 'takeback' })).type, 'ok');
  await a.nextState((s) => s.ply === 7);
  assert.equal((await a.send({ type: 'takeback' })).type, 'ok');
  await b.nextState((s) => s.offers.takeback === 'white');
  assert.equal((await b.send({ type: 'accept', what: 'takeback' })).type, 'ok');
  await a.nextState((s) => s.ply === 6);
  const e3 = (await a.send({ type: 'export' })).ptn;
  assert.ok(e3.endsWith('\n{2b1}\n2. -- d4 {or this}\n3. b2\n\n{2b1/3w1}\n3. a2\n'), e3);
  await a.close(); await b.close();
});

test('takeback against the engine is granted at once', async () => {
  const c = await connect(srv.port);
  const r = await c.send({ type: 'create', opponent: 'engine', level: 1, size: 4 });
  assert.equal(r.type, 'ok');
  await c.send({ type: 'move', move: 'a1' });
  await c.nextState((s) => s.ply === 2);
  const t = await c.send({ type: 'takeback' });
  assert.deepEqual([t.type, t.ply], ['ok', 0]);
  const s = await c.nextState((s) => s.ply === 0);
  assert.deepEqual(s.moves, []);
  await c.close();
});

test('draw: offer, refuse to offer twice, accept; the engine does not take draws', async () => {
  const { a, b } = await friendGame(srv.port);
  await play(a, b, ['a1', 'c3']);
  assert.equal((await a.send({ type: 'draw' })).type, 'ok');
  assert.match((await a.send({ type: 'draw' })).message, /already/);
  await b.nextState((s) => s.offers.draw === 'white');
  assert.equal((await b.send({ type: 'accept', what: 'draw' })).type, 'ok');
  const s = await a.nextState((s) => s.result);
  assert.equal(s.result.code, '1/2-1/2');
  assert.deepEqual(s.result.road, [], 'no road');
  assert.match((await a.send({ type: 'resign' })).message, /over/);
  const e = await connect(srv.port);
  await e.send({ type: 'create', opponent: 'engine', level: 1, size: 3 });
  assert.match((await e.send({ type: 'draw' })).message, /engine/);
  await a.close(); await b.close(); await e.close();
});

test('resign', async () => {
  const { a, b } = await friendGame(srv.port);
  assert.equal((await b.send({ type: 'resign' })).type, 'ok');
  const s = await a.nextState((s) => s.result);
  assert.equal(s.result.code, '1-0');
  await a.close(); await b.close();
});

test('view and export: any past position, the game as PTN', async () => {
  const { a, b, game } = await friendGame(srv.port);
  await play(a, b, ['a1', 'c3', 'b2']);
  const w = await connect(srv.port);
  await w.send({ type: 'join', game });
  let r = await w.send({ type: 'view', ply: 1 });
  assert.deepEqual([r.type, r.ply, r.board[0], r.tps], ['ok', 1, '2', 'x3/x3/2,x2 2 1']);
  r = await w.send({ type: 'view', ply: 9 });
  assert.match(r.message, /'ply'/);
  r = await w.send({ type: 'view', ply: -1 });
  assert.match(r.message, /'ply'/);
  r = await w.send({ type: 'export' });
  assert.match(r.ptn, /\[Size "3"\]/);
  assert.match(r.ptn, /1\. a1 c3/);
  assert.equal((await w.send({ type: 'leave' })).type, 'ok');
  assert.match((await w.send({ type: 'export' })).message, /join a game first/);
  for (const c of [a, b, w]) await c.close();
});

test('hostile input: each refused with a clear error, the connection stays usable', async () => {
  const c = await connect(srv.port);
  const cases = [
    ['{bad json', /malformed JSON/],
    ['[1,2,3]', /JSON object/],
    ['"text"', /JSON object/],
    ['{}', /'type' is missing/],
    ['{"type":5}', /'type' is missing or not a string/],
    ['{"type":"explode"}', /unknown message type/],
    ['{"type":"ping","req":{"a":1}}', /'req'/],
    ['{"type":"ping","type":"ping"}', /malformed JSON|duplicate/],
    ['{"type":"create","size":3.5}', /size/],
    ['{"type":"join","game":["x"]}', /'game' must be a string/],
    ['{"type":"join","game":"' + 'a'.repeat(500) + '"}', /too long/],
    ['x'.repeat(70000), /too large/],
    [JSON.stringify({ type: 'create', ptn: 'x'.repeat(66000) }), /too large/],
    ['{"type":"move","move":"a1"}', /join a game first/],
    ['{"type":"resign"}', /join a game first/],
    ['\u0000\u0001', /malformed/],
  ];
  for (const [text, why] of cases) {
    const m = await c.raw(text);
    assert.equal(m.type, 'error', text.slice(0, 40));
    assert.match(m.message, why, text.slice(0, 40));
  }
  // Quoted text cut inside a multi-byte character still gets its reply.
  for (const [msg, why] of [
    [{ type: 'x' + 'é'.repeat(30) }, /unknown message type 'xé+\?'/],
    [{ type: 'score', games: ['a' + 'é'.repeat(20)] }, /no game/],
    [{ type: 'create', ptn: '[Size "x' + 'é'.repeat(100) + '"]' }, /Size must be/],
    [{ type: 'create', komi: 1e300 }, /'komi' must be a whole or half number/],
    [{ type: 'create', komi: -1e300 }, /'komi'/],
  ]) {
    const r = await c.send(msg);
    assert.equal(r.type, 'error', JSON.stringify(msg).slice(0, 60));
    assert.match(r.message, why, JSON.stringify(msg).slice(0, 60));
  }
  c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
  const m = await waitFor(() => c.others.find((o) => /binary/.test(o.message || '')));
  assert.ok(m);
  assert.equal((await c.send({ type: 'ping' })).type, 'ok');
  // A message in many fragments is put back together.
  const parts = JSON.stringify({ type: 'ping', req: 'frag' });
  const got = new Promise((res) => c.waiting.set('frag', res));
  for (let i = 0; i < parts.length; i++) c.ws.send(parts[i], { fin: i === parts.length - 1 });
  assert.equal((await got).type, 'ok');
  await c.close();
});

test('wrong game and wrong seat: a seat holder of one game cannot act on another', async () => {
  const g1 = await friendGame(srv.port);
  const g2 = await friendGame(srv.port);
  let r = await g1.a.send({ type: 'move', move: 'a1', game: g2.game });
  assert.match(r.message, /follows game/);
  r = await g1.a.send({ type: 'join', game: g2.game, token: g1.tokenA });
  assert.match(r.message, /secret/);
  for (const c of [g1.a, g1.b, g2.a, g2.b]) await c.close();
});

test('reconnection: a closed connection rejoins with its secret and plays on', async () => {
  const { a, b, game, tokenA } = await friendGame(srv.port);
  await play(a, b, ['a1', 'c3']);
  await a.close();
  const a2 = await connect(srv.port);
  const r = await a2.send({ type: 'join', game, token: tokenA });
  assert.equal(r.seat, 'white');
  const s = await a2.nextState();
  assert.equal(s.ply, 2);
  assert.equal((await a2.send({ type: 'move', move: 'b2' })).type, 'ok');
  await b.nextState((s) => s.ply === 3);
  await a2.close(); await b.close();
});

test('many watchers all see each move', async () => {
  const { a, b, game } = await friendGame(srv.port);
  const watchers = [];
  for (let i = 0; i < 20; i++) {
    const w = await connect(srv.port);
    await w.send({ type: 'join', game });
    watchers.push(w);
  }
  await play(a, b, ['a1']);
  await Promise.all(watchers.map((w) => w.nextState((s) => s.ply === 1)));
  for (const c of [a, b, ...watchers]) await c.close();
});

test('restart: kill -9 mid-game loses no acknowledged move; games resume', async () => {
  const own = await startServer();
  const a = await connect(own.port);
  const r = await a.send({ type: 'create', size: 4 });
  const b = await connect(own.port);
  const j = await b.send({ type: 'join', game: r.game, invite: r.invite });
  const moves = ['a1', 'd4', 'b2', 'c3', 'b3'];
  for (const [i, m] of moves.entries()) {
    const rr = await (i % 2 ? b : a).send({ type: 'move', move: m });
    assert.equal(rr.type, 'ok');
  }
  const e = await connect(own.port);
  const eg = await e.send({ type: 'create', opponent: 'engine', level: 1, size: 4, color: 'white' });
  // The engine (Black) is asked to move; the server is killed while or after it thinks.
  assert.equal((await e.send({ type: 'move', move: 'a1' })).type, 'ok');
  await own.kill(); // SIGKILL: no chance to flush anything
  await a.closed;
  const again = await startServer({ db: own.db });
  const b2 = await connect(again.port);
  assert.equal((await b2.send({ type: 'join', game: r.game, token: j.token })).seat, 'black');
  let s = await b2.nextState();
  assert.deepEqual(s.moves, moves);
  assert.equal((await b2.send({ type: 'move', move: 'c2' })).type, 'ok');
  const w = await connect(again.port);
  await w.send({ type: 'join', game: r.game });
  s = await w.nextState();
  assert.deepEqual(s.moves, [...moves, 'c2']);
  // The engine game resumes: the engine answers the move made before the kill.
  const e2 = await connect(again.port);
  assert.equal((await e2.send({ type: 'join', game: eg.game, token: eg.token })).seat, 'white');
  const es = await e2.nextState((s) => s.ply >= 2);
  assert.equal(es.moves[0], 'a1');
  assert.equal((await e2.send({ type: 'move', move: es.legal[0] })).type, 'ok');
  for (const c of [b2, w, e2]) await c.close();
  assert.equal(await again.stop(), 0);
});
