// Qubic (4x4x4 tic-tac-toe) as four small boards, level 1 (bottom) on the left / first.
// Position: four levels separated by '/', level 1 first, each 16 cells rank 4 first.
// Move text: level digit, file letter, rank digit ("2b3").
import { s, svgRoot, cell, replaceChildren } from './svg.js';
import { mark } from './tictactoe.js';

const SIDE = 50;     // one cell
const GAP = 24;      // between levels
const LEVEL = SIDE * 4;

export function create() {
  // Four levels in a 2x2 arrangement keeps it readable on a phone.
  const W = LEVEL * 2 + GAP, H = (LEVEL + GAP) * 2;
  const el = svgRoot(W, H, 'Qubic: four levels of 4x4');
  const update = (view) => {
    const levels = (view.position || '').split('/');
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
          `sq light${playable ? ' playable' : ''}${view.lastMove === name ? ' last' : ''}`, name);
        if (playable) r.addEventListener('click', () => view.onMove(name));
        nodes.push(r, mark(cells[j], x, y, SIDE));
      }
    }
    replaceChildren(el, nodes);
  };
  return { el, update };
}
