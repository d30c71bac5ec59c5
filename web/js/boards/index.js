// The board for each game kind. A board is { el, update(view), controls?, dispose? } where
// view = { position, legal, lastMove, interactive, seat, onMove(text) }. A kind without a board
// of its own (GDL games, "gdl:NAME") gets the generic one of gdl.js: a grid when the server
// found one (game_start.board), else the state's facts, with the legal moves as buttons.
import * as tictactoe from './tictactoe.js';
import * as qubic from './qubic.js';
import * as isolation from './isolation.js';
import * as othello from './othello.js';
import * as checkers from './checkers.js';
import * as chess from './chess.js';
import * as sliding from './sliding.js';
import * as rubik from './rubik.js';
import * as gdl from './gdl.js';

const BOARDS = { tictactoe, qubic, isolation, othello, checkers, chess, sliding, rubik };

// Canonical kind for a catalog name or alias ("tic-tac-toe", "8-puzzle", ...).
export function boardKind(game, options = '') {
  const g = (game || '').toLowerCase();
  if (g.startsWith('gdl:')) return g;  // a sheet's name says nothing of its board: gdl:eightPuzzle
  if (g === 'tic-tac-toe' || g === 'tictactoe') return /variant=(4x4x4|qubic)/.test(options) ? 'qubic' : 'tictactoe';
  if (g === '4x4x4') return 'qubic';
  if (/puzzle$/.test(g)) return 'sliding';
  if (g === 'rubiks-cube') return 'rubik';
  return g;
}

export function hasOwnBoard(game, options = '') {
  return !!BOARDS[boardKind(game, options)];
}

// `layout`: game_start.board (or null), for the generic board.
export function createBoard(game, options, layout = null) {
  const mod = BOARDS[boardKind(game, options)];
  if (!mod) return gdl.create(layout);
  return mod.create();
}
