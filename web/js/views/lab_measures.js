// The heuristic lab's stored measures on a game kind's page (/api/stats's `lab`, recorded by
// `arena analyze --game G --db FILE`): outcome determination against plies to the end, one line
// per heuristic, and move invariance per heuristic, drawn by uPlot, with a table of what each
// rests on (games, positions, when and how measured).
import { h } from '../dom.js';
import { chartBox, drawChart, barsPath, percent, PALETTE } from '../charts.js';

// The run's settings in words (arena analyze's flags); a setting this page does not know is
// shown by its name with the underscores as spaces.
const SETTING_WORDS = {
  player: (v) => `self-play by ${v}`,
  games: (v) => `${v} self-play game${v === 1 ? '' : 's'}`,
  opening_plies: (v) => `${v} random opening plies`,
  max_plies: (v) => `drawn after ${v} plies`,
  seed: (v) => `seed ${v}`,
  options: (v) => `game options ${v}`,
};

// The settings of a run in words, less the ones its `source` already names.
export function settingsText(parameters, source = '') {
  if (parameters === null || parameters === undefined || parameters === '') return '';
  if (typeof parameters !== 'object') return String(parameters);
  return Object.entries(parameters).filter(([k, v]) => !((k === 'player' || k === 'games') && source.includes(String(v))))
    .map(([k, v]) => (SETTING_WORDS[k] ? SETTING_WORDS[k](v) : `${k.replaceAll('_', ' ')} ${v}`)).join(', ');
}

// One line per stored run the heuristics come from: when, on what positions, how.
function runs(lab) {
  const seen = new Map();
  for (const x of lab) if (!seen.has(x.run)) seen.set(x.run, x);
  return h('ul.lab-runs', { 'data-testid': 'lab-runs' }, [...seen.values()].sort((a, b) => a.run - b.run).map((x) => {
    const settings = settingsText(x.parameters, x.source);
    return h('li', {}, `Run ${x.run}, ${new Date(x.measured_at_ms).toLocaleString()}: ${x.source}${settings ? `; ${settings}` : ''}.`);
  }));
}

function bucketLabel(b) {
  return b.max_plies === null ? `${b.min_plies}+` : b.min_plies === b.max_plies ? `${b.min_plies}` : `${b.min_plies}–${b.max_plies}`;
}

function fixed(x, digits = 2) {
  return x === null || x === undefined ? '–' : x.toFixed(digits);
}

// The buckets of plies to the end that any heuristic has, nearest the end first.
function bucketsOf(lab) {
  const seen = new Map();
  for (const x of lab) for (const b of x.outcome_determination.buckets) seen.set(`${b.min_plies}:${b.max_plies}`, b);
  return [...seen.values()].sort((a, b) => a.min_plies - b.min_plies);
}

function table(lab) {
  const head = [['Heuristic'], ['Games'], ['Positions'],
    ['Foretold the result', 'Share of all positions where the sign of the heuristic was the sign of the final result'],
    ['Correlation', 'Pearson correlation of the heuristic with the final result, over all positions'],
    ['Change per move (sd)', 'Mean |change| of the heuristic per move played, in standard deviations of its values'],
    ['Unchanged moves', 'Share of moves that left the heuristic as it was'], ['Run']];
  return h('div.table-wrap', {}, h('table', { 'data-testid': 'lab-table' },
    h('thead', {}, h('tr', {}, head.map(([x, title]) => h('th', { title }, x)))),
    h('tbody', {}, lab.map((x) => {
      const od = x.outcome_determination, mi = x.move_invariance;
      return h('tr', {}, h('td', {}, x.heuristic), h('td.num', {}, x.games), h('td.num', {}, x.positions),
        h('td.num', {}, od.sign_agreement === null ? '–' : percent(od.sign_agreement, 1)), h('td.num', {}, fixed(od.correlation)),
        h('td.num', {}, fixed(mi.mean_norm)), h('td.num', {}, mi.unchanged === null ? '–' : percent(mi.unchanged, 1)),
        h('td.num', {}, x.run));
    }))));
}

