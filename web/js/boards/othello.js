// Othello 8x8. Position: 64 squares a1..h1, a2..h8 as 'X' (Black), 'O' (White), '-', then a
// space and the side to move. Row 1 is drawn at the top, as Othello diagrams do.
// Move text: "a1".."h8" or "pass" (pass is offered as a button by the game view).
import { s, svgRoot, cell, replaceChildren } from './svg.js';

// The discs of each side in a position: { black, white }.
export function discCount(position) {
  const sq = (position || '').split(' ')[0];
  return { black: (sq.match(/X/g) || []).length, white: (sq.match(/O/g) || []).length };
}

export function create() {
  // The 8x8 board, then a strip under it with the disc count.
  const el = svgRoot(100, 110, 'Othello board');
  const update = (view) => {
    const sq = (view.position || '').split(' ')[0];
    const legal = new Set((view.legal || []).map((m) => m.toLowerCase()));
    const last = (view.lastMove || '').toLowerCase();
    const nodes = [s('rect', { x: 0, y: 0, width: 100, height: 100, class: 'othello-felt' })];
    for (let i = 0; i < 64; i++) {
      const f = i % 8, r = Math.floor(i / 8);
      const name = String.fromCharCode(97 + f) + (r + 1);
      const x = f * 12.5, y = r * 12.5;
      const playable = view.interactive && legal.has(name);
      const rect = cell(x + 0.3, y + 0.3, 11.9, 11.9, `sq felt${playable ? ' playable' : ''}${last === name ? ' last' : ''}`, name);
      if (playable) rect.addEventListener('click', () => view.onMove(name));
      nodes.push(rect);
      const ch = sq[i];
      if (ch === 'X' || ch === 'O') {
        nodes.push(s('circle', { cx: x + 6.25, cy: y + 6.25, r: 5, class: ch === 'X' ? 'disc-black' : 'disc-white' }));
      } else if (playable) {
        nodes.push(s('circle', { cx: x + 6.25, cy: y + 6.25, r: 1.6, class: 'target-dot', 'pointer-events': 'none' }));
      }
      // Coordinates: files along the last drawn row (8), ranks along the a-file.
      if (r === 7) nodes.push(s('text', { x: x + 11.8, y: y + 12, class: 'coord felt' }, name[0]));
      if (f === 0) nodes.push(s('text', { x: x + 0.6, y: y + 2.6, class: 'coord felt rank' }, name.slice(1)));
    }
    const n = discCount(view.position);
    nodes.push(s('g', { class: 'disc-strip', 'data-testid': 'disc-count', 'aria-label': `Black ${n.black}, White ${n.white}` },
      s('circle', { cx: 30, cy: 105, r: 3, class: 'disc-black' }),
      s('text', { x: 35, y: 105, class: 'disc-number', 'data-side': 'black' }, String(n.black)),
      s('circle', { cx: 62, cy: 105, r: 3, class: 'disc-white' }),
      s('text', { x: 67, y: 105, class: 'disc-number', 'data-side': 'white' }, String(n.white))));
    replaceChildren(el, nodes);
  };
  return { el, update };
}
