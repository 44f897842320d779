// players.test.js: names and ratings in the page. Two browsers claim names,
// meet through a rated seek, play and end the game; both boards show the
// names (linked to the players' pages) and the ratings changing, the
// exported PTN carries Player1/Player2 and Rating1/Rating2, the players'
// pages list the game (with its PTN) and the rating history, and the
// leaderboard orders them. A name taken by another browser is refused, and
// a browser keeps its name after a reload. Claiming a name moves nothing on
// the page (the click that claimed it must still land). A player's page
// says of each game how it ended, in words, with its clock, size, length and
// date, the opponent linked; a name goes to another browser by a link
// carrying the secret in its fragment, once asked, and a broken link
// changes nothing (issue 43); the name it replaces is named in the
// question, kept, and switched back to, and Back never returns to the link.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { browserForTests, newPage: openPage, shot, atPly, openLobby } = require('./lib.js');
const { connect, identify, play, waitFor, uniqueName } = require('../server/lib.js');

const env = browserForTests(test);
const newPage = (opts) => openPage(env.browser, opts);

const who = (p, color) => p.textContent(`.stash-row[data-color=${color}] .who`);

async function sendMove(p, move) {
  await p.fill('#ptn-input', move);
  await p.click('#ptn-form button[type=submit]');
}

test('claiming a name moves nothing: the button whose click claimed it is still under the pointer', async () => {
  // The name is claimed when the field is left, so its answer can come
  // between the press and the release of the click on "Post a game"; a
  // line appearing then would move the button and the click would miss.
  for (const viewport of [{ width: 1000, height: 760 }, { width: 390, height: 844 }]) {
    const p = await newPage({ viewport });
    await openLobby(p, env.srv.url);
    const box = () => p.evaluate(() => JSON.stringify(document.querySelector('#seek-form button[type=submit]').getBoundingClientRect()));
    const before = await box();
    await p.fill('#player-name', `Mover${viewport.width}`);
    await p.evaluate(() => document.getElementById('player-name').dispatchEvent(new Event('change')));
    await p.waitForFunction(() => document.getElementById('player-name').readOnly);
    assert.match(await p.textContent('#me'), /You play as Mover/);
    assert.equal(await box(), before, `the Post button moved at ${viewport.width} px`);
    await p.context().close();
  }
});

