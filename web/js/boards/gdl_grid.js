// How a GDL state becomes a board, with no DOM (node imports it: web/tools/count_boards.mjs).
// A state is a set of facts in KIF ("(cell 1 1 x) (cell 1 2 b) (control oplayer)"). The
// renderer (gdl.js) draws what detectGrid finds:
//
// - The board is the relation whose facts name the most cells: two of its arguments, side by
//   side, are coordinates (integers, or single letters a..z), each side 2..32 values long, and
//   its facts name at least a quarter of the grid. Which two is found, not assumed:
//   (cell X Y C), (location C X Y), (cell LANE X Y C) all work. A fact of two arguments whose
//   first is a square name ("a1", "c12") is a board too, the name split into letter and number
//   (Chinese checkers' (cell a1 red)); a fact of one coordinate and a content ((heap 1 5)) a
//   board of one row. A board may be sparse (only its pieces written), down to an eighth of
//   its cells named.
// - As GGP sheets write cells, the first coordinate is the column (left to right) and the
//   second the row, the first value at the bottom: chess's (cell a 1 wr) at the bottom left,
//   connect four's pieces fall down (commit f12a965).
// - Integer axes are filled between their least and greatest value, letter axes between
//   their first and last letter, so a cell no fact names is still drawn (empty).
// - A cell's content is the fact's other arguments; b, blank, empty (and none) are blanks.
// - The server's layout (game_start.board: {relation, rows, cols}, found from a few random
//   turns, so connect four's board is known before any piece is dropped) seeds the axes of
//   its relation.
// - Every other fact is listed beside the board (control, step, scores).
//
// Moves: the coordinates a legal move names, in order (movesTargets): two coordinates side by
// side are a cell ((mark 1 2), (move 1 2 1 3) is two cells: from, to); a lone first
// coordinate is a column ((drop 4)).

const MAX_DEPTH = 32;
const MAX_SIDE = 32;
export const BLANKS = new Set(['b', 'blank', 'empty', 'none', 'nil', '_']);

// KIF text -> terms: an atom is a string, a list an array. Null when the text is not KIF.
export function parseKif(text) {
  const tokens = (text || '').replace(/;[^\n]*/g, ' ').match(/[()]|[^\s()]+/g) || [];
  let i = 0;
  function term(depth) {
    if (i >= tokens.length || tokens[i] === ')' || depth > MAX_DEPTH) throw new Error('not KIF');
    const t = tokens[i++];
    if (t !== '(') return t;
    const list = [];
    while (i < tokens.length && tokens[i] !== ')') list.push(term(depth + 1));
    if (i >= tokens.length) throw new Error('unbalanced');
    i++;
    return list;
  }
  try {
    const out = [];
    while (i < tokens.length) out.push(term(0));
    // One outer list of lists: its items are the facts.
    if (out.length === 1 && Array.isArray(out[0]) && out[0].length && out[0].every(Array.isArray)) return out[0];
    return out;
  } catch {
    return null;
  }
}

export function printKif(t) {
  return Array.isArray(t) ? `(${t.map(printKif).join(' ')})` : t;
}

// The atoms of a term, in order ("(move a 2 a 4)" -> move, a, 2, a, 4).
export function atoms(t) {
  return Array.isArray(t) ? t.flatMap(atoms) : [t];
}

const isInt = (v) => /^-?\d+$/.test(v);
const isLetter = (v) => /^[a-z]$/i.test(v);
const SQUARE = /^([a-z])(\d{1,2})$/i;  // "a1", "c12": a square's name, file then rank

// The kind of an axis whose values are `values` (strings): 'int', 'letter' or null.
function axisKind(values) {
  if (values.length === 0) return null;
  if (values.every(isInt)) return 'int';
  if (values.every(isLetter)) return 'letter';
  return null;
}

