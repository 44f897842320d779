// server_load.js: load benchmark of `tak serve` on loopback, bounded in
// count and time. Starts its own server (temporary database) and measures:
//   1. connections: opens --connections WebSockets and holds them (each
//      answers a ping), with the server's memory;
//   2. moves: --games games between two connections each, moves sent at
//      --rate moves/s in total (open loop), each timed from sending to its
//      acknowledgement (sent after the move is committed to the database);
//      then the same games as fast as they go (closed loop);
//   3. the page: --pages GETs of / one after another.
// The games run on a clock (--clock seconds a side, 5 s increment; 0: none),
// and --lobby of the held connections follow the lobby while a seek is
// posted and cancelled every 50 ms, so its updates fan out to them during
// the moves (their count is reported).
// Usage: node bench/server_load.js [--connections 10000] [--games 200]
//        [--rate 1000] [--seconds 10] [--pages 200] [--size 5] [--clock 600] [--lobby 1000]
'use strict';
const { startServer } = require('../tests/server/lib.js');
const WebSocket = require('ws');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');

const opt = { connections: 10000, games: 200, rate: 1000, seconds: 10, pages: 200, size: 5, clock: 600, lobby: 1000 };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in opt)) { console.error('unknown option ' + process.argv[i]); process.exit(2); }
  opt[k] = +process.argv[i + 1];
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function pct(a, p) { if (!a.length) return NaN; const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p / 100 * s.length))]; }
function rss(pid) {
  const t = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const get = (k) => +(t.match(new RegExp(k + ':\\s+(\\d+)')) || [0, 0])[1];
  return { rssMB: (get('VmRSS') / 1024).toFixed(1), peakMB: (get('VmHWM') / 1024).toFixed(1) };
}

// CPU seconds the server has used (user + system).
function cpu(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (+f[11] + +f[12]) / 100;
}

class Conn {
  constructor(port) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { perMessageDeflate: false });
    this.req = 0; this.wait = new Map(); this.state = null; this.onstate = null;
    this.ws.on('message', (d) => {
      const m = JSON.parse(d);
      if (m.req !== undefined && this.wait.has(m.req)) { const w = this.wait.get(m.req); this.wait.delete(m.req); w(m); }
      else if (m.type === 'state') { this.state = m; if (this.onstate) this.onstate(m); }
    });
    this.ready = new Promise((res, rej) => { this.ws.once('open', res); this.ws.once('error', rej); });
  }
  send(msg) {
    const m = { ...msg, req: ++this.req };
    return new Promise((res) => { this.wait.set(m.req, res); this.ws.send(JSON.stringify(m)); });
  }
}

async function openMany(port, n) {
  const conns = [];
  const batch = 250;
  for (let i = 0; i < n; i += batch) {
    const group = [];
    for (let j = i; j < Math.min(n, i + batch); j++) group.push(new Conn(port));
    await Promise.all(group.map((c) => c.ready));
    await Promise.all(group.map((c) => c.send({ type: 'ping' })));
    conns.push(...group);
  }
  return conns;
}

// A game between two connections; move() plays a random legal move for
// the side to move and resolves with the round trip in ms.
class Pair {
  constructor(port) { this.a = new Conn(port); this.b = new Conn(port); }
  async start() {
    await Promise.all([this.a.ready, this.b.ready]);
    const r = await this.a.send({ type: 'create', size: opt.size, ...(opt.clock ? { time: opt.clock, increment: 5 } : {}) });
    await this.b.send({ type: 'join', game: r.game, invite: r.invite });
    await new Promise((res) => { const t = () => (this.a.state && this.a.state.game === r.game ? res() : setTimeout(t, 5)); t(); });
    this.game = r.game;
  }
  async move() {
    const s = this.a.state;
    if (s.result || s.ply >= 60) { await this.start(); return null; }
    const c = s.turn === 'white' ? this.a : this.b;
    const m = s.legal[Math.floor(Math.random() * s.legal.length)];
    const t0 = process.hrtime.bigint();
    const r = await c.send({ type: 'move', move: m, ply: s.ply });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.type !== 'ok') throw new Error('move refused: ' + r.message);
    // Wait for both sides to see the new state before the next move.
    await new Promise((res) => { const t = () => (this.a.state.ply > s.ply || this.a.state.game !== s.game ? res() : setTimeout(t, 1)); t(); });
    return ms;
  }
}

async function openLoop(pairs, rate, seconds) {
  const lat = [];
  const interval = 1000 / rate;
  const end = Date.now() + seconds * 1000;
  let next = Date.now(), i = 0, inflight = 0, done = 0;
  const busy = new Set();
  while (Date.now() < end) {
    const now = Date.now();
    if (now < next) { await sleep(Math.min(next - now, 5)); continue; }
    // Pick a pair not mid-move; one move in flight per game at a time.
    let p = null;
    for (let k = 0; k < pairs.length; k++) { const q = pairs[(i + k) % pairs.length]; if (!busy.has(q)) { p = q; i = (i + k + 1) % pairs.length; break; } }
    next += interval;
    if (!p) continue;
    busy.add(p); inflight++;
    p.move().then((ms) => { if (ms !== null) { lat.push(ms); done++; } }).finally(() => { busy.delete(p); inflight--; });
  }
  while (inflight) await sleep(5);
  return { lat, done, seconds };
}

