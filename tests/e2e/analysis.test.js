// analysis.test.js: the analysis board. In Node: the module's analyze
// (MultiPV lines as they come), result and setup, and web/tree.js's move
// tree against the PTN document shape. In the page: with the server stopped
// after loading, the board thinks and shows several lines and an
// evaluation, stops at once, takes an engine line as a branch, promotes and
// deletes branches, keeps notes; a share link opens the same position in a
// fresh page; a game opens on it, and its position editor is analysed too.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startServer, ROOT } = require('../server/lib.js');
const { browserForTests, newPage, shot, atPly } = require('./lib.js');
const { TakEngine } = require('../../web/tak-engine.js');
const TakTree = require('../../web/tree.js');

const env = browserForTests(test);
const load = () => TakEngine.load(fs.readFileSync(path.join(ROOT, 'build/wasm/tak.wasm')));
const EMPTY5 = 'x5/x5/x5/x5/x5 1 1';

// The share button builds its link asynchronously (the PTN is compressed),
// so read the link only once it is there, and never an earlier one.
async function share(p) {
  await p.$eval('#ab-link', (e) => { e.value = ''; });
  await p.click('#ab-share');
  await p.waitForFunction(() => document.getElementById('ab-link')?.value);
  return p.inputValue('#ab-link');
}

