// wire.js: bytes on the wire between the browser and `tak serve`. A TCP
// proxy in front of the server counts every byte of every connection each
// way (headers, bodies, 304s, the WebSocket), as the network would carry
// them; the page is opened through the proxy's address. Used by
// tests/e2e/light.test.js and bench/web-bytes.js.
'use strict';
const net = require('node:net');

// Resolves { url, port, counts(), reset(), close() }: counts() is
// { down, up, http, ws, requests } (down: bytes from the server; http/ws:
// of them, on plain HTTP connections and on WebSocket ones; requests: the
// request lines seen).
function wireProxy(target) {
  let down = 0, up = 0, http = 0, ws = 0, requests = [];
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    let isWs = false;
    sockets.add(client).add(upstream);
    client.on('data', (d) => {
      up += d.length;
      const text = d.toString('latin1');
      if (/^upgrade:\s*websocket/im.test(text)) isWs = true;
      for (const m of text.matchAll(/^(GET|HEAD|POST) (\S+) HTTP\/1\.1\r\n/gm)) requests.push(m[1] + ' ' + m[2]);
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      down += d.length;
      if (isWs) ws += d.length; else http += d.length;
      client.write(d);
    });
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const port = server.address().port;
    resolve({
      port, url: `http://127.0.0.1:${port}`,
      counts: () => ({ down, up, http, ws, requests: requests.slice() }),
      reset: () => { down = up = http = ws = 0; requests = []; },
      close: () => new Promise((res) => { for (const s of sockets) s.destroy(); server.close(() => res()); }),
    });
  }));
}

// One visit of /analysis: the page until the engine has shown its lines and
// the service worker (installed on a first visit, its files fetched) is
// active, then until nothing is in flight. (A page without a manifest link,
// a build before the worker, is not waited for.)
async function visitAnalysis(page, url) {
  await page.goto(url + '/analysis');
  await page.waitForFunction(() => window.takApp && window.takApp.analysisBoard &&
    window.takApp.analysisBoard.lines.length >= 1, null, { timeout: 30000 });
  await page.evaluate(() => document.querySelector('link[rel=manifest]') && navigator.serviceWorker.ready.then(() => {}));
  await page.waitForLoadState('networkidle');
}

module.exports = { wireProxy, visitAnalysis };
