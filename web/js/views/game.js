// Playing or watching one live game: the board from the server's state, clocks, the actions a
// player has (resign, draw, abort, claim), the move list, the result, and for spectators the
// bots' search info (depth, score, PV) from /api/games/ID, where the server records it.
// Two to six seats (GDL games); in a simultaneous turn every seat in state.movers moves, and
// the page shows who has moved ('moved' events) until the turn is played.
import { h, formatClock, playerLabel, describeTimeControl, describeResult, describeScores } from '../dom.js';
import { createBoard, boardKind } from '../boards/index.js';
import { sideNames, moversOf, legalMovesOf } from '../games.js';
import { api } from '../api.js';
import { liveEvalGraph } from '../evalgraph.js';
import { drawNotice } from './draw_notice.js';

export function gameView(ctx, id) {
  const { conn, store } = ctx;
  const el = h('div.game-view', { 'data-game-id': id });
  const title = h('h2.game-title', {}, `Game ${id}`);
  const boardBox = h('div.board-box', { 'data-testid': 'board' });
  const extraMoves = h('div.extra-moves');
  const status = h('p.status', { 'data-testid': 'status', 'aria-live': 'polite' }, 'Loading…');
  const result = h('div.result', { 'data-testid': 'result', hidden: true });
  const error = h('p.error', { 'data-testid': 'error', 'aria-live': 'assertive' });
  // The other seats above the board, yours (or the first, for a spectator) below it.
  const othersBox = h('div.seats-top');
  const ownBox = h('div.seats-bottom');
  const actions = h('div.actions');
  const moveList = h('ol.moves', { 'data-testid': 'moves' });
  const info = h('div.search-info', { 'data-testid': 'search-info', hidden: true });
  const evalGraph = liveEvalGraph(ctx, id);  // evalgraph.js: the graph under the board, the bar beside it
  el.append(
    h('div.game-layout', {},
      h('div.game-board-col', {}, title, othersBox, h('div.board-with-bar', {}, boardBox, evalGraph.bar), ownBox, extraMoves, status, result, error, evalGraph.el),
      h('aside.game-side', {}, actions, drawNotice(ctx, id), info, h('h3', {}, 'Moves'), moveList)));

  let board = null;
  let boardFor = '';
  let clocks = [];

  function game() { return store.get(id); }

  function render() {
    const g = game();
    if (!g || !g.start) return;
    const start = g.start, st = g.state;
    const kind = boardKind(start.game, start.options);
    const seat = store.seatOf(g);
    const sides = sideNames(kind, start);
    const n = start.players.length;
    if (!board || boardFor !== kind) {
      if (board && board.dispose) board.dispose();
      board = createBoard(start.game, start.options, start.board || null);
      boardFor = kind;
      boardBox.replaceChildren(board.el, ...(board.controls ? [board.controls] : []));
      title.textContent = `${start.game}${start.options ? ` (${start.options})` : ''} · ${describeTimeControl(start.time_control)}`;
    }
    const over = !!(g.end || (st && st.result));
    const movers = over ? [] : moversOf(st);
    const waiting = movers.filter((s) => !g.moved.includes(s));
    // Your own seat at the bottom.
    const bottom = seat >= 0 ? seat : 0;
    clocks = [];
    const seatRow = (s) => {
      clocks[s] = h('span.clock', { 'data-testid': `clock-${s}` });
      const moved = movers.includes(s) && g.moved.includes(s);
      const box = h('div.seat', { 'data-seat': s }, h('span.side', {}, sides[s]), playerLabel(start.players[s]),
        s === seat ? h('span.muted', {}, ' (you)') : null, moved ? h('span.muted.moved', {}, ' moved') : null, clocks[s]);
      box.classList.toggle('to-move', waiting.includes(s));
      return box;
    };
    const others = [];
    for (let k = 0; k < n; k++) if (k !== bottom) others.push(k);
    othersBox.replaceChildren(...others.map(seatRow));
    ownBox.replaceChildren(seatRow(bottom));
    // Not again once this tab sent its move for the state (until an error says it was refused).
    const myTurn = !!st && !over && waiting.includes(seat) && g.sentFor !== st.version;
    const legal = myTurn ? legalMovesOf(st, seat) : [];
    if (st) {
      board.update({ position: st.position, legal, lastMove: st.last_move, interactive: myTurn, seat,
        onMove: (m) => { error.textContent = ''; g.sentFor = st.version; conn.move(id, m); render(); } });
    }
    // Moves the board cannot show (an Othello pass).
    extraMoves.replaceChildren(...(board.controls ? [] : legal.filter((m) => m === 'pass')).map((m) =>
      h('button.primary', { onclick: () => conn.move(id, m), dataset: { move: m } }, 'Pass')));
    if (over) {
      const r = g.end || { result: st.result, reason: '' };
      const scores = r.scores || null;
      const best = scores ? Math.max(...scores) : -1;
      const mine = seat >= 0 && (scores && n > 2 ? scores[seat] === best && scores.some((x) => x < best)
        : (r.result === '1-0' && seat === 0) || (r.result === '0-1' && seat === 1));
      const lost = seat >= 0 && (scores && n > 2 ? scores[seat] < best
        : (r.result === '1-0' && seat === 1) || (r.result === '0-1' && seat === 0));
      result.hidden = false;
      result.className = `result ${mine ? 'won' : lost ? 'lost' : 'neutral'}`;
      // replaceChildren writes a null as the text "null": the optional scores are filtered out.
      result.replaceChildren(...[h('strong', {}, describeResult(r.result, r.reason, start.players, seat)),
        scores && (n > 2 || !hasPlainScores(scores)) ? h('div.scores', { 'data-testid': 'scores' }, describeScores(scores, start.players, sides)) : null,
        // Why the rules ended the game here when the reason does not say (a GDL sheet's bug).
        r.note ? h('div.note', { 'data-testid': 'end-note' }, r.note) : null,
        h('div.result-links', {}, h('a', { href: `#/replay/${id}` }, 'Replay this game'), ' · ', h('a', { href: '#/' }, 'Back to the lobby'))].filter(Boolean));
      status.textContent = 'Game over';
    } else if (!st) {
      status.textContent = 'Waiting for the first position…';
    } else if (seat < 0) {
      status.textContent = `Watching · ${waiting.map((s) => sides[s]).join(', ')} to move`;
    } else if (myTurn) {
      status.textContent = `Your move (${sides[seat]})`;
    } else {
      const names = waiting.filter((s) => s !== seat).map((s) => start.players[s].name).join(', ');
      status.textContent = movers.includes(seat) ? `Move sent${names ? `; waiting for ${names}` : ''}…` : `Waiting for ${names}…`;
    }
    status.classList.toggle('your-turn', myTurn);
    renderActions(g, seat, over);
    moveList.replaceChildren(...g.moves.map((m, i) => h('li', { class: i === g.moves.length - 1 ? 'current' : '' }, h('span.n', {}, `${i + 1}.`), h('span.mv', {}, m))));
    moveList.scrollTop = moveList.scrollHeight;
    tickClocks();
  }

  // 100/0 or 50/50: what the result already says.
  function hasPlainScores(scores) {
    return scores.length === 2 && ((scores[0] === 100 && scores[1] === 0) || (scores[0] === 0 && scores[1] === 100) || (scores[0] === 50 && scores[1] === 50));
  }

  function renderActions(g, seat, over) {
    if (seat < 0 || over) { actions.replaceChildren(); return; }
    const act = (type, label, cls = '') => h(`button${cls}`, { 'data-action': type, onclick: () => { error.textContent = ''; conn.send({ type, game_id: id }); } }, label);
    const offered = g.drawOffer !== null && g.drawOffer !== undefined;
    const draws = g.start.players.length === 2;  // no draw offers with more seats
    actions.replaceChildren(...[
      g.moves.length === 0 ? act('abort', 'Abort') : null,
      !draws ? null : offered && g.drawOffer !== seat ? act('accept_draw', 'Accept draw', '.primary') : act('offer_draw', offered ? 'Draw offered' : 'Offer draw'),
      act('resign', 'Resign', '.danger'),
      act('claim_win', 'Claim win (opponent gone)'),
      offered && g.drawOffer !== seat ? h('p.notice', {}, 'Your opponent offers a draw.') : null].filter(Boolean));
  }

  function tickClocks() {
    const g = game();
    if (!g || !g.state) return;
    const st = g.state;
    const c = st.clocks;
    const running_seats = g.end ? [] : moversOf(st).filter((s) => !g.moved.includes(s));
    for (let s = 0; s < clocks.length; s++) {
      if (!clocks[s]) continue;
      if (!c) { clocks[s].textContent = ''; continue; }
      let ms = c[s];
      const running = running_seats.includes(s);
      if (running) ms -= performance.now() - g.receivedAt;
      clocks[s].textContent = formatClock(ms);
      clocks[s].classList.toggle('running', running);
      clocks[s].classList.toggle('low', running && ms < 10000);
    }
  }

  // Spectators see the search info the bots sent with their moves (recorded by the server).
  let infoBusy = false;
  async function loadInfo() {
    const g = game();
    if (infoBusy || !g || !g.start || store.seatOf(g) >= 0) return;
    infoBusy = true;
    try {
      const d = await api.game(id);
      const lastBySide = g.start.players.map(() => null);
      for (const m of d.moves || []) if (m.info) lastBySide[m.seat !== undefined ? m.seat : m.ply % 2] = m;
      const rows = lastBySide.map((m, s) => m && h('div.info-row', {},
        h('strong', {}, `${g.start.players[s].name}: `),
        `depth ${m.info.depth}`, m.info.score !== undefined ? ` · score ${m.info.score > 0 ? '+' : ''}${m.info.score}` : '',
        ` · ${m.info.nodes} nodes`, m.info.pv ? h('div.pv', {}, `PV ${m.info.pv}`) : null)).filter(Boolean);
      info.hidden = rows.length === 0;
      info.replaceChildren(h('h3', {}, 'Search'), ...rows);
    } catch { /* the game may not be in the store yet */ }
    infoBusy = false;
  }

  const onChange = (e) => { if (e.detail.id === id) { render(); loadInfo(); } };
  const onError = (e) => {
    if (e.detail.ref === 'move' && game()) { game().sentFor = null; render(); }
    if (e.detail.ref !== 'watch' || e.detail.code !== 'no_such_game') error.textContent = e.detail.message; else gone();
  };
  const onConnected = () => { if (!game() || !game().start) conn.watch(id); };
  function gone() {
    status.textContent = 'This game is not live.';
    result.hidden = false;
    result.className = 'result neutral';
    result.replaceChildren(h('a', { href: `#/replay/${id}` }, 'Open it in the replay'));
  }
  store.addEventListener('change', onChange);
  conn.addEventListener('error', onError);
  conn.addEventListener('connected', onConnected);
  if (game() && game().start) render();
  if (conn.connected) conn.watch(id);
  const timer = setInterval(tickClocks, 100);
  return {
    el,
    dispose() {
      clearInterval(timer);
      evalGraph.dispose();
      store.removeEventListener('change', onChange);
      conn.removeEventListener('error', onError);
      conn.removeEventListener('connected', onConnected);
      if (board && board.dispose) board.dispose();
      conn.unwatch(id);
    },
  };
}
