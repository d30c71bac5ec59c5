// Tournaments, shown only when the server answers /api/tournaments. The page renders what the
// API gives: a list of tournaments, and for each a crosstable (rows of results) and progress.
import { h } from '../dom.js';
import { getJson } from '../api.js';

function table(rows) {
  if (!Array.isArray(rows) || !rows.length) return null;
  // The server's JSON has its keys sorted: rank and player first, the rest as they come.
  const first = ['rank', 'player'].filter((c) => c in rows[0]);
  const cols = [...first, ...Object.keys(rows[0]).filter((c) => !first.includes(c))];
  return h('div.table-wrap', {}, h('table', {},
    h('thead', {}, h('tr', {}, cols.map((c) => h('th', {}, c)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, cols.map((c) => h('td', {}, typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c]))))))));
}

export function tournamentsView() {
  const body = h('div');
  const el = h('section.card.tournaments', {}, h('h2', {}, 'Tournaments'), body);
  let timer = null;
  async function load() {
    try {
      const list = await getJson('/api/tournaments');
      const items = Array.isArray(list) ? list : list.tournaments || [];
      body.replaceChildren(...(items.length ? items.map((t) => h('article.tournament', {},
        h('h3', {}, t.name || `Tournament ${t.id}`),
        h('p.muted', {}, [t.game, t.status, t.progress !== undefined ? `progress ${JSON.stringify(t.progress)}` : null,
          t.games_played !== undefined ? `${t.games_played}/${t.games_total ?? '?'} games` : null].filter(Boolean).join(' · ')),
        h('h4', {}, 'Standings'), table(t.standings),
        h('h4', {}, 'Crosstable (points / games)'), table(t.crosstable))) : [h('p.muted', {}, 'No tournaments yet.')]));
    } catch (err) {
      body.replaceChildren(h('p.error', {}, err.message));
    }
  }
  load();
  timer = setInterval(load, 5000);
  return { el, dispose: () => clearInterval(timer) };
}