// The values of an axis in order, gaps filled; null when it is no axis of a board.
export function orderAxis(values, minSide = 2) {
  const uniq = [...new Set(values)];
  const kind = axisKind(uniq);
  if (!kind) return null;
  let out;
  if (kind === 'int') {
    const ns = uniq.map(Number);
    const lo = Math.min(...ns), hi = Math.max(...ns);
    if (hi - lo + 1 > MAX_SIDE) return null;
    out = Array.from({ length: hi - lo + 1 }, (_, k) => String(lo + k));
  } else {
    const lower = uniq.every((v) => v === v.toLowerCase());
    const cs = uniq.map((v) => v.toLowerCase().charCodeAt(0));
    const lo = Math.min(...cs), hi = Math.max(...cs);
    out = Array.from({ length: hi - lo + 1 }, (_, k) => {
      const c = String.fromCharCode(lo + k);
      return lower ? c : c.toUpperCase();
    });
    // Mixed case: keep each value as the facts spell it.
    if (!lower && !uniq.every((v) => v === v.toUpperCase())) return null;
  }
  return out.length >= minSide && out.length <= MAX_SIDE ? out : null;
}

// The coordinate arguments of a fact for a candidate shape; null when the fact does not fit.
function coordsOf(fact, shape) {
  if (!Array.isArray(fact) || fact[0] !== shape.relation || fact.length - 1 !== shape.arity) return null;
  const args = fact.slice(1);
  if (shape.square) {
    if (Array.isArray(args[0])) return null;
    const m = SQUARE.exec(args[0]);
    return m ? [m[1], m[2]] : null;
  }
  const out = shape.at.map((i) => args[i]);
  return out.some(Array.isArray) ? null : out;
}

// The content (other arguments) of a fact for a shape, as text ('' for none).
function contentOf(fact, shape) {
  const args = fact.slice(1);
  const skip = shape.square ? new Set([0]) : new Set(shape.at);
  const rest = args.filter((_, i) => !skip.has(i));
  return rest.length ? rest.map(printKif).join(' ') : shape.relation;
}

export const isBlank = (content) => BLANKS.has(String(content).toLowerCase());

// The shapes a state's facts could be a board of: each relation with its possible coordinate
// positions.
function candidateShapes(facts) {
  const arities = new Map();  // relation -> Set of arities
  for (const f of facts) {
    if (!Array.isArray(f) || f.length < 2 || Array.isArray(f[0])) continue;
    if (!arities.has(f[0])) arities.set(f[0], new Set());
    arities.get(f[0]).add(f.length - 1);
  }
  const shapes = [];
  for (const [relation, set] of arities) {
    for (const arity of set) {
      for (let i = 0; i + 1 < arity; i++) shapes.push({ relation, arity, at: [i, i + 1], dims: 2 });
      if (arity === 2) shapes.push({ relation, arity, square: true, at: [0], dims: 2 });
      if (arity === 2) shapes.push({ relation, arity, at: [0], dims: 1 });
    }
  }
  return shapes;
}

// A shape's board over `facts`: { xs, ys, cells } or null. `seed`: axis values to include.
function boardOf(facts, shape, seed = null) {
  const xsSeen = seed ? [...seed.xs] : [], ysSeen = seed ? [...seed.ys] : [];
  const cells = new Map();  // "x y" -> content text
  for (const f of facts) {
    const c = coordsOf(f, shape);
    if (!c) continue;
    const x = c[0], y = shape.dims === 2 ? c[1] : '1';
    xsSeen.push(x);
    ysSeen.push(y);
    const key = `${x} ${y}`;
    const content = contentOf(f, shape);
    cells.set(key, cells.has(key) && !isBlank(cells.get(key)) ? (isBlank(content) ? cells.get(key) : `${cells.get(key)} ${content}`) : content);
  }
  if (xsSeen.length === 0) return null;
  const xs = orderAxis(xsSeen, shape.dims === 1 ? 3 : 2);
  const ys = shape.dims === 2 ? orderAxis(ysSeen, 2) : ['1'];
  if (!xs || !ys) return null;
  // A 1-row board's coordinate names each cell once (else it is no row: (heap a 3) (heap a 4)).
  if (shape.dims === 1 && cells.size !== new Set(xsSeen).size) return null;
  const named = [...cells.keys()].filter((k) => { const [x, y] = k.split(' '); return xs.includes(x) && ys.includes(y); }).length;
  // Sparse boards (pieces only, on a board of blanks not written) are boards too, down to an
  // eighth of the grid; fewer is a coincidence of two small numbers.
  if (!seed && (named < 2 || named * 8 < xs.length * ys.length)) return null;
  // Two arguments of which the first names each value once are a row of values ((heap a 3)
  // (heap b 4)), not a grid of marks.
  if (shape.dims === 2 && !shape.square && shape.arity === 2 && new Set(xsSeen).size === xsSeen.length) return null;
  return { xs, ys, cells, named };
}

