// tak-worker.js: the engine in a Web Worker, so a search never blocks the
// page. Messages in: { id, op, args } with op one of TakEngine's methods
// (legalMoves, play, perft, search, view, graph, analyze, result, setup,
// readPtn, writePtn); out: { id, result } or { id, error }, and for analyze
// also { id, line } for each line as the search finds it. { op: 'ready' } answers once the module
// has loaded. The module is /tak.wasm, unless the first message is
// { op: 'load', args: [a WebAssembly.Module] }: a page that makes this
// worker from a Blob (which needs no server, see web/analysis.js) sends it so.
'use strict';
if (typeof TakEngine === 'undefined') importScripts('/tak-engine.js');
let ready = null;
const OPS = ['legalMoves', 'play', 'perft', 'search', 'view', 'graph', 'analyze', 'result', 'setup', 'readPtn', 'writePtn'];

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  try {
    if (op === 'load' && !ready) ready = TakEngine.load(args[0]);
    if (!ready) ready = TakEngine.load('/tak.wasm');
    const tak = await ready;
    if (op === 'ready' || op === 'load') return self.postMessage({ id, result: true });
    if (!OPS.includes(op)) throw new Error('unknown operation ' + op);
    const a = args || [];
    // analyze streams its lines; the page ends this worker to stop it.
    let result = op === 'analyze' ? tak.analyze(a[0], a[1], (line) => self.postMessage({ id, line })) : tak[op](...a);
    if (typeof result === 'bigint') result = result.toString();
    self.postMessage({ id, result });
  } catch (e) {
    self.postMessage({ id, error: e.message });
  }
};
