// review.test.js: review and analysis as players use them (issue 43): real
// games of 80+ plies on the analysis board at a laptop's, a wide screen's and
// a phone's size (the board a good size, nothing sideways, every stone of a
// tall stack seen), the tree kept over a reload, Back and Forward, keys and
// marks, branch names and notes kept, and the smaller defects of the page.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { browserForTests, newPage, shot, openPtn: openAt } = require('./lib.js');
const { ROOT } = require('../server/lib.js');

const env = browserForTests(test);
const SHARED = process.env.TAK_SHARED || path.join(ROOT, '../shared');
const game = (name) => fs.readFileSync(path.join(SHARED, 'games/real', name + '.ptn'), 'utf8');
const openPtn = (p, ptn) => openAt(p, env.srv.url, ptn); // resolves once its tree is shown

// The board's size and the page's sideways scroll.
const measure = (p) => p.evaluate(() => {
  const b = document.getElementById('board').getBoundingClientRect();
  return { board: Math.round(b.width), height: Math.round(b.height), left: Math.round(b.left), right: Math.round(b.right),
    scroll: document.documentElement.scrollWidth, width: innerWidth };
});


// The tallest stack of the position shown: its square, its height, and the
// screen rows of its stones (each stone's top edge, bottom first).
const tallest = (p) => p.evaluate(() => {
  const s = app.state, h = (x) => x.replace(/[SC]$/, '').length;
  let sq = 0;
  s.board.forEach((x, i) => { if (h(x) > h(s.board[sq])) sq = i; });
  const name = String.fromCharCode(97 + (sq % s.size)) + (Math.floor(sq / s.size) + 1);
  const tops = [...document.querySelectorAll(`[data-square=${name}] .pw, [data-square=${name}] .pb`)]
    .map((e) => e.getBoundingClientRect().bottom);
  return { name, height: h(s.board[sq]), tops };
});

// The board at a laptop's, a wide screen's and a phone's size, with real
// games of 80 plies and more (0542_s6 ends on a stack of 13; 0120_s5 has one
// of 13 at ply 95; 0040_s8 is 139 plies of 8x8): the board keeps its size
// whatever the length of the move list, nothing scrolls sideways, every
// stone of the tall stack shows (2.5 px of it at least), the moves wrap as words (spaces between
// them) and, on the phone, the engine's lines are on the first screen.
for (const [w, h, least] of [[1280, 900, 700], [1920, 1080, 880], [390, 844, 330]]) {
  test(`layout at ${w}x${h}: real games of 80+ plies, the board ${least} px or more, no sideways scroll, a tall stack whole`, async () => {
    const p = await newPage(env.browser, { viewport: { width: w, height: h } });
    for (const [name, ply] of [['0542_s6', 80], ['0120_s5', 95], ['0040_s8', 137]]) {
      await openPtn(p, game(name));
      // Opened from the paste box (on a phone, below the board), the board is in view.
      const shown = await p.evaluate(() => { const b = document.getElementById('board').getBoundingClientRect(); return [Math.round(b.top), Math.round(b.bottom)]; });
      assert.ok(shown[0] >= 0 && shown[1] <= h, `${name} at ${w}x${h}: the board opened is in view (${shown})`);
      await p.evaluate((n) => analysisStep(n), ply);
      await p.waitForFunction((n) => app.state.ply === n, ply);
      const m = await measure(p);
      assert.ok(m.board >= least, `${name} at ${w}x${h}: the board is ${m.board} px`);
      assert.ok(m.board <= h, `${name} at ${w}x${h}: the board (${m.board} px) fits the screen's height`);
      assert.ok(m.scroll <= w, `${name} at ${w}x${h}: the page is ${m.scroll} px wide`);
      assert.ok(m.left >= 0 && m.right <= w, `${name} at ${w}x${h}: the board is on the screen`);
      const t = await tallest(p);
      assert.ok(t.height >= 11, `${name}: a tall stack at ply ${ply}`);
      assert.equal(t.tops.length, t.height, `${name}: every stone of the ${t.height} on ${t.name} drawn`);
      const gaps = t.tops.slice(1).map((y, i) => t.tops[i] - y);
      // 2.5 px: an edge and its outline, what an 8x8 board on a phone has room for.
      assert.ok(Math.min(...gaps) >= 2.5, `${name}: each stone of ${t.name} shows 2.5 px or more (${gaps.map((g) => g.toFixed(1))})`);
      // The moves as words: spaces between them, copied as PTN reads them.
      const text = await p.evaluate(() => document.getElementById('ab-tree').innerText);
      assert.match(text, /^1\. \S+ \S+\s+2\. \S+ \S+/, `${name}: the moves' text`);
      const tree = await p.evaluate(() => { const e = document.getElementById('ab-tree'), r = e.getBoundingClientRect();
        return { right: r.right, scroll: e.scrollWidth, client: e.clientWidth }; });
      assert.ok(tree.right <= w && tree.scroll <= tree.client, `${name}: the move list within the screen (${JSON.stringify(tree)})`);
      if (w < 500) {
        const top = await p.evaluate(() => document.getElementById('ab-lines').getBoundingClientRect().top + scrollY);
        assert.ok(top < h - 60, `${name}: the engine's lines start on the first screen (at ${Math.round(top)} px)`);
      }
    }
    await shot(p, `review-layout-${w}x${h}`);
    await p.context().close();
  });
}

