// lib.js: what the server and browser tests share: start `tak serve` on a
// free port with a throw-away database (and stop or kill it), and a small
// WebSocket client that matches replies to requests and waits for states.
'use strict';
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const WebSocket = require('ws');

const ROOT = path.resolve(__dirname, '../..');
const TAK = process.env.TAK_BIN || path.join(ROOT, 'build/tak');

// Under scripts/with-postgres.sh every server shares its throw-away
// PostgreSQL database (games have random ids, so tests do not meet).
// SQLite databases live in temporary folders, removed when the test file's
// process ends (not when a server stops: restart tests reopen them).
const tempDirs = [];
process.on('exit', () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDb() {
  if (process.env.TAK_TEST_PG) return process.env.TAK_TEST_PG;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tak-serve-'));
  tempDirs.push(dir);
  return path.join(dir, 'games.db');
}

// Every server a test started and that has not exited. A test that fails
// before it stops its servers leaves them running, and their pipes would
// keep the file's process waiting for ever; `node --test --test-force-exit`
// (the Makefile's) ends the process once the file's tests and hooks are
// done, and whatever is still running then is killed here. (An `after` hook
// here would run before the files' own, which stop their servers and check
// how they ended.)
const running = new Set();
process.on('exit', () => {
  for (const proc of running) proc.kill('SIGKILL');
});

// Starts the server; resolves { port, url, proc, stop(), kill() }.
function startServer({ db = tempDb(), port = 0, args = [] } = {}) {
  return new Promise((resolve, reject) => {
    const proc = spawn(TAK, ['serve', '--port', String(port), '--db', db, '--quiet',
      '--engine-movetime', '300', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(proc);
    proc.once('exit', () => running.delete(proc));
    const exited = () => proc.exitCode !== null || proc.signalCode !== null;
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error('server did not start: ' + err)), 10000);
    proc.stderr.on('data', (d) => { err += d; });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open http:\/\/[^:]+:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        const p = +m[1];
        const pt = out.match(/playtak port (\d+)/); // printed first, with --playtak-port
        const ptws = out.match(/playtak websocket port (\d+)/); // with --playtak-ws-port
        resolve({
          port: p, playtakPort: pt ? +pt[1] : null, playtakWsPort: ptws ? +ptws[1] : null, db, proc, url: `http://127.0.0.1:${p}`, stderr: () => err,
          stop: () => new Promise((res) => { if (exited()) return res(proc.exitCode); proc.once('exit', (c) => res(c)); proc.kill('SIGTERM'); }),
          kill: () => new Promise((res) => { if (exited()) return res(); proc.once('exit', () => res()); proc.kill('SIGKILL'); }),
        });
      }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${err}`)); });
  });
}

// A client: send(msg) resolves with the reply to msg (ok or error);
// nextState(pred) resolves with the first state (already seen or coming)
// that satisfies pred.
class Client {
  constructor(port) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    this.req = 0;
    this.waiting = new Map();
    this.states = [];
    this.others = [];
    this.stateWaiters = [];
    this.ws.on('message', (data) => {
      const m = JSON.parse(data);
      if (m.req !== undefined && this.waiting.has(m.req)) {
        const w = this.waiting.get(m.req);
        this.waiting.delete(m.req);
        w(m);
      } else if (m.type === 'state') {
        this.states.push(m);
        this.stateWaiters = this.stateWaiters.filter((w) => !w(m));
      } else {
        this.others.push(m);
      }
    });
    this.open = new Promise((res, rej) => { this.ws.once('open', res); this.ws.once('error', rej); });
    this.closed = new Promise((res) => this.ws.once('close', res));
  }
  // Every request gets exactly one reply: one missing fails the test
  // after `ms` instead of hanging it.
  send(msg, ms = 15000) {
    const m = { ...msg, req: ++this.req };
    return new Promise((res, rej) => {
      const t = setTimeout(() => {
        this.waiting.delete(m.req);
        rej(new Error('no reply to ' + JSON.stringify(msg).slice(0, 80)));
      }, ms);
      const done = (r) => { clearTimeout(t); res(r); };
      done.timer = t;
      this.waiting.set(m.req, done);
      this.ws.send(JSON.stringify(m));
    });
  }
  // The latest state satisfies pred, or the next one that does.
  // Sends raw text; resolves with the next message that is not a state.
  raw(text) {
    const before = this.others.length;
    this.ws.send(text);
    return waitFor(() => this.others.length > before && this.others[before]);
  }
  get state() { return this.states[this.states.length - 1]; }
  nextState(pred = () => true, ms = 10000) {
    const last = this.state;
    if (last && pred(last)) return Promise.resolve(last);
    return new Promise((res, rej) => {
      const t = setTimeout(() => rej(new Error('no such state came')), ms);
      this.stateWaiters.push((s) => { if (!pred(s)) return false; clearTimeout(t); res(s); return true; });
    });
  }
  // Replies still awaited will not come: stop their clocks.
  close() {
    for (const w of this.waiting.values()) clearTimeout(w.timer);
    this.waiting.clear();
    this.ws.close();
    return this.closed;
  }
}

async function connect(port) {
  const c = new Client(port);
  await c.open;
  return c;
}

function waitFor(fn, ms = 5000) {
  return new Promise((res, rej) => {
    const start = Date.now();
    const tick = () => {
      const v = fn();
      if (v) return res(v);
      if (Date.now() - start > ms) return rej(new Error('timed out'));
      setTimeout(tick, 10);
    };
    tick();
  });
}

// One server for a whole test file: started before its tests, stopped after
// them, where a clean stop must exit 0 (under ASan/UBSan that also means no
// leak and no report). The object returned is filled in once it has started.
function serverForTests(test, opts) {
  const srv = {};
  test.before(async () => { Object.assign(srv, await startServer(opts)); });
  test.after(async () => {
    if (!srv.stop) return;
    const code = await srv.stop();
    assert.equal(code, 0, srv.stderr());
    assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error/);
  });
  return srv;
}

// A game between two friends on the server at `port`: A creates it, B joins
// by the invitation; both have seen its first state.
async function friendGame(port, opts = {}) {
  const a = await connect(port);
  const r = await a.send({ type: 'create', opponent: 'friend', size: 3, ...opts });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  await a.nextState((s) => s.game === r.game);
  const b = await connect(port);
  const j = await b.send({ type: 'join', game: r.game, invite: r.invite });
  assert.equal(j.type, 'ok', JSON.stringify(j));
  await b.nextState();
  return { a, b, game: r.game, tokenA: r.token, tokenB: j.token, seatA: r.seat, seatB: j.seat };
}

// Plays `moves` alternately from a (white) and b (black); each must be accepted.
async function play(a, b, moves) {
  for (const [i, m] of moves.entries()) {
    const r = await (i % 2 === 0 ? a : b).send({ type: 'move', move: m });
    assert.equal(r.type, 'ok', `${m}: ${JSON.stringify(r)}`);
  }
}

// A name of its own for a test: names are unique on a server, and under
// scripts/with-postgres.sh every test file's server shares one database.
function uniqueName(base) {
  return (base.slice(0, 13) + '_' + crypto.randomBytes(3).toString('hex'));
}

// A fresh identity secret, as the page makes one.
function newIdentity() { return crypto.randomBytes(24).toString('base64url'); }

// Identifies client c as a player; `name` claims a name for a new identity.
// Resolves with the reply's player (its .identity is the secret used).
async function identify(c, name, identity = newIdentity()) {
  const r = await c.send({ type: 'identify', identity, ...(name ? { name } : {}) });
  assert.equal(r.type, 'ok', JSON.stringify(r));
  return r.player && { ...r.player, identity };
}

module.exports = { startServer, serverForTests, friendGame, play, connect, waitFor, tempDb, uniqueName, newIdentity, identify, ROOT, TAK };
