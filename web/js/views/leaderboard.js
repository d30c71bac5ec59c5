// Leaderboards per game (/api/leaderboard?game=G): rating, deviation, games and results, each
// name a link to the player's profile; and the rating over time of the leading players
// (/api/ratings/history?game=G), drawn by uPlot.
import { h } from '../dom.js';
import { api, getJson } from '../api.js';
import { chartBox, drawChart, alignSeries, playerLink, PALETTE } from '../charts.js';

export function leaderboardView(ctx, initial) {
  // The GDL sheets (two hundred) are left out of the list; #/leaderboard/gdl:NAME shows one.
  const kinds = ctx.catalog.filter((g) => g.players === 2 && !g.gdl);
  const names = kinds.length ? kinds.map((g) => g.name) : ['tictactoe', 'qubic', 'isolation', 'othello', 'checkers', 'chess'];
  if (initial && !names.includes(initial)) names.push(initial);
  const select = h('select', { 'data-testid': 'leaderboard-game', onchange: () => { location.hash = `#/leaderboard/${select.value}`; } },
    names.map((n) => h('option', { value: n, selected: n === initial }, n)));
  const table = h('div.table-wrap', { 'data-testid': 'leaderboard' });
  const history = chartBox('Rating over time', 'rating-history', 'Glicko-2 rating after each rated game, for the eight best players.');
  const statsLink = h('a', { href: `#/games/${encodeURIComponent(select.value)}`, 'data-testid': 'game-stats-link' }, 'Statistics of this game');
  const el = h('section.card.leaderboard', {}, h('h2', {}, 'Leaderboard'), h('label', {}, 'Game ', select), ' ', statsLink, table, history.el);
  load(select.value);

  async function load(game) {
    table.replaceChildren(h('p.muted', {}, 'Loading…'));
    try {
      const rows = await api.leaderboard(game);
      if (!rows.length) { table.replaceChildren(h('p.muted', {}, `No rated ${game} games yet.`)); return; }
      table.replaceChildren(h('table', {},
        h('thead', {}, h('tr', {}, ['#', 'Player', 'Rating', '±', 'Games', 'W', 'L', 'D'].map((t) => h('th', {}, t)))),
        h('tbody', {}, rows.map((r, i) => h('tr', {},
          h('td', {}, i + 1), h('td', {}, playerLink(r.name, r.player, r.bot)),
          h('td.num', {}, Math.round(r.rating)), h('td.num', {}, Math.round(r.deviation)),
          h('td.num', {}, r.games), h('td.num', {}, r.wins), h('td.num', {}, r.losses), h('td.num', {}, r.draws))))));
      drawHistory(game, rows);
    } catch (err) {
      table.replaceChildren(h('p.error', {}, err.message));
    }
  }

  async function drawHistory(game, rows) {
    let points = [];
    try { points = await getJson(`/api/ratings/history?game=${encodeURIComponent(game)}`); } catch { points = []; }
    const top = rows.slice(0, 8);
    const series = top.map((r) => points.filter((p) => p.player === r.player).map((p) => [p.at_ms / 1000, Math.round(p.rating)]));
    // Points at the same second (games finished together): the later one wins the slot.
    const data = alignSeries(series);
    await drawChart(history, {
      axes: [{ label: 'Time' }, { label: 'Rating (Glicko-2)', size: 60 }],
      series: [{ label: 'Time' }, ...top.map((r, i) => ({ label: r.name, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: true, points: { show: true, size: 5 } }))],
    }, data, 'No rating history yet (it grows with each rated game).');
  }
  return { el };
}
