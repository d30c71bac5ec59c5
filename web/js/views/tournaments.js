// Tournaments, shown only when the server answers /api/tournaments: for each, its progress, the
// standings with named columns (in the order a reader wants them), each player's Bradley-Terry
// Elo with its 95% interval as an error-bar chart, the crosstable as a heat map (rows and columns
// in the standings' order, so the diagonal is one), every game linked to its replay
// (/api/tournaments/ID/games), and the SPRT's state when the tournament runs one.
import { h } from '../dom.js';
import { getJson } from '../api.js';
import { chartBox, drawChart, playerLink } from '../charts.js';

// The standings' columns: the API's key, its header and what it says (units in the header).
const COLUMNS = [
  ['rank', '#', 'place in the standings'],
  ['player', 'Player', ''],
  ['games', 'Games', 'games played'],
  ['won', 'Won', ''],
  ['drawn', 'Drawn', ''],
  ['lost', 'Lost', ''],
  ['points', 'Points', 'a win 1, a draw ½'],
  ['score', 'Score (%)', 'points per game, in percent'],
  ['bt_elo', 'Elo', 'Bradley-Terry rating over this tournament\'s games'],
  ['bt_95', '± Elo (95%)', 'half width of the 95% interval of the rating'],
  ['avg_depth', 'Depth (plies)', 'mean search depth per move'],
  ['avg_nodes', 'Nodes / move', 'mean nodes searched per move'],
  ['avg_ms', 'Time / move (ms)', 'mean thinking time per move, milliseconds'],
];

// A key the page does not know yet: words, not the key.
function header(key) {
  const known = COLUMNS.find(([k]) => k === key);
  if (known) return known;
  const words = key.replace(/_/g, ' ');
  return [key, words.charAt(0).toUpperCase() + words.slice(1), ''];
}

