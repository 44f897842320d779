// game.js: a Tak game as this page plays or watches it: joining it with the
// seat kept in this browser (localStorage, never the address bar), its
// states as the server sends them, the panel beside the board drawn from
// them (render(), which every part of the page calls after a change), offers,
// clocks and chat. The board is board.js's; the review of moves review.js's.
import { $, say } from './dom.js';
import { app, takat, shown, myTurn } from './state.js';
import { request } from './connection.js';
import { play } from './settings.js';
import { drawBoard, drawStash, passes, flipped } from './board.js';
import { drawMoves, drawGraph, computeGraph, drawAnalysis } from './review.js';
import { drawSandbox } from './sandbox.js';
import { matchOf, saveMatch, refreshMatch, drawMatch } from './match.js';
import { showNewGame } from './lobby.js';
import { closeAnalysisBoard, drawAnalysisBoard } from './analysis.js';

// ---- games and seats ------------------------------------------------------------

export function secretKey(id) { return 'tak.seat.' + id; }

export async function joinGame(id) {
  app.stale = true;
  const hash = new URLSearchParams(location.hash.slice(1));
  const msg = { type: 'join', game: id };
  const token = localStorage.getItem(secretKey(id)) || hash.get('s');
  if (token) msg.token = token;
  else if (hash.get('invite')) {
    msg.invite = hash.get('invite');
    const name = localStorage.getItem('tak.name');
    if (name) msg.name = name;
  }
  try {
    const r = await request(msg);
    app.seat = r.seat;
    if (r.token) localStorage.setItem(secretKey(id), r.token);
    const of = +hash.get('match');
    if (r.seat && of >= 2 && of <= 25 && !matchOf(id)) saveMatch({ of, games: [{ id, color: r.seat }] });
    if (hash.get('s') || hash.get('invite')) history.replaceState(null, '', '/g/' + id);
    say('');
    showLinks();
  } catch (e) {
    // The server says "no game ID": said once, in a sentence, wherever it comes.
    const missing = /^no game/.test(e.message);
    if ((msg.invite || msg.token) && !missing) { // a used invitation: watch instead
      history.replaceState(null, '', '/g/' + id);
      say(e.message + ' — watching');
      request({ type: 'join', game: id }).then((r) => { app.seat = r.seat; showLinks(); }).catch((e2) => say(e2.message));
    } else if (!app.state && app.gameId === id) { // no such game: say so where a game can be started
      showNewGame();
      $('new-message').textContent = missing ? `There is no game ${id} here: start a new one.`
        : `Game ${id} cannot be opened (${e.message}): start a new one.`;
    } else {
      say(missing ? `There is no game ${id} here.` : e.message);
    }
  }
}

export function showLinks() {
  const el = $('links');
  el.textContent = '';
  const base = location.origin + '/g/' + app.gameId;
  const add = (label, url) => {
    const l = document.createElement('label');
    l.textContent = label;
    const i = document.createElement('input');
    i.readOnly = true; i.value = url; i.onfocus = () => i.select();
    l.appendChild(i);
    el.appendChild(l);
  };
  add('Watch link: ', base);
  const token = localStorage.getItem(secretKey(app.gameId));
  if (app.seat && token) add('Your seat (keep it secret): ', base + '#s=' + token);
  const rec = matchOf(app.gameId);
  // The match's length rides in the fragment too, so the friend's page keeps its table from game 1.
  if (app.invite) add('Invite a friend: ', base + '#invite=' + app.invite + (rec ? '&match=' + rec.of : ''));
}

export function openGame(id) {
  closeAnalysisBoard();
  app.sandbox = null; app.matchRows = null;
  app.gameId = id; app.state = null; app.view = null; app.carry = null; app.seat = null; app.analysis = null; app.chat = [];
  app.flip = null; // each game as its player sits
  $('new-game').hidden = true; $('takat').hidden = true; $('play').hidden = false;
  takat.id = null;
  window.scrollTo(0, 0); // the board at the top, wherever the form or lobby was scrolled
  if (app.connected) joinGame(id);
}

// ---- the state ----------------------------------------------------------------------