// What the board holds now: its PTN (branches, notes, marks) and where it is.
// A pasted game of bare moves gets the review's notes when its graph comes:
// waited for, so that what a test compares is not changed under it.
const reviewed = (p) => p.waitForFunction(() => { const ab = app.analysisBoard; return ab && !ab.annotate && ab.graph && ab.graph.scores; },
  null, { timeout: 90000 });
const work = (p) => p.evaluate(() => ({ ptn: abEngine.tak.writePtn(abDoc(app.analysisBoard)), at: TakTree.address(app.analysisBoard.node) }));
const ready = (p) => p.waitForFunction(() => app.analysisBoard && app.state && abEngine.tak && app.analysisBoard.tree.root.children.length > 0);

test('the analysis board keeps its work: a reload, Back and Forward bring back the tree, notes and position; recent boards to return to', async () => {
  const p = await newPage(env.browser);
  await openPtn(p, game('0542_s6'));
  await reviewed(p);
  // A branch at ply 30 with a note and a mark, and a note on the main line.
  await p.evaluate(() => analysisStep(29));
  await p.waitForFunction(() => app.state.ply === 29);
  const other = await p.evaluate(() => app.state.legal.find((m) => m !== app.analysisBoard.node.children[0].ptn && /^[a-f][1-6]$/.test(m)));
  await p.fill('#ptn-input', other);
  await p.press('#ptn-input', 'Enter');
  await p.waitForFunction(() => app.state.ply === 30);
  await p.fill('#ab-note', 'a quieter idea');
  await p.selectOption('#ab-marks', '?!');
  const first = await work(p);
  assert.match(first.ptn, /\{a quieter idea\}/);
  // A reload: the same tree, at the same place.
  await p.waitForFunction(() => /#g=/.test(location.hash)); // saved, its id in the address
  await p.reload();
  await ready(p);
  assert.deepEqual(await work(p), first, 'after a reload');
  // Another game opened: Back is the first board again, Forward the second.
  await openPtn(p, game('0010_s5'));
  await reviewed(p);
  const second = await work(p);
  await p.waitForFunction((ptn) => abEngine.tak.writePtn(abDoc(app.analysisBoard)) === ptn && /#g=/.test(location.hash), second.ptn);
  await p.goBack();
  await p.waitForFunction((ptn) => app.analysisBoard && abEngine.tak.writePtn(abDoc(app.analysisBoard)) === ptn, first.ptn);
  assert.deepEqual(await work(p), first, 'after Back');
  await p.goForward();
  await p.waitForFunction((ptn) => app.analysisBoard && abEngine.tak.writePtn(abDoc(app.analysisBoard)) === ptn, second.ptn);
  // Away to the lobby and back.
  await p.click('#new-game-btn');
  await p.waitForSelector('#new-game:not([hidden])');
  await p.goBack();
  await p.waitForFunction((ptn) => app.analysisBoard && abEngine.tak.writePtn(abDoc(app.analysisBoard)) === ptn, second.ptn);
  // The recent boards: both, the first one a click away.
  const names = await p.$$eval('#ab-recent-list li button.ab-recent-open', (l) => l.map((b) => b.textContent));
  assert.equal(names.length, 2, names.join(' | '));
  assert.match(names[1], /Torinku/);
  await p.click('#ab-recent-list li:nth-child(2) button.ab-recent-open');
  await p.waitForFunction((ptn) => app.analysisBoard && abEngine.tak.writePtn(abDoc(app.analysisBoard)) === ptn, first.ptn);
  assert.deepEqual(await work(p), first, 'from the recent boards');
  await shot(p, 'review-recent');
  await p.context().close();
});

test('keys: → after choosing a mark steps on (the mark stays); ←/→ after a click on the board step, Tab then arrows move over the squares', async () => {
  const p = await newPage(env.browser);
  await openPtn(p, game('0010_s5'));
  await p.evaluate(() => analysisStep(10));
  await p.waitForFunction(() => app.state.ply === 10);
  await p.focus('#ab-marks');
  await p.selectOption('#ab-marks', '?');
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => app.state.ply === 11);
  assert.equal(await p.evaluate(() => TakTree.along(app.analysisBoard.node, 10).marks), '?', 'the mark chosen stays');
  await p.keyboard.press('ArrowLeft');
  await p.waitForFunction(() => app.state.ply === 10);
  assert.equal(await p.evaluate(() => app.analysisBoard.node.marks), '?');
  // A click on the board plays a move; the arrows then step back and on.
  const sq = await p.evaluate(() => app.state.legal.find((m) => /^[a-e][1-5]$/.test(m)));
  await p.click(`[data-square=${sq}]`);
  await p.waitForFunction(() => app.state.ply === 11);
  await p.keyboard.press('ArrowLeft');
  await p.waitForFunction(() => app.state.ply === 10);
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => app.state.ply === 11);
  // No focus frame on a clicked square (it is for the keyboard's cursor).
  assert.equal(await p.$eval(`[data-square=${sq}] .cell`, (c) => getComputedStyle(c).strokeWidth), '1px', 'no frame after a click');
  // The keyboard's cursor: Tab onto the board, the arrows move it, the frame shows.
  await p.focus('#ptn-input');
  await p.evaluate(() => { document.getElementById('ptn-input').blur(); });
  await p.evaluate(() => document.querySelector('#board .sq[tabindex="0"]').focus());
  await p.keyboard.press('Tab'); await p.keyboard.press('Shift+Tab'); // a keyboard's focus
  const before = await p.evaluate(() => document.activeElement.dataset.square);
  await p.keyboard.press('ArrowUp');
  const after = await p.evaluate(() => document.activeElement.dataset.square);
  assert.notEqual(after, before, 'the cursor moved');
  assert.equal(await p.evaluate(() => app.state.ply), 11, 'no step');
  assert.equal(await p.$eval(`[data-square=${after}] .cell`, (c) => getComputedStyle(c).strokeWidth), '4px', 'the keyboard cursor framed');
  await p.context().close();
});

