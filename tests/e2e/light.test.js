// light.test.js: the page's weight on the wire and the page with the server
// gone (issue 43, "Light" and "Offline for real"). Bytes are counted by a
// TCP proxy between Chromium and the server (wire.js): a first visit of
// /analysis, engine and service worker included, within 300 KB; a second
// visit, from the browser's cache and 304s, almost nothing. Then the server
// is stopped: a reload of /analysis, a fresh load of it and one with the
// network off open the page from the service worker and analyse. And the
// page is installable as an app (Chromium's own verdict).
'use strict';
const http = require('node:http');
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer } = require('../server/lib.js');
const { shot } = require('./lib.js');
const { wireProxy, visitAnalysis } = require('./wire.js');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
let browser;
test.before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
test.after(async () => { if (browser) await browser.close(); });

async function newContext() {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 } });
  ctx.on('page', (p) => p.on('pageerror', (e) => { throw e; }));
  return ctx;
}

// Waits until the analysis board shows a line of the engine's for this load
// of the page.
const analyses = (page) => page.waitForFunction(() => window.takApp && window.takApp.analysisBoard &&
  window.takApp.analysisBoard.lines.length >= 1 && document.querySelector('#ab-lines li'), null, { timeout: 30000 });

test('a first visit is at most 300 KB on the wire, a second almost nothing', async () => {
  const srv = await startServer();
  const proxy = await wireProxy(srv.port);
  try {
    const ctx = await newContext();
    let page = await ctx.newPage();
    await visitAnalysis(page, proxy.url);
    await page.close();
    const first = proxy.counts();
    assert.ok(first.requests.includes('GET /tak.wasm'), first.requests.join(', '));
    assert.ok(first.down <= 300000, `first visit: ${first.down} bytes from the server (${first.requests.join(', ')})`);
    proxy.reset();
    page = await ctx.newPage();
    await visitAnalysis(page, proxy.url);
    const second = proxy.counts();
    // 304s and the WebSocket's first messages: no file comes again.
    assert.ok(second.http <= 5000, `second visit: ${second.http} bytes of HTTP from the server (${second.requests.join(', ')})`);
    assert.ok(second.down <= 12000, `second visit: ${second.down} bytes from the server`);
    await ctx.close();
  } finally {
    await proxy.close();
    await srv.stop();
  }
});

// /analysis opened and analysing under the service worker's control, then
// the server stopped; resolves the page.
async function underWorkerThenStop(srv, ctx) {
  const page = await ctx.newPage();
  await page.goto(srv.url + '/analysis');
  await analyses(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
  await srv.stop();
  return page;
}

test('with the server stopped, /analysis reloads, opens afresh and analyses from the service worker', async () => {
  const srv = await startServer();
  const ctx = await newContext();
  try {
    const page = await underWorkerThenStop(srv, ctx);
    // A reload: the page, its scripts and the engine from the worker's cache.
    await page.reload();
    assert.equal(await page.title(), 'Tak');
    await analyses(page);
    await shot(page, 'offline-reload');
    // A fresh load in a new tab, and another one with the network off.
    const fresh = await ctx.newPage();
    await fresh.goto(srv.url + '/analysis');
    await analyses(fresh);
    await ctx.setOffline(true);
    const off = await ctx.newPage();
    await off.goto(srv.url + '/analysis');
    await analyses(off);
    await shot(off, 'offline-network-off');
  } finally {
    await ctx.close();
    await srv.stop();
  }
});

// A proxy in front of a stopped server answers 502 in its place: the worker's
// copy answers instead (the page and the engine), not the proxy's error.
test('with a proxy answering 502 for a stopped server, /analysis still opens and analyses', async () => {
  const srv = await startServer();
  const ctx = await newContext();
  let stand = null;
  try {
    const page = await underWorkerThenStop(srv, ctx);
    const port = Number(new URL(srv.url).port);
    stand = http.createServer((req, res) => { res.writeHead(502, { 'Content-Type': 'text/plain' }); res.end('Bad Gateway'); });
    await new Promise((resolve) => stand.listen(port, '127.0.0.1', resolve));
    const direct = await page.request.get(srv.url + '/analysis');
    assert.equal(direct.status(), 502); // what the browser gets without the worker
    await page.reload();
    assert.equal(await page.title(), 'Tak');
    await analyses(page);
  } finally {
    if (stand) await new Promise((resolve) => stand.close(resolve));
    await ctx.close();
    await srv.stop();
  }
});

// In a profile of its own: Chromium installs nothing from an incognito
// context, which a new context is.
test('the page is installable as an app: a manifest with icons and a service worker', async () => {
  const srv = await startServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tak-profile-'));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await ctx.newPage();
    await page.goto(srv.url + '/');
    await page.evaluate(() => navigator.serviceWorker.ready);
    const manifest = await (await page.request.get(srv.url + '/manifest.webmanifest')).json();
    assert.equal(manifest.start_url, '/');
    assert.ok(manifest.icons.length >= 1);
    for (const icon of manifest.icons) {
      const res = await page.request.get(srv.url + icon.src);
      assert.equal(res.status(), 200, icon.src);
      assert.equal(res.headers()['content-type'], icon.type);
    }
    const cdp = await ctx.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
  } finally {
    await ctx.close();
    await srv.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
