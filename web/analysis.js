// analysis.js: the analysis board. The game page's board in a mode of its
// own (app.analysisBoard): the position shown is a node of a move tree
// (web/tree.js: main line, branches, notes), and the engine thinks on it
// without end in a Worker of its own, its depth, best lines (MultiPV) and
// evaluation bar drawn as they come. A call into the wasm module cannot be
// interrupted, so stopping it, or moving to another position, ends that
// worker and starts a fresh one: the module is compiled once and the
// worker's script kept as a Blob, so this takes milliseconds and works with
// the server gone. Quick questions (legal moves, the position after a move)
// go to a second copy of the module on this thread. No rule is written here.
import { $, say } from './dom.js';
import { app, takat, shown } from './state.js';
import { request } from './connection.js';
import * as TakTree from './tree.js';
import { engine, prepareEngine } from './engine.js';
import { route as playerPages } from './players.js';
import { render } from './game.js';
import { showPly, stepFrom, showExport, engineWorker, annotate, better, gameGraph, winWords } from './review.js';
import { startSandbox } from './sandbox.js';

const AB_LINES = 3; // the engine's best lines shown

// The rules as the module's options.
function abOpts(rules) {
  return { komi: rules.komi || 0, stones: rules.stones || 0, capstones: rules.capstones === undefined ? null : rules.capstones };
}
function abPlay(ab) { return (tps, move) => engine.tak.play(tps, move, abOpts(ab.rules)); }

// ---- opening and closing the board --------------------------------------------------

// Opens the board on `tree` at `node` (the root when left out) with `rules`
// ({ size, komi, stones, capstones, no_pass }), leaving whatever was shown.
// `id`: the board's name in this browser's storage (a new board: left out);
// `graph`: its main line's graph, when known.
function showAnalysisBoard(tree, node, rules, id, graph) {
  closeAnalysisBoard();
  if (app.gameId && app.connected) request({ type: 'leave' }).catch(() => {});
  app.sandbox = null; app.gameId = null; app.view = null; app.carry = null; app.seat = null; app.analysis = null;
  app.chat = []; app.target = null; app.matchRows = null;
  takat.id = null;
  playerPages(''); // a player's page or the leaderboard: hidden
  $('new-game').hidden = true; $('takat').hidden = true; $('play').hidden = false; $('links').textContent = '';
  $('export').hidden = true;
  abHideLink();
  say('');
  // on: the engine wanted; thinking: the TPS its worker is on; lines: its last lines, by multipv.
  // graph: the main line's graph with the key of the line it is for (abGraph).
  // undo, redo: the board before each change and after each undo (abRemember).
  app.analysisBoard = { tree, node: node || tree.root, rules, on: true, worker: null, thinking: null, lines: [], id: id || abNewId(), graph,
    undo: [], redo: [] };
  abGoto(app.analysisBoard, app.analysisBoard.node);
}

export function closeAnalysisBoard() {
  const ab = app.analysisBoard;
  if (!ab) return;
  abSave(ab, false); // its last change kept; the address is already another page's
  abStop(ab);
  if (engine.spare) engine.spare.terminate(); // its table too: the page may stay open long
  engine.spare = null;
  app.analysisBoard = null;
  $('play').classList.remove('ab-mode');
  $('ab').hidden = true; $('eval-bar').hidden = true;
}

// The full reserves of `rules` (the standard ones where not given), as the module counts them.
function abReserves(rules) {
  return engine.tak.view('', [], 0, { ...abOpts(rules), size: rules.size }).stash[0];
}

// A new tree on a position: `tps`, or the empty board of rules.size.
function abTree(rules, tps, tags) {
  const start = tps || engine.tak.view('', [], 0, { ...abOpts(rules), size: rules.size }).tps;
  return TakTree.create(start, tags || []);
}

// The game (or editor) shown, at the position shown.
export async function openGameAnalysis() {
  const s = app.state, v = shown();
  if (!s) return;
  try { await prepareEngine(); } catch (e) { say('The engine could not load: ' + e.message); return; }
  const rules = { size: s.size, komi: s.komi, stones: s.stones, capstones: s.capstones, no_pass: s.no_pass !== false };
  if (app.sandbox) { showAnalysisBoard(abTree(rules, s.tps), null, rules); abEntered(); return; }
  let tree = null;
  const doc = await abGameDoc();
  if (doc) { try { tree = TakTree.fromDoc(doc, null, abPlay({ rules })); } catch (e) { tree = null; } }
  if (!tree) {
    tree = abTree(rules, s.start);
    let n = tree.root;
    for (const m of s.moves) n = TakTree.add(tree, n, m, abPlay({ rules }));
    n.result = s.result ? s.result.code : '';
  }
  // The game's review comes along as marks and notes (the board's own, when
  // the page's has not finished, once it has).
  const g = gameGraph(s), main = abMain(tree, rules), done = g && g.scores.length === main.nodes.length + 1;
  if (done) annotate(main.nodes, g);
  history.pushState(null, '', '/analysis');
  showAnalysisBoard(tree, TakTree.along(tree.root, v.ply), rules, null, done ? { ...g, key: main.key } : null);
  app.analysisBoard.annotate = done ? null : main.key;
  abSave(app.analysisBoard, true);
}

// The main line: its nodes, plies, and a key that changes with them and the komi.
function abMain(tree, rules) {
  const nodes = TakTree.path(TakTree.lineEnd(tree.root)), moves = nodes.map((n) => n.ptn);
  return { nodes, moves, key: abLineKey(tree.root.tps, moves, rules) };
}
const abLineKey = (tps, moves, rules) => `${tps}:${moves.join(' ')}:${rules.komi || 0}`;

// The review's marks and notes (graph `g` of the main line `key`) put on
// that line: on the board, when its main line is still that one, and on
// every board kept for Undo and Redo whose main line it is, as if the review
// had come with the game: an undo of a change made before it came (a branch
// played while the engine worked) would else bring back the board without
// it, with nothing left to put it there again. Undo still undoes the
// player's changes, and only those.
function abAnnotate(ab, key, g) {
  const main = abMain(ab.tree, ab.rules);
  if (main.key === key) annotate(main.nodes, g);
  for (const was of [...ab.undo, ...ab.redo]) {
    const plies = was.doc.lines[0].plies;
    if (abLineKey(was.doc.tps, plies.map((p) => p.ptn), was.rules) === key) annotate(plies, g);
  }
  abSaveSoon();
}

