// tak-engine.js: this project's rules, notation and engine (the C library,
// compiled to WebAssembly as /tak.wasm) for JavaScript: a page, a Web Worker
// (tak-worker.js) or Node. No Tak rule is written here: every answer comes
// from the C code. The API is documented in docs/wasm.md.
//
//   const tak = await TakEngine.load(bytesOrUrl);
//   tak.legalMoves(tps, { komi })       -> ['a1', 'Sa1', ...] (long PTN)
//   tak.play(tps, move, { komi })       -> { tps, over }
//   tak.perft(tps, depth, { komi })     -> a BigInt
//   tak.view(start, plies, ply, { komi, size }) -> a position as the server's states give it
//   tak.graph(start, plies, { komi, size, nodes }) -> { scores, marks, best } for a whole game
//   tak.search(tps, { komi, level, nodes, ms }) -> { best, score, win_in, depth, nodes, time_ms, pv }
//   tak.readPtn(text)                   -> a game as a document: tags, rules, lines (branches), notes
//   tak.writePtn(doc)                   -> PTN text, branches and notes included
//   tak.analyze(tps, { komi, lines, depth, nodes, ms }, onLine) -> the last depth's lines (MultiPV),
//                                          each line also given to onLine as the search finds it
//   tak.result(tps, { komi })           -> { code, text, winner, road } ('' code: not over)
//   tak.setup(board, { size, turn, move_number, komi }) -> the TPS of an edited board
//
// Positions are TPS; opts: komi in flats (halves allowed), stones and
// capstones (the size's standard reserves when left out). A bad input
// throws an Error saying why.
'use strict';

