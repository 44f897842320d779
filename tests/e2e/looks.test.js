// looks.test.js: the board read at a glance, as PTN Ninja's is (issue 43,
// item 4; bench/BOARD.md): road connections between neighbouring flats and
// capstones of one colour, stack heights never written over a stone, the
// flat count as a bar with the reserves beside it, a step through the game
// animated (not with reduced motion), a dark board with the dark page, and
// road bands that stand 3:1 from the squares in every theme.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { browserForTests, newPage, shot } = require('./lib.js');

const env = browserForTests(test);

// Opens the analysis board on a position (TPS).
async function openTps(p, tps) {
  await p.goto(env.srv.url + '/analysis#tps=' + encodeURIComponent(tps));
  await p.waitForFunction(() => window.takApp.state && window.takApp.analysisBoard);
}

// The road connections drawn in a square, as [colour class].
const conns = (p, sq) => p.$$eval(`[data-square=${sq}] .conn`, (es) => es.map((e) => e.classList.contains('cw') ? 'white' : 'black'));

test('road connections join neighbouring flats and capstones of one colour, not walls nor the other colour', async () => {
  const p = await newPage(env.browser);
  // a5 b5 White flats, c5 a White wall; a4 a White capstone under a5; d5 e5 Black, e4 White.
  await openTps(p, '1,1,1S,2,2/1C,x4/x5/x5/x4,1 1 6');
  assert.deepEqual(await conns(p, 'a5'), ['white', 'white'], 'a5 joins b5 and a4');
  assert.deepEqual(await conns(p, 'b5'), ['white'], 'b5 joins a5, not the wall on c5');
  assert.deepEqual(await conns(p, 'c5'), [], 'a wall is not part of a road');
  assert.deepEqual(await conns(p, 'a4'), ['white'], 'the capstone joins a5');
  assert.deepEqual(await conns(p, 'd5'), ['black'], 'd5 joins e5, not the White c5');
  assert.deepEqual(await conns(p, 'e5'), ['black'], 'e5 joins d5, not the White e4 below');
  // Each band lies between its square and the neighbour it joins, the board turned around too.
  const between = () => p.evaluate(() => {
    const mid = (sq) => { const r = document.querySelector(`[data-square=${sq}] .cell`).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const band = [...document.querySelectorAll('[data-square=a5] .conn')].map((e) => e.getBoundingClientRect()).find((r) => r.width > r.height);
    const [ax] = mid('a5'), [bx] = mid('b5');
    return band.left >= Math.min(ax, bx) - 1 && band.right <= Math.max(ax, bx) + 1;
  });
  assert.ok(await between(), 'a5\'s band points to b5');
  await p.click('#flip');
  assert.deepEqual(await conns(p, 'a5'), ['white', 'white'], 'turned around: a5 joins b5 and a4');
  assert.ok(await between(), 'turned around: a5\'s band points to b5');
  await shot(p, 'looks-roads');
  await p.context().close();
});

test('a stack\'s height is written beside it, never over a stone (tall stacks, caps and walls on top)', async () => {
  const p = await newPage(env.browser);
  // 0120_s5's last position: a 13-high stack under a capstone, walls on stacks.
  await openTps(p, 'x,1,x3/221,x,211112S,x,2/x,2C,1,2211111222221C,2/x,2121,1S,2,2/1,1,1,2121,21S 2 48');
  // The heights written over a stone's box.
  const overlap = () => {
    const board = document.getElementById('board'), hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const stones = [...board.querySelectorAll('.pw, .pb')].map((e) => e.getBoundingClientRect());
    return [...board.querySelectorAll('.height')].filter((c) => stones.some((s) => hit(c.getBoundingClientRect(), s))).map((c) => c.textContent);
  };
  const overlaps = { counts: await p.$$eval('#board .height', (e) => e.length), over: await p.evaluate(overlap) };
  assert.ok(overlaps.counts >= 5, `stack heights written (${overlaps.counts})`);
  assert.deepEqual(overlaps.over, [], 'no height over a stone');
  // Wobbly stacks too.
  await p.check('#wobbly');
  assert.deepEqual(await p.evaluate(overlap), [], 'no height over a wobbly stone');
  await p.context().close();
});

test('the flat count is a bar above the board, the reserves beside it', async () => {
  const p = await newPage(env.browser);
  // White has 3 flats on top (a5, b5, e1; a wall and a capstone do not count), Black 2.
  await openTps(p, '1,1,1S,2,2/1C,x4/x5/x5/x4,1 1 6');
  const bar = await p.evaluate(() => {
    const g = document.querySelector('#board .flat-bar'), w = g.querySelector('.fbar-w').getBBox().width, b = g.querySelector('.fbar-b').getBBox().width;
    return { white: g.querySelector('.fw').textContent, black: g.querySelector('.fb').textContent, wider: w > b,
      reserves: [...g.querySelectorAll('.reserve')].map((t) => t.textContent) };
  });
  assert.equal(bar.white, '3'); assert.equal(bar.black, '2');
  assert.ok(bar.wider, 'White\'s part of the bar is the longer');
  // 5x5: 21 stones and 1 capstone each; White has played 4 stones and its capstone, Black 2 stones.
  assert.deepEqual(bar.reserves, ['17', '0', '19', '1']);
  await p.context().close();
});

test('a step through the game is animated, a move played too; not with reduced motion', async () => {
  const p = await newPage(env.browser);
  await openTps(p, 'x5/x5/x5/x5/x5 1 1');
  const moving = () => p.evaluate(() => document.querySelectorAll('#board .slide, #board .drop-in').length);
  for (const m of ['a1', 'e5', 'b1', 'a1>']) { await p.fill('#ptn-input', m); await p.press('#ptn-input', 'Enter'); }
  await p.waitForFunction(() => window.takApp.state.ply === 4);
  assert.equal(await moving(), 1, 'the move played slides in');
  await p.locator('#board').click({ position: { x: 2, y: 2 } });
  await p.keyboard.press('ArrowLeft');
  await p.waitForFunction(() => window.takApp.state.ply === 3);
  assert.equal(await moving(), 0, 'a step back is not animated');
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => window.takApp.state.ply === 4);
  assert.equal(await moving(), 1, 'a step on animates the move');
  const from = () => p.evaluate(() => { const g = document.querySelector('#board .slide'); return g && [g.style.getPropertyValue('--dx'), g.style.getPropertyValue('--dy')]; });
  assert.deepEqual(await from(), ['-100px', '0px'], 'it slides from a1');
  // A redraw of the same position (here the board turned around; the
  // engine's worker becoming ready does the same) carries the animation on
  // where it is instead of cutting it off: it was lost on a slow machine.
  await p.waitForTimeout(50);
  await p.click('#flip');
  assert.equal(await moving(), 1, 'a redraw keeps the move animated');
  assert.deepEqual(await from(), ['100px', '0px'], 'turned around, it slides from the other side');
  assert.match(await p.evaluate(() => document.querySelector('#board .slide').style.animationDelay), /^-\d+ms$/, 'on from where it was');
  await p.context().close();
  const q = await newPage(env.browser, { reducedMotion: 'reduce' });
  await openTps(q, 'x5/x5/x5/x5/x5 1 1');
  await q.fill('#ptn-input', 'a1'); await q.press('#ptn-input', 'Enter');
  await q.waitForFunction(() => window.takApp.state.ply === 1);
  assert.equal(await q.evaluate(() => getComputedStyle(document.querySelector('#board .drop-in')).animationName), 'none');
  await q.context().close();
});