test('branch names as PTN Ninja gave them are kept; a note cannot hold "}" (PTN ends a note there), so what is written reads back the same', async () => {
  const p = await newPage(env.browser);
  const ptn = ['[Size "5"]', '', '1. a1 e5 2. c3 d3 3. c4 d4 4. c2 d2', '', '{1w2}', '1. e1 a5', '', '{Sharper}', '4. -- b2 5. b3', '',
    '{Sharper/5w1}', '5. b4', ''].join('\n');
  await openPtn(p, ptn);
  assert.deepEqual(await p.$$eval('#ab-tree .branch-name', (l) => l.map((x) => x.textContent)), ['1w2', 'Sharper', 'Sharper/5w1']);
  const written = await p.evaluate(() => abEngine.tak.writePtn(abDoc(app.analysisBoard)));
  assert.match(written, /\{1w2\}\n1\. e1 a5/);
  assert.match(written, /\{Sharper\}\n4\. -- b2/);
  assert.match(written, /\{Sharper\/5w1\}\n5\. b4/);
  // A new branch at White's first move: a name of its own, not one taken.
  await p.evaluate(() => analysisStep(0));
  await p.waitForFunction(() => app.state.ply === 0);
  await p.fill('#ptn-input', 'b1');
  await p.press('#ptn-input', 'Enter');
  await p.waitForFunction(() => app.state.ply === 1);
  assert.deepEqual(await p.$$eval('#ab-tree .branch-name', (l) => l.map((x) => x.textContent)), ['1w2', '1w1', 'Sharper', 'Sharper/5w1']);
  // A note with a "}": refused with a word, and what is kept reads back the same.
  await p.fill('#ab-note', 'a {braced aside}');
  assert.match(await p.textContent('#message'), /\}/);
  const note = await p.inputValue('#ab-note');
  assert.ok(!note.includes('}'), note);
  const back = await p.evaluate(() => {
    const text = abEngine.tak.writePtn(abDoc(app.analysisBoard));
    return { note: app.analysisBoard.node.comment, read: abEngine.tak.readPtn(text).lines.find((l) => l.plies[0].ptn === 'b1').plies[0].comment };
  });
  assert.equal(back.note, note);
  assert.equal(back.read, note, 'the note reads back as written');
  await p.context().close();
});

