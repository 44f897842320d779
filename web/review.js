// review.js: going over a game: the move list, stepping back and forth
// (each position worked out by the page's engine, or asked of the server
// without it), the finished game's graph of every position judged, the
// engine's view of the position shown, and the game written out (PTN, TPS).
import { $, el, say } from './dom.js';
import { app, shown } from './state.js';
import { request } from './connection.js';
import { prepareEngine } from './engine.js';
import { render } from './game.js';
import { analysisStep } from './analysis.js';

// ---- the game in one picture: every position judged by the page's engine ----------------

// Asks the page's engine for the graph of a finished game (once a game).
export async function computeGraph() {
  const s = app.state, w = app.worker;
  if (!s || !s.result || !w || app.sandbox || s.moves.length === 0) return;
  const key = s.game + ':' + s.moves.length;
  if (app.graphKey === key) return;
  app.graphKey = key; app.graph = null;
  try {
    const g = await w.call('graph', s.start, s.moves, { komi: s.komi, stones: s.stones, capstones: s.capstones, size: s.size, nodes: 20000 });
    if (app.graphKey === key) { app.graph = g; render(); }
  } catch (e) { app.graphKey = null; }
}

export function drawGraph() {
  const svg = $('graph'), g = app.graph, s = app.state;
  const hide = !g || !s || app.graphKey !== s.game + ':' + s.moves.length;
  svg.toggleAttribute('hidden', hide); // an SVG element has no .hidden property
  if (hide) return;
  const n = g.scores.length, W = 300, H = 90, x = (i) => (n > 1 ? i * W / (n - 1) : 0);
  const y = (cp) => H / 2 - Math.max(-1, Math.min(1, cp / 1000)) * (H / 2 - 4);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.textContent = '';
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }, svg);
  el('polyline', { points: g.scores.map((cp, i) => `${x(i)},${y(cp)}`).join(' '), class: 'line' }, svg);
  g.marks.forEach((m, i) => { if (m) el('circle', { cx: x(i + 1), cy: y(g.scores[i + 1]), r: 3, class: m === '??' ? 'q2' : 'q1', 'data-ply': i + 1 }, svg); });
  const at = shown().ply;
  el('line', { x1: x(at), y1: 0, x2: x(at), y2: H, class: 'now' }, svg);
}

export function drawMoves() {
  const ol = $('moves'), s = app.state, at = shown().ply;
  ol.textContent = '';
  // Numbered as PTN numbers them: from the starting position's move number,
  // with a gap ("…") when Black moved first.
  const [, side, number] = (s.start || '').trim().split(/\s+/);
  const blackFirst = side === '2' ? 1 : 0;
  for (let i = -blackFirst; i < s.moves.length; i += 2) {
    const li = document.createElement('li');
    const num = document.createElement('b');
    num.className = 'num'; num.textContent = (+number || 1) + (i + blackFirst) / 2 + '.';
    li.append(num, ' '); // spaces between the words: the list copies as PTN
    if (i < 0) li.appendChild(document.createTextNode('… '));
    for (let j = Math.max(i, 0); j < Math.min(i + 2, s.moves.length); j++) {
      const span = document.createElement('span');
      span.textContent = s.moves[j];
      const mark = app.graph && app.graphKey === s.game + ':' + s.moves.length ? app.graph.marks[j] : '';
      if (mark) { const b = document.createElement('b'); b.className = 'mark'; b.textContent = mark; span.appendChild(b); }
      span.dataset.ply = j + 1;
      if (j + 1 === at) span.className = 'current';
      span.onclick = () => showPly(j + 1);
      if (j > Math.max(i, 0)) li.append(' ');
      li.appendChild(span);
    }
    ol.appendChild(li);
  }
  // Keep the current move in view by scrolling the list alone: scrolling the
  // page would push the board off a phone's screen.
  const cur = ol.querySelector('.current');
  if (cur) {
    const top = cur.offsetTop, bottom = top + cur.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
  }
}

// ---- review -------------------------------------------------------------------------

// The ply being stepped to: quick presses count from the last one asked
// for, not from the position drawn, so none is lost.
export function stepFrom() { return app.target !== null && app.target !== undefined ? app.target : shown().ply; }

// Shows the position after `ply` plies: worked out in the page by its engine
// (instant, and with the server gone), or asked of the server without it.
export async function showPly(ply) {
  const s = app.state;
  if (!s || app.sandbox) return;
  if (app.analysisBoard) { analysisStep(ply); return; }
  ply = Math.max(0, Math.min(ply, s.ply));
  app.carry = null;
  app.target = ply;
  if (ply === s.ply) { app.view = null; app.target = null; render(); return; }
  let view = null;
  const w = app.worker;
  if (w) {
    try {
      view = await w.call('view', s.start, s.moves, ply, { komi: s.komi, stones: s.stones, capstones: s.capstones, size: s.size });
    } catch (e) { view = null; }
  }
  try {
    if (!view) view = await request({ type: 'view', game: app.gameId, ply });
  } catch (e) { say(e.message); return; }
  if (app.target !== ply || !app.state || app.state.game !== s.game) return; // a newer step was asked for meanwhile
  app.target = null;
  app.view = view;
  render();
}

