// GDL games (and any kind without a board of its own), drawn from the state itself: the grid
// gdl_grid.js finds in the facts (with the server's layout, game_start.board, as a hint) is a
// board of buttons with its coordinates; each distinct content is a piece with a colour and a
// glyph, named in a legend; blanks (b, blank, empty) are empty; the other facts are listed
// beside it. A move is made by clicking where it names cells: one cell ((mark 1 2)), a column
// ((drop 4)), or two clicks, from then to ((move 1 2 1 3)); a click that could be several
// moves offers them as buttons. The moves are buttons under the board too when there are
// few (up to FEW_MOVES); with more, only those no click names, and every move in a fold.
// Without a grid every fact is listed and the moves are buttons; a position that is not KIF
// is shown as text. Nothing here knows a sheet's name.
import { h } from '../dom.js';
import { parseKif, printKif, detectGrid, clickPlan, moveTargets, isBlank } from './gdl_grid.js';

export { parseKif, printKif };

// Up to this many legal moves are all shown as buttons too.
const FEW_MOVES = 16;

// Colours for contents that are not colour words, in order of first sight.
const PALETTE = ['#1f6feb', '#d9480f', '#2f9e44', '#9c36b5', '#e8a400', '#0c8599', '#c2255c', '#5c940d',
  '#364fc7', '#862e9c', '#a61e4d', '#087f5b', '#495057', '#f08c00'];
const COLOUR_WORDS = {
  red: '#d62828', black: '#1b1b1b', white: '#f8f8f8', blue: '#1f6feb', green: '#2f9e44', yellow: '#f2c500',
  orange: '#f08c00', purple: '#862e9c', brown: '#8b5a2b', pink: '#e64980', grey: '#868e96', gray: '#868e96',
  cyan: '#15aabf', magenta: '#c2255c', teal: '#0c8599', gold: '#d4a017', silver: '#adb5bd',
};
const CHESS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const CHESS_WORDS = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };

// The look of a content: { colour, glyph, light } (light: a pale piece, drawn with a dark glyph).
function lookOf(content, index, used) {
  const words = String(content).toLowerCase().split(/[\s_\-()]+/).filter(Boolean);
  const colourWord = words.find((w) => COLOUR_WORDS[w]);
  // Chess-like pieces: "wk", "bq", "white king", "black_pawn".
  const code = /^([wb])([kqrbnp])$/.exec(words.join(''));
  const pieceWord = words.find((w) => CHESS_WORDS[w]);
  if (code || (pieceWord && (colourWord === 'white' || colourWord === 'black'))) {
    const white = code ? code[1] === 'w' : colourWord === 'white';
    return { colour: white ? '#f8f8f8' : '#1b1b1b', glyph: CHESS[code ? code[2] : CHESS_WORDS[pieceWord]], light: white, chess: true };
  }
  const colour = colourWord ? COLOUR_WORDS[colourWord] : PALETTE[index % PALETTE.length];
  // A short glyph: the content when short, else its first letters, unique among the contents.
  const plain = String(content).replace(/[()]/g, '');
  let glyph = plain.length <= 2 ? plain.toUpperCase() : plain[0].toUpperCase();
  for (let n = 2; used.has(glyph) && n <= plain.length; n++) glyph = plain.slice(0, n).toUpperCase();
  if (colourWord && words.length === 1) glyph = '';  // a red disc needs no letter
  used.add(glyph);
  return { colour, glyph, light: colourWord === 'white' || colourWord === 'yellow' || colourWord === 'silver' };
}

