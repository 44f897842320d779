// annotations.test.js: the review's results travel (issue 43, item 6): a
// judged game's marks ('?', '??'), scores and better moves become PTN marks
// and notes ("{-3.10 best d3}") on the game page's list and export, on the
// analysis board and in its export, for a game pasted there too; and the graph, with its axis, values
// and tips (hover, focus, keys, a click), for any game on the analysis
// board, a pasted one too, worked out in the page. A review that comes
// after a branch was played survives Undo and Redo of it; +20 flats at the
// end of a line that is not over (or of a game resigned) reads as a score.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { browserForTests, newPage, shot, openPtn } = require('./lib.js');
const { ROOT } = require('../server/lib.js');

const env = browserForTests(test);
const SHARED = process.env.TAK_SHARED || path.join(ROOT, '../shared');
// A real 5x5 game of 24 plies, 0-R, with blunders in it (tak analyze --nodes 20000).
const GAME = fs.readFileSync(path.join(SHARED, 'games/real/0077_s5.ptn'), 'utf8');
const esc = (t) => t.replace(/[+>*\\-]/g, '\\$&');
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
// The WCAG 2 A/AA violations inside `selector`, one line each (as a11y.test.js finds them).
async function violations(page, selector) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ content: AXE });
  const r = await page.evaluate((s) => window.axe.run(s, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }), selector);
  return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}
const flats = (cp) => (cp < 0 ? '-' : '+') + (Math.abs(cp) / 100).toFixed(2);

// What the review says of each ply of `plies` ({ ptn, marks, comment }):
// the marks as given, and the note the review writes.
function expected(g, plies) {
  return plies.map((p, i) => {
    const best = g.marks[i] && g.best[i] !== p.ptn ? ' best ' + g.best[i] : '';
    return [g.marks[i], flats(g.scores[i + 1]) + best];
  });
}
const got = (plies) => plies.map((p) => [(p.marks || '').replace(/[^?!]/g, ''), p.comment]);

test('review results travel: marks, scores and the better move beside a ?? on the game page, in its PTN, on the analysis board and in its PTN', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', GAME);
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.result);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  const { g, moves } = await p.evaluate(() => ({ g: takApp.graph, moves: takApp.state.moves }));
  const blunder = g.marks.findIndex((m, i) => m === '??' && g.best[i] && g.best[i] !== moves[i]);
  assert.ok(blunder >= 0, 'a blunder with another move the engine prefers');
  // Beside each ?? in the move list, the better move (as a PTN note).
  const beside = await p.$$eval('#moves .better', (l) => l.map((b) => [b.previousElementSibling.dataset.ply, b.textContent]));
  const want = g.marks.map((m, i) => [m, i]).filter(([m, i]) => m === '??' && g.best[i] !== moves[i]).map(([, i]) => [String(i + 1), `{best ${g.best[i]}}`]);
  assert.deepEqual(beside, want);
  // The game's PTN: every ply's note with its score, each mark, the better move beside it.
  await p.click('#export-review');
  await p.waitForFunction(() => /\{/.test(document.getElementById('export').value));
  const exported = await p.evaluate(() => abEngine.tak.readPtn(document.getElementById('export').value));
  assert.equal(exported.lines[0].plies.length, moves.length);
  assert.deepEqual(got(exported.lines[0].plies), expected(g, exported.lines[0].plies));
  assert.match(await p.inputValue('#export'), new RegExp(`${esc(moves[blunder])}\\?\\? \\{[+-]\\d+\\.\\d\\d best ${esc(g.best[blunder])}\\}`));
  // On the analysis board: the same marks and notes in the tree, the graph
  // beside it at once (carried, not worked out again), the better move a
  // button that plays it as a branch.
  await p.click('#open-analysis-board');
  await p.waitForFunction(() => app.analysisBoard && app.analysisBoard.graph);
  const tree = await p.evaluate(() => TakTree.path(TakTree.lineEnd(app.analysisBoard.tree.root)).map((n) => ({ ptn: n.ptn, marks: n.marks, comment: n.comment })));
  assert.deepEqual(got(tree), expected(g, tree));
  assert.ok(await p.evaluate(() => !!document.querySelector('#ab #graph:not([hidden])')), 'the graph on the board');
  assert.deepEqual(await p.evaluate(() => app.analysisBoard.graph.scores), g.scores);
  const board = await p.evaluate(() => abEngine.tak.readPtn(abEngine.tak.writePtn(abDoc(app.analysisBoard))));
  assert.deepEqual(got(board.lines[0].plies), expected(g, board.lines[0].plies));
  await p.click('#ab-export');
  assert.match(await p.inputValue('#export'), new RegExp(`${esc(moves[blunder])}\\?\\? \\{[+-]\\d+\\.\\d\\d best ${esc(g.best[blunder])}\\}`));
  const button = p.locator(`#ab-tree .mv[data-ply="${blunder + 1}"] + .note .better`);
  assert.equal(await button.textContent(), g.best[blunder]);
  await shot(p, 'annotations-board');
  await button.click();
  await p.waitForFunction((b) => app.analysisBoard.node.ptn === b.best && app.state.ply === b.ply, { best: g.best[blunder], ply: blunder + 1 });
  assert.equal(await p.evaluate(() => !!TakTree.branchStart(app.analysisBoard.node)), true, 'a branch, the game kept');
  await p.context().close();
});

