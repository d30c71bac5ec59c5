// A player's profile (#/players/ID, /api/profile/ID): the rating per game with its history
// drawn by uPlot, the recent games linked to their replays, and a bot's engine versions
// (search, heuristic, parameters) as the store registered them.
import { h, describeResult } from '../dom.js';
import { getJson } from '../api.js';
import { chartBox, drawChart, alignSeries, playerLink, PALETTE } from '../charts.js';

function when(ms) {
  return ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '–';
}

export function profileView(ctx, id) {
  const el = h('section.card.profile', { 'data-testid': 'profile' }, h('p', {}, 'Loading…'));
  load();

  async function load() {
    let p;
    try { p = await getJson(`/api/profile/${id}`); } catch (err) {
      el.replaceChildren(h('p.error', {}, `Player ${id}: ${err.message}`), h('a', { href: '#/' }, 'Back to the lobby'));
      return;
    }
    const history = chartBox('Rating over time', 'profile-rating-history', 'Glicko-2 rating after each rated game, one line per game.');
    const kinds = [...new Set(p.history.map((x) => x.game))];
    el.replaceChildren(
      h('h2', { 'data-testid': 'profile-name' }, p.name, ' ', h(`span.badge.${p.bot ? 'bot' : 'human'}`, {}, p.bot ? 'bot' : 'human')),
      h('h3', {}, 'Ratings'),
      p.ratings.length ? h('div.table-wrap', {}, h('table', { 'data-testid': 'profile-ratings' },
        h('thead', {}, h('tr', {}, ['Game', 'Rating', '± (deviation)', 'Games', 'Won', 'Lost', 'Drawn'].map((x) => h('th', {}, x)))),
        h('tbody', {}, p.ratings.map((r) => h('tr', {},
          h('td', {}, h('a', { href: `#/games/${encodeURIComponent(r.game)}` }, r.game)),
          h('td.num', {}, Math.round(r.rating)), h('td.num', {}, Math.round(r.deviation)), h('td.num', {}, r.games),
          h('td.num', {}, r.wins), h('td.num', {}, r.losses), h('td.num', {}, r.draws))))))
        : h('p.muted', {}, 'No rated games yet.'),
      history.el,
      h('h3', {}, 'Recent games'),
      p.recent.length ? h('div.table-wrap', {}, h('table', { 'data-testid': 'profile-games' },
        h('thead', {}, h('tr', {}, ['Game', 'Players', 'Result', 'Plies', 'Ended', ''].map((x) => h('th', {}, x)))),
        h('tbody', {}, p.recent.map((g) => h('tr', {},
          h('td', {}, g.game),
          h('td', {}, g.players.map((n, i) => [i ? ' – ' : '', playerLink(n, (g.player_ids || [])[i])])),
          h('td', {}, g.result ? describeResult(g.result, g.reason, g.players) : 'in play'),
          h('td.num', {}, g.plies), h('td', {}, when(g.ended_at_ms)),
          h('td', {}, h('a', { href: g.result ? `#/replay/${g.id}` : `#/game/${g.id}`, 'data-testid': 'profile-game-link' }, g.result ? 'Replay' : 'Watch')))))))
        : h('p.muted', {}, 'No games yet.'),
      p.bot || p.versions.length ? h('h3', {}, 'Engine versions') : null,
      p.versions.length ? h('div.table-wrap', {}, h('table', { 'data-testid': 'profile-versions' },
        h('thead', {}, h('tr', {}, ['Version', 'Search', 'Heuristic', 'Parameters', 'First seen', 'Games'].map((x) => h('th', {}, x)))),
        h('tbody', {}, p.versions.map((v) => h('tr', {}, h('td.num', {}, v.id), h('td', {}, v.search), h('td', {}, v.heuristic),
          h('td.pv', {}, v.parameters || '–'), h('td', {}, when(v.created_at_ms)), h('td.num', {}, v.games))))))
        : p.bot ? h('p.muted', {}, 'This bot has not announced its engine (search and heuristic) to the server.') : null);
    const series = kinds.map((k) => p.history.filter((x) => x.game === k).map((x) => [x.at_ms / 1000, Math.round(x.rating)]));
    await drawChart(history, {
      axes: [{ label: 'Time' }, { label: 'Rating (Glicko-2)', size: 60 }],
      series: [{ label: 'Time' }, ...kinds.map((k, i) => ({ label: k, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: true, points: { show: true, size: 5 } }))],
    }, alignSeries(series), 'No rating history yet.');
  }
  return { el };
}
