// lobby.test.js: seeks in the lobby: posted, seen live by followers,
// accepted by one player only (even when two accept at once), gone with
// their seeker; names checked; flooding refused; the games being played
// and the last ones finished listed.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { serverForTests, connect, waitFor, uniqueName, identify } = require('./lib.js');

const srv = serverForTests(test);

// A connection following the lobby; .lobby is the latest lobby message.
async function follower() {
  const c = await connect(srv.port);
  assert.equal((await c.send({ type: 'lobby' })).type, 'ok');
  await waitFor(() => c.others.some((m) => m.type === 'lobby'));
  Object.defineProperty(c, 'lobby', { get() { return this.others.filter((m) => m.type === 'lobby').pop(); } });
  return c;
}

test('a seek reaches the followers; accepted, it starts a game with both seats; then it is gone', async () => {
  const seeker = await follower(), watcher = await follower(), taker = await connect(srv.port);
  const alice = uniqueName('Alice'), bob = uniqueName('Bob');
  await identify(seeker, alice);
  const r = await seeker.send({ type: 'seek', name: alice, size: 6, komi: 2, time: 300, increment: 5, color: 'white' });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  await waitFor(() => watcher.lobby.seeks.some((k) => k.id === r.seek));
  const k = watcher.lobby.seeks.find((x) => x.id === r.seek);
  assert.deepEqual([k.name, k.size, k.komi, k.color, k.clock.base_ms, k.clock.increment_ms], [alice, 6, 2, 'white', 300000, 5000]);
  assert.match((await taker.send({ type: 'accept_seek', seek: r.seek, name: 'x y' })).message, /letters, digits/);
  assert.match((await taker.send({ type: 'accept_seek', seek: r.seek, name: 'Bob' })).message, /claim the name first/);
  await identify(taker, bob);
  const a = await taker.send({ type: 'accept_seek', seek: r.seek, name: bob });
  assert.equal(a.type, 'ok', JSON.stringify(a));
  assert.equal(a.seat, 'black');
  const told = await waitFor(() => seeker.others.find((m) => m.type === 'seek_accepted'));
  assert.deepEqual([told.game, told.seat], [a.game, 'white']);
  // The seeker joins with the secret it was given, and plays.
  const j = await seeker.send({ type: 'join', game: told.game, token: told.token });
  assert.equal(j.seat, 'white');
  const s = await seeker.nextState((s) => s.game === a.game);
  assert.deepEqual([s.size, s.komi, s.seats.white, s.seats.black, s.clock.base_ms], [6, 2, 'taken', 'taken', 300000]);
  assert.deepEqual(s.names, { white: alice, black: bob });
  assert.equal((await seeker.send({ type: 'move', move: 'a1' })).type, 'ok');
  await waitFor(() => !watcher.lobby.seeks.some((x) => x.id === r.seek) && watcher.lobby.playing.some((g) => g.id === a.game));
  // Over: it moves to the finished games; its PTN names the players, the date and the clock.
  assert.equal((await taker.send({ type: 'resign' })).type, 'ok');
  const ptn = (await taker.send({ type: 'export' })).ptn;
  for (const tag of [new RegExp(`\\[Player1 "${alice}"\\]`), new RegExp(`\\[Player2 "${bob}"\\]`), /\[Date "\d{4}\.\d\d\.\d\d"\]/, /\[Time "\d\d:\d\d:\d\d"\]/, /\[Clock "5:00 \+5"\]/, /\[Result "1-0"\]/])
    assert.match(ptn, tag);
  await waitFor(() => watcher.lobby.recent.some((g) => g.id === a.game && g.result === '1-0'));
  assert.ok(!watcher.lobby.playing.some((g) => g.id === a.game));
  for (const c of [seeker, watcher, taker]) await c.close();
});

