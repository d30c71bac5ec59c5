// The heuristic lab's measures drawn from the store (issue 52, item 4): `arena analyze --game
// othello --db FILE` plays six self-play games and records every Othello heuristic's
// outcome determination and move invariance in FILE; a server started on FILE serves them in
// /api/stats, and the game's page draws them with uPlot: outcome determination against plies to
// the end with one line per heuristic named in the legend, move invariance per heuristic, named
// axes, no raw JSON key, no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARENA, startServer, openBrowser, screenshot, ensureBinary } from './helpers.js';

const GAME = 'othello';
const RAW_KEYS = /\b(min_plies|max_plies|sign_agreement|mean_norm|p90_norm|measured_at_ms|move_invariance|outcome_determination|opening_plies|plies_to_end)\b/;

let dir, server, b, analyzed;

before(async () => {
  ensureBinary();
  dir = mkdtempSync(join(tmpdir(), 'arena-e2e-lab-'));
  const db = join(dir, 'lab.db');
  analyzed = execFileSync(ARENA, ['analyze', '--game', GAME, '--games', '6', '--seed', '3', '--db', db],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // A GDL sheet's measures too, under its kind gdl:NAME.
  execFileSync(ARENA, ['analyze', '--game', 'gdl:tictactoe', '--games', '2', '--player', 'uct:iterations=30', '--db', db],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  server = await startServer({ db });
  b = await openBrowser();
});

after(async () => {
  if (b) await b.browser.close();
  if (server) await server.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('arena analyze --db fills the store and the game page draws its measures', { timeout: 90000 }, async () => {
  const stats = await (await fetch(`${server.url}/api/stats?game=${GAME}`)).json();
  const names = stats.lab.map((x) => x.heuristic);
  assert.ok(names.length >= 2, `heuristics stored: ${names}`);
  // The printed table names the same heuristics the store holds.
  for (const n of names) assert.match(analyzed, new RegExp(n));
  assert.ok(stats.lab.every((x) => x.games === 6 && x.positions > 6), JSON.stringify(stats.lab.map((x) => [x.games, x.positions])));
  assert.equal(stats.missing, undefined);

  const { page, errors } = b;
  await page.goto(`${server.url}/#/games/${GAME}`);
  await page.waitForSelector('[data-testid=lab-outcome-chart] canvas');
  await page.waitForSelector('[data-testid=lab-invariance-chart] canvas');
  // One line per heuristic, named in the legend (which lists the lines only: no values).
  const legend = await page.$$eval('[data-testid=lab-outcome-chart] .u-legend .u-series .u-label', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(legend, names);
  const axes = await page.$eval('[data-testid=lab-outcome-chart] .chart-body', (el) => el.uplot.axes.map((a) => a.label));
  assert.deepEqual(axes, ['Plies to the end', 'Foretold the result (%)']);
  const series = await page.$eval('[data-testid=lab-outcome-chart] .chart-body', (el) => el.uplot.series.length);
  assert.equal(series, names.length + 1);
  const invAxes = await page.$eval('[data-testid=lab-invariance-chart] .chart-body', (el) => el.uplot.axes.map((a) => a.label));
  assert.deepEqual(invAxes, ['Heuristic', 'Change per move (sd)']);
  // Drawn, not blank: the first heuristic's stroke colour is on the canvas.
  const ink = await page.$eval('[data-testid=lab-outcome-chart] canvas', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 100 && Math.abs(d[i] - 37) < 40 && Math.abs(d[i + 1] - 99) < 40 && Math.abs(d[i + 2] - 235) < 40) n++;
    return n;
  });
  assert.ok(ink > 20, `the first heuristic's line: ${ink} pixels`);
  const table = await page.textContent('[data-testid=lab-table]');
  for (const n of names) assert.match(table, new RegExp(n));
  const run = await page.textContent('[data-testid=lab-runs]');
  for (const words of [/^Run 1, /, /6 self-play games \(alphabeta/, /4 random opening plies/, /drawn after 300 plies/, /seed 3\./]) assert.match(run, words);
  assert.doesNotMatch(await page.textContent('main'), RAW_KEYS);
  // The bots' scores are apart and named as such.
  assert.match(await page.textContent('main'), /from the scores bots sent/);
  const shot = await screenshot(page, 'lab-gamestats');
  if (process.env.ARENA_LAB_SHOT) await page.screenshot({ path: process.env.ARENA_LAB_SHOT, fullPage: true });
  assert.ok(shot);
  assert.deepEqual(errors, []);
});

test('a GDL sheet is chosen from the game list and its stored measures are drawn', { timeout: 90000 }, async () => {
  const { page, errors } = b;
  await page.goto(`${server.url}/#/games`);
  const group = await page.waitForSelector('[data-testid=gamestats-game] optgroup[label="GDL games (rule sheets)"]', { state: 'attached' });
  const labels = await group.$$eval('option', (os) => os.map((o) => o.textContent));
  assert.ok(labels.includes('tictactoe'), `sheets listed: ${labels.slice(0, 10)}`);
  await page.selectOption('[data-testid=gamestats-game]', 'gdl:tictactoe');
  await page.waitForFunction(() => location.hash === '#/games/gdl%3Atictactoe');
  await page.waitForSelector('[data-testid=lab-outcome-chart] canvas');
  const legend = await page.$$eval('[data-testid=lab-outcome-chart] .u-legend .u-series .u-label', (ls) => ls.map((l) => l.textContent));
  const stats = await (await fetch(`${server.url}/api/stats?game=${encodeURIComponent('gdl:tictactoe')}`)).json();
  assert.deepEqual(legend, stats.lab.map((x) => x.heuristic));
  assert.match(await page.textContent('h2'), /Statistics: gdl:tictactoe/);
  assert.doesNotMatch(await page.textContent('main'), RAW_KEYS);
  assert.deepEqual(errors, []);
});
