// wasm.test.js: the library as WebAssembly (build/wasm/tak.wasm through
// web/tak-engine.js), against the native build: the same legal moves and
// perft counts, the same errors; a search that returns a legal move; and in
// the page, analysis that still works once the server is gone.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startServer, ROOT, TAK } = require('../server/lib.js');
const { browserForTests, newPage, atPly } = require('./lib.js');
const { TakEngine } = require('../../web/tak-engine.js');

const env = browserForTests(test);
const load = () => TakEngine.load(fs.readFileSync(path.join(ROOT, 'build/wasm/tak.wasm')));

test('the WebAssembly build agrees with the native one', async () => {
  const tak = await load();
  // perft of the empty boards, as the native `tak perft` counts them
  for (const [size, depth] of [[3, 3], [4, 3], [5, 3], [6, 2]]) {
    const native = execFileSync(TAK, ['perft', '--size', String(size), String(depth)]).toString().match(/(\d+)\s*$/)[1];
    assert.equal(tak.perft(`${Array(size).fill('x' + size).join('/')} 1 1`, depth).toString(), native, `${size}x${size} depth ${depth}`);
  }
  // a real middle game: its legal moves, as many as `tak perft --tps ... 1` says
  const tps = '2,x,1,x,2,1/x,2,1,2C,1,x/1,1C,21,2,x2/x,2,12,1,2,x/2,x,1,2,1,x/x,1,x,2,x2 1 14';
  const moves = tak.legalMoves(tps, { komi: 2 });
  const native = execFileSync(TAK, ['perft', '--tps', tps, '1']).toString().match(/(\d+)\s*$/)[1];
  assert.equal(String(moves.length), native);
  assert.ok(moves.includes('3c4-12') || moves.some((m) => /^\d[a-f]\d[<>+-]\d+$/.test(m)));
  const after = tak.play(tps, moves[0], { komi: 2 });
  assert.match(after.tps, / 2 14$/);
  // errors say why
  assert.throws(() => tak.legalMoves('x5/x5'), /bad TPS/);
  assert.throws(() => tak.play('x5/x5/x5/x5/x5 1 1', 'Cc3'), /illegal move 'Cc3'/);
  assert.throws(() => tak.legalMoves('x4/x4/x4/x4 1 1', { komi: 0.3 }), /komi/);
  assert.throws(() => tak.play('x5/x5/x5/x5/x5 1 1', 'a1\u0000b2'), /NUL/);
  assert.throws(() => tak.legalMoves(42), /must be text/);
  // a 4x4 game without capstones, and a custom reserve
  assert.ok(!tak.legalMoves('x4/x4/x4/1,2,x2 1 2').some((m) => m.startsWith('C')));
  assert.ok(tak.legalMoves('x5/x5/x5/x5/1,2,x3 1 2', { capstones: 0 }).every((m) => !m.startsWith('C')));
  // a search: a legal best move, the road in one found
  const r = tak.search('x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5', { nodes: 20000 });
  assert.equal(r.best, 'e3');
  assert.ok(r.win_in > 0);
});