export function onState(s) {
  if (s.game !== app.gameId) return;
  const moved = !app.state || app.state.ply !== s.ply;
  const first = !app.state, ended = !!s.result !== !!(app.state && app.state.result);
  const before = app.state;
  app.state = s; app.stale = false;
  if (first || ended) refreshMatch();
  if (moved) { app.carry = null; app.analysis = null; if (app.view && app.view.ply >= s.ply) app.view = null; }
  if (before && s.ply === before.ply + 1 && !app.view) app.animate = { ply: s.ply };
  if (before && s.ply === before.ply + 1) play(/^\d?[a-h][1-8][<>+-]/.test(s.moves[s.ply - 1]) ? 'move' : 'place');
  if (before && s.tak.some((t, i) => t && !before.tak[i])) play('tak');
  if (before && s.result && !before.result) play('end');
  announce(s, before);
  const declined = s.declined && app.seat && ['draw', 'takeback'].find((w) => s.declined[w] === app.seat);
  if (declined && !(before && before.declined && before.declined[declined] === app.seat))
    say(declined === 'draw' ? 'Your opponent declined your draw offer.' : 'Your opponent declined your takeback request.');
  if (s.seats[app.seat] !== 'taken') app.invite = app.invite; // nothing: seats shown in turn line
  if (app.invite && s.seats.white !== 'open' && s.seats.black !== 'open') { app.invite = null; showLinks(); }
  render();
}

// Says the other side's move to a screen reader (a polite live region):
// a move just played, or the last one when the game opens on our turn.
function announce(s, before) {
  const fresh = before ? s.ply === before.ply + 1 : s.ply > 0 && !s.result && s.turn === app.seat;
  if (!fresh || s.ply === 0) return;
  const mover = (s.ply + (/ 2 \d+$/.test(s.start || '') ? 1 : 0)) % 2 ? 'white' : 'black';
  if (mover === app.seat) return;
  const name = mover === 'white' ? 'White' : 'Black', other = mover === 'white' ? 'black' : 'white';
  const tak = s.tak[mover === 'white' ? 0 : 1] ? ' Tak!' : '';
  $('announce').textContent = `${name} played ${s.moves[s.ply - 1]}.${tak}` + (s.result ? ` ${s.result.text}.` : other === app.seat ? ' Your move.' : '');
}

// Draws the game shown from the state: the board, the panel beside it, and
// each part's own (sandbox, review, match, chat, clocks, analysis board).
// Every part of the page calls it after a change.
export function render() {
  const s = app.state;
  if (!s) return;
  const v = shown();
  drawBoard();
  drawStash();
  drawMoves();
  const turn = $('turn');
  const name = (c) => (c === 'white' ? 'White' : 'Black');
  const who = (c) => (s.seats[c] === 'engine' ? ` (engine, level ${s.level})` :
    (s.names && s.names[c] ? ` (${s.names[c]}${app.seat === c ? ', you' : ''})` : app.seat === c ? ' (you)' : s.seats[c] === 'open' ? ' (seat open)' : ''));
  const over = !!s.result && !app.view;
  turn.className = 'turn ' + (over ? 'over' : v.turn);
  const firstTurn = !over && !app.view && v.move_number === 1 && !app.sandbox ? ` — first turn: ${v.turn === app.seat ? 'you place' : 'places'} a flat of ${name(v.turn === 'white' ? 'black' : 'white')}'s` : '';
  // Who moves on a line of its own, the rest under it: the box keeps its
  // height from ply to ply (its CSS), so nothing below it moves.
  const sub = document.createElement('span');
  sub.className = 'turn-sub';
  sub.textContent = app.view || s.result ? '' : `${who(v.turn)}${firstTurn}${s.thinking ? ' — thinking…' : ''}`;
  turn.replaceChildren(app.view ? `Viewing move ${v.move_number}: ${name(v.turn)} to play` :
    s.result ? 'Game over' : `Move ${v.move_number}: ${name(v.turn)} to play`, sub);
  turn.classList.toggle('viewing', !!app.view);
  turn.classList.toggle('sandboxed', !!app.sandbox);
  if (app.sandbox) turn.textContent = `Rules off — setting up: ${name(v.turn)} to move (move ${v.move_number})`;
  $('sandbox').hidden = !app.sandbox;
  $('rotate').hidden = $('ptn-form').hidden = $('offers').hidden = !!app.sandbox;
  $('enforce').checked = !app.sandbox;
  $('enforce').disabled = !app.sandbox && !!app.view;
  if (app.sandbox) drawSandbox();
  $('flats').textContent = `Flats: White ${v.flats[0]} — Black ${v.flats[1]}` + (s.komi ? ` (+${s.komi} komi)` : '');
  $('rules-line').textContent = `${s.size}×${s.size}, ${s.stones} stones + ${s.capstones} cap${s.capstones === 1 ? '' : 's'} each` +
    (s.komi ? `, komi ${s.komi}` : '') + (s.no_pass === false ? ', passing allowed' : ', no-pass rule');
  const threat = ['white', 'black'].filter((c, i) => v.tak[i] && c !== v.turn);
  $('tak-warning').hidden = threat.length === 0 || (!!s.result && !app.view);
  $('tak-warning').textContent = threat.length ? `Tak! ${name(threat[0])} threatens a road` : '';
  const res = $('result');
  res.hidden = !s.result || !!app.sandbox;
  const mine = s.result && app.seat && s.result.winner >= 0 ? (['white', 'black'][s.result.winner] === app.seat ? 'win' : 'loss') : s.result && app.seat ? 'draw' : '';
  res.className = 'result ' + mine;
  res.textContent = s.result ? `${mine === 'win' ? 'You won: ' : mine === 'loss' ? 'You lost: ' : ''}${s.result.text} (${s.result.code})` : '';
  const seated = !!app.seat && !s.result;
  // Something of yours to take back: a move of yours has been played.
  $('takeback').disabled = !seated || s.ply === 0 || (s.ply === 1 && s.turn === app.seat);
  $('pass').hidden = !myTurn() || passes().length === 0;
  $('draw').disabled = !seated || s.seats.white === 'engine' || s.seats.black === 'engine';
  $('resign').disabled = !seated;
  $('ptn-input').disabled = !myTurn();
  $('first').disabled = $('prev').disabled = v.ply === 0;
  $('next').disabled = $('last').disabled = !app.view;
  $('analyze').disabled = !s.result || !!app.sandbox;
  $('analyze').title = s.result ? 'The engine\'s score and best line for the position shown' : 'Analysis opens when the game is over';
  const single = !!s.result && !!app.seat && !app.sandbox && !matchOf(app.gameId);
  $('rematch').hidden = !single;
  $('rematch').textContent = app.rematchOffer ? 'Play the rematch' : 'Rematch';
  drawOffers();
  drawAnalysis();
  drawMatch();
  drawChat();
  drawClocks();
  drawGraph();
  if (s.result && app.worker && !app.sandbox && !app.analysisBoard) computeGraph();
  drawAnalysisBoard();
}

