// Boards people know (issue 52, item 2), as a person sees them: the chess move list in SAN
// numbered per full move, the last move highlighted, resign asking first, a rematch offered
// after the game, and the replay stepped with the arrow keys, Home and End; coordinates on the
// Isolation and Othello boards, no draw offer in Isolation, "claim win" only once the
// opponent has been gone past the grace period; Othello's disc count; tic-tac-toe's winning
// line; a sliding puzzle's and the cube's goal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, ensureBinary, sleep } from './helpers.js';

let server, b;
before(async () => { ensureBinary(); server = await startServer(); b = await openBrowser(); });
after(async () => { if (b) await b.browser.close(); if (server) await server.stop(); });

// The page challenges a scripted guest to `kind`; resolves with { opp, gameId } once the
// game view shows. The guest answers with pick(legal, state) (a rejected promise is ignored).
async function challengeFromPage(kind, pick, name = 'bob') {
  const { page } = b;
  const opp = await new Client(server.wsUrl, name).hello();
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  await page.selectOption('[data-testid=new-game-kind]', kind);
  const oppName = opp.welcome.player.name;
  await page.waitForSelector(`[data-testid=new-game-opponent] option[value="${oppName}"]`, { state: 'attached' });
  await page.selectOption('[data-testid=new-game-opponent]', oppName);
  await page.click('[data-testid=new-game-submit]');
  const offer = await opp.next((m) => m.type === 'challenge_offer');
  opp.send({ type: 'accept', challenge_id: offer.challenge_id });
  const start = await opp.next((m) => m.type === 'game_start');
  opp.play(start.game_id, 1, pick).catch(() => {});
  await page.waitForURL(new RegExp(`#/game/${start.game_id}$`));
  return { opp, gameId: start.game_id };
}

async function clickSquares(page, from, to) {
  await page.click(`[data-testid=board] rect[data-square=${from}]`);
  await page.waitForSelector(`[data-testid=board] rect[data-square=${from}].selected`);
  await page.click(`[data-testid=board] rect[data-square=${to}]`);
}

test('chess: SAN numbered per full move, the last move, resign asks first, rematch, replay keys', { timeout: 90000 }, async (t) => {
  const { page, errors } = b;
  const replies = ['e7e5', 'b8c6'];
  let k = 0;
  const { opp, gameId } = await challengeFromPage('chess', () => replies[k++]);
  await page.waitForSelector('[data-testid=status]:has-text("Your move (White)")');
  await clickSquares(page, 'e2', 'e4');
  await page.waitForSelector('[data-testid=board] rect[data-square=e5][aria-label="e5 black pawn"]');
  await clickSquares(page, 'g1', 'f3');
  await page.waitForSelector('[data-testid=board] rect[data-square=c6][aria-label="c6 black knight"]');
  // SAN in the list (UCI stays in the protocol: the opponent sent b8c6), one number per full move.
  assert.deepEqual(await page.locator('[data-testid=moves] li .mv').allTextContents(), ['e4', 'e5', 'Nf3', 'Nc6']);
  assert.deepEqual(await page.locator('[data-testid=moves] li .n').allTextContents(), ['1.', '', '2.', '']);
  // The last move's two squares are highlighted, and only those.
  const last = await page.locator('[data-testid=board] rect.last').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(last, ['b8', 'c6']);
  // Coordinates along the edges.
  const coords = await page.locator('[data-testid=board] text.coord').allTextContents();
  for (const c of ['a', 'h', '1', '8']) assert.ok(coords.includes(c), `coordinate ${c}`);

  // Resign asks first; "No" keeps the game going.
  await page.click('[data-action=resign-ask]');
  await page.waitForSelector('[data-testid=resign-confirm]');
  assert.match(await page.textContent('[data-testid=resign-confirm]'), /Resign this game\?/);
  await page.click('[data-action=resign-cancel]');
  await page.waitForSelector('[data-testid=resign-confirm]', { state: 'detached' });
  await sleep(300);
  assert.equal(await page.isVisible('[data-testid=result]'), false, 'the first click did not resign');
  await page.click('[data-action=resign-ask]');
  await page.click('[data-testid=resign-confirm] [data-action=resign]');
  await page.waitForSelector('[data-testid=result]:has-text("You lost by resignation")');
  await screenshot(page, 'boards-chess-san');

  // A rematch is offered to the same opponent, same game.
  await page.click('[data-action=rematch]');
  const rematch = await opp.next((m) => m.type === 'challenge_offer');
  assert.equal(rematch.game, 'chess');
  await page.waitForSelector('[data-testid=rematch-note]');
  opp.send({ type: 'decline', challenge_id: rematch.challenge_id });

  // The replay steps with the arrow keys, Home and End (the list in SAN there too when the
  // API gives it, else in the game's own text).
  await page.goto(`${server.url}/#/replay/${gameId}`);
  await page.waitForSelector('[data-testid=ply]:has-text("ply 4 / 4")');
  assert.deepEqual(await page.locator('[data-testid=moves] li .n').allTextContents(), ['1.', '', '2.', '']);
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-testid=ply]:has-text("ply 3 / 4")');
  await page.keyboard.press('Home');
  await page.waitForSelector('[data-testid=ply]:has-text("ply 0 / 4")');
  await page.waitForSelector('[data-testid=board] rect[data-square=e2][aria-label="e2 white pawn"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid=ply]:has-text("ply 1 / 4")');
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid=ply]:has-text("ply 4 / 4")');
  t.diagnostic(`game ${gameId}: replay stepped by keys`);
  assert.deepEqual(errors, []);
  opp.close();
});

