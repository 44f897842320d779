// npm.test.js: the tak-engine package as a user gets it, run by
// tests/lib/npm.sh from a folder where only the packed tarball was
// installed (TAK_NPM_DIR). CommonJS and ES module entries in Node, the
// browser entry as a bundler sees it (esbuild) and in chromium, TypeScript
// declarations against a consumer (tsc), and bad input: every error an Error
// with the library's words, never a WebAssembly trap, the engine still
// working after it.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { execFileSync } = require('node:child_process');

const DIR = process.env.TAK_NPM_DIR;
const PKG = path.join(DIR, 'node_modules/tak-engine');
const need = (m) => require(require.resolve(m, { paths: [DIR] }));
const START5 = 'x5/x5/x5/x5/x5 1 1';
const ROAD_IN_ONE = '1,1,1,1,x/x5/x5/2,2,2,2,x/x5 1 5';

async function checkEngine(tak) {
  assert.strictEqual(tak.legalMoves(START5).length, 25);
  assert.strictEqual(tak.perft(START5, 3), 43320n);
  const r = tak.search(ROAD_IN_ONE, { nodes: 5000 });
  assert.strictEqual(r.best, 'e5');
  assert.strictEqual(r.win_in, 1);
  const after = tak.play(ROAD_IN_ONE, r.best);
  assert.deepStrictEqual(after.over, true);
  assert.strictEqual(tak.result(after.tps).code, 'R-0');
}

test('require() gets an engine that finds the move', async () => {
  const pkg = need('tak-engine');
  assert.strictEqual(typeof pkg.load, 'function');
  await checkEngine(await pkg.load());
  const version = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8')).version;
  assert.match(version, /^\d+\.\d+\.\d+$/);
  assert.notStrictEqual(version, '0.0.0');
});

test('scripts in the folder get the engine\'s move, by require and by import', () => {
  fs.writeFileSync(path.join(DIR, 'move.cjs'),
    "require('tak-engine').load().then((tak) => console.log(tak.search(process.argv[2], { nodes: 5000 }).best));\n");
  fs.writeFileSync(path.join(DIR, 'move.mjs'),
    "import { load } from 'tak-engine';\nconst tak = await load();\nconsole.log(tak.search(process.argv[2], { nodes: 5000 }).best);\n");
  for (const script of ['move.cjs', 'move.mjs']) {
    const out = execFileSync(process.execPath, [script, ROAD_IN_ONE], { cwd: DIR }).toString().trim();
    assert.strictEqual(out, 'e5', script);
  }
});

test('the browser entry (ES module) works on its own', async () => {
  const esm = await import(path.join(PKG, 'index.mjs'));
  await checkEngine(await esm.load(fs.readFileSync(path.join(PKG, 'tak.wasm'))));
});

test('bad input throws the library\'s words, never a trap, and the engine goes on', async () => {
  const tak = await need('tak-engine').load();
  const cases = [
    [() => tak.legalMoves('x5/x5 1 1'), Error, /bad TPS|TPS/],
    [() => tak.play(START5, 'z9'), Error, /z9|move/],
    [() => tak.play('x5/x2,2S,x2/x2,121,x2/x5/x5 1 4', 'c3'), Error, /not empty/],
    [() => tak.readPtn('[Size "5"]\n\n1. a1 e5\n2. a1 b2\n'), Error, /line 4/],
    [() => tak.search(START5, { nodes: -1 }), RangeError, /nodes/],
    [() => tak.search(START5, { nodes: 1e12 }), RangeError, /nodes/],
    [() => tak.search(START5, { level: 11 }), RangeError, /level/],
    [() => tak.search(START5, { ms: 'soon' }), TypeError, /ms/],
    [() => tak.analyze(START5, { lines: 0 }), RangeError, /lines/],
    [() => tak.perft(START5, -1), RangeError, /depth/],
    [() => tak.search('x5/x5/x5/x5/x5 1 1\0', {}), Error, /NUL/],
  ];
  for (const [fn, type, words] of cases) {
    assert.throws(fn, (e) => e instanceof type && words.test(e.message) &&
      !(e instanceof WebAssembly.RuntimeError), String(fn));
  }
  await checkEngine(tak);
});

