// The evaluation graph under the board and the evaluation bar beside it, from the search info
// bots send with their moves (/api/games/ID: moves[].info.score, from the mover's side). Every
// score is turned to the first seat's point of view (as Lichess shows White's): a second-seat
// mover's score is negated. Win and loss scores (a forced result the search found: bots/search/
// score.h, |score| >= 1,000,000 - 256) and large heuristic values are clipped to +/- the scale,
// which follows the game's own heuristic scores (at most 1000: ten pawns in chess).
// Games of two seats only; with no score at all the graph says so.
import { h } from './dom.js';
import { api } from './api.js';
import { chartBox, drawChart } from './charts.js';

const WIN_SCORE = 1000000 - 256;

function isWin(score) { return Math.abs(score) >= WIN_SCORE; }

// [{ply, eval, win}] in the first seat's view, one per move with a score (ply: moves played).
export function evalPoints(moves) {
  const out = [];
  (moves || []).forEach((m, i) => {
    if (!m.info || typeof m.info.score !== 'number') return;
    const seat = m.seat !== undefined && m.seat !== null ? m.seat : i % 2;
    if (seat > 1) return;
    const s = seat === 0 ? m.info.score : -m.info.score;
    out.push({ ply: i + 1, score: s, win: isWin(s) });
  });
  return out;
}

// The clip scale: the largest heuristic value seen, from 100 to 1000.
export function evalScale(points) {
  const plain = points.filter((p) => !p.win).map((p) => Math.abs(p.score));
  return Math.min(1000, Math.max(100, ...plain));
}

function clip(p, scale) { return p.win ? Math.sign(p.score) * scale : Math.max(-scale, Math.min(scale, p.score)); }

function describe(p, firstName) {
  if (!p) return 'no evaluation';
  if (p.win) return p.score > 0 ? `${firstName} wins (forced)` : `${firstName} loses (forced)`;
  return `${p.score > 0 ? '+' : ''}${p.score} for ${firstName}`;
}

// { el (the graph), bar (the evaluation bar), update(detail), setPly(n) }. `onPick(ply)`: a
// point clicked (the replay jumps there); without it the graph only shows.
export function createEvalGraph({ onPick = null } = {}) {
  const box = chartBox('Evaluation (first seat\'s view)', 'eval-graph',
    'From the scores bots sent with their moves; above the line the first seat stands better. Forced wins and losses are clipped to the edge.');
  const fill = h('div.eval-fill');
  const label = h('span.eval-label');
  const bar = h('div.eval-bar', { 'data-testid': 'eval-bar', title: 'evaluation', hidden: true }, fill, label);
  box.el.hidden = true;
  let points = [], scale = 100, firstName = 'first seat', chart = null, ply = null, key = '';

  function showBar() {
    const shown = points.filter((p) => ply === null || p.ply <= ply).at(-1);
    bar.hidden = !points.length;
    const v = shown ? clip(shown, scale) / scale : 0;
    // The first seat's share from the bottom, as a board seen from the first seat.
    fill.style.height = `${50 + 50 * v}%`;
    label.textContent = shown ? (shown.win ? (shown.score > 0 ? '1-0' : '0-1') : `${shown.score > 0 ? '+' : ''}${shown.score}`) : '';
    bar.title = `Evaluation: ${describe(shown, firstName)}`;
    bar.dataset.eval = shown ? String(clip(shown, scale)) : '';
  }

  async function update(detail) {
    const players = detail.players || [];
    if (players.length > 2) { box.el.hidden = true; bar.hidden = true; return; }
    firstName = typeof players[0] === 'string' ? players[0] : (players[0] && players[0].name) || 'first seat';
    points = evalPoints(detail.moves);
    scale = evalScale(points);
    const total = (detail.moves || []).length;
    const newKey = `${total}:${points.length}:${scale}`;
    showBar();
    if (newKey === key) return;
    key = newKey;
    box.el.hidden = false;
    const xs = points.map((p) => p.ply), ys = points.map((p) => clip(p, scale));
    chart = await drawChart(box, {
      scales: { x: { time: false, range: [0, Math.max(1, total)] }, y: { range: [-scale, scale] } },
      axes: [{ label: 'Ply', values: (u, splits) => splits.map((v) => (Number.isInteger(v) ? v : '')) },
        { label: 'Score (first seat)', size: 60 }],
      series: [{ label: 'Ply' },
        { label: `Score for ${firstName}`, stroke: '#2563eb', fill: 'rgba(37, 99, 235, 0.15)', width: 2, points: { show: true, size: 6 }, spanGaps: true }],
      cursor: { drag: { x: false, y: false } },
      hooks: { setCursor: [(u) => { if (u.cursor.idx !== null && u.cursor.idx !== undefined) u.over.title = `ply ${xs[u.cursor.idx]}: ${describe(points[u.cursor.idx], firstName)}`; }] },
    }, [xs, ys], 'No bot sent a score with its moves in this game.');
    if (chart && onPick) {
      chart.over.style.cursor = 'pointer';
      chart.over.addEventListener('click', () => {
        const i = chart.cursor.idx;
        if (i !== null && i !== undefined && xs[i] !== undefined) onPick(xs[i]);
      });
    }
    markPly();
  }

  function markPly() {
    if (!chart || ply === null) return;
    const i = points.findIndex((p) => p.ply === ply);
    chart.setSelect({ left: chart.valToPos(Math.max(0, ply - 0.5), 'x'), width: Math.max(2, chart.valToPos(ply + 0.5, 'x') - chart.valToPos(Math.max(0, ply - 0.5), 'x')), top: 0, height: chart.over.clientHeight }, false);
    box.el.dataset.ply = String(ply);
    box.el.dataset.pointIndex = String(i);
  }

  function setPly(n) {
    ply = n;
    showBar();
    markPly();
  }

  return { el: box.el, bar, update, setPly, points: () => points };
}

// The live game: the graph follows the stored moves of game `id` (as spectators see the
// search info; a player sees it once the game is over), refetched when the game changes.
export function liveEvalGraph(ctx, id) {
  const graph = createEvalGraph();
  let busy = false, again = false;
  async function refresh() {
    const g = ctx.store.get(id);
    if (!g || !g.start) return;
    const over = !!(g.end || (g.state && g.state.result));
    if (ctx.store.seatOf(g) >= 0 && !over) return;
    if (busy) { again = true; return; }
    busy = true;
    try { await graph.update(await api.game(id)); } catch { /* not stored yet */ }
    busy = false;
    if (again) { again = false; refresh(); }
  }
  const onChange = (e) => { if (e.detail.id === id) refresh(); };
  ctx.store.addEventListener('change', onChange);
  refresh();
  return { el: graph.el, bar: graph.bar, dispose() { ctx.store.removeEventListener('change', onChange); } };
}
