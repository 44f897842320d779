// browser.test.js: the page in a real browser (Debian's chromium, driven by
// playwright-core; nothing is downloaded): a road win with a stack move made
// by clicks, between two browser contexts joined by the invitation link; a
// flat win on 3x3 with walls placed by the rotate button and by right-click;
// a takeback against the engine; the server killed and restarted mid-game
// while the page reconnects by itself. Screenshots: build/e2e-artifacts/.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { startServer } = require('../server/lib.js');
const { browserForTests, newPage: openPage, shot, atPly, freeSquare } = require('./lib.js');

const env = browserForTests(test);
const newPage = (opts) => openPage(env.browser, opts);

async function newGame(page, { opponent = 'friend', size = 3, color = 'white', level = 1 } = {}) {
  await page.goto(env.srv.url + '/');
  await page.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await page.check(`input[name=opponent][value=${opponent}]`);
  await page.selectOption('#size', String(size));
  await page.selectOption('#level', String(level));
  await page.check(`input[name=color][value=${color}]`);
  await page.click('#new-form button[type=submit]');
  await page.waitForSelector('[data-square=a1]');
  await atPly(page, 0);
}

// Two players: A creates, B follows A's invitation link.
async function twoPlayers(size) {
  const a = await newPage();
  await newGame(a, { size });
  const invite = await a.inputValue('#links label:has-text("Invite") input');
  assert.match(invite, /#invite=/);
  const b = await newPage();
  await b.goto(invite);
  await b.waitForFunction(() => window.takApp.seat === 'black' && window.takApp.state);
  assert.doesNotMatch(b.url(), /invite/, 'the secret leaves the address bar');
  return { a, b };
}

async function click(page, square, button = 'left') {
  await page.click(`[data-square=${square}]`, { button });
}

test('road win by clicks, two browsers joined by the invitation link', async () => {
  const { a, b } = await twoPlayers(3);
  const turns = [[a, 'c3'], [b, 'a3'], [a, 'a2'], [b, 'c2'], [a, 'b1'], [b, 'b3']];
  for (const [i, [p, sq]] of turns.entries()) {
    await click(p, sq);
    await atPly(a, i + 1);
    await atPly(b, i + 1);
  }
  // White lifts b1 and drops it on a1: a1-a2-a3 is a road.
  await click(a, 'b1');
  const hinted = await a.$$eval('.hint', (h) => h.length);
  assert.ok(hinted >= 1, 'legal drops are highlighted');
  await shot(a, 'road-carrying');
  await click(a, 'a1');
  await atPly(b, 7);
  await b.waitForSelector('#result:not([hidden])');
  assert.match(await b.textContent('#result'), /White wins by road.*R-0/);
  assert.match(await a.textContent('#moves'), /b1</);
  await shot(b, 'road-win');
  await a.context().close(); await b.context().close();
});

test('flat win on a full 3x3 board, walls by the rotate button and by right-click', async () => {
  const { a, b } = await twoPlayers(3);
  const step = async (p, sq, how) => {
    if (how === 'rotate') await p.click('#rotate');
    if (how === 'right') await click(p, sq, 'right');
    await click(p, sq);
  };
  const turns = [[a, 'a1'], [b, 'c3'], [a, 'b2'], [b, 'a3', 'rotate'], [a, 'b1', 'right'],
    [b, 'c1', 'rotate'], [a, 'c2'], [b, 'a2'], [a, 'b3']];
  for (const [i, [p, sq, how]] of turns.entries()) {
    await step(p, sq, how);
    await atPly(a, i + 1);
  }
  await a.waitForSelector('#result:not([hidden])');
  assert.match(await a.textContent('#result'), /White wins on flats.*F-0|flats.*F-0/i);
  assert.match(await a.textContent('#moves'), /Sa3.*Sb1.*Sc1/s);
  await shot(a, 'flat-win');
  await a.context().close(); await b.context().close();
});

test('typed PTN, refused moves say why, takeback against the engine, review and export', async () => {
  const p = await newPage();
  await newGame(p, { opponent: 'engine', size: 5, level: 1 });
  await p.fill('#ptn-input', 'Sa1');
  await p.press('#ptn-input', 'Enter');
  await p.waitForFunction(() => /illegal/.test(document.getElementById('message').textContent));
  await p.fill('#ptn-input', 'a1');
  await p.press('#ptn-input', 'Enter');
  await atPly(p, 2); // the engine answered
  await click(p, await freeSquare(p, ['c3', 'b2', 'd4']));
  await atPly(p, 4);
  await p.click('#takeback');
  await atPly(p, 2);
  assert.equal(await p.$$eval('#moves span', (s) => s.length), 2);
  // Review: step back with the keyboard, then export.
  await p.keyboard.press('Home');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 0);
  assert.match(await p.textContent('#turn'), /Viewing/);
  await p.keyboard.press('End');
  await p.waitForFunction(() => window.takApp.view === null);
  await p.click('#export-ptn');
  await p.waitForFunction(() => /\[Size "5"\]/.test(document.getElementById('export').value));
  await p.click('#export-tps');
  assert.match(await p.inputValue('#export'), /^[x0-9,/SC]+ [12] \d+$/);
  await shot(p, 'takeback-review');
  await p.context().close();
});

test('phone-sized layout shows the whole board', async () => {
  const p = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await newGame(p, { size: 8 });
  const box = await p.locator('#board').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board ${box.width} px wide`);
  await shot(p, 'phone');
  await p.context().close();
});

test('server killed and restarted mid-game: the page reconnects and play goes on', async () => {
  let own = await startServer();
  const p = await newPage();
  const base = own.url;
  await p.goto(base + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#size', '4');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  await click(p, 'a1');
  await atPly(p, 2);
  await own.kill();
  await p.waitForFunction(() => /reconnecting/.test(document.getElementById('conn').textContent));
  await shot(p, 'restart-disconnected');
  own = await startServer({ db: own.db, port: own.port });
  await p.waitForFunction(() => document.getElementById('conn').textContent === 'connected', null, { timeout: 15000 });
  await atPly(p, 2);
  await click(p, await freeSquare(p, ['d4', 'b2', 'c3']));
  await atPly(p, 4);
  assert.match(await p.textContent('#moves'), /a1.*d4/s);
  await shot(p, 'restart-resumed');
  await p.context().close();
  assert.equal(await own.stop(), 0);
});
