// bench/web.js: how soon the page is usable, measured in Chromium (Debian's,
// driven by playwright-core) against a fresh `build/tak serve` on this
// machine: the first paint, the analysis board's first lines of engine
// analysis when /analysis is opened (everything from a cold page), the same
// after a click on "Analysis board" once the page has settled (the module
// already prepared), after a move on the board; how long a stop takes; and
// the bytes of the page and of the engine it loads after. Medians of RUNS
// fresh pages. Figures in bench/WEB.md.
//
//   make && node bench/web.js [RUNS]
'use strict';
const { chromium } = require('playwright-core');
const { startServer } = require('../tests/server/lib.js');

const RUNS = +(process.argv[2] || 5);
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];

// Resolves with performance.now() (ms since navigation) at the first frame
// where the analysis board shows a line.
const firstLines = (p) => p.evaluate(() => new Promise((resolve) => {
  const check = () => (document.querySelector('#ab-lines li') ? resolve(performance.now()) : requestAnimationFrame(check));
  check();
}));

(async () => {
  const srv = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const fig = { paint: [], cold: [], click: [], move: [], stop: [], before: [], after: [] };
  for (let i = 0; i < RUNS; i++) {
    // Cold: /analysis in a new context (no cache).
    let ctx = await browser.newContext({ viewport: { width: 1000, height: 760 } });
    let p = await ctx.newPage();
    await p.goto(srv.url + '/analysis');
    fig.cold.push(await firstLines(p));
    const paint = await p.evaluate(() => (performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint') || {}).startTime);
    fig.paint.push(paint);
    // The bytes of the page (document, styles, scripts) and of the engine
    // (the module and its scripts, fetched once the page is up; the review's
    // worker fetches the module a second time, not counted here).
    const sizes = await p.evaluate(() => performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
      .map((e) => ({ name: e.name, bytes: e.encodedBodySize })));
    const engine = (n) => /tak\.wasm|tak-engine\.js|tak-worker\.js/.test(n);
    fig.before.push(sizes.filter((x) => !engine(x.name)).reduce((a, x) => a + x.bytes, 0));
    fig.after.push(sizes.filter((x) => engine(x.name)).reduce((a, x) => a + x.bytes, 0));
    // A move played: from it to the new position's first lines.
    await p.waitForFunction(() => app.analysisBoard.lines.length && app.analysisBoard.lines[0].depth >= 6);
    fig.move.push(await p.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now(), ab = app.analysisBoard;
      analysisPlay('a1');
      const check = () => (document.querySelector('#ab-lines li') && ab.thinking === app.state.tps ? resolve(performance.now() - t0) : requestAnimationFrame(check));
      check();
    })));
    // Stop: from the click to the worker ended and the button saying so.
    await p.waitForFunction(() => app.analysisBoard.lines.length && app.analysisBoard.lines[0].depth >= 6);
    fig.stop.push(await p.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      document.getElementById('ab-think').click();
      const check = () => (!app.analysisBoard.worker && document.getElementById('ab-think').textContent === 'Start'
        ? resolve(performance.now() - t0) : requestAnimationFrame(check));
      check();
    })));
    await ctx.close();
    // Warm: the home page settled (module prepared after the first paint), then a click.
    ctx = await browser.newContext({ viewport: { width: 1000, height: 760 } });
    p = await ctx.newPage();
    await p.goto(srv.url + '/');
    await p.waitForFunction(() => abEngine.tak);
    const t0 = await p.evaluate(() => { document.getElementById('analysis-board-btn').click(); return performance.now(); });
    fig.click.push(await firstLines(p) - t0);
    await ctx.close();
  }
  await browser.close();
  await srv.stop();
  const ms = (a) => `${median(a).toFixed(0)} ms (${Math.min(...a).toFixed(0)}-${Math.max(...a).toFixed(0)})`;
  console.log(`runs: ${RUNS}, medians (min-max)`);
  console.log(`first contentful paint:                      ${ms(fig.paint)}`);
  console.log(`/analysis opened cold: first lines shown at  ${ms(fig.cold)}`);
  console.log(`"Analysis board" clicked: first lines after  ${ms(fig.click)}`);
  console.log(`a move played: its first lines after       ${ms(fig.move)}`);
  console.log(`stop clicked: worker ended after             ${ms(fig.stop)}`);
  console.log(`bytes: the page ${median(fig.before)}, the engine (after it) ${median(fig.after)}`);
})();