test('a rated game between two browsers changes both ratings; the names, the PTN and the players\' pages show it', async () => {
  const a = await newPage(), b = await newPage();
  for (const p of [a, b]) await openLobby(p, env.srv.url);
  await a.fill('#player-name', 'Alice');
  await a.selectOption('#seek-form select[name=size]', '4');
  await a.selectOption('#seek-form select[name=tc]', '');
  await a.selectOption('#seek-form select[name=color]', 'white');
  assert.equal(await a.isChecked('#seek-form input[name=rated]'), true, 'rated by default');
  await a.click('#seek-form button[type=submit]');
  // Alice's name is hers now: fixed in her page, shown with her rating.
  await a.waitForFunction(() => document.getElementById('player-name').readOnly);
  assert.match(await a.textContent('#me'), /You play as Alice · rating 1500\?/);
  const row = b.locator('#seeks tbody tr', { hasText: 'Alice' });
  // (Once, in CI, Bob's lobby never showed the seek: say what his page had.)
  await row.waitFor().catch(async (e) => {
    const seen = await b.evaluate(() => JSON.stringify({ connected: takApp.connected, lobby: takApp.lobby,
      message: document.getElementById('lobby-message').textContent, newGame: !document.getElementById('new-game').hidden }));
    throw new Error(`${e.message}\nBob's page: ${seen}`);
  });
  assert.match(await row.textContent(), /Alice \(1500\)4×42nonewhiterated/);
  // Another browser cannot take the name, in any case.
  await b.fill('#player-name', 'ALICE');
  await b.click('#seek-form button[type=submit]');
  await b.waitForFunction(() => /is taken/.test(document.getElementById('lobby-message').textContent) && /is taken/.test(document.getElementById('me').textContent));
  await b.fill('#player-name', 'Bob');
  await row.locator('button').click();
  for (const p of [a, b]) await p.waitForFunction(() => window.takApp.state && window.takApp.state.rated);
  assert.equal(await b.evaluate(() => document.getElementById('player-name').value), 'Bob');
  // Names and ratings on both boards, each a link to the player's page.
  for (const p of [a, b]) {
    assert.equal(await who(p, 'white'), 'Alice (1500)');
    assert.equal(await who(p, 'black'), 'Bob (1500)');
  }
  assert.equal(await a.getAttribute('.stash-row[data-color=black] .who a', 'href'), '/p/Bob');
  await sendMove(a, 'a1');
  await atPly(b, 1);
  await sendMove(b, 'd4');
  await atPly(a, 2);
  await b.click('#resign'); // the confirmation is accepted
  for (const p of [a, b]) await p.waitForFunction(() => window.takApp.state.ratings && window.takApp.state.ratings.white.after !== null);
  const ratings = await a.evaluate(() => window.takApp.state.ratings);
  assert.ok(ratings.white.after > 1500 && ratings.black.after < 1500, JSON.stringify(ratings));
  assert.equal(await who(b, 'white'), `Alice (1500 → ${ratings.white.after})`);
  assert.equal(await who(a, 'black'), `Bob (1500 → ${ratings.black.after})`);
  await shot(a, 'players-rated-game');
  // The exported PTN names the players and their ratings before the game.
  await b.click('#export-ptn');
  await b.waitForFunction(() => /Player1/.test(document.getElementById('export').value));
  const ptn = await b.inputValue('#export');
  assert.match(ptn, /\[Player1 "Alice"\][\s\S]*\[Player2 "Bob"\]/);
  assert.match(ptn, /\[Rating1 "1500"\][\s\S]*\[Rating2 "1500"\]|\[Rating2 "1500"\][\s\S]*\[Rating1 "1500"\]/);
  const gameId = await a.evaluate(() => window.takApp.gameId);

  // Bob's page: his rating, its history, the game with its PTN.
  await b.goto(env.srv.url + '/p/Bob');
  await b.waitForSelector('#player-games');
  assert.match(await b.textContent('#player-page h2'), /^Bob$/);
  assert.match(await b.textContent('#player-rating'), new RegExp(`Rating ${ratings.black.after}\\? ± \\d+ after 1 rated game`));
  assert.equal(await b.$$eval('.rating-chart circle', (c) => c.length), 2, 'the start and one game');
  const game = b.locator(`#player-games tr[data-game="${gameId}"]`);
  assert.match(await game.textContent(), new RegExp(`^lost to Alice by resignation \\(1-0\\)black4×4untimedrated 1500 → ${ratings.black.after}2 plies`));
  assert.equal(await game.locator('a', { hasText: 'PTN' }).getAttribute('href'), `/api/games/${gameId}.ptn`);
  const download = await b.evaluate((href) => fetch(href).then((r) => r.text()), `/api/games/${gameId}.ptn`);
  assert.equal(download, ptn);
  await shot(b, 'players-page');
  // From Bob's page to Alice's, by her name.
  await game.locator('a', { hasText: 'Alice' }).click();
  await b.waitForFunction(() => /^Alice$/.test(document.querySelector('#player-page h2')?.textContent ?? '') && document.getElementById('player-games'));
  assert.match(await b.textContent(`#player-games tr[data-game="${gameId}"]`), /^beat Bob by resignation \(1-0\)white/);
  // The leaderboard: Alice above Bob.
  await b.click('#leaderboard-link');
  await b.waitForSelector('#leaders');
  const names = await b.$$eval('#leaders tbody tr td:nth-child(2)', (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(names, ['Alice', 'Bob']);
  await shot(b, 'players-leaderboard');
  // A reload keeps the name: the identity stays in this browser.
  await a.goto(env.srv.url + '/');
  await a.waitForFunction(() => document.getElementById('player-name').readOnly);
  assert.equal(await a.inputValue('#player-name'), 'Alice');
  assert.match(await a.textContent('#me'), new RegExp(`rating ${ratings.white.after}\\?`));
  for (const p of [a, b]) await p.context().close();
});

test('a page of nobody says so', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/p/Nobody_here');
  await p.waitForSelector('#player-page .message');
  assert.match(await p.textContent('#player-page'), /No player Nobody_here here/);
  assert.equal(await p.isHidden('#new-game'), true);
  await p.context().close();
});

test('a name typed, then the engine in one click: the game is played under the name, unrated', async () => {
  const p = await newPage();
  await p.goto(env.srv.url + '/');
  await p.waitForSelector('#engine-levels button');
  await p.selectOption('#seek-form select[name=color]', 'white');
  await p.fill('#player-name', 'Carol');
  await p.click('#engine-levels button[data-level="1"]');
  await p.waitForFunction(() => window.takApp.state && window.takApp.state.names);
  const s = await p.evaluate(() => ({ names: window.takApp.state.names, rated: window.takApp.state.rated, ratings: window.takApp.state.ratings }));
  assert.deepEqual(s, { names: { white: 'Carol', black: null }, rated: false, ratings: { white: { before: 1500, after: null }, black: null } });
  assert.equal(await p.textContent('.stash-row[data-color=white] .who'), 'Carol (1500)');
  await p.context().close();
});

// A rated 3×3 game between two clients over the wire, from a's seek (a
// White, b Black) with `clock` ({ time, increment } in seconds, or none);
// resolves with its id once both follow it.
async function seekGame(a, b, clock = {}) {
  const k = await a.send({ type: 'seek', size: 3, color: 'white', rated: true, ...clock });
  assert.equal(k.type, 'ok', JSON.stringify(k));
  const acc = await b.send({ type: 'accept_seek', seek: k.seek });
  assert.equal(acc.type, 'ok', JSON.stringify(acc));
  const told = await waitFor(() => a.others.find((m) => m.type === 'seek_accepted' && m.seek === k.seek));
  assert.equal((await a.send({ type: 'join', game: told.game, token: told.token })).type, 'ok');
  await a.nextState((s) => s.game === acc.game);
  return acc.game;
}

test('a player\'s page says how each game ended, its clock, size, length and date, with the opponent linked', async () => {
  // Four real games, played to their ends over the wire: a road, a full
  // board won on flats, a flag fallen, a resignation.
  const a = await connect(env.srv.port), b = await connect(env.srv.port);
  const dee = (await identify(a, uniqueName('Dee'))).name, eli = (await identify(b, uniqueName('Eli'))).name;
  const over = (game) => b.nextState((s) => s.game === game && s.result, 5000);
  const road = await seekGame(a, b, { time: 600, increment: 5 });
  await play(a, b, ['c1', 'a1', 'a2', 'b1', 'b2', 'a3', 'c2']); // White's road a2-b2-c2
  await over(road);
  // White's five flats (the corners and the centre) to Black's four, no road.
  const flats = await seekGame(a, b);
  await play(a, b, ['b1', 'a1', 'c1', 'a2', 'a3', 'c2', 'c3', 'b3', 'b2']);
  await over(flats);
  const time = await seekGame(a, b, { time: 1 });
  await play(a, b, ['a1', 'c3']); // White's second runs out
  await over(time);
  const resigned = await seekGame(a, b, { time: 180, increment: 2 });
  await play(a, b, ['a1', 'c3', 'b2']);
  assert.equal((await b.send({ type: 'resign' })).type, 'ok');
  await over(resigned);
  for (const x of [a, b]) await x.close();

  const p = await newPage();
  await p.goto(env.srv.url + '/p/' + eli);
  await p.waitForSelector('#player-games');
  const row = (game) => p.$$eval(`#player-games tr[data-game="${game}"] td`, (tds) => tds.map((t) => t.textContent));
  const day = /^\d{4}-\d{2}-\d{2}$/, rated = /^rated \d+ → \d+$/;
  const want = {
    [road]: [`lost to ${dee} by road (R-0)`, 'black', '3×3', '10+5', '7 plies'],
    [flats]: [`lost to ${dee} on flats (F-0)`, 'black', '3×3', 'untimed', '9 plies'],
    [time]: [`beat ${dee} on time (0-1)`, 'black', '3×3', '1s+0', '2 plies'],
    [resigned]: [`lost to ${dee} by resignation (1-0)`, 'black', '3×3', '3+2', '3 plies'],
  };
  for (const [game, [outcome, color, size, clock, length]] of Object.entries(want)) {
    const cells = await row(game);
    assert.deepEqual([cells[0], cells[1], cells[2], cells[3], cells[5]], [outcome, color, size, clock, length], game);
    assert.match(cells[4], rated, game);
    assert.match(cells[6], day, game);
    // The opponent's name goes to their page; the game opens for review.
    const tr = p.locator(`#player-games tr[data-game="${game}"]`);
    assert.equal(await tr.locator('td.outcome a').getAttribute('href'), '/p/' + dee);
    assert.equal(await tr.locator('a', { hasText: 'review' }).getAttribute('href'), '/g/' + game);
  }
  await shot(p, 'players-page-endings');
  // And the review link opens the game at its end.
  await p.locator(`#player-games tr[data-game="${road}"] a`, { hasText: 'review' }).click();
  // The click navigates: until the game's page has loaded, the player's page
  // (which has no takApp) may still be the one the predicate runs in.
  await p.waitForFunction((id) => window.takApp?.gameId === id && window.takApp.state?.result, road);
  await p.context().close();
});

// Opens the lobby in `p` and claims the name `n` there.
async function claimed(p, n) {
  await openLobby(p, env.srv.url);
  await p.fill('#player-name', n);
  await p.evaluate(() => document.getElementById('player-name').dispatchEvent(new Event('change')));
  await p.waitForFunction(() => document.getElementById('player-name').readOnly);
}

test('a name goes to another browser by a link, once asked; a broken link is refused and changes nothing', async () => {
  const name = uniqueName('Fay'), own = uniqueName('Gus');
  // The first browser: its name, and the link to it beside the name.
  const a = await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  await claimed(a, name);
  await a.click('#carry-name-btn');
  await a.waitForSelector('#carry-name[open]');
  const link = await a.inputValue('#carry-name-link');
  const secret = await a.evaluate(() => localStorage.getItem('tak.identity'));
  // The secret travels in the fragment only: never in the path or query the server logs.
  assert.equal(link, `${env.srv.url}/#identity=${secret}`);
  assert.match(await a.textContent('#carry-name'), /Whoever has it plays as you/);
  assert.equal(await a.textContent('#carry-name-who'), name);
  await a.click('#carry-name-copy');
  await a.waitForFunction(() => /Copied/.test(document.getElementById('carry-name-copied').textContent));
  assert.equal(await a.evaluate(() => navigator.clipboard.readText()), link);
  await shot(a, 'players-carry-name');
  await a.click('#carry-name-close');
  const me = await a.textContent('#me');

  // The second browser has a name of its own; a link cut short (opened as
  // a new page), and one that names nobody (pasted into the tab, which
  // changes only the fragment), are refused in words, and it keeps its own.
  const b = await newPage();
  await claimed(b, own);
  const before = await b.evaluate(() => localStorage.getItem('tak.identity'));
  await b.goto(`${env.srv.url}/players`);
  await b.goto(`${env.srv.url}/#identity=${secret.slice(0, 12)}`);
  await b.waitForFunction(() => !document.getElementById('identity-note').hidden);
  assert.match(await b.textContent('#identity-note'), /link to use a name here is broken.*Nothing changed/);
  assert.equal(await b.evaluate(() => location.hash), '', 'the broken secret is out of the address too');
  await b.waitForFunction(() => document.getElementById('player-name').readOnly);
  assert.equal(await b.inputValue('#player-name'), own);
  assert.equal(await b.evaluate(() => localStorage.getItem('tak.identity')), before);
  await b.goto(`${env.srv.url}/#identity=${'x'.repeat(32)}`);
  await b.waitForFunction(() => /names no player/.test(document.getElementById('identity-note').textContent));
  await b.waitForFunction((n) => document.getElementById('player-name').value === n && /You play as/.test(document.getElementById('me').textContent), own);
  assert.equal(await b.evaluate(() => localStorage.getItem('tak.identity')), before);

  // The good link: the page asks (naming the player and the name it
  // replaces), then plays as the first browser's player, the secret kept and
  // gone from the address bar.
  const asked = [];
  b.on('dialog', (d) => asked.push(d.message()));
  await b.goto(`${env.srv.url}/players`);
  await b.goto(link);
  await b.waitForFunction((n) => document.getElementById('player-name').value === n, name);
  assert.equal(asked.length, 1);
  assert.match(asked[0], new RegExp(`Play as ${name} \\(rating 1500\\?\\)[\\s\\S]*own name, ${own} \\(rating 1500\\?\\), is put aside, not lost`));
  assert.equal(await b.evaluate(() => location.href), env.srv.url + '/');
  assert.equal(await b.evaluate(() => localStorage.getItem('tak.identity')), secret);
  assert.equal(await b.textContent('#me'), me);
  assert.match(await b.textContent('#identity-note'), new RegExp(`now plays as ${name}`));
  // And it stays so after a reload: the secret is this browser's now.
  await b.reload();
  await b.waitForFunction(() => document.getElementById('player-name').readOnly);
  assert.equal(await b.textContent('#me'), me);
  for (const p of [a, b]) await p.context().close();
});

test('a link taken puts this browser\'s own name aside, not lost: the question names it (asked of the server before the page knows it), "Switch back to NAME" brings it back, and Back never returns to the link', async () => {
  const name = uniqueName('Hal'), own = uniqueName('Ida');
  const a = await newPage();
  await claimed(a, name);
  const secret = await a.evaluate(() => localStorage.getItem('tak.identity'));
  const b = await newPage();
  await claimed(b, own);
  const mine = await b.evaluate(() => localStorage.getItem('tak.identity'));
  // Only the server knows whose this browser's secret is: no name kept beside it.
  await b.evaluate(() => localStorage.removeItem('tak.name'));
  const asked = [];
  b.on('dialog', (d) => asked.push(d.message()));
  await b.goto(`${env.srv.url}/players`);
  await b.goto(`${env.srv.url}/#identity=${secret}`);
  await b.waitForFunction((n) => document.getElementById('player-name').value === n && /You play as/.test(document.getElementById('me').textContent), name);
  assert.equal(asked.length, 1);
  assert.match(asked[0], new RegExp(`Play as ${name} [\\s\\S]*own name, ${own} \\(rating 1500\\?\\), is put aside, not lost: "Switch back to ${own}"`));
  assert.deepEqual(await b.evaluate(() => JSON.parse(localStorage.getItem('tak.identity.previous'))), [{ identity: mine, name: own }]);
  assert.match(await b.textContent('#identity-note'), new RegExp(`now plays as ${name}\\. ${own} is kept`));
  // The link's address is gone from the history: Back goes to the page
  // before it, Forward to the site without the secret, asking nothing.
  await b.goBack();
  assert.equal(b.url(), env.srv.url + '/players');
  await b.goForward();
  assert.equal(b.url(), env.srv.url + '/');
  await b.waitForFunction((n) => document.getElementById('player-name').value === n && /You play as/.test(document.getElementById('me').textContent), name);
  assert.equal(asked.length, 1, 'not asked again');
  // Back to the name of its own, the link's kept the same way.
  await b.click(`#previous-names button:text-is("Switch back to ${own}")`);
  await b.waitForFunction((n) => document.getElementById('player-name').value === n && /You play as/.test(document.getElementById('me').textContent), own);
  assert.equal(await b.evaluate(() => localStorage.getItem('tak.identity')), mine);
  assert.deepEqual(await b.evaluate(() => JSON.parse(localStorage.getItem('tak.identity.previous'))), [{ identity: secret, name }]);
  assert.deepEqual(await b.$$eval('#previous-names button', (l) => l.map((x) => x.textContent)), [`Switch back to ${name}`]);
  await shot(b, 'players-switch-back');
  await b.reload();
  await b.waitForFunction((n) => document.getElementById('player-name').value === n && document.getElementById('player-name').readOnly, own);
  for (const p of [a, b]) await p.context().close();
});