// The main line's graph, as the game page draws a finished game's (review.js):
// worked out by the page's engine in the review's worker, again whenever the
// main line changes; null until it is there.
export function abGraph() {
  const ab = app.analysisBoard;
  if (!ab || app.sandbox) return null;
  const { nodes, moves, key } = abMain(ab.tree, ab.rules);
  if (!moves.length) return null;
  if (ab.graph && ab.graph.key === key) {
    return ab.graph.scores ? { g: ab.graph, moves, at: ab.node.depth, go: (i) => abGoto(ab, i ? nodes[i - 1] : ab.tree.root),
      over: nodes[nodes.length - 1].over } : null;
  }
  const w = engineWorker();
  if (w && !ab.graphing) {
    ab.graphing = key;
    w.call('graph', ab.tree.root.tps, moves, { ...abOpts(ab.rules), size: ab.rules.size, nodes: 20000 })
      .then((g) => {
        ab.graph = { ...g, key };
        // The review's marks and notes, once: on the main line it was opened
        // with (not on moves played since, nor after a reload that lost them).
        if (ab.annotate && ab.annotate === key) { ab.annotate = null; abAnnotate(ab, key, g); }
      },
        () => { ab.graph = { key }; })
      .finally(() => { ab.graphing = null; if (app.analysisBoard === ab) render(); });
  }
  return null;
}

// A board opened by the player (not by the address): a page of its own in
// the history, so that Back comes back to the board before it.
function abEntered() {
  history.pushState(null, '', '/analysis');
  abSave(app.analysisBoard, true);
}

// The game's PTN as the server exports it (tags, comments, marks), read by
// the module, when the server is there; else null.
async function abGameDoc() {
  const tak = engine.tak;
  if (!tak || !app.connected || !app.gameId) return null;
  try { return tak.readPtn((await request({ type: 'export', game: app.gameId })).ptn); } catch (e) { return null; }
}

// An empty board, or a pasted PTN game or TPS position; `source`: the
// file it came from, named in a refusal (the board shown is then left as it was).
async function openAnalysisText(text, size, komi, source) {
  try { await prepareEngine(); } catch (e) { say('The engine could not load: ' + e.message); return; }
  const tak = engine.tak;
  text = (text || '').trim();
  try {
    if (!text && source) {
      throw new Error('it is empty');
    } else if (!text) {
      const rules = { size, komi, no_pass: true };
      showAnalysisBoard(abTree(rules), null, rules);
    } else if (text.startsWith('[') || /^\s*(\{[^}]*\}\s*)*\d+\.\s/.test(text)) {
      // Moves without tags: the size (and komi) chosen beside the box.
      if (!/^\s*\[\s*(Size|TPS)\s/im.test(text)) text = `[Size "${size}"]\n` + (komi ? `[Komi "${komi}"]\n` : '') + '\n' + text;
      const doc = tak.readPtn(text);
      abOpenDoc(doc, null);
      // The review comes along, as it does for a game of the server's, to a
      // game of bare moves; one with notes, marks or branches of its own is
      // someone's analysis and stays as it came (its graph shows the review).
      const own = doc.preface || doc.lines.length > 1 || doc.lines.some((l) => l.preface || l.plies.some((x) => x.comment || x.marks));
      const ab = app.analysisBoard;
      if (!own) ab.annotate = abMain(ab.tree, ab.rules).key;
    } else if (!/^[\dxSC,/]+(\s+[12](\s+\d+)?)?$/i.test(text) || !text.includes('/')) {
      throw new Error(`${source ? 'it' : 'That'} is neither a PTN game (tags such as [Size "6"], or moves from "1. ") nor a TPS position (such as "x5/x5/x5/x5/x5 1 1").`);
    } else {
      const probe = tak.view(text, [], 0, { komi });
      const rules = { size: Math.sqrt(probe.board.length), komi, no_pass: true };
      showAnalysisBoard(abTree(rules, text), null, rules);
    }
  } catch (e) { say(source ? `${source} was not opened: ${e.message}` : e.message); return; }
  abEntered();
  // The game opened is on the board: brought into view, where a phone's page
  // stayed scrolled down at the paste box, below the board.
  if (text) $('board').scrollIntoView({ block: 'nearest' });
}

// A file dropped on the board or chosen with its button: opened as a new
// board (kept, listed first), moves without tags on the size and komi
// chosen beside the box; a file of anything else refused by name.
const AB_FILE_MAX = 1 << 20; // far more than any game's PTN
async function openAnalysisFile(file) {
  if (!file) return;
  let text = '';
  try {
    if (file.size > AB_FILE_MAX) throw new Error(`it is ${Math.round(file.size / 1024)} KB, too long for a game`);
    text = await file.text();
    if (/[\0\uFFFD]/.test(text)) throw new Error('it is not text (PTN and TPS are)');
  } catch (e) { say(`${file.name} was not opened: ${e.message}.`); return; }
  await openAnalysisText(text, +$('ab-size').value, +$('ab-komi').value || 0, file.name);
}

// Whether a drag carries files, and the board is there to take them.
const abDropping = (e) => !!app.analysisBoard && !app.sandbox && !$('play').hidden && [...e.dataTransfer.types].includes('Files');

// A PTN document (as readPtn gives it, with the rules its tags say): its
// tree, at the node `at`.
function abOpenDoc(doc, at, id) {
  const rules = { size: doc.size, komi: doc.komi, stones: doc.stones, capstones: doc.capstones, no_pass: abNoPass(doc.tags) };
  const tree = TakTree.fromDoc(doc, null, abPlay({ rules }));
  // Where asked, else at the end of the game, as PTN Ninja opens one.
  showAnalysisBoard(tree, at ? TakTree.find(tree, at) : TakTree.lineEnd(tree.root), rules, id);
}

// The no-pass rule, on unless a [Zugzwang "off"] tag turns it off (README).
function abNoPass(tags) { return !tags.some((t) => t[0].toLowerCase() === 'zugzwang' && String(t[1]).toLowerCase() === 'off'); }

