// features.test.js: the page's later features in a real browser (Debian's
// chromium, driven by playwright-core): the engine's analysis of a position
// in review; rule enforcement off (a sandbox set up by clicks, checked by the
// server, then played on against the engine), from the new-game form and from
// a game; a match against the engine with its running table; TAKAT against
// the AI to its end and against a friend by link. Screenshots:
// build/e2e-artifacts/.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { browserForTests, newPage: openPage, shot, atPly, freeSquare } = require('./lib.js');

const env = browserForTests(test);
const newPage = (opts) => openPage(env.browser, opts);
const click = (page, square) => page.click(`[data-square=${square}]`);

test('review: the engine analyses the position shown, once the game is over', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#size', '4');
  await p.selectOption('#level', '1');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  await click(p, 'a1');
  await atPly(p, 2);
  await click(p, await freeSquare(p, ['b2', 'c3', 'b3']));
  await atPly(p, 4);
  assert.ok(await p.isDisabled('#analyze'), 'no analysis during the game');
  await p.click('#resign');
  await p.waitForSelector('#result:not([hidden])');
  // Step back to the position after 1. a1 .., and ask.
  await p.click('#moves span[data-ply="2"]');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 2);
  await p.click('#analyze');
  await p.waitForFunction(() => /Best: [a-d][1-4]/.test(document.getElementById('analysis').textContent));
  assert.match(await p.textContent('#analysis'), /Engine( \(in this page\))?, depth \d+: /);
  await shot(p, 'review-analysis');
  // Another position: the old answer goes away until asked again.
  await p.keyboard.press('Home');
  await p.waitForFunction(() => window.takApp.view && window.takApp.view.ply === 0);
  assert.ok(await p.isHidden('#analysis'));
  await p.click('#analyze');
  await p.waitForFunction(() => window.takApp.analysis && window.takApp.analysis.ply === 0);
  assert.match(await p.textContent('#analysis'), /Best: [a-d][1-4]/);
  await p.context().close();
});

test('rule enforcement off: a sandbox setup, checked by the server, continues as a game', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#size', '4');
  await p.selectOption('#level', '1');
  await p.uncheck('#new-enforce');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('#sandbox:not([hidden])');
  await p.waitForFunction(() => window.takApp.sandbox && window.takApp.state);
  assert.match(await p.textContent('#turn'), /Rules off/);
  const board = () => p.evaluate(() => window.takApp.sandbox.board.join(','));
  const edit = async (sq) => { const before = await board(); await click(p, sq); await p.waitForFunction((b) => window.takApp.sandbox.board.join(',') !== b, before); };
  // White flats on a1, b1, c1; Black flats on a4 and b4 (turns do not advance).
  for (const sq of ['a1', 'b1', 'c1']) await edit(sq);
  await p.click('.palette button[data-piece="2"]');
  for (const sq of ['a4', 'b4']) await edit(sq);
  assert.equal(await p.evaluate(() => window.takApp.state.ply), 0);
  assert.equal(await p.$$eval('.hint', (h) => h.length), 0, 'no hints with the rules off');
  // The 4x4 game has no capstones: the server refuses, the board stays.
  const before = await board();
  await p.click('.palette button[data-piece="2C"]');
  await click(p, 'c4');
  await p.waitForFunction(() => /capstone/i.test(document.getElementById('message').textContent));
  assert.equal(await board(), before);
  // Move a4's stone to c4, stack a Black wall on it... then take the wall off again.
  await p.check('input[name=tool][value=move]');
  await click(p, 'a4');
  await edit('c4');
  await p.check('input[name=tool][value=place]');
  await p.click('.palette button[data-piece="2S"]');
  await edit('c4');
  await p.check('input[name=tool][value=remove]');
  await edit('c4');
  assert.equal(await board(), '1,1,1,,,,,,,,,,,2,2,');
  assert.match(await p.textContent('#stash'), /White\s*Stones 12/);
  await shot(p, 'sandbox-setup');
  // Rules back on, White to move: a game against the engine from here.
  await p.selectOption('#sandbox-turn', 'white');
  await p.click('#sandbox-play');
  await p.waitForFunction(() => window.takApp.gameId && window.takApp.state && window.takApp.state.game === window.takApp.gameId);
  assert.ok(await p.isHidden('#sandbox'), await p.evaluate(() => JSON.stringify([!!window.takApp.sandbox, document.getElementById('sandbox').hidden, document.getElementById('message').textContent])));
  assert.equal(await p.evaluate(() => window.takApp.state.start), 'x,2,2,x/x4/x4/1,1,1,x 1 2');
  await click(p, 'd1'); // a1-b1-c1-d1
  await p.waitForSelector('#result:not([hidden])');
  assert.match(await p.textContent('#result'), /White wins by road/);
  await shot(p, 'sandbox-continued');
  await p.context().close();
});