function drawOffers() {
  const box = $('offers'), s = app.state;
  box.textContent = '';
  if (app.rematchOffer && s.result) box.textContent = 'Your opponent offers a rematch, colours swapped.';
  if (!app.seat || s.result) return;
  const other = app.seat === 'white' ? 'black' : 'white';
  for (const what of ['draw', 'takeback']) {
    const by = s.offers[what];
    if (!by) continue;
    const p = document.createElement('div');
    if (by === other) {
      // A takeback removes the asker's last move and, if one was played, the reply to it.
      const plies = s.turn === other ? 2 : 1;
      p.textContent = what === 'draw' ? 'Your opponent offers a draw. ' : plies === 2
        ? 'Your opponent asks to take back their last move and your reply to it (2 plies). '
        : 'Your opponent asks to take back their last move. ';
      const yes = document.createElement('button'), no = document.createElement('button');
      yes.textContent = 'Accept'; no.textContent = 'Decline';
      yes.id = `accept-${what}`; no.id = `decline-${what}`;
      yes.onclick = () => act({ type: 'accept', what });
      no.onclick = () => act({ type: 'decline', what });
      p.append(yes, ' ', no);
    } else {
      p.textContent = what === 'draw' ? 'You offered a draw.' : s.turn === app.seat
        ? 'You asked to take back your last move and the reply to it.' : 'You asked to take back your last move.';
    }
    box.appendChild(p);
  }
}

export async function act(msg) {
  msg.game = app.gameId;
  try { await request(msg); say(''); } catch (e) { say(e.message); }
}
// ---- clocks: the server keeps them; the page counts down between its words ----------------

function clockText(ms) {
  if (ms <= 0) return '0:00';
  const tenths = Math.ceil(ms / 100);
  if (tenths < 100) return '0:0' + (tenths / 10).toFixed(1); // tenths in the last ten seconds
  const t = Math.ceil(ms / 1000);
  return Math.floor(t / 60) + ':' + String(t % 60).padStart(2, '0');
}