test('PTN with branches and notes: read into a document and written back', async () => {
  const tak = await load();
  // A real game (tags, comments, marks as PlayTak and its viewers write them)
  // comes back with every tag, comment and mark.
  const real = path.join(process.env.TAK_SHARED || path.join(ROOT, '../shared'), 'games/real');
  const file = fs.readdirSync(real).sort()
    .find((f) => f.endsWith('.ptn') && /\w['!?{]/.test(fs.readFileSync(path.join(real, f), 'utf8')));
  const text = fs.readFileSync(path.join(real, file), 'utf8');
  const doc = tak.readPtn(text);
  assert.ok(doc.tags.length > 5 && doc.lines.length === 1, file);
  assert.ok(doc.lines[0].plies.some((p) => p.marks || p.comment), `${file} has marks or notes`);
  const native = execFileSync(TAK, ['replay', path.join(real, file)]).toString().split('\n')[0];
  const last = doc.lines[0].plies.reduce((tps, p) => tak.play(tps, p.ptn, { komi: Number(doc.komi) }).tps, doc.tps);
  assert.equal(last.split(' ')[0], native.split(' ')[0], 'the main line replays to tak replay\'s position');
  // Written and read again: the same tags, plies, notes and marks (the writer
  // adds the result the board reached), and from then on a fixed point.
  const back = tak.readPtn(tak.writePtn(doc));
  assert.deepEqual(back.tags, doc.tags);
  assert.deepEqual(back.lines[0].plies, doc.lines[0].plies);
  assert.deepEqual(tak.readPtn(tak.writePtn(back)), back);

  // Branches as PTN Ninja writes them, a branch of a branch, notes with
  // characters the record format escapes.
  const ninja = '[Size "5"]\r\n\r\n1. a1 e5 {opening}\r\n2. c3 d3\r\n3. c4 d4\'\r\n\r\n' +
    '{2w1}\r\n2. b3 c2\r\n3. b2? a2\r\n\r\n{2w1/3b1}\r\n3. -- {instead} b4!\r\n';
  const tree = tak.readPtn(ninja);
  assert.deepEqual(tree.lines.map((l) => [l.name, l.parent, l.start, l.plies.map((p) => p.ptn).join(' ')]),
    [['', -1, 0, 'a1 e5 c3 d3 c4 d4'], ['2w1', 0, 2, 'b3 c2 b2 a2'], ['2w1/3b1', 1, 5, 'b4']]);
  assert.equal(tree.lines[2].preface, 'instead');
  assert.equal(tree.lines[1].plies[2].marks, '?');
  tree.lines[1].plies[1].comment = 'a "note"\twith\na tab, a newline and a \\ backslash';
  tree.lines.push({ name: '1b1', parent: 0, start: 1, plies: [{ ptn: 'd1' }, { ptn: 'c3', marks: '!?' }] });
  const written = tak.writePtn(tree);
  assert.match(written, /\n\n\{1b1\}\n1\. -- d1\n2\. c3!\?\n/);
  const again = tak.readPtn(written);
  assert.equal(again.lines[1].plies[1].comment, 'a "note"\twith\na tab, a newline and a \\ backslash');
  assert.deepEqual(again.lines[3].plies.map((p) => p.ptn), ['d1', 'c3']);

  // Bad input says what and where.
  assert.throws(() => tak.readPtn(ninja.replace('3. b2? a2', '3. b2? b2')), /line 9, column 8: branch 2w1, move 3 \(Black\) b2/);
  tree.lines[3].plies[0].ptn = 'a1';
  assert.throws(() => tak.writePtn(tree), /branch 1b1, ply 2, a1\): a1 is not empty/);
  tree.lines[3].plies[0].ptn = 'd1';
  tree.lines[3].parent = 9;
  assert.throws(() => tak.writePtn(tree), /line 9 does not exist/);
  tree.lines[3].parent = 0;
  tree.lines[3].name = '2w1';
  assert.throws(() => tak.writePtn(tree), /already a branch named 2w1/);
  assert.throws(() => tak.writePtn({ tags: [['Size', '9']], lines: [{ plies: [] }] }), /the tags: .*Size/);
});

test('in the page: analysis by the page\'s engine, with the server stopped', async () => {
  const own = await startServer();
  const p = await newPage(env.browser);
  await p.goto(own.url + '/');
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', 'x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5');
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state);
  await p.waitForFunction(() => window.takApp.worker && window.takApp.worker.ready);
  await p.evaluate(() => window.takApp.worker.ready);
  await p.click('[data-square=e3]'); // the road: the game is over
  await atPly(p, 1);
  await p.click('#first');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 0);
  await own.kill();
  await p.waitForSelector('#offline:not([hidden])');
  await p.click('#analyze');
  await p.waitForFunction(() => /in this page/.test(document.getElementById('analysis').textContent), null, { timeout: 10000 });
  assert.match(await p.textContent('#analysis'), /White wins in 1 ply[\s\S]*Best: e3/);
  await p.context().close();
});

