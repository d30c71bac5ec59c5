// The answer to a draw offer, in words: "house_chess_easy declined the draw." when the server
// relays a decline (draw_declined), "ann accepted the draw." when a game ends by agreement.
// The game view puts the element this returns beside its actions; it follows the connection's
// events for game `id` and stops once the element has left the page.
import { h } from '../dom.js';

export function drawNotice(ctx, id) {
  const { conn, store } = ctx;
  const el = h('p.notice.draw-answer', { 'data-testid': 'draw-answer', 'aria-live': 'polite', hidden: true });
  let offeredBy = null;  // the seat of the latest offer
  let shown = false;     // the element has been on the page (so its leaving means the view went)
  const made = performance.now();

  const nameOf = (seat) => {
    const g = store.get(id);
    const p = g && g.start && g.start.players[seat];
    return p ? p.name : `seat ${seat + 1}`;
  };
  const say = (text) => { el.textContent = text; el.hidden = false; };
  const gone = () => {
    if (el.isConnected) { shown = true; return false; }
    if (!shown && performance.now() - made < 2000) return false;  // not mounted yet
    for (const [type, fn] of handlers) conn.removeEventListener(type, fn);
    return true;
  };
  // draw_offer and game_end come as the connection's game events (connection.js), a decline
  // under its own type.
  const handlers = [
    ['game_event', (e) => {
      const m = e.detail;
      if (gone() || m.game_id !== id) return;
      if (m.type === 'draw_offer') {
        offeredBy = m.by;
        el.hidden = true;  // a new offer: the last answer no longer applies
      } else if (m.type === 'game_end') {
        if (m.reason === 'agreement' && offeredBy !== null) say(`${nameOf(1 - offeredBy)} accepted the draw.`);
        else el.hidden = true;
      }
    }],
    ['draw_declined', (e) => {
      if (gone() || e.detail.game_id !== id) return;
      offeredBy = null;
      say(`${nameOf(e.detail.by)} declined the draw.`);
    }],
  ];
  for (const [type, fn] of handlers) conn.addEventListener(type, fn);
  return el;
}