// Each side's time left now, as the server counts it. Cut off from the
// server, the page holds the clocks where they were when it lost it: the
// server holds the mover's clock till the pages are back (clock.c), and a
// clock counting down meanwhile would jump back when they are. Connected
// again, it holds them till the server's state comes: the one from before
// would count the whole outage off at once.
const live = () => app.connected && !app.stale;

function clockLeft(c) {
  const left = c.left_ms.slice();
  const now = live() ? Date.now() : app.lostAt;
  // Never more than the server gave: a clock here a little behind the
  // server's would otherwise count up (1:01 on a 1+0 clock).
  if (c.running) left[c.running === 'white' ? 0 : 1] -= Math.max(0, now + app.offset - c.turn_start_ms);
  return left;
}

export function drawClocks() {
  const s = app.state, c = s && !app.sandbox && s.clock;
  $('clocks').hidden = !c;
  if (!c) return;
  const left = clockLeft(c);
  // The clock held: by the server, waiting for the pages after a restart;
  // or here, while this page is cut off. One word for it, in the class and
  // in what a screen reader says, as in the server's state.
  const held = c.held ? s.turn : live() ? null : c.running;
  const why = c.held ? 'till both players are back' : 'while this page reconnects';
  ['white', 'black'].forEach((color, i) => {
    const el = $('clock-' + color);
    const running = c.running === color && held !== color;
    el.textContent = `${color === 'white' ? 'White' : 'Black'} ${clockText(left[i])}`;
    el.classList.toggle('running', running);
    el.classList.toggle('held', held === color);
    el.classList.toggle('low', left[i] < 10000);
    el.setAttribute('aria-label', `${color} clock: ${clockText(left[i])}${running ? ', running' : held === color ? ', held ' + why : ''}`);
  });
}

// ---- chat: the players' room for players, the spectators' for watchers ------------------

// A message in the game's room; the room's messages so far (on joining it).
export function onChat(m) { if (m.game === app.gameId) { app.chat.push(m); drawChat(); } }
export function onChatHistory(m) { if (m.game === app.gameId) { app.chat = m.messages; drawChat(); } }

export function drawChat() {
  const list = $('chat-lines');
  $('chat').hidden = !app.gameId || !!app.sandbox;
  $('chat-title').textContent = app.seat ? 'Chat with your opponent' : 'Spectators\' chat';
  list.textContent = '';
  for (const m of app.chat) {
    const li = document.createElement('li'), who = document.createElement('b');
    who.textContent = (m.from === 'white' ? 'White' : m.from === 'black' ? 'Black' : 'Spectator') +
      (app.seat === m.from ? ' (you)' : '') + ': ';
    li.append(who, m.text); // text, never markup
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

export async function sendChat(ev) {
  ev.preventDefault();
  const input = $('chat-input'), text = input.value.trim();
  if (!text) return;
  try {
    await request({ type: 'chat', game: app.gameId, text });
    input.value = '';
    $('chat-status').textContent = '';
  } catch (e) { $('chat-status').textContent = e.message; }
}

// ---- new games -----------------------------------------------------------------------------

// Creates a game and opens it; false (after telling `onError`) when refused.
export async function startGame(msg, onError) {
  try {
    const r = await request(msg);
    localStorage.setItem(secretKey(r.game), r.token);
    app.invite = r.invite || null;
    history.pushState(null, '', '/g/' + r.game);
    closeAnalysisBoard();
    app.sandbox = null;
    app.gameId = r.game; app.seat = r.seat; app.view = null; app.carry = null; app.analysis = null; app.state = null; app.chat = [];
    app.flip = null;
    $('new-game').hidden = true; $('takat').hidden = true; $('play').hidden = false;
    takat.id = null;
    window.scrollTo(0, 0);
    showLinks();
    $('new-message').textContent = '';
    say('');
    return true;
  } catch (e) { onError(e.message); return false; }
}

// ---- wiring ----------------------------------------------------------------------------

export function initGame() {
  $('takeback').onclick = () => act({ type: 'takeback' });
  $('draw').onclick = () => act({ type: 'draw' });
  $('resign').onclick = () => { if (confirm('Resign this game?')) act({ type: 'resign' }); };
  $('flip').onclick = () => { app.flip = !flipped(); render(); };
  $('chat-form').onsubmit = sendChat;
  setInterval(() => { if (app.state && app.state.clock && app.state.clock.running) drawClocks(); }, 100);
}
