// A finished game opened from the lobby and stepped through; its export downloaded; the
// leaderboard of the game shows both players.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, openBrowser, screenshot, Client, createToken, playScriptedGame, ensureBinary, sleep } from './helpers.js';

let server, b, gameId, end;
before(async () => {
  ensureBinary();
  server = await startServer();
  const a = await new Client(server.wsUrl, 'ann-bot', createToken(server.db, 'ann-bot')).hello();
  const c = await new Client(server.wsUrl, 'cat-bot', createToken(server.db, 'cat-bot')).hello();
  ({ gameId, end } = await playScriptedGame(a, c, 'tictactoe'));
  a.close();
  c.close();
  b = await openBrowser();
});
after(async () => { if (b) await b.browser.close(); if (server) await server.stop(); });

test('a finished game is replayed step by step and exported', { timeout: 60000 }, async (t) => {
  const { page, errors } = b;
  const detail = await (await fetch(`${server.url}/api/games/${gameId}`)).json();
  const n = detail.moves.length;
  t.diagnostic(`game ${gameId}: ${detail.moves.map((m) => m.move).join(' ')} ${end.result} (${end.reason})`);
  await page.goto(server.url + '/');
  await page.click(`[data-testid=finished-games] a[href="#/replay/${gameId}"]`);
  await page.waitForSelector(`[data-testid=ply]:has-text("ply ${n} / ${n}")`);
  // At the end: the final position (as the server recorded it) and the result.
  const marks = () => page.locator('[data-testid=board] .mark-x, [data-testid=board] .mark-o').count();
  assert.equal(await marks(), n);
  assert.match(await page.textContent('[data-testid=result]'), /wins|Draw/);
  await page.click('[data-testid=replay-first]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 0 / ${n}")`);
  assert.equal(await marks(), 0, 'the start position is empty');
  await page.click('[data-testid=replay-next]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 1 / ${n}")`);
  assert.equal(await page.textContent('[data-testid=moves] li.current .mv'), detail.moves[0].move);
  // Every ply is shown as it was (the server sends the position after each move).
  assert.ok(detail.moves.every((m) => typeof m.position === 'string'), 'a position per move');
  assert.equal(await marks(), 1, 'after the first move, one mark');
  assert.equal(await page.locator('[data-testid=board].inexact, [data-testid=board] .inexact').count(), 0);
  await page.click('[data-testid=replay-next]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 2 / ${n}")`);
  assert.equal(await marks(), 2, 'after the second move, two marks');
  await page.click('[data-testid=replay-prev]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 1 / ${n}")`);
  await screenshot(page, 'replay-step');
  await page.click('[data-testid=replay-play]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply ${n} / ${n}")`, { timeout: 15000 });
  assert.equal(await marks(), n);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  assert.ok(detail.moves.every((m) => text.includes(m.move)), 'the export lists every move');
  t.diagnostic(`downloaded ${download.suggestedFilename()}`);
  await screenshot(page, 'replay-end');
  assert.deepEqual(errors, []);
});

test('the leaderboard shows the players of a rated game', { timeout: 30000 }, async () => {
  const { page } = b;
  let rows = [];
  for (let i = 0; i < 30 && rows.length < 2; i++) { rows = await (await fetch(`${server.url}/api/leaderboard?game=tictactoe`)).json(); await sleep(100); }
  await page.goto(server.url + '/#/leaderboard/tictactoe');
  await page.waitForSelector('[data-testid=leaderboard] table');
  const text = await page.textContent('[data-testid=leaderboard]');
  for (const r of rows) {
    assert.ok(text.includes(r.name), `${r.name} is listed`);
    assert.ok(text.includes(String(Math.round(r.rating))), `${r.name}'s rating ${Math.round(r.rating)} is shown`);
  }
  assert.ok(rows.length >= 2, 'both players are rated');
  await screenshot(page, 'leaderboard');
});
