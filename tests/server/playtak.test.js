// playtak.test.js: `tak serve --playtak-port`, PlayTak's text protocol on our
// lobby and games: a raw TCP client (a guest, or a player logging in with its
// identity secret) seeks and accepts beside the page's players, one game seen
// the same by both; hostile and malformed lines answered, never acted on in
// another's seat; flooding and over-long lines limited; and our own bot
// (`tak playtak`) playing a whole timed game against itself on the port; and
// the engine's standing seeks (--engine-seeks), which a PlayTak guest accepts
// to play the engine, as players challenge bots on PlayTak.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const WebSocket = require('ws');
const { serverForTests, startServer, connect, waitFor, uniqueName, identify, play, TAK } = require('./lib.js');

const srv = serverForTests(test, { args: ['--playtak-port', '0', '--playtak-ws-port', '0'] });

// A PlayTak client over TCP: .lines is every line received; line(pred)
// resolves with the first line from `from` on that matches.
class PtClient {
  constructor(port) {
    this.lines = [];
    this.buf = '';
    this.sock = net.connect(port, '127.0.0.1');
    this.sock.setEncoding('utf8');
    this.sock.on('data', (d) => {
      this.buf += d;
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        this.lines.push(this.buf.slice(0, i));
        this.buf = this.buf.slice(i + 1);
      }
    });
    this.closed = new Promise((res) => this.sock.once('close', res));
  }
  send(text) { this.sock.write(text + '\n'); }
  mark() { return this.lines.length; }
  line(pred, from = 0, ms = 5000) {
    const test = typeof pred === 'string' ? (l) => l === pred : pred instanceof RegExp ? (l) => pred.test(l) : pred;
    return waitFor(() => this.lines.slice(from).find(test), ms);
  }
  // Sends `text` and resolves with the next line that is not news for
  // everyone (seeks, games, the count online) nor a clock.
  async ask(text) {
    const at = this.mark();
    this.send(text);
    return this.line((l) => !/^(Seek (new|remove) |Online |Game#\d+ Time |GameList (Add|Remove) )/.test(l), at);
  }
  close() { this.sock.end('quit\n'); return this.closed; }
}

async function ptGuest(port = srv.playtakPort) {
  const c = new PtClient(port);
  await c.line('Login or Register');
  const at = c.mark();
  c.send('Login Guest');
  const w = await c.line(/^Welcome Guest\d+!$/, at);
  await c.line(/^Online \d+$/, at);
  c.name = w.slice(8, -1);
  return c;
}

async function lobbyFollower() {
  const c = await connect(srv.port);
  assert.equal((await c.send({ type: 'lobby' })).type, 'ok');
  return c;
}
const lastLobby = (c) => c.others.filter((m) => m.type === 'lobby').pop();

test('a PlayTak guest seeks, a page player accepts, and they play one game to the end', async () => {
  const pt = await ptGuest();
  const page = await lobbyFollower();
  await identify(page, uniqueName('Paula'));
  pt.send('Seek 3 600 10 W 0 10 0 1 0 0 0 ');
  await pt.line(new RegExp(`^Seek new \\d+ ${pt.name} 3 600 10 W 0 10 0 1 0 0 0 $`));
  // The page sees it in the lobby under the guest's name.
  const k = await waitFor(() => (lastLobby(page)?.seeks || []).find((x) => x.name === pt.name));
  assert.deepEqual([k.size, k.color, k.rated, k.clock.base_ms, k.clock.increment_ms], [3, 'white', false, 600000, 10000]);
  const a = await page.send({ type: 'accept_seek', seek: k.id });
  assert.equal(a.type, 'ok', JSON.stringify(a));
  assert.equal(a.seat, 'black');
  const start = await pt.line(/^Game Start /);
  const f = start.split(' ');
  assert.deepEqual([f[3], f[4], f[7], f[8]], ['3', pt.name, 'white', '600']);
  const g = +f[2];
  assert.ok(await pt.line(/^Seek remove /));
  // White (PlayTak) and Black (the page) build White's road a1-a2-a3.
  let at = pt.mark();
  pt.send(`Game#${g} P C3`);
  assert.equal(await pt.line(/^(OK|NOK)$/, at), 'OK');
  await page.nextState((s) => s.ply === 1);
  assert.equal((await page.send({ type: 'move', move: 'a1' })).type, 'ok');
  assert.ok(await pt.line(`Game#${g} P A1`));
  assert.ok(await pt.line(/^Game#\d+ Time \d+ \d+$/));
  at = pt.mark();
  pt.send(`Game#${g} P A2`);
  assert.equal(await pt.line(/^(OK|NOK)$/, at), 'OK');
  await page.nextState((s) => s.ply === 3);
  assert.equal((await page.send({ type: 'move', move: 'c2' })).type, 'ok');
  assert.ok(await pt.line(`Game#${g} P C2`));
  pt.send(`Game#${g} P A3`);
  assert.equal(await pt.line(`Game#${g} Over R-0`), `Game#${g} Over R-0`);
  const s = await page.nextState((x) => x.result);
  assert.deepEqual(s.moves, ['c3', 'a1', 'a2', 'c2', 'a3']);
  assert.equal(s.result.code, 'R-0');
  assert.equal(s.names.white, pt.name);
  const ptn = (await page.send({ type: 'export' })).ptn;
  assert.match(ptn, new RegExp(`\\[Player1 "${pt.name}"\\]`));
  assert.match(ptn, /\[Result "R-0"\]/);
  await pt.close();
  await page.close();
});

test("a page's seek is announced to PlayTak clients, who accept it", async () => {
  const page = await connect(srv.port);
  const name = uniqueName('Pia');
  await identify(page, name);
  const pt = await ptGuest();
  const r = await page.send({ type: 'seek', size: 4, time: 60, increment: 2, color: 'black' });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  const line = await pt.line(new RegExp(`^Seek new \\d+ ${name.replace(/[^A-Za-z0-9_]/g, '_')} 4 60 2 B `));
  pt.send(`Accept ${line.split(' ')[2]}`);
  const start = await pt.line(/^Game Start /);
  assert.match(start, / white 60 /);
  const told = await waitFor(() => page.others.find((m) => m.type === 'seek_accepted'));
  assert.equal(told.seat, 'black');
  const j = await page.send({ type: 'join', game: told.game, token: told.token });
  assert.equal(j.seat, 'black');
  const g = +start.split(' ')[2];
  // The page resigns: the PlayTak client is told the game is over.
  pt.send(`Game#${g} P A1`);
  await page.nextState((s) => s.ply === 1);
  assert.equal((await page.send({ type: 'resign' })).type, 'ok');
  assert.ok(await pt.line(`Game#${g} Over 1-0`));
  await pt.close();
  await page.close();
});

test('a player logs in with its identity secret: its name, its rated seek', async () => {
  const page = await connect(srv.port);
  const name = uniqueName('Rob');
  const p = await identify(page, name);
  const pt = new PtClient(srv.playtakPort);
  await pt.line('Login or Register');
  assert.equal(await pt.ask(`Login ${name} wrong-secret-wrong-secret`), 'Authentication failure');
  assert.equal(await pt.ask(`Login ${name} short`), 'Authentication failure');
  assert.equal(await pt.ask(`Login ${name} ${p.identity}`), `Welcome ${name}!`);
  const follower = await lobbyFollower();
  pt.send('Seek 5 180 2 A 4 21 1 0 0 0 0 ');
  const k = await waitFor(() => (lastLobby(follower)?.seeks || []).find((x) => x.name === name));
  assert.deepEqual([k.size, k.komi, k.rated, k.color], [5, 2, true, 'random']);
  pt.send('Seek 0 0 0'); // taken back
  await waitFor(() => !(lastLobby(follower)?.seeks || []).some((x) => x.name === name));
  await pt.close();
  await page.close();
  await follower.close();
});

test('a guest that lost its connection logs in with its token and gets its game back', async () => {
  const token = 'resumeresumeresumere';
  let pt = new PtClient(srv.playtakPort);
  await pt.line('Login or Register');
  pt.send(`Login Guest ${token}`);
  const name = (await pt.line(/^Welcome Guest\d+!$/)).slice(8, -1);
  await pt.line(/^Online \d+$/);
  const page = await lobbyFollower();
  pt.send('Seek 4 300 5 B');
  const k = await waitFor(() => (lastLobby(page)?.seeks || []).find((x) => x.name === name));
  assert.equal((await page.send({ type: 'accept_seek', seek: k.id })).seat, 'white');
  const g = +(await pt.line(/^Game Start /)).split(' ')[2];
  assert.equal((await page.send({ type: 'move', move: 'a1' })).type, 'ok');
  assert.ok(await pt.line(`Game#${g} P A1`));
  pt.sock.destroy();
  await pt.closed;
  // Another guest's name alone gets nothing; the token gets the seat back, with the moves so far.
  const other = await ptGuest();
  assert.ok(!other.lines.some((l) => l.startsWith('Game Start')));
  pt = new PtClient(srv.playtakPort);
  await pt.line('Login or Register');
  pt.send(`Login Guest ${token}`);
  assert.equal(await pt.line(/^Welcome /), `Welcome ${name}!`);
  assert.match(await pt.line(/^Game Start /), new RegExp(`^Game Start ${g} 4 \\S+ vs ${name} black 300 `));
  assert.ok(await pt.line(`Game#${g} P A1`));
  assert.ok(await pt.line('Message Your game is resumed'));
  assert.equal(await pt.ask(`Game#${g} P D4`), 'OK');
  await page.nextState((s) => s.ply === 2 && s.moves[1] === 'd4');
  await pt.close();
  await other.close();
  await page.close();
});

test("PlayTak's WebSocket: a binary frame per line, and a game with a TCP client", async () => {
  const lines = [];
  const ws = new WebSocket(`ws://127.0.0.1:${srv.playtakWsPort}/`, 'binary');
  ws.on('message', (d, binary) => { assert.ok(binary); lines.push(d.toString()); });
  await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
  await waitFor(() => lines.includes('Login or Register\n'));
  ws.send('Client web-test');
  ws.send('Login Guest\n');
  const name = (await waitFor(() => lines.find((l) => /^Welcome Guest\d+!\n$/.test(l)))).slice(8, -2);
  ws.send('Seek 3 0 0 B');
  const tcp = await ptGuest();
  const seek = await tcp.line(new RegExp(`^Seek new \\d+ ${name} 3 `));
  tcp.send(`Accept ${seek.split(' ')[2]}`);
  const g = +(await tcp.line(/^Game Start /)).split(' ')[2];
  assert.ok(await waitFor(() => lines.find((l) => l.startsWith(`Game Start ${g} 3 `) && / black /.test(l))));
  assert.equal(await tcp.ask(`Game#${g} P A1`), 'OK');
  await waitFor(() => lines.includes(`Game#${g} P A1\n`));
  ws.send(`Game#${g} P C3`);
  assert.ok(await tcp.line(`Game#${g} P C3`));
  ws.send(`Game#${g} Resign`);
  assert.ok(await tcp.line(`Game#${g} Over 1-0`));
  ws.close();
  await tcp.close();
});

test('malformed and hostile lines: answered, never acted on', async () => {
  const c = new PtClient(srv.playtakPort);
  await c.line('Login or Register');
  assert.equal(await c.ask('Seek 5 60 5'), 'NOK'); // not logged in
  assert.equal(await c.ask('Login Guest NOTATOKEN'), 'NOK');
  assert.equal(await c.ask('PING'), 'OK');
  assert.equal(await c.ask('Client x'), 'OK');
  c.send('Login Guest');
  c.name = (await c.line(/^Welcome Guest\d+!$/)).slice(8, -1);
  await c.line(/^Online \d+$/);
  for (const bad of ['Seek 9 60 5', 'Seek 5 60', 'Seek 5 x 5', 'Seek 5 60 5 Q 0 21 1 0 0 ', 'Seek 5 60 5 W 99 21 1 0 0 ',
    'Seek 5 99999999999999999999 5', 'Accept 424242', 'Accept -1', 'Game#1 P A1', 'Game#x P A1', 'Observe 1', 'garbage',
    '\u0000\u0001', 'Tell', 'Login Guest'])
    assert.equal(await c.ask(bad), 'NOK', bad);
  assert.equal(await c.ask('Tell NoSuchPlayer hello'), 'No such player');
  // An over-long line is cut off and refused; the connection goes on.
  assert.match(await c.ask('x'.repeat(5000)), /^Error:line too long/);
  assert.equal(await c.ask('PING'), 'OK');
  // Moves out of turn, in the other's seat, illegal, or for another game.
  const w = await ptGuest();
  w.send('Seek 4 0 0 W');
  const seek = await c.line(new RegExp(`^Seek new \\d+ ${w.name} 4 `));
  c.send(`Accept ${seek.split(' ')[2]}`);
  const g = +(await c.line(/^Game Start /)).split(' ')[2];
  await w.line(/^Game Start /);
  let at = c.mark();
  c.send(`Game#${g} P A1`); // Black moves on White's turn
  assert.equal(await c.line(/^(OK|NOK)$/, at), 'NOK');
  assert.equal(await w.ask(`Game#${g + 1} P A1`), 'NOK'); // not its game
  assert.equal(await w.ask(`Game#${g} P E5`), 'NOK'); // off the 4x4 board
  assert.equal(await w.ask(`Game#${g} P A1 C`), 'NOK'); // no capstones on 4x4, nor on the first move
  assert.equal(await w.ask(`Game#${g} M A1 A2 1`), 'NOK'); // no stack there
  assert.equal(await w.ask(`Game#${g} P A1`), 'OK');
  at = c.mark();
  c.send(`Game#${g} P A1`); // taken already
  assert.equal(await c.line(/^(OK|NOK)$/, at), 'NOK');
  assert.equal(await c.ask(`Game#${g} RemoveDraw`), 'OK'); // nothing to take back: nothing happens
  at = c.mark();
  c.send('GameList');
  assert.ok(await c.line(new RegExp(`^GameList Add ${g} ${w.name} ${c.name} 4 0 0 0 15 0 1 0 0 0$`), at));
  assert.equal(await c.ask('Seek 4 60 0'), 'NOK'); // no seeking while playing
  // Flooding: past the burst, lines are refused with one error; later ones are served.
  at = c.mark();
  c.send(Array(400).fill('PING').join('\n'));
  assert.ok(await c.line(/^Error:too many lines/, at));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await c.ask('PING'), 'OK');
  // Seeks are news to every client: past five at once, one a second.
  const other = await ptGuest();
  at = other.mark();
  for (let i = 0; i < 8; i++) other.send('Seek 5 60 0');
  assert.ok(await other.line(/^Error:too many seeks/, at));
  await other.close();
  c.send(`Game#${g} Resign`); // Black resigns: White wins, as PlayTak writes it
  assert.ok(await w.line(`Game#${g} Over 1-0`));
  await c.close();
  await w.close();
});

// The squares of a size-board named in `lines` ("Game#N P A1", "M A1 B1 1"):
// one not among them is empty.
function freeSquare(lines, size) {
  const named = new Set(lines.flatMap((l) => l.match(/\b[A-H][1-8]\b/g) || []));
  for (let f = 0; f < size; f++)
    for (let r = 1; r <= size; r++) {
      const sq = String.fromCharCode(65 + f) + r;
      if (!named.has(sq)) return sq;
    }
  return null;
}

test('a seek naming an opponent: only that player sees it and may take it', async () => {
  const seeker = await ptGuest();
  const named = await ptGuest();
  const other = await ptGuest();
  const page = await lobbyFollower();
  const lobbies = page.others.filter((m) => m.type === 'lobby').length;
  const from = named.mark();
  seeker.send(`Seek 4 60 0 W 0 15 0 1 0 ${named.name.toLowerCase()}`); // any case, as PlayTak
  const line = await seeker.line(new RegExp(`^Seek new \\d+ ${seeker.name} 4 60 0 W 0 15 0 1 0 0 0 ${named.name.toLowerCase()}$`));
  const no = line.split(' ')[2];
  assert.equal(await named.line(line, from), line);
  // Nobody else is told of it, nor finds it in a list, nor may take it.
  assert.equal(await other.ask(`Accept ${no}`), 'NOK');
  other.send('List');
  assert.equal(await other.ask('PING'), 'OK'); // after the list
  const late = await ptGuest();
  for (const c of [other, late]) assert.ok(!c.lines.some((l) => l.startsWith(`Seek new ${no} `)), c.lines.join('\n'));
  // The lobby of a page follower it does not name leaves it out.
  await waitFor(() => page.others.filter((m) => m.type === 'lobby').length > lobbies);
  assert.ok(!lastLobby(page).seeks.some((x) => x.name === seeker.name), JSON.stringify(lastLobby(page)));
  named.send(`Accept ${no}`);
  assert.match(await named.line(/^Game Start /), new RegExp(`^Game Start \\d+ 4 ${seeker.name} vs ${named.name} black 60 `));
  assert.ok(await seeker.line(/^Game Start /));
  for (const c of [seeker, named, other, late]) await c.close();
  await page.close();
});

test("a seek naming a page player: that player's lobby shows it, and only theirs", async () => {
  const seeker = await ptGuest();
  const named = await lobbyFollower(), other = await lobbyFollower();
  const name = uniqueName('Pia');
  await identify(named, name);
  await identify(other, uniqueName('Otto'));
  seeker.send(`Seek 4 60 0 W 0 15 0 1 0 ${name.toLowerCase()}`);
  await seeker.line(/^Seek new \d+ /);
  // The named player's lobby lists it (saying whom it is for); the other's never does.
  const mine = (c) => lastLobby(c) && lastLobby(c).seeks.find((x) => x.name === seeker.name);
  const k = await waitFor(() => mine(named));
  assert.equal(k.opponent, name.toLowerCase());
  seeker.send('Seek 4 60 0 W 0 15 0 1 0 '); // a seek for anyone: everyone's lobby changes
  await waitFor(() => mine(other) && !mine(other).opponent);
  assert.ok(!other.others.some((m) => m.type === 'lobby' && m.seeks.some((x) => x.opponent)), JSON.stringify(lastLobby(other)));
  // Named again, the named player takes it from the page.
  seeker.send(`Seek 4 60 0 W 0 15 0 1 0 ${name}`);
  const again = await waitFor(() => mine(named) && mine(named).opponent && mine(named));
  assert.notEqual(again.id, k.id);
  const a = await named.send({ type: 'accept_seek', seek: again.id });
  assert.equal(a.type, 'ok', JSON.stringify(a));
  assert.match(await seeker.line(/^Game Start /), new RegExp(`^Game Start \\d+ 4 ${seeker.name} vs ${name} white 60 `));
  assert.ok(!other.others.some((m) => m.type === 'lobby' && m.seeks.some((x) => x.id === again.id)));
  await seeker.close();
  for (const c of [named, other]) await c.close();
});

test("a seek naming 'x_q' is x_q's, not x-q's; the shape PlayTak shows a name stands for it only when one player has it", async () => {
  const seeker = await ptGuest();
  const base = uniqueName('Dash');
  const dash = await lobbyFollower(), under = await lobbyFollower();
  await identify(dash, `${base}-q`);
  await identify(under, `${base}_q`);
  const mine = (c) => lastLobby(c) && lastLobby(c).seeks.find((x) => x.name === seeker.name);
  seeker.send(`Seek 4 60 0 W 0 15 0 1 0 ${base}_q`);
  const k = await waitFor(() => mine(under));
  assert.equal(k.opponent, `${base}_q`);
  const refused = await dash.send({ type: 'accept_seek', seek: k.id });
  assert.notEqual(refused.type, 'ok', JSON.stringify(refused));
  seeker.send('Seek 4 60 0 W 0 15 0 1 0 '); // for anyone: the dash's lobby changes after
  await waitFor(() => mine(dash) && !mine(dash).opponent);
  assert.ok(!dash.others.some((m) => m.type === 'lobby' && m.seeks.some((x) => x.id === k.id)), JSON.stringify(lastLobby(dash)));
  // Only one player online has the shape: a seek naming it is theirs, under their own name.
  const lone = await lobbyFollower();
  const loneName = `${uniqueName('Lone')}-z`;
  await identify(lone, loneName);
  seeker.send(`Seek 4 60 0 W 0 15 0 1 0 ${loneName.replace('-', '_')}`);
  const l = await waitFor(() => mine(lone) && mine(lone).opponent && mine(lone));
  assert.equal(l.opponent, loneName);
  const a = await lone.send({ type: 'accept_seek', seek: l.id });
  assert.equal(a.type, 'ok', JSON.stringify(a));
  assert.ok(await seeker.line(/^Game Start /));
  await seeker.close();
  for (const c of [dash, under, lone]) await c.close();
});

// A PlayTak guest (White) in a game with a page player (Black); the page's connection follows it.
async function gameWithPage(pageName) {
  const pt = await ptGuest();
  const page = await lobbyFollower();
  await identify(page, pageName);
  pt.send('Seek 4 0 0 W 0 15 0 1 0 ');
  const k = await waitFor(() => (lastLobby(page)?.seeks || []).find((x) => x.name === pt.name));
  const a = await page.send({ type: 'accept_seek', seek: k.id });
  assert.equal(a.type, 'ok', JSON.stringify(a));
  const g = +(await pt.line(/^Game Start /)).split(' ')[2];
  return { pt, page, g, game: a.game };
}

test("Tell between a PlayTak player and their page opponent: the game's players' room, both ways", async () => {
  const name = uniqueName('Pia');
  const { pt, page, g, game } = await gameWithPage(name);
  const watcher = await connect(srv.port);
  assert.equal((await watcher.send({ type: 'join', game })).type, 'ok');
  const chats = (c) => c.others.filter((m) => m.type === 'chat');
  // PlayTak's Tell reaches the page player in the players' room, as White.
  assert.equal(await pt.ask(`Tell ${name} good luck <b>you</b>`), `Told <${name}> good luck <b>you</b>`);
  const m = await waitFor(() => chats(page)[0]);
  assert.deepEqual([m.room, m.from, m.text], ['players', 'white', 'good luck <b>you</b>']);
  // The page's message in that room reaches PlayTak as a Tell from its player.
  const at = pt.mark();
  assert.equal((await page.send({ type: 'chat', text: 'thanks, é to you' })).type, 'ok');
  assert.equal(await pt.line(/^Tell /, at), `Tell <${name}> thanks, é to you`);
  assert.ok(!pt.lines.slice(at).some((l) => l.startsWith('Tell') && l.includes('good luck')), 'its own not echoed');
  // A long page message comes to PlayTak cut to PlayTak's 256 characters, never mid-character.
  assert.equal((await page.send({ type: 'chat', text: 'é'.repeat(300) })).type, 'ok');
  assert.equal(await pt.line(/^Tell .*é{10}/, at), `Tell <${name}> ${'é'.repeat(256)}`);
  // The page's rules for text apply to a Tell that goes to the page.
  assert.equal(await pt.ask(`Tell ${name} evil\u202Eright-to-left`), 'Error:a message may not hold text-direction overrides');
  // Bytes that are not UTF-8 (a lead byte at the line's end) are refused, never read past.
  const bad = pt.mark();
  pt.sock.write(Buffer.concat([Buffer.from(`Tell ${name} x`), Buffer.from([0xf0]), Buffer.from('\n')]));
  assert.equal(await pt.line(/^Error:/, bad), 'Error:a message is UTF-8 text');
  // Spectators never read the players' room.
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(chats(watcher).length, 0);
  // The page has no private messages: a page player who is not one's opponent is nobody to Tell.
  const other = await connect(srv.port);
  const otherName = uniqueName('Otto');
  await identify(other, otherName);
  assert.equal(await pt.ask(`Tell ${otherName} hello`), 'No such player');
  // The game over, the two still talk (a 'gg'), as on the page.
  assert.equal(await pt.ask(`Game#${g} Resign`), `Game#${g} Over 0-1`);
  assert.equal(await pt.ask(`Tell ${name} gg`), `Told <${name}> gg`);
  assert.ok(await waitFor(() => chats(page).find((x) => x.text === 'gg')));
  // One budget for every message, as the page's: 5 at once, then one every 2 s.
  const replies = [];
  while (replies.length < 8 && !/^Error:/.test(replies.at(-1))) replies.push(await pt.ask(`Tell ${name} n${replies.length}`));
  assert.match(replies.at(-1), /^Error:too many messages/);
  assert.ok(replies.length <= 6, replies.join('\n')); // 'good luck' took one
  for (const c of [page, watcher, other]) await c.close();
  await pt.close();
});

test("PlayTak's rooms: JoinRoom, ShoutRoom to its members only, LeaveRoom", async () => {
  const [a, b, c] = [await ptGuest(), await ptGuest(), await ptGuest()];
  const room = `r${Date.now()}`;
  assert.equal(await a.ask(`JoinRoom ${room}`), `Joined room ${room}`);
  assert.equal(await b.ask(`JoinRoom ${room}`), `Joined room ${room}`);
  let at = b.mark();
  a.send(`ShoutRoom ${room} hello <i>room</i>`);
  const said = `ShoutRoom ${room} <${a.name}> hello <i>room</i>`;
  assert.equal(await b.line(/^ShoutRoom /, at), said);
  assert.equal(await a.line(/^ShoutRoom /), said);
  assert.equal(await c.ask('PING'), 'OK');
  assert.ok(!c.lines.some((l) => l.startsWith('ShoutRoom')));
  assert.equal(await b.ask(`LeaveRoom ${room}`), 'OK');
  at = b.mark();
  a.send(`ShoutRoom ${room} again`);
  await a.line(`ShoutRoom ${room} <${a.name}> again`);
  assert.equal(await b.ask('PING'), 'OK');
  assert.ok(!b.lines.slice(at).some((l) => l.startsWith('ShoutRoom')));
  for (const x of [a, b, c]) await x.close();
});

test('GameList news and Observe: a PlayTak client lists and watches a game played on the page', async () => {
  const early = await ptGuest();
  const [wName, bName] = [uniqueName('Wanda'), uniqueName('Bert')];
  const a = await connect(srv.port), b = await connect(srv.port);
  await identify(a, wName);
  await identify(b, bName);
  const r = await a.send({ type: 'create', opponent: 'friend', size: 3, color: 'white', time: 300, increment: 5, name: wName });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  assert.equal((await b.send({ type: 'join', game: r.game, invite: r.invite, name: bName })).type, 'ok');
  // Its start is news to every PlayTak client, as on PlayTak.
  const add = await early.line(new RegExp(`^GameList Add \\d+ ${wName} ${bName} `));
  assert.match(add, new RegExp(`^GameList Add \\d+ ${wName} ${bName} 3 300 5 0 10 0 1 0 0 0$`));
  const g = +add.split(' ')[2];
  await play(a, b, ['c3', 'a1']);
  // A client logging in now is given the list; it watches the game: its form, the moves so far, then each move.
  const pt = await ptGuest();
  assert.ok(pt.lines.includes(add), pt.lines.join('\n'));
  let at = pt.mark();
  pt.send(`Observe ${g}`);
  assert.equal(await pt.line(/^Observe /, at), `Observe ${add.slice('GameList Add '.length)}`);
  assert.ok(await pt.line(`Game#${g} P C3`, at));
  assert.ok(await pt.line(`Game#${g} P A1`, at));
  // Another watches a while, then stops: nothing more of the game reaches it.
  assert.match(await early.ask(`Observe ${g}`), /^Observe /);
  assert.equal(await early.ask(`Unobserve ${g}`), 'OK');
  const left = early.mark();
  await play(a, b, ['a2']);
  assert.ok(await pt.line(`Game#${g} P A2`, at));
  assert.ok(await pt.line(new RegExp(`^Game#${g} Time \\d+ \\d+$`), at));
  // A watcher has no seat: its moves are refused.
  assert.equal(await pt.ask(`Game#${g} P B2`), 'NOK');
  // An unknown number is the protocol's NOK, for both.
  assert.equal(await pt.ask('Observe 999999'), 'NOK');
  assert.equal(await pt.ask('Unobserve 999999'), 'NOK');
  // The end: Over to the watcher, and the game leaves every client's list.
  await play(b, a, ['c2', 'a3']); // Black's turn
  assert.equal(await pt.line(new RegExp(`^Game#${g} Over `), at), `Game#${g} Over R-0`);
  assert.ok(await early.line(new RegExp(`^GameList Remove ${g} ${wName} ${bName} `), left));
  assert.ok(!early.lines.slice(left).some((l) => l.startsWith(`Game#${g} `)), early.lines.slice(left).join('\n'));
  for (const c of [a, b]) await c.close();
  for (const c of [early, pt]) await c.close();
});

test("a PlayTak watcher in the game's room talks with the page's spectators", async () => {
  const [wName, bName] = [uniqueName('Wim'), uniqueName('Bea')];
  const a = await connect(srv.port), b = await connect(srv.port), v = await connect(srv.port);
  await identify(a, wName);
  await identify(b, bName);
  const r = await a.send({ type: 'create', opponent: 'friend', size: 3, color: 'white', name: wName });
  assert.equal((await b.send({ type: 'join', game: r.game, invite: r.invite, name: bName })).type, 'ok');
  assert.equal((await v.send({ type: 'join', game: r.game })).type, 'ok'); // a spectator on the page
  const pt = await ptGuest();
  const g = +(await pt.line(new RegExp(`^GameList Add \\d+ ${wName} ${bName} `))).split(' ')[2];
  assert.match(await pt.ask(`Observe ${g}`), /^Observe /);
  // The game's room, as PlayTak's clients name it: its players' names, sorted, joined by '-'.
  const room = [wName, bName].sort().join('-');
  assert.equal(await pt.ask(`JoinRoom ${room}`), `Joined room ${room}`);
  const chats = (c) => c.others.filter((m) => m.type === 'chat');
  // The page's spectators' room reaches the PlayTak watcher...
  let at = pt.mark();
  assert.equal((await v.send({ type: 'chat', text: 'nice opening' })).type, 'ok');
  assert.equal(await pt.line(/^ShoutRoom /, at), `ShoutRoom ${room} <Spectator> nice opening`);
  // ...and its ShoutRoom reaches the page's spectators, never the players; it hears itself once, by name.
  at = pt.mark();
  pt.send(`ShoutRoom ${room} thanks`);
  const m = await waitFor(() => chats(v).find((x) => x.text === 'thanks'));
  assert.deepEqual([m.room, m.from], ['spectators', 'spectator']);
  assert.equal(await pt.line(/^ShoutRoom /, at), `ShoutRoom ${room} <${pt.name}> thanks`);
  assert.equal(await pt.ask('PING'), 'OK');
  assert.equal(pt.lines.slice(at).filter((l) => l.startsWith('ShoutRoom')).length, 1, pt.lines.slice(at).join('\n'));
  for (const c of [a, b]) assert.ok(!chats(c).length, JSON.stringify(chats(c)));
  for (const c of [a, b, v]) await c.close();
  await pt.close();
});

test('a seek naming TakEngineN is taken by the engine at that level at once', { timeout: 60000 }, async () => {
  const pt = await ptGuest();
  const other = await ptGuest();
  const at = pt.mark();
  pt.send('Seek 5 0 0 W 0 21 1 1 0 takengine2');
  const start = (await pt.line(/^Game Start /, at)).split(' ');
  assert.deepEqual(start.slice(3, 9), ['5', pt.name, 'vs', 'TakEngine2', 'white', '0']);
  const g = +start[2];
  assert.ok(pt.lines.slice(at).some((l) => /^Seek remove \d+ /.test(l)));
  assert.ok(!other.lines.some((l) => / takengine2$/.test(l)));
  // The engine plays its seat.
  const sq = freeSquare([], 5);
  assert.equal(await pt.ask(`Game#${g} P ${sq}`), 'OK');
  assert.ok(await pt.line(new RegExp(`^Game#${g} (P|M) `), at, 15000));
  // Only a level is an engine's seat: TakEngine11 is nobody, and its seek waits.
  const wait = await ptGuest();
  wait.send('Seek 5 0 0 W 0 21 1 1 0 TakEngine11');
  assert.ok(await wait.line(/^Seek new \d+ \S+ 5 0 0 W .* TakEngine11$/));
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(!wait.lines.some((l) => l.startsWith('Game Start')));
  for (const c of [pt, other, wait]) await c.close();
});

test("RequestUndo against the engine is answered as the page's takeback: granted at once, or refused", { timeout: 60000 }, async () => {
  const pt = await ptGuest();
  let at = pt.mark();
  pt.send('Seek 5 0 0 B 0 21 1 1 0 TakEngine1');
  const g = +(await pt.line(/^Game Start /, at)).split(' ')[2];
  const moves = () => pt.lines.filter((l) => new RegExp(`^Game#${g} (P|M) `).test(l));
  await pt.line(new RegExp(`^Game#${g} P `), at, 15000); // the engine opens
  // No move of its own yet: refused, saying why.
  at = pt.mark();
  pt.send(`Game#${g} RequestUndo`);
  assert.equal(await pt.line(/^(OK|NOK)$/, at), 'NOK');
  assert.ok(await pt.line(/^Error:there is no move of yours to take back$/, at));
  // Its move and the engine's answer taken back: one Undo a ply, then OK.
  const sq = freeSquare(moves(), 5);
  assert.equal(await pt.ask(`Game#${g} P ${sq}`), 'OK');
  await waitFor(() => moves().length === 2, 15000);
  at = pt.mark();
  pt.send(`Game#${g} RequestUndo`);
  assert.equal(await pt.line(/^(OK|NOK)$/, at), 'OK');
  assert.deepEqual(pt.lines.slice(at).filter((l) => l.startsWith(`Game#${g} `)), [`Game#${g} Undo`, `Game#${g} Undo`]);
  // Its turn again: the game goes on.
  at = pt.mark();
  assert.equal(await pt.ask(`Game#${g} P ${sq}`), 'OK');
  assert.ok(await pt.line(new RegExp(`^Game#${g} (P|M) `), at, 15000));
  await pt.close();
});

test('our bot plays a whole timed game against itself on the PlayTak port', { timeout: 120000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tak-playtak-'));
  const run = (args) => new Promise((resolve) => {
    const p = spawn(TAK, ['playtak', '--server', `127.0.0.1:${srv.playtakPort}`, '--games', '1', '--level', '1',
      '--no-reconnect', '--no-chat', '--ptn-dir', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('exit', (code) => resolve({ code, out, err }));
  });
  const seeker = run(['--seek', '4,0.5+1,W']);
  await new Promise((r) => setTimeout(r, 300));
  const taker = run(['--accept', '--accept-sizes', '4']);
  const [s, t] = await Promise.all([seeker, taker]);
  assert.equal(s.code, 0, s.err);
  assert.equal(t.code, 0, t.err);
  assert.match(s.out, /game \d+: Guest\d+ vs Guest\d+: (R-0|0-R|F-0|0-F|1-0|0-1|1\/2-1\/2) /);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ptn'));
  assert.ok(files.length >= 1, 'no PTN logged');
  const ptn = fs.readFileSync(path.join(dir, files[0]), 'utf8');
  assert.match(ptn, /\[Result "(R-0|0-R|F-0|0-F|1-0|0-1|1\/2-1\/2)"\]/);
  assert.match(ptn, /\[Size "4"\]/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the engine's standing seek: a PlayTak guest accepts it and plays the engine to the end", { timeout: 60000 }, async () => {
  await assert.rejects(startServer({ args: ['--engine-seeks', '11:5:3+2'] }), /--engine-seeks: '11:5:3\+2': the level/);
  await assert.rejects(startServer({ args: ['--engine-seeks', '1:5:3+2:Q'] }), /colour is W, B or A/);
  const eng = await startServer({ args: ['--playtak-port', '0', '--engine-seeks', '1:3:0.5+1:B,2:4:1+0'] });
  try {
    const pt = await ptGuest(eng.playtakPort);
    const seek = pt.lines.find((l) => /^Seek new \d+ TakEngine1 3 30 1 B 0 10 0 1 0 0 0 $/.test(l));
    assert.ok(seek, pt.lines.join('\n'));
    assert.ok(pt.lines.some((l) => /^Seek new \d+ TakEngine2 4 60 0 A /.test(l)));
    // The page's lobby shows them too.
    const page = await connect(eng.port);
    assert.equal((await page.send({ type: 'lobby' })).type, 'ok');
    const k = await waitFor(() => page.others.find((m) => m.type === 'lobby'));
    assert.deepEqual(k.seeks.map((x) => x.name).sort(), ['TakEngine1', 'TakEngine2']);
    await page.close();
    let at = pt.mark();
    pt.send(`Accept ${seek.split(' ')[2]}`);
    const start = (await pt.line(/^Game Start /, at)).split(' ');
    assert.deepEqual(start.slice(3, 9), ['3', pt.name, 'vs', 'TakEngine1', 'white', '30']);
    const g = +start[2];
    // The seek stands: posted again under a new number, after the taker has
    // its Game Start (a client that accepts the bot's every new seek until its
    // game starts, as Tiltak's playtak does, would otherwise accept it too).
    const again = await pt.line((l) => /^Seek new \d+ TakEngine1 3 30 1 B /.test(l) && l !== seek, at);
    assert.ok(again);
    assert.ok(pt.lines.indexOf(again, at) > pt.lines.findIndex((l, n) => n >= at && /^Game Start /.test(l)),
      pt.lines.slice(at).join('\n'));
    // White places flats on empty squares; the engine's moves are followed to know which.
    const height = {};
    const step = (sq, df, dr) => String.fromCharCode(sq.charCodeAt(0) + df) + (+sq[1] + dr);
    const follow = (text) => {
      const f = text.split(' ');
      if (f[0] === 'P') { height[f[1]] = (height[f[1]] || 0) + 1; return; }
      const drops = f.slice(3).map(Number);
      const df = Math.sign(f[2].charCodeAt(0) - f[1].charCodeAt(0)), dr = Math.sign(+f[2][1] - +f[1][1]);
      height[f[1]] -= drops.reduce((a, b) => a + b, 0);
      let sq = f[1];
      for (const d of drops) { sq = step(sq, df, dr); height[sq] = (height[sq] || 0) + d; }
    };
    const squares = ['A', 'B', 'C'].flatMap((f) => ['1', '2', '3'].map((r) => f + r));
    let over = null;
    for (let turn = 0; turn < 30 && !over; turn++) {
      const sq = squares.find((x) => !height[x]);
      at = pt.mark();
      pt.send(`Game#${g} P ${sq}`);
      assert.equal(await pt.line(/^(OK|NOK)$/, at), 'OK', `P ${sq}: ${pt.lines.slice(at).join('\n')}`);
      follow(`P ${sq}`);
      const next = await pt.line(new RegExp(`^Game#${g} (P|M|Over) `), at, 15000);
      if (next.startsWith(`Game#${g} Over `)) { over = next; break; }
      follow(next.slice(`Game#${g} `.length));
      over = pt.lines.slice(at).find((l) => l.startsWith(`Game#${g} Over `));
    }
    assert.match(over || '', new RegExp(`^Game#${g} Over (R-0|0-R|F-0|0-F|1-0|0-1|1/2-1/2)$`));
    assert.ok(!pt.lines.some((l) => l === 'NOK'), pt.lines.join('\n'));
    await pt.close();
  } finally {
    assert.equal(await eng.stop(), 0, eng.stderr());
  }
});
