// The board for each game kind. A board is { el, update(view), controls?, dispose? } where
// view = { position, legal, lastMove, interactive, seat, onMove(text) }.
import * as tictactoe from './tictactoe.js';
import * as qubic from './qubic.js';
import * as isolation from './isolation.js';
import * as othello from './othello.js';
import * as checkers from './checkers.js';
import * as chess from './chess.js';
import * as sliding from './sliding.js';
import * as rubik from './rubik.js';

const BOARDS = { tictactoe, qubic, isolation, othello, checkers, chess, sliding, rubik };

// Canonical kind for a catalog name or alias ("tic-tac-toe", "8-puzzle", ...).
export function boardKind(game, options = '') {
  const g = (game || '').toLowerCase();
  if (g === 'tic-tac-toe' || g === 'tictactoe') return /variant=(4x4x4|qubic)/.test(options) ? 'qubic' : 'tictactoe';
  if (g === '4x4x4') return 'qubic';
  if (/puzzle$/.test(g)) return 'sliding';
  if (g === 'rubiks-cube') return 'rubik';
  return g;
}

export function createBoard(game, options) {
  const mod = BOARDS[boardKind(game, options)];
  if (!mod) {
    // An unknown kind still shows its position text, so a new game is never a blank page.
    const el = document.createElement('pre');
    el.className = 'board-text';
    return { el, update: (v) => { el.textContent = v.position || ''; } };
  }
  return mod.create();
}
