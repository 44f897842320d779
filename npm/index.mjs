// index.mjs: the package for ES modules in browsers and bundlers (webpack,
// Vite, esbuild, Rollup resolve `new URL('./tak.wasm', import.meta.url)` to
// the shipped module). load() with no argument fetches that tak.wasm.
import engineModule from './tak-engine.mjs';
import guardModule from './guard.mjs';

const { guard } = guardModule;

export const { TakEngine } = engineModule;

/** The engine, from `source` (a URL, the module's bytes, or a compiled
 * WebAssembly.Module), or from this package's tak.wasm. */
export async function load(source) {
  if (source === undefined) source = new URL('./tak.wasm', import.meta.url);
  return guard(await TakEngine.load(source));
}

export default { load, TakEngine };