test('rule enforcement off in a game: the sandbox starts from the position shown', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#size', '5');
  await p.selectOption('#level', '1');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  await click(p, 'a1');
  await atPly(p, 2);
  const played = await p.evaluate(() => window.takApp.state.board.join(','));
  await p.uncheck('#enforce');
  await p.waitForFunction(() => window.takApp.sandbox && window.takApp.state && window.takApp.state.ply === 0);
  assert.equal(await p.evaluate(() => window.takApp.sandbox.board.join(',')), played);
  assert.ok(await p.isHidden('#ptn-form'));
  await p.click('.palette button[data-piece="1S"]');
  const wall = played.split(',')[24] === '' ? 'e5' : 'd5'; // a square the engine left empty
  await click(p, wall);
  await p.waitForFunction((i) => window.takApp.sandbox.board[i] === '1S', wall === 'e5' ? 24 : 23);
  await p.selectOption('#sandbox-turn', 'black');
  await p.waitForFunction(() => window.takApp.sandbox.turn === 'black');
  await p.click('#enforce'); // rules back on: a new game, Black (the engine) to move
  await p.waitForFunction(() => window.takApp.gameId && window.takApp.state && window.takApp.state.game === window.takApp.gameId);
  // The new game starts from the sandbox: the fifth rank as played, the wall added, Black to move.
  const start = await p.evaluate(() => window.takApp.state.start);
  assert.match(start, / 2 2$/);
  const rank5 = start.split('/')[0].split(',')
    .flatMap((c) => (/^x\d*$/.test(c) ? Array(Number(c.slice(1) || 1)).fill('') : [c]));
  const expected = played.split(',').slice(20, 25);
  expected[wall === 'e5' ? 4 : 3] = '1S';
  assert.deepEqual(rank5, expected);
  await atPly(p, 1); // the engine moved
  assert.equal(await p.evaluate(() => window.takApp.state.turn), 'white');
  await p.context().close();
});

test('a match against the engine: colours alternate, the table keeps the rule book score', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#size', '3');
  await p.selectOption('#level', '1');
  await p.selectOption('#match-length', '2');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-square=a1]');
  await atPly(p, 0);
  await p.waitForSelector('#match:not([hidden])');
  assert.match(await p.textContent('#match'), /Match of 2 games.*1\s*White\s*playing/s);
  // Game 1, as White: a1, then walk into a loss by resigning.
  await click(p, 'a1');
  await atPly(p, 2);
  await p.click('#resign');
  await p.waitForSelector('#next-game:not([hidden])');
  // The table row follows the result message (it can trail the button by a frame under load).
  await p.waitForFunction(() => /1White0-10\d+/.test(document.querySelector('#match tbody')?.textContent ?? ''));
  const first = await p.evaluate(() => window.takApp.gameId);
  // Game 2: Black now; the engine opens.
  await p.click('#next-game');
  await p.waitForFunction((g) => window.takApp.gameId !== g && window.takApp.state && window.takApp.state.ply === 1, first);
  assert.equal(await p.evaluate(() => window.takApp.seat), 'black');
  assert.match(await p.textContent('#match tbody'), /2Blackplaying/);
  await p.click('#resign');
  await p.waitForFunction(() => /you lose/.test(document.getElementById('match-caption').textContent));
  assert.ok(await p.isHidden('#next-game'), 'the match is over');
  // Both games lost by resignation: the engine scores 9 squares + its reserve each time.
  const them = await p.$eval('#match tfoot', (t) => +t.rows[0].cells[4].textContent);
  assert.ok(them >= 2 * (9 + 10 - 2) && them <= 2 * 19, `their total ${them}`);
  await shot(p, 'match-table');
  // Reloading finds the match again (kept in the page's storage).
  await p.reload();
  await p.waitForSelector('#match:not([hidden])');
  assert.match(await p.textContent('#match-caption'), /you lose/);
  await p.context().close();
});

