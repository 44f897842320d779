// sandbox.js: rule enforcement off, the sandbox. A local board edited
// freely; each edit goes to the server as `setup` (or, on the analysis
// board, to the page's engine), which reads it as a TPS with the game's
// rules and answers the position (or says what is wrong). Turning
// enforcement back on creates a game from that TPS.
import { $, say } from './dom.js';
import { app, shown } from './state.js';
import { request } from './connection.js';
import { colorsOf } from './board.js';
import { render, startGame } from './game.js';
import { showNewGame } from './lobby.js';
import { analysisSetup } from './analysis.js';

function sandboxState(p) {
  const sb = app.sandbox;
  return { ...p, game: null, size: sb.rules.size, komi: sb.rules.komi, ply: 0, moves: [], legal: [],
    seats: { white: 'open', black: 'open' }, level: sb.then.level, thinking: false,
    offers: { draw: null, takeback: null }, start: p.tps };
}

// Starts the sandbox on `board` (stacks as the state writes them).
export async function startSandbox(rules, then, board, turn, moveNumber) {
  // userMove: the move number the player chose (the server picks otherwise: 1 on an empty board, else 2)
  app.sandbox = { rules, then, board, turn, moveNumber, userMove: moveNumber || 0, piece: '1', lifted: null };
  app.gameId = null; app.view = null; app.carry = null; app.seat = null; app.analysis = null;
  $('new-game').hidden = true; $('play').hidden = false; $('links').textContent = '';
  say('');
  if (!(await sandboxSend(board, turn, moveNumber))) { app.sandbox = null; showNewGame(); }
}

// Sends a board to the server; adopts it when the server accepts it.
export async function sandboxSend(board, turn, moveNumber) {
  const sb = app.sandbox, r = sb.rules;
  const msg = { type: 'setup', size: r.size, board, turn, stones: r.stones, capstones: r.capstones,
    komi: r.komi, no_pass: r.no_pass };
  if (moveNumber) msg.move_number = moveNumber;
  try {
    // The analysis board's editor asks the page's module (it works with the server gone).
    const p = app.analysisBoard ? analysisSetup(msg) : await request(msg);
    if (app.sandbox !== sb) return false;
    sb.board = p.board; sb.turn = p.turn; sb.moveNumber = p.move_number; sb.tps = p.tps;
    app.state = sandboxState(p);
    say(p.result ? 'This position is over: ' + p.result.text : '');
    render();
    return true;
  } catch (e) { say(e.message); render(); return false; }
}

// A click on the board: the tool chosen (place, move, remove) on that square.
export function sandboxClick(sq) {
  const sb = app.sandbox, board = sb.board.slice();
  const tool = document.querySelector('input[name=tool]:checked').value;
  if (tool === 'place') {
    // Only the top of a stack can be a wall or a capstone: nothing goes on a
    // capstone, and only a capstone goes on a wall (flattening it, as in play).
    const top = board[sq].slice(-1);
    if (top === 'C') return say('Nothing can go on a capstone: remove it or move it first.');
    if (top === 'S' && !sb.piece.endsWith('C')) return say('Only a capstone can go on a wall (it flattens it): remove the wall or move it first.');
    board[sq] = colorsOf(board[sq]) + sb.piece;
  } else if (tool === 'remove') {
    if (!board[sq]) return say('That square is empty.');
    board[sq] = colorsOf(board[sq]).slice(0, -1);
  } else if (sb.lifted === null) {
    if (!board[sq]) return say('Pick a square with a stone on it.');
    sb.lifted = sq; say('Now click where it goes.'); render(); return;
  } else {
    const from = sb.lifted, stack = board[from], top = stack.match(/[12][SC]?$/)[0];
    sb.lifted = null;
    if (from === sq) { render(); return; }
    board[from] = colorsOf(stack).slice(0, -1);
    board[sq] = colorsOf(board[sq]) + top;
  }
  sandboxSend(board, sb.turn, sb.userMove);
}

export function drawSandbox() {
  const sb = app.sandbox;
  for (const b of document.querySelectorAll('.palette button')) b.classList.toggle('selected', b.dataset.piece === sb.piece);
  $('sandbox-turn').value = sb.turn;
  if (document.activeElement !== $('sandbox-move')) $('sandbox-move').value = sb.moveNumber;
  const t = sb.then;
  $('sandbox-then').textContent = 'Then: ' + (t.opponent === 'engine' ? `against the engine (level ${t.level}), you as ${t.color}` : `against a friend by link, you as ${t.color}`);
}

// Rule enforcement back on: a new game from the position built.
export async function sandboxPlay() {
  const sb = app.sandbox, r = sb.rules, t = sb.then;
  const ok = await startGame({ type: 'create', opponent: t.opponent, level: t.level, color: t.color, tps: sb.tps,
    stones: r.stones, capstones: r.capstones, komi: r.komi, no_pass: r.no_pass }, (m) => say(m));
  if (ok) app.sandbox = null;
}

// Rule enforcement off in a game: a sandbox from the position shown.
export function leaveRules() {
  const s = app.state, v = shown();
  const opponent = s.seats.white === 'engine' || s.seats.black === 'engine' ? 'engine' : 'friend';
  if (app.gameId && app.connected) request({ type: 'leave' }).catch(() => {});
  startSandbox({ size: s.size, stones: s.stones, capstones: s.capstones, komi: s.komi, no_pass: s.no_pass !== false },
    { opponent, level: s.level, color: app.seat || 'white' }, v.board.slice(), v.turn, v.move_number);
}

// ---- wiring ----------------------------------------------------------------------------

export function initSandbox() {
  $('enforce').onchange = () => {
    if (!$('enforce').checked && !app.sandbox && app.state) leaveRules();
    else if ($('enforce').checked && app.sandbox) { $('enforce').checked = false; sandboxPlay(); }
  };
  $('sandbox-play').onclick = sandboxPlay;
  for (const b of document.querySelectorAll('.palette button')) b.onclick = () => { app.sandbox.piece = b.dataset.piece; render(); };
  $('sandbox-turn').onchange = () => sandboxSend(app.sandbox.board, $('sandbox-turn').value, app.sandbox.userMove);
  $('sandbox-move').onchange = () => { app.sandbox.userMove = +$('sandbox-move').value || 0; sandboxSend(app.sandbox.board, app.sandbox.turn, app.sandbox.userMove); };
}
