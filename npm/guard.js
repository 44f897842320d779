// guard.js: the package's checks on what the engine is asked, before the
// WebAssembly module sees it. The module clamps or defaults what it cannot
// use (a negative node count becomes the default search); a package user is
// told instead. Shared by the CommonJS and ES module entries.
'use strict';

const LIMITS = {
  level: [1, 10],
  nodes: [1, 2 ** 31 - 1],   // the module takes 32-bit counts
  ms: [1, 2 ** 31 - 1],
  lines: [1, 16],
  depth: [1, 64],
};

function checkOpts(opts, method) {
  if (opts === undefined || opts === null) return;
  if (typeof opts !== 'object') throw new TypeError(`${method}: options must be an object`);
  for (const [key, [low, high]] of Object.entries(LIMITS)) {
    const v = opts[key];
    if (v === undefined || v === null) continue;
    if (!Number.isInteger(v)) throw new TypeError(`${method}: ${key} must be a whole number, not ${JSON.stringify(v)}`);
    if (v < low || v > high) throw new RangeError(`${method}: ${key} must be ${low}..${high}, not ${v}`);
  }
}

// Wraps an engine's searching methods with the checks; returns the engine.
function guard(engine) {
  for (const method of ['search', 'analyze']) {
    const inner = engine[method].bind(engine);
    engine[method] = (tps, opts, ...rest) => {
      checkOpts(opts, method);
      return inner(tps, opts, ...rest);
    };
  }
  const graph = engine.graph.bind(engine);
  engine.graph = (start, plies, opts, ...rest) => {
    checkOpts(opts, 'graph');
    if (!Array.isArray(plies)) throw new TypeError('graph: plies must be an array of moves');
    return graph(start, plies, opts, ...rest);
  };
  const perft = engine.perft.bind(engine);
  engine.perft = (tps, depth, opts) => {
    if (!Number.isInteger(depth) || depth < 0 || depth > 64) throw new RangeError(`perft: depth must be 0..64, not ${depth}`);
    return perft(tps, depth, opts);
  };
  return engine;
}

module.exports = { guard, checkOpts };
