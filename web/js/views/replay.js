// Replaying a finished game from /api/games/ID: the move list with step, jump and play, the
// search info recorded with each move, and the export download (PGN/PDN/text).
// The API records the start and the final position only (no position per ply, and the page
// has no rules code), so the board shows the start before the first move, the final position
// after the last, and in between the position of a ply when it is known: sent by the server
// while this tab followed the game live, or moves[i].position should the API add it; else the
// final position, dimmed, with a note.
import { h, playerLabel, describeResult, describeTimeControl, describeScores } from '../dom.js';
import { api } from '../api.js';
import { createBoard, boardKind } from '../boards/index.js';
import { sideNames, moveNumber } from '../games.js';
import { createEvalGraph } from '../evalgraph.js';

// `given`: a game's detail in the API's shape from elsewhere (a GGP match record, below)
// instead of /api/games/ID; it has no export.
export function replayView(ctx, id, given = null) {
  const el = h('div.replay-view', { 'data-game-id': id }, h('p', {}, 'Loading…'));
  let timer = null;
  let board = null;
  let onKey = null;
  load();

  async function load() {
    let d = given;
    if (!d) try { d = await api.game(id); } catch (err) {
      el.replaceChildren(h('p.error', {}, `Game ${id}: ${err.message}`), h('a', { href: '#/' }, 'Back to the lobby'));
      return;
    }
    const kind = boardKind(d.game, d.options);
    const sides = sideNames(kind, { players: d.players });
    const moves = d.moves || [];
    let ply = moves.length;  // the number of moves played on the board shown
    // A GDL game's grid, as the server finds it (null: the facts are listed).
    board = createBoard(d.game, d.options, d.board || null);
    const note = h('p.note', { 'data-testid': 'replay-note' });
    const counter = h('span.ply-counter', { 'data-testid': 'ply' });
    const list = h('ol.moves.replay-moves', { 'data-testid': 'moves' });
    const info = h('div.search-info', { 'data-testid': 'search-info' });
    const slider = h('input', { type: 'range', min: 0, max: moves.length, value: ply, 'aria-label': 'ply', oninput: () => go(Number(slider.value)) });
    const playBtn = h('button', { 'data-testid': 'replay-play', onclick: togglePlay }, 'Play');
    const btn = (label, testid, f) => h('button', { 'data-testid': testid, onclick: f, title: testid.replace('replay-', ''), 'aria-label': testid.replace('replay-', '') }, label);
    const download = h('button', { 'data-testid': 'download', onclick: () => downloadExport(d) }, 'Download');
    const evalGraph = createEvalGraph({ onPick: (n) => go(n) });  // evalgraph.js: graph and bar
    el.replaceChildren(
        h('div.game-layout', {},
          h('div.game-board-col', {},
            h('h2.game-title', {},
              `${d.game}${d.options ? ` (${d.options})` : ''} · ${
                  describeTimeControl(d.time_control)}`),
            h('p.players-line', {},
              d.players.filter((p) => p !== undefined && p !== '')
                  .map((p, i) => [i ? ' · ' : '', `${sides[i]}: `, playerLabel(p)])),
            h('div.board-with-bar', {}, h('div.board-box', {'data-testid': 'board'}, board.el), evalGraph.bar),
            h('div.replay-controls', {}, btn('«', 'replay-first', () => go(0)),
              btn('‹', 'replay-prev', () => go(ply - 1)), playBtn,
              btn('›', 'replay-next', () => go(ply + 1)),
              btn('»', 'replay-last', () => go(moves.length)), counter),
            slider, note, evalGraph.el,
            h('div.result.neutral', {'data-testid': 'result'},
              d.result ? describeResult(d.result, d.reason, d.players) : 'Unfinished',
              d.scores && d.players.length > 2 ?
                  h('div.scores', {}, describeScores(d.scores, d.players, sides)) :
                  null,
              d.note ? h('div.note', {'data-testid': 'end-note'}, d.note) : null)),
          h('aside.game-side', {},
            given ? null : h('div.actions', {}, download,
              h('a.button', {href: `/api/games/${id}/export`, target: '_blank', rel: 'noopener'},
                'Open as text')),
            info, h('h3', {}, 'Moves'), list)));
    // Numbered per full move with two seats ("1. e4 e5"); chess in SAN when known: from the
    // API (moves[i].san) or as the server sent it while this tab followed the game live.
    const pairs = (d.players || []).length === 2;
    const seenSans = (ctx.store.get(id) || {}).sans;
    const sanOf = (m, i) => m.san || (seenSans && seenSans.length === moves.length ? seenSans[i] : m.move);
    list.replaceChildren(...moves.map((m, i) => h('li', { onclick: () => go(i + 1), dataset: { ply: i + 1 }, title: sanOf(m, i) !== m.move ? m.move : undefined },
      h('span.n', {}, moveNumber(i, pairs)), h('span.mv', {}, sanOf(m, i)))));
    // The arrow keys step, Home and End jump (not while typing in a field or on the slider,
    // which steps by itself).
    onKey = (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || !el.isConnected) return;
      if (e.target && e.target.closest && e.target.closest('input, select, textarea')) return;
      const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: moves.length }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      go(to);
    };
    document.addEventListener('keydown', onKey);

    // Positions this tab saw while the game was played or watched live, from the server.
    const seen = (ctx.store.get(id) || {}).positions || {};
    function positionAt(n) {
      if (seen[n]) return { position: seen[n], exact: true };
      if (n === 0) return { position: d.start_position, exact: true };
      if (moves[n - 1] && moves[n - 1].position) return { position: moves[n - 1].position, exact: true };
      if (n === moves.length) return { position: d.final_position || d.start_position, exact: !!d.final_position };
      return { position: d.final_position || d.start_position, exact: false };
    }

    function go(n) {
      ply = Math.max(0, Math.min(moves.length, n));
      const { position, exact } = positionAt(ply);
      const lastMove = ply > 0 ? moves[ply - 1].move : '';
      board.update({ position, legal: [], lastMove: exact ? lastMove : '', interactive: false, seat: 0, onMove: () => {} });
      board.el.classList.toggle('inexact', !exact);
      note.textContent = exact ? '' : `The server records only the start and final positions: the board shows the final position; ply ${ply} is ${lastMove} (highlighted in the list).`;
      counter.textContent = `ply ${ply} / ${moves.length}`;
      slider.value = ply;
      for (const li of list.children) li.classList.toggle('current', Number(li.dataset.ply) === ply);
      const cur = list.children[ply - 1];
      if (cur) cur.scrollIntoView({ block: 'nearest' });
      const m = moves[ply - 1];
      info.hidden = !(m && m.info);
      info.replaceChildren(...(m && m.info ? [h('h3', {}, 'Search'), h('div.info-row', {}, `depth ${m.info.depth}`,
        m.info.score !== undefined ? ` · score ${m.info.score}` : '', ` · ${m.info.nodes} nodes`, m.info.pv ? h('div.pv', {}, `PV ${m.info.pv}`) : null)] : []));
      evalGraph.setPly(ply);
      if (ply >= moves.length) stop();
    }

    function stop() { clearInterval(timer); timer = null; playBtn.textContent = 'Play'; }
    function togglePlay() {
      if (timer) return stop();
      if (ply >= moves.length) go(0);
      playBtn.textContent = 'Pause';
      timer = setInterval(() => go(ply + 1), 800);
    }
    go(ply);
    evalGraph.update(d);
  }

  async function downloadExport(d) {
    const res = await fetch(`/api/games/${id}/export`);
    const text = await res.text();
    const pgnLike = /^\s*\[Event /.test(text);
    const ext = pgnLike ? (d.game === 'checkers' ? 'pdn' : 'pgn') : 'txt';
    const a = h('a', { href: URL.createObjectURL(new Blob([text], { type: 'text/plain' })), download: `arena-${id}-${d.game}.${ext}` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  return {
    el,
    dispose() {
      clearInterval(timer);
      if (onKey) document.removeEventListener('keydown', onKey);
      if (board && board.dispose) board.dispose();
    },
  };
}

// A GGP match record (ggp-base's match JSON, as `arena ggp-match --record` writes it) in the
// API's shape: every state is known, so the replay shows each one; the players are the URLs
// the manager played; the result is the goals (two roles: the higher wins).
export function matchRecordDetail(record) {
  const need = (key, ok) => {
    if (!ok(record[key])) throw new Error(`not a GGP match record: '${key}' is missing or malformed`);
    return record[key];
  };
  const roles = need('gameRoleNames', (v) => Array.isArray(v) && v.length > 0);
  const moves = need('moves', (v) => Array.isArray(v) && v.every(Array.isArray));
  const states = need('states', (v) => Array.isArray(v) && v.length === moves.length + 1);
  const inner = (s) => String(s).trim().replace(/^\(\s*/, '').replace(/\s*\)$/, '');
  const goals = Array.isArray(record.goalValues) ? record.goalValues : [];
  let result = '';
  if (record.isCompleted && goals.length === roles.length) {
    result = goals.length === 2 ? (goals[0] > goals[1] ? '1-0' : goals[0] < goals[1] ? '0-1' : '1/2-1/2') : goals.join('-');
  }
  const players = roles.map((r, i) => `${r}: ${(record.playerNamesFromHost || [])[i] || 'player'}`);
  return {
    id: 0,
    game: `gdl:${record.matchId || 'match'}`,
    options: '',
    time_control: record.playClock ? `movetime:${record.playClock * 1000}` : 'none',
    players,
    seats: roles,
    result,
    reason: record.isAborted ? 'aborted' : 'terminal',
    scores: goals.length === roles.length ? goals : null,
    start_position: inner(states[0]),
    final_position: inner(states[states.length - 1]),
    moves: moves.map((joint, i) => ({ ply: i, move: joint.join(' '), position: inner(states[i + 1]) })),
  };
}

// #/replay/record: open a match record file and replay it.
export function matchRecordView(ctx) {
  const status = h('p.form-status', { 'data-testid': 'record-status', 'aria-live': 'polite' });
  const input = h('input', { type: 'file', accept: '.json,application/json', 'data-testid': 'record-file' });
  const holder = h('div');
  const el = h('div', {}, h('section.card', {}, h('h2', {}, 'Replay a GGP match record'),
    h('p', {}, 'A match as ggp-base\'s game managers write it (arena ggp-match --record FILE).'), input, status), holder);
  let shown = null;
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const d = matchRecordDetail(JSON.parse(await file.text()));
      if (shown) shown.dispose();
      shown = replayView(ctx, 0, d);
      holder.replaceChildren(shown.el);
      status.textContent = `${file.name}: ${d.moves.length} steps`;
    } catch (err) {
      status.textContent = `${file.name}: ${err.message}`;
    }
  });
  return { el, dispose() { if (shown) shown.dispose(); } };
}
