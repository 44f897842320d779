// players.js: who plays, and how they stand. This browser's identity secret
// (localStorage 'tak.identity', made once, sent first on every connection:
// it is the only key to the name, so it never leaves this browser but to the
// server), the name it claims once and for good, a player's page (/p/NAME:
// rating, its history, their games: each a line saying how it ended, its
// clock, size and length, with links to review it and to its PTN) and the
// leaderboard (/players), both read from the server's JSON (/api/...).
// The secret goes to another browser only by the player's hand: a link
// carrying it in its fragment (#identity=..., never sent to the server, so
// in no server's log), which the other browser takes on once asked. The
// secret it replaces is kept ('tak.identity.previous'), with a button to
// switch back, since it may be the only key to that name anywhere.
import { app } from './state.js';
import { request } from './connection.js';

// What the page makes and the server takes (players.c's bad_identity).
const IDENTITY = /^[A-Za-z0-9_-]{20,128}$/;

function identity() {
  let id = localStorage.getItem('tak.identity');
  if (!id || !IDENTITY.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    localStorage.setItem('tak.identity', id);
  }
  return id;
}

const ratingOf = (p) => `${Math.round(p.rating)}${p.provisional ? '?' : ''}`;

// Shows who this browser plays as: the name, fixed now, and a link to its page.
function setMe(p) {
  app.player = p;
  const input = document.getElementById('player-name'), status = document.getElementById('me');
  if (!input || !status) return;
  status.textContent = '';
  document.getElementById('carry-name-btn')?.classList.toggle('unnamed', !p);
  if (!p) { input.readOnly = false; return; }
  input.value = p.name; input.readOnly = true;
  input.title = 'Your name is yours for good (kept with this browser\'s identity)';
  localStorage.setItem('tak.name', p.name);
  status.append('You play as ', link(p.name), ` · rating ${ratingOf(p)}`);
}

function say(text) {
  const el = document.getElementById('me');
  if (el) el.textContent = text;
}

// Identifies this connection, before anything else is sent on it: as the
// player of a link just opened, when there is one, else as this browser.
export function connected() {
  const linked = app.linked;
  app.linked = null;
  if (linked) { takeLinked(linked); return; }
  request({ type: 'identify', identity: identity() }).then((r) => setMe(r.player)).catch((e) => say(e.message));
}

// ---- your name on another device ------------------------------------------------

// A line at the top of the page about the name a link brought: `done` says
// it was taken, else why nothing changed.
function note(text, done) {
  const p = document.getElementById('identity-note');
  p.textContent = text;
  p.classList.toggle('done', !!done);
  p.hidden = false;
}

// The link that takes this browser's name to another: the site with the
// secret in its fragment, which browsers never send to a server.
const nameLink = () => `${location.origin}/#identity=${identity()}`;

