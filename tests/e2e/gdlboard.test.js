// GDL drawn as a board (issue 52, item 3): the page derives the picture from the state's facts
// (web/js/boards/gdl_grid.js), with a legend naming each content, and moves are made by
// clicking where they name cells: connect four by a column, tic-tac-toe by a cell, breakthrough
// from-to with two clicks. A scripted player (first legal move) holds the other seat.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, createToken, ensureBinary } from './helpers.js';

let server, b;
before(async () => { ensureBinary(); server = await startServer(); b = await openBrowser(); });
after(async () => { if (b) await b.browser.close(); if (server) await server.stop(); });

// A protocol-2 player of seat 0 that plays its first legal move whenever it is among the movers.
async function scriptedSeek(name, game) {
  const client = await new Client(server.wsUrl, name, createToken(server.db, name)).hello();
  client.send({ type: 'seek', game, options: '', time_control: 'none' });
  await client.next((m) => m.type === 'seek_created');
  const start = await client.next((m) => m.type === 'game_start');
  (async () => {
    let n = 0;
    for (;;) {
      const m = await client.next((x) => x.game_id === start.game_id && (x.type === 'game_end' ||
        (x.type === 'state' && !x.result && (x.movers || [x.to_move]).includes(0))), 120000);
      if (m.type === 'game_end') return;
      const legal = m.legal_moves_by_seat ? m.legal_moves_by_seat[0] : m.legal_moves;
      client.send({ type: 'move', game_id: start.game_id, move: legal[0], client_id: `${name}-${++n}` });
    }
  })().catch(() => {});
  return client;
}

// The scripted player seeks `game`; the page accepts; resolves with the client once the page's
// grid is drawn.
async function playAgainstScript(game, name) {
  const { page } = b;
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  const clientP = scriptedSeek(name, game);
  const offer = page.locator('[data-testid=seeks] li', { hasText: game });
  await offer.first().waitFor();
  await offer.first().locator('[data-testid=accept-seek]').click();
  await page.waitForURL(/#\/game\/\d+/, { timeout: 15000 });
  const client = await clientP;
  await page.waitForSelector('[data-testid=gdl-grid] .gdl-cell');
  return client;
}

const content = (page, square) => page.getAttribute(`[data-testid=gdl-grid] [data-square="${square}"]`, 'data-content');
const legendNames = (page) => page.locator('[data-testid=gdl-legend] .gdl-legend-name').allTextContents();

test('connect four is played by clicking a column; the legend names the pieces', { timeout: 90000 }, async () => {
  const { page, errors } = b;
  const client = await playAgainstScript('gdl:connectFour', 'c4-bot');
  // Red (the script) drops first; then the page (black) may click any cell of a column.
  await page.waitForSelector('[data-testid=status]:has-text("Your move")');
  await page.waitForSelector('[data-testid=gdl-legend] li[data-content=red]');
  // Column 4, clicked in its top cell: the disc falls to the lowest empty cell.
  const column = await page.locator('[data-testid=gdl-grid] .gdl-cell').evaluateAll((els) =>
    els.map((e) => e.dataset.square).filter((s) => s.split(' ')[0] === '4'));
  const top = column[0];  // drawn top first
  const bottom = column.at(-1);
  const landing = (await content(page, bottom)) === 'red' ? column.at(-2) : bottom;
  assert.notEqual(top, landing, 'the clicked cell is not where the disc lands');
  await page.click(`[data-testid=gdl-grid] [data-square="${top}"].playable`);
  await page.waitForFunction((sq) => document.querySelector(`[data-testid=gdl-grid] [data-square="${sq}"]`).dataset.content === 'black', landing);
  assert.deepEqual((await legendNames(page)).sort(), ['black', 'red']);
  // The pieces are drawn as discs of their colour, not as words.
  const colour = await page.locator(`[data-testid=gdl-grid] [data-square="${landing}"] .gdl-piece`).evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(colour, 'rgb(27, 27, 27)');
  assert.equal((await page.textContent(`[data-testid=gdl-grid] [data-square="${landing}"]`)).trim(), '');
  // The other facts are listed beside the board.
  assert.match(await page.textContent('[data-testid=gdl-facts]'), /\(control (red|black)\)/);
  await screenshot(page, 'gdlboard-connect-four');
  assert.deepEqual(errors, []);
  client.close();
});

test('tic-tac-toe is played by clicking a cell; the legend names x and o', { timeout: 90000 }, async () => {
  const { page, errors } = b;
  const client = await playAgainstScript('gdl:tictactoe', 'ttt-bot');
  await page.waitForSelector('[data-testid=gdl-grid] .gdl-cell.playable');
  const cell = page.locator('[data-testid=gdl-grid] .gdl-cell.playable').first();
  const square = await cell.getAttribute('data-square');
  await cell.click();
  await page.waitForFunction((sq) => document.querySelector(`[data-testid=gdl-grid] [data-square="${sq}"]`).dataset.content === 'o', square);
  await page.waitForSelector('[data-testid=gdl-legend] li[data-content=o]');
  assert.deepEqual((await legendNames(page)).sort(), ['o', 'x']);
  // The blank cells (b) are drawn empty; the marks as pieces with their letter.
  const blank = page.locator('[data-testid=gdl-grid] .gdl-cell[data-content=b]').first();
  assert.equal(await blank.locator('.gdl-piece').count(), 0);
  assert.equal(await page.textContent(`[data-testid=gdl-grid] [data-square="${square}"] .gdl-piece`), 'O');
  // Coordinates along two edges: 1..3 both ways.
  assert.deepEqual(await page.locator('[data-testid=gdl-grid] .gdl-file').allTextContents(), ['1', '2', '3']);
  assert.deepEqual(await page.locator('[data-testid=gdl-grid] .gdl-rank').allTextContents(), ['3', '2', '1']);
  await screenshot(page, 'gdlboard-tictactoe');
  assert.deepEqual(errors, []);
  client.close();
});

test('breakthrough is played from-to with two clicks', { timeout: 90000 }, async (t) => {
  const { page, errors } = b;
  const client = await playAgainstScript('gdl:breakthrough', 'bt-bot');
  await page.waitForSelector('[data-testid=status]:has-text("Your move")');
  assert.deepEqual((await legendNames(page)).sort(), ['black', 'white']);
  // The page plays black (the second role): its pieces stand on rows 7 and 8 (the top).
  const from = '1 7';
  assert.equal(await content(page, from), 'black');
  await page.click(`[data-testid=gdl-grid] [data-square="${from}"].playable`);
  await page.waitForSelector(`[data-testid=gdl-grid] [data-square="${from}"].selected`);
  const targets = await page.locator('[data-testid=gdl-grid] .gdl-cell.target').evaluateAll((els) => els.map((e) => e.dataset.square));
  t.diagnostic(`targets of ${from}: ${targets.join(', ')}`);
  assert.ok(targets.includes('1 6'), 'straight ahead is a target');
  const before = await page.locator('[data-testid=moves] li').count();
  await page.click('[data-testid=gdl-grid] [data-square="1 6"].target');
  await page.waitForFunction(() => document.querySelector('[data-testid=gdl-grid] [data-square="1 6"]').dataset.content === 'black');
  assert.equal(await content(page, from), '');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=moves] li').length > n, before);
  assert.match(await page.textContent('[data-testid=moves]'), /\(move 1 7 1 6\)/);
  await screenshot(page, 'gdlboard-breakthrough');
  assert.deepEqual(errors, []);
  client.close();
});