test('smaller: a game opens at its end; a share link with a copy button, gone when another game opens; a PTN without tags takes the size chosen; text that is no TPS or PTN said so; a forced win as a player reads it', async () => {
  const p = await newPage(env.browser);
  await p.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPtn(p, game('0010_s5'));
  // At the end, as PTN Ninja opens a game.
  const end = await p.evaluate(() => TakTree.lineEnd(app.analysisBoard.tree.root).depth);
  assert.ok(end >= 40);
  await p.waitForFunction((n) => app.state.ply === n, end, { timeout: 5000 });
  // Share: the link, a button that copies it and says so.
  await p.click('#ab-share');
  await p.waitForFunction(() => document.getElementById('ab-link').value);
  const link = await p.inputValue('#ab-link');
  await p.click('#ab-copy');
  await p.waitForFunction(() => /copied/i.test(document.getElementById('ab-copied').textContent));
  assert.equal(await p.evaluate(() => navigator.clipboard.readText()), link);
  // Another game: the old link is not shown with it.
  await openPtn(p, '1. a1 e5 2. c3 d3');
  assert.ok(await p.isHidden('#ab-link'), 'the last game\'s link is gone');
  assert.ok(await p.isHidden('#ab-copy'));
  // That PTN had no tags: the size chosen beside it (5) was taken.
  assert.deepEqual(await p.evaluate(() => [app.state.size, app.state.ply]), [5, 4]);
  await p.selectOption('#ab-size', '6');
  await p.fill('#ab-paste', '1. a1 f6 2. c3 d4');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.state.size === 6 && app.state.ply === 4);
  // Not a position nor a game: said in those words.
  await p.fill('#ab-paste', 'hello world');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => document.getElementById('message').textContent);
  const said = await p.textContent('#message');
  assert.match(said, /neither .*PTN.* nor .*TPS/i);
  assert.doesNotMatch(said, /rows/);
  // A road in one: "White wins in 1" on the bar, not "-W1".
  await p.fill('#ab-paste', 'x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.state.tps === 'x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5');
  await p.waitForFunction(() => document.querySelector('#eval-bar .eval-text').textContent);
  assert.equal(await p.textContent('#eval-bar .eval-text'), 'W in 1');
  assert.equal(await p.getAttribute('#eval-bar', 'aria-label'), 'Evaluation: White wins in 1 move');
  assert.match(await p.textContent('#ab-lines li:first-child .score'), /^White wins in 1$/);
  await p.context().close();
});

test('a TPS with too many stones says how many the board has', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/analysis');
  await p.waitForFunction(() => window.takApp.analysisBoard && abEngine.tak);
  // 8x8: 60 White stones, 50 in a reserve; the first rows already hold 56.
  const full = Array(7).fill('1,1,1,1,1,1,1,1').concat(['1,1,1,1,x4']).join('/') + ' 2 40';
  await p.fill('#ab-paste', full);
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => document.getElementById('message').textContent);
  assert.match(await p.textContent('#message'), /too many White stones: 60 on the board, but a reserve holds 50/);
  await p.context().close();
});

