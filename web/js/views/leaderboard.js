// Leaderboards per game (/api/leaderboard?game=G): rating, deviation, games and results.
import { h, playerLabel } from '../dom.js';
import { api } from '../api.js';

export function leaderboardView(ctx, initial) {
  // The GDL sheets (two hundred) are left out of the list; #/leaderboard/gdl:NAME shows one.
  const kinds = ctx.catalog.filter((g) => g.players === 2 && !g.gdl);
  const names = kinds.length ? kinds.map((g) => g.name) : ['tictactoe', 'qubic', 'isolation', 'othello', 'checkers', 'chess'];
  if (initial && !names.includes(initial)) names.push(initial);
  const select = h('select', { 'data-testid': 'leaderboard-game', onchange: () => { location.hash = `#/leaderboard/${select.value}`; } },
    names.map((n) => h('option', { value: n, selected: n === initial }, n)));
  const table = h('div.table-wrap', { 'data-testid': 'leaderboard' });
  const el = h('section.card.leaderboard', {}, h('h2', {}, 'Leaderboard'), h('label', {}, 'Game ', select), table);
  load(select.value);

  async function load(game) {
    table.replaceChildren(h('p.muted', {}, 'Loading…'));
    try {
      const rows = await api.leaderboard(game);
      if (!rows.length) { table.replaceChildren(h('p.muted', {}, `No rated ${game} games yet.`)); return; }
      table.replaceChildren(h('table', {},
        h('thead', {}, h('tr', {}, ['#', 'Player', 'Rating', '±', 'Games', 'W', 'L', 'D'].map((t) => h('th', {}, t)))),
        h('tbody', {}, rows.map((r, i) => h('tr', {},
          h('td', {}, i + 1), h('td', {}, playerLabel({ name: r.name, bot: r.bot })),
          h('td.num', {}, Math.round(r.rating)), h('td.num', {}, Math.round(r.deviation)),
          h('td.num', {}, r.games), h('td.num', {}, r.wins), h('td.num', {}, r.losses), h('td.num', {}, r.draws))))));
    } catch (err) {
      table.replaceChildren(h('p.error', {}, err.message));
    }
  }
  return { el };
}