async function closedLoop(pairs, seconds) {
  const lat = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(pairs.map(async (p) => {
    while (Date.now() < end) { const ms = await p.move(); if (ms !== null) lat.push(ms); }
  }));
  return { lat, done: lat.length, seconds };
}

function report(name, r) {
  const f = (x) => x.toFixed(2);
  console.log(`${name}: ${r.done} moves in ${r.seconds} s = ${(r.done / r.seconds).toFixed(0)} moves/s; ` +
    `round trip ms p50 ${f(pct(r.lat, 50))} p90 ${f(pct(r.lat, 90))} p99 ${f(pct(r.lat, 99))} max ${f(Math.max(...r.lat))}`);
}

// The lobby followers' thread: opens its connections, follows the lobby on
// each, says it is ready, then counts the updates.
function watcherThread() {
  const { port, n, counts } = workerData;
  (async () => {
    const conns = [];
    for (let i = 0; i < n; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      await new Promise((res) => ws.once('open', res));
      ws.on('message', (d) => { if (d.toString().startsWith('{"type": "lobby"') || d.includes('"lobby"')) Atomics.add(counts, 0, 1); });
      ws.send(JSON.stringify({ type: 'lobby' }));
      conns.push(ws);
    }
    parentPort.postMessage('ready');
  })();
}

if (!isMainThread) watcherThread();
else (async () => {
  const srv = await startServer({ args: [] });
  const pid = srv.proc.pid;
  console.log(`tak serve pid ${pid} on port ${srv.port}; ${new Date().toISOString()}; node ${process.version}; ${require('os').cpus()[0].model} x${require('os').cpus().length}`);
  console.log('server memory at start:', rss(pid));
  try {
    let t0 = Date.now();
    const held = await openMany(srv.port, opt.connections);
    const open = held.filter((c) => c.ws.readyState === WebSocket.OPEN).length;
    console.log(`connections: ${open} open and answering (opened in ${((Date.now() - t0) / 1000).toFixed(1)} s); server memory`, rss(pid));

    // Lobby followers (their own connections, in a thread of their own, so
    // reading 4,000 updates a second does not delay this thread's timing of
    // the moves; on this machine they still share its two cores), and a
    // seek churning.
    const counts = new Int32Array(new SharedArrayBuffer(4));
    let watchers = null;
    if (opt.lobby > 0) {
      watchers = new Worker(__filename, { workerData: { port: srv.port, n: opt.lobby, counts } });
      await new Promise((res, rej) => { watchers.once('message', res); watchers.once('error', rej); });
    }
    const lobbyCount = () => Atomics.load(counts, 0);
    const churner = new Conn(srv.port);
    await churner.ready;
    let churning = true;
    (async () => {
      while (churning) {
        const r = await churner.send({ type: 'seek', name: 'Churn', size: 5 });
        await sleep(25);
        if (r.seek) await churner.send({ type: 'unseek', seek: r.seek });
        await sleep(25);
      }
    })();
    console.log(`lobby: ${opt.lobby} more connections follow it (another thread); a seek posted and cancelled every 50 ms`);

    t0 = Date.now();
    const pairs = [];
    for (let i = 0; i < opt.games; i++) pairs.push(new Pair(srv.port));
    await Promise.all(pairs.map((p) => p.start()));
    console.log(`games: ${pairs.length} started in ${((Date.now() - t0) / 1000).toFixed(1)} s (${opt.size}x${opt.size}, random legal moves, clock ${opt.clock ? opt.clock + '+5' : 'none'}), with the ${open} idle connections still open`);
    for (const [name, run] of [[`open loop at ${opt.rate} moves/s`, () => openLoop(pairs, opt.rate, opt.seconds)],
      ['closed loop (as fast as it goes)', () => closedLoop(pairs, opt.seconds)]]) {
      const c0 = cpu(pid), l0 = lobbyCount();
      const r = await run();
      report(name, r);
      console.log(`  lobby updates delivered meanwhile: ${lobbyCount() - l0} (${((lobbyCount() - l0) / r.seconds).toFixed(0)}/s to the followers)`);
      console.log(`  server CPU ${((cpu(pid) - c0) * 1000 / r.done).toFixed(3)} ms per move; machine load average ${require('os').loadavg()[0].toFixed(1)}`);
    }
    churning = false;
    if (watchers) await watchers.terminate();
    console.log('server memory', rss(pid));

    const page = [];
    for (let i = 0; i < opt.pages; i++) {
      const s = process.hrtime.bigint();
      const res = await fetch(srv.url + '/');
      await res.text();
      page.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    // Every script the page loads (the bundle /app.js, classic or module), and its style sheet.
    const html = await (await fetch(srv.url + '/')).text(), css = await (await fetch(srv.url + '/style.css')).text();
    let js = '';
    for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) js += await (await fetch(srv.url + src)).text();
    console.log(`page: ${opt.pages} GETs of /, ms p50 ${pct(page, 50).toFixed(2)} p99 ${pct(page, 99).toFixed(2)} max ${Math.max(...page).toFixed(2)}; ` +
      `weight ${html.length + js.length + css.length} bytes (html ${html.length}, js ${js.length}, css ${css.length})`);
    for (const c of held) c.ws.terminate();
    for (const p of pairs) { p.a.ws.terminate(); p.b.ws.terminate(); }
  } finally {
    const code = await srv.stop();
    console.log(`server stopped, exit ${code}`);
  }
})().catch((e) => { console.error(e); process.exit(1); });