test('a rated seek taken without a name: a player\'s words and the name field to fill, then Play works', async () => {
  const { openLobby } = require('./lib.js');
  const a = await newPage(env.browser), b = await newPage(env.browser);
  for (const p of [a, b]) await openLobby(p, env.srv.url);
  await a.fill('#player-name', 'Rater');
  await a.click('#seek-form button[type=submit]');
  await b.waitForFunction(() => [...document.querySelectorAll('#seeks tbody tr')].some((tr) => tr.textContent.startsWith('Rater')));
  const row = b.locator('#seeks tbody tr', { hasText: 'Rater' });
  await row.locator('button').click();
  await b.waitForFunction(() => document.getElementById('lobby-message').textContent);
  const said = await b.textContent('#lobby-message');
  assert.doesNotMatch(said, /identify|secret|send '/, said);
  assert.match(said, /rated.*name/i);
  assert.equal(await b.evaluate(() => document.activeElement.id), 'player-name', 'the name field is offered');
  await b.fill('#player-name', 'Taker');
  await row.locator('button').click();
  await b.waitForFunction(() => window.takApp.state && window.takApp.seat);
  await a.context().close(); await b.context().close();
});

test('play: on a phone the lobby\'s table fits and its Play buttons show whole; on a desktop the clocks and buttons hold still from ply to ply', async () => {
  const { openLobby, freeSquare, atPly } = require('./lib.js');
  const a = await newPage(env.browser), b = await newPage(env.browser, { viewport: { width: 390, height: 844 } });
  for (const p of [a, b]) await openLobby(p, env.srv.url);
  await a.fill('#player-name', 'Seeker_with_a_long');
  await a.selectOption('#seek-form select[name=tc]', '10+10');
  await a.click('#seek-form button[type=submit]');
  await b.waitForFunction(() => [...document.querySelectorAll('#seeks tbody tr')].some((tr) => tr.textContent.startsWith('Seeker')));
  const fit = await b.evaluate(() => {
    const t = document.getElementById('seeks').getBoundingClientRect(), btn = document.querySelector('#seeks tbody button');
    return { table: Math.round(t.right), page: document.documentElement.scrollWidth, btnRight: Math.round(btn.getBoundingClientRect().right),
      cut: btn.scrollWidth > btn.clientWidth, text: btn.textContent };
  });
  assert.ok(fit.table <= 390 && fit.page <= 390, `the table within the phone: ${JSON.stringify(fit)}`);
  assert.ok(fit.btnRight <= 390 && !fit.cut, `the Play button whole: ${JSON.stringify(fit)}`);
  await shot(b, 'review-lobby-phone');
  await a.context().close(); await b.context().close();
  // A game against the engine with a clock, at a desktop's size.
  const p = await newPage(env.browser, { viewport: { width: 1280, height: 900 } });
  await openLobby(p, env.srv.url);
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#tc', '5+5');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  const where = () => p.evaluate(() => ['clock-white', 'resign', 'draw', 'ptn-input'].map((id) => Math.round(document.getElementById(id).getBoundingClientRect().top)));
  const seen = new Set();
  for (let ply = 0; ply < 6; ply += 2) {
    await atPly(p, ply);
    seen.add(JSON.stringify(await where())); // our turn
    const sq = await freeSquare(p, ['a1', 'e5', 'a5', 'e1', 'c3', 'b2', 'd4']);
    await p.click(`[data-square=${sq}]`);
    await p.waitForFunction((n) => window.takApp.state.ply === n + 1 || window.takApp.state.ply === n + 2, ply);
    if (await p.evaluate((n) => window.takApp.state.ply === n + 1, ply)) seen.add(JSON.stringify(await where())); // the engine's turn
  }
  assert.equal(seen.size, 1, `clocks and buttons in one place: ${[...seen].join(' ')}`);
  await p.context().close();
});

// The lobby's games said "5×5, clock 3+2" and "5×5: 0-1": nobody's names.
test('the lobby says who plays in a game being played and one just finished, and the engine\'s level', async () => {
  const { openLobby } = require('./lib.js');
  const a = await newPage(env.browser), b = await newPage(env.browser), w = await newPage(env.browser);
  for (const p of [a, b, w]) await openLobby(p, env.srv.url);
  await a.fill('#player-name', 'Lister');
  await a.selectOption('#seek-form select[name=tc]', '3+2');
  await a.selectOption('#seek-form select[name=color]', 'white');
  await a.click('#seek-form button[type=submit]');
  await b.waitForFunction(() => [...document.querySelectorAll('#seeks tbody tr')].some((tr) => tr.textContent.startsWith('Lister')));
  await b.fill('#player-name', 'Listee');
  await b.locator('#seeks tbody tr', { hasText: 'Lister' }).locator('button').click();
  for (const p of [a, b]) await p.waitForFunction(() => window.takApp.state && window.takApp.seat);
  const id = await a.evaluate(() => window.takApp.gameId);
  const entry = async (list) => {
    await w.waitForSelector(`#${list} a[href="/g/${id}"]`);
    return w.textContent(`#${list} a[href="/g/${id}"]`);
  };
  assert.equal(await entry('playing'), 'Lister vs Listee, 5×5, clock 3+2');
  await a.click('#resign');
  assert.equal(await entry('recent'), 'Lister vs Listee, 5×5: 0-1');
  // A game against the engine, by a player who gave no name.
  const e = await newPage(env.browser);
  await e.goto(env.srv.url + '/');
  await e.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await e.check('input[name=opponent][value=engine]');
  await e.check('input[name=color][value=black]');
  await e.selectOption('#level', '3');
  await e.selectOption('#tc', '5+5');
  await e.click('#new-form button[type=submit]');
  await e.waitForFunction(() => window.takApp.state && window.takApp.gameId);
  const eid = await e.evaluate(() => window.takApp.gameId);
  await w.waitForSelector(`#playing a[href="/g/${eid}"]`);
  assert.equal(await w.textContent(`#playing a[href="/g/${eid}"]`), 'the engine (level 3) vs anonymous, 5×5, clock 5+5');
  await shot(w, 'review-lobby-names');
  for (const p of [a, b, w, e]) await p.context().close();
});

test('a game that is not there is said once, plainly', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/g/zzzzzzzz');
  await p.waitForFunction(() => document.getElementById('new-message').textContent);
  const said = await p.textContent('#new-message');
  assert.equal(said, 'There is no game zzzzzzzz here: start a new one.');
  await p.context().close();
});

