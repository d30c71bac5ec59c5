// Tic-tac-toe 3x3. Position: 9 cells row by row from the top-left ('x', 'o', '.').
// Move text: file a..c and rank 1..3, a1 = bottom-left, so cell 0 is "a3".
import { s, svgRoot, cell, replaceChildren } from './svg.js';

export function cellName(i) {
  return String.fromCharCode(97 + (i % 3)) + String(3 - Math.floor(i / 3));
}

// A mark drawn in a square of side `size` at (x, y).
export function mark(ch, x, y, size) {
  const m = size * 0.22;
  if (ch === 'x') {
    return s('g', { class: 'mark-x' },
      s('line', { x1: x + m, y1: y + m, x2: x + size - m, y2: y + size - m }),
      s('line', { x1: x + size - m, y1: y + m, x2: x + m, y2: y + size - m }));
  }
  if (ch === 'o') return s('circle', { class: 'mark-o', cx: x + size / 2, cy: y + size / 2, r: size / 2 - m });
  return null;
}

// The 8 lines of three (cell indices).
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

// The first completed line of `cells` (9 chars) as cell indices, or null.
export function winningLine(cells) {
  return LINES.find((l) => cells[l[0]] !== '.' && cells[l[0]] && l.every((i) => cells[i] === cells[l[0]])) || null;
}

export function create() {
  const el = svgRoot(300, 300, 'tic-tac-toe board');
  const update = (view) => {
    const cells = (view.position || '').replace(/[^xo.]/gi, '').toLowerCase();
    const legal = new Set(view.legal || []);
    const win = new Set(winningLine(cells) || []);
    const nodes = [];
    for (let i = 0; i < 9; i++) {
      const x = (i % 3) * 100, y = Math.floor(i / 3) * 100, name = cellName(i);
      const playable = view.interactive && legal.has(name);
      const last = view.lastMove === name;
      const r = cell(x + 2, y + 2, 96, 96, `sq light${playable ? ' playable' : ''}${last ? ' last' : ''}${win.has(i) ? ' win' : ''}`, name,
        { 'aria-label': `${name} ${cells[i] === 'x' ? 'X' : cells[i] === 'o' ? 'O' : 'empty'}` });
      if (playable) r.addEventListener('click', () => view.onMove(name));
      nodes.push(r, mark(cells[i], x, y, 100));
      // Coordinates: files along the bottom row, ranks along the left column.
      if (i >= 6) nodes.push(s('text', { x: x + 94, y: y + 94, class: 'coord big' }, name[0]));
      if (i % 3 === 0) nodes.push(s('text', { x: x + 6, y: y + 18, class: 'coord big rank' }, name[1]));
    }
    const line = winningLine(cells);
    if (line) {
      const c = (i) => [(i % 3) * 100 + 50, Math.floor(i / 3) * 100 + 50];
      const [x1, y1] = c(line[0]), [x2, y2] = c(line[2]);
      nodes.push(s('line', { x1, y1, x2, y2, class: 'win-line', 'data-testid': 'win-line' }));
    }
    replaceChildren(el, nodes);
  };
  return { el, update };
}
