// Charts drawn by uPlot (npm "uplot", installed from web/package-lock.json into web/node_modules
// by scripts/install-deps and served by arena serve as any file under the web root). The library
// is loaded once, on the first chart; without it every chart box says so in words and the page
// goes on working (the numbers stay in the tables beside the charts).
import { h } from './dom.js';

let loading = null;

// uPlot's constructor, or null when the library is not installed.
export function loadUPlot() {
  if (!loading) {
    loading = import('../node_modules/uplot/dist/uPlot.esm.js').then((mod) => {
      if (!document.querySelector('link[data-uplot]')) {
        document.head.append(h('link', { rel: 'stylesheet', href: 'node_modules/uplot/dist/uPlot.min.css', 'data-uplot': '' }));
      }
      return mod.default;
    }, () => null);
  }
  return loading;
}

export const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

// A box for one chart: its title, then the chart (or the note saying why there is none).
export function chartBox(title, testid, caption = '') {
  const body = h('div.chart-body');
  const el = h('figure.chart', { 'data-testid': testid }, h('figcaption', {}, title), body,
    caption ? h('p.chart-caption.muted', {}, caption) : null);
  return { el, body };
}

// Draws `opts`/`data` with uPlot into `box` (from chartBox), replacing what it showed. Resolves
// with the uPlot instance, or null when the library is missing or there is nothing to draw
// (`empty`: the words shown instead).
export async function drawChart(box, opts, data, empty = 'Nothing to chart yet.') {
  const uPlot = await loadUPlot();
  if (box.chart) { box.chart.destroy(); box.chart = null; }
  if (!uPlot) {
    box.body.replaceChildren(h('p.chart-missing', { 'data-testid': 'chart-missing' },
      'Chart not shown: the charting library (uPlot) is not installed on this server. Run scripts/install-deps run, which installs it into web/node_modules.'));
    return null;
  }
  if (!data.length || !data[0].length) {
    box.body.replaceChildren(h('p.muted.chart-empty', {}, empty));
    return null;
  }
  box.body.replaceChildren();
  const width = Math.max(260, Math.min(opts.maxWidth || 720, (box.el.parentElement && box.el.parentElement.clientWidth) || 560) - 8);
  const chart = new uPlot({ width, height: 220, ...opts }, data, box.body);
  box.chart = chart;
  box.body.uplot = chart;  // for the browser tests and the console
  return chart;
}

// Points of several series on one x axis (uPlot's aligned data): `series` is a list of
// [[x, y], ...]; returns [xs, ys1, ys2, ...] with null where a series has no point at x.
export function alignSeries(series) {
  const xs = [...new Set(series.flatMap((s) => s.map(([x]) => x)))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const out = [xs];
  for (const s of series) {
    const ys = new Array(xs.length).fill(null);
    for (const [x, y] of s) ys[index.get(x)] = y;
    out.push(ys);
  }
  return out;
}

// Counts of `values` in bins of equal width: [[bin starts], [counts]] (at most `bins` bins).
export function histogram(values, bins = 20) {
  if (!values.length) return [[], []];
  const lo = Math.min(...values), hi = Math.max(...values);
  const width = Math.max(1, Math.ceil((hi - lo + 1) / bins));
  const n = Math.floor((hi - lo) / width) + 1;
  const counts = new Array(n).fill(0);
  for (const v of values) counts[Math.floor((v - lo) / width)] += 1;
  return [counts.map((_, i) => lo + i * width), counts];
}

// uPlot's bars path builder (a bar chart: a histogram).
export async function barsPath() {
  const uPlot = await loadUPlot();
  return uPlot ? uPlot.paths.bars({ size: [0.9, 60] }) : null;
}

// A link to a player's profile when the id is known, else the name alone.
export function playerLink(name, id, bot) {
  const label = [name, bot === true ? h('span.badge.bot', { title: 'a program' }, 'bot') : null];
  return id ? h('a.player', { href: `#/players/${id}`, 'data-testid': 'player-link' }, label) : h('span.player', {}, label);
}

export function percent(part, whole) {
  return whole ? `${(100 * part / whole).toFixed(1)}%` : '–';
}