function formatCell(key, v) {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${header(k)[1]} ${x}`).join(', ');
  if (key === 'avg_nodes' && typeof v === 'number') return v.toLocaleString('en');
  return String(v);
}

function standingsTable(rows, ids) {
  if (!Array.isArray(rows) || !rows.length) return h('p.muted', {}, 'No standings yet.');
  const keys = new Set(rows.flatMap((r) => Object.keys(r)));
  const cols = [...COLUMNS.filter(([k]) => keys.has(k)), ...[...keys].filter((k) => !COLUMNS.some(([c]) => c === k)).map(header)];
  return h('div.table-wrap', {}, h('table.standings', { 'data-testid': 'standings' },
    h('thead', {}, h('tr', {}, cols.map(([, label, title]) => h('th', { title: title || undefined }, label)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, cols.map(([k]) => (k === 'player'
      ? h('td', {}, playerLink(r.player, ids.get(r.player)))
      : h(`td${typeof r[k] === 'number' ? '.num' : ''}`, {}, formatCell(k, r[k])))))))));
}

// "1.5/2" -> share 0.75; "" -> null.
function share(cell) {
  const m = /^([\d.]+)\/(\d+)$/.exec(cell || '');
  return m && Number(m[2]) ? Number(m[1]) / Number(m[2]) : null;
}

function heatColour(s) {
  // 0 red, 0.5 white, 1 green.
  const t = Math.abs(s - 0.5) * 2;
  const [r, g, b] = s >= 0.5 ? [22, 163, 74] : [220, 38, 38];
  const mix = (c) => Math.round(255 + (c - 255) * t * 0.75);
  return `rgb(${mix(r)}, ${mix(g)}, ${mix(b)})`;
}

function crosstableHeatmap(rows, order, ids) {
  if (!Array.isArray(rows) || !rows.length) return h('p.muted', {}, 'No games yet.');
  const byName = new Map(rows.map((r) => [r.player, r]));
  const names = [...order.filter((n) => byName.has(n)), ...rows.map((r) => r.player).filter((n) => !order.includes(n))];
  return h('div.table-wrap', {}, h('table.heatmap', { 'data-testid': 'crosstable' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Player \\ against'), names.map((n, i) => h('th', { title: n }, `${i + 1}. ${n}`)))),
    h('tbody', {}, names.map((row, i) => h('tr', {}, h('th', {}, `${i + 1}. `, playerLink(row, ids.get(row))),
      names.map((col) => {
        if (row === col) return h('td.diagonal', { title: `${row} does not play itself` }, '—');
        const cell = (byName.get(row) || {})[col] || '';
        const s = share(cell);
        return h('td', { title: cell ? `${row} against ${col}: ${cell} points / games` : `${row} has not met ${col}`,
          style: s === null ? '' : `background: ${heatColour(s)}` }, cell ? cell.replace('/', ' / ') : '');
      }))))),
  h('p.muted.chart-caption', {}, 'Points / games of the row\'s player against the column\'s: green where it scored more than half, red where less.'));
}

function sprtBox(t) {
  const s = t.sprt;
  if (!s) return null;
  const verdict = { continue: 'no decision yet: the test goes on', accept_h1: 'H1 accepted: the challenger is stronger', accept_h0: 'H0 accepted: the challenger is not stronger' }[s.verdict] || String(s.verdict).replace(/_/g, ' ');
  return h(`div.sprt${s.verdict === 'accept_h1' ? '.accepted-h1' : s.verdict === 'accept_h0' ? '.accepted-h0' : ''}`, { 'data-testid': 'sprt' },
    h('strong', {}, 'SPRT: '), `${s.challenger || 'challenger'} against ${s.baseline || 'baseline'}`,
    s.elo0 !== undefined ? ` (H0: Elo ${s.elo0}, H1: Elo ${s.elo1})` : '',
    h('div', {}, `Log-likelihood ratio ${Number(s.llr).toFixed(3)} within [${Number(s.lower).toFixed(3)}, ${Number(s.upper).toFixed(3)}]: ${verdict}.`));
}

function gamesList(games, live) {
  if (!games.length) return h('p.muted', {}, 'No pairings yet.');
  const RESULT = { '1-0': 'first wins', '0-1': 'second wins', '1/2-1/2': 'draw', '*': 'aborted' };
  return h('div.table-wrap', {}, h('table', { 'data-testid': 'tournament-games' },
    h('thead', {}, h('tr', {}, ['Round', 'First', 'Second', 'Result', 'Game'].map((x) => h('th', {}, x)))),
    h('tbody', {}, games.map((g) => h('tr', {},
      h('td.num', {}, g.round + 1), h('td', {}, playerLink(g.players[0], g.player_ids[0])),
      h('td', {}, g.players[1] ? playerLink(g.players[1], g.player_ids[1]) : 'bye'),
      h('td', {}, g.result ? `${g.result} (${RESULT[g.result] || g.result})` : g.game_id ? 'in play' : 'not played yet'),
      h('td', {}, g.game_id ? h('a', { href: (!g.result || live.includes(g.game_id)) ? `#/game/${g.game_id}` : `#/replay/${g.game_id}`, 'data-testid': 'tournament-game-link' },
        g.result ? `Replay game ${g.game_id}` : `Watch game ${g.game_id}`) : ''))))));
}

