// connection.js: the one WebSocket to the server, reopened by itself. A
// request gets a promise of its answer; what the server sends unasked (a
// game's state, the lobby, chat) goes to the handler named by its type in
// the table that connect() is given, so this file knows nothing of games.
import { $ } from './dom.js';
import { app } from './state.js';

// Opens the socket. `handlers`: { open() on each (re)connection, and one
// function per message type the server sends unasked, given the message }.
export function connect(handlers) {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  app.ws = ws;
  ws.onopen = () => {
    app.connected = true; app.retry = 500;
    setConn('connected');
    handlers.open();
  };
  ws.onclose = () => {
    if (app.connected) app.lostAt = Date.now();
    app.connected = false;
    setConn('reconnecting…', true);
    for (const [, p] of app.pending) p.reject(new Error('connection lost'));
    app.pending.clear();
    setTimeout(() => connect(handlers), app.retry);
    app.retry = Math.min(app.retry * 2, 4000);
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.req !== undefined && app.pending.has(m.req)) {
      const p = app.pending.get(m.req);
      app.pending.delete(m.req);
      // The server's clock, less half the round trip: game clocks are shown by it.
      if (typeof m.now_ms === 'number') app.offset = m.now_ms - (p.sent + Date.now()) / 2;
      if (m.type === 'error') p.reject(new Error(m.message)); else p.resolve(m);
    } else if (Object.hasOwn(handlers, m.type) && m.type !== 'open') {
      handlers[m.type](m);
    }
  };
}

function setConn(text, down) {
  const el = $('conn');
  el.textContent = text;
  el.classList.toggle('down', !!down);
  $('offline').hidden = !down;
}

// Sends a request; resolves with its "ok" reply, rejects with the error's message.
export function request(msg) {
  if (!app.connected) return Promise.reject(new Error('not connected; retrying'));
  msg.req = ++app.reqs;
  return new Promise((resolve, reject) => {
    app.pending.set(msg.req, { resolve, reject, sent: Date.now() });
    app.ws.send(JSON.stringify(msg));
  });
}
