// Puzzles: slide a 8/15/24-puzzle or turn a Rubik's cube. The server scrambles the goal with
// random moves from a seed, checks every move, and reports the length (and the optimal length
// when it has a solver; otherwise the page says so). The catalog's GDL sheets of one role
// ("gdl:NAME") are puzzles too: they start from the sheet's initial state and end in any
// terminal state, solved at goal 100, otherwise with the goal reached as the score.
import { h, sheetOption } from '../dom.js';
import { createBoard, boardKind } from '../boards/index.js';

// The arrangement a puzzle must reach, as a position its board draws, or null when the page
// cannot tell (a GDL sheet's goal is its rules'). Sliding puzzles: the blank first, then
// 1..n*n-1 in row order (games/puzzles/sliding_puzzle.h); the cube: every face of one colour.
export function goalPosition(kind, position) {
  if (kind === 'sliding') {
    const n = (position || '').trim().split(/[\s,/]+/).length;
    return Array.from({ length: n }, (_, i) => String(i)).join(' ');
  }
  if (kind === 'rubik') return '';  // the board reads an empty position as the solved cube
  return null;
}


export function puzzleView(ctx) {
  const { conn } = ctx;
  const gdlPuzzles = (ctx.catalog || []).filter((g) => g.gdl && g.players === 1);
  const kind = h('select', { 'data-testid': 'puzzle-kind', onchange: () => { scramble.disabled = isGdl(); } },
    h('option', { value: 'sliding:3' }, '8-puzzle (3x3)'), h('option', { value: 'sliding:4', selected: true }, '15-puzzle (4x4)'),
    h('option', { value: 'sliding:5' }, '24-puzzle (5x5)'), h('option', { value: 'rubik' }, "Rubik's cube"),
    gdlPuzzles.length ? h('optgroup', { label: 'GDL puzzles (rule sheets)' },
      gdlPuzzles.map((g) => sheetOption(g, g.name.replace(/^gdl:/, '')))) : null);
  const isGdl = () => kind.value.startsWith('gdl:');
  const scramble = h('input', { type: 'number', min: 1, max: 200, value: 20, 'data-testid': 'puzzle-scramble' });
  const status = h('p.status', { 'data-testid': 'puzzle-status', 'aria-live': 'polite' }, 'Pick a puzzle and start.');
  const result = h('div.result', { hidden: true, 'data-testid': 'puzzle-result' });
  const boardBox = h('div.board-box.puzzle-board', { 'data-testid': 'board' });
  const goalBox = h('div.goal-box', { 'data-testid': 'puzzle-goal', hidden: true });
  const error = h('p.error', { 'aria-live': 'assertive' });
  // One start at a time (the server prepares one puzzle_start per player and answers a second
  // `busy`): the button waits for the new puzzle's state or an error.
  const startButton = h('button.primary', { type: 'submit', 'data-testid': 'puzzle-start' }, 'New puzzle');
  const el = h('div.puzzle-view',
    {},
    h('form.card.puzzle-form', { onsubmit: (e) => { e.preventDefault(); start(); } },
      h('h2', {}, 'Puzzles'),
      h('div.form-row', {}, h('label', {}, 'Puzzle ', kind), h('label', {}, 'Scramble moves ', scramble),
        startButton),
      h('p.muted', {}, 'Click a tile next to the gap to slide it (or use the arrow keys); turn the cube with the face buttons. ' +
        'A GDL puzzle starts from its sheet\'s first state (no scramble): click a cell or one of the moves below the board.')),
    status, h('div.puzzle-layout', {}, boardBox, goalBox), error, result);

  let board = null;
  let puzzleId = null;
  let puzzleKind = '';
  let lastPosition = '';

  function start() {
    if (startButton.disabled) return;
    startButton.disabled = true;
    puzzleId = null;
    result.hidden = true;
    error.textContent = '';
    status.textContent = 'Starting…';
    if (isGdl()) return conn.send({ type: 'puzzle_start', puzzle: kind.value, options: '', scramble: 0 });
    const [name, size] = kind.value.split(':');
    // The server scrambles the solved puzzle by `scramble` random moves.
    const options = name === 'sliding' ? `size=${size}` : '';
    conn.send({ type: 'puzzle_start', puzzle: name, options, seed: Math.floor(Math.random() * 1e9),
      scramble: Math.max(1, Math.min(200, Number(scramble.value) || 20)) });
  }

  const onState = (e) => {
    const m = e.detail;
    if (puzzleId !== null && m.puzzle_id !== puzzleId) return;
    const fresh = puzzleId === null;
    if (fresh) startButton.disabled = false;
    puzzleId = m.puzzle_id;
    puzzleKind = m.puzzle;
    if (fresh || !board) {
      if (board && board.dispose) board.dispose();
      board = createBoard(m.puzzle, '', m.board || null);
      boardBox.replaceChildren(board.el, ...(board.controls ? [board.controls] : []));
      showGoal(m.puzzle, m.position);
    }
    lastPosition = m.position;
    board.update({ position: m.position, legal: m.legal_moves, lastMove: m.moves.at(-1) || '', interactive: true, seat: 0,
      onMove: (mv) => conn.send({ type: 'puzzle_move', puzzle_id: puzzleId, move: mv }) });
    status.textContent = `Moves: ${m.version}`;
  };
  let goalBoard = null;
  function showGoal(puzzle, position) {
    if (goalBoard && goalBoard.dispose) goalBoard.dispose();
    goalBoard = null;
    const kind = boardKind(puzzle, '');
    const goal = goalPosition(kind, position);
    goalBox.hidden = goal === null;
    if (goal === null) { goalBox.replaceChildren(); return; }
    goalBoard = createBoard(puzzle, '', null);
    goalBoard.update({ position: goal, legal: [], lastMove: '', interactive: false, seat: 0, onMove: () => {} });
    goalBox.replaceChildren(h('h3', {}, 'Goal'), goalBoard.el,
      h('p.note', {}, kind === 'sliding' ? 'The gap first, then the tiles in order, row by row.' : 'Every face of one colour.'));
  }

  const onEnd = (e) => {
    const m = e.detail;
    if (m.puzzle_id !== puzzleId) return;
    board.update({ position: lastPosition, legal: [], interactive: false, onMove: () => {} });
    result.hidden = false;
    const moves = `${m.length} move${m.length === 1 ? '' : 's'}`;
    const note = m.note ? h('p.note', { 'data-testid': 'end-note' }, m.note) : null;
    if (m.solved === false) {
      result.className = 'result lost';
      result.replaceChildren(h('strong', {}, `Ended short of the goal after ${moves}`),
        ` (${(m.time_ms / 1000).toFixed(1)} s): score ${m.score} of 100.`, note || '');
      return;
    }
    result.className = 'result won';
    const known = m.optimal_length !== null && m.optimal_length !== undefined;
    const optimal = known ? `The optimal solution takes ${m.optimal_length} moves.`
      : puzzleKind.startsWith('gdl:') ? '' : 'The optimal length was too costly to find here (the command line can: arena solve).';
    result.replaceChildren(h('strong', {}, `Solved in ${moves}`), ` (${(m.time_ms / 1000).toFixed(1)} s). `, optimal, note || '');
  };
  const onError = (e) => {
    if (!String(e.detail.ref).startsWith('puzzle')) return;
    error.textContent = e.detail.message;
    if (e.detail.ref === 'puzzle_start') {
      startButton.disabled = false;
      status.textContent = 'Pick a puzzle and start.';
    }
  };
  // A start lost with the connection is not answered: the button comes back.
  const onDisconnected = () => { startButton.disabled = false; };
  conn.addEventListener('puzzle_state', onState);
  conn.addEventListener('puzzle_end', onEnd);
  conn.addEventListener('error', onError);
  conn.addEventListener('disconnected', onDisconnected);
  return {
    el,
    dispose() {
      conn.removeEventListener('puzzle_state', onState);
      conn.removeEventListener('puzzle_end', onEnd);
      conn.removeEventListener('error', onError);
      conn.removeEventListener('disconnected', onDisconnected);
      if (board && board.dispose) board.dispose();
      if (goalBoard && goalBoard.dispose) goalBoard.dispose();
    },
  };
}
