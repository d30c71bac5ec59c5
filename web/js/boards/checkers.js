// English checkers. Position: PDN FEN "B:W21,22,K30:B1,2" (side to move, White's and Black's
// squares, K before a king). Squares 1-32 row by row from Black's side (Black at the top);
// even rows (0 = top) have their dark squares in columns 1,3,5,7, odd rows in 0,2,4,6.
// Move text: "11-15" or "11x18x25"; click a piece, then the final landing square.
import { s, svgRoot, cell, replaceChildren } from './svg.js';

export function parsePdn(fen) {
  const pieces = new Map();  // square -> 'b', 'B', 'w', 'W' (upper = king)
  const parts = (fen || '').replace(/\.$/, '').split(':');
  for (const part of parts.slice(1)) {
    const colour = part[0] === 'W' ? 'w' : part[0] === 'B' ? 'b' : null;
    if (!colour) continue;
    for (const tok of part.slice(1).split(',')) {
      if (!tok) continue;
      const king = tok.startsWith('K');
      const body = king ? tok.slice(1) : tok;
      const [a, b] = body.split('-').map(Number);
      for (let q = a; q <= (b || a); q++) pieces.set(q, king ? colour.toUpperCase() : colour);
    }
  }
  return pieces;
}

export function squareXY(sq) {
  const r = Math.floor((sq - 1) / 4), i = (sq - 1) % 4;
  return { col: r % 2 === 0 ? 2 * i + 1 : 2 * i, row: r };
}

const path = (m) => m.split(/[-x]/).map(Number);

export function create() {
  const el = svgRoot(100, 100, 'checkers board');
  let selected = null;
  let lastView = null;

  const update = (view) => {
    lastView = view;
    const pieces = parsePdn(view.position);
    const legal = view.interactive ? view.legal || [] : [];
    const flip = view.seat === 1;  // the second player (White) sees its men at the bottom
    const froms = new Set(legal.map((m) => path(m)[0]));
    if (selected && !froms.has(selected)) selected = null;
    const targets = new Set(selected ? legal.filter((m) => path(m)[0] === selected).map((m) => path(m).at(-1)) : []);
    const lastPath = new Set(view.lastMove ? path(view.lastMove) : []);
    const nodes = [];
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const dark = (row + col) % 2 === 1;
        const x = (flip ? 7 - col : col) * 12.5, y = (flip ? 7 - row : row) * 12.5;
        if (!dark) { nodes.push(s('rect', { x, y, width: 12.5, height: 12.5, class: 'sq light' })); continue; }
        const sq = row * 4 + Math.floor(col / 2) + 1;
        const cls = ['sq', 'dark'];
        if (lastPath.has(sq)) cls.push('last');
        if (selected === sq) cls.push('selected');
        if (froms.has(sq) || targets.has(sq)) cls.push('playable');
        const p = pieces.get(sq);
        const rect = cell(x, y, 12.5, 12.5, cls.join(' '), String(sq),
          { 'aria-label': `${sq}${p ? ` ${p.toLowerCase() === 'b' ? 'black' : 'white'} ${p === p.toUpperCase() ? 'king' : 'man'}` : ''}` });
        rect.addEventListener('click', () => click(sq));
        nodes.push(rect, s('text', { x: x + 0.8, y: y + 2.8, class: 'coord num' }, String(sq)));
        if (p) {
          nodes.push(s('circle', { cx: x + 6.25, cy: y + 6.25, r: 4.8, class: p.toLowerCase() === 'b' ? 'man-black' : 'man-white', 'pointer-events': 'none' }));
          if (p === p.toUpperCase()) nodes.push(s('text', { x: x + 6.25, y: y + 7.6, class: `king-mark ${p === 'B' ? 'on-black' : 'on-white'}`, 'pointer-events': 'none' }, '\u265B'));
        }
        if (targets.has(sq)) nodes.push(s('circle', { cx: x + 6.25, cy: y + 6.25, r: 1.8, class: 'target-dot', 'pointer-events': 'none' }));
      }
    }
    replaceChildren(el, nodes);
  };

  function click(sq) {
    const view = lastView;
    if (!view || !view.interactive) return;
    const legal = view.legal || [];
    if (selected) {
      const move = legal.find((m) => path(m)[0] === selected && path(m).at(-1) === sq);
      if (move) { selected = null; view.onMove(move); return; }
    }
    selected = legal.some((m) => path(m)[0] === sq) && selected !== sq ? sq : null;
    update(view);
  }

  return { el, update };
}
