// tak-worker.js: the engine in a Web Worker, so a search never blocks the
// page. Messages in: { id, op: a method of TakEngine (tak-engine.js), args };
// out: { id, result } or { id, error }. The first message waits for the
// module (/tak.wasm) to load; { op: 'ready' } answers once it has.
'use strict';
importScripts('/tak-engine.js');
const ready = TakEngine.load('/tak.wasm');

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    const tak = await ready;
    if (op === 'ready') return self.postMessage({ id, result: true });
    if (!['legalMoves', 'play', 'perft', 'search', 'view', 'graph', 'readPtn', 'writePtn'].includes(op)) throw new Error('unknown operation ' + op);
    let result = tak[op](...(args || []));
    if (typeof result === 'bigint') result = result.toString();
    self.postMessage({ id, result });
  } catch (e) {
    self.postMessage({ id, error: e.message });
  }
};
