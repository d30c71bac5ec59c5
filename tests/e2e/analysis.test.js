// Analysis drawn, not printed (issue 52, item 4 and the profile of item 5): two scripted bots
// that announce their engine and send a score with every move play rated games and a
// round-robin tournament on a real server; a person then sees, in Chromium, the evaluation
// graph and bar of a replay (in the first seat's view, a click on a point jumping to that ply)
// and of a live game, the leaderboard's rating history, a profile opened from a name, the
// tournament's standings, Elo error bars, heat-map crosstable and game links, and a game
// kind's own page; and, with the charting library missing, a note where each chart would be.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, createToken, playScriptedGame, ensureBinary, sleep } from './helpers.js';

// The scores each seat's bot sends, from its own side: the first seat's grows, the second's
// is a steady +25 (so the first seat's view shows -25 for its moves).
const FIRST_SCORE = (ply) => 10 * (ply + 1);
const SECOND_SCORE = 25;
const RAW_KEYS = /\b(bt_95|bt_elo|avg_ms|avg_depth|avg_nodes|first_wins|second_wins|mean_branching|plies_to_end|game_id|at_ms)\b/;

let server, b, gameId, detail;
const clients = [];

async function botClient(name, heuristic) {
  const c = new Client(server.wsUrl, name, createToken(server.db, name));
  await new Promise((res, rej) => { c.ws.once('open', res); c.ws.once('error', rej); });
  c.send({ type: 'hello', version: 1, name, engine: { search: 'e2e-search:depth=1', heuristic, parameters: '{"w": 1}' } });
  c.welcome = await c.next((m) => m.type === 'welcome');
  clients.push(c);
  return c;
}

const info = (move, state) => ({ depth: 1, nodes: 5, pv: [move], score: state.to_move === 0 ? FIRST_SCORE(state.version) : SECOND_SCORE });

// Plays every game the tournament director starts for `c` until stopped.
function serveTournament(c, stop) {
  (async () => {
    while (!stop.done) {
      let start;
      try { start = await c.next((m) => m.type === 'game_start', 2000); } catch { continue; }
      const seat = start.players.findIndex((p) => p.name === c.name);
      c.play(start.game_id, seat, (l) => l[l.length - 1], { info }).catch(() => {});
    }
  })();
}

// Pixels of one colour (the series' stroke) on a chart's canvas: a chart, not a blank box.
async function inkOf(page, testid, [r, g, bl]) {
  return page.$eval(`[data-testid=${testid}] canvas`, (c, rgb) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 100 && Math.abs(d[i] - rgb[0]) < 40 && Math.abs(d[i + 1] - rgb[1]) < 40 && Math.abs(d[i + 2] - rgb[2]) < 40) n++;
    }
    return n;
  }, [r, g, bl]);
}

// The axis labels a chart draws on its canvas (uPlot's options: what the canvas shows).
function axisLabels(page, testid) {
  return page.$eval(`[data-testid=${testid}] .chart-body`, (el) => el.uplot.axes.map((a) => a.label));
}

before(async () => {
  ensureBinary();
  server = await startServer();
  const ann = await botClient('ann-bot', 'e2e-growing');
  const cat = await botClient('cat-bot', 'e2e-steady');
  ({ gameId } = await playScriptedGame(ann, cat, 'tictactoe', { info }));
  await playScriptedGame(cat, ann, 'tictactoe', { info, pick: (l) => l[l.length - 1] });
  await playScriptedGame(ann, cat, 'tictactoe', { info, pick: (l) => l[Math.floor(l.length / 2)] });
  detail = await (await fetch(`${server.url}/api/games/${gameId}`)).json();
  b = await openBrowser();
});
after(async () => {
  for (const c of clients) c.close();
  if (b) await b.browser.close();
  if (server) await server.stop();
});