// Reads a link's #identity=SECRET when the page opens, and takes it out of
// the address at once (no history entry, bookmark or shared address keeps
// it). A well-formed secret other than this browser's waits in app.linked
// for the connection (connected); a broken one is refused here, saying so.
function readLinked() {
  const m = location.hash.match(/^#identity=(.*)$/s);
  if (!m) return;
  history.replaceState(history.state, '', location.pathname + location.search);
  if (!IDENTITY.test(m[1])) {
    note('This link to use a name here is broken: part of it is missing or was changed on the way. ' +
      'Nothing changed in this browser. Copy the whole link again on your other device ' +
      '("Use your name on another device", in the lobby).');
    return;
  }
  if (m[1] === localStorage.getItem('tak.identity')) { note('This browser already plays under this link\'s name.', true); return; }
  app.linked = m[1];
}

// Identifies as the link's secret to learn whose it is, asks the player
// whether to play as them here, and keeps it if so; otherwise (no such
// player, refused, an error) goes back to this browser's own identity.
// The name this browser had is named in the question, asked of the server
// when the page does not know it yet (a link opened as a new page is read
// before the first identify), and its secret kept to switch back to: it
// may never have been carried anywhere else.
async function takeLinked(secret) {
  const mine = localStorage.getItem('tak.identity'), ownSecret = mine && IDENTITY.test(mine) ? mine : null;
  try {
    const own = !ownSecret ? null : app.player || (await request({ type: 'identify', identity: ownSecret })).player;
    const r = await request({ type: 'identify', identity: secret });
    const replaced = own && own.name !== r.player?.name ? own : null;
    if (!r.player) {
      note('This link names no player here (it may be from another site, or cut short): nothing changed in this browser.');
    } else if (confirm(`Play as ${r.player.name} (rating ${ratingOf(r.player)}) in this browser from now on?` +
        (replaced ? `\n\nThis browser's own name, ${replaced.name} (rating ${ratingOf(replaced)}), is put aside, not lost: ` +
          `"Switch back to ${replaced.name}", beside "Use your name on another device" in the lobby, brings it back.` : ''))) {
      if (replaced) keepPrevious(ownSecret, replaced.name);
      forgetPrevious(secret);
      localStorage.setItem('tak.identity', secret);
      setMe(r.player);
      note(`This browser now plays as ${r.player.name}.` +
        (replaced ? ` ${replaced.name} is kept: "Switch back to ${replaced.name}" in the lobby.` : ''), true);
      return;
    } else {
      note('Nothing changed: this browser keeps its own name.', true);
    }
  } catch (e) {
    note(`The link's name could not be taken (${e.message}): nothing changed in this browser.`);
  }
  request({ type: 'identify', identity: identity() }).then((r) => setMe(r.player)).catch((e) => say(e.message));
}

// ---- names this browser played as before a link -------------------------------
// 'tak.identity.previous': [{ identity, name }], the latest first: each a
// secret a link replaced, with a "Switch back to NAME" button beside the
// link's button. Switching puts the secret in use there in its place, so
// nothing is ever dropped.

function previous() {
  try {
    const list = JSON.parse(localStorage.getItem('tak.identity.previous'));
    return Array.isArray(list) ? list.filter((x) => x && IDENTITY.test(x.identity) && typeof x.name === 'string') : [];
  } catch (e) { return []; }
}

function setPrevious(list) {
  if (list.length) localStorage.setItem('tak.identity.previous', JSON.stringify(list));
  else localStorage.removeItem('tak.identity.previous');
  drawPrevious();
}

function keepPrevious(identity, name) { setPrevious([{ identity, name }, ...previous().filter((x) => x.identity !== identity)]); }
function forgetPrevious(identity) { setPrevious(previous().filter((x) => x.identity !== identity)); }

function drawPrevious() {
  const box = document.getElementById('previous-names');
  if (!box) return;
  box.textContent = '';
  for (const x of previous()) {
    const b = document.createElement('button');
    b.type = 'button'; b.className = 'carry-name-btn';
    b.textContent = `Switch back to ${x.name}`;
    b.title = `Play as ${x.name} again in this browser (the name played now is kept the same way)`;
    b.addEventListener('click', () => switchBack(x));
    box.append(b, ' ');
  }
}

// Plays as `x` (an entry of previous()) again, keeping the secret in use now.
async function switchBack(x) {
  const now = localStorage.getItem('tak.identity'), nowName = app.player?.name;
  try {
    const r = await request({ type: 'identify', identity: x.identity });
    if (!r.player) throw new Error(`the server no longer knows ${x.name}`);
    if (now && nowName && now !== x.identity) keepPrevious(now, nowName);
    forgetPrevious(x.identity);
    localStorage.setItem('tak.identity', x.identity);
    setMe(r.player);
    note(`This browser plays as ${r.player.name} again.`, true);
  } catch (e) {
    note(`This browser could not switch back to ${x.name} (${e.message}): nothing changed.`);
    request({ type: 'identify', identity: identity() }).then((r) => setMe(r.player)).catch((e) => say(e.message));
  }
}

// The dialog that shows this browser's link, with a Copy button and the
// warning that whoever has it plays as this player.
function initCarry() {
  drawPrevious();
  const dialog = document.getElementById('carry-name'), field = document.getElementById('carry-name-link');
  const copied = document.getElementById('carry-name-copied');
  document.getElementById('carry-name-btn').classList.toggle('unnamed', !app.player);
  document.getElementById('carry-name-btn').addEventListener('click', () => {
    if (!app.player) return;
    document.getElementById('carry-name-who').textContent = app.player.name;
    field.value = nameLink();
    copied.textContent = '';
    dialog.showModal();
    field.select();
  });
  document.getElementById('carry-name-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      copied.textContent = 'Copied: paste it into the other browser\'s address bar.';
    } catch (e) { // no clipboard for this page (an old browser, or refused): the link is selected to copy by hand
      field.select();
      copied.textContent = 'Select the link above and copy it.';
    }
  });
  document.getElementById('carry-name-close').addEventListener('click', () => dialog.close());
}