test('a graph for a game pasted on the analysis board: axis and values, tips on hover and focus, the arrows between points, Enter and a click go there', async () => {
  const p = await newPage(env.browser);
  await openPtn(p, env.srv.url, GAME);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  const n = await p.evaluate(() => TakTree.lineEnd(app.analysisBoard.tree.root).depth);
  assert.equal(await p.$eval('#graph polyline', (l) => l.getAttribute('points').split(' ').length), n + 1, 'a point a position');
  const g = await p.evaluate(() => app.analysisBoard.graph);
  // The axis: flats up the side, plies along the bottom.
  const axis = await p.$$eval('#graph text.axis', (l) => l.map((t) => t.textContent));
  assert.ok(['+5', '0', '-5', '10', '20'].every((a) => axis.includes(a)), axis.join(' '));
  // Hovering a point: its ply, move and score.
  const tip = () => p.$eval('#graph .tip text', (t) => t.textContent);
  const moves = await p.evaluate(() => TakTree.plies(TakTree.lineEnd(app.analysisBoard.tree.root)));
  const pt = async (i) => p.$eval(`#graph [data-ply="${i}"]`, (c) => { const r = c.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
  let at = await pt(5);
  await p.mouse.move(at.x, at.y);
  assert.match(await tip(), new RegExp(`^ply 5, ${esc(moves[4])}\\S*: ${esc(flats(g.scores[5]))}`));
  // Nothing there that a screen reader or a weak eye would miss, light and dark.
  assert.deepEqual(await violations(p, '#graph'), []);
  await p.evaluate(() => document.documentElement.setAttribute('data-dark', '1'));
  assert.deepEqual(await violations(p, '#graph'), []);
  await p.evaluate(() => document.documentElement.setAttribute('data-dark', '0'));
  // The keyboard: one Tab stop (the ply shown), the arrows between points, Enter goes there.
  assert.deepEqual(await p.$$eval('#graph [tabindex="0"]', (l) => l.map((c) => c.dataset.ply)), [String(n)]);
  await p.mouse.move(0, 0); // away: a scroll under a still pointer would hover another point
  await p.focus('#graph [tabindex="0"]');
  assert.match(await tip(), new RegExp(`^ply ${n}, `));
  await p.keyboard.press('ArrowLeft');
  await p.keyboard.press('ArrowLeft');
  assert.equal(await p.evaluate(() => document.activeElement.dataset.ply), String(n - 2));
  // (Two plies before Black's road: the win the search finds, in words.)
  assert.match(await tip(), new RegExp(`^ply ${n - 2}, ${esc(moves[n - 3])}\\S*: ([+-]\\d+\\.\\d\\d|Black wins in 1)`));
  assert.equal(await p.evaluate(() => app.state.ply), n, 'the arrows on the graph move over it, not the game');
  await p.keyboard.press('Enter');
  await p.waitForFunction((k) => app.state.ply === k, n - 2);
  assert.equal(await p.evaluate(() => document.activeElement.dataset.ply), String(n - 2), 'the focus stays on the point');
  // A click on a point goes to its ply (the point found when clicked: the
  // engine's lines above the graph change height as it thinks, so a point's
  // place measured before can be stale by the click, as CI once found).
  await p.click('#graph [data-ply="3"]');
  await p.waitForFunction(() => app.state.ply === 3);
  await shot(p, 'annotations-graph');
  // The main line changed (its last move deleted): the graph is worked out again for it.
  await p.evaluate(() => analysisStep(Infinity));
  await p.waitForFunction((k) => app.state.ply === k, n);
  await p.click('#ab-delete');
  await p.waitForFunction((k) => document.querySelector('#graph polyline') && document.querySelector('#graph polyline').getAttribute('points').split(' ').length === k, n, { timeout: 60000 });
  await p.context().close();
});

// The page's engine answers no graph until the test calls
// window.releaseGraph(): a review then comes when the test chooses.
const holdGraph = (p) => p.evaluate(() => {
  const call = app.worker.call;
  window.graphHeld = new Promise((go) => { window.releaseGraph = go; });
  app.worker.call = (op, ...args) => (op === 'graph' ? window.graphHeld.then(() => call(op, ...args)) : call(op, ...args));
});

test('a game pasted on the analysis board: the review\'s marks and notes put into its tree as for a game of the server\'s, kept and exported; not on moves played after', async () => {
  const p = await newPage(env.browser);
  await openPtn(p, env.srv.url, GAME);
  await p.waitForFunction(() => app.analysisBoard.graph && app.analysisBoard.graph.scores, null, { timeout: 60000 });
  const g = await p.evaluate(() => app.analysisBoard.graph);
  assert.ok(g.marks.includes('??'), 'a blunder in the game');
  const mainLine = () => p.evaluate(() => TakTree.path(TakTree.lineEnd(app.analysisBoard.tree.root)).map((n) => ({ ptn: n.ptn, marks: n.marks, comment: n.comment })));
  await p.waitForFunction(() => document.querySelector('#ab-tree .note'));
  const tree = await mainLine();
  assert.deepEqual(got(tree), expected(g, tree));
  const blunder = g.marks.findIndex((m, i) => m === '??' && g.best[i] && g.best[i] !== tree[i].ptn);
  assert.match(await p.textContent(`#ab-tree .mv[data-ply="${blunder + 1}"]`), /\?\?$/);
  await p.click('#ab-export');
  const doc = await p.evaluate(() => abEngine.tak.readPtn(document.getElementById('export').value));
  assert.deepEqual(got(doc.lines[0].plies), expected(g, doc.lines[0].plies));
  // Kept with the board: a reload brings the marks back, and adds none.
  await p.waitForFunction(() => /#g=/.test(location.hash) && /\?\?/.test(localStorage.getItem('tak.analysis.' + app.analysisBoard.id)));
  await p.reload();
  await p.waitForFunction(() => window.app && app.analysisBoard && app.analysisBoard.tree.root.children.length > 0);
  assert.deepEqual(await mainLine(), tree);
  await p.context().close();
  // A pasted game continued before its review came: the review is not put on it.
  const q = await newPage(env.browser);
  await q.goto(env.srv.url + '/analysis');
  await q.waitForFunction(() => window.takApp.analysisBoard && abEngine.tak && app.worker && app.worker.call);
  // The page's engine holds the graph until d4 is played (a fast machine's
  // review came before it, and was rightly put on the game as pasted).
  await holdGraph(q);
  await q.fill('#ab-paste', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c4');
  await q.click('#ab-load button[type=submit]');
  await q.waitForFunction(() => app.state && app.state.ply === 5);
  await q.fill('#ptn-input', 'd4');
  await q.press('#ptn-input', 'Enter');
  await q.waitForFunction(() => app.state.ply === 6);
  await q.evaluate(() => window.releaseGraph());
  await q.waitForFunction(() => app.analysisBoard.graph && app.analysisBoard.graph.scores && app.analysisBoard.graph.scores.length === 7, null, { timeout: 60000 });
  assert.deepEqual(await q.evaluate(() => TakTree.toDoc(app.analysisBoard.tree).lines[0].plies.filter((x) => x.comment || x.marks)), []);
  await q.context().close();
});

test('a pasted game\'s review that came after a branch was played survives Undo and Redo of that branch; the review itself is no change to undo', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/analysis');
  await p.waitForFunction(() => window.takApp.analysisBoard && abEngine.tak && app.worker && app.worker.call);
  // The page's engine holds the graph until the branch is played: the review comes after it.
  await holdGraph(p);
  await p.fill('#ab-paste', GAME);
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.analysisBoard && app.analysisBoard.tree.root.children.length > 0 && app.analysisBoard.graphing);
  await p.evaluate(() => analysisStep(3));
  await p.waitForFunction(() => app.state.ply === 3);
  const other = await p.evaluate(() => app.state.legal.find((m) => m !== app.analysisBoard.node.children[0].ptn && /^[a-e][1-5]$/.test(m)));
  await p.fill('#ptn-input', other);
  await p.press('#ptn-input', 'Enter');
  await p.waitForFunction(() => app.state.ply === 4 && TakTree.branchStart(app.analysisBoard.node));
  await p.evaluate(() => window.releaseGraph());
  await p.waitForFunction(() => app.analysisBoard.graph && app.analysisBoard.graph.scores && document.querySelector('#ab-tree .note'), null, { timeout: 60000 });
  const g = await p.evaluate(() => app.analysisBoard.graph);
  const mainLine = () => p.evaluate(() => TakTree.path(TakTree.lineEnd(app.analysisBoard.tree.root)).map((n) => ({ ptn: n.ptn, marks: n.marks, comment: n.comment })));
  const reviewed = await mainLine();
  assert.deepEqual(got(reviewed), expected(g, reviewed));
  const branches = () => p.evaluate(() => TakTree.along(app.analysisBoard.tree.root, 3).children.length);
  // Undo: the branch goes, the review stays; Redo: the branch is back, the review still there.
  await p.click('#ab-undo');
  await p.waitForFunction(() => app.state.ply === 3);
  assert.equal(await branches(), 1, 'the branch undone');
  assert.deepEqual(await mainLine(), reviewed);
  assert.equal(await p.isDisabled('#ab-undo'), true, 'the review is no change of the player\'s to undo');
  await p.click('#ab-redo');
  await p.waitForFunction(() => app.state.ply === 4);
  assert.equal(await branches(), 2, 'the branch redone');
  assert.deepEqual(await mainLine(), reviewed);
  // A new change after an undo (a mark): its undo takes the mark only.
  await p.click('#ab-undo');
  await p.waitForFunction(() => app.state.ply === 3);
  await p.selectOption('#ab-marks', '!');
  await p.waitForFunction(() => app.analysisBoard.node.marks === '!');
  await p.click('#ab-undo');
  await p.waitForFunction(() => app.analysisBoard.node.marks !== '!');
  assert.deepEqual(await mainLine(), reviewed);
  await p.context().close();
});

test('a forced win as players read it: "White wins in 1" in the graph\'s tip and the engine\'s lines, "W in 1" on the bar, never +20.00; the graph puts won positions at its top', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/analysis');
  await p.waitForFunction(() => window.takApp.analysisBoard && abEngine.tak);
  // White's road: c1 at ply 11 (c5 c4 c3 c2 c1), in one from ply 10.
  await p.fill('#ab-paste', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c2 d2 4. c4 d4 5. c5 d1 6. c1');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.state && app.state.ply === 11);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  const g = await p.evaluate(() => app.analysisBoard.graph);
  assert.equal(g.wins[10], 1, 'the search found the road in one');
  assert.deepEqual([g.scores[10], g.scores[11]], [2000, 2000]);
  const label = (i) => p.getAttribute(`#graph [data-ply="${i}"]`, 'aria-label');
  assert.match(await label(10), /^ply 10, d1\S*: White wins in 1/);
  assert.match(await label(11), /^ply 11, c1\S*: White has won/);
  for (let i = 0; i <= 11; i++) assert.doesNotMatch(await label(i), /20\.00/);
  // Won positions at the very top; +10 flats (where a score stops) lower.
  const cy = await p.$$eval('#graph circle', (l) => l.map((c) => +c.getAttribute('cy')));
  assert.deepEqual([cy[10], cy[11]], [3, 3]);
  assert.ok(cy.slice(0, 10).every((y) => y >= 12), cy.join(' '));
  await shot(p, 'annotations-win');
  // The engine's lines and the bar in the position before the road.
  await p.evaluate(() => analysisStep(10));
  await p.waitForFunction(() => app.state.ply === 10 && app.analysisBoard.thinking === app.state.tps && app.analysisBoard.lines[0]);
  await p.waitForFunction(() => /^White wins in 1/.test(document.querySelector('#ab-lines li').textContent));
  assert.equal(await p.textContent('#eval-bar .eval-text'), 'W in 1');
  assert.match(await p.getAttribute('#eval-bar', 'aria-label'), /^Evaluation: White wins in 1 move$/);
  for (const text of await p.$$eval('#ab-lines li', (l) => l.map((x) => x.textContent))) assert.doesNotMatch(text, /20\.00/);
  await p.context().close();
});

test('a game resigned: its PTN out with the review\'s notes, the result and its tag kept, and on the analysis board the same', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c4');
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.ply === 5);
  await p.click('#resign'); // the confirmation is accepted
  await p.waitForFunction(() => window.takApp.state.result);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  await p.click('#export-review');
  await p.waitForFunction(() => /\{/.test(document.getElementById('export').value));
  const ptn = await p.inputValue('#export');
  assert.match(ptn, /\[Result "(1-0|0-1)"\]/);
  // Export PTN itself stays the server's record, as it keeps the game.
  await p.click('#export-ptn');
  await p.waitForFunction(() => !/\{/.test(document.getElementById('export').value));
  assert.equal(await p.inputValue('#export'), await p.evaluate(() => fetch(`/api/games/${takApp.gameId}.ptn`).then((r) => r.text())));
  assert.match(ptn, /1\. a1 \{[+-]\d+\.\d\d\} e5 \{[+-]\d+\.\d\d\}[\s\S]*\n(1-0|0-1)\n/);
  // The board keeps it (its PTN is written to keep it in this browser).
  await p.click('#open-analysis-board');
  await p.waitForFunction(() => app.analysisBoard && /#g=/.test(location.hash));
  assert.match(await p.evaluate(() => abEngine.tak.writePtn(abDoc(app.analysisBoard))), /\[Result "(1-0|0-1)"\][\s\S]*1\. a1 \{/);
  await p.context().close();
});

// Makes the page's engine say that the last position of every graph it
// works out is +20 flats (the most a graph holds) with no win found: what it
// says of a line that ends far ahead but not over, as a search of 20,000
// nodes can.
async function clampLastScore(p) {
  await p.waitForFunction(() => app.worker && app.worker.call);
  await p.evaluate(() => {
    const call = app.worker.call;
    app.worker.call = (op, ...args) => call(op, ...args).then((g) => {
      if (op !== 'graph') return g;
      const last = g.scores.length - 1;
      g.scores[last] = 2000; g.wins[last] = 0;
      return g;
    });
  });
}

test('+20 flats at the end of a line that is not over is a score, not a win: "+20.00 or more", not "White has won", on the analysis board and for a game resigned', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/analysis');
  await p.waitForFunction(() => window.takApp.analysisBoard && abEngine.tak);
  await clampLastScore(p);
  await p.fill('#ab-paste', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c4');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.state && app.state.ply === 5);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  assert.equal(await p.evaluate(() => app.analysisBoard.graph.scores[5]), 2000);
  assert.match(await p.getAttribute('#graph [data-ply="5"]', 'aria-label'), /^ply 5, c4\S*: \+20\.00 or more$/);
  assert.notEqual(await p.getAttribute('#graph [data-ply="5"]', 'cy'), '3', 'drawn as a score, not at the very top');
  await p.context().close();
  // A game resigned: its end is no win on the board either.
  const q = await newPage(env.browser);
  await q.goto(env.srv.url + '/');
  await clampLastScore(q);
  await q.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await q.check('input[name=opponent][value=friend]');
  await q.fill('#import', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c4');
  await q.click('#new-form button[type=submit]');
  await q.waitForFunction(() => window.takApp.state && window.takApp.state.ply === 5);
  await q.click('#resign'); // the confirmation is accepted
  await q.waitForFunction(() => window.takApp.state.result);
  await q.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  assert.match(await q.getAttribute('#graph [data-ply="5"]', 'aria-label'), /^ply 5, c4\S*: \+20\.00 or more$/);
  await q.context().close();
});
