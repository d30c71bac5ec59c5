// GDL games (and any kind without a board of its own). A GDL position is the state's facts in
// KIF: "(cell 1 1 x) (cell 1 2 b) (control oplayer)". With the server's board layout
// (game_start.board = { relation, rows, cols }, protocol/README.md) the facts
// (relation A B CONTENT...) are drawn as a grid holding CONTENT, and the other facts are
// listed below it; without one every fact is listed. The grid is drawn as GGP sheets write it,
// (cell X Y ...): the first argument (the layout's `rows`) is the column, left to right, and
// the second (`cols`) the row, bottom to top, so chess's (cell a 1 wr) stands on the bottom
// left and connect four's pieces fall down. The legal moves are buttons; on a grid, clicking a
// cell plays the one legal move that names the cell's two arguments (in that order), when
// exactly one does. A position that is not KIF is shown as text.
import { h } from '../dom.js';

const MAX_DEPTH = 32;

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
function atoms(t) {
  return Array.isArray(t) ? t.flatMap(atoms) : [t];
}

// The legal moves (text) that name `row` then `col` among their arguments.
export function movesForCell(legal, row, col) {
  return legal.filter((m) => {
    const terms = parseKif(m);
    if (!terms || terms.length !== 1) return false;
    const args = Array.isArray(terms[0]) ? atoms(terms[0]).slice(1) : [];
    const r = args.indexOf(String(row));
    return r >= 0 && args.indexOf(String(col), r + 1) > r;
  });
}

export function create(layout = null) {
  const grid = h('div.gdl-grid', { 'data-testid': 'gdl-grid' });
  const facts = h('ul.gdl-facts', { 'data-testid': 'gdl-facts' });
  const buttons = h('div.gdl-moves', { 'data-testid': 'gdl-moves' });
  const text = h('pre.board-text');
  const el = h('div.gdl-board', {}, grid, facts, text);

  function update(view) {
    const terms = parseKif(view.position);
    const legal = view.legal || [];
    text.hidden = terms !== null;
    if (terms === null) text.textContent = view.position || '';
    const cells = new Map();  // "row col" -> content text
    const rest = [];
    for (const t of terms || []) {
      if (layout && Array.isArray(t) && t[0] === layout.relation && t.length >= 4 &&
          !Array.isArray(t[1]) && !Array.isArray(t[2])) {
        const key = `${t[1]} ${t[2]}`;
        const content = t.slice(3).map(printKif).join(' ');
        cells.set(key, cells.has(key) ? `${cells.get(key)} ${content}` : content);
      } else {
        rest.push(printKif(t));
      }
    }
    grid.hidden = !layout;
    if (layout) {
      const xs = layout.rows;  // the first argument: columns, left to right
      const ys = [...layout.cols].reverse();  // the second: rows, the first one at the bottom
      grid.style.gridTemplateColumns = `auto repeat(${xs.length}, minmax(0, 1fr))`;
      const nodes = [];
      for (const y of ys) {
        nodes.push(h('span.gdl-label', {}, y));
        for (const x of xs) {
          const key = `${x} ${y}`;
          const content = cells.get(key) || '';
          const moves = view.interactive ? movesForCell(legal, x, y) : [];
          const playable = moves.length === 1;
          nodes.push(h(`button.gdl-cell${playable ? '.playable' : ''}`, {
            type: 'button',
            disabled: !playable,
            'data-square': key,
            'data-content': content,
            'aria-label': `${key}: ${content || 'empty'}`,
            title: playable ? moves[0] : key,
            onclick: playable ? () => view.onMove(moves[0]) : undefined,
          }, content));
        }
      }
      nodes.push(h('span.gdl-corner'), ...xs.map((x) => h('span.gdl-label', {}, x)));
      grid.replaceChildren(...nodes);
    }
    facts.hidden = terms === null || rest.length === 0;
    facts.replaceChildren(...rest.map((f) => h('li', {}, f)));
    buttons.hidden = !view.interactive || legal.length === 0;
    buttons.replaceChildren(...(view.interactive ? legal : []).map((m) =>
      h('button.gdl-move', { type: 'button', dataset: { move: m }, onclick: () => view.onMove(m) }, m)));
  }
  // The move buttons go below the board (the game view places `controls`).
  return { el, update, controls: buttons };
}
