// board-sheet.js: our board beside PTN Ninja's, position by position (bench/BOARD.md).
// For each position below (real games from /work/shared/games/real, cut at a
// ply, and one 3x3 game) it plays the last ply on our analysis board in
// headless Chromium and screenshots the board, light and dark, into
// build/board-sheet/ours-NN-{light,dark}.png. PTN Ninja's pictures (made
// apart, see BOARD.md) are read from build/board-sheet/ninja-NN-{light,dark}.png
// when present, and each pair is put side by side on two sheets.
//   node bench/board-sheet.js [OUT_DIR]     (after `make`)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { startServer, ROOT } = require('../tests/server/lib.js');

const GAMES = process.env.GAMES || '/work/shared/games/real';
const OUT = path.resolve(process.argv[2] || path.join(ROOT, 'build/board-sheet'));

// game: a file under GAMES or a PTN; plies: how many of its plies (all when absent).
const POSITIONS = [
  { what: '3x3: a road across the middle, just finished', game: '[Size "3"]\n\n1. a1 c3 2. a2 b3 3. b2 Sb1 4. c3-' },
  { what: '4x4: an 11-high stack beside walls (a draw)', game: '0045_s4.ptn' },
  { what: '4x4: walls on tall stacks, a flat win', game: '0058_s4.ptn' },
  { what: '5x5: a finished road (R-0)', game: '0010_s5.ptn' },
  { what: '5x5: a 13-high stack under a capstone, walls', game: '0120_s5.ptn' },
  { what: '6x6: the middle game, roads in progress', game: '0554_s6.ptn', plies: 50 },
  { what: '6x6: a 13-high stack, a road for Black', game: '0542_s6.ptn' },
  { what: '6x6: seven walls', game: '0548_s6.ptn' },
  { what: '7x7: walls and four capstones', game: '0603_s7.ptn' },
  { what: '8x8: a road for White', game: '0040_s8.ptn' },
];

// The plies of a PTN game, in order (tags, comments, numbers and results left out).
function plies(ptn) {
  return ptn.replace(/\[[^\]]*\]/g, ' ').replace(/\{[^}]*\}/g, ' ').split(/\s+/)
    .filter((t) => t && !/^\d+\.$/.test(t) && !/^(R-0|0-R|F-0|0-F|1-0|0-1|1\/2-1\/2|\*)$/.test(t))
    .map((t) => t.replace(/['"!?]+$/, ''));
}

// The position before the last ply (TPS, by `tak replay`) and that ply.
function cut(p) {
  const text = p.game.includes('\n') ? p.game : fs.readFileSync(path.join(GAMES, p.game), 'utf8');
  const all = plies(text), n = p.plies || all.length;
  const size = /\[Size "(\d)"\]/.exec(text)[1];
  const head = `[Size "${size}"]\n\n` + all.slice(0, n - 1).map((m, i) => (i % 2 ? '' : i / 2 + 1 + '. ') + m).join(' ');
  const tps = execFileSync(path.join(ROOT, 'build/tak'), ['replay', '-'], { input: head }).toString().split('\n')[0];
  return { tps, ply: all[n - 1] };
}

async function ours(browser, url, i, { tps, ply }) {
  for (const look of ['light', 'dark']) {
    const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 }, deviceScaleFactor: 1 });
    await ctx.addInitScript((dark) => localStorage.setItem('tak.dark', dark), look === 'dark' ? '1' : '0');
    const page = await ctx.newPage();
    await page.goto(url + '/analysis#tps=' + encodeURIComponent(tps));
    await page.waitForFunction(() => window.takApp.state && window.takApp.analysisBoard);
    await page.fill('#ptn-input', ply);
    await page.press('#ptn-input', 'Enter');
    await page.waitForFunction(() => window.takApp.state.ply === 1);
    await page.waitForTimeout(300); // the move's animation
    await page.locator('#board').screenshot({ path: path.join(OUT, `ours-${String(i).padStart(2, '0')}-${look}.png`) });
    await ctx.close();
  }
}