test('two accept at once: one game, one refusal', async () => {
  const seeker = await connect(srv.port);
  await identify(seeker, uniqueName('Bob'));
  const r = await seeker.send({ type: 'seek', size: 5 });
  const x = await connect(srv.port), y = await connect(srv.port);
  const [rx, ry] = await Promise.all([x.send({ type: 'accept_seek', seek: r.seek }), y.send({ type: 'accept_seek', seek: r.seek })]);
  const types = [rx.type, ry.type].sort();
  assert.deepEqual(types, ['error', 'ok']);
  assert.match((rx.type === 'error' ? rx : ry).message, /gone/);
  assert.equal(seeker.others.filter((m) => m.type === 'seek_accepted').length, 1);
  assert.match((await seeker.send({ type: 'accept_seek', seek: r.seek })).message, /gone/);
  for (const c of [seeker, x, y]) await c.close();
});

test('names are checked; seeks are limited; a seek leaves with its seeker', async () => {
  const c = await connect(srv.port);
  assert.match((await c.send({ type: 'seek', size: 5 })).message, /send 'identify'/);
  const bad = [
    ['A', /2 to 20/],
    ['x'.repeat(21), /2 to 20/],
    ['<script>', /letters, digits/],
    ['Аlice', /letters, digits/], // a Cyrillic A
    ['bob smith', /letters, digits/],
    ['Engine', /kept for the engine/],
    ['TAKBOT7', /kept for the engine/],
    ['Tak_Engine-2', /kept for the engine/],
    ['server', /kept for the engine/],
  ];
  for (const [name, why] of bad) {
    const r = await c.send({ type: 'identify', identity: 'x'.repeat(32), name });
    assert.equal(r.type, 'error', String(name));
    assert.match(r.message, why);
  }
  // Names that only begin like the site's words are names like any other.
  for (const name of [uniqueName('Takeshi'), uniqueName('Engineer')]) {
    const other = await connect(srv.port);
    await identify(other, name);
    other.close();
  }
  const carol = uniqueName('Carol');
  await identify(c, carol);
  assert.match((await c.send({ type: 'seek', name: 'Dave', size: 5 })).message, /plays as/);
  assert.match((await c.send({ type: 'seek', size: 9 })).message, /'size'/);
  assert.match((await c.send({ type: 'seek', increment: 5 })).message, /needs a 'time'/);
  assert.match((await c.send({ type: 'seek', rated: 'yes' })).message, /'rated' must be true or false/);
  for (let i = 0; i < 3; i++) assert.equal((await c.send({ type: 'seek', name: carol, size: 5 })).type, 'ok');
  assert.match((await c.send({ type: 'seek', size: 5 })).message, /3 open seeks already/);
  const w = await follower();
  await waitFor(() => w.lobby.seeks.filter((k) => k.name === carol).length === 3);
  const mine = w.lobby.seeks.find((k) => k.name === carol).id;
  assert.match((await w.send({ type: 'unseek', seek: mine })).message, /no open seek/, 'only its seeker cancels it');
  assert.equal((await c.send({ type: 'unseek', seek: mine })).type, 'ok');
  await waitFor(() => w.lobby.seeks.filter((k) => k.name === carol).length === 2);
  await c.close();
  await waitFor(() => !w.lobby.seeks.some((k) => k.name === carol));
  assert.deepEqual(w.lobby.levels, [1, 10]);
  await w.close();
});

test('a broadcast spread over its slices reaches every follower, even as others leave meanwhile', async () => {
  const followers = [];
  for (let i = 0; i < 60; i++) followers.push(await follower());
  const seeker = await connect(srv.port);
  await identify(seeker, uniqueName('Spread'));
  const r = await seeker.send({ type: 'seek', size: 5 });
  // Leave while the broadcast goes out, a slice at a time: every tenth follower.
  await new Promise((res) => setTimeout(res, 30));
  const leaving = followers.filter((_, i) => i % 10 === 3);
  await Promise.all(leaving.map((c) => c.close()));
  const staying = followers.filter((c) => !leaving.includes(c));
  await waitFor(() => staying.every((c) => c.lobby.seeks.some((k) => k.id === r.seek)), 3000);
  for (const c of [...staying, seeker]) await c.close();
});