export function create(layout = null) {
  const grid = h('div.gdl-grid', { 'data-testid': 'gdl-grid' });
  const legend = h('ul.gdl-legend', { 'data-testid': 'gdl-legend' });
  const facts = h('ul.gdl-facts', { 'data-testid': 'gdl-facts' });
  const text = h('pre.board-text');
  const el = h('div.gdl-board', {}, h('div.gdl-main', {}, grid, text), h('div.gdl-side', {}, legend, facts));
  const choice = h('div.gdl-choice', { 'data-testid': 'gdl-choice', hidden: true });
  const buttons = h('div.gdl-moves', { 'data-testid': 'gdl-moves' });
  const allMoves = h('div.gdl-moves');
  const fold = h('details.gdl-all-moves', { 'data-testid': 'gdl-all-moves' }, h('summary', {}, 'Every legal move as text'), allMoves);
  const controls = h('div.gdl-controls', {}, choice, buttons, fold);
  const looks = new Map();  // content -> look, kept for the whole game so colours never change
  const usedGlyphs = new Set();
  let selected = null;  // the "from" cell of a two-click move
  let lastView = null;
  let prevCells = null;
  let currentPlan = null;

  function look(content) {
    if (!looks.has(content)) looks.set(content, lookOf(content, looks.size, usedGlyphs));
    return looks.get(content);
  }

  function piece(content) {
    const lk = look(content);
    return h(`span.gdl-piece${lk.light ? '.light' : ''}${lk.chess ? '.chess' : ''}`,
      { style: `--piece:${lk.colour}`, 'aria-hidden': 'true' }, lk.glyph);
  }

  function offer(moves, view) {
    choice.hidden = false;
    choice.replaceChildren(h('span.muted', {}, 'Which move? '), ...moves.map((m) =>
      h('button.gdl-move.primary', { type: 'button', dataset: { move: m }, onclick: () => { choice.hidden = true; view.onMove(m); } }, m)),
    h('button', { type: 'button', onclick: () => { choice.hidden = true; } }, 'Cancel'));
  }

  function update(view) {
    lastView = view;
    const terms = parseKif(view.position);
    const legal = view.legal || [];
    text.hidden = terms !== null;
    if (terms === null) text.textContent = view.position || '';
    const board = terms ? detectGrid(terms, layout) : null;
    // Contents in sorted order get their looks first, so a game's colours do not depend on
    // which piece moved first.
    if (board) for (const c of board.contents) look(c);
    const plan = board && view.interactive ? clickPlan(board, legal) : { single: new Map(), column: new Map(), fromTo: [], rest: legal };
    if (selected && !plan.fromTo.some((t) => t.from === selected)) selected = null;
    if (!view.interactive) choice.hidden = true;
    grid.hidden = !board;
    if (board) drawGrid(board, plan, view);
    const rest = board ? board.rest : (terms || []).map(printKif);
    legend.hidden = !board || board.contents.length === 0;
    legend.replaceChildren(...(board ? board.contents : []).map((c) =>
      h('li', { dataset: { content: c } }, piece(c), h('span.gdl-legend-name', {}, c))));
    facts.hidden = terms === null || rest.length === 0;
    facts.replaceChildren(...rest.map((f) => h('li', {}, f)));
    // A short list of moves stays as buttons (quicker to read than to hunt for on a board);
    // a long one keeps as buttons only the moves no click names, the rest in the fold.
    const few = legal.length <= FEW_MOVES;
    const shown = view.interactive ? (few ? legal : plan.rest) : [];
    buttons.hidden = shown.length === 0;
    buttons.replaceChildren(...shown.map((m) =>
      h('button.gdl-move', { type: 'button', dataset: { move: m }, onclick: () => view.onMove(m) }, m)));
    const clickable = view.interactive && !few ? legal.filter((m) => !plan.rest.includes(m)) : [];
    fold.hidden = clickable.length === 0;
    allMoves.replaceChildren(...clickable.map((m) =>
      h('button.gdl-move', { type: 'button', dataset: { move: m }, onclick: () => view.onMove(m) }, m)));
  }

  function drawGrid(board, plan, view) {
    const { xs, cells } = board;
    const ys = [...board.ys].reverse();  // the first row at the bottom
    // The last move: the cells it names, or for a column move the cells of that column that
    // changed since the previous picture.
    const last = new Set();
    if (view.lastMove) {
      const t = moveTargets(board, view.lastMove);
      for (const k of t.cells) last.add(k);
      if (t.column !== null && prevCells) {
        for (const y of board.ys) {
          const k = `${t.column} ${y}`;
          if ((cells.get(k) || '') !== (prevCells.get(k) || '')) last.add(k);
        }
      }
    }
    prevCells = cells;
    const targets = new Set(selected ? plan.fromTo.filter((t) => t.from === selected).map((t) => t.to) : []);
    const froms = new Set(plan.fromTo.map((t) => t.from));
    grid.style.gridTemplateColumns = `auto repeat(${xs.length}, minmax(0, 1fr))`;
    grid.style.maxWidth = `${xs.length * 4 + 2}rem`;  // cells of at most about 4rem
    const nodes = [];
    ys.forEach((y, r) => {
      nodes.push(h('span.gdl-label.gdl-rank', {}, y));
      xs.forEach((x, c) => {
        const key = `${x} ${y}`;
        const content = cells.get(key) || '';
        const blank = content === '' || isBlank(content);
        const playable = plan.single.has(key) || plan.column.has(x) || froms.has(key) || targets.has(key);
        const cls = ['gdl-cell', (r + c) % 2 ? 'dark' : 'light'];
        if (playable) cls.push('playable');
        if (last.has(key)) cls.push('last');
        if (selected === key) cls.push('selected');
        if (targets.has(key)) cls.push('target');
        const single = plan.single.get(key);
        nodes.push(h(`button.${cls.join('.')}`, {
          type: 'button',
          disabled: !playable,
          'data-square': key,
          'data-content': content,
          'aria-label': `${key}: ${blank ? 'empty' : content}`,
          title: single && single.length === 1 ? single[0] : key,
          onclick: playable ? () => click(key, x) : undefined,
        }, blank ? null : piece(content)));
      });
    });
    nodes.push(h('span.gdl-corner'), ...xs.map((x) => h('span.gdl-label.gdl-file', {}, x)));
    grid.replaceChildren(...nodes);
    grid.dataset.relation = board.relation;
    currentPlan = plan;
  }

  function click(key, x) {
    const view = lastView;
    const plan = currentPlan;
    if (!view || !view.interactive || !plan) return;
    choice.hidden = true;
    if (selected) {
      const moves = plan.fromTo.filter((t) => t.from === selected && t.to === key).map((t) => t.move);
      if (moves.length) {
        selected = null;
        if (moves.length === 1) view.onMove(moves[0]); else { offer(moves, view); update(view); }
        return;
      }
    }
    const here = [...(plan.single.get(key) || []), ...(plan.column.get(x) || [])];
    if (here.length === 1) { selected = null; view.onMove(here[0]); return; }
    if (here.length > 1) { selected = null; offer(here, view); return; }
    selected = plan.fromTo.some((t) => t.from === key) && selected !== key ? key : null;
    update(view);
  }

  return { el, update, controls };
}
