// engine.js: the page's engine, this project's C library compiled to
// WebAssembly (/tak.wasm, driven by tak-engine.js), prepared once, after the
// first paint, while the server is there: the module compiled, a copy on
// this thread (legal moves, the position after a move, PTN read and
// written), and the workers' script kept as a Blob. The analysis board's
// workers and the review's are made from them, so the page fetches the
// module once and needs the server no more.

// ready: the promise of the whole; module: the compiled WebAssembly.Module;
// tak: the copy on this thread; workerUrl: the workers' script; spare: a
// worker made ahead for the analysis board's next position (analysis.js).
export const engine = { ready: null, module: null, tak: null, workerUrl: null, spare: null };

export function prepareEngine() {
  if (engine.ready) return engine.ready;
  const get = (url, how) => fetch(url).then((r) => {
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    return r[how]();
  });
  engine.ready = (async () => {
    const [bytes, engineJs, workerJs] = await Promise.all([get('/tak.wasm', 'arrayBuffer'),
      get('/tak-engine.js', 'text'), get('/tak-worker.js', 'text')]);
    engine.module = await WebAssembly.compile(bytes);
    const { TakEngine } = await importCommonJs(engineJs);
    engine.tak = await TakEngine.load(engine.module);
    // In a worker, tak-engine.js defines TakEngine for tak-worker.js, which then skips its importScripts.
    engine.workerUrl = URL.createObjectURL(new Blob([engineJs, '\n', workerJs], { type: 'text/javascript' }));
    return engine;
  })();
  engine.ready.catch(() => { engine.ready = null; }); // tried again when next asked for
  return engine.ready;
}

// tak-engine.js is one file for Node, npm and the page (CommonJS, else a
// global): imported here as a module that gets a `module` to fill, as
// npm/pack.sh makes its tak-engine.mjs, so the page has no global of it.
async function importCommonJs(text) {
  const url = URL.createObjectURL(new Blob(['const module = { exports: {} };\n', text, '\nexport default module.exports;\n'],
    { type: 'text/javascript' }));
  try { return (await import(url)).default; } finally { URL.revokeObjectURL(url); }
}
