// What the page knows about each followed game, built only from the server's events.

export const SIDES = {
  chess: ['White', 'Black'], checkers: ['Black', 'White'], othello: ['Black', 'White'],
  tictactoe: ['X', 'O'], qubic: ['X', 'O'], isolation: ['X', 'O'],
};
export const sideNames = (kind) => SIDES[kind] || ['First', 'Second'];

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
      g = { id: msg.game_id, start: null, state: null, moves: [], end: null, drawOffer: null };
      this.games.set(msg.game_id, g);
    }
    switch (msg.type) {
      case 'game_start':
        g.start = msg;
        g.moves = [...(msg.moves || [])];
        g.positions = {};  // number of moves played -> position text, as the server sent it
        g.state = null;
        g.end = null;
        g.drawOffer = null;
        break;
      case 'state':
        // The first state after game_start describes the position after game_start.moves;
        // every later state adds exactly one move.
        if (msg.last_move && msg.version >= 2) g.moves.push(msg.last_move);
        g.state = msg;
        if (g.positions) g.positions[g.moves.length] = msg.position;
        g.receivedAt = performance.now();
        g.drawOffer = null;
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

  // The seat (0/1) of this connection's player in game g, or -1 for a spectator.
  seatOf(g) {
    const me = this.conn.player;
    if (!g || !g.start || !me) return -1;
    return g.start.players.findIndex((p) => p.id === me.id);
  }
}
