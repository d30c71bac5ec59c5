// Sliding-tile puzzles (8, 15, 24). Position: the tiles row by row, 0 = the blank, separated
// by spaces. Move text: the direction the blank moves (U D L R), so clicking the tile above
// the blank plays "U". Arrow keys work too (they name the blank's direction).
import { s, svgRoot, cell, replaceChildren } from './svg.js';

export function create() {
  const el = svgRoot(100, 100, 'sliding-tile puzzle');
  let lastView = null;
  const update = (view) => {
    lastView = view;
    const tiles = (view.position || '').trim().split(/[\s,/]+/).map(Number);
    const n = Math.round(Math.sqrt(tiles.length)) || 4, side = 100 / n;
    const blank = tiles.indexOf(0), br = Math.floor(blank / n), bc = blank % n;
    const legal = new Set(view.interactive ? view.legal || [] : []);
    const nodes = [s('rect', { x: 0, y: 0, width: 100, height: 100, class: 'tray' })];
    tiles.forEach((t, i) => {
      if (t === 0) return;
      const r = Math.floor(i / n), c = i % n, x = c * side, y = r * side;
      // The blank moves towards the clicked tile.
      const dir = r === br - 1 && c === bc ? 'U' : r === br + 1 && c === bc ? 'D'
        : c === bc - 1 && r === br ? 'L' : c === bc + 1 && r === br ? 'R' : null;
      const playable = dir && legal.has(dir);
      const rect = cell(x + 0.8, y + 0.8, side - 1.6, side - 1.6, `tile${playable ? ' playable' : ''}`, String(t),
        { rx: 2, 'aria-label': `tile ${t}` });
      if (playable) rect.addEventListener('click', () => view.onMove(dir));
      nodes.push(rect, s('text', { x: x + side / 2, y: y + side / 2, class: 'tile-number', 'font-size': side * 0.42, 'pointer-events': 'none' }, String(t)));
    });
    replaceChildren(el, nodes);
  };
  const onKey = (e) => {
    const dir = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R' }[e.key];
    if (!dir || !lastView || !lastView.interactive || !el.isConnected) return;
    if ((lastView.legal || []).includes(dir)) { e.preventDefault(); lastView.onMove(dir); }
  };
  document.addEventListener('keydown', onKey);
  return { el, update, dispose: () => document.removeEventListener('keydown', onKey) };
}