test('the replay draws the evaluation graph in the first seat\'s view; a click jumps to the ply', { timeout: 60000 }, async (t) => {
  const { page, errors } = b;
  const n = detail.moves.length;
  await page.goto(`${server.url}/#/replay/${gameId}`);
  await page.waitForSelector('[data-testid=eval-graph] canvas');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply ${n} / ${n}")`);
  assert.ok(await inkOf(page, 'eval-graph', [37, 99, 235]) > 50, 'the evaluation line is drawn');
  const legend = await page.textContent('[data-testid=eval-graph]');
  assert.match(legend, /Score for ann-bot/);
  assert.doesNotMatch(legend, RAW_KEYS);
  assert.deepEqual(await axisLabels(page, 'eval-graph'), ['Ply', 'Score (first seat)']);
  // One point per scored move, the second seat's scores negated.
  const ys = await page.$eval('[data-testid=eval-graph] .chart-body', (el) => el.uplot.data[1]);
  const expected = detail.moves.map((m) => (m.seat === 0 ? m.info.score : -m.info.score));
  assert.deepEqual(ys, expected);
  assert.ok(ys.some((y) => y < 0) && ys.some((y) => y > 0), `both signs: ${ys}`);
  // The bar beside the board, at the last ply's evaluation.
  assert.ok(await page.isVisible('[data-testid=eval-bar]'));
  assert.equal(await page.getAttribute('[data-testid=eval-bar]', 'data-eval'), String(expected.at(-1)));
  // A click on the third point: the replay shows ply 3.
  const target = 3;
  await page.locator('[data-testid=eval-graph]').scrollIntoViewIfNeeded();
  const { x, y } = await page.$eval('[data-testid=eval-graph] .chart-body', (el, k) => {
    const u = el.uplot;
    const r = u.over.getBoundingClientRect();
    return { x: r.left + u.valToPos(k, 'x'), y: r.top + u.valToPos(u.data[1][k - 1], 'y') };
  }, target);
  await page.mouse.move(x, y);
  await page.mouse.click(x, y);
  await page.waitForSelector(`[data-testid=ply]:has-text("ply ${target} / ${n}")`);
  assert.equal(await page.textContent('[data-testid=moves] li.current .mv'), detail.moves[target - 1].move);
  assert.equal(await page.getAttribute('[data-testid=eval-bar]', 'data-eval'), String(expected[target - 1]));
  t.diagnostic(`scores in the first seat's view: ${ys.join(' ')}`);
  await screenshot(page, 'analysis-replay');
  assert.deepEqual(errors, []);
});

test('a spectator sees the evaluation graph grow while a game is played', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  const [ann, cat] = clients;
  ann.send({ type: 'seek', game: 'tictactoe', options: '', time_control: 'none' });
  const { seek_id: seekId } = await ann.next((m) => m.type === 'seek_created');
  cat.send({ type: 'accept', seek_id: seekId });
  const start = await ann.next((m) => m.type === 'game_start');
  await cat.next((m) => m.type === 'game_start');
  await page.goto(`${server.url}/#/game/${start.game_id}`);
  const played = Promise.all([ann.play(start.game_id, 0, (l) => l[0], { delay: 700, info }), cat.play(start.game_id, 1, (l) => l[0], { delay: 700, info })]);
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid=eval-graph] .chart-body');
    return el && el.uplot && el.uplot.data[0].length >= 2;
  }, null, { timeout: 20000 });
  assert.ok(await page.isVisible('[data-testid=eval-bar]'), 'the bar beside the live board');
  await screenshot(page, 'analysis-live');
  await played;
  assert.deepEqual(errors, []);
});

