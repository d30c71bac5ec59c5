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

export function create() {
  const el = svgRoot(300, 300, 'tic-tac-toe board');
  const update = (view) => {
    const cells = (view.position || '').replace(/[^xo.]/gi, '').toLowerCase();
    const legal = new Set(view.legal || []);
    const nodes = [];
    for (let i = 0; i < 9; i++) {
      const x = (i % 3) * 100, y = Math.floor(i / 3) * 100, name = cellName(i);
      const playable = view.interactive && legal.has(name);
      const last = view.lastMove === name;
      const r = cell(x + 2, y + 2, 96, 96, `sq light${playable ? ' playable' : ''}${last ? ' last' : ''}`, name,
        { 'aria-label': `${name} ${cells[i] === 'x' ? 'X' : cells[i] === 'o' ? 'O' : 'empty'}` });
      if (playable) r.addEventListener('click', () => view.onMove(name));
      nodes.push(r, mark(cells[i], x, y, 100));
    }
    replaceChildren(el, nodes);
  };
  return { el, update };
}
