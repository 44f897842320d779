// match.js: matches and rematches. A match is kept in localStorage: its
// length and its games with the colour this player held in each. The server
// makes the next game (colours swapped) and scores each finished one (the
// rule book's points); this page only adds. A rematch of a single game is a
// match of two made after the fact.
import { $, say } from './dom.js';
import { app } from './state.js';
import { request } from './connection.js';
import { play } from './settings.js';
import { secretKey, showLinks, drawChat, render } from './game.js';

function matchKey(id) { return localStorage.getItem('tak.in-match.' + id); }
export function matchOf(id) {
  const k = id && matchKey(id);
  return k ? JSON.parse(localStorage.getItem('tak.match.' + k)) : null;
}
export function saveMatch(rec) {
  localStorage.setItem('tak.match.' + rec.games[0].id, JSON.stringify(rec));
  for (const g of rec.games) localStorage.setItem('tak.in-match.' + g.id, rec.games[0].id);
}

export async function refreshMatch() {
  const rec = matchOf(app.gameId);
  if (!rec) { $('match').hidden = true; return; }
  try {
    const r = await request({ type: 'score', games: rec.games.map((g) => g.id) });
    app.matchRows = r.rows;
    drawMatch();
  } catch (e) { say(e.message); }
}

export function drawMatch() {
  const rec = matchOf(app.gameId), rows = app.matchRows;
  const box = $('match');
  box.hidden = !rec || !rows || app.sandbox;
  if (box.hidden) return;
  const body = $('match-table').tBodies[0], foot = $('match-table').tFoot;
  body.textContent = ''; foot.textContent = '';
  const total = [0, 0];
  const row = (parent, cells, cls) => {
    const tr = document.createElement('tr');
    if (cls) tr.className = cls;
    for (const c of cells) { const td = document.createElement('td'); td.textContent = c; tr.appendChild(td); }
    parent.appendChild(tr);
  };
  rec.games.forEach((g, i) => {
    const r = rows.find((x) => x.game === g.id) || {};
    let mine = '', theirs = '';
    if (r.result) {
      mine = r.winner === g.color ? r.points : 0;
      theirs = r.winner && r.winner !== g.color ? r.points : 0;
      total[0] += mine; total[1] += theirs;
    }
    row(body, [i + 1, g.color === 'white' ? 'White' : 'Black', r.result || 'playing', mine, theirs], g.id === app.gameId ? 'current' : '');
  });
  const done = rows.every((r) => r.result) && rec.games.length >= rec.of;
  row(foot, ['Total', '', '', total[0], total[1]]);
  $('match-caption').textContent = `Match of ${rec.of} games` + (done ? total[0] === total[1] ? ': level' : total[0] > total[1] ? ': you win' : ': you lose' : '');
  const last = rec.games[rec.games.length - 1].id === app.gameId;
  $('next-game').hidden = !(last && app.state && app.state.result && rec.games.length < rec.of && app.seat);
}

// The next game of the match (made by the server, or joined if the other player made it).
export async function nextGame(number, of) {
  const from = app.gameId;
  let rec = matchOf(from);
  if (!rec) rec = { of, games: [{ id: from, color: app.seat }] };
  number = number || rec.games.length + 1;
  try {
    const r = await request({ type: 'rematch', game: from, number, of: rec.of });
    if (!rec.games.some((g) => g.id === r.game)) rec.games.push({ id: r.game, color: r.seat });
    saveMatch(rec);
    enterNext(r);
    say(`Game ${number} of ${rec.of}: you play ${r.seat === 'white' ? 'White' : 'Black'}.`);
  } catch (e) { say(e.message); }
}

// The game after a finished one (the server made it and seated us): open it.
export function enterNext(r) {
  localStorage.setItem(secretKey(r.game), r.token);
  app.invite = r.invite || null;
  history.pushState(null, '', '/g/' + r.game);
  app.gameId = r.game; app.seat = r.seat; app.view = null; app.carry = null; app.analysis = null; app.state = null;
  app.rematchOffer = false; app.chat = [];
  showLinks();
  drawChat();
}

// A rematch of a single finished game, in one click: the same rules and
// opponent, colours swapped. The opponent is offered it and joins with one
// click too (in a match, the next game is joined without asking).
export async function rematch() {
  try {
    const r = await request({ type: 'rematch', game: app.gameId, number: 2, of: 2 });
    enterNext(r);
    say(`Rematch: you play ${r.seat === 'white' ? 'White' : 'Black'}.`);
  } catch (e) { say(e.message); }
}

// The opponent offers a rematch of the game just finished.
export function offerRematch() { app.rematchOffer = true; play('tak'); render(); }

// The server's word that the game after `from` is there: the match's next
// game, or the opponent's rematch offer.
export function onNext(m) {
  if (m.from === app.gameId) { if (matchOf(m.from)) nextGame(m.number, m.of); else offerRematch(); }
}

export function initMatch() {
  $('next-game').onclick = () => nextGame();
  $('rematch').onclick = rematch;
}