test('TAKAT against the AI, by clicks, to the end; the rules one click away', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/');
  await p.check('input[name=kind][value=takat]');
  await p.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await p.check('input[name=opponent][value=engine]');
  await p.selectOption('#level', '1');
  await p.check('input[name=color][value=white]');
  await p.click('#new-form button[type=submit]');
  await p.waitForSelector('[data-cell=b2]');
  assert.match(p.url(), /\/t\/[a-z2-9]{10}$/);
  await p.waitForFunction(() => window.takatApp.state && window.takatApp.state.legal.length === 6);
  assert.equal(await p.$$eval('.hex.red', (h) => h.length), 3, 'three red cells');
  assert.equal(await p.$$eval('.hex.target', (h) => h.length), 6, 'the six drops are shown');
  await p.click('[data-cell=b2]'); // the centre: never a drop
  await p.waitForFunction(() => /cannot drop/.test(document.getElementById('takat-message').textContent));
  let sawKo = false, sawMove = false;
  for (let i = 0; i < 300; i++) {
    const s = await p.evaluate(() => { const s = window.takatApp.state; return s && { result: s.result, mine: s.turn === 'white' && !s.thinking, legal: s.legal, ply: s.ply, ko: s.ko }; });
    if (s.result) break;
    if (!s.mine) { await p.waitForFunction((n) => { const t = window.takatApp.state; return t.result || t.ply > n; }, s.ply); continue; }
    if (s.ko) sawKo = sawKo || (await p.$$eval('.kolabel', (k) => k.length)) === 1;
    const turn = s.legal[s.legal.length - 1]; // moves come after drops
    const [a, b] = turn.split('-');
    await p.click(`[data-cell=${a}]`);
    if (b) {
      await p.waitForSelector(`.hex.chosen`);
      if (!sawMove) await shot(p, 'takat-moving');
      sawMove = true;
      await p.click(`[data-cell=${b}]`);
    }
    await p.waitForFunction((n) => { const t = window.takatApp.state; return t.result || t.ply > n; }, s.ply);
  }
  const end = await p.evaluate(() => window.takatApp.state.result);
  assert.ok(end, 'the game ended');
  await p.waitForSelector('#takat-result:not([hidden])');
  assert.match(await p.textContent('#takat-result'), /wins|Draw/);
  assert.ok(sawKo, 'the ko cell was marked');
  assert.ok(sawMove, 'a stone was moved by two clicks');
  await shot(p, 'takat-end');
  await p.click('#takat-rules summary');
  assert.match(await p.textContent('#takat-rules'), /Forced drop.*Ko/s);
  assert.ok(await p.isVisible('#takat-rules li'));
  await shot(p, 'takat-rules');
  await p.context().close();
});

