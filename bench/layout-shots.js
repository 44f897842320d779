// layout-shots.js: the board's size with a long real game loaded, on the
// analysis board and on a game's page, at a laptop's, a wide screen's and a
// phone's size (issue "The page players choose": the analysis board's shrank
// to 68 px or vanished). For each viewport and game it opens the game on
// /analysis (pasted) and as a game (imported from the front page), prints
// the board's size in CSS pixels and the page's width, and keeps, for the
// first game, one picture a viewport: the two pages side by side, scaled
// down, as a PNG of 256 colours (bench/layout-WxH.png; WEB.md says what
// they showed).
//   node bench/layout-shots.js [GAME ...]     (after `make`; names of games in /work/shared/games/real)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startServer, ROOT } = require('../tests/server/lib.js');
const { writeShot } = require('./board-sheet.js');

const GAMES = process.env.GAMES || '/work/shared/games/real';
const VIEWPORTS = [[1280, 900, 0.5], [1920, 1080, 0.4], [390, 844, 0.75]]; // width, height, scale kept
// 0542_s6 (80 plies, a 13-high stack) and 0040_s8 (139, 8x8); 0024_s6 and 0010_s5 are
// shorter, but the issue measured them (68 and 296 px at 1280x900).
const names = process.argv.slice(2).length ? process.argv.slice(2) : ['0542_s6', '0040_s8', '0024_s6', '0010_s5'];

const measure = (page) => page.evaluate(() => {
  const b = document.getElementById('board').getBoundingClientRect();
  return { board: `${Math.round(b.width)}x${Math.round(b.height)}`, scroll: document.documentElement.scrollWidth, ply: window.takApp.state.ply };
});

async function analysis(browser, url, [w, h], ptn) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(url + '/analysis');
  await page.waitForFunction(() => window.takApp.analysisBoard && window.abEngine && window.abEngine.tak);
  await page.fill('#ab-paste', ptn);
  await page.click('#ab-load button[type=submit]');
  await page.waitForFunction(() => { const ab = window.takApp.analysisBoard; return ab && ab.tree.root.children.length && window.takApp.state.ply === TakTree.lineEnd(ab.tree.root).depth; });
  await page.waitForTimeout(1500); // the engine's first lines and the graph
  // The page stays scrolled where the paste box is (on a phone the board is
  // then above the screen); the picture is the page's top, as a reload shows it.
  await page.evaluate(() => window.scrollTo(0, 0));
  return page;
}

async function game(browser, url, [w, h], ptn, plies) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(url + '/');
  await page.check('input[name=opponent][value=friend]');
  await page.fill('#import', ptn);
  await page.click('#new-form button[type=submit]');
  await page.waitForFunction((n) => window.takApp.state && window.takApp.state.moves.length === n, plies);
  await page.waitForTimeout(1500);
  return page;
}

// The two pictures side by side, scaled, read back as RGBA and written as a palette PNG.
async function sheet(browser, shots, [w, h, scale], file) {
  const img = (b) => `<img src="data:image/png;base64,${b.toString('base64')}">`;
  const [sw, sh] = [Math.round(w * scale), Math.round(h * scale)];
  const page = await browser.newPage({ viewport: { width: 2 * sw + 8, height: sh }, deviceScaleFactor: 1 });
  await page.setContent(`<style>body{margin:0;display:flex;gap:8px;background:#888}img{width:${sw}px;height:${sh}px}</style>${shots.map(img).join('')}`);
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await writeShot(page, await page.screenshot(), file);
  await page.close();
  return fs.statSync(file).size;
}

async function main() {
  const srv = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const vp of VIEWPORTS) {
      for (const [i, name] of names.entries()) {
        const ptn = fs.readFileSync(path.join(GAMES, name + '.ptn'), 'utf8');
        const ab = await analysis(browser, srv.url, vp, ptn);
        const pages = [ab, await game(browser, srv.url, vp, ptn, await ab.evaluate(() => window.takApp.state.ply))];
        const [a, g] = await Promise.all(pages.map(measure));
        let kept = '';
        if (i === 0) {
          const file = path.join(ROOT, `bench/layout-${vp[0]}x${vp[1]}.png`);
          const bytes = await sheet(browser, await Promise.all(pages.map((p) => p.screenshot())), vp, file);
          kept = `, ${path.relative(ROOT, file)} ${bytes} bytes`;
        }
        console.log(`${vp[0]}x${vp[1]} ${name} (${a.ply} plies): /analysis board ${a.board} (page ${a.scroll} px wide), game page board ${g.board} (page ${g.scroll} px wide)${kept}`);
        for (const p of pages) await p.close();
      }
    }
  } finally { await browser.close(); await srv.stop(); }
}

main().catch((e) => { console.error(e); process.exit(1); });