// ---- the engine in the page: the C library as WebAssembly, in a Worker --------------------
// Loaded after the first paint; analysis uses it (so it works with the
// server gone), and the server's analysis when it cannot load.

export function engineWorker() {
  if (app.worker !== undefined) return app.worker;
  try {
    const calls = new Map();
    let next = 0;
    // Made from the module as engine.js prepares it: fetched and compiled once for the page.
    const made = prepareEngine().then((e) => {
      const w = new Worker(e.workerUrl);
      w.onmessage = (ev) => {
        const c = calls.get(ev.data.id);
        calls.delete(ev.data.id);
        if (c) (ev.data.error !== undefined ? c.reject(new Error(ev.data.error)) : c.resolve(ev.data.result));
      };
      w.onerror = () => { for (const c of calls.values()) c.reject(new Error('the page engine failed to load')); calls.clear(); app.worker = null; };
      w.postMessage({ id: 0, op: 'load', args: [e.module] });
      return w;
    });
    app.worker = { call: (op, ...args) => made.then((w) => new Promise((resolve, reject) => { const id = ++next; calls.set(id, { resolve, reject }); w.postMessage({ id, op, args }); })) };
    app.worker.ready = app.worker.call('ready').then(() => { if (app.state) render(); }).catch(() => { app.worker = null; });
  } catch (e) { app.worker = null; }
  return app.worker;
}

// The engine's view of the position shown: searched in this page (a second),
// or asked of the server (which searches a bounded time) when the page's
// engine is not there; kept per ply until the game changes.
export async function analyze() {
  const v = shown(), s = app.state, ply = v.ply;
  const box = $('analysis');
  box.hidden = false; box.textContent = 'The engine is looking at move ' + v.move_number + '…';
  const w = engineWorker();
  if (w) {
    try {
      const r = await w.call('search', v.tps, { komi: s.komi, stones: s.stones, capstones: s.capstones, level: 10, ms: 1000 });
      const sign = v.turn === 'white' ? 1 : -1; // the page shows White's view
      app.analysis = { ply, score: r.score * sign, win_in: r.win_in ? r.win_in * sign : null,
        depth: r.depth, best: r.best, pv: r.pv, local: true };
      drawAnalysis();
      return;
    } catch (e) { if (!app.connected) { box.textContent = e.message; return; } }
  }
  try {
    const r = await request({ type: 'analyze', game: app.gameId, ply });
    app.analysis = r;
    drawAnalysis();
  } catch (e) { box.textContent = e.message; }
}

export function drawAnalysis() {
  const box = $('analysis'), a = app.analysis;
  if (!a || !app.state || a.ply !== shown().ply) { box.hidden = true; return; }
  box.hidden = false; box.textContent = '';
  let verdict;
  if (a.win_in !== null) verdict = a.win_in === 0 ? 'the game is over' : `${a.win_in > 0 ? 'White' : 'Black'} wins in ${Math.abs(a.win_in)} ${Math.abs(a.win_in) === 1 ? 'ply' : 'plies'}`;
  else verdict = (a.score > 0 ? '+' : '') + (a.score / 100).toFixed(2) + (a.score > 50 ? ' (White better)' : a.score < -50 ? ' (Black better)' : ' (about even)');
  const head = document.createElement('div');
  head.className = 'score';
  head.textContent = `Engine${a.local ? ' (in this page)' : ''}, depth ${a.depth}: ${verdict}`;
  box.appendChild(head);
  if (a.best) {
    const line = document.createElement('div');
    line.className = 'pv';
    line.textContent = 'Best: ' + a.best + (a.pv.length > 1 ? ' — line: ' + a.pv.join(' ') : '');
    box.appendChild(line);
  }
}

export async function exportPtn() {
  try {
    const r = await request({ type: 'export', game: app.gameId });
    showExport(r.ptn);
  } catch (e) { say(e.message); }
}

// Shows `text` (PTN or TPS) in the export box, selected for copying.
export function showExport(text) {
  const t = $('export');
  t.hidden = false; t.value = text; t.focus(); t.select();
}

// ---- wiring ----------------------------------------------------------------------------

export function initReview() {
  $('first').onclick = () => showPly(0);
  $('prev').onclick = () => showPly(stepFrom() - 1);
  $('next').onclick = () => showPly(stepFrom() + 1);
  $('last').onclick = () => showPly(Infinity);
  $('export-ptn').onclick = exportPtn;
  $('export-tps').onclick = () => showExport(shown().tps);
  $('analyze').onclick = analyze;
  $('graph').onclick = (ev) => {
    const s = app.state, r = $('graph').getBoundingClientRect();
    if (!s || !app.graph) return;
    showPly(Math.round((ev.clientX - r.left) / r.width * (app.graph.scores.length - 1)));
  };
}