test('the leaderboard draws ratings over time; a name opens the profile', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  let history = [];
  for (let i = 0; i < 50 && history.length < 6; i++) { history = await (await fetch(`${server.url}/api/ratings/history?game=tictactoe`)).json(); await sleep(100); }
  assert.ok(history.length >= 6, `a point per player and rated game: ${history.length}`);
  await page.goto(`${server.url}/#/leaderboard/tictactoe`);
  await page.waitForSelector('[data-testid=rating-history] canvas');
  const text = await page.textContent('[data-testid=rating-history]');
  assert.match(text, /ann-bot/);
  assert.match(text, /cat-bot/);
  assert.deepEqual(await axisLabels(page, 'rating-history'), ['Time', 'Rating (Glicko-2)']);
  assert.ok(await inkOf(page, 'rating-history', [37, 99, 235]) > 20, 'the first player\'s line is drawn');
  await page.click('[data-testid=leaderboard] a[data-testid=player-link]:has-text("ann-bot")');
  await page.waitForSelector('[data-testid=profile-name]:has-text("ann-bot")');
  await page.waitForSelector('[data-testid=profile-rating-history] canvas');
  assert.match(await page.textContent('[data-testid=profile-ratings]'), /tictactoe/);
  const versions = await page.textContent('[data-testid=profile-versions]');
  assert.match(versions, /e2e-search:depth=1/);
  assert.match(versions, /e2e-growing/);
  assert.ok(await page.locator('[data-testid=profile-game-link]').count() >= 3, 'the recent games are linked');
  await screenshot(page, 'analysis-profile');
  await page.click(`[data-testid=profile-game-link][href="#/replay/${gameId}"]`);
  await page.waitForSelector(`.replay-view[data-game-id="${gameId}"] [data-testid=eval-graph] canvas`);
  assert.doesNotMatch(await page.textContent('main'), RAW_KEYS);
  assert.deepEqual(errors, []);
});