(function (root) {
  // The few system calls the C library makes (clocks, and writes that only
  // a failed assertion would make), answered here.
  function wasiImports(memory) {
    const view = () => new DataView(memory().buffer);
    return {
      clock_time_get(id, precision, out) {
        const ns = BigInt(Math.round((id === 0 ? Date.now() : performance.now()) * 1e6));
        view().setBigUint64(out, ns, true);
        return 0;
      },
      fd_write(fd, iovs, count, out) {
        let n = 0;
        for (let i = 0; i < count; i++) n += view().getUint32(iovs + i * 8 + 4, true);
        view().setUint32(out, n, true);
        return 0;
      },
      fd_close() { return 0; },
      fd_seek() { return 70; }, // ESPIPE: nothing to seek
    };
  }

  class TakEngine {
    constructor(instance) {
      this.x = instance.exports;
      this.x._initialize();
      this.buf = this.x.tak_buffer();
      this.size = this.x.tak_buffer_size();
      this.enc = new TextEncoder();
      this.dec = new TextDecoder();
    }

    // source: a URL, the module's bytes, or a compiled WebAssembly.Module
    // (which a page can post to a Worker it makes).
    static async load(source) {
      let bytes = source;
      if (typeof source === 'string' || source instanceof URL) bytes = await (await fetch(source)).arrayBuffer();
      let memory = null, engine = null;
      const imports = {
        wasi_snapshot_preview1: wasiImports(() => memory),
        // A running analysis's lines, one at a time (tak_analyze in src/wasm/api.c).
        tak: { report: (at, length) => engine.report(at, length) },
      };
      const made = await WebAssembly.instantiate(bytes, imports);
      const instance = made instanceof WebAssembly.Instance ? made : made.instance;
      memory = instance.exports.memory;
      engine = new TakEngine(instance);
      return engine;
    }

    report(at, length) {
      const line = JSON.parse(this.dec.decode(new Uint8Array(this.x.memory.buffer, at, length)));
      if (this.onLine) this.onLine(line);
    }

    put(text) {
      if (typeof text !== 'string') throw new Error('a position or move must be text');
      if (text.includes('\0')) throw new Error('a NUL character in the input'); // C would stop at it
      const b = this.enc.encode(text);
      if (b.length >= this.size) throw new Error('input too long');
      const m = new Uint8Array(this.x.memory.buffer, this.buf, this.size);
      m.set(b);
      m[b.length] = 0;
    }

    get() {
      const m = new Uint8Array(this.x.memory.buffer, this.buf, this.size);
      return this.dec.decode(m.subarray(0, m.indexOf(0)));
    }

    call(r) {
      if (r < 0) throw new Error(this.get());
      return r;
    }

    // The rules' arguments: half komi, stones (0: standard), capstones (-1: standard).
    static rules(opts = {}) {
      const k = opts.komi || 0;
      if (!Number.isFinite(k) || k * 2 !== Math.round(k * 2)) throw new Error('komi must be a whole or half number');
      const stones = opts.stones || 0, caps = opts.capstones === undefined || opts.capstones === null ? -1 : opts.capstones;
      if (!Number.isInteger(stones) || !Number.isInteger(caps)) throw new Error('stones and capstones must be whole numbers');
      return [k * 2, stones, caps];
    }

    legalMoves(tps, opts) {
      this.put(tps);
      const n = this.call(this.x.tak_legal(...TakEngine.rules(opts)));
      return n ? this.get().split(' ') : [];
    }

    play(tps, move, opts) {
      this.put(tps + '\n' + move);
      const r = this.call(this.x.tak_play(...TakEngine.rules(opts)));
      return { tps: this.get(), over: r === 2 };
    }

    perft(tps, depth, opts) {
      this.put(tps);
      this.call(this.x.tak_perft(...TakEngine.rules(opts), depth));
      return BigInt(this.get());
    }

    // The position after `ply` of the game's plies (PTN), as the server's
    // state describes one ({ ply, turn, move_number, board, tps, stash, flats, tak }).
    view(start, plies, ply, opts = {}) {
      this.put((start || '') + '\n' + plies.join(' '));
      this.call(this.x.tak_view(...TakEngine.rules(opts), opts.size || 0, ply));
      return JSON.parse(this.get());
    }

    // A whole game judged, as `tak analyze --game` does: every position searched
    // opts.nodes nodes (20,000); { scores (White's view, one a position, wins as
    // +-2000), wins (one a position: plies to a win found, negative for Black's,
    // 0 for none), marks ('', '?', '??' a ply), best (the engine's move a position) }.
    graph(start, plies, opts = {}) {
      this.put((start || '') + '\n' + plies.join(' '));
      this.call(this.x.tak_graph(...TakEngine.rules(opts), opts.size || 0, opts.nodes || 20000));
      return JSON.parse(this.get());
    }

    // A PTN game (branches as PTN Ninja writes them) as a document:
    // { tags: [[name, value]], preface, size, komi, stones, capstones, tps,
    //   lines: [{ name, parent, start, preface, plies: [{ ptn, comment, marks }], result }] }
    // lines[0] is the main line (name '', parent -1); a branch's plies[0] is an
    // alternative to ply `start` (from the game's start) of line `parent`.
    readPtn(text) {
      this.put(text);
      this.call(this.x.tak_ptn_json());
      return JSON.parse(this.get());
    }

    // A document as readPtn gives it, written back as PTN; every move is
    // checked, and a bad one throws with its line and ply.
    writePtn(doc) {
      const esc = (v) => String(v === null || v === undefined ? '' : v)
        .replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
      const rec = (...f) => f.map(esc).join('\t');
      const out = [];
      for (const [name, value] of doc.tags || []) out.push('T\t' + rec(name, value));
      if (doc.preface) out.push('P\t' + rec(doc.preface));
      (doc.lines || []).forEach((line, i) => {
        out.push('L\t' + rec(i ? line.name : '', i ? line.parent : -1, i ? line.start : 0, line.result || ''));
        if (i && line.preface) out.push('B\t' + rec(line.preface));
        for (const p of line.plies || []) out.push('p\t' + rec(p.ptn, p.marks || '', p.comment || ''));
      });
      this.put(out.join('\n'));
      this.call(this.x.tak_ptn_write_doc());
      return this.get();
    }

    search(tps, opts = {}) {
      this.put(tps);
      this.call(this.x.tak_search(...TakEngine.rules(opts), opts.level || 10, opts.nodes || 0, opts.ms || 0));
      return JSON.parse(this.get());
    }

    // The analysis board's search: full strength, opts.lines best lines
    // (MultiPV, 3), until opts.depth, opts.nodes or opts.ms (none of them:
    // until it ends, which on a real position is never, so a page runs it
    // in a Worker it can end). Each line of each completed depth goes to
    // onLine({ multipv, depth, seldepth, score, win_in, nodes, time_ms, pv })
    // as soon as it is found (score and win_in as search gives them);
    // answers the last depth's lines.
    analyze(tps, opts = {}, onLine = null) {
      this.put(tps);
      this.onLine = onLine;
      try {
        this.call(this.x.tak_analyze(...TakEngine.rules(opts), opts.lines || 3, opts.depth || 0, opts.nodes || 0, opts.ms || 0));
      } finally { this.onLine = null; }
      return JSON.parse(this.get());
    }

    // How the game stands in a position: { code ('R-0', ...; '' while it
    // goes on), text, winner (0 White, 1 Black, -1 none), road (squares) }.
    result(tps, opts) {
      this.put(tps);
      this.call(this.x.tak_result(...TakEngine.rules(opts)));
      return JSON.parse(this.get());
    }

    // The TPS of a board set up freely (the position editor): `board` is
    // size² stacks, a1 first along ranks, as view() gives them ('12S': a
    // white flat under a black wall); opts.turn 'white' or 'black',
    // opts.move_number (1 on an empty board, else 2, when left out). Throws
    // when the rules cannot hold it (too many stones, a capstone under a stone).
    setup(board, opts = {}) {
      if (!Array.isArray(board) || board.some((s) => typeof s !== 'string' || s.includes(','))) throw new Error('a board is an array of stacks');
      this.put(board.join(','));
      this.call(this.x.tak_setup(...TakEngine.rules(opts), opts.size || 0, opts.turn === 'black' ? 2 : 1, opts.move_number || 0));
      return this.get();
    }
  }

  if (typeof module !== 'undefined' && module.exports) module.exports = { TakEngine };
  else root.TakEngine = TakEngine;
})(typeof self !== 'undefined' ? self : this);