test('TAKAT against a friend by the invitation link', async () => {
  const a = await newPage();
  await a.goto(env.srv.url + '/');
  await a.check('input[name=kind][value=takat]');
  await a.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await a.check('input[name=opponent][value=friend]');
  await a.check('input[name=color][value=white]');
  await a.click('#new-form button[type=submit]');
  await a.waitForSelector('[data-cell=b2]');
  const invite = await a.inputValue('#takat-links label:has-text("Invite") input');
  assert.match(invite, /\/t\/[a-z2-9]{10}#invite=/);
  const b = await newPage();
  await b.goto(invite);
  await b.waitForFunction(() => window.takatApp.seat === 'black' && window.takatApp.state);
  assert.doesNotMatch(b.url(), /invite/, 'the secret leaves the address bar');
  await a.waitForFunction(() => window.takatApp.state.seats.black === 'taken');
  await a.click('[data-cell=a2]');
  await b.waitForFunction(() => window.takatApp.state.ply === 1);
  assert.match(await b.textContent('#takat-note'), /Black must drop/);
  assert.equal(await b.$$eval('.kolabel', (k) => k.length), 1, 'the ko cell is marked');
  await b.click('[data-cell=a2]'); // a stack, and Black must drop: refused with the reason
  await b.waitForFunction(() => /must drop/.test(document.getElementById('takat-message').textContent));
  await b.click('[data-cell=c2]');
  await a.waitForFunction(() => window.takatApp.state.ply === 2);
  assert.match(await a.textContent('#takat-moves'), /a2\s+c2/);
  await shot(b, 'takat-friend');
  await a.click('#takat-resign');
  await b.waitForSelector('#takat-result:not([hidden])');
  assert.match(await b.textContent('#takat-result'), /Black wins: White resigned/);
  await a.context().close(); await b.context().close();
});

test('a match against a friend: the next game reaches both browsers, colours swapped', async () => {
  const a = await newPage();
  await a.goto(env.srv.url + '/');
  await a.waitForFunction(() => window.takApp && window.takApp.lobby); // the lobby drawn above the form: no shift under the click
  await a.check('input[name=opponent][value=friend]');
  await a.selectOption('#size', '3');
  await a.selectOption('#match-length', '2');
  await a.check('input[name=color][value=white]');
  await a.click('#new-form button[type=submit]');
  await a.waitForSelector('[data-square=a1]');
  const invite = await a.inputValue('#links label:has-text("Invite") input');
  const b = await newPage();
  await b.goto(invite);
  assert.match(invite, /&match=2$/);
  await b.waitForFunction(() => window.takApp.seat === 'black' && window.takApp.state);
  await b.waitForSelector('#match:not([hidden])'); // the friend's table from game 1
  assert.match(await b.textContent('#match-caption'), /Match of 2 games/);
  await a.click('#resign'); // game 1: Black (b) wins, 9 squares + 10 stones
  await a.waitForSelector('#next-game:not([hidden])');
  const first = await a.evaluate(() => window.takApp.gameId);
  await a.click('#next-game');
  for (const p of [a, b]) await p.waitForFunction((g) => window.takApp.gameId && window.takApp.gameId !== g && window.takApp.state && window.takApp.state.game === window.takApp.gameId, first);
  assert.equal(await a.evaluate(() => window.takApp.seat), 'black');
  assert.equal(await b.evaluate(() => window.takApp.seat), 'white');
  await b.waitForSelector('#match:not([hidden])');
  await click(b, 'a1');
  await atPly(a, 1);
  await b.click('#resign'); // game 2: Black (a) wins, 9 + 9
  for (const p of [a, b]) await p.waitForFunction(() => /Match of 2 games: you (win|lose)/.test(document.getElementById('match-caption').textContent));
  assert.match(await a.textContent('#match-caption'), /you lose/);
  assert.match(await b.textContent('#match-caption'), /you win/);
  assert.deepEqual(await a.$eval('#match tfoot', (t) => [+t.rows[0].cells[3].textContent, +t.rows[0].cells[4].textContent]), [18, 19]);
  await shot(b, 'match-friend');
  await a.context().close(); await b.context().close();
});