// The JavaScript side parses and serialises PTN documents itself (writePtn):
// mutated documents and mutated PTN text must either work or throw an Error.
test('fuzz: mutated PTN, TPS and documents never trap', async () => {
  const tak = await need('tak-engine').load();
  const ptn = '[Size "5"]\n[Komi "2"]\n\n1. a1 e5 {n}\n2. Cc3 Sd3\n3. c3> e4?\n\n{2w1}\n2. b2 c2\n';
  const doc = tak.readPtn(ptn);
  let seed = 41;
  const rnd = (n) => { // xorshift32, exact in doubles
    seed = (seed ^ (seed << 13)) >>> 0; seed = (seed ^ (seed >>> 17)) >>> 0; seed = (seed ^ (seed << 5)) >>> 0;
    return seed % n;
  };
  const alphabet = 'x12345678/,SCabcde+-<>*\'!?{}[]" \n\t\\';
  const mutate = (s) => {
    const a = [...s];
    for (let k = rnd(3) ? 1 : 3; k > 0; k--) {
      const i = rnd(a.length + 1);
      if (rnd(2)) a.splice(i, 1); else a.splice(i, 0, alphabet[rnd(alphabet.length)]);
    }
    return a.join('');
  };
  const values = [null, undefined, -1, 1e9, 'x', '', {}, [], 2.5, '\t\n', 'a1'];
  let worked = 0;
  const kinds = [0, 0, 0, 0];
  for (let i = 0; i < 600; i++) {
    const attempts = [
      () => tak.readPtn(mutate(ptn)),
      () => tak.legalMoves(mutate(ROAD_IN_ONE)),
      () => tak.play('x5/x2,2S,x2/x2,121,x2/x5/x5 1 4', mutate('3c3-12')),
      () => {
        const d = JSON.parse(JSON.stringify(doc));
        const line = d.lines[rnd(d.lines.length)];
        const pick = rnd(4);
        if (pick === 0 && line.plies.length) line.plies[rnd(line.plies.length)].ptn = mutate('c3>');
        else if (pick === 1) line[['parent', 'start', 'name', 'result'][rnd(4)]] = values[rnd(values.length)];
        else if (pick === 2) d.tags.push([rnd(4) ? 'Player1' : mutate('Player1'), mutate('Ann\tB\\n"')]);
        else if (line.plies.length) line.plies[rnd(line.plies.length)].comment = mutate('a note\n');
        const text = tak.writePtn(d);
        assert.ok(tak.readPtn(text).lines.length >= 1);
      },
    ];
    try { attempts[i % attempts.length](); worked++; kinds[i % attempts.length]++; } catch (e) {
      assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && e.message.length > 0, String(e));
      if (e instanceof assert.AssertionError) throw e;
    }
  }
  assert.ok(kinds.every((k) => k >= 3), `only ${worked} of 600 inputs worked (${kinds}): the fuzzer tests nothing`);
  await checkEngine(tak);
});

test('the TypeScript declarations type a consumer, and catch a wrong one', { skip: !fs.existsSync('/usr/bin/tsc') && 'no tsc (node-typescript)' }, () => {
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: true, module: 'node16',
    moduleResolution: 'node16', target: 'es2020', lib: ['es2020', 'dom'], types: [] };
  fs.writeFileSync(path.join(DIR, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['good.mts', 'bad.mts'] }));
  fs.writeFileSync(path.join(DIR, 'good.mts'), [
    "import { load, TakEngine, SearchResult } from 'tak-engine';",
    'const tak: TakEngine = await load();',
    "const r: SearchResult = tak.search('x5/x5/x5/x5/x5 1 1', { nodes: 1000, level: 5 });",
    'const best: string = r.best; const n: bigint = tak.perft("x3/x3/x3 1 1", 2);',
    'console.log(best, n, tak.readPtn("").lines.length);',
  ].join('\n'));
  fs.writeFileSync(path.join(DIR, 'bad.mts'), [
    "import { load } from 'tak-engine';",
    'const tak = await load();',
    "export const n: number = tak.perft('x3/x3/x3 1 1', 2);",   // a bigint, not a number
  ].join('\n'));
  let out = '';
  try { execFileSync('tsc', ['-p', DIR], { stdio: 'pipe' }); } catch (e) { out = e.stdout.toString(); }
  const errors = out.split('\n').filter((l) => /error TS/.test(l));
  assert.ok(errors.length > 0, 'tsc found nothing wrong with bad.mts');
  assert.ok(errors.every((l) => l.includes('bad.mts(') && /TS2322/.test(l)), out);
});

test('a bundler (esbuild) resolves the browser entry and its tak.wasm', { skip: !fs.existsSync('/usr/bin/esbuild') && 'no esbuild' }, async () => {
  fs.writeFileSync(path.join(DIR, 'entry.mjs'), "export { load } from 'tak-engine';\n");
  const out = path.join(DIR, 'bundle.mjs');
  execFileSync('esbuild', ['entry.mjs', '--bundle', '--format=esm', '--platform=browser', `--outfile=${out}`],
    { cwd: DIR, stdio: 'pipe' });
  const text = fs.readFileSync(out, 'utf8');
  assert.ok(text.includes("new URL(\"./tak.wasm\", import.meta.url)") || text.includes("new URL('./tak.wasm', import.meta.url)"));
  assert.ok(!text.includes('readFileSync'), 'the browser bundle pulled in the Node entry');
  const { load } = await import(out);
  await checkEngine(await load(fs.readFileSync(path.join(PKG, 'tak.wasm'))));
});

test('in a browser (chromium): the ES module entry loads its tak.wasm and answers', async (t) => {
  let chromium;
  try { ({ chromium } = require(path.resolve(__dirname, '../../node_modules/playwright-core'))); } catch { t.skip('no playwright-core'); return; }
  const exe = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(exe)) { t.skip('no chromium'); return; }
  const types = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
  fs.writeFileSync(path.join(DIR, 'page.html'), `<!doctype html><script type="module">
    import { load } from '/node_modules/tak-engine/index.mjs';
    const tak = await load();
    window.answer = tak.search('${ROAD_IN_ONE}', { nodes: 5000 }).best;
    try { tak.search('${START5}', { level: 0 }); } catch (e) { window.refused = e.name; }
  </script>`);
  const server = http.createServer((req, res) => {
    const file = path.join(DIR, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(DIR) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/page.html`);
    await page.waitForFunction(() => window.answer, null, { timeout: 20000 });
    assert.strictEqual(await page.evaluate(() => window.answer), 'e5');
    assert.strictEqual(await page.evaluate(() => window.refused), 'RangeError');
  } finally {
    await browser.close();
    server.close();
  }
});