// /analysis, with what a share link carries in its fragment: #tps=...
// (a position) or #ptn=... (a game, compressed), and &at= (where in it); or
// #g=... (a board kept in this browser: a reload, Back, Forward).
export async function openAnalysisFromUrl() {
  const h = new URLSearchParams(location.hash.slice(1));
  const komi = +h.get('komi') || 0;
  try { await prepareEngine(); } catch (e) { say('The engine could not load: ' + e.message); return; }
  try {
    if (h.get('g')) {
      const rec = abRecord(h.get('g'));
      if (!rec) throw new Error('that board is no longer kept in this browser');
      // Where the board was last (kept as the page goes, which a reload
      // begun within the address's quarter-second wait would not see).
      abOpenDoc(engine.tak.readPtn(rec.ptn), rec.at || h.get('at'), h.get('g'));
      app.analysisBoard.annotate = rec.annotate || null; // a review still to come
    } else if (h.get('ptn')) abOpenDoc(engine.tak.readPtn(await abInflate(h.get('ptn'))), h.get('at'));
    else if (h.get('tps')) {
      const rules = { komi, no_pass: true };
      if (h.get('stones')) rules.stones = +h.get('stones');
      if (h.get('caps')) rules.capstones = +h.get('caps');
      rules.size = Math.sqrt(engine.tak.view(h.get('tps'), [], 0, abOpts(rules)).board.length);
      showAnalysisBoard(abTree(rules, h.get('tps')), null, rules);
    } else {
      const rules = { size: +h.get('size') || 5, komi, no_pass: true };
      showAnalysisBoard(abTree(rules), null, rules);
    }
  } catch (e) {
    const rules = { size: 5, komi: 0, no_pass: true };
    showAnalysisBoard(abTree(rules), null, rules);
    say('The link could not be read: ' + e.message);
  }
  abSave(app.analysisBoard, true);
}

// ---- keeping the work: each board in this browser's storage, its name in the address ----
// A board is kept (its PTN with branches, notes and marks, and the ply
// shown) from its first move, under a random name that the address carries
// (/analysis#g=NAME&at=WHERE), so a reload, Back and Forward find it again;
// the AB_KEPT last boards are kept, listed under "Recent boards".

const AB_KEPT = 30, AB_LIST = 'tak.analysis';
const abKey = (id) => 'tak.analysis.' + id;
function abNewId() { return Math.random().toString(36).slice(2, 10).padEnd(8, '0'); }
function abIds() { try { return JSON.parse(localStorage.getItem(AB_LIST)) || []; } catch (e) { return []; } }
function abRecord(id) { try { return JSON.parse(localStorage.getItem(abKey(id))); } catch (e) { return null; } }

// Worth keeping: moves, a note, a tag, or a position other than the empty board.
function abWorthKeeping(ab) {
  const t = ab.tree;
  return t.root.children.length > 0 || !!t.preface || t.tags.length > 0 || t.root.tps !== abTree({ size: ab.rules.size }).root.tps;
}

// What the list calls a board: its players, else its size and length.
function abTitle(ab) {
  const tag = (n) => (ab.tree.tags.find((t) => t[0].toLowerCase() === n) || [])[1];
  const plies = TakTree.lineEnd(ab.tree.root).depth, size = `${ab.rules.size}×${ab.rules.size}`;
  const who = tag('player1') && tag('player2') ? `${tag('player1')} – ${tag('player2')}, ` : '';
  return `${who}${size}, ${plies} ${plies === 1 ? 'ply' : 'plies'}`;
}

let abSaveTimer = null;
function abSaveSoon() {
  clearTimeout(abSaveTimer);
  abSaveTimer = setTimeout(() => { if (app.analysisBoard) abSave(app.analysisBoard, true); }, 250);
}

// Keeps `ab` now; `url`: and writes its name and place into the address
// (replacing the history's entry: steps on the board are not pages).
function abSave(ab, url) {
  clearTimeout(abSaveTimer);
  if (!ab || !engine.tak) return;
  const at = TakTree.address(ab.node);
  let where = '/analysis';
  if (abWorthKeeping(ab)) {
    let ptn;
    try { ptn = engine.tak.writePtn(abDoc(ab)); } catch (e) { return; }
    if (abStore(ab.id, { ptn, at, title: abTitle(ab), time: Date.now(), annotate: ab.annotate || undefined })) where += `#g=${ab.id}&at=${at}`;
  } else if (ab.rules.size !== 5 || ab.rules.komi) {
    where += `#size=${ab.rules.size}` + (ab.rules.komi ? `&komi=${ab.rules.komi}` : '');
  }
  if (url && location.pathname === '/analysis' && location.pathname + location.hash !== where) history.replaceState(history.state, '', where);
  drawAbRecent(ab);
}

// Stores a board first in the list; the oldest go when there are too many
// or the storage is full. False when it cannot be kept.
function abStore(id, rec) {
  let ids = [id, ...abIds().filter((x) => x !== id)];
  for (;;) {
    const gone = ids.slice(AB_KEPT);
    ids = ids.slice(0, AB_KEPT);
    for (const x of gone) localStorage.removeItem(abKey(x));
    try {
      localStorage.setItem(abKey(id), JSON.stringify(rec));
      localStorage.setItem(AB_LIST, JSON.stringify(ids));
      return true;
    } catch (e) {
      if (ids.length <= 1) return false;
      ids = ids.slice(0, -1); // full: the oldest goes
    }
  }
}

function abForget(id) {
  localStorage.removeItem(abKey(id));
  try { localStorage.setItem(AB_LIST, JSON.stringify(abIds().filter((x) => x !== id))); } catch (e) { /* nothing */ }
  drawAbRecent(app.analysisBoard);
}

