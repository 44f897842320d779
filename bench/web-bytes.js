// bench/web-bytes.js: the bytes on the wire of a first and a second visit
// of /analysis (the page, the engine, the service worker's own fetches and
// the WebSocket), counted by a TCP proxy between Debian's Chromium and a
// fresh `tak serve` (tests/e2e/wire.js), and the first paint. A first
// visit is a new browser context (empty cache); the second a new page in
// the same context after the first (its cache and service worker). Medians
// of RUNS. Figures in bench/WEB.md.
//
//   make && node bench/web-bytes.js [RUNS]     (TAK_BIN=... for another build)
'use strict';
const { chromium } = require('playwright-core');
const { startServer } = require('../tests/server/lib.js');
const { wireProxy, visitAnalysis } = require('../tests/e2e/wire.js');

const RUNS = +(process.argv[2] || 3);
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const paint = (p) => p.evaluate(() => (performance.getEntriesByType('paint')
  .find((e) => e.name === 'first-contentful-paint') || {}).startTime);

(async () => {
  const srv = await startServer();
  const proxy = await wireProxy(srv.port);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const fig = { first: [], firstHttp: [], second: [], secondHttp: [], paint1: [], paint2: [] };
  let last;
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 } });
    proxy.reset();
    let p = await ctx.newPage();
    await visitAnalysis(p, proxy.url);
    fig.paint1.push(await paint(p));
    await p.close();
    let c = proxy.counts();
    fig.first.push(c.down + c.up);
    fig.firstHttp.push(c.http);
    const first = c;
    proxy.reset();
    p = await ctx.newPage();
    await visitAnalysis(p, proxy.url);
    fig.paint2.push(await paint(p));
    await p.close();
    c = proxy.counts();
    fig.second.push(c.down + c.up);
    fig.secondHttp.push(c.http);
    last = { first, second: c };
    await ctx.close();
  }
  console.log(`first visit: ${median(fig.first)} bytes both ways (${median(fig.firstHttp)} from the server over HTTP), ` +
    `first contentful paint ${Math.round(median(fig.paint1))} ms`);
  console.log(`second visit: ${median(fig.second)} bytes both ways (${median(fig.secondHttp)} from the server over HTTP), ` +
    `first contentful paint ${Math.round(median(fig.paint2))} ms`);
  console.log('last run, first visit requests:', last.first.requests.join(', '));
  console.log('last run, second visit requests:', last.second.requests.join(', '));
  await browser.close();
  await proxy.close();
  await srv.stop();
})().catch((e) => { console.error(e); process.exit(1); });
