// a11y.test.js: the pages checked by axe-core (the accessibility engine of
// browsers' developer tools) against WCAG 2 A and AA: contrast, labels,
// names, roles; on the home page, a game and the analysis board, light and
// dark, each board theme; and the page's weight (the budget: under
// 300 KB).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { browserForTests, newPage: openPage, atPly } = require('./lib.js');
const { ROOT } = require('../server/lib.js');

const env = browserForTests(test);
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

// The violations of WCAG 2 A/AA on the page as it is now, one line each.
async function violations(page) {
  await page.addScriptTag({ content: AXE });
  const r = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }));
  return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join('')}`));
}

test('WCAG 2 AA: home page and a game, light and dark, every board theme', async () => {
  for (const dark of ['0', '1']) {
    const p = await openPage(env.browser);
    await p.addInitScript((d) => localStorage.setItem('tak.dark', d), dark);
    await p.goto(env.srv.url + '/');
    await p.waitForSelector('#new-game:not([hidden])');
    assert.deepEqual(await violations(p), [], `home page, dark ${dark}`);
    await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
    await p.check('input[name=opponent][value=engine]');
    await p.click('#new-form button[type=submit]');
    await p.waitForSelector('[data-square=a1]');
    await p.click('[data-square=a1]');
    await atPly(p, 2);
    for (const theme of ['wood', 'green', 'slate']) {
      await p.selectOption('#board-theme', theme);
      assert.deepEqual(await violations(p), [], `game page, dark ${dark}, ${theme} board`);
    }
    await p.context().close();
  }
});

test('WCAG 2 AA: the analysis board with its lines, branches and notes, light and dark', async () => {
  for (const dark of ['0', '1']) {
    const p = await openPage(env.browser);
    await p.addInitScript((d) => localStorage.setItem('tak.dark', d), dark);
    // A share link's PTN: deflated, base64url.
    const ptn = '[Size "5"]\n\n1. a1 e5 {a note} 2. c3 d3\n\n{2w1}\n2. b2 b3\n';
    const packed = zlib.deflateRawSync(Buffer.from(ptn)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    await p.goto(env.srv.url + '/analysis#ptn=' + packed + '&at=4,3:1');
    await p.waitForFunction(() => window.takApp.analysisBoard && document.querySelectorAll('#ab-lines li').length >= 3, null, { timeout: 20000 });
    await p.click('#ab-think'); // still lines, for a stable check
    assert.deepEqual(await violations(p), [], `analysis board, dark ${dark}`);
    await p.click('#ab-edit');
    await p.waitForFunction(() => app.sandbox && app.state);
    assert.deepEqual(await violations(p), [], `analysis board's editor, dark ${dark}`);
    await p.context().close();
  }
});

test('the page weighs under 300 KB', async () => {
  let total = 0;
  // /app.js is every module of the page, bundled (the Makefile).
  for (const f of ['/', '/app.js', '/style.css', '/analysis.css']) {
    const r = await fetch(env.srv.url + f);
    assert.equal(r.status, 200, f);
    total += (await r.arrayBuffer()).byteLength;
  }
  assert.ok(total < 300 * 1024, `${total} bytes`);
});
