// app.js: the page's entry. The page is ES modules, each one part of it
// (state.js holds everything the page knows; connection.js the socket;
// board.js the board and its input; game.js a game and the panel beside
// the board; review.js going over one; match.js, sandbox.js, lobby.js,
// analysis.js, takat.js, players.js; settings.js the looks and sounds). None
// runs anything when imported: this file wires each part, routes the
// address to its page, and opens the connection.
import { $, say } from './dom.js';
import { app, takat } from './state.js';
import { connect, request } from './connection.js';
import { initSettings } from './settings.js';
import { connected as identify, route as playerPages, initPlayers } from './players.js';
import { initBoard } from './board.js';
import { joinGame, onState, onChat, onChatHistory, openGame, render, initGame } from './game.js';
import { engineWorker, initReview } from './review.js';
import { initSandbox } from './sandbox.js';
import { onNext, initMatch } from './match.js';
import { followLobby, onLobby, enterGame, initLobby } from './lobby.js';
import { takatJoin, openTakat, onTakatState, initTakat } from './takat.js';
import { closeAnalysisBoard, openAnalysisFromUrl, analysisPlay, analysisStep, abDoc, initAnalysis } from './analysis.js';
import { engine } from './engine.js';
import * as TakTree from './tree.js';

// The page the address names: a game (/g/ID), a TAKAT game (/t/ID), the
// analysis board, a player's page or the leaderboard, else the lobby.
function route() {
  const m = location.pathname.match(/^\/g\/([a-z2-9]+)/), t = location.pathname.match(/^\/t\/([a-z2-9]+)/);
  if (location.pathname === '/analysis') { openAnalysisFromUrl(); return; }
  closeAnalysisBoard();
  if (playerPages(location.pathname)) { $('play').hidden = true; $('takat').hidden = true; $('new-game').hidden = true; }
  else if (m) openGame(m[1]);
  else if (t) openTakat(t[1]);
  else { $('play').hidden = true; $('takat').hidden = true; $('new-game').hidden = false; followLobby(); }
}

// What the server sends unasked, by its type.
const handlers = {
  open() {
    identify(); // first: what follows is sent as this browser's player
    if (app.gameId) joinGame(app.gameId);
    else if (takat.id) takatJoin(takat.id);
    else followLobby();
  },
  state: onState,
  lobby: onLobby,
  seek_accepted(m) { app.mySeeks.delete(m.seek); enterGame(m); },
  chat: onChat,
  chat_history: onChatHistory,
  takat_state: onTakatState,
  next: onNext,
  error(m) { say(m.message); },
};

// The players' pages' handler on "New game" goes first, as it always has.
initPlayers();
initSettings(render);
initLobby();
initGame();
initBoard();
initReview();
initSandbox();
initMatch();
initTakat();
initAnalysis();
window.addEventListener('popstate', route);
route();
connect(handlers);
// The page's engine, once the page is up (it is not needed to draw it).
(window.requestIdleCallback || ((f) => setTimeout(f, 500)))(() => engineWorker());
// The service worker: the site opens with the server gone (sw.js).
if ('serviceWorker' in navigator) addEventListener('load', () => navigator.serviceWorker.register('/sw.js').catch(() => {}));

// For the browser tests, the benchmarks and the console, which reach into
// the page by these names; no module reads them.
Object.assign(window, { takApp: app, app, takatApp: takat, request, abEngine: engine, abDoc, analysisPlay, analysisStep, TakTree });
