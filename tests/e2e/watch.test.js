// A spectator watches two bots play Othello: the board, the move list and the bots' search
// info (depth, score, PV) update live.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, createToken, ensureBinary } from './helpers.js';

let server, b, alpha, beta;
before(async () => {
  ensureBinary();
  server = await startServer();
  alpha = await new Client(server.wsUrl, 'alpha', createToken(server.db, 'alpha')).hello();
  beta = await new Client(server.wsUrl, 'beta', createToken(server.db, 'beta')).hello();
  b = await openBrowser();
});
after(async () => {
  for (const c of [alpha, beta]) if (c) c.close();
  if (b) await b.browser.close();
  if (server) await server.stop();
});

test('watching a bot-against-bot Othello game update live, with search info', { timeout: 60000 }, async (t) => {
  assert.equal(alpha.welcome.player.bot, true, 'a token makes a bot');
  const { page, errors } = b;
  // The bots move every 400 ms and report a made-up but well-formed search.
  const info = (move, state) => ({ depth: 3 + (state.version % 4), nodes: 1000 + state.version, score: state.version % 7 - 3, pv: [move], time_ms: 5 });
  alpha.send({ type: 'seek', game: 'othello', options: '', time_control: 'none' });
  const { seek_id: seekId } = await alpha.next((m) => m.type === 'seek_created');
  beta.send({ type: 'accept', seek_id: seekId });
  const start = await alpha.next((m) => m.type === 'game_start');
  const games = [alpha.play(start.game_id, 0, (l) => l[0], { delay: 400, info }), beta.play(start.game_id, 1, (l) => l.at(-1), { delay: 400, info })];
  games.forEach((p) => p.catch(() => {}));

  await page.goto(server.url + '/');
  await page.waitForSelector(`[data-testid=live-games] li[data-game="${start.game_id}"]`);
  await page.waitForSelector(`[data-testid=live-games] li[data-game="${start.game_id}"] .badge.bot`);
  await screenshot(page, 'watch-lobby');
  await page.click(`[data-testid=live-games] li[data-game="${start.game_id}"] [data-testid=watch-game]`);
  await page.waitForSelector('[data-testid=status]:has-text("Watching")');
  const discs = () => page.locator('[data-testid=board] circle.disc-black, [data-testid=board] circle.disc-white').count();
  const moves = () => page.locator('[data-testid=moves] li').count();
  const d0 = await discs(), m0 = await moves();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=moves] li').length >= n + 3, m0, { timeout: 15000 });
  assert.ok(await discs() > d0, 'more discs on the board as the game goes on');
  // No clickable squares for a spectator.
  assert.equal(await page.locator('[data-testid=board] rect.playable').count(), 0);
  await page.waitForSelector('[data-testid=search-info]:has-text("depth")');
  const infoText = await page.textContent('[data-testid=search-info]');
  assert.match(infoText, /alpha: depth \d+/);
  assert.match(infoText, /PV [a-h][1-8]/);
  t.diagnostic(`search info: ${infoText.replace(/\s+/g, ' ')}`);
  // Both scores in one point of view, the first seat's (as the evaluation graph): the second
  // seat's own score (beta sent it from its side) is shown negated.
  assert.match(infoText, /Scores from alpha's side/);
  await page.waitForSelector('[data-testid=search-info]:has-text("beta: depth")');
  const betaText = await page.textContent('[data-testid=search-info]');
  const shown = /beta: depth \d+ · score ([+-]?\d+) · (\d+) nodes/.exec(betaText);
  assert.ok(shown, betaText);
  const detail = await (await fetch(`${server.url}/api/games/${start.game_id}`)).json();
  const sent = detail.moves.find((m) => m.seat === 1 && m.info && m.info.nodes === Number(shown[2]));
  assert.ok(sent, `beta's move of ${shown[2]} nodes is stored`);
  assert.equal(Number(shown[1]), -sent.info.score, "the second seat's score is negated");
  await screenshot(page, 'watch-othello');
  // A player's name in the game view leads to the player's profile.
  await page.click('.seat a[data-testid=player-link]:has-text("beta")');
  await page.waitForURL(new RegExp(`#/players/${beta.welcome.player.id}$`));
  await page.waitForSelector('[data-testid=profile-name]:has-text("beta")');
  assert.deepEqual(errors, []);
});