// Two sheets (light, dark), drawn by the same Chromium: for each position
// PTN Ninja's board left and ours right, two positions a row, captioned.
async function sheets(browser) {
  const img = (f) => (fs.existsSync(f) ? `<img src="data:image/png;base64,${fs.readFileSync(f).toString('base64')}">` : '<i>not rendered</i>');
  for (const look of ['light', 'dark']) {
    const cells = POSITIONS.map((p, i) => {
      const n = String(i).padStart(2, '0');
      return `<figure>${img(path.join(OUT, `ninja-${n}-${look}.png`))}${img(path.join(OUT, `ours-${n}-${look}.png`))}` +
        `<figcaption>${i + 1}. ${p.what} — PTN Ninja left, ours right</figcaption></figure>`;
    }).join('');
    const bg = look === 'dark' ? '#1c1d20;color:#e8e6e1' : '#f3efe6;color:#222';
    const page = await browser.newPage({ viewport: { width: 1040, height: 400 } });
    await page.setContent(`<style>body{margin:0;padding:6px;background:${bg};font:13px system-ui;display:grid;grid-template-columns:1fr 1fr;gap:6px}
      figure{margin:0;display:flex;flex-wrap:wrap;gap:4px;align-items:center}img{width:250px;height:250px;object-fit:contain}
      figcaption{width:100%}</style>${cells}`);
    await writeShot(page, await page.screenshot({ fullPage: true }), path.join(ROOT, `bench/board-${look}.png`));
    await page.close();
  }
}

// An RGBA picture as a palette PNG of 256 colours (at 5 bits a channel),
// each pixel the nearest of them.
// A screenshot's pixels, read back through a canvas in `page`, kept as a
// PNG of 256 colours (a tenth of the bytes).
async function writeShot(page, png, file) {
  const { width, height, rgba } = await page.evaluate(async (src) => {
    const im = new Image(); im.src = src; await im.decode();
    const c = document.createElement('canvas'); c.width = im.width; c.height = im.height;
    const ctx = c.getContext('2d'); ctx.drawImage(im, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let bin = ''; for (let i = 0; i < d.length; i += 0x8000) bin += String.fromCharCode(...d.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, rgba: btoa(bin) };
  }, 'data:image/png;base64,' + png.toString('base64'));
  fs.writeFileSync(file, indexedPng(width, height, Buffer.from(rgba, 'base64')));
}

function indexedPng(width, height, rgba) {
  const key = (i) => ((rgba[i] >> 3) << 10) | ((rgba[i + 1] >> 3) << 5) | (rgba[i + 2] >> 3);
  const seen = new Map();
  for (let i = 0; i < rgba.length; i += 4) seen.set(key(i), (seen.get(key(i)) || 0) + 1);
  // The 192 commonest, and a coarse cube of 64 for the rare colours (the stack heights' red).
  const cube = [...Array(64).keys()].map((i) => [(i >> 4) * 85, ((i >> 2) & 3) * 85, (i & 3) * 85]);
  const pal = [...seen].sort((a, b) => b[1] - a[1]).slice(0, 192).map(([k]) => [(k >> 10) << 3 | 4, ((k >> 5) & 31) << 3 | 4, (k & 31) << 3 | 4]).concat(cube);
  const near = new Map(), rows = Buffer.alloc(height * (width + 1));
  for (let y = 0, o = 0; y < height; y++) {
    rows[o++] = 0;
    for (let x = 0; x < width; x++, o++) {
      const i = (y * width + x) * 4, k = key(i);
      if (!near.has(k)) {
        const r = (k >> 10) << 3 | 4, g = ((k >> 5) & 31) << 3 | 4, b = (k & 31) << 3 | 4;
        let best = 0, bd = Infinity;
        pal.forEach((c, j) => { const d = (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2; if (d < bd) { bd = d; best = j; } });
        near.set(k, best);
      }
      rows[o] = near.get(k);
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4), body = Buffer.concat([Buffer.from(type), data]), crc = Buffer.alloc(4);
    len.writeUInt32BE(data.length); crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4); ihdr.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('PLTE', Buffer.from(pal.flat())),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const cuts = POSITIONS.map(cut);
  fs.writeFileSync(path.join(OUT, 'positions.json'), JSON.stringify(cuts.map((c, i) => ({ ...c, what: POSITIONS[i].what })), null, 1));
  const srv = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    if (!process.env.SHEETS_ONLY) for (let i = 0; i < cuts.length; i++) await ours(browser, srv.url, i, cuts[i]);
    await sheets(browser);
  } finally { await browser.close(); await srv.stop(); }
  console.log('sheets: bench/board-light.png bench/board-dark.png; positions:', path.join(OUT, 'positions.json'));
}

module.exports = { writeShot }; // for bench/layout-shots.js
if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
