// tree.js: the analysis board's move tree (the main line and its branches,
// a note and marks on any ply) and its conversion to and from the PTN
// document that tak.readPtn and tak.writePtn take and give (docs/wasm.md):
//   { tags: [[name, value]...], preface, size, komi, stones, capstones, tps,
//     lines: [{ name, parent, start, preface, plies: [{ ptn, comment, marks }], result }] }
// lines[0] is the main line; a branch's plies[0] is an alternative to its
// parent line's ply number `start` (counted from the game's first ply), and
// branches are named as PTN Ninja names them: "3w1", nested "3w1/4b1".
// No rules here: every position comes from the `play` given (the wasm
// module's play(tps, move) -> { tps, over }), which throws on an illegal move.
// An ES module: the page imports it, and Node's require() reads it too (the
// browser tests check it there).

// A node is the position after its ply; the root is the game's start.
// children[0] continues the node's line, the others are branches; a node
// that starts a line keeps `seq`, the order its line is written in, and
// `preface`, the line's opening comment (the root's: the main line's).
function node(parent, ptn, tps, over) {
  return { parent, ptn, tps, over: !!over, comment: null, marks: null, result: '', children: [],
    depth: parent ? parent.depth + 1 : 0 };
}

// A tree on the position `tps` (its last two fields say who moves and the
// move number, for the plies' numbers and the branches' names). `rules`:
// the document's size, komi, stones and capstones, kept for toDoc.
function create(tps, tags = [], preface = null, rules = null) {
  const f = tps.trim().split(/\s+/);
  return { tags, preface, rules, black: f[f.length - 2] === '2', number: +f[f.length - 1] || 1,
    root: node(null, null, tps, false), seq: 1 };
}

// The move number and side ('w' or 'b') of the ply that makes a node of `depth`.
function plyNumber(tree, depth) {
  const half = depth - 1 + (tree.black ? 1 : 0);
  return { number: tree.number + Math.floor(half / 2), side: half % 2 ? 'b' : 'w' };
}

// Plays `ptn` after `at`: the child already there when it leads to the
// same position, else a new child (a new branch when `at` has one already).
function add(tree, at, ptn, play) {
  const r = play(at.tps, ptn);
  const same = at.children.find((c) => c.tps === r.tps);
  if (same) return same;
  const n = node(at, ptn, r.tps, r.over);
  if (at.children.length) n.seq = tree.seq++;
  at.children.push(n);
  return n;
}

// The first node of the branch that holds `n` (null on the main line).
function branchStart(n) {
  for (; n.parent; n = n.parent) if (n.parent.children[0] !== n) return n;
  return null;
}

// One step towards the main line: the branch holding `n` changes places
// with the line it leaves. False when `n` is on the main line.
function promote(n) {
  const b = branchStart(n);
  if (!b) return false;
  const kids = b.parent.children, i = kids.indexOf(b), main = kids[0];
  kids[0] = b; kids[i] = main;
  main.seq = b.seq; delete b.seq;
  [main.preface, b.preface] = [b.preface, main.preface];
  return true;
}

// Removes `n` and all that follows it; answers its parent (null for the root).
function remove(n) {
  const p = n.parent;
  if (!p) return null;
  const kids = p.children, i = kids.indexOf(n);
  kids.splice(i, 1);
  if (i === 0 && kids.length) delete kids[0].seq; // the next branch now continues the line
  return p;
}

// The nodes from the first ply to `n`, and their plies.
function path(n) {
  const out = [];
  for (; n.parent; n = n.parent) out.push(n);
  return out.reverse();
}
const plies = (n) => path(n).map((x) => x.ptn);
function lineEnd(n) { while (n.children.length) n = n.children[0]; return n; }

// The node `depth` plies into the line through `n` (back along it, or on along its continuation).
function along(n, depth) {
  while (n.depth > depth && n.parent) n = n.parent;
  while (n.depth < depth && n.children.length) n = n.children[0];
  return n;
}

