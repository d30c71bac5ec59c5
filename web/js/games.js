// What the page knows about each followed game, built only from the server's events.

export const SIDES = {
  chess: ['White', 'Black'], checkers: ['Black', 'White'], othello: ['Black', 'White'],
  tictactoe: ['X', 'O'], qubic: ['X', 'O'], isolation: ['X', 'O'],
};
// Games whose rules have no draw (the server refuses offer_draw there: draw_not_possible).
export const NO_DRAWS = new Set(['isolation']);

// Move lists are numbered per full move ("1. e4 e5 2. Nf3") in games of two seats that take
// turns; otherwise one number per turn. The number to show before move i (0-based), or ''.
export function moveNumber(i, pairs) {
  if (!pairs) return `${i + 1}.`;
  return i % 2 === 0 ? `${i / 2 + 1}.` : '';
}

// The seats' names: the kind's own (X, O), else the game's (game_start.seats: a GDL game's
// roles), else "Seat 1", "Seat 2", ...
export function sideNames(kind, start = null) {
  const n = start && start.players ? start.players.length : 2;
  if (SIDES[kind] && n === 2) return SIDES[kind];
  if (start && start.seats && start.seats.length === n) return start.seats;
  if (n === 2) return ['First', 'Second'];
  return Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
}

// The seats that must move in state `st` (protocol 2: movers; version 1: to_move).
export function moversOf(st) {
  if (!st || st.result) return [];
  return Array.isArray(st.movers) ? st.movers : [st.to_move];
}

// The legal moves of `seat` in state `st`.
export function legalMovesOf(st, seat) {
  if (!moversOf(st).includes(seat)) return [];
  if (st.legal_moves_by_seat) return st.legal_moves_by_seat[seat] || [];
  return st.to_move === seat ? st.legal_moves || [] : [];
}

export class GameStore extends EventTarget {
  constructor(conn) {
    super();
    this.conn = conn;
    this.games = new Map();
    conn.addEventListener('game_event', (e) => this.apply(e.detail));
  }

  get(id) { return this.games.get(id); }

  apply(msg) {
    let g = this.games.get(msg.game_id);
    if (!g) {
      g = { id: msg.game_id, start: null, state: null, moves: [], sans: [], end: null, drawOffer: null, moved: [] };
      this.games.set(msg.game_id, g);
    }
    switch (msg.type) {
      case 'game_start':
        g.start = msg;
        g.moves = [...(msg.moves || [])];
        // The moves as people read them (chess: SAN, sent by the server; the others' own text).
        g.sans = [...(msg.moves_san && msg.moves_san.length === g.moves.length ? msg.moves_san : g.moves)];
        g.positions = {};  // number of moves played -> position text, as the server sent it
        g.state = null;
        g.end = null;
        g.drawOffer = null;
        g.moved = [];
        break;
      case 'state':
        // The first state after game_start describes the position after game_start.moves;
        // every later state adds exactly one move.
        if (msg.last_move && msg.version >= 2) {
          g.moves.push(msg.last_move);
          g.sans.push(msg.last_move_san || msg.last_move);
        }
        g.state = msg;
        if (g.positions) g.positions[g.moves.length] = msg.position;
        g.receivedAt = performance.now();
        g.drawOffer = null;
        g.moved = [];  // a new turn: nobody has moved yet
        break;
      case 'moved':  // a seat chose its move in a simultaneous turn
        if (!g.moved.includes(msg.seat)) g.moved.push(msg.seat);
        break;
      case 'draw_offer':
        g.drawOffer = msg.by;
        break;
      case 'game_end':
        g.end = msg;
        break;
      default: break;
    }
    this.dispatchEvent(new CustomEvent('change', { detail: g }));
  }

  // The seat (0, 1, ...) of this connection's player in game g, or -1 for a spectator.
  seatOf(g) {
    const me = this.conn.player;
    if (!g || !g.start || !me) return -1;
    return g.start.players.findIndex((p) => p.id === me.id);
  }
}