async function eloChart(box, standings) {
  const rows = standings.filter((r) => typeof r.bt_elo === 'number');
  const names = rows.map((r) => r.player);
  const xs = rows.map((_, i) => i);
  const elo = rows.map((r) => r.bt_elo), lo = rows.map((r) => r.bt_elo - (r.bt_95 || 0)), hi = rows.map((r) => r.bt_elo + (r.bt_95 || 0));
  const pad = 50;
  await drawChart(box, {
    scales: { x: { time: false, range: [-0.5, Math.max(0.5, rows.length - 0.5)] }, y: { range: [Math.min(...lo) - pad, Math.max(...hi) + pad] } },
    axes: [{ label: 'Player', splits: () => xs, values: (u, splits) => splits.map((i) => names[i] ?? '') },
      { label: 'Elo (95% interval)', size: 70 }],
    series: [{ label: 'Player', value: (u, i) => (i === null ? '' : names[i] ?? '') },
      { label: 'Elo', stroke: '#2563eb', width: 0, points: { show: true, size: 9, fill: '#2563eb' }, paths: () => null },
      { label: 'Lower 95%', stroke: '#6b7280', width: 0, points: { show: false }, paths: () => null },
      { label: 'Upper 95%', stroke: '#6b7280', width: 0, points: { show: false }, paths: () => null }],
    cursor: { drag: { x: false, y: false } },
    // The whiskers: uPlot's draw hook on its own canvas, between the lower and upper series.
    hooks: { draw: [(u) => {
      const { ctx } = u;
      ctx.save();
      ctx.strokeStyle = '#374151';
      ctx.lineWidth = 2 * devicePixelRatio;
      for (let i = 0; i < xs.length; i++) {
        const x = u.valToPos(xs[i], 'x', true), y0 = u.valToPos(lo[i], 'y', true), y1 = u.valToPos(hi[i], 'y', true), w = 6 * devicePixelRatio;
        ctx.beginPath();
        ctx.moveTo(x, y0); ctx.lineTo(x, y1);
        ctx.moveTo(x - w, y0); ctx.lineTo(x + w, y0);
        ctx.moveTo(x - w, y1); ctx.lineTo(x + w, y1);
        ctx.stroke();
      }
      ctx.restore();
    }] },
  }, [xs, elo, lo, hi], 'No ratings yet (they need finished games).');
}

export function tournamentsView() {
  const body = h('div');
  const el = h('section.card.tournaments', {}, h('h2', {}, 'Tournaments'), body);
  let timer = null;
  const boxes = new Map();  // tournament id -> its chart box, kept across reloads
  let lastKey = '';
  async function load() {
    try {
      const list = await getJson('/api/tournaments');
      const items = Array.isArray(list) ? list : list.tournaments || [];
      const games = await Promise.all(items.map((t) => getJson(`/api/tournaments/${t.id}/games`).catch(() => [])));
      const key = JSON.stringify([items, games]);
      if (key === lastKey) return;  // nothing new: the charts stay as they are
      lastKey = key;
      if (!items.length) { body.replaceChildren(h('p.muted', {}, 'No tournaments yet.')); return; }
      body.replaceChildren(...items.map((t, k) => {
        const ids = new Map();
        for (const g of games[k]) g.players.forEach((p, i) => { if (p && g.player_ids[i]) ids.set(p, g.player_ids[i]); });
        const order = (t.standings || []).map((r) => r.player);
        const box = boxes.get(t.id) || chartBox('Elo with its 95% interval', 'elo-chart', 'Each dot is a player\'s Bradley-Terry Elo over this tournament; the bar spans its 95% interval.');
        boxes.set(t.id, box);
        const live = (t.director && t.director.running) || [];
        const art = h('article.tournament', { 'data-tournament-id': t.id },
          h('h3', {}, t.name || `Tournament ${t.id}`),
          h('p.muted', {}, [t.game, t.format, t.status,
            t.games_played !== undefined ? `${t.games_played} of ${t.games_total ?? '?'} games played${t.games_live ? `, ${t.games_live} in play` : ''}` : null].filter(Boolean).join(' · ')),
          t.director && t.director.waiting_for && t.director.waiting_for.length ? h('p.notice', {}, `Waiting for ${t.director.waiting_for.join(', ')} to connect.`) : null,
          t.rating_error ? h('p.note', {}, `Ratings: ${t.rating_error}`) : null,
          t.noted_games ? h('p.note', {}, `${t.noted_games} game(s) ended by a fault of the rules (not rated): ${t.first_note}`) : null,
          sprtBox(t),
          h('h4', {}, 'Standings'), standingsTable(t.standings, ids),
          box.el,
          h('h4', {}, 'Crosstable'), crosstableHeatmap(t.crosstable, order, ids),
          h('h4', {}, 'Games'), gamesList(games[k], live));
        eloChart(box, t.standings || []);
        return art;
      }));
    } catch (err) {
      body.replaceChildren(h('p.error', {}, err.message));
    }
  }
  load();
  timer = setInterval(load, 5000);
  return { el, dispose: () => clearInterval(timer) };
}