// The recent boards: a click opens one (a page in the history of its own).
function drawAbRecent(ab) {
  const list = $('ab-recent-list'), ids = abIds();
  list.textContent = '';
  for (const id of ids) {
    const rec = abRecord(id);
    if (!rec) continue;
    const li = document.createElement('li'), open = document.createElement('button'), forget = document.createElement('button');
    open.type = forget.type = 'button';
    open.className = 'ab-recent-open'; open.textContent = rec.title || id;
    open.title = 'Kept ' + new Date(rec.time).toLocaleString();
    if (ab && id === ab.id) { open.setAttribute('aria-current', 'true'); open.disabled = true; }
    open.onclick = () => {
      if (app.analysisBoard) abSave(app.analysisBoard, true);
      history.pushState(null, '', `/analysis#g=${id}&at=${rec.at}`);
      openAnalysisFromUrl();
    };
    forget.className = 'ab-recent-forget'; forget.textContent = '×';
    forget.title = forget.ariaLabel = 'Forget ' + (rec.title || id);
    forget.onclick = () => abForget(id);
    li.append(open, forget);
    list.appendChild(li);
  }
  $('ab-recent').hidden = !list.children.length || !!app.sandbox;
}

// The share link shown is the board's as it was: gone when it changes.
function abHideLink() {
  $('ab-link-box').hidden = true; $('ab-link').value = ''; $('ab-copied').textContent = '';
}

// ---- moving about the tree ------------------------------------------------------------

// Shows `node`: the page's state becomes its position (as the server's
// states describe one, with its legal moves), and the engine moves to it.
function abGoto(ab, node) {
  const tak = engine.tak, o = abOpts(ab.rules), r = node.over ? tak.result(node.tps, o) : null;
  const v = tak.view(node.tps, [], 0, o), [stones, capstones] = abReserves(ab.rules);
  if (ab.node !== node) abHideLink();
  ab.node = node;
  app.carry = null;
  app.state = { ...v, game: null, size: ab.rules.size, komi: ab.rules.komi || 0, stones, capstones,
    no_pass: ab.rules.no_pass !== false, ply: node.depth, moves: TakTree.plies(node), start: ab.tree.root.tps,
    legal: r ? [] : tak.legalMoves(node.tps, o), result: r, seats: { white: '', black: '' }, level: 10,
    thinking: false, names: null, offers: { draw: null, takeback: null }, declined: null };
  render();
}

// A move played on the board (clicks or the PTN box): the next ply of the
// line when it is that move, else a new branch.
export function analysisPlay(text) {
  const ab = app.analysisBoard, before = abSnapshot(ab), at = ab.node, kids = at.children.length;
  try {
    const n = TakTree.add(ab.tree, at, text, abPlay(ab));
    if (at.children.length > kids) abRemember(ab, before);
    abGoto(ab, n); say('');
  } catch (e) { say(e.message); }
}

// The review's steps: `ply` plies into the line through the position shown
// (Infinity: its end).
export function analysisStep(ply) {
  const ab = app.analysisBoard;
  const n = TakTree.along(ab.node, Math.max(0, ply));
  if (n !== ab.node) abGoto(ab, n);
}

// ---- the engine: a worker that thinks until it is ended ---------------------------------

// Thinks on `tps` (null: stops): ends the worker thinking on another
// position and starts one on this.
function abThink(ab, tps, turn) {
  abStop(ab);
  ab.thinking = tps; ab.turn = turn; ab.lines = []; ab.done = false; ab.error = null;
  if (!tps) return;
  const w = engine.spare || abWorker();
  engine.spare = abWorker();
  ab.worker = w;
  w.onmessage = (ev) => {
    if (ab.worker !== w) return;
    const m = ev.data;
    if (m.line) {
      ab.lines[m.line.multipv - 1] = m.line; // a depth's lines come one after the other
    } else if (m.id === 1) {
      ab.done = true; ab.worker = null; w.terminate();
      if (m.error) ab.error = m.error;
    }
    abScheduleDraw();
  };
  w.onerror = (e) => { if (ab.worker === w) { ab.error = 'the engine stopped: ' + (e.message || 'error'); abStop(ab); abScheduleDraw(); } };
  w.postMessage({ id: 1, op: 'analyze', args: [tps, { ...abOpts(ab.rules), lines: AB_LINES }] });
}

// A worker with the module loaded and its engine made (a search of a few
// nodes allocates its 16 MB table): the next position's analysis starts in
// one, made while the last one thinks, and so in milliseconds.
function abWorker() {
  const w = new Worker(engine.workerUrl, { name: 'analysis' });
  w.postMessage({ id: 0, op: 'load', args: [engine.module] });
  w.postMessage({ id: 0, op: 'search', args: ['x3/x3/x3 1 1', { nodes: 1 }] });
  return w;
}

function abStop(ab) {
  if (ab.worker) ab.worker.terminate();
  ab.worker = null;
}

let abDrawQueued = false;
function abScheduleDraw() {
  if (abDrawQueued) return;
  abDrawQueued = true;
  requestAnimationFrame(() => { abDrawQueued = false; if (app.analysisBoard) drawAbEngine(app.analysisBoard); });
}

// A score for White, in words and as the evaluation bar's share of White (0..1).
function abScore(line, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (line.win_in) return { ...winWords(line.win_in * sign), white: line.win_in * sign > 0 ? 1 : 0 };
  const cp = line.score * sign;
  return { text: (cp > 0 ? '+' : '') + (cp / 100).toFixed(2), short: (cp > 0 ? '+' : '') + (cp / 100).toFixed(1),
    white: 0.5 + 0.5 * Math.tanh(cp / 600) };
}