// The lines of the tree, the main one first and each after its parent, in
// the order they were read or made: [{ first (its first node, the root's
// first child for the main line), parent (index), name }]. A branch keeps
// the name it was read with (`own` of its first node: "1w2", "Sharper"),
// under whatever line it now leaves; one made here, or whose name is
// taken, gets the first free PTN Ninja name ("3w1", "3w2"...).
function lines(tree) {
  const all = [], taken = new Set(), walk = (first, parent, name) => {
    const me = all.length;
    all.push({ first, parent, name, seq: parent < 0 ? 0 : first.seq || 0 });
    const full = (own) => (parent < 0 ? own : `${name}/${own}`);
    const named = [];
    for (let n = first; n; n = n.children[0]) {
      for (const b of n.children.slice(1)) {
        const keep = b.own && !taken.has(full(b.own));
        if (keep) taken.add(full(b.own));
        named.push([b, keep ? full(b.own) : null]);
      }
    }
    for (const nb of named) {
      if (nb[1]) continue;
      const { number, side } = plyNumber(tree, nb[0].depth);
      let k = 1;
      while (taken.has(full(`${number}${side}${k}`))) k++;
      nb[1] = full(`${number}${side}${k}`);
      taken.add(nb[1]);
    }
    for (const [b, n] of named) walk(b, me, n);
  };
  walk(tree.root, -1, '');
  // By seq, but never before the parent.
  const order = [], placed = new Set(), rest = all.slice(1).sort((a, b) => a.seq - b.seq);
  order.push(all[0]); placed.add(all[0]);
  while (rest.length) {
    const i = rest.findIndex((l) => placed.has(all[l.parent]));
    order.push(rest[i]); placed.add(rest[i]); rest.splice(i, 1);
  }
  return order.map((l) => ({ first: l.first, name: l.name, parent: l.parent < 0 ? -1 : order.indexOf(all[l.parent]) }));
}

// The PTN document of the tree.
function toDoc(tree) {
  const out = lines(tree).map((l) => {
    const plies = [];
    let n = l.first === tree.root ? tree.root.children[0] : l.first, last = l.first;
    for (; n; n = n.children[0]) { plies.push({ ptn: n.ptn, comment: n.comment, marks: n.marks }); last = n; }
    const start = l.first === tree.root ? 0 : l.first.depth - 1;
    return { name: l.name, parent: l.parent, start, preface: l.first.preface || null, plies, result: last.result || '' };
  });
  return { tags: tree.tags.map((t) => t.slice()), preface: tree.preface, ...tree.rules, tps: tree.root.tps, lines: out };
}

// A tree from a PTN document, on its start position (doc.tps, else
// `tps`); throws (saying which line and ply) when a move is illegal or a
// line leaves a ply its parent does not have.
function fromDoc(doc, tps, play) {
  const rules = doc.size ? { size: doc.size, komi: doc.komi, stones: doc.stones, capstones: doc.capstones } : null;
  const tree = create(doc.tps || tps, (doc.tags || []).map((t) => t.slice()), doc.preface === undefined ? null : doc.preface, rules);
  const tips = [];
  doc.lines.forEach((line, i) => {
    const where = `line ${i}${line.name ? ' (' + line.name + ')' : ''}`;
    let at = tree.root;
    if (i > 0) {
      if (!(line.parent >= 0 && line.parent < i)) throw new Error(`${where}: no parent line ${line.parent}`);
      at = along(tips[line.parent], line.start);
      if (at.depth !== line.start || !at.children.length) throw new Error(`${where}: its parent has no ply ${line.start + 1}`);
    }
    const first = at;
    line.plies.forEach((p, j) => {
      const before = at.children.length;
      let r;
      try { r = play(at.tps, p.ptn); } catch (e) { throw new Error(`${where}, ply ${j + 1} '${p.ptn}': ${e.message}`); }
      const n = node(at, p.ptn, r.tps, r.over);
      n.comment = p.comment === undefined ? null : p.comment;
      n.marks = p.marks === undefined ? null : p.marks;
      if (before) n.seq = tree.seq++;
      at.children.push(n);
      at = n;
    });
    at.result = line.result || '';
    const head = i === 0 ? tree.root : first.children[first.children.length - 1];
    if (line.preface && (i === 0 || line.plies.length)) head.preface = line.preface;
    // The branch's own name: after its parent's name and "/" when nested.
    const up = i > 0 ? doc.lines[line.parent].name : '';
    if (i > 0 && line.name && line.plies.length) head.own = up && line.name.startsWith(up + '/') ? line.name.slice(up.length + 1) : line.name;
    tips.push(at);
  });
  return tree;
}

// Where `n` is, as text for a link: its depth, then "depth:child" for
// each step off a line's continuation ("12" or "12,5:1,8:2"); and back.
function address(n) {
  const steps = path(n).filter((x) => x.parent.children[0] !== x).map((x) => `${x.depth}:${x.parent.children.indexOf(x)}`);
  return [n.depth, ...steps].join(',');
}
function find(tree, text) {
  const [depth, ...steps] = String(text || '0').split(',');
  const turns = new Map(steps.map((s) => s.split(':').map(Number)));
  let n = tree.root;
  while (n.depth < +depth) {
    const k = turns.get(n.depth + 1) || 0;
    if (!n.children[k]) break;
    n = n.children[k];
  }
  return n;
}

export { create, add, promote, remove, branchStart, path, plies, lineEnd, along, plyNumber, lines, toDoc, fromDoc, address, find };