// The section, and draw() to call once it is in the page (uPlot measures its parent's width).
export function labSection(lab, game) {
  if (!lab.length) return { el: null, draw: async () => {} };
  const outcome = chartBox('Outcome determination (heuristic lab)', 'lab-outcome-chart',
    'Share of positions where the sign of the heuristic (from the first seat\'s side) was the sign of the final result, by plies still to play. 50% is a coin toss; the higher far from the end, the better the heuristic.');
  const invariance = chartBox('Move invariance (heuristic lab)', 'lab-invariance-chart',
    'How much the heuristic changes along the moves played, in standard deviations (sd) of its own values over all positions: the bar is the mean |change| per move, the dot the 90th percentile. Lower is steadier.');
  const el = h('div.lab-measures', { 'data-testid': 'lab-measures' },
    h('h3', {}, 'Heuristics, measured by the lab'),
    h('p.muted', {}, `Stored by arena analyze --game ${game} --db, each heuristic's newest run.`),
    table(lab), runs(lab), outcome.el, invariance.el);
  async function draw() {
    const buckets = bucketsOf(lab);
    const xs = buckets.map((_, i) => i);
    const tick = (i) => (buckets[i] === undefined ? '' : bucketLabel(buckets[i]));
    await drawChart(outcome, {
      legend: { live: false },
      scales: { x: { time: false, range: [-0.3, Math.max(0.3, xs.length - 0.7)] }, y: { range: [0, 100] } },
      axes: [{ label: 'Plies to the end', splits: () => xs, values: (u, splits) => splits.map(tick) },
        { label: 'Foretold the result (%)', size: 60 }],
      series: [{ label: 'Plies to the end', value: (u, i) => (i === null ? '' : tick(i)) },
        ...lab.map((x, k) => ({ label: x.heuristic, stroke: PALETTE[k % PALETTE.length], width: 2, spanGaps: true, points: { show: true, size: 6 },
          value: (u, v) => (v === null ? '–' : `${v.toFixed(1)}%`) }))],
    }, [xs, ...lab.map((x) => buckets.map((b) => {
      const found = x.outcome_determination.buckets.find((o) => o.min_plies === b.min_plies && o.max_plies === b.max_plies);
      return found && found.sign_agreement !== null ? Math.round(1000 * found.sign_agreement) / 10 : null;
    }))], 'No heuristic had a position with a nonzero value and a decided result.');
    const names = lab.map((x) => x.heuristic);
    const hx = names.map((_, i) => i);
    const mean = lab.map((x) => x.move_invariance.mean_norm);
    const p90 = lab.map((x) => x.move_invariance.p90_norm);
    const top = Math.max(0.1, ...p90.filter((v) => v !== null), ...mean.filter((v) => v !== null));
    const bars = await barsPath();
    const name = (i) => (names[i] === undefined ? '' : names[i]);
    await drawChart(invariance, {
      legend: { live: false },
      scales: { x: { time: false, range: [-0.6, names.length - 0.4] }, y: { range: [0, top * 1.15] } },
      axes: [{ label: 'Heuristic', splits: () => hx, values: (u, splits) => splits.map(name) },
        { label: 'Change per move (sd)', size: 60 }],
      series: [{ label: 'Heuristic', value: (u, i) => (i === null ? '' : name(i)) },
        { label: 'Mean |change|', stroke: PALETTE[0], fill: 'rgba(37, 99, 235, 0.35)', width: 1, paths: bars || undefined, points: { show: false },
          value: (u, v) => (v === null ? '–' : v.toFixed(3)) },
        { label: '90th percentile', stroke: PALETTE[1], width: 0, paths: () => null, points: { show: true, size: 8, fill: PALETTE[1] },
          value: (u, v) => (v === null ? '–' : v.toFixed(3)) }],
    }, [hx, mean, p90], 'No moves were measured.');
  }
  return { el, draw };
}
