// Rubik's cube as a net (U on top; L F R B in a row; D below). Position: Reid's notation, the
// stickers of the cubies at UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR,
// each in the position's face order. Moves: face turns (U U' U2 ...) as buttons.
import { s, svgRoot, replaceChildren } from './svg.js';

const POSITIONS = ['UF', 'UR', 'UB', 'UL', 'DF', 'DR', 'DB', 'DL', 'FR', 'FL', 'BR', 'BL',
  'UFR', 'URB', 'UBL', 'ULF', 'DRF', 'DFL', 'DLB', 'DBR'];
// Facelet (1..9, row by row as the face is seen in the net) of each position's face.
const FACELET = {
  UF: { U: 8, F: 2 }, UR: { U: 6, R: 2 }, UB: { U: 2, B: 2 }, UL: { U: 4, L: 2 },
  DF: { D: 2, F: 8 }, DR: { D: 6, R: 8 }, DB: { D: 8, B: 8 }, DL: { D: 4, L: 8 },
  FR: { F: 6, R: 4 }, FL: { F: 4, L: 6 }, BR: { B: 4, R: 6 }, BL: { B: 6, L: 4 },
  UFR: { U: 9, F: 3, R: 1 }, URB: { U: 3, R: 3, B: 1 }, UBL: { U: 1, B: 3, L: 1 }, ULF: { U: 7, L: 3, F: 1 },
  DRF: { D: 3, R: 7, F: 9 }, DFL: { D: 1, F: 7, L: 9 }, DLB: { D: 7, L: 7, B: 9 }, DBR: { D: 9, B: 7, R: 9 },
};
const ORIGIN = { U: [3, 0], L: [0, 3], F: [3, 3], R: [6, 3], B: [9, 3], D: [3, 6] };  // in stickers
const COLOUR = { U: 'cube-u', D: 'cube-d', F: 'cube-f', B: 'cube-b', R: 'cube-r', L: 'cube-l' };

// face -> array of 9 colour letters
export function facelets(reid) {
  const faces = {};
  for (const f of 'UDFBRL') faces[f] = Array(9).fill(f);
  const tokens = (reid || '').trim().split(/\s+/);
  POSITIONS.forEach((pos, i) => {
    const tok = tokens[i] || pos;
    [...pos].forEach((face, k) => { faces[face][FACELET[pos][face] - 1] = tok[k]; });
  });
  return faces;
}

export function create() {
  const el = svgRoot(120, 90, "Rubik's cube net");
  const controls = document.createElement('div');
  controls.className = 'cube-moves';
  const update = (view) => {
    const faces = facelets(view.position);
    const nodes = [];
    for (const [face, [ox, oy]] of Object.entries(ORIGIN)) {
      faces[face].forEach((c, i) => {
        const x = (ox + (i % 3)) * 10, y = (oy + Math.floor(i / 3)) * 10;
        nodes.push(s('rect', { x: x + 0.4, y: y + 0.4, width: 9.2, height: 9.2, rx: 1.2, class: `sticker ${COLOUR[c] || ''}`, 'data-face': face }));
      });
      nodes.push(s('text', { x: (ox + 1.5) * 10, y: (oy + 1.5) * 10 + 1.2, class: 'face-label', 'pointer-events': 'none' }, face));
    }
    replaceChildren(el, nodes);
    const legal = view.interactive ? view.legal || [] : [];
    controls.replaceChildren(...legal.map((m) => {
      const b = document.createElement('button');
      b.textContent = m;
      b.dataset.move = m;
      b.addEventListener('click', () => view.onMove(m));
      return b;
    }));
  };
  return { el, update, controls };
}
