// The first moves of a chess game played by clicking (piece, then target), a lost connection
// with its banner and the automatic resume, and the same page on a phone-sized screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, ensureBinary } from './helpers.js';

let server, b, opp;
before(async () => {
  ensureBinary();
  server = await startServer();
  b = await openBrowser();
  // A scripted opponent (a guest, like a second person): accepts and answers e7e5, b8c6, ...
  opp = await new Client(server.wsUrl, 'bob').hello();
});
after(async () => { if (opp) opp.close(); if (b) await b.browser.close(); if (server) await server.stop(); });

async function clickSquares(page, from, to) {
  await page.click(`[data-testid=board] rect[data-square=${from}]`);
  // The piece's targets are marked once it is selected.
  await page.waitForSelector(`[data-testid=board] rect[data-square=${from}].selected`);
  await page.click(`[data-testid=board] rect[data-square=${to}]`);
}

const replies = ['e7e5', 'b8c6', 'g8f6'];

test('chess: the first moves by clicking, a reconnection, and a phone-sized screen', { timeout: 60000 }, async (t) => {
  const { page, errors } = b;
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  await page.selectOption('[data-testid=new-game-kind]', 'chess');
  await page.selectOption('[data-testid=new-game-tc]', 'fischer:300000+3000');
  const bob = opp.welcome.player.name;  // guests are named NAME#ID
  await page.waitForSelector(`[data-testid=new-game-opponent] option[value="${bob}"]`, { state: 'attached' });
  await page.selectOption('[data-testid=new-game-opponent]', bob);
  await page.click('[data-testid=new-game-submit]');
  const offer = await opp.next((m) => m.type === 'challenge_offer');
  opp.send({ type: 'accept', challenge_id: offer.challenge_id });
  const start = await opp.next((m) => m.type === 'game_start');
  const gameId = start.game_id;
  let reply = 0;
  const answer = opp.play(gameId, 1, (legal) => {
    const want = replies[reply++];
    assert.ok(legal.includes(want), `${want} is legal`);
    return want;
  });
  answer.catch(() => {});
  await page.waitForURL(new RegExp(`#/game/${gameId}$`));
  await page.waitForSelector('[data-testid=status]:has-text("Your move (White)")');
  // A black piece cannot be selected by White; the clocks show 5:00.
  assert.equal(await page.textContent('[data-testid=clock-1]'), '5:00');

  await clickSquares(page, 'e2', 'e4');
  await page.waitForSelector('[data-testid=board] rect[data-square=e4][aria-label="e4 white pawn"]');
  await page.waitForSelector('[data-testid=board] rect[data-square=e5][aria-label="e5 black pawn"]');
  await clickSquares(page, 'g1', 'f3');
  await page.waitForSelector('[data-testid=board] rect[data-square=c6][aria-label="c6 black knight"]');
  // The list in SAN (the moves travel in UCI).
  assert.deepEqual(await page.locator('[data-testid=moves] li .mv').allTextContents(), ['e4', 'e5', 'Nf3', 'Nc6']);
  await screenshot(page, 'chess-desktop');

  // The connection drops: the banner says so, the page reconnects and resumes the game.
  await page.evaluate(() => window.arena.conn.ws.close());
  await page.waitForSelector('[data-testid=reconnect-banner]:not([hidden])');
  await screenshot(page, 'chess-reconnecting');
  await page.waitForSelector('[data-testid=reconnect-banner]', { state: 'hidden', timeout: 15000 });
  await clickSquares(page, 'f1', 'c4');
  await page.waitForSelector('[data-testid=board] rect[data-square=f6][aria-label="f6 black knight"]');
  assert.deepEqual(await page.locator('[data-testid=moves] li .mv').allTextContents(),
    ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6']);
  t.diagnostic(`clocks: ${await page.textContent('[data-testid=clock-0]')} / ${await page.textContent('[data-testid=clock-1]')}`);

  // The same game on a phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal overflow on a phone (${overflow}px)`);
  await screenshot(page, 'chess-phone');
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  const lobbyOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(lobbyOverflow <= 0, `no horizontal overflow in the lobby on a phone (${lobbyOverflow}px)`);
  await screenshot(page, 'lobby-phone');
  await page.setViewportSize({ width: 1280, height: 860 });
  assert.deepEqual(errors.filter((e) => !/WebSocket/.test(e)), []);
});