// The lines, the status and the bar.
function drawAbEngine(ab) {
  const list = $('ab-lines'), first = ab.lines[0];
  list.textContent = '';
  const s = app.state, here = s && s.tps === ab.thinking, editing = !!app.sandbox;
  ab.lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement('li'), sc = abScore(line, ab.turn);
    li.dataset.line = i + 1;
    const score = document.createElement('span');
    score.className = 'score'; score.textContent = sc.text;
    li.appendChild(score);
    // Each move numbered from the position shown; a click plays the line up to it.
    const base = editing ? null : ab.node.depth;
    line.pv.forEach((m, k) => {
      const { number, side } = editing ? {} : TakTree.plyNumber(ab.tree, base + k + 1);
      li.append(!editing && (side === 'w' || k === 0) ? ` ${number}.${side === 'b' ? '..' : ''} ` : ' ');
      const mv = document.createElement('span');
      mv.className = 'mv'; mv.textContent = m; mv.dataset.k = k;
      if (here && !editing) abClickable(mv, () => abPlayLine(ab, line.pv.slice(0, k + 1)));
      li.appendChild(mv);
    });
    if (here && !editing) abClickable(score, () => abPlayLine(ab, line.pv.slice(0, 1)));
    list.appendChild(li);
  });
  const over = s && s.result;
  let status;
  if (ab.error) status = ab.error;
  else if (over) status = 'The game is over here.';
  else if (!first) status = ab.worker ? 'Thinking…' : 'Stopped.';
  else {
    const secs = Math.max(first.time_ms, 1) / 1000;
    status = `Depth ${first.depth}, ${abCount(first.nodes)} nodes, ${abCount(first.nodes / secs)}/s` +
      (ab.worker ? '' : ab.done ? ' (done)' : ' (stopped)');
  }
  $('ab-status').textContent = status;
  $('ab-think').textContent = ab.worker ? 'Stop' : 'Start';
  $('ab-think').disabled = !!over;
  const bar = $('eval-bar'), sc = over ? { text: over.text, short: over.code, white: over.winner < 0 ? 0.5 : 1 - over.winner }
    : first && here ? abScore(first, ab.turn) : null;
  bar.querySelector('.eval-white').style.height = ((sc ? sc.white : 0.5) * 100).toFixed(1) + '%';
  bar.querySelector('.eval-text').textContent = sc ? sc.short : '';
  bar.setAttribute('aria-label', 'Evaluation: ' + (sc ? sc.label || sc.text : 'none yet'));
}

function abCount(n) { return n >= 1e6 ? (n / 1e6).toFixed(1) + 'M' : n >= 1e3 ? Math.round(n / 1e3) + 'k' : String(Math.round(n)); }

// Plays the engine's line (from the position shown) into the tree, and goes to its last move.
function abPlayLine(ab, pv, from) {
  const before = abSnapshot(ab);
  let n = from || ab.node, added = false;
  try {
    for (const m of pv) {
      const at = n, kids = at.children.length;
      n = TakTree.add(ab.tree, at, m, abPlay(ab));
      added = added || at.children.length > kids;
    }
  } catch (e) { say(e.message); }
  if (added) abRemember(ab, before);
  abGoto(ab, n);
}

// ---- undo and redo --------------------------------------------------------------------
// Each change to the tree (a move added, a branch deleted or promoted, a
// note, a mark, a tag) can be undone (Ctrl+Z, the Undo button) and redone
// (Ctrl+Shift+Z, Ctrl+Y, Redo) while the board is open: the board before it
// is kept as the tree's document with the rules and the ply shown, AB_UNDO
// changes back. A note typed is one change until its field is left or
// another ply shown; in a text field the keys are the field's own undo.

const AB_UNDO = 200;

function abSnapshot(ab) { return { doc: TakTree.toDoc(ab.tree), rules: { ...ab.rules }, at: TakTree.address(ab.node) }; }

// Called before a change (or after it, with the board as it was before):
// that board is kept for Undo, and what Redo had is gone.
function abRemember(ab, before = abSnapshot(ab)) {
  ab.undo.push(before);
  if (ab.undo.length > AB_UNDO) ab.undo.shift();
  ab.redo = [];
  ab.typing = null;
}

// Back to the board before the last change (`redo`: before the last undo).
function abUndo(ab, redo) {
  const from = redo ? ab.redo : ab.undo, to = redo ? ab.undo : ab.redo;
  if (!from.length) return;
  const was = from.pop();
  to.push(abSnapshot(ab));
  if ((was.rules.komi || 0) !== (ab.rules.komi || 0)) ab.thinking = null; // the engine thinks again, with that komi
  ab.rules = was.rules;
  ab.tree = TakTree.fromDoc(was.doc, null, abPlay(ab));
  ab.typing = null;
  say('');
  abGoto(ab, TakTree.find(ab.tree, was.at));
}

// Where Ctrl+Z is the field's own: a field the player types in.
function isTextField(e) {
  if (!e || e.readOnly || e.disabled) return false;
  return e.isContentEditable || e.tagName === 'TEXTAREA' ||
    (e.tagName === 'INPUT' && /^(text|search|url|tel|email|password|number)$/.test(e.type));
}

// ---- drawing: called at the end of every render() of game.js --------------------------------

export function drawAnalysisBoard() {
  const ab = app.analysisBoard, on = !!ab && !$('play').hidden;
  $('play').classList.toggle('ab-mode', on);
  // The graph: under the tree here, under the moves on a game's page.
  const graph = $('graph');
  if (graph.previousElementSibling !== $(on ? 'ab-tree' : 'moves')) $(on ? 'ab-tree' : 'moves').after(graph);
  $('ab').hidden = !on; $('eval-bar').hidden = !on;
  if (!on) {
    const s = app.state;
    $('open-analysis-board').disabled = !s || (!s.result && !!app.seat && !app.sandbox);
    $('open-analysis-board').title = $('open-analysis-board').disabled ? 'Once the game is over (spectators: at any time)'
      : 'This game on the analysis board: the engine\'s lines, branches, notes';
    return;
  }
  const s = app.state, editing = !!app.sandbox, node = ab.node;
  if (!editing) {
    $('turn').textContent = s.result ? `Analysis board — ${s.result.text}` : `Analysis board — move ${s.move_number}: ${s.turn === 'white' ? 'White' : 'Black'} to play`;
    $('result').hidden = true;
  }
  $('first').disabled = $('prev').disabled = editing || !node.parent;
  $('next').disabled = $('last').disabled = editing || !node.children.length;
  // In the editor: its lines only (no tree), and the way back.
  for (const id of ['ab-tree', 'ab-edit-tools', 'ab-note-label', 'ab-tags', 'ab-share', 'ab-edit', 'ab-export', 'ab-load']) $(id).hidden = editing;
  if (editing) { abHideLink(); $('ab-recent').hidden = true; }
  $('ab-analyse-edited').hidden = !editing;
  const tps = s && !s.result ? s.tps : null;
  if (ab.on && tps !== ab.thinking) abThink(ab, tps, s && s.turn);
  if (!ab.on && tps !== ab.thinking) { ab.thinking = null; ab.lines = []; }
  drawAbEngine(ab);
  if (editing) return;
  drawAbTree(ab);
  drawAbTags(ab);
  $('ab-promote').disabled = !TakTree.branchStart(node);
  $('ab-delete').disabled = !node.parent;
  $('ab-marks').disabled = !node.parent;
  $('ab-marks').value = node.marks || '';
  $('ab-undo').disabled = !ab.undo.length;
  $('ab-redo').disabled = !ab.redo.length;
  const note = $('ab-note');
  if (ab.noteFor !== node || document.activeElement !== note) note.value = (node.parent ? node.comment : ab.tree.preface) || '';
  ab.noteFor = node;
  abSaveSoon();
}

