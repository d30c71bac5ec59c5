// Playing or watching one live game: the board from the server's state, clocks, the actions a
// player has (resign, draw, abort, claim), the move list, the result, and for spectators the
// bots' search info (depth, score, PV) from /api/games/ID, where the server records it.
// Two to six seats (GDL games); in a simultaneous turn every seat in state.movers moves, and
// the page shows who has moved ('moved' events) until the turn is played.
import { h, formatClock, playerLabel, describeTimeControl, describeResult, describeScores } from '../dom.js';
import { createBoard, boardKind } from '../boards/index.js';
import { sideNames, moversOf, legalMovesOf, NO_DRAWS, moveNumber } from '../games.js';
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
    // Numbered per full move in two-seat turn games ("1. e4 e5"); chess in SAN (the server's).
    const pairs = n === 2 && !start.simultaneous;
    const shown = g.sans && g.sans.length === g.moves.length ? g.sans : g.moves;
    moveList.replaceChildren(...shown.map((m, i) => h('li', { class: i === shown.length - 1 ? 'current' : '', title: m !== g.moves[i] ? g.moves[i] : undefined },
      h('span.n', {}, moveNumber(i, pairs)), h('span.mv', {}, m))));
    moveList.scrollTop = moveList.scrollHeight;
    tickClocks();
  }

  // 100/0 or 50/50: what the result already says.
  function hasPlainScores(scores) {
    return scores.length === 2 && ((scores[0] === 100 && scores[1] === 0) || (scores[0] === 0 && scores[1] === 100) || (scores[0] === 50 && scores[1] === 50));
  }

  // Resign asks first; "claim win" only once an opponent has been gone past the grace period
  // (the page watches /api/players: a seat whose player is not online is gone from when the
  // page first saw it so); after the game, a rematch (a challenge of the same game).
  let confirmingResign = false;
  let rematchSent = '';
  const goneSince = new Map();  // seat -> performance.now() when its player was first seen offline
  const grace = () => Number((conn.limits || {}).reconnect_grace_ms) || 30000;

  function renderActions(g, seat, over) {
    if (seat < 0) { actions.replaceChildren(); return; }
    const act = (type, label, cls = '') => h(`button${cls}`, { 'data-action': type, onclick: () => { error.textContent = ''; confirmingResign = false; conn.send({ type, game_id: id }); } }, label);
    const n = g.start.players.length;
    if (over) {
      const others = g.start.players.filter((_, s) => s !== seat);
      actions.replaceChildren(...[
        n === 2 && others.length === 1 ? h('button.primary', { 'data-action': 'rematch', onclick: () => rematch(g, others[0]) }, 'Rematch') : null,
        rematchSent ? h('p.notice', { 'data-testid': 'rematch-note' }, rematchSent) : null].filter(Boolean));
      return;
    }
    const offered = g.drawOffer !== null && g.drawOffer !== undefined;
    // No draw offers with more seats, nor in a game whose rules have no draw.
    const draws = n === 2 && !NO_DRAWS.has(boardKind(g.start.game, g.start.options));
    const now = performance.now();
    const gone = [...goneSince.entries()].filter(([s]) => s !== seat);
    const claimable = gone.some(([, t]) => now - t >= grace());
    const waitFor = gone.length && !claimable ? Math.ceil((grace() - Math.max(...gone.map(([, t]) => now - t))) / 1000) : 0;
    actions.replaceChildren(...[
      g.moves.length === 0 ? act('abort', 'Abort') : null,
      !draws ? null : offered && g.drawOffer !== seat ? act('accept_draw', 'Accept draw', '.primary') : act('offer_draw', offered ? 'Draw offered' : 'Offer draw'),
      confirmingResign
        ? h('div.confirm-box', { 'data-testid': 'resign-confirm' }, h('span', {}, 'Resign this game?'),
          act('resign', 'Yes, resign', '.danger'),
          h('button', { 'data-action': 'resign-cancel', onclick: () => { confirmingResign = false; render(); } }, 'No, play on'))
        : h('button.danger', { 'data-action': 'resign-ask', onclick: () => { confirmingResign = true; render(); } }, 'Resign'),
      claimable ? act('claim_win', 'Claim win (opponent gone)') : null,
      waitFor > 0 ? h('p.notice', { 'data-testid': 'opponent-gone' }, `${gone.map(([s]) => g.start.players[s].name).join(', ')} disconnected: you can claim the win in ${waitFor} s unless they come back.`) : null,
      offered && g.drawOffer !== seat ? h('p.notice', {}, 'Your opponent offers a draw.') : null].filter(Boolean));
  }

  function rematch(g, opponent) {
    const start = g.start;
    ctx.awaitingStart = true;  // the app opens the new game when it starts
    conn.send({ type: 'challenge', to: opponent.name, game: start.game, options: start.options || '', time_control: start.time_control || 'none' });
    rematchSent = `Rematch offered to ${opponent.name}; the game opens when they accept.`;
    render();
  }

  // Who of the other seats is online (while this page plays the game).
  let presenceBusy = false;
  async function checkPresence() {
    const g = game();
    const seat = store.seatOf(g);
    if (presenceBusy || !g || !g.start || g.end || seat < 0 || (g.state && g.state.result)) return;
    presenceBusy = true;
    try {
      const list = await api.players();
      const online = new Set((Array.isArray(list) ? list : list.players || []).map((p) => p.id));
      const before = goneSince.size;
      g.start.players.forEach((p, s) => {
        if (s === seat || online.has(p.id)) goneSince.delete(s);
        else if (!goneSince.has(s)) goneSince.set(s, performance.now());
      });
      // Only the actions change: redrawn while someone is gone (the countdown) or came back.
      if (goneSince.size || before) renderActions(g, seat, false);
    } catch { /* the next look will tell */ }
    presenceBusy = false;
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
      // In a game of two seats every score is shown from the first seat's side (as the
      // evaluation graph and Lichess show White's): the second seat's own score is negated.
      const twoSeats = g.start.players.length === 2;
      const shownScore = (m, s) => (twoSeats && s === 1 ? -m.info.score : m.info.score);
      const rows = lastBySide.map((m, s) => m && h('div.info-row', {},
        h('strong', {}, `${g.start.players[s].name}: `),
        `depth ${m.info.depth}`, m.info.score !== undefined ? ` · score ${shownScore(m, s) > 0 ? '+' : ''}${shownScore(m, s)}` : '',
        ` · ${m.info.nodes} nodes`, m.info.pv ? h('div.pv', {}, `PV ${m.info.pv}`) : null)).filter(Boolean);
      info.hidden = rows.length === 0;
      info.replaceChildren(h('h3', {}, 'Search'),
        twoSeats ? h('p.info-view', { 'data-testid': 'search-view' }, `Scores from ${g.start.players[0].name}'s side (${sideNames(boardKind(g.start.game, g.start.options), g.start)[0]})`) : null,
        ...rows);
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
  const presenceTimer = setInterval(checkPresence, 1000);
  return {
    el,
    dispose() {
      clearInterval(timer);
      clearInterval(presenceTimer);
      evalGraph.dispose();
      store.removeEventListener('change', onChange);
      conn.removeEventListener('error', onError);
      conn.removeEventListener('connected', onConnected);
      if (board && board.dispose) board.dispose();
      conn.unwatch(id);
    },
  };
}
