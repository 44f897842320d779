// lib.js: what the browser tests share: one `tak serve` and one Chromium
// (Debian's, driven by playwright-core) for a test file, fresh pages that
// fail the test on a script error and accept the page's confirmations, and
// screenshots kept in build/e2e-artifacts/.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer, ROOT } = require('../server/lib.js');

const ART = path.join(ROOT, 'build/e2e-artifacts');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Starts the server and the browser before the file's tests and closes them
// after; the object returned is filled in once they have started.
function browserForTests(test) {
  const env = { srv: null, browser: null };
  test.before(async () => {
    fs.mkdirSync(ART, { recursive: true });
    env.srv = await startServer();
    env.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  test.after(async () => {
    if (env.browser) await env.browser.close();
    if (env.srv) await env.srv.stop();
  });
  return env;
}

async function newPage(browser, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 }, ...opts });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { throw e; });
  page.on('dialog', (d) => d.accept());
  return page;
}

const shot = (page, name) => page.screenshot({ path: path.join(ART, name + '.png') });
const atPly = (page, n) => page.waitForFunction((n) => window.takApp.state && window.takApp.state.ply === n, n);

// Opens the front page and waits until it follows the lobby (its first list
// came), so the socket is open: a seek clicked before that is refused with
// "not connected" and never appears.
async function openLobby(page, url) {
  await page.goto(url + '/');
  await page.waitForFunction(() => window.takApp && window.takApp.lobby);
}

// The first of these squares where a placement is legal: the engine's levels
// choose among near-best moves at random, so a test cannot know which it took.
const freeSquare = (page, squares) =>
  page.evaluate((sqs) => sqs.find((sq) => window.takApp.state.legal.includes(sq)), squares);

// Waits until the analysis board holds a pasted game's moves; when they do
// not come, fails saying what the page showed instead (its message line,
// its address, what the paste box held, its board's moves), with a
// screenshot, so that a failure seen once in CI says why.
async function pasted(page, name = 'pasted') {
  try {
    await page.waitForFunction(() => app.analysisBoard && app.analysisBoard.tree.root.children.length > 0);
  } catch (e) {
    const seen = await page.evaluate(() => ({
      message: document.getElementById('message').textContent,
      address: location.pathname + location.hash,
      paste: document.getElementById('ab-paste').value.length + ' characters in the paste box',
      board: app.analysisBoard ? app.analysisBoard.tree.root.children.length + ' first moves' : 'none',
    })).catch((err) => ({ page: err.message }));
    await shot(page, name + '-failed').catch(() => {});
    throw new Error(`${e.message}\nthe page showed: ${JSON.stringify(seen)}`);
  }
}

// Opens the analysis board of the server at `url` (unless the page is on it
// already), pastes `ptn` into its form and waits for its moves on the board.
async function openPtn(page, url, ptn) {
  if (!/\/analysis/.test(page.url())) await page.goto(url + '/analysis');
  await page.waitForFunction(() => window.takApp.analysisBoard && abEngine.tak);
  await page.fill('#ab-paste', ptn);
  await page.click('#ab-load button[type=submit]');
  await pasted(page);
}

module.exports = { browserForTests, newPage, shot, atPly, freeSquare, openLobby, openPtn };
