// index.js: the package for CommonJS (Node's require). load() with no
// argument reads the tak.wasm shipped beside this file.
'use strict';

const path = require('path');
const { TakEngine } = require('./tak-engine.js');
const { guard } = require('./guard.js');

/** The engine, from `source` (a URL, the module's bytes, or a compiled
 * WebAssembly.Module), or from this package's tak.wasm. */
async function load(source) {
  if (source === undefined) source = require('fs').readFileSync(path.join(__dirname, 'tak.wasm'));
  return guard(await TakEngine.load(source));
}

module.exports = { load, TakEngine, wasmPath: path.join(__dirname, 'tak.wasm') };