// The board of a state: { relation, shape, xs, ys (bottom to top), cells: Map "x y" ->
// content, contents: [non-blank contents, sorted], rest: [other facts as text] }, or null
// when the facts hold none. `layout`: game_start.board (or null).
export function detectGrid(facts, layout = null) {
  if (!Array.isArray(facts)) return null;
  let best = null;
  for (const shape of candidateShapes(facts)) {
    const seeded = layout && shape.relation === layout.relation && shape.dims === 2 && !shape.square && shape.at[0] === 0;
    const seed = seeded ? { xs: layout.rows || [], ys: layout.cols || [] } : null;
    const b = boardOf(facts, shape, seed);
    if (!b) continue;
    // The most cells named; then a seeded (server) shape; then 2-D; then earlier positions.
    const score = [b.named, seeded ? 1 : 0, shape.dims, -shape.at[0]];
    if (!best || compare(score, best.score) > 0) best = { shape, score, ...b };
  }
  // No fact of the server's relation yet (connect four before the first drop): its axes.
  if (!best && layout && layout.rows && layout.cols) {
    const xs = orderAxis(layout.rows) || layout.rows, ys = orderAxis(layout.cols) || layout.cols;
    if (xs.length && ys.length) {
      best = { shape: { relation: layout.relation, arity: 3, at: [0, 1], dims: 2 }, xs, ys, cells: new Map(), named: 0 };
    }
  }
  if (!best) return null;
  const rest = [];
  for (const f of facts) if (!coordsOf(f, best.shape)) rest.push(printKif(f));
  const contents = [...new Set([...best.cells.values()].filter((c) => !isBlank(c)))].sort();
  return { relation: best.shape.relation, shape: best.shape, xs: best.xs, ys: best.ys, cells: best.cells, contents, rest };
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// What a move names on board `grid`: { cells: ["x y", ...], column: x or null }. Two
// coordinates side by side are a cell; a lone column value (no cell named) a column.
export function moveTargets(grid, move) {
  const terms = parseKif(move);
  const out = { cells: [], column: null };
  if (!grid || !terms || terms.length !== 1) return out;
  const args = Array.isArray(terms[0]) ? atoms(terms[0]).slice(1) : [];
  const xs = new Set(grid.xs), ys = new Set(grid.ys);
  const oneRow = grid.shape.dims === 1;
  for (let i = 0; i < args.length; i++) {
    if (grid.shape.square) {
      const m = SQUARE.exec(args[i]);
      if (m && xs.has(m[1]) && ys.has(m[2])) out.cells.push(`${m[1]} ${m[2]}`);
    } else if (oneRow) {
      if (xs.has(args[i]) && isInt(args[i])) out.cells.push(`${args[i]} 1`);
    } else if (xs.has(args[i]) && i + 1 < args.length && ys.has(args[i + 1])) {
      out.cells.push(`${args[i]} ${args[i + 1]}`);
      i++;
    }
  }
  if (out.cells.length === 0 && !oneRow && !grid.shape.square) {
    const cols = args.filter((a) => xs.has(a));
    if (cols.length === 1 && args.length === 1) out.column = cols[0];
  }
  return out;
}

// How each legal move is made on the board: { single: Map cell -> [moves], column: Map x ->
// [moves], fromTo: [{from, to, move}], rest: [moves no click names] }.
export function clickPlan(grid, legal) {
  const plan = { single: new Map(), column: new Map(), fromTo: [], rest: [] };
  const push = (map, k, m) => { if (!map.has(k)) map.set(k, []); map.get(k).push(m); };
  for (const m of legal || []) {
    const t = moveTargets(grid, m);
    if (t.cells.length === 1) push(plan.single, t.cells[0], m);
    else if (t.cells.length >= 2 && t.cells[0] !== t.cells.at(-1)) plan.fromTo.push({ from: t.cells[0], to: t.cells.at(-1), move: m });
    else if (t.column !== null) push(plan.column, t.column, m);
    else plan.rest.push(m);
  }
  return plan;
}
