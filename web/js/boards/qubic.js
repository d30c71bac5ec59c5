// Qubic (4x4x4 tic-tac-toe) as four small boards, level 1 (bottom) on the left / first.
// Position: four levels separated by '/', level 1 first, each 16 cells rank 4 first.
// Move text: level digit, file letter, rank digit ("2b3").
import { s, svgRoot, cell, replaceChildren } from './svg.js';
import { mark } from './tictactoe.js';

const SIDE = 50;     // one cell
const GAP = 24;      // between levels
const LEVEL = SIDE * 4;

// The 76 lines of four of the 4x4x4 cube, as [level, file, rank] triples (0-based).
const LINES = (() => {
  const out = [];
  const dirs = [];
  for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) {
    // One of each pair of opposite directions.
    if ((a || b || c) && (a > 0 || (a === 0 && (b > 0 || (b === 0 && c > 0))))) dirs.push([a, b, c]);
  }
  for (const [a, b, c] of dirs) {
    for (let l = 0; l < 4; l++) for (let f = 0; f < 4; f++) for (let r = 0; r < 4; r++) {
      const end = [l + 3 * a, f + 3 * b, r + 3 * c];
      if (end.some((v) => v < 0 || v > 3)) continue;
      out.push([0, 1, 2, 3].map((k) => [l + k * a, f + k * b, r + k * c]));
    }
  }
  return out;
})();

// The cells ("2b3") of completed lines in `levels` (4 strings of 16, rank 4 first).
export function winningCells(levels) {
  const at = ([l, f, r]) => (levels[l] || '')[(3 - r) * 4 + f];
  const name = ([l, f, r]) => `${l + 1}${String.fromCharCode(97 + f)}${r + 1}`;
  const out = new Set();
  for (const line of LINES) {
    const m = at(line[0]);
    if ((m === 'x' || m === 'o') && line.every((p) => at(p) === m)) for (const p of line) out.add(name(p));
  }
  return out;
}

export function create() {
  // Four levels in a 2x2 arrangement keeps it readable on a phone.
  const W = LEVEL * 2 + GAP, H = (LEVEL + GAP) * 2;
  const el = svgRoot(W, H, 'Qubic: four levels of 4x4');
  const update = (view) => {
    const levels = (view.position || '').split('/').map((l) => l.toLowerCase());
    const win = winningCells(levels);
    const legal = new Set(view.legal || []);
    const nodes = [];
    for (let l = 0; l < 4; l++) {
      const ox = (l % 2) * (LEVEL + GAP), oy = Math.floor(l / 2) * (LEVEL + GAP) + GAP - 4;
      nodes.push(s('text', { x: ox + 2, y: oy - 6, class: 'board-label' }, `level ${l + 1}`));
      const cells = (levels[l] || '').toLowerCase();
      for (let j = 0; j < 16; j++) {
        const file = j % 4, rank = 4 - Math.floor(j / 4);
        const name = `${l + 1}${String.fromCharCode(97 + file)}${rank}`;
        const x = ox + file * SIDE, y = oy + (4 - rank) * SIDE;
        const playable = view.interactive && legal.has(name);
        const r = cell(x + 1, y + 1, SIDE - 2, SIDE - 2,
          `sq light${playable ? ' playable' : ''}${view.lastMove === name ? ' last' : ''}${win.has(name) ? ' win' : ''}`, name);
        if (playable) r.addEventListener('click', () => view.onMove(name));
        nodes.push(r, mark(cells[j], x, y, SIDE));
        if (rank === 1) nodes.push(s('text', { x: x + SIDE - 4, y: y + SIDE - 4, class: 'coord qubic' }, name[1]));
        if (file === 0) nodes.push(s('text', { x: x + 4, y: y + 12, class: 'coord qubic rank' }, String(rank)));
      }
    }
    replaceChildren(el, nodes);
  };
  return { el, update };
}