test('a 1+0 clock never shows more than its minute, whatever the skew between the clocks', async () => {
  const { openLobby, freeSquare } = require('./lib.js');
  const p = await newPage(env.browser);
  await openLobby(p, env.srv.url);
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#tc', '1+0');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.clock);
  await p.click(`[data-square=${await freeSquare(p, ['a1', 'e5'])}]`);
  await p.waitForFunction(() => window.takApp.state.ply >= 1 && window.takApp.state.clock.running);
  // This browser's clock a second and a half behind the server's estimate.
  await p.evaluate(() => { window.takApp.offset -= 1500; });
  await p.waitForTimeout(250);
  for (const c of ['white', 'black']) assert.doesNotMatch(await p.textContent('#clock-' + c), /1:0[1-9]/, c);
  await p.context().close();
});

test('the opponent\'s move is announced to a screen reader; Black sees its side at the bottom, and the board flips', async () => {
  const { openLobby } = require('./lib.js');
  const p = await newPage(env.browser);
  await openLobby(p, env.srv.url);
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.check('input[name=color][value=black]');
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.ply === 1);
  // The engine's first move, said in a polite live region.
  const live = await p.evaluate(() => {
    const e = [...document.querySelectorAll('[aria-live]')].find((x) => /played/.test(x.textContent));
    return e ? { text: e.textContent, live: e.getAttribute('aria-live') } : null;
  });
  assert.ok(live, 'a live region says the move');
  assert.match(live.text, new RegExp(`White played ${await p.evaluate(() => window.takApp.state.moves[0])}`));
  // Black at the bottom: a1 at the top right, e5 at the bottom left.
  const at = (sq) => p.$eval(`[data-square=${sq}]`, (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  let a1 = await at('a1'), e5 = await at('e5');
  assert.ok(a1.y < e5.y && a1.x > e5.x, `flipped for Black: a1 ${JSON.stringify(a1)}, e5 ${JSON.stringify(e5)}`);
  await shot(p, 'review-flipped');
  await p.click('#flip');
  a1 = await at('a1'); e5 = await at('e5');
  assert.ok(a1.y > e5.y && a1.x < e5.x, 'flipped back');
  await p.context().close();
});

test('a game\'s move list reads and copies as PTN, spaces between the moves', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', '[Size "5"]\n\n1. a1 e5 2. c3 d3');
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.ply === 4);
  assert.match(await p.evaluate(() => document.getElementById('moves').innerText.replace(/\s+/g, ' ').trim()), /^1\. a1 e5 2\. c3 d3$/);
  await p.context().close();
});