test('the module: analyze streams several lines a depth, result and setup', async () => {
  const tak = await load();
  const seen = [];
  const tps = '2,x4/x,1,x3/x2,1,2,x/x5/x4,2 1 4';
  const last = tak.analyze(tps, { lines: 3, depth: 6 }, (l) => seen.push(l));
  assert.equal(last.length, 3);
  assert.deepEqual(last.map((l) => l.multipv), [1, 2, 3]);
  assert.ok(new Set(last.map((l) => l.pv[0])).size === 3, 'three different first moves');
  for (const l of last) {
    assert.equal(l.depth, 6);
    let at = tps;
    for (const m of l.pv) at = tak.play(at, m).tps; // every line is legal
  }
  // Every depth reported as it completes, each with its three lines in order.
  assert.deepEqual([...new Set(seen.map((l) => l.depth))], [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(seen.map((l) => l.multipv), Array(6).fill([1, 2, 3]).flat());
  assert.ok(seen.every((l, i) => i === 0 || l.nodes >= seen[i - 1].nodes));
  // A road in one: the winning move first, as a win.
  const road = tak.analyze('x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5', { lines: 2, depth: 3 });
  assert.equal(road[0].pv[0], 'e3');
  assert.equal(road[0].win_in, 1);
  assert.throws(() => tak.analyze('x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 5'), /game is over/);
  // The search's options are reset: a plain search gives one line again.
  assert.equal(tak.search('x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5', { nodes: 5000 }).best, 'e3');
  // result
  assert.deepEqual(tak.result('x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 5'),
    { code: 'R-0', text: 'White wins by road', winner: 0, road: ['a3', 'b3', 'c3', 'd3', 'e3'] });
  assert.equal(tak.result(EMPTY5).code, '');
  // setup: a board as the editor holds it, to a TPS; what the rules refuse, refused
  const board = Array(25).fill('');
  board[0] = '12S'; board[24] = '2C';
  assert.equal(tak.setup(board, { size: 5, turn: 'black' }), 'x4,2C/x5/x5/x5/12S,x4 2 2');
  assert.equal(tak.setup(Array(9).fill(''), { size: 3 }), 'x3/x3/x3 1 1');
  board[1] = '1C2';
  assert.throws(() => tak.setup(board, { size: 5 }), /square b1/);
  assert.throws(() => tak.setup(Array(25).fill('1'.repeat(22)), { size: 5 }), /too many White stones/);
  assert.throws(() => tak.setup(Array(24).fill(''), { size: 5 }), /24 squares, not 25/);
  assert.throws(() => tak.setup(Array(25).fill('2'), { size: 5, capstones: 0, stones: 10 }), /Black/);
});

test('tree.js: the PTN document and back, adding, promoting, deleting', async () => {
  const tak = await load();
  const play = (t, m) => tak.play(t, m);
  const ply = (ptn, comment = null, marks = null) => ({ ptn, comment, marks });
  const doc = {
    tags: [['Size', '5'], ['Player1', 'A']], preface: 'before the game',
    size: 5, komi: 0, stones: 21, capstones: 1, tps: EMPTY5,
    lines: [
      { name: '', parent: -1, start: 0, preface: null, plies: [ply('a1'), ply('e5'), ply('c3', 'the centre', '!'), ply('d3'), ply('c4')], result: 'R-0' },
      { name: '2w1', parent: 0, start: 2, preface: 'an idea', plies: [ply('b2', 'quieter', '?'), ply('b3')], result: '' },
      { name: '2w1/2b1', parent: 1, start: 3, preface: null, plies: [ply('c2')], result: '' },
      { name: '2w2', parent: 0, start: 2, preface: null, plies: [ply('d4')], result: '' },
      { name: '3w1', parent: 0, start: 4, preface: null, plies: [ply('e1')], result: '' },
    ],
  };
  const tree = TakTree.fromDoc(doc, EMPTY5, play);
  assert.deepEqual(TakTree.toDoc(tree), doc, 'read and written back unchanged');
  // The module writes it as PTN and reads that back to the same document.
  assert.deepEqual(TakTree.toDoc(TakTree.fromDoc(tak.readPtn(tak.writePtn(doc)), null, play)), doc);
  const lines = (t) => TakTree.toDoc(t).lines.map((l) => `${l.name}|${l.parent}|${l.start}|${l.plies.map((p) => p.ptn).join(' ')}`);
  // Where a node is, as a link says it, and back.
  const b3 = TakTree.find(tree, '4,3:1');
  assert.deepEqual(TakTree.plies(b3), ['a1', 'e5', 'b2', 'b3']);
  assert.equal(TakTree.address(b3), '4,3:1');
  // A move already there is found, not added again; a new one is a branch.
  assert.equal(TakTree.add(tree, tree.root, 'a1', play), tree.root.children[0]);
  const e1 = TakTree.add(tree, tree.root, 'e1', play);
  assert.equal(tree.root.children.length, 2);
  assert.deepEqual(lines(tree).slice(-1), ['1w1|0|0|e1']);
  TakTree.remove(e1);
  // Promote: the branch and the line it leaves change places; nested names follow.
  assert.ok(TakTree.promote(b3));
  assert.deepEqual(lines(tree), ['|-1|0|a1 e5 b2 b3', '2w1|0|2|c3 d3 c4', '2b1|0|3|c2', '2w2|0|2|d4', '2w1/3w1|1|4|e1']);
  assert.equal(TakTree.toDoc(tree).lines[1].result, 'R-0', 'the result stays with its moves');
  assert.equal(TakTree.toDoc(tree).lines[1].preface, 'an idea', 'a branch preface stays where the branch leaves its line');
  assert.equal(TakTree.toDoc(tree).lines[0].preface, null);
  assert.equal(TakTree.toDoc(tree).lines[0].plies[2].comment, 'quieter');
  assert.ok(!TakTree.promote(b3), 'on the main line now');
  // Delete a branch: the others keep the names they were read with (2w2).
  TakTree.remove(TakTree.branchStart(TakTree.find(tree, '3,3:1')));
  assert.deepEqual(lines(tree), ['|-1|0|a1 e5 b2 b3', '2b1|0|3|c2', '2w2|0|2|d4']);
  // Branches made here are named in turn, skipping the names taken.
  TakTree.add(tree, TakTree.find(tree, '2'), 'e1', play);
  TakTree.add(tree, TakTree.find(tree, '2'), 'e2', play);
  assert.deepEqual(lines(tree).slice(-2), ['2w1|0|2|e1', '2w3|0|2|e2']);
  // Bad documents say where.
  assert.throws(() => TakTree.fromDoc({ tags: [], lines: [{ name: '', parent: -1, start: 0, plies: [ply('a1'), ply('Ca2')], result: '' }] }, EMPTY5, play),
    /line 0, ply 2 'Ca2'/);
  assert.throws(() => TakTree.fromDoc({ tags: [], lines: [doc.lines[0], { ...doc.lines[1], start: 9 }] }, EMPTY5, play), /2w1.*no ply 10/);
});

// Waits for `n` lines of analysis on the page.
const lines = (p, n = 3) => p.waitForFunction((n) => document.querySelectorAll('#ab-lines li').length >= n, n, { timeout: 20000 });
const linesText = (p) => p.$$eval('#ab-lines li', (l) => l.map((x) => x.textContent));

test('with the server stopped: the board thinks, stops at once, takes lines as branches, promotes, deletes, keeps notes', async () => {
  const own = await startServer();
  const p = await newPage(env.browser);
  await p.goto(own.url + '/');
  await p.waitForFunction(() => abEngine.tak && window.takApp.worker); // prepared after the first paint
  await p.evaluate(() => window.takApp.worker.ready);
  await own.kill();
  await p.waitForSelector('#conn.down');
  await p.click('#analysis-board-btn');
  await lines(p);
  await p.waitForFunction(() => app.analysisBoard.lines[0].depth >= 4);
  assert.match(await p.getAttribute('#eval-bar', 'aria-label'), /^Evaluation: [+-]?\d+\.\d\d$/);
  assert.match(await p.textContent('#ab-status'), /^Depth \d+, [\d.]+[kM]? nodes/);
  await shot(p, 'analysis-thinking');

  // Stop: at once, and nothing changes after it.
  await p.click('#ab-think');
  const stopped = Date.now();
  await p.waitForFunction(() => /stopped/.test(document.getElementById('ab-status').textContent) && !app.analysisBoard.worker);
  assert.ok(Date.now() - stopped < 500, 'stopped within half a second');
  const frozen = await linesText(p);
  await p.waitForTimeout(700);
  assert.deepEqual(await linesText(p), frozen);
  assert.equal(await p.textContent('#ab-think'), 'Start');
  await p.click('#ab-think');
  await p.waitForFunction(() => app.analysisBoard.worker && app.analysisBoard.lines.length >= 3);

  // Moves on the board: a main line a1 e5 c3.
  for (const m of ['a1', 'e5', 'c3']) { await p.fill('#ptn-input', m); await p.press('#ptn-input', 'Enter'); }
  await atPly(p, 3);
  assert.deepEqual(await p.$$eval('#ab-tree .mv', (l) => l.map((x) => x.textContent)), ['a1', 'e5', 'c3']);
  // The keys step along the line; back to move 2 (the engine moves with the
  // board), and a line that is not c3 taken as a branch.
  await p.evaluate(() => document.activeElement.blur());
  await p.keyboard.press('Home');
  await atPly(p, 0);
  await p.keyboard.press('End');
  await atPly(p, 3);
  await p.keyboard.press('ArrowLeft');
  await atPly(p, 2);
  await p.waitForFunction(() => app.analysisBoard.thinking === app.state.tps && app.analysisBoard.lines.length >= 3);
  await p.click('#ab-think'); // the lines hold still while one is picked
  const pick = await p.evaluate(() => {
    const i = app.analysisBoard.lines.findIndex((l) => l.pv[0] !== 'c3' && l.pv.length >= 2);
    return { i, pv: app.analysisBoard.lines[i].pv.slice(0, 2) };
  });
  assert.ok(pick.i >= 0);
  await p.click(`#ab-lines li[data-line="${pick.i + 1}"] .mv[data-k="1"]`);
  await atPly(p, 4);
  assert.deepEqual(await p.evaluate(() => app.state.moves), ['a1', 'e5', ...pick.pv]);
  assert.deepEqual(await p.$$eval('#ab-tree .branch .mv', (l) => l.map((x) => x.textContent)), pick.pv);
  assert.match(await p.textContent('#ab-tree .branch-name'), /^2w1$/);
  assert.equal(await p.textContent('#ab-tree .mv.current'), pick.pv[1]);
  await p.click('#ab-think');
  await p.waitForFunction(() => app.analysisBoard.thinking === app.state.tps && app.analysisBoard.lines.length >= 3);
  // A note on this ply shows in the tree and goes into the document.
  await p.fill('#ab-note', 'worth a look');
  await p.waitForSelector('#ab-tree .note');
  assert.equal(await p.textContent('#ab-tree .note'), '{worth a look}');
  await p.selectOption('#ab-marks', '!?');
  assert.match(await p.textContent('#ab-tree .mv.current'), /!\?$/);
  await shot(p, 'analysis-branch');
  // Promote: the branch becomes the main line, the old one a branch.
  await p.click('#ab-promote');
  let doc = await p.evaluate(() => TakTree.toDoc(app.analysisBoard.tree));
  assert.deepEqual(doc.lines.map((l) => l.plies.map((x) => x.ptn)), [['a1', 'e5', ...pick.pv], ['c3']]);
  assert.deepEqual(doc.lines[0].plies[3], { ptn: pick.pv[1], comment: 'worth a look', marks: '!?' });
  assert.deepEqual(await p.$$eval('#ab-tree .branch .mv', (l) => l.map((x) => x.textContent)), ['c3']);
  assert.ok(await p.isDisabled('#ab-promote'), 'nothing to promote on the main line');
  // Delete: go into the c3 branch and delete it.
  await p.click('#ab-tree .branch .mv');
  await atPly(p, 3);
  await p.click('#ab-delete');
  await atPly(p, 2);
  doc = await p.evaluate(() => TakTree.toDoc(app.analysisBoard.tree));
  assert.equal(doc.lines.length, 1);
  assert.equal(await p.$$eval('#ab-tree .branch', (l) => l.length), 0);
  await p.context().close();
});

test('a share link opens the same position in a fresh page', async () => {
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/analysis');
  await lines(p, 1);
  // A position pasted as TPS, with komi: the link carries the TPS.
  const pasted = '2,x4/x,1,x3/x2,1,2,x/x5/x4,2 1 4';
  await p.fill('#ab-paste', pasted);
  await p.fill('#ab-komi', '1.5');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction((t) => app.state.tps === t, pasted);
  const tpsLink = await share(p);
  assert.equal(tpsLink, env.srv.url + '/analysis#tps=2,x4/x,1,x3/x2,1,2,x/x5/x4,2%201%204&komi=1.5');
  const r = await newPage(env.browser);
  await r.goto(tpsLink);
  await r.waitForFunction(() => app.analysisBoard && app.state);
  assert.deepEqual(await r.evaluate(() => [app.state.tps, app.state.komi]), [pasted, 1.5]);
  await r.context().close();
  // A game played here: the link carries its PTN.
  await p.fill('#ab-paste', '');
  await p.fill('#ab-komi', '0');
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.state.ply === 0 && app.state.komi === 0);
  for (const m of ['a1', 'e5', 'Cc3', 'd4']) { await p.fill('#ptn-input', m); await p.press('#ptn-input', 'Enter'); }
  await atPly(p, 4);
  const link = await share(p);
  assert.ok(link.startsWith(env.srv.url + '/analysis#ptn='), link);
  const tps = await p.evaluate(() => app.state.tps);
  await p.context().close();
  const q = await newPage(env.browser);
  await q.goto(link);
  await q.waitForFunction(() => app.analysisBoard && app.state);
  assert.equal(await q.evaluate(() => app.state.tps), tps);
  await lines(q);
  await shot(q, 'analysis-shared');
  await q.context().close();
});

test('a PTN with branches and notes, pasted: its tree, exported as it came (its review graphed, not written into its notes), shared with the branch shown', async () => {
  const tak = await load();
  // Written as the module writes PTN, so export must give back these very bytes.
  const ptn = tak.writePtn(tak.readPtn(['[Size "6"]', '[Komi "2"]', '[Player1 "Ann"]', '[Player2 "Bo"]', '', '{a practice game}',
    '1. a6 f1 {the far corner} 2. c3 d4? 3. c4', '', '{2b1}', '2. -- Cd3 {solid} 3. d4!', '', '{2b1/3w1}', '3. c2', '', '{3w1}', '3. Cc4', ''].join('\n')));
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/analysis');
  await p.waitForFunction(() => app.analysisBoard);
  await p.fill('#ab-paste', ptn);
  await p.click('#ab-load button[type=submit]');
  await p.waitForFunction(() => app.analysisBoard.tree.root.children.length === 1 && app.state.size === 6);
  assert.deepEqual(await p.$$eval('#ab-tree > .mv', (l) => l.map((x) => x.textContent)), ['a6', 'f1', 'c3', 'd4?', 'c4']);
  assert.deepEqual(await p.$$eval('#ab-tree .branch-name', (l) => l.map((x) => x.textContent)), ['2b1', '2b1/3w1', '3w1']);
  assert.deepEqual(await p.$$eval('#ab-tree .note', (l) => l.map((x) => x.textContent)), ['{a practice game}', '{the far corner}', '{solid}']);
  // Someone's analysis keeps its own notes: the review, once it is there,
  // is in the graph and not written into them (a slower machine's export
  // came after the review and had its scores in every note).
  await p.waitForFunction(() => app.analysisBoard.graph && app.analysisBoard.graph.scores, null, { timeout: 60000 });
  await p.click('#ab-export');
  assert.equal(await p.inputValue('#export'), ptn, 'exported exactly as imported');
  // Into branch 2b1/3w1, a note there, and a link that opens at it.
  await p.click('#ab-tree .branch .branch .mv');
  await atPly(p, 5);
  await p.fill('#ab-note', 'sharp');
  const link = await share(p);
  assert.match(link, /\/analysis#ptn=[\w-]+&at=5,4:1,5:1$/);
  const want = await p.evaluate(() => ({ tps: app.state.tps, ptn: abEngine.tak.writePtn(abDoc(app.analysisBoard)) }));
  assert.match(want.ptn, /\{2b1\/3w1\}\n3\. c2 \{sharp\}/);
  await p.context().close();
  const q = await newPage(env.browser);
  await q.goto(link);
  await q.waitForFunction(() => app.analysisBoard && app.state);
  assert.deepEqual(await q.evaluate(() => ({ tps: app.state.tps, ptn: abEngine.tak.writePtn(abDoc(app.analysisBoard)) })), want);
  assert.equal(await q.textContent('#ab-tree .mv.current'), 'c2');
  await shot(q, 'analysis-ptn-shared');
  await q.context().close();
});

test('a game opens on the board at the position shown; its position editor is analysed, with the server stopped too', async () => {
  const own = await startServer();
  const p = await newPage(env.browser);
  await p.goto(own.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c4 d4');
  await p.click('#new-form button[type=submit]');
  await atPly(p, 6);
  // A player of a game in progress may not open it; a spectator may.
  assert.ok(await p.isDisabled('#open-analysis-board'));
  const gameUrl = p.url().replace(/#.*/, '');
  await p.context().close(); // before the server goes: its engine may still be loading
  const watcher = await newPage(env.browser);
  await watcher.goto(gameUrl);
  await atPly(watcher, 6);
  await watcher.waitForFunction(() => abEngine.tak && window.takApp.worker);
  await watcher.evaluate(() => window.takApp.worker.ready);
  await watcher.click('#prev');
  await watcher.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 5);
  await watcher.click('#open-analysis-board');
  await watcher.waitForFunction(() => app.analysisBoard && app.state.ply === 5);
  assert.match(watcher.url(), new RegExp(`^${own.url}/analysis#g=\\w+&at=5$`), 'the board kept, its name in the address');
  assert.deepEqual(await watcher.$$eval('#ab-tree .mv', (l) => l.map((x) => x.textContent)), ['a1', 'e5', 'c3', 'd3', 'c4', 'd4']);
  await lines(watcher);
  await own.kill();
  // The editor on the position shown (its edits read by the page's module).
  await watcher.click('#ab-edit');
  await watcher.waitForFunction(() => app.sandbox && app.state);
  assert.ok(await watcher.isHidden('#ab-tree'));
  await watcher.click('.palette button[data-piece="2C"]');
  await watcher.click('[data-square=a5]');
  await watcher.waitForFunction(() => app.state.board[20] === '2C');
  await watcher.waitForFunction(() => app.analysisBoard.thinking === app.state.tps && app.analysisBoard.lines.length >= 3);
  const edited = await watcher.evaluate(() => app.state.tps);
  assert.match(edited, /^2C,/);
  await shot(watcher, 'analysis-editor');
  await watcher.click('#ab-analyse-edited');
  await watcher.waitForFunction((t) => !app.sandbox && app.analysisBoard && app.analysisBoard.tree.root.tps === t, edited);
  await lines(watcher);
  await watcher.context().close();
});

test('the issue\'s whole path with the server stopped: a finished game, a branch with the lines beside it, a note, PTN and a PNG out', async () => {
  const own = await startServer();
  const p = await newPage(env.browser, { acceptDownloads: true });
  await p.goto(own.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', '[Size "5"]\n\n1. a1 e5 2. c3 d3 3. c2 d2 4. c4 d4 5. c5 d1 6. c1');
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.result);
  await p.waitForFunction(() => window.takApp.worker);
  await p.evaluate(() => window.takApp.worker.ready);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  await own.kill();
  await p.waitForSelector('#offline:not([hidden])');
  // Two plies back, then the board.
  await p.click('#prev'); await p.click('#prev');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 9);
  await p.click('#open-analysis-board');
  await p.waitForFunction(() => app.analysisBoard && app.state.ply === 9);
  // Another move than the game's d1 (a legal one the module gives): a branch, the lines beside it.
  const other = await p.evaluate(() => app.state.legal.find((m) => m !== 'd1' && /^[a-e][1-5]$/.test(m)));
  await p.fill('#ptn-input', other);
  await p.press('#ptn-input', 'Enter');
  await atPly(p, 10);
  await lines(p);
  await p.fill('#ab-note', 'instead of d1');
  await p.click('#ab-export');
  const ptn = await p.inputValue('#export');
  const doc = (await load()).readPtn(ptn);
  assert.deepEqual(doc.lines.map((l) => [l.name, l.parent, l.start, l.plies.map((x) => x.ptn).join(' ')]),
    [['', -1, 0, 'a1 e5 c3 d3 c2 d2 c4 d4 c5 d1 c1'], ['5b1', 0, 9, other]]);
  assert.equal(doc.lines[1].plies[0].comment, 'instead of d1');
  assert.equal(doc.lines[0].result, 'R-0');
  const [dl] = await Promise.all([p.waitForEvent('download'), p.click('#picture-png')]);
  const png = fs.readFileSync(await dl.path());
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [530, 530]);
  await shot(p, 'analysis-offline-branch');
  await p.context().close();
});