test('Isolation: coordinates, no draw offer, the last move, claim win only once the opponent is gone', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  const { opp } = await challengeFromPage('isolation', (legal) => legal[0], 'iso');
  await page.waitForSelector('[data-testid=status]:has-text("Your move")');
  const coords = await page.locator('[data-testid=board] text.coord').allTextContents();
  for (const c of ['a', 'g', '1', '7']) assert.ok(coords.includes(c), `coordinate ${c} on the Isolation board`);
  // Isolation has no draws: no offer; resign is there. The opponent is online: no claim.
  await page.waitForSelector('[data-action=resign-ask]');
  assert.equal(await page.locator('[data-action=offer_draw]').count(), 0);
  assert.equal(await page.locator('[data-action=claim_win]').count(), 0);
  // One move each: the opponent's destination is highlighted.
  const before = await page.locator('[data-testid=moves] li').count();
  await page.locator('[data-testid=board] rect.playable').first().click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=moves] li').length >= n + 2, before);
  const lastMove = await page.textContent('[data-testid=moves] li:last-child .mv');
  assert.equal(await page.locator('[data-testid=board] rect.last').getAttribute('data-square'), lastMove);
  await sleep(1500);
  assert.equal(await page.locator('[data-action=claim_win]').count(), 0, 'no claim while the opponent is connected');
  // The opponent goes away: after the grace period (2 s on this server) the claim appears.
  opp.close();
  await page.waitForSelector('[data-action=claim_win]', { timeout: 15000 });
  await screenshot(page, 'boards-isolation-claim');
  await page.click('[data-action=claim_win]');
  await page.waitForSelector('[data-testid=result]:has-text("You won by abandonment")');
  assert.deepEqual(errors, []);
});

test('Othello: coordinates and the disc count', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  const { opp } = await challengeFromPage('othello', (legal) => legal[0], 'oth');
  await page.waitForSelector('[data-testid=status]:has-text("Your move")');
  const count = page.locator('[data-testid=disc-count]');
  assert.equal(await count.getAttribute('aria-label'), 'Black 2, White 2');
  const coords = await page.locator('[data-testid=board] text.coord').allTextContents();
  for (const c of ['a', 'h', '1', '8']) assert.ok(coords.includes(c), `coordinate ${c} on the Othello board`);
  // Black's first move turns one disc: 4 against 1 until White answers.
  await page.locator('[data-testid=board] rect.playable').first().click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=moves] li').length >= 2);
  const label = await count.getAttribute('aria-label');
  const [, black, white] = /Black (\d+), White (\d+)/.exec(label).map(Number);
  const discs = await page.locator('[data-testid=board] circle.disc-black, [data-testid=board] circle.disc-white').count();
  assert.equal(black + white, discs - 2, `${label}: the count is the discs on the board (the strip has one of each)`);
  assert.equal(black + white, 6);
  assert.deepEqual(await page.locator('[data-testid=disc-count] .disc-number').allTextContents(), [String(black), String(white)]);
  await screenshot(page, 'boards-othello-count');
  assert.deepEqual(errors, []);
  opp.close();
});

