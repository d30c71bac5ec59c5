// Tournaments, shown only when the server answers /api/tournaments. The page renders what the
// API gives: a list of tournaments, and for each a crosstable (rows of results) and progress.
import { h } from '../dom.js';
import { getJson } from '../api.js';

function table(rows) {
  if (!Array.isArray(rows) || !rows.length) return null;
  const cols = Object.keys(rows[0]);
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
        table(t.crosstable || t.standings))) : [h('p.muted', {}, 'No tournaments yet.')]));
    } catch (err) {
      body.replaceChildren(h('p.error', {}, err.message));
    }
  }
  load();
  timer = setInterval(load, 5000);
  return { el, dispose: () => clearInterval(timer) };
}