// The move tree: the main line, each branch in a box after the move it is
// an alternative to, notes in italics.
function drawAbTree(ab) {
  const box = $('ab-tree'), names = new Map(TakTree.lines(ab.tree).map((l) => [l.first, l.name]));
  box.textContent = '';
  if (ab.tree.preface) box.append(abNote(ab.tree.preface), ' ');
  const line = (parent, first) => {
    let numbered = false;
    for (let n = first; n; n = n.children[0]) {
      const { number, side } = TakTree.plyNumber(ab.tree, n.depth);
      // Spaces between the words, as PTN writes them: the list wraps between
      // moves and copies as moves.
      if (side === 'w' || !numbered) {
        const num = document.createElement('span');
        num.className = 'num'; num.textContent = number + (side === 'w' ? '.' : '...');
        parent.append(num, ' ');
      }
      numbered = true;
      const mv = document.createElement('span');
      mv.className = 'mv' + (n === ab.node ? ' current' : '');
      mv.textContent = n.ptn + (n.marks || '');
      mv.dataset.ply = n.depth;
      abClickable(mv, () => abGoto(ab, n));
      parent.append(mv, ' ');
      if (n.comment) { parent.append(abNote(n.comment, better(n), ab, n), ' '); numbered = false; }
      // The branches that are alternatives to n.
      const kids = n.parent.children;
      if (kids[0] === n) {
        for (const b of kids.slice(1)) {
          const div = document.createElement('div');
          div.className = 'branch';
          const name = document.createElement('span');
          name.className = 'branch-name'; name.textContent = names.get(b) || '';
          div.append(name, ' ');
          line(div, b);
          parent.appendChild(div);
          numbered = false;
        }
      }
    }
  };
  if (ab.tree.root.children.length) line(box, ab.tree.root.children[0]);
  else box.appendChild(Object.assign(document.createElement('span'), { className: 'num', textContent: 'Play a move on the board.' }));
  const cur = box.querySelector('.current');
  if (cur) {
    const top = cur.offsetTop - box.offsetTop, bottom = top + cur.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }
}

// A span that a click, Enter or Space acts on.
function abClickable(span, act) {
  span.tabIndex = 0; span.setAttribute('role', 'button');
  span.onclick = act;
  span.onkeydown = (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); act(); } };
}

// A note as PTN writes it; the review's better move in it (beside a "?"
// or "??": `best`) a button that plays it instead of `n`.
function abNote(text, best, ab, n) {
  const span = Object.assign(document.createElement('span'), { className: 'note', textContent: `{${text}}` });
  const at = best ? text.lastIndexOf('best ' + best) + 5 : -1;
  if (at < 5) return span;
  const mv = Object.assign(document.createElement('span'), { className: 'mv better', textContent: best,
    title: `The engine's move instead of ${n.ptn}: play it as a branch` });
  abClickable(mv, () => abPlayLine(ab, [best], n.parent));
  span.textContent = `{${text.slice(0, at)}`;
  span.append(mv, `${text.slice(at + best.length)}}`);
  return span;
}

// ---- sharing, exporting, editing -------------------------------------------------------

// The PTN document of the tree; a tree not read from PTN (a position, a
// game of this server) gets the tags of its rules.
export function abDoc(ab) {
  const doc = TakTree.toDoc(ab.tree), has = (n) => doc.tags.some((t) => t[0].toLowerCase() === n.toLowerCase());
  const r = ab.rules, [stones, capstones] = abReserves({ size: r.size }), add = [['Size', String(r.size)]];
  if (r.komi) add.push(['Komi', String(r.komi)]);
  if (r.stones && r.stones !== stones) add.push(['Flats', String(r.stones)]);
  if (r.capstones !== undefined && r.capstones !== null && r.capstones !== capstones) add.push(['Caps', String(r.capstones)]);
  if (ab.tree.root.tps !== abTree({ size: r.size }).root.tps) add.push(['TPS', ab.tree.root.tps]);
  if (r.no_pass === false) add.push(['Zugzwang', 'off']);
  doc.tags = doc.tags.concat(add.filter((t) => !has(t[0])));
  return doc;
}

// A link to what is shown: the game with its branches and notes as PTN
// (deflated, base64url) and where in it, or the position when there are no
// moves yet.
async function abShareLink(ab) {
  const base = location.origin + '/analysis#';
  const tak = engine.tak, r = ab.rules;
  if (ab.tree.root.children.length || ab.tree.preface) {
    return base + 'ptn=' + await abDeflate(tak.writePtn(abDoc(ab))) + '&at=' + TakTree.address(ab.node);
  }
  const tps = encodeURIComponent(ab.node.tps).replace(/%2F/g, '/').replace(/%2C/g, ',');
  return base + 'tps=' + tps + (r.komi ? '&komi=' + r.komi : '') + (r.stones ? '&stones=' + r.stones : '') +
    (r.capstones !== undefined && r.capstones !== null ? '&caps=' + r.capstones : '');
}