// Claims `name` for this browser when it has none yet. The request goes out
// now, so the server reads it before whatever the caller sends next.
export function claim(name) {
  if (!name || app.player || app.claiming === name) return;
  app.claiming = name;
  request({ type: 'identify', identity: identity(), name })
    .then((r) => setMe(r.player))
    .catch((e) => say(e.message))
    .finally(() => { app.claiming = null; });
}

// A link to a player's page; `rating` (a state's {before, after}, or a
// number) is shown after the name.
export function link(name, rating, newTab) {
  const a = document.createElement('a');
  a.href = '/p/' + encodeURIComponent(name);
  a.className = 'player-link';
  a.textContent = name;
  if (newTab) { a.target = '_blank'; a.rel = 'noopener'; }
  const span = document.createElement('span'), r = document.createElement('span');
  r.className = 'rating';
  if (typeof rating === 'number') r.textContent = ` (${rating})`;
  else if (rating && rating.after != null) r.textContent = ` (${rating.before} → ${rating.after})`;
  else if (rating) r.textContent = ` (${rating.before})`;
  span.append(a, r);
  return span;
}

// ---- the pages -------------------------------------------------------------------

const el = (tag, text, attrs) => {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
};
const day = (s) => (s ? new Date(s * 1000).toISOString().slice(0, 10) : '');

// The rating after each rated game, as a line (an SVG, with a text alternative).
function historyChart(history) {
  const NS = 'http://www.w3.org/2000/svg', w = 600, h = 160, pad = 24;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  const points = [{ rating: 1500 }, ...history];
  const rs = points.map((p) => p.rating), lo = Math.min(...rs) - 20, hi = Math.max(...rs) + 20;
  svg.setAttribute('aria-label', `Rating history: ${rs.map(Math.round).join(', ')}`);
  const xy = points.map((p, i) => [pad + i * (w - 2 * pad) / Math.max(1, points.length - 1), h - pad - (p.rating - lo) / (hi - lo) * (h - 2 * pad)]);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
  svg.append(line);
  for (const [i, [x, y]] of xy.entries()) {
    const c = document.createElementNS(NS, 'circle');
    c.setAttribute('cx', x); c.setAttribute('cy', y); c.setAttribute('r', 4);
    const t = document.createElementNS(NS, 'title');
    t.textContent = Math.round(points[i].rating);
    c.append(t); svg.append(c);
  }
  for (const [v, y] of [[hi - 20, pad], [lo + 20, h - pad]]) {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', 2); t.setAttribute('y', y); t.textContent = Math.round(v);
    svg.append(t);
  }
  return svg;
}

// How a game ended (the API's `end`), said after "beat Alice", "lost to Alice", "drew with Alice".
const HOW = {
  road: 'by road', flats: 'on flats', reserves: 'on flats (a reserve ran out)', repetition: 'by repetition',
  resignation: 'by resignation', time: 'on time', agreement: 'by agreement',
};

// The game from the player's side, as a line of words and links: "lost to
// Alice by road (R-0)", "beat Tak engine, level 3 on time (1-0)", "playing Bob".
function outcome(g) {
  const opponent = g.opponent ? link(g.opponent) : document.createTextNode(g.engine || 'an anonymous player');
  if (!g.result) return ['playing ', opponent];
  const how = (HOW[g.end] ? ' ' + HOW[g.end] : '') + ` (${g.result})`;
  if (g.result === '1/2-1/2') return [g.end === 'agreement' ? 'agreed a draw with ' : 'drew with ', opponent,
    g.end === 'agreement' ? ` (${g.result})` : how];
  const whiteWon = g.result.endsWith('-0');
  return [whiteWon === (g.color === 'white') ? 'beat ' : 'lost to ', opponent, how];
}

// A time control as players write it: minutes+increment in seconds ("10+5");
// a base under a minute (or not whole minutes) in seconds ("90s+2").
function clockName(c) {
  if (!c) return 'untimed';
  const base = c.base_ms % 60000 ? `${c.base_ms / 1000}s` : `${c.base_ms / 60000}`;
  return `${base}+${c.increment_ms / 1000}`;
}

