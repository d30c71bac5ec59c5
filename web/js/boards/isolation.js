// Isolation (knight moves, visited squares blocked). Position: rows from the top rank down
// separated by '/', cells '.', '#' (blocked), 'x', 'o'; then a space and the side to move.
// Move text: the destination square ("d4").
import { s, svgRoot, cell, replaceChildren } from './svg.js';

export function create() {
  const el = svgRoot(100, 100, 'Isolation board');
  const update = (view) => {
    const rows = (view.position || '').split(' ')[0].split('/');
    const n = rows.length || 7, side = 100 / n;
    const legal = new Set(view.legal || []);
    const nodes = [];
    rows.forEach((row, r) => {
      const rank = n - r;
      [...row].forEach((ch, f) => {
        const name = String.fromCharCode(97 + f) + rank;
        const x = f * side, y = r * side;
        const playable = view.interactive && legal.has(name);
        const cls = ch === '#' ? 'sq blocked' : `sq ${(f + r) % 2 ? 'dark' : 'light'}`;
        const rect = cell(x, y, side, side,
          `${cls}${playable ? ' playable' : ''}${view.lastMove === name ? ' last' : ''}`, name,
          { 'aria-label': `${name} ${ch === '#' ? 'blocked' : ch === '.' ? 'empty' : ch}` });
        if (playable) rect.addEventListener('click', () => view.onMove(name));
        nodes.push(rect);
        if (ch === '#') {
          nodes.push(s('path', { d: `M${x + side * .25} ${y + side * .25}L${x + side * .75} ${y + side * .75}M${x + side * .75} ${y + side * .25}L${x + side * .25} ${y + side * .75}`, class: 'blocked-cross' }));
        } else if (ch === 'x' || ch === 'o') {
          nodes.push(s('circle', { cx: x + side / 2, cy: y + side / 2, r: side * 0.36, class: ch === 'x' ? 'piece-first' : 'piece-second' }));
          nodes.push(s('text', { x: x + side / 2, y: y + side / 2, class: 'piece-letter', 'font-size': side * 0.4 }, ch.toUpperCase()));
        }
        if (playable) nodes.push(s('circle', { cx: x + side / 2, cy: y + side / 2, r: side * 0.12, class: 'target-dot', 'pointer-events': 'none' }));
        // Coordinates: files along the bottom rank, ranks along the a-file.
        const fs = side * 0.2;
        if (r === n - 1) nodes.push(s('text', { x: x + side - fs * 0.3, y: y + side - fs * 0.3, class: 'coord', 'font-size': fs }, name[0]));
        if (f === 0) nodes.push(s('text', { x: x + fs * 0.3, y: y + fs * 1.05, class: 'coord rank', 'font-size': fs }, String(rank)));
      });
    });
    replaceChildren(el, nodes);
  };
  return { el, update };
}