test('the dark page has a dark board, in every theme', async () => {
  const p = await newPage(env.browser);
  await openTps(p, 'x5/x5/x5/x5/x5 1 1');
  // The squares' colours and the darkest one's lightness (0-255).
  const squares = () => p.evaluate(() => {
    const fills = [...document.querySelectorAll('#board .cell')].map((e) => getComputedStyle(e).fill);
    const light = Math.max(...fills.map((f) => { const [r, g, b] = f.match(/\d+/g).map(Number); return 0.3 * r + 0.59 * g + 0.11 * b; }));
    return { fills: [...new Set(fills)].join(' '), light };
  });
  for (const theme of ['wood', 'green', 'slate']) {
    await p.selectOption('#board-theme', theme);
    await p.uncheck('#dark');
    const day = await squares();
    await p.check('#dark');
    const night = await squares();
    assert.notEqual(night.fills, day.fills, `${theme}: the dark board's squares differ`);
    assert.ok(night.light < 120 && day.light > 140, `${theme}: squares ${day.light.toFixed(0)} light, ${night.light.toFixed(0)} dark`);
  }
  await shot(p, 'looks-dark-board');
  await p.context().close();
});

// Issue "The page players choose": Black's road bands were hard to see on
// the dark board. Each band must stand out from both squares at 3:1 (WCAG's
// non-text contrast) by its fill, or by its edges where the fill cannot
// (White's on a light board, Black's on a dark one, as for the stones).
test('road bands stand out from the squares at 3:1 in every theme, light and dark', async () => {
  const p = await newPage(env.browser);
  await openTps(p, '1,1,1S,2,2/1C,x4/x5/x5/x4,1 1 6');
  const measure = () => p.evaluate(() => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
    const over = (c, a, under) => c.map((v, i) => a * v + (1 - a) * under[i]); // a colour drawn with opacity a
    const squares = [...new Set([...document.querySelectorAll('#board .cell')].map((e) => getComputedStyle(e).fill))].map(rgb);
    const out = {};
    for (const [who, cls] of [['white', 'cw'], ['black', 'cb']]) {
      const band = document.querySelector('#board .conn.' + cls), st = getComputedStyle(band), a = +st.opacity;
      const edge = band.parentNode.querySelector('.conn-edge.' + cls);
      const es = edge && getComputedStyle(edge);
      const fill = Math.min(...squares.map((sq) => ratio(over(rgb(st.fill), a, sq), sq)));
      const lines = es && es.stroke !== 'none' && parseFloat(es.strokeWidth) >= 1.5
        ? Math.min(...squares.map((sq) => ratio(over(rgb(es.stroke), +es.opacity, sq), sq))) : 0;
      out[who] = { fill: +fill.toFixed(2), edge: +lines.toFixed(2) };
    }
    return out;
  });
  const low = [];
  for (const dark of [false, true]) {
    if (dark) await p.check('#dark'); else await p.uncheck('#dark');
    for (const theme of ['wood', 'green', 'slate']) {
      await p.selectOption('#board-theme', theme);
      const m = await measure();
      for (const who of ['white', 'black'])
        if (Math.max(m[who].fill, m[who].edge) < 3) low.push(`${dark ? 'dark' : 'light'} ${theme}, ${who}: fill ${m[who].fill}, edges ${m[who].edge}`);
    }
  }
  assert.deepEqual(low, []);
  await shot(p, 'looks-road-bands-dark');
  await p.context().close();
});