async function showPlayer(name) {
  const sec = document.getElementById('player-page');
  sec.textContent = '';
  sec.append(el('h2', name));
  const r = await fetch('/api/players/' + encodeURIComponent(name));
  const p = await r.json();
  if (!r.ok) { sec.append(el('p', `No player ${name} here.`, { class: 'message' })); return; }
  sec.firstChild.textContent = p.name;
  document.title = `${p.name} · Tak`;
  sec.append(el('p', `Rating ${ratingOf(p)} ± ${Math.round(p.rd)} after ${p.games} rated game${p.games === 1 ? '' : 's'} · playing since ${day(p.since)}`, { id: 'player-rating' }));
  if (p.history.length) { sec.append(el('h3', 'Rating history')); sec.append(historyChart(p.history)); }
  sec.append(el('h3', 'Games'));
  if (!p.recent.length) { sec.append(el('p', 'No games yet.')); return; }
  const table = el('table', null, { class: 'seeks', id: 'player-games' });
  const head = table.createTHead().insertRow();
  // Each row reads as a line: "lost to Alice by road (R-0) | black | 5×5 |
  // 10+5 | rated 1500 → 1488 | 42 plies | 2026-11-28 | review | PTN".
  for (const t of ['Game', 'Colour', 'Size', 'Clock', 'Rating', 'Length', 'Date', '', '']) head.append(el('th', t));
  const body = table.createTBody();
  for (const g of p.recent) {
    const tr = body.insertRow();
    tr.dataset.game = g.game;
    const game = tr.insertCell();
    game.className = 'outcome';
    game.append(...outcome(g));
    tr.insertCell().textContent = g.color;
    tr.insertCell().textContent = `${g.size}×${g.size}`;
    tr.insertCell().textContent = clockName(g.clock);
    tr.insertCell().textContent = !g.rated ? 'casual' : g.rating_after == null ? `rated ${Math.round(g.rating_before)}` :
      `rated ${Math.round(g.rating_before)} → ${Math.round(g.rating_after)}`;
    tr.insertCell().textContent = `${g.plies} ${g.plies === 1 ? 'ply' : 'plies'}`;
    tr.insertCell().textContent = day(g.created);
    const view = el('a', g.result ? 'review' : 'watch', { href: '/g/' + g.game });
    tr.insertCell().append(view);
    const dl = el('a', 'PTN', { href: g.ptn, download: `${g.game}.ptn` });
    tr.insertCell().append(dl);
  }
  sec.append(table);
}

async function showLeaderboard() {
  const sec = document.getElementById('leaderboard-page');
  sec.textContent = '';
  sec.append(el('h2', 'Leaderboard'));
  document.title = 'Leaderboard · Tak';
  const r = await fetch('/api/leaderboard');
  const list = (await r.json()).players || [];
  if (!list.length) { sec.append(el('p', 'Nobody has played a rated game yet.')); return; }
  const table = el('table', null, { class: 'seeks', id: 'leaders' });
  const head = table.createTHead().insertRow();
  for (const t of ['#', 'Player', 'Rating', '±', 'Rated games']) head.append(el('th', t));
  const body = table.createTBody();
  for (const [i, p] of list.entries()) {
    const tr = body.insertRow();
    tr.insertCell().textContent = i + 1;
    tr.insertCell().append(link(p.name));
    tr.insertCell().textContent = ratingOf(p);
    tr.insertCell().textContent = Math.round(p.rd);
    tr.insertCell().textContent = p.games;
  }
  sec.append(table);
}

// Shows a page of this file's when `path` is one of them (true), else hides them.
export function route(path) {
  const player = path.match(/^\/p\/([^/]+)$/), board = path === '/players';
  document.getElementById('player-page').hidden = !player;
  document.getElementById('leaderboard-page').hidden = !board;
  if (player) showPlayer(decodeURIComponent(player[1])).catch((e) => say(e.message));
  if (board) showLeaderboard().catch((e) => say(e.message));
  return !!(player || board);
}

export function initPlayers() {
  readLinked();
  // A link pasted into a tab already on this page changes only the fragment: no new page.
  window.addEventListener('hashchange', () => {
    readLinked();
    if (app.linked && app.connected) { const linked = app.linked; app.linked = null; takeLinked(linked); }
  });
  initCarry();
  // The header's "New game" leaves these pages.
  document.getElementById('new-game-btn').addEventListener('click', () => route(''));
  // A name typed is claimed when the field is left (before the click that left it acts).
  const input = document.getElementById('player-name');
  input.addEventListener('change', () => claim(input.value.trim()));
}
