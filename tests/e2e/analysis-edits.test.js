// analysis-edits.test.js: editing a game on the analysis board (issue 43):
// its PTN tags in a form, kept in this browser and written in its PTN, what
// cannot be meant refused with a message naming the tag, Size held while
// there are moves and Komi judging the game again.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { browserForTests, newPage, shot } = require('./lib.js');

const env = browserForTests(test);
// A 3x3 game that fills the board: White ahead by one flat, so F-0 without
// komi and 0-F with 1.5.
const FILLED = '[Size "3"]\n[Result "F-0"]\n\n1. c1 b1 2. b3 b2 3. Sa3 Sc3 4. a2 a1 5. c2 F-0\n';

async function openBoard(p) {
  await p.goto(env.srv.url + '/analysis');
  await p.waitForFunction(() => window.app && app.analysisBoard && abEngine.tak);
}
async function paste(p, text) {
  await p.fill('#ab-paste', text);
  await p.click('#ab-load button[type=submit]');
}
const exported = async (p) => { await p.click('#ab-export'); return p.inputValue('#export'); };
// Types `value` into the tag's field and presses Enter; answers the message.
async function setTag(p, name, value) {
  await p.evaluate(() => { document.getElementById('message').textContent = ''; });
  await p.fill(`#ab-tag-${name}`, value);
  await p.press(`#ab-tag-${name}`, 'Enter');
  return p.textContent('#message');
}

test('tags: edited in a form, kept across a reload and in the PTN; a bad Date or Size refused by name, Size held on a game with moves, Komi judges the game again', async () => {
  const p = await newPage(env.browser);
  await openBoard(p);
  await paste(p, FILLED);
  await p.waitForFunction(() => app.state.size === 3 && app.state.result);
  assert.equal(await p.evaluate(() => app.state.result.code), 'F-0');
  await p.click('#ab-tags summary');
  assert.equal(await setTag(p, 'Player1', 'Ann'), '');
  await p.fill('#ab-tag-Player2', 'Bo');
  await p.press('#ab-tag-Player2', 'Tab'); // leaving the field keeps it too
  assert.match(await setTag(p, 'Date', '2026-11-28'), /^Date must be .*YYYY\.MM\.DD.*"2026-11-28"/);
  assert.equal(await p.inputValue('#ab-tag-Date'), '', 'the refused value put back');
  assert.match(await setTag(p, 'Date', '2026.02.30'), /^Date /);
  assert.equal(await setTag(p, 'Date', '2026.11.28'), '');
  assert.equal(await setTag(p, 'Event', 'Club night'), '');
  // Size: not on a game with moves, never outside 3 to 8.
  assert.match(await setTag(p, 'Size', '4'), /^Size cannot change on a game with moves/);
  assert.match(await setTag(p, 'Size', '9'), /^Size must be a board size from 3 to 8, not "9"/);
  assert.equal(await p.inputValue('#ab-tag-Size'), '3');
  assert.equal(await p.evaluate(() => app.state.size), 3);
  assert.match(await setTag(p, 'Komi', '99'), /^Komi must be/);
  assert.match(await setTag(p, 'Result', 'white won'), /^Result /);
  // Komi: the flat count goes the other way, the result and its tag with it.
  assert.equal(await setTag(p, 'Komi', '1.5'), '');
  await p.waitForFunction(() => app.state.komi === 1.5 && app.state.result.code === '0-F');
  let ptn = await exported(p);
  for (const tag of ['[Player1 "Ann"]', '[Player2 "Bo"]', '[Date "2026.11.28"]', '[Event "Club night"]', '[Komi "1.5"]', '[Result "0-F"]']) {
    assert.ok(ptn.includes(tag), `${tag} in\n${ptn}`);
  }
  assert.match(ptn, /5\. c2\n0-F\n$/);
  // Kept (a quarter-second after a change), under its players' names.
  await p.waitForFunction(() => /#g=/.test(location.hash) && /Ann – Bo/.test(document.getElementById('ab-recent-list').textContent));
  await shot(p, 'analysis-tags');
  // A reload: the same board, tags and komi kept in this browser.
  await p.reload();
  await p.waitForFunction(() => window.app && app.analysisBoard && app.state && app.state.size === 3);
  assert.equal(await p.evaluate(() => [app.state.komi, app.state.result.code].join(' ')), '1.5 0-F');
  assert.deepEqual(await p.$$eval('#ab-tags-list input', (l) => Object.fromEntries(l.map((i) => [i.dataset.tag, i.value]))),
    { Player1: 'Ann', Player2: 'Bo', Date: '2026.11.28', Event: 'Club night', Site: '', Round: '', Result: '0-F', Size: '3', Komi: '1.5', Clock: '', Opening: '' });
  assert.equal(await exported(p), ptn);
  // An empty board takes another size.
  await paste(p, '');
  await p.waitForFunction(() => app.state.size === 5 && !app.analysisBoard.tree.root.children.length);
  await p.click('#ab-tags summary');
  assert.equal(await setTag(p, 'Size', '6'), '');
  await p.waitForFunction(() => app.state.size === 6 && app.state.board.length === 36);
  assert.match(await exported(p), /\[Size "6"\]/);
  await p.context().close();
});
