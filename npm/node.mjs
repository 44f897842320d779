// node.mjs: the package for ES modules in Node (the CommonJS entry, re-exported).
import cjs from './index.js';

export const { load, TakEngine, wasmPath } = cjs;
export default cjs;
