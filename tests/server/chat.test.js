// chat.test.js: the game's chat rooms: players talk among themselves and
// watchers among themselves, each room kept from the other; the history
// reaches whoever joins; hostile text is refused with the reason; flooding
// from one connection and from many is cut off; the chat is kept in the
// store and survives a restart.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { serverForTests, startServer, friendGame, connect, waitFor, tempDb } = require('./lib.js');

const srv = serverForTests(test);

const chats = (c) => c.others.filter((m) => m.type === 'chat');

async function watcher(game) {
  const w = await connect(srv.port);
  const r = await w.send({ type: 'join', game });
  assert.equal(r.type, 'ok');
  await w.nextState();
  return w;
}

test('players and watchers each have their own room; history on joining', async () => {
  const { a, b, game } = await friendGame(srv.port);
  const w = await watcher(game);
  const v = await watcher(game);
  assert.equal((await a.send({ type: 'chat', text: 'good luck' })).type, 'ok');
  await waitFor(() => chats(b).length === 1);
  assert.deepEqual([chats(b)[0].from, chats(b)[0].room, chats(b)[0].text], ['white', 'players', 'good luck']);
  assert.equal((await w.send({ type: 'chat', text: 'White is better' })).type, 'ok');
  await waitFor(() => chats(v).length === 1);
  assert.deepEqual([chats(v)[0].from, chats(v)[0].room], ['spectator', 'spectators']);
  // Nobody reads the other room.
  await b.send({ type: 'chat', text: 'thanks' });
  await waitFor(() => chats(a).length === 2);
  assert.deepEqual(chats(a).map((m) => m.text), ['good luck', 'thanks']);
  assert.deepEqual(chats(w).map((m) => m.text), ['White is better']);
  // A watcher joining later gets the spectators' history only.
  const late = await connect(srv.port);
  await late.send({ type: 'join', game });
  const h = await waitFor(() => late.others.find((m) => m.type === 'chat_history'));
  assert.deepEqual(h.messages.map((m) => m.text), ['White is better']);
  for (const c of [a, b, w, v, late]) await c.close();
});

test('hostile messages are refused with the reason; markup is only text', async () => {
  const { a, b } = await friendGame(srv.port);
  const cases = [
    [{ type: 'chat' }, /'text' is missing/],
    [{ type: 'chat', text: 42 }, /'text' must be a string/],
    [{ type: 'chat', text: '   ' }, /empty/],
    [{ type: 'chat', text: 'line\nbreak' }, /control characters/],
    [{ type: 'chat', text: 'a\u0007bell' }, /control characters/],
    [{ type: 'chat', text: 'evil\u202Eright-to-left' }, /direction/],
    [{ type: 'chat', text: 'x'.repeat(301) }, /301 characters long: at most 300/],
    [{ type: 'chat', text: 'é'.repeat(700) }, /too long/],
    [{ type: 'chat', text: 'hi', game: 'abcdefghij' }, /follows game/],
  ];
  for (const [msg, why] of cases) {
    const r = await a.send(msg);
    assert.equal(r.type, 'error', JSON.stringify(msg).slice(0, 60));
    assert.match(r.message, why);
  }
  const markup = '<img src=x onerror="alert(1)"> & </li><script>x()</script>';
  assert.equal((await a.send({ type: 'chat', text: markup })).type, 'ok');
  assert.equal((await a.send({ type: 'chat', text: 'é'.repeat(300) })).type, 'ok', '300 characters are fine');
  await waitFor(() => chats(b).length === 2);
  assert.equal(chats(b)[0].text, markup, 'passed on as it was, for the page to show as text');
  const lone = await connect(srv.port);
  assert.match((await lone.send({ type: 'chat', text: 'hello' })).message, /join a game first/);
  for (const c of [a, b, lone]) await c.close();
});

test('flooding: one connection, then many, are cut off and recover', async () => {
  const { a, b, game } = await friendGame(srv.port);
  const replies = [];
  for (let i = 0; i < 8; i++) replies.push(await a.send({ type: 'chat', text: 'spam ' + i }));
  assert.equal(replies.filter((r) => r.type === 'ok').length, 5, 'a burst of five');
  assert.match(replies[7].message, /too many messages/);
  // Many watchers together: the room takes at most its own burst.
  const ws = [];
  for (let i = 0; i < 6; i++) ws.push(await watcher(game));
  let ok = 0, busy = 0;
  for (const w of ws)
    for (let i = 0; i < 5; i++) {
      const r = await w.send({ type: 'chat', text: `w${i}` });
      if (r.type === 'ok') ok++;
      else if (/busy/.test(r.message)) busy++;
    }
  assert.equal(ok, 20, 'the room took its burst of twenty');
  assert.equal(busy, 10);
  // One token comes back every two seconds for a connection.
  await new Promise((res) => setTimeout(res, 2100));
  assert.equal((await a.send({ type: 'chat', text: 'again' })).type, 'ok');
  for (const c of [a, b, ...ws]) await c.close();
});

test('the chat is kept in the store: it survives a restart, each room its own', async () => {
  const db = tempDb();
  const s1 = await startServer({ db });
  const { a, b, game, tokenB } = await friendGame(s1.port);
  const w = await connect(s1.port);
  await w.send({ type: 'join', game });
  assert.equal((await a.send({ type: 'chat', text: 'before the restart <b>' })).type, 'ok');
  assert.equal((await w.send({ type: 'chat', text: 'a watcher speaks' })).type, 'ok');
  await waitFor(() => chats(b).length === 1);
  for (const c of [a, b, w]) await c.close();
  assert.equal(await s1.stop(), 0);
  const s2 = await startServer({ db });
  try {
    const b2 = await connect(s2.port);
    assert.equal((await b2.send({ type: 'join', game, token: tokenB })).seat, 'black');
    const h = await waitFor(() => b2.others.find((m) => m.type === 'chat_history'));
    assert.deepEqual(h.messages.map((m) => [m.from, m.room, m.text]), [['white', 'players', 'before the restart <b>']]);
    assert.equal((await b2.send({ type: 'chat', text: 'and after' })).type, 'ok');
    await waitFor(() => chats(b2).length === 1);
    const w2 = await connect(s2.port);
    await w2.send({ type: 'join', game });
    const wh = await waitFor(() => w2.others.find((m) => m.type === 'chat_history'));
    assert.deepEqual(wh.messages.map((m) => m.text), ['a watcher speaks']);
    for (const c of [b2, w2]) await c.close();
  } finally {
    assert.equal(await s2.stop(), 0, s2.stderr());
  }
});
