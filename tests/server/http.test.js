// http.test.js: how `tak serve` sends the page's files: gzip'd to a client
// that takes gzip (and the bytes unzip to exactly the file), as they are to
// one that does not, each with the ETag of its bytes that a later request may send back
// to get a 304 and no body; errors stay errors. Raw node:http, which
// unzips nothing by itself. Run: node --test tests/server/
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const zlib = require('node:zlib');
const { serverForTests } = require('./lib.js');

const srv = serverForTests(test);

// Resolves { status, headers, body (a Buffer) }.
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: srv.port, path, method, headers }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const FILES = ['/', '/analysis', '/index.html', '/app.js', '/style.css', '/tak.wasm', '/tak-engine.js', '/sw.js',
  '/manifest.webmanifest', '/icon.svg'];

test('every file gzip\'d to a client that takes it unzips to the same bytes as sent plain', async () => {
  for (const path of FILES) {
    const plain = await get(path);
    assert.equal(plain.status, 200, path);
    assert.equal(plain.headers['content-encoding'], undefined, path);
    assert.equal(+plain.headers['content-length'], plain.body.length, path);
    const gz = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(gz.status, 200, path);
    assert.equal(gz.headers['content-encoding'], 'gzip', path);
    assert.equal(gz.headers.vary, 'Accept-Encoding', path);
    assert.equal(gz.headers['content-type'], plain.headers['content-type'], path);
    assert.equal(+gz.headers['content-length'], gz.body.length, path);
    assert.ok(gz.body.length < plain.body.length, path);
    assert.ok(zlib.gunzipSync(gz.body).equals(plain.body), `${path}: the gzip'd bytes unzip to the file`);
    // Two representations, two ETags: the gzip'd one is the plain one's, marked.
    assert.equal(gz.headers.etag, plain.headers.etag.slice(0, -1) + '-gz"', path);
  }
  const wasm = await get('/tak.wasm', { 'accept-encoding': 'gzip' });
  assert.ok(wasm.body.length < 250000, `tak.wasm gzip'd is ${wasm.body.length} bytes`);
});

test('Accept-Encoding is read as RFC 9110 says: q=0 refuses, * stands for what is not named', async () => {
  const cases = [['gzip', true], ['GZip', true], ['x-gzip', true], ['deflate, gzip;q=0.5', true],
    ['gzip;q=0', false], ['gzip; q=0.000', false], ['identity', false], ['*', true], ['*;q=0', false],
    ['gzip;q=0, *', false], ['br, *;q=0.1', true], ['gzipx', false], ['', false]];
  for (const [value, zipped] of cases) {
    const res = await get('/app.js', value ? { 'accept-encoding': value } : {});
    assert.equal(res.status, 200, value);
    assert.equal(res.headers['content-encoding'] === 'gzip', zipped, `Accept-Encoding: ${value}`);
  }
});

test('validators: If-None-Match with the ETag answers 304 with no body, anything else the file', async () => {
  const first = await get('/tak.wasm', { 'accept-encoding': 'gzip' });
  const etag = first.headers.etag;
  assert.match(etag, /^"[0-9a-f]{16}-gz"$/);
  assert.equal(first.headers['cache-control'], 'no-cache');
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const res = await get('/tak.wasm', { 'accept-encoding': 'gzip', 'if-none-match': inm });
    assert.equal(res.status, 304, inm);
    assert.equal(res.body.length, 0, inm);
    assert.equal(res.headers.etag, etag, inm);
    assert.equal(res.headers['content-encoding'], undefined, inm);
  }
  for (const inm of ['"other"', etag.slice(0, -2) + '"', 'garbage']) {
    const res = await get('/tak.wasm', { 'if-none-match': inm });
    assert.equal(res.status, 200, inm);
    assert.equal(+res.headers['content-length'], res.body.length, inm);
  }
  // The gzip'd bytes' ETag does not answer for the plain bytes (a client
  // that no longer takes gzip would be told to keep bytes it cannot read).
  const plain = await get('/tak.wasm', { 'if-none-match': etag });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal((await get('/tak.wasm', { 'if-none-match': plain.headers.etag })).status, 304);
  // The page's addresses are one file: one ETag.
  const page = (await get('/analysis')).headers.etag;
  assert.equal((await get('/g/abcdefghij')).headers.etag, page);
  assert.equal((await get('/', { 'if-none-match': page })).status, 304);
  // A file's ETag does not answer for another.
  assert.equal((await get('/app.js', { 'if-none-match': etag })).status, 200);
});

test('errors stay errors: unknown paths 404, API answers unzipped and without ETags', async () => {
  const nope = await get('/nope.txt', { 'accept-encoding': 'gzip', 'if-none-match': '*' });
  assert.equal(nope.status, 404);
  assert.equal(nope.headers['content-encoding'], undefined);
  const api = await get('/api/players/nobody-at-all', { 'accept-encoding': 'gzip' });
  assert.equal(api.status, 404);
  assert.equal(api.headers['content-encoding'], undefined);
  assert.equal(api.headers.etag, undefined);
  assert.ok(JSON.parse(api.body.toString()).error);
  // Several requests on one kept-alive connection, 304s among them.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const etag = (await get('/app.js')).headers.etag;
  const statuses = await Promise.all([0, 1, 2, 3].map((i) => new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: srv.port, path: '/app.js', agent, headers: i % 2 ? { 'if-none-match': etag } : {} },
      (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); }).on('error', reject);
  })));
  agent.destroy();
  assert.deepEqual(statuses, [200, 304, 200, 304]);
});

test('an unknown address gets the site\'s 404 page: HTML with a link home, plain, never 304', async () => {
  for (const path of ['/nope.txt', '/gx/abc', '/some/deep/path']) {
    const res = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': '*' });
    assert.equal(res.status, 404, path);
    assert.match(res.headers['content-type'], /^text\/html/, path);
    assert.equal(res.headers['content-encoding'], undefined, path);
    assert.equal(res.headers.etag, undefined, path);
    assert.equal(+res.headers['content-length'], res.body.length, path);
    assert.match(res.body.toString(), /<a id="home" href="\/">/, path);
  }
});
