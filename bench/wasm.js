// bench/wasm.js: the engine compiled to WebAssembly (build/wasm/tak.wasm,
// run here by Node's V8, the engine of Chromium) against the native build
// (build/tak tei), one thread each, the same positions and node counts.
// Prints nodes per second for both and their ratio. Run on a quiet machine:
//
//   make build/tak && node bench/wasm.js [NODES]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { TakEngine } = require('../web/tak-engine.js');

const ROOT = path.resolve(__dirname, '..');
const NODES = +(process.argv[2] || 1000000);
const POSITIONS = [
  ['5x5 opening', 'x5/x5/x5/x5/x5 1 1', 2],
  ['6x6 opening', 'x6/x6/x6/x6/x6/x6 1 1', 2],
  ['6x6 middle game', '2,x,1,x,2,1/x,2,1,2C,1,x/1,1C,21,2,x2/x,2,12,1,2,x/2,x,1,2,1,x/x,1,x,2,x2 1 14', 2],
];

// The native engine over TEI: one search of `nodes` from `tps`, its time.
function native(tps, komi, nodes) {
  return new Promise((resolve, reject) => {
    const p = spawn(path.join(ROOT, 'build/tak'), ['tei'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '', t0 = 0;
    p.stdout.on('data', (d) => {
      out += d;
      if (/teiok/.test(out) && !t0) {
        p.stdin.write(`setoption name HalfKomi value ${komi * 2}\nsetoption name Hash value 16\nsetoption name Threads value 1\nisready\n`);
        t0 = -1;
      }
      if (/readyok/.test(out) && t0 === -1) {
        out = '';
        t0 = process.hrtime.bigint();
        p.stdin.write(`position tps ${tps}\ngo nodes ${nodes}\n`);
      }
      if (t0 > 0 && /bestmove/.test(out)) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const m = [...out.matchAll(/ nodes (\d+)/g)].pop();
        p.stdin.end('quit\n');
        resolve({ nodes: m ? +m[1] : nodes, ms });
      }
    });
    p.on('error', reject);
    p.stdin.write('tei\n');
  });
}

(async () => {
  const tak = await TakEngine.load(fs.readFileSync(path.join(ROOT, 'build/wasm/tak.wasm')));
  console.log(`${NODES} nodes a position, one thread, 16 MB table`);
  console.log('position'.padEnd(18), 'native n/s'.padStart(12), 'wasm n/s'.padStart(12), 'wasm/native'.padStart(12));
  let tn = 0, tw = 0;
  for (const [name, tps, komi] of POSITIONS) {
    const n = await native(tps, komi, NODES);
    const t0 = process.hrtime.bigint();
    const w = tak.search(tps, { komi, nodes: NODES });
    const wms = Number(process.hrtime.bigint() - t0) / 1e6;
    const nn = n.nodes / n.ms * 1000, wn = w.nodes / wms * 1000;
    tn += nn; tw += wn;
    console.log(name.padEnd(18), Math.round(nn).toString().padStart(12), Math.round(wn).toString().padStart(12), (wn / nn).toFixed(2).padStart(12));
  }
  console.log('mean'.padEnd(18), Math.round(tn / 3).toString().padStart(12), Math.round(tw / 3).toString().padStart(12), (tw / tn).toFixed(2).padStart(12));
})();
