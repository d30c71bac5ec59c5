// Chess. Position: FEN. Move text: UCI ("e2e4", "e7e8q"). Click a piece, then a target: the
// page matches the from/to prefix among the server's legal moves (no rules code here).
// Promotion takes the piece chosen in the picker under the board (queen by default).
import { s, svgRoot, cell, replaceChildren } from './svg.js';

// Solid glyphs for both sides; the colour comes from the fill, so both sets look alike.
const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

// 64 entries, index 0 = a8 ... 63 = h1, each '' or a FEN piece letter.
export function parseFen(fen) {
  const board = [];
  for (const ch of (fen || '').split(' ')[0]) {
    if (ch === '/') continue;
    if (/\d/.test(ch)) for (let k = 0; k < Number(ch); k++) board.push('');
    else board.push(ch);
  }
  while (board.length < 64) board.push('');
  return board;
}

const squareName = (idx) => String.fromCharCode(97 + (idx % 8)) + (8 - Math.floor(idx / 8));

export function create() {
  const el = svgRoot(100, 100, 'chess board');
  const controls = document.createElement('label');
  controls.className = 'promotion-picker';
  controls.innerHTML = 'Promote to <select data-testid="promotion"><option value="q">queen</option>' +
    '<option value="r">rook</option><option value="b">bishop</option><option value="n">knight</option></select>';
  const picker = controls.querySelector('select');
  let selected = null;
  let lastView = null;

  const update = (view) => {
    lastView = view;
    const board = parseFen(view.position);
    const legal = view.interactive ? view.legal || [] : [];
    const flip = view.seat === 1;
    controls.hidden = !legal.some((m) => m.length === 5);  // the picker only when a pawn can promote
    const froms = new Set(legal.map((m) => m.slice(0, 2)));
    if (selected && !froms.has(selected)) selected = null;
    const targets = new Set(selected ? legal.filter((m) => m.startsWith(selected)).map((m) => m.slice(2, 4)) : []);
    const last = view.lastMove || '';
    const lastSquares = new Set([last.slice(0, 2), last.slice(2, 4)]);
    const nodes = [];
    for (let idx = 0; idx < 64; idx++) {
      const name = squareName(idx);
      const f = idx % 8, r = Math.floor(idx / 8);
      const x = (flip ? 7 - f : f) * 12.5, y = (flip ? 7 - r : r) * 12.5;
      const cls = ['sq', (f + r) % 2 ? 'dark' : 'light'];
      if (lastSquares.has(name)) cls.push('last');
      if (selected === name) cls.push('selected');
      if (froms.has(name) || targets.has(name)) cls.push('playable');
      const piece = board[idx];
      const rect = cell(x, y, 12.5, 12.5, cls.join(' '), name,
        { 'aria-label': piece ? `${name} ${piece === piece.toUpperCase() ? 'white' : 'black'} ${NAMES[piece.toLowerCase()]}` : name });
      rect.addEventListener('click', () => click(name));
      nodes.push(rect);
      if (piece) {
        const white = piece === piece.toUpperCase();
        nodes.push(s('text', { x: x + 6.25, y: y + 6.9, class: `chess-piece ${white ? 'white' : 'black'}`, 'pointer-events': 'none' },
          GLYPH[piece.toLowerCase()]));
      }
      if (targets.has(name)) nodes.push(s('circle', { cx: x + 6.25, cy: y + 6.25, r: piece ? 5.6 : 1.8, class: piece ? 'target-ring' : 'target-dot', 'pointer-events': 'none' }));
      // Coordinates along the bottom and left edges.
      if ((flip ? 7 - r : r) === 7) nodes.push(s('text', { x: x + 11.6, y: y + 12, class: 'coord' }, name[0]));
      if ((flip ? 7 - f : f) === 0) nodes.push(s('text', { x: x + 0.6, y: y + 2.6, class: 'coord rank' }, name[1]));
    }
    replaceChildren(el, nodes);
  };

  function click(name) {
    const view = lastView;
    if (!view || !view.interactive) return;
    const legal = view.legal || [];
    if (selected) {
      const moves = legal.filter((m) => m.startsWith(selected + name));
      if (moves.length) {
        const promo = moves.find((m) => m.length === 5 && m[4] === picker.value);
        const move = promo || moves[0];
        selected = null;
        view.onMove(move);
        return;
      }
    }
    selected = legal.some((m) => m.startsWith(name)) && selected !== name ? name : null;
    update(view);
  }

  return { el, update, controls };
}