async function abDeflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function abInflate(text) {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

// ---- the game's tags -------------------------------------------------------------------
// The PTN tags players fill in, in a small form; the others a game came with
// are kept as they are. Size and Komi are the board's rules (ab.rules): Size
// may change only while there is no move (another size is another game), and
// a change of Komi judges the finished lines again.

const AB_TAGS = [['Player1', 'White'], ['Player2', 'Black'], ['Date', 'YYYY.MM.DD'], ['Event', ''], ['Site', ''],
  ['Round', ''], ['Result', 'R-0, F-0, 1-0, 1/2-1/2…'], ['Size', '3 to 8'], ['Komi', 'flats, as 2 or 1.5'],
  ['Clock', '10:0 +20'], ['Opening', 'swap']];

const abTagAt = (tags, name) => tags.findIndex((t) => t[0].toLowerCase() === name.toLowerCase());

// The tag's value as the form shows it: Size and Komi as the board plays them.
function abTagValue(ab, name) {
  if (name === 'Size') return String(ab.rules.size);
  if (name === 'Komi') return String(ab.rules.komi || 0);
  const i = abTagAt(ab.tree.tags, name);
  return i < 0 ? '' : String(ab.tree.tags[i][1]);
}

// `tags` with `name` set to `value` ('' takes it out), under the spelling it had.
function abTagsWith(tags, name, value) {
  const out = tags.map((t) => t.slice()), i = abTagAt(out, name);
  if (i >= 0 && value === '') out.splice(i, 1);
  else if (i >= 0) out[i][1] = value;
  else if (value !== '') out.push([name, value]);
  return out;
}

// Why `value` cannot be the tag `name` of this board (a sentence that names
// the tag), or ''. The module judges what it reads (Size, Komi, Result,
// Opening...): the game is written with the new tag and read back.
function abTagRefusal(ab, name, value) {
  if (name === 'Size') {
    if (!/^[3-8]$/.test(value)) return `Size must be a board size from 3 to 8, not "${value}".`;
    if (+value === ab.rules.size) return '';
    if (ab.tree.root.children.length) return 'Size cannot change on a game with moves: that would be another game. Open a new board of that size instead.';
    if (ab.tree.root.tps !== abTree({ size: ab.rules.size }).root.tps) return 'Size cannot change: the board starts from a position set up on it (its TPS).';
    return '';
  }
  if (name === 'Date' && value) {
    const m = /^(\d{4})\.(\d{2})\.(\d{2})$/.exec(value), d = m && new Date(Date.UTC(+m[1], m[2] - 1, +m[3]));
    if (!m || d.getUTCMonth() !== m[2] - 1 || d.getUTCDate() !== +m[3]) return `Date must be a day written YYYY.MM.DD (such as 2026.11.28), not "${value}".`;
  }
  if (name === 'Komi' && value === '') return '';
  try {
    const doc = abDoc(ab);
    doc.tags = abTagsWith(doc.tags, name, value);
    engine.tak.readPtn(engine.tak.writePtn(doc));
  } catch (e) { return e.message.replace(/^the tags: line \d+, column \d+: /, '') + '.'; }
  return '';
}

// Sets the tag `name` to `value` (an edit, undone as the others), or says why not.
function abSetTag(ab, name, value) {
  value = value.trim();
  if (value === abTagValue(ab, name)) return;
  const why = abTagRefusal(ab, name, value);
  if (why) { say(why); render(); return; }
  say('');
  abRemember(ab);
  if (name === 'Size') {
    // An empty board of the new size, its tags and opening note kept; the
    // reserves those of the size (unless the game's tags set them).
    const tags = abTagsWith(ab.tree.tags, 'Size', abTagAt(ab.tree.tags, 'Size') < 0 ? '' : value), preface = ab.tree.preface;
    const has = (n) => abTagAt(tags, n) >= 0;
    ab.rules = { ...ab.rules, size: +value, stones: has('Flats') ? ab.rules.stones : undefined, capstones: has('Caps') ? ab.rules.capstones : undefined };
    ab.tree = abTree(ab.rules, null, tags);
    ab.tree.preface = preface;
    abGoto(ab, ab.tree.root);
    return;
  }
  ab.tree.tags = abTagsWith(ab.tree.tags, name, value);
  if (name === 'Komi') {
    ab.rules = { ...ab.rules, komi: value === '' ? 0 : engine.tak.readPtn(engine.tak.writePtn(abDoc(ab))).komi };
    abRejudge(ab);
    ab.thinking = null; // the engine thinks again, with the new komi
    abGoto(ab, ab.node);
    return;
  }
  render();
}

// After a change of komi: each line that ends the game ends it as the new
// komi says (a flat win may change sides), and so does the Result tag of a
// main line that ends the game on the board.
function abRejudge(ab) {
  const o = abOpts(ab.rules), walk = (n) => {
    if (n.over && n.result) n.result = engine.tak.result(n.tps, o).code || n.result;
    n.children.forEach(walk);
  };
  walk(ab.tree.root);
  const end = TakTree.lineEnd(ab.tree.root), i = abTagAt(ab.tree.tags, 'Result');
  if (end.over && i >= 0) ab.tree.tags[i][1] = engine.tak.result(end.tps, o).code || ab.tree.tags[i][1];
}

// The form's fields, each showing its tag (but the one being typed in).
function drawAbTags(ab) {
  for (const input of $('ab-tags-list').querySelectorAll('input')) {
    if (document.activeElement !== input) input.value = abTagValue(ab, input.dataset.tag);
  }
}

// The position editor (the sandbox) on the position shown; the engine
// thinks on each edit, and "Analyse this position" comes back with it.
function abEdit(ab) {
  const s = app.state;
  startSandbox({ size: ab.rules.size, stones: ab.rules.stones, capstones: ab.rules.capstones, komi: ab.rules.komi || 0, no_pass: ab.rules.no_pass !== false },
    { opponent: 'engine', level: 3, color: 'white' }, s.board.slice(), s.turn, s.move_number);
}

// The editor's `setup`, answered by the module as the server answers it.
export function analysisSetup(msg) {
  const o = abOpts(msg), tak = engine.tak;
  const tps = tak.setup(msg.board, { ...o, size: msg.size, turn: msg.turn, move_number: msg.move_number });
  const v = tak.view(tps, [], 0, o), r = tak.result(tps, o), [stones, capstones] = abReserves(msg);
  return { ...v, size: msg.size, stones, capstones, no_pass: msg.no_pass !== false, result: r.code ? r : null };
}

function abFromEditor() {
  const s = app.state, r = app.sandbox.rules;
  const rules = { size: r.size, komi: r.komi || 0, stones: r.stones, capstones: r.capstones, no_pass: r.no_pass !== false };
  showAnalysisBoard(abTree(rules, s.tps), null, rules);
  abEntered();
}

// ---- wiring ----------------------------------------------------------------------------

export function initAnalysis() {
  // On the board already: to its form for a new one, rather than losing the tree to a click.
  $('analysis-board-btn').onclick = () => (app.analysisBoard && !app.sandbox ? $('ab-paste').focus() : openAnalysisText('', 5, 0));
  $('open-analysis-board').onclick = openGameAnalysis;
  $('ab-think').onclick = () => {
    const ab = app.analysisBoard;
    ab.on = !ab.worker;
    if (ab.on) ab.thinking = null; // think again on the position shown
    else abStop(ab);
    render();
  };
  $('ab-promote').onclick = () => {
    const ab = app.analysisBoard;
    if (!TakTree.branchStart(ab.node)) return;
    abRemember(ab);
    TakTree.promote(ab.node);
    render();
  };
  $('ab-delete').onclick = () => {
    const ab = app.analysisBoard, b = TakTree.branchStart(ab.node) || ab.node;
    if (!b.parent) return;
    abRemember(ab);
    abGoto(ab, TakTree.remove(b));
  };
  $('ab-marks').onchange = () => { const ab = app.analysisBoard; abRemember(ab); ab.node.marks = $('ab-marks').value || null; render(); };
  $('ab-undo').onclick = () => abUndo(app.analysisBoard, false);
  $('ab-redo').onclick = () => abUndo(app.analysisBoard, true);
  document.addEventListener('keydown', (e) => {
    const ab = app.analysisBoard, key = e.key.toLowerCase();
    if (!ab || app.sandbox || $('play').hidden || !(e.ctrlKey || e.metaKey) || e.altKey || isTextField(e.target)) return;
    if (key === 'z') abUndo(ab, e.shiftKey);
    else if (key === 'y' && !e.shiftKey) abUndo(ab, true);
    else return;
    e.preventDefault();
  });
  // ← and → step through the game here too, as everywhere on the page, rather
  // than change the mark just chosen (↑ and ↓ choose one).
  $('ab-marks').onkeydown = (e) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    showPly(stepFrom() + (e.key === 'ArrowLeft' ? -1 : 1));
  };
  $('ab-note').oninput = () => {
    // PTN ends a note at "}" and has no escape for it (the notation: any
    // character but "}"): refused, so that the note reads back as written.
    const box = $('ab-note');
    if (box.value.includes('}')) {
      const at = box.selectionStart - (box.value.slice(0, box.selectionStart).match(/\}/g) || []).length;
      box.value = box.value.replace(/\}/g, '');
      box.setSelectionRange(at, at);
      say('A note cannot hold "}": PTN ends a note there.');
    }
    const ab = app.analysisBoard, text = box.value.trim() ? box.value : null;
    if (ab.typing !== ab.node) { abRemember(ab); ab.typing = ab.node; } // one change for the note typed
    if (ab.node.parent) ab.node.comment = text; else ab.tree.preface = text;
    drawAbTree(ab);
    abSaveSoon();
  };
  $('ab-note').onblur = () => { if (app.analysisBoard) app.analysisBoard.typing = null; };
  $('ab-share').onclick = async () => {
    const link = $('ab-link');
    link.value = await abShareLink(app.analysisBoard);
    $('ab-copied').textContent = '';
    $('ab-link-box').hidden = false; link.focus(); link.select();
  };
  $('ab-copy').onclick = async () => {
    const link = $('ab-link'), said = $('ab-copied');
    try {
      await navigator.clipboard.writeText(link.value);
      said.textContent = 'Link copied.';
    } catch (e) { // no clipboard for this page: the link selected, for the keys
      link.focus(); link.select();
      said.textContent = document.execCommand('copy') ? 'Link copied.' : 'Press Ctrl+C (⌘C) to copy the link.';
    }
  };
  // The tags: each kept when its field is left or Enter pressed; a value
  // refused is put back as it was (the message quotes it).
  for (const [name, hint] of AB_TAGS) {
    const label = document.createElement('label'), input = document.createElement('input');
    input.id = 'ab-tag-' + name; input.dataset.tag = name; input.placeholder = hint; input.spellcheck = false;
    const keep = () => { const ab = app.analysisBoard; abSetTag(ab, name, input.value); input.value = abTagValue(ab, name); };
    input.onchange = keep;
    input.onkeydown = (e) => { if (e.key === 'Enter') { e.preventDefault(); keep(); } };
    label.append(name, input);
    $('ab-tags-list').appendChild(label);
  }
  $('ab-export').onclick = () => { try { showExport(engine.tak.writePtn(abDoc(app.analysisBoard))); } catch (e) { say(e.message); } };
  $('ab-edit').onclick = () => abEdit(app.analysisBoard);
  $('ab-analyse-edited').onclick = abFromEditor;
  $('ab-file').onchange = async () => { const input = $('ab-file'); await openAnalysisFile(input.files[0]); input.value = ''; };
  document.addEventListener('dragover', (e) => {
    if (!abDropping(e)) return;
    e.preventDefault(); // a drop here opens the file on the board, not in place of the page
    e.dataTransfer.dropEffect = 'copy';
    $('play').classList.add('ab-drop');
  });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) $('play').classList.remove('ab-drop'); });
  document.addEventListener('drop', (e) => {
    $('play').classList.remove('ab-drop');
    if (!abDropping(e)) return;
    e.preventDefault();
    openAnalysisFile(e.dataTransfer.files[0]);
  });
  $('ab-load').onsubmit = (e) => { e.preventDefault(); openAnalysisText($('ab-paste').value, +$('ab-size').value, +$('ab-komi').value || 0); };
  // Leaving the page: the board's last change kept.
  window.addEventListener('pagehide', () => { if (app.analysisBoard) abSave(app.analysisBoard, true); });
  // The module, once the page is up, so the board opens at once and with the server gone.
  (window.requestIdleCallback || ((f) => setTimeout(f, 500)))(() => prepareEngine().catch(() => {}));
}
