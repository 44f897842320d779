// analysis-edits.test.js: editing a game on the analysis board (issue 43):
// its PTN tags in a form, kept in this browser and written in its PTN, what
// cannot be meant refused with a message naming the tag, Size held while
// there are moves and Komi judging the game again; every change to the tree
// undone and redone, by the keys and the buttons, but never while typing; a
// PTN or TPS file dropped or chosen opens as a new kept board, any other
// file refused by name with nothing lost.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { browserForTests, newPage, shot, atPly } = require('./lib.js');
const { ROOT } = require('../server/lib.js');

const env = browserForTests(test);
// A 3x3 game that fills the board: White ahead by one flat, so F-0 without
// komi and 0-F with 1.5.
const FILLED = '[Size "3"]\n[Result "F-0"]\n\n1. c1 b1 2. b3 b2 3. Sa3 Sc3 4. a2 a1 5. c2 F-0\n';

const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
// The WCAG 2 A/AA violations inside `selector`, one line each (as a11y.test.js finds them).
async function violations(page, selector) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ content: AXE });
  const r = await page.evaluate((s) => window.axe.run(s, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }), selector);
  return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

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
  assert.match(ptn, /5\. c2( \{[^}]*\})?\n0-F\n$/); // (the review's notes come with a pasted game, unless the komi changes first)
  // Kept (a quarter-second after a change), under its players' names.
  await p.waitForFunction(() => /#g=/.test(location.hash) && /Ann – Bo/.test(document.getElementById('ab-recent-list').textContent));
  await shot(p, 'analysis-tags');
  assert.deepEqual(await violations(p, '#ab-tags'), []);
  assert.deepEqual(await violations(p, '#ab-load'), []);
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

// The main line and the branches as the tree writes them, and its notes and marks.
const tree = (p) => p.evaluate(() => TakTree.toDoc(app.analysisBoard.tree).lines.map((l) =>
  l.plies.map((x) => x.ptn + (x.marks || '') + (x.comment ? `{${x.comment}}` : '')).join(' ')));
async function play(p, moves) {
  for (const m of moves) { await p.fill('#ptn-input', m); await p.press('#ptn-input', 'Enter'); }
}
const unfocus = (p) => p.evaluate(() => document.activeElement.blur());

test('undo and redo: a move, a note, a mark, a branch deleted and promoted, a tag; Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y and the buttons; a text field keeps its own undo', async () => {
  const p = await newPage(env.browser);
  await openBoard(p);
  await paste(p, '');
  await p.waitForFunction(() => app.state.size === 5);
  assert.ok(await p.isDisabled('#ab-undo') && await p.isDisabled('#ab-redo'), 'nothing to undo or redo yet');
  await play(p, ['a1', 'e5', 'c3']);
  await atPly(p, 3);
  // In the move box, Ctrl+Z is the box's own.
  await p.press('#ptn-input', 'Control+z');
  assert.deepEqual(await tree(p), ['a1 e5 c3']);
  await unfocus(p);
  await p.keyboard.press('Control+z');
  await atPly(p, 2);
  assert.deepEqual(await tree(p), ['a1 e5']);
  await p.keyboard.press('Control+Shift+z');
  await atPly(p, 3);
  assert.deepEqual(await tree(p), ['a1 e5 c3']);
  await p.keyboard.press('Control+z');
  await p.keyboard.press('Control+y');
  await atPly(p, 3);
  assert.deepEqual(await tree(p), ['a1 e5 c3']);
  // A note typed is one change; while typing, Ctrl+Z is the field's.
  await p.click('#ab-note');
  await p.keyboard.type('sharp');
  await p.keyboard.press('Control+z');
  assert.deepEqual(await p.evaluate(() => [app.analysisBoard.redo.length, app.state.ply]), [0, 3], 'the board\'s undo did not run');
  await p.fill('#ab-note', 'sharp');
  await unfocus(p);
  assert.deepEqual(await tree(p), ['a1 e5 c3{sharp}']);
  await p.keyboard.press('Control+z');
  await p.waitForFunction(() => !document.querySelector('#ab-tree .note'));
  assert.deepEqual(await tree(p), ['a1 e5 c3']);
  assert.equal(await p.inputValue('#ab-note'), '');
  await p.click('#ab-redo');
  assert.deepEqual(await tree(p), ['a1 e5 c3{sharp}']);
  // A mark, by the buttons.
  await p.selectOption('#ab-marks', '?');
  assert.deepEqual(await tree(p), ['a1 e5 c3?{sharp}']);
  await p.click('#ab-undo');
  assert.deepEqual(await tree(p), ['a1 e5 c3{sharp}']);
  assert.equal(await p.inputValue('#ab-marks'), '');
  await p.click('#ab-redo');
  assert.deepEqual(await tree(p), ['a1 e5 c3?{sharp}']);
  // A branch: deleted and back, promoted and back.
  await unfocus(p);
  await p.keyboard.press('ArrowLeft');
  await atPly(p, 2);
  await play(p, ['d3']);
  await atPly(p, 3);
  await unfocus(p);
  assert.deepEqual(await tree(p), ['a1 e5 c3?{sharp}', 'd3']);
  await p.click('#ab-delete');
  await atPly(p, 2);
  assert.deepEqual(await tree(p), ['a1 e5 c3?{sharp}']);
  await p.keyboard.press('Control+z');
  await p.waitForFunction(() => app.state.moves.join(' ') === 'a1 e5 d3');
  assert.deepEqual(await tree(p), ['a1 e5 c3?{sharp}', 'd3']);
  await p.click('#ab-promote');
  assert.deepEqual(await tree(p), ['a1 e5 d3', 'c3?{sharp}']);
  await p.keyboard.press('Control+z');
  assert.deepEqual(await tree(p), ['a1 e5 c3?{sharp}', 'd3']);
  await p.keyboard.press('Control+Shift+z');
  assert.deepEqual(await tree(p), ['a1 e5 d3', 'c3?{sharp}']);
  // A tag.
  await p.click('#ab-tags summary');
  assert.equal(await setTag(p, 'Player1', 'Ann'), '');
  await unfocus(p);
  assert.match(await exported(p), /\[Player1 "Ann"\]/);
  await unfocus(p);
  await p.keyboard.press('Control+z');
  assert.equal(await p.inputValue('#ab-tag-Player1'), '');
  assert.doesNotMatch(await exported(p), /Player1/);
  await shot(p, 'analysis-undo');
  // A change after an undo: nothing left to redo.
  await unfocus(p);
  await play(p, ['b2']);
  await p.waitForFunction(() => !app.analysisBoard.redo.length);
  assert.ok(await p.isDisabled('#ab-redo'));
  assert.ok(!(await p.isDisabled('#ab-undo')));
  await p.context().close();
});

// Drops a file named `name` holding `text` on the board.
async function drop(p, name, text) {
  const dt = await p.evaluateHandle(([n, t]) => {
    const d = new DataTransfer();
    d.items.add(new File([t], n, { type: 'text/plain' }));
    return d;
  }, [name, text]);
  await p.dispatchEvent('#board', 'dragenter', { dataTransfer: dt });
  await p.dispatchEvent('#board', 'dragover', { dataTransfer: dt });
  await p.dispatchEvent('#board', 'drop', { dataTransfer: dt });
}
const plies = (p) => p.evaluate(() => TakTree.toDoc(app.analysisBoard.tree).lines.map((l) => l.plies.map((x) => x.ptn).join(' ')));
const kept = (p) => p.evaluate(() => JSON.parse(localStorage.getItem('tak.analysis')) || []);

test('files: a PTN dropped on the board and a TPS chosen with the button open as new kept boards; a file that is neither is refused by name, nothing lost', async () => {
  const p = await newPage(env.browser);
  await openBoard(p);
  await paste(p, '');
  await p.waitForFunction(() => app.state.size === 5);
  await play(p, ['a1', 'e5']);
  await p.waitForFunction(() => /#g=/.test(location.hash));
  const first = await p.evaluate(() => app.analysisBoard.id);
  // A PTN file as other tools write them: a byte-order mark, CRLF line ends.
  await drop(p, 'club.ptn', '\ufeff[Size "6"]\r\n[Player1 "Ann"]\r\n[Player2 "Bo"]\r\n\r\n1. a6 f1 2. c3 d4 {sharp}\r\n');
  await p.waitForFunction(() => app.state.size === 6 && app.state.ply === 4);
  await p.waitForFunction((f) => app.analysisBoard.id !== f && location.hash.includes('#g=' + app.analysisBoard.id), first);
  assert.deepEqual(await plies(p), ['a6 f1 c3 d4']);
  assert.match(await p.evaluate(() => app.analysisBoard.node.comment), /^sharp/); // (the review's score may follow)
  const dropped = await p.evaluate(() => app.analysisBoard.id);
  assert.deepEqual((await kept(p)).slice(0, 2), [dropped, first], 'a new board, listed first; the one before kept');
  assert.match(await p.textContent('#ab-recent-list'), /Ann – Bo, 6×6, 4 plies/);
  // Neither PTN nor TPS, empty, or not text: refused by name, nothing changed.
  for (const [name, text, why] of [['notes.txt', 'buy milk\n', /neither a PTN game .* nor a TPS position/], ['empty.ptn', '\r\n', /it is empty/],
    ['broken.ptn', '[Size "5"]\n\n1. a1 a1\n', /^broken\.ptn was not opened: .*a1/], ['picture.png', '\x89PNG\r\n\x1a\n\0\0', /not text/]]) {
    await p.evaluate(() => { document.getElementById('message').textContent = ''; });
    await drop(p, name, text);
    await p.waitForFunction(() => document.getElementById('message').textContent);
    const said = await p.textContent('#message');
    assert.ok(said.startsWith(name + ' was not opened: '), said);
    assert.match(said, why);
    assert.equal(await p.evaluate(() => app.analysisBoard.id), dropped);
    assert.deepEqual(await plies(p), ['a6 f1 c3 d4']);
    assert.deepEqual((await kept(p)).slice(0, 2), [dropped, first]);
  }
  await shot(p, 'analysis-file-refused');
  // The button, for the keyboard: a TPS position in a .txt file.
  const tps = 'x5/x5/x2,1,x2/x5/2,x4 2 2';
  await p.setInputFiles('#ab-file', { name: 'position.txt', mimeType: 'text/plain', buffer: Buffer.from(tps + '\n') });
  await p.waitForFunction((t) => app.state.tps === t && app.state.size === 5, tps);
  await p.waitForFunction(() => /#g=/.test(location.hash) && (JSON.parse(localStorage.getItem('tak.analysis')) || []).length === 3);
  assert.deepEqual((await kept(p)).slice(1), [dropped, first]);
  await p.context().close();
});