test('a game link that is not there, with an invitation or a seat in it, is said once, plainly, where a game can be started', async () => {
  const p = await newPage(env.browser);
  for (const hash of ['#invite=abcdefgh', '#s=abcdefghijklmnop']) {
    await p.goto(env.srv.url + '/g/zzzzzzzz' + hash);
    await p.waitForSelector('#new-game:not([hidden])');
    await p.waitForFunction(() => document.getElementById('new-message').textContent);
    assert.equal(await p.textContent('#new-message'), 'There is no game zzzzzzzz here: start a new one.', hash);
    assert.equal(await p.textContent('#message'), '', hash);
  }
  await p.context().close();
});

test('an address the site does not know: a 404 page in the site\'s look, saying so, with a way home', async () => {
  const p = await newPage(env.browser);
  await p.addInitScript(() => localStorage.setItem('tak.dark', '1'));
  const res = await p.goto(env.srv.url + '/no/such/page');
  assert.equal(res.status(), 404);
  assert.match(res.headers()['content-type'], /^text\/html/);
  assert.match(await p.title(), /not found/i);
  assert.match(await p.textContent('main'), /no page at \/no\/such\/page/);
  // The site's header and stylesheet, dark as chosen in this browser.
  assert.equal(await p.$eval('header', (e) => getComputedStyle(e).backgroundColor), 'rgb(59, 47, 34)');
  await p.waitForFunction(() => document.documentElement.dataset.dark === '1');
  assert.equal(await p.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(28, 29, 32)');
  await shot(p, 'not-found');
  await p.click('main a[href="/"]');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby);
  assert.equal(new URL(p.url()).pathname, '/');
  await p.context().close();
});

test('settings (board, dark page, wobbly stacks, sound) in one menu on every page; folded behind a button on a phone', async () => {
  const p = await newPage(env.browser);
  const shown = () => p.evaluate(() => ['board-theme', 'dark', 'wobbly', 'mute'].map((id) => document.getElementById(id).checkVisibility()));
  for (const path of ['/', '/analysis', '/players', '/p/nobody-here']) {
    await p.goto(env.srv.url + path);
    await p.waitForFunction(() => window.takApp && window.takApp.connected);
    assert.deepEqual(await shown(), [true, true, true, true], path);
  }
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  assert.deepEqual(await shown(), [true, true, true, true], 'a game');
  // Chosen on the leaderboard, kept on the home page.
  await p.goto(env.srv.url + '/players');
  await p.check('#dark');
  await p.selectOption('#board-theme', 'green');
  await p.check('#mute');
  assert.equal(await p.evaluate(() => document.documentElement.dataset.dark), '1');
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.connected);
  assert.deepEqual(await p.evaluate(() => [document.documentElement.dataset.dark, document.documentElement.dataset.board,
    document.getElementById('mute').checked, window.takApp.muted]), ['1', 'green', true, true]);
  await p.context().close();
  // A phone: the header's Settings button opens the menu; Escape closes it.
  const q = await newPage(env.browser, { viewport: { width: 390, height: 844 } });
  for (const path of ['/', '/players', '/analysis']) {
    await q.goto(env.srv.url + path);
    await q.waitForFunction(() => window.takApp && window.takApp.connected);
    assert.equal(await q.isVisible('#dark'), false, path);
    await q.click('#settings-btn');
    assert.equal(await q.getAttribute('#settings-btn', 'aria-expanded'), 'true', path);
    assert.equal(await q.isVisible('#dark'), true, path);
    await q.click('#dark');
    assert.equal(await q.isVisible('#dark'), true, 'the menu stays open while it is used');
    await q.keyboard.press('Escape');
    assert.equal(await q.isVisible('#dark'), false, path);
    assert.equal(await q.evaluate(() => document.activeElement.id), 'settings-btn');
    assert.equal(await q.evaluate(() => document.documentElement.scrollWidth), 390, `${path}: nothing sideways`);
  }
  assert.equal(await q.evaluate(() => document.documentElement.dataset.dark), '1', 'clicked three times: dark');
  await q.context().close();
});