test('tic-tac-toe: the winning line is drawn', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  // The guest answers in the bottom row's first two cells; the page takes the top row.
  const answers = ['a1', 'b1', 'c2'];
  let k = 0;
  const { opp } = await challengeFromPage('tictactoe', (legal) => answers.find((m, i) => i >= k && legal.includes(m) && ++k), 'ttt');
  for (const cell of ['a3', 'b3', 'c3']) {
    const n = await page.locator('[data-testid=moves] li').count();
    await page.click(`[data-testid=board] rect[data-square=${cell}].playable`);
    if (cell !== 'c3') await page.waitForFunction((m) => document.querySelectorAll('[data-testid=moves] li').length >= m + 2, n);
  }
  await page.waitForSelector('[data-testid=result]:has-text("You won")');
  // A line through the three cells (a horizontal line has no height: attached, not "visible").
  const line = await page.waitForSelector('[data-testid=win-line]', { state: 'attached' });
  assert.deepEqual(await line.evaluate((e) => ['x1', 'y1', 'x2', 'y2'].map((k) => Number(e.getAttribute(k)))), [50, 50, 250, 50]);
  const win = await page.locator('[data-testid=board] rect.win').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(win, ['a3', 'b3', 'c3']);
  const coords = await page.locator('[data-testid=board] text.coord').allTextContents();
  for (const c of ['a', 'c', '1', '3']) assert.ok(coords.includes(c), `coordinate ${c} on the tic-tac-toe board`);
  await screenshot(page, 'boards-tictactoe-win');
  assert.deepEqual(errors, []);
  opp.close();
});

test('a sliding puzzle and the cube show their goal', { timeout: 30000 }, async () => {
  const { page, errors } = b;
  await page.goto(server.url + '/#/puzzles');
  await page.selectOption('[data-testid=puzzle-kind]', 'sliding:3');
  await page.fill('[data-testid=puzzle-scramble]', '10');
  await page.click('[data-testid=puzzle-start]');
  await page.waitForSelector('[data-testid=puzzle-status]:has-text("Moves: 0")');
  const goal = page.locator('[data-testid=puzzle-goal]');
  await goal.waitFor();
  assert.match(await goal.textContent(), /Goal/);
  // The blank first, then 1..8 row by row: tile t sits in cell t.
  const tiles = await goal.locator('text.tile-number').allTextContents();
  assert.deepEqual(tiles, ['1', '2', '3', '4', '5', '6', '7', '8']);
  const firstTile = await goal.locator('rect.tile').first().boundingBox();
  const gapLeft = (await goal.locator('rect.tray').boundingBox()).x;
  assert.ok(firstTile.x > gapLeft + firstTile.width / 2, 'tile 1 is in the second cell: the gap is first');
  await screenshot(page, 'boards-puzzle-goal');
  await page.selectOption('[data-testid=puzzle-kind]', 'rubik');
  await page.click('[data-testid=puzzle-start]');
  await page.waitForSelector('[data-testid=puzzle-status]:has-text("Moves: 0")');
  await page.waitForSelector('[data-testid=puzzle-goal] rect.sticker');
  // Solved: every face of the goal cube shows one colour.
  const faces = await page.locator('[data-testid=puzzle-goal] rect.sticker').evaluateAll((els) => {
    const by = {};
    for (const e of els) (by[e.dataset.face] ||= new Set()).add(e.getAttribute('class'));
    return Object.values(by).map((s) => s.size);
  });
  assert.deepEqual(faces, [1, 1, 1, 1, 1, 1]);
  assert.deepEqual(errors, []);
});
