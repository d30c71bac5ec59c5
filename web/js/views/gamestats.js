// One game kind's page (#/games/NAME, /api/stats?game=NAME): how balanced it is (first-seat
// win rate), how drawish (draw rate), how long (the distribution of game lengths), how wide
// (the mean branching factor: legal moves per position over replayed games), the heuristic
// lab's stored measures of each heuristic (lab_measures.js: outcome determination against plies
// to the end, move invariance; recorded by arena analyze --db), and, apart from them and named
// as such, what the scores bots sent with their moves say of their heuristics.
import { h } from '../dom.js';
import { getJson } from '../api.js';
import { chartBox, drawChart, histogram, barsPath, percent, PALETTE } from '../charts.js';
import { labSection } from './lab_measures.js';

function card(label, value, testid, title = '') {
  return h('div.stat-card', { 'data-testid': testid, title: title || undefined }, h('div.value', {}, value), h('div.label', {}, label));
}

export function gameStatsView(ctx, initial) {
  const name = initial ? decodeURIComponent(initial) : '';
  const kinds = ctx.catalog.filter((g) => !g.gdl).map((g) => g.name);
  const sheets = ctx.catalog.filter((g) => g.gdl);
  if (name && !kinds.includes(name) && !sheets.some((g) => g.name === name)) kinds.push(name);
  const select = h('select', { 'data-testid': 'gamestats-game', onchange: () => { location.hash = `#/games/${encodeURIComponent(select.value)}`; } },
    h('option', { value: '', disabled: true, selected: !name }, 'Choose a game'),
    kinds.map((n) => h('option', { value: n, selected: n === name }, n)),
    sheets.length ? h('optgroup', { label: 'GDL games (rule sheets)' },
      sheets.map((g) => h('option', { value: g.name, selected: g.name === name }, g.name.replace(/^gdl:/, '')))) : null);
  const body = h('div', { 'data-testid': 'gamestats' });
  const el = h('section.card.gamestats', {}, h('h2', {}, name ? `Statistics: ${name}` : 'Game statistics'), h('label', {}, 'Game ', select), body,
    h('p.muted', {}, 'A GGP match played elsewhere: ', h('a', { href: '#/replay/record', 'data-testid': 'open-record' }, 'replay its match record')));
  if (name) load(name);
  else body.replaceChildren(h('p.muted', {}, 'Choose a game to see what its stored games say.'));

  async function load(game) {
    body.replaceChildren(h('p.muted', {}, 'Loading…'));
    let s;
    try { s = await getJson(`/api/stats?game=${encodeURIComponent(game)}`); } catch (err) {
      body.replaceChildren(h('p.error', {}, err.message));
      return;
    }
    const two = s.first_wins + s.second_wins + s.draws;
    const lengths = chartBox('Game length', 'length-chart', 'Number of games by their length in plies (moves of either side).');
    const lab = labSection(s.lab || [], game);
    const outcome = chartBox('Outcome determination, from the bots\' scores (not the lab)', 'outcome-chart',
      'Share of a bot\'s scores whose sign foretold its result (won: above zero; lost: below), by plies left to the end of the game. Higher near the end is expected; higher far from it is a better heuristic.');
    const meanLength = s.lengths.length ? (s.lengths.reduce((a, b) => a + b, 0) / s.lengths.length).toFixed(1) : '–';
    body.replaceChildren(...[
      h('p.muted', {}, `${s.games} finished game(s) stored; the branching factor and the bots' scores come from the newest ${s.sampled}.`),
      h('div.stat-cards', {},
        card('First seat wins', percent(s.first_wins, two), 'first-win-rate', `${s.first_wins} of ${two} two-seat games with a result`),
        card('Second seat wins', percent(s.second_wins, two), 'second-win-rate', `${s.second_wins} of ${two}`),
        card('Draws', percent(s.draws, two), 'draw-rate', `${s.draws} of ${two}`),
        card('Mean length (plies)', meanLength, 'mean-length'),
        card('Mean branching factor', s.mean_branching === null ? '–' : s.mean_branching.toFixed(2), 'branching',
          `legal moves per position, over ${s.positions} positions of replayed games`)),
      lengths.el,
      lab.el,
      s.missing ? h('p.note', { 'data-testid': 'stats-missing' }, s.missing) : null,
      h('h3', {}, 'Heuristics, from the scores bots sent in stored games'),
      s.heuristics.length ? h('div.table-wrap', {}, h('table', { 'data-testid': 'heuristics' },
        h('thead', {}, h('tr', {}, ['Bot', 'Heuristic', 'Scores sent', 'Move invariance (mean |change| between own moves)', 'Outcome determination (all plies)'].map((x) => h('th', {}, x)))),
        h('tbody', {}, s.heuristics.map((x) => {
          const n = x.outcome_determination.reduce((a, b) => a + b.samples, 0);
          const agree = x.outcome_determination.reduce((a, b) => a + b.agreement * b.samples, 0);
          return h('tr', {}, h('td', {}, x.player), h('td', {}, x.heuristic || 'not announced'), h('td.num', {}, x.scores),
            h('td.num', {}, x.move_invariance === null ? '–' : x.move_invariance.toFixed(1)), h('td.num', {}, percent(agree, n)));
        }))))
        : h('p.muted', {}, 'No bot sent scores with its moves in a decisive game of this kind yet.'),
      s.heuristics.length ? outcome.el : null].filter(Boolean));  // replaceChildren writes a null as "null"
    const [starts, counts] = histogram(s.lengths, 20);
    const width = starts.length > 1 ? starts[1] - starts[0] : 1;
    const bars = await barsPath();
    await drawChart(lengths, {
      scales: { x: { time: false, range: [starts[0] - width, (starts.at(-1) ?? 0) + 2 * width] }, y: { range: [0, Math.max(1, ...counts) * 1.1] } },
      axes: [{ label: 'Length (plies)', values: (u, splits) => splits.map((v) => (Number.isInteger(v) ? v : '')) }, { label: 'Games', size: 50, values: (u, splits) => splits.map((v) => (Number.isInteger(v) ? v : '')) }],
      series: [{ label: 'Length from (plies)' }, { label: 'Games', stroke: PALETTE[0], fill: 'rgba(37, 99, 235, 0.35)', width: 1, paths: bars || undefined, points: { show: false } }],
    }, [starts.map((x) => x + (width - 1) / 2), counts], 'No finished games of this kind yet.');
    await lab.draw();
    if (s.heuristics.length) {
      const buckets = [...new Set(s.heuristics.flatMap((x) => x.outcome_determination.map((b) => b.plies_to_end)))].sort((a, b) => a - b);
      const xs = buckets.map((_, i) => i);
      const label = (b, i) => (b > 1e6 ? `> ${buckets[i - 1] || 0}` : `≤ ${b}`);
      await drawChart(outcome, {
        scales: { x: { time: false, range: [-0.3, Math.max(0.3, xs.length - 0.7)] }, y: { range: [0, 100] } },
        axes: [{ label: 'Plies to the end', splits: () => xs, values: (u, splits) => splits.map((i) => (buckets[i] === undefined ? '' : label(buckets[i], i))) },
          { label: 'Foretold the result (%)', size: 60 }],
        series: [{ label: 'Plies to the end', value: (u, i) => (i === null || buckets[i] === undefined ? '' : label(buckets[i], i)) },
          ...s.heuristics.map((x, k) => ({ label: `${x.player}${x.heuristic ? ` (${x.heuristic})` : ''}`, stroke: PALETTE[k % PALETTE.length], width: 2, spanGaps: true, points: { show: true, size: 6 } }))],
      }, [xs, ...s.heuristics.map((x) => buckets.map((b) => {
        const found = x.outcome_determination.find((o) => o.plies_to_end === b);
        return found ? Math.round(1000 * found.agreement) / 10 : null;
      }))]);
    }
  }
  return { el };
}