test('a tournament shows named standings, Elo error bars, a heat-map crosstable and its games', { timeout: 90000 }, async () => {
  const { page, errors } = b;
  const [ann, cat] = clients;
  const stop = { done: false };
  serveTournament(ann, stop);
  serveTournament(cat, stop);
  const config = { name: 'e2e-cup', game: 'tictactoe', format: 'round-robin', players: ['ann-bot', 'cat-bot'], games_per_pairing: 4, concurrency: 1, seed: 3,
    sprt: { challenger: 'ann-bot', baseline: 'cat-bot', elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 } };
  const res = await fetch(`${server.url}/api/tournaments`, { method: 'POST', headers: { Authorization: `Bearer ${createToken(server.db, 'organiser')}` }, body: JSON.stringify(config) });
  const created = await res.text();
  assert.equal(res.status, 201, created);
  const { id } = JSON.parse(created);
  let tour;
  for (let i = 0; i < 300; i++) {
    tour = await (await fetch(`${server.url}/api/tournaments/${id}`)).json();
    if (tour.status === 'finished') break;
    await sleep(100);
  }
  stop.done = true;
  assert.equal(tour.status, 'finished');
  await page.goto(`${server.url}/#/tournaments`);
  await page.waitForSelector('[data-testid=standings]');
  const headers = await page.$$eval('[data-testid=standings] th', (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(headers.slice(0, 10), ['#', 'Player', 'Games', 'Won', 'Drawn', 'Lost', 'Points', 'Score (%)', 'Elo', '± Elo (95%)']);
  await page.waitForSelector('[data-testid=elo-chart] canvas');
  assert.ok(await inkOf(page, 'elo-chart', [37, 99, 235]) > 10, 'the Elo points are drawn');
  assert.match(await page.textContent('[data-testid=elo-chart]'), /Elo.*Lower 95%.*Upper 95%/s);
  assert.deepEqual(await axisLabels(page, 'elo-chart'), ['Player', 'Elo (95% interval)']);
  // The heat map: rows and columns in one order, the diagonal on the diagonal.
  const cells = await page.$$eval('[data-testid=crosstable] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.className)));
  assert.equal(cells.length, 2);
  cells.forEach((row, i) => row.forEach((cls, j) => assert.equal(cls === 'diagonal', i === j, `cell ${i},${j}`)));
  const colours = await page.$$eval('[data-testid=crosstable] td:not(.diagonal)', (tds) => tds.map((td) => td.style.background));
  assert.ok(colours.every((c) => c.startsWith('rgb')), `heat colours: ${colours}`);
  // SPRT state, as the tournament has one.
  assert.match(await page.textContent('[data-testid=sprt]'), /ann-bot against cat-bot.*Log-likelihood ratio/s);
  // Every game linked; one opens its replay.
  const links = await page.$$eval('[data-testid=tournament-game-link]', (as) => as.map((a) => a.getAttribute('href')));
  assert.equal(links.length, tour.games_total);
  assert.ok(links.every((h) => /^#\/replay\/\d+$/.test(h)), links.join(' '));
  // Each game in its round: a round is one colour-swapped pair, so two players' four games are
  // rounds 1, 1, 2, 2.
  const rounds = await page.$$eval('[data-testid=tournament-games] tbody tr', (trs) => trs.map((tr) => tr.querySelector('td').textContent));
  assert.deepEqual(rounds, ['1', '1', '2', '2']);
  assert.doesNotMatch(await page.textContent('main'), RAW_KEYS);
  await screenshot(page, 'analysis-tournament');
  await page.click(`[data-testid=tournament-game-link][href="${links[0]}"]`);
  await page.waitForSelector(`.replay-view[data-game-id="${links[0].split('/')[2]}"] [data-testid=ply]`);
  assert.deepEqual(errors, []);
});

test('a game kind has a page of its own', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  const stats = await (await fetch(`${server.url}/api/stats?game=tictactoe`)).json();
  await page.goto(`${server.url}/`);
  await page.click('nav a[href="#/games"]');
  await page.selectOption('[data-testid=gamestats-game]', 'tictactoe');
  await page.waitForSelector('[data-testid=first-win-rate]');
  const two = stats.first_wins + stats.second_wins + stats.draws;
  assert.ok(two >= 3, `games with a result: ${two}`);
  assert.match(await page.textContent('[data-testid=first-win-rate]'), new RegExp(`${(100 * stats.first_wins / two).toFixed(1)}%`));
  assert.match(await page.textContent('[data-testid=draw-rate]'), new RegExp(`${(100 * stats.draws / two).toFixed(1)}%`));
  assert.match(await page.textContent('[data-testid=branching]'), /^\d+\.\d\d/);
  await page.waitForSelector('[data-testid=length-chart] canvas');
  assert.ok(await inkOf(page, 'length-chart', [37, 99, 235]) > 20, 'the length histogram is drawn');
  assert.deepEqual(await axisLabels(page, 'length-chart'), ['Length (plies)', 'Games']);
  const heuristics = await page.textContent('[data-testid=heuristics]');
  assert.match(heuristics, /ann-bot/);
  assert.match(heuristics, /e2e-growing/);
  assert.match(await page.textContent('[data-testid=stats-missing]'), /holds no measures of the heuristic lab/);
  assert.doesNotMatch(await page.textContent('main'), RAW_KEYS);
  await screenshot(page, 'analysis-gamestats');
  assert.deepEqual(errors, []);
});

test('without the charting library each chart says so and the page works', { timeout: 60000 }, async () => {
  const context = await b.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) errors.push(m.text()); });
  await page.route('**/node_modules/**', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found\n' }));
  await page.goto(`${server.url}/#/replay/${gameId}`);
  await page.waitForSelector('[data-testid=eval-graph] [data-testid=chart-missing]');
  assert.match(await page.textContent('[data-testid=eval-graph]'), /charting library \(uPlot\) is not installed/);
  await page.click('[data-testid=replay-first]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 0 / ${detail.moves.length}")`);
  await page.goto(`${server.url}/#/leaderboard/tictactoe`);
  await page.waitForSelector('[data-testid=rating-history] [data-testid=chart-missing]');
  assert.ok(await page.isVisible('[data-testid=leaderboard] table'), 'the table is there');
  assert.deepEqual(errors, []);
  await context.close();
});