test('review steps in the page: ten quick presses move ten plies, with the server stopped too', async () => {
  const own = await startServer();
  const p = await newPage(env.browser);
  const real = path.join(ROOT, '../shared/games/real');
  const ptn = fs.readdirSync(real).filter((f) => f.endsWith('.ptn')).sort()
    .map((f) => fs.readFileSync(path.join(real, f), 'utf8')).find((t) => /\[Size "6"\]/.test(t) && /\b30\. /.test(t));
  await p.goto(own.url + '/');
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', ptn);
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.ply >= 58);
  await p.evaluate(() => window.takApp.worker.ready);
  const total = await p.evaluate(() => window.takApp.state.ply);
  // What the server (native C) says of the position the steps will end on.
  const serverTps = await p.evaluate((n) => request({ type: 'view', game: window.takApp.gameId, ply: n }).then((v) => v.tps), total - 7);
  await own.kill();
  await p.waitForSelector('#offline:not([hidden])');
  await p.focus('#moves');
  for (let i = 0; i < 10; i++) await p.keyboard.press('ArrowLeft', { delay: 0 });
  await p.waitForFunction((n) => window.takApp.view && window.takApp.view.ply === n && window.takApp.target === null, total - 10);
  for (let i = 0; i < 3; i++) await p.keyboard.press('ArrowRight', { delay: 0 });
  await p.waitForFunction((n) => window.takApp.view && window.takApp.view.ply === n, total - 7);
  // The board shows that position, as the server had it.
  assert.equal(await p.evaluate(() => window.takApp.view.tps), serverTps);
  assert.match(await p.textContent('#turn'), /Viewing move/);
  await p.context().close();
});

test('the evaluation graph of a real 6x6 game, worked out in the page; a click on it moves the board', async () => {
  const real = path.join(ROOT, '../shared/games/real');
  const file = fs.readdirSync(real).filter((f) => f.endsWith('.ptn')).sort().map((f) => path.join(real, f))
    .find((f) => { const t = fs.readFileSync(f, 'utf8'); return /\[Size "6"\]/.test(t) && /\[Result "(R-0|0-R|F-0|0-F)"\]/.test(t) && /\b20\. /.test(t); });
  assert.ok(file, 'a finished real 6x6 game');
  const ptn = fs.readFileSync(file, 'utf8');
  const p = await newPage(env.browser);
  await p.goto(env.srv.url + '/');
  await p.check('input[name=opponent][value=friend]');
  await p.fill('#import', ptn);
  await p.click('#new-form button[type=submit]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.result);
  await p.waitForSelector('#graph:not([hidden])', { timeout: 60000 });
  const n = await p.evaluate(() => window.takApp.state.ply);
  const points = await p.$eval('#graph polyline', (l) => l.getAttribute('points').split(' ').length);
  assert.equal(points, n + 1, 'one point a position');
  await p.locator('#graph').scrollIntoViewIfNeeded();
  // Issue 43: the game page's graph had no axis, numbers or tip. Flats up
  // the side, plies along the bottom; a point hovered says its ply, move and score.
  const axis = await p.$$eval('#graph text.axis', (l) => l.map((t) => t.textContent));
  assert.ok(['+5', '0', '-5', '10', '20'].every((a) => axis.includes(a)), axis.join(' '));
  const pt = await p.$eval('#graph [data-ply="6"]', (c) => { const r = c.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
  await p.mouse.move(pt.x, pt.y);
  const move6 = await p.evaluate(() => window.takApp.state.moves[5]);
  assert.match(await p.$eval('#graph .tip text', (t) => t.textContent), new RegExp(`^ply 6, ${move6.replace(/[+>*\\-]/g, '\\$&')}\\S*: ([+-]\\d+\\.\\d\\d|\\w+ wins in \\d+)`));
  await p.mouse.move(0, 0);
  const box = await p.locator('#graph').boundingBox();
  await p.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
  const want = Math.round(0.25 * n);
  await p.waitForFunction((w) => window.takApp.view && Math.abs(window.takApp.view.ply - w) <= 1, want);
  // The marks the page shows are those of the native `tak analyze` with the
  // same effort and table (the same engine, one thread: the same searches).
  const marks = await p.evaluate(() => window.takApp.graph.marks);
  assert.equal(marks.length, n);
  const native = execFileSync(TAK, ['analyze', '--game', file, '--nodes', '20000', '--hash', '16']).toString();
  const wantMarks = [...native.matchAll(/^\s*(\d+)(\.\.\.|\. ) \S*?(\?\??)\s/gm)]
    .map((m) => `${(+m[1] - 1) * 2 + (m[2] === '...' ? 2 : 1)}${m[3]}`);
  const got = marks.map((m, i) => (m ? `${i + 1}${m}` : '')).filter(Boolean);
  assert.deepEqual(got, wantMarks);
  assert.ok(wantMarks.length > 0, 'a game with a marked move, so the comparison says something');
  await p.screenshot({ path: path.join(ROOT, 'build/e2e-artifacts/graph.png') });
  await p.context().close();
});
