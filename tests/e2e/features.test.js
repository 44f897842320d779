// features.test.js: the page's later features in a real browser (Debian's
// chromium, driven by playwright-core): the engine's analysis of a position
// in review. Screenshots: build/e2e-artifacts/.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer, ROOT } = require('../server/lib.js');

const ART = path.join(ROOT, 'build/e2e-artifacts');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
let srv, browser;

test.before(async () => {
  fs.mkdirSync(ART, { recursive: true });
  srv = await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
test.after(async () => {
  if (browser) await browser.close();
  if (srv) await srv.stop();
});

async function newPage(opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 }, ...opts });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { throw e; });
  page.on('dialog', (d) => d.accept());
  return page;
}
const shot = (page, name) => page.screenshot({ path: path.join(ART, name + '.png') });
const atPly = (page, n) => page.waitForFunction((n) => window.takApp.state && window.takApp.state.ply === n, n);
const click = (page, square) => page.click(`[data-square=${square}]`);

test('review: the engine analyses the position shown, once the game is over', async () => {
  const p = await newPage();
  await p.goto(srv.url + '/');
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#size', '4');
  await p.selectOption('#level', '1');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  await click(p, 'a1');
  await atPly(p, 2);
  await click(p, 'b2');
  await atPly(p, 4);
  assert.ok(await p.isDisabled('#analyze'), 'no analysis during the game');
  await p.click('#resign');
  await p.waitForSelector('#result:not([hidden])');
  // Step back to the position after 1. a1 .., and ask.
  await p.click('#moves span[data-ply="2"]');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 2);
  await p.click('#analyze');
  await p.waitForFunction(() => /Best: [a-d][1-4]/.test(document.getElementById('analysis').textContent));
  assert.match(await p.textContent('#analysis'), /Engine, depth \d+: /);
  await shot(p, 'review-analysis');
  // Another position: the old answer goes away until asked again.
  await p.keyboard.press('Home');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 0);
  assert.ok(await p.isHidden('#analysis'));
  await p.click('#analyze');
  await p.waitForFunction(() => window.takApp.analysis && window.takApp.analysis.ply === 0);
  assert.match(await p.textContent('#analysis'), /Best: [a-d][1-4]/);
  await p.context().close();
});
