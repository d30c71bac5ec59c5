// A new visitor opens the page, starts tic-tac-toe against a bot, plays to the end by
// clicking, and sees the result; then solves an 8-puzzle scrambled by one move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, createToken, ensureBinary, sleep } from './helpers.js';

let server, b;
before(async () => { ensureBinary(); server = await startServer({ houseBots: true }); b = await openBrowser(); });
after(async () => { if (b) await b.browser.close(); if (server) await server.stop(); });

// A house bot when the server has them, else a scripted bot client (labelled a bot by its token).
async function opponent(t) {
  for (let i = 0; i < 10; i++) {
    const players = await (await fetch(`${server.url}/api/players`)).json();
    const house = players.find((p) => p.bot);
    if (house) { t.diagnostic(`opponent: house bot ${house.name}`); return { name: house.name, client: null }; }
    await sleep(200);
  }
  const name = 'scripted-bot';
  const client = await new Client(server.wsUrl, name, createToken(server.db, name)).hello();
  t.diagnostic('opponent: scripted bot client (no house bots on this server)');
  // It accepts the challenge and plays the first legal move each turn.
  client.next((m) => m.type === 'challenge_offer').then(async (offer) => {
    client.send({ type: 'accept', challenge_id: offer.challenge_id });
    const start = await client.next((m) => m.type === 'game_start');
    await client.play(start.game_id, 1, (legal) => legal[0]);
  }).catch(() => {});
  return { name, client };
}

// Plays the page's seat by clicking the first playable square (`selector`) whenever there is
// one, until the result shows; at most `maxClicks` clicks. Returns the number of clicks.
async function playByClicking(page, selector, maxClicks, why) {
  let clicks = 0;
  while (!(await page.isVisible('[data-testid=result]'))) {
    const before = await page.locator('[data-testid=moves] li').count();
    const target = page.locator(selector).first();
    if (await target.count()) {
      await target.click();
      clicks++;
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=moves] li').length > n ||
        !document.querySelector('[data-testid=result]').hidden, before, { timeout: 30000 });
    } else {
      await sleep(50);
    }
    assert.ok(clicks <= maxClicks, why);
  }
  return clicks;
}

test('tic-tac-toe against a bot, played to the end by clicking', { timeout: 60000 }, async (t) => {
  const { page, errors } = b;
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  const opp = await opponent(t);
  await page.selectOption('[data-testid=new-game-kind]', 'tictactoe');
  await page.waitForSelector(`[data-testid=new-game-opponent] option[value="${opp.name}"]`, { state: 'attached' });
  // The bot is labelled as one in the online list.
  await page.waitForSelector(`[data-testid=players] li:has-text("${opp.name}") .badge.bot`);
  await screenshot(page, 'tictactoe-lobby');
  // A house bot's own tic-tac-toe offer is accepted from the list; otherwise it is challenged.
  const offer = page.locator('[data-testid=seeks] li', { hasText: 'tictactoe' }).filter({ has: page.locator('.badge.bot') });
  if (!opp.client && await offer.count()) {
    await offer.first().locator('[data-testid=accept-seek]').click();
  } else {
    await page.selectOption('[data-testid=new-game-opponent]', opp.name);
    await page.click('[data-testid=new-game-submit]');
  }
  await page.waitForURL(/#\/game\/\d+/, { timeout: 10000 });
  await page.waitForSelector('[data-testid=board] rect');

  const clicks = await playByClicking(page, '[data-testid=board] rect.playable', 5,
    'a player makes at most five moves in tic-tac-toe');
  const result = await page.textContent('[data-testid=result]');
  t.diagnostic(`result shown: ${result}`);
  assert.match(result, /You won|You lost|Draw/);
  assert.doesNotMatch(result, /null|undefined/);
  // The page shows what the server recorded.
  const id = Number(/#\/game\/(\d+)/.exec(page.url())[1]);
  let detail;
  for (let i = 0; i < 20 && !(detail && detail.result); i++) { detail = await (await fetch(`${server.url}/api/games/${id}`)).json(); await sleep(100); }
  // Which seat the page's player had: the challenger (or the seeker) plays first.
  const seat = (await page.textContent('.seat:has-text("(you)") .side')) === 'X' ? 0 : 1;
  const expected = { '1-0': seat === 0 ? 'You won' : 'You lost', '0-1': seat === 1 ? 'You won' : 'You lost', '1/2-1/2': 'Draw' }[detail.result];
  assert.ok(result.includes(expected), `server result ${detail.result} matches "${result}"`);
  assert.equal(await page.locator('[data-testid=moves] li').count(), detail.moves.length);
  await screenshot(page, 'tictactoe-result');
  assert.deepEqual(errors, []);
  if (opp.client) opp.client.close();
});

test('an 8-puzzle scrambled by one move is solved by one click', { timeout: 30000 }, async () => {
  const { page } = b;
  await page.goto(server.url + '/#/puzzles');
  await page.selectOption('[data-testid=puzzle-kind]', 'sliding:3');
  await page.fill('[data-testid=puzzle-scramble]', '1');
  await page.click('[data-testid=puzzle-start]');
  await page.waitForSelector('[data-testid=puzzle-status]:has-text("Moves: 0")');
  // The goal has the blank first: one move away, so the tile in the top-left cell goes back.
  const tiles = await page.locator('[data-testid=board] rect.tile.playable').count();
  assert.ok(tiles >= 2, 'the tiles next to the blank can be clicked');
  const text = await page.locator('[data-testid=board] text').allTextContents();
  assert.equal(text.length, 8, 'eight numbered tiles');
  // Find the tile in cell 0 (x,y near the origin) and click it.
  const first = page.locator('[data-testid=board] rect.tile[x="0.8"][y="0.8"]');
  await first.click();
  await page.waitForSelector('[data-testid=puzzle-result]:has-text("Solved in 1 move")');
  await screenshot(page, 'puzzle-solved');
  // A double click starts one puzzle: the button waits for the new puzzle's state (the server
  // prepares one puzzle_start per player and would answer a second one `busy`).
  await page.dblclick('[data-testid=puzzle-start]');
  await page.waitForSelector('[data-testid=puzzle-status]:has-text("Moves: 0")');
  assert.equal(await page.isEnabled('[data-testid=puzzle-start]'), true);
  await page.waitForTimeout(300);
  assert.equal(await page.textContent('.puzzle-view p.error'), '', 'no error on a double click');
});

// GDL sheets have no house bot of their own each: house_gdl_uct takes any open offer of a
// sheet. The page offers GDL tic-tac-toe to anyone, the house bot takes it and the game is
// played to the end by clicking the grid.
test('an open offer of a GDL sheet is taken by the GDL house bot', { timeout: 90000 }, async (t) => {
  const { page, errors } = b;
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  await page.waitForSelector('[data-testid=players] li:has-text("house_gdl_uct") .badge.bot');
  await page.selectOption('[data-testid=new-game-kind]', 'gdl:tictactoe');
  await page.selectOption('[data-testid=new-game-opponent]', '');  // anyone: an open offer
  await page.click('[data-testid=new-game-submit]');
  await page.waitForURL(/#\/game\/\d+/, { timeout: 20000 });
  await page.waitForSelector('[data-testid=gdl-grid] .gdl-cell');
  await page.waitForSelector('.seat:has-text("house_gdl_uct")');
  const clicks = await playByClicking(page, '[data-testid=gdl-grid] .gdl-cell.playable', 5,
    'the first player makes at most five moves');
  const result = await page.textContent('[data-testid=result]');
  t.diagnostic(`GDL tic-tac-toe against house_gdl_uct: ${result} after ${clicks} clicks`);
  assert.match(result, /You won|You lost|Draw/);
  assert.doesNotMatch(result, /null|undefined/);
  await screenshot(page, 'gdl-house-bot');
  assert.deepEqual(errors, []);
});

// A sheet of three roles: the person's open offer is joined by two GDL house bots (the ones
// that take only offers of three seats or more, and house_gdl_uct), which play their seats to
// the end while the person plays the first by clicking the grid.
test('an open offer of a three-role sheet is filled by GDL house bots', { timeout: 120000 }, async (t) => {
  const { page } = b;
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  await page.waitForSelector('[data-testid=players] li:has-text("house_gdl_random") .badge.bot');
  await page.selectOption('[data-testid=new-game-kind]', 'gdl:tictactoe_3player');
  await page.selectOption('[data-testid=new-game-opponent]', '');
  await page.click('[data-testid=new-game-submit]');
  await page.waitForURL(/#\/game\/\d+/, { timeout: 30000 });
  await page.waitForSelector('[data-testid=gdl-grid] .gdl-cell');
  assert.equal(await page.locator('.seat').count(), 3);
  assert.equal(await page.locator('.seat:has-text("house_gdl_")').count(), 2);
  const clicks = await playByClicking(page, '[data-testid=gdl-grid] .gdl-cell.playable', 13,
    'the first of three players makes at most thirteen moves');
  const result = await page.textContent('[data-testid=result]');
  t.diagnostic(`GDL three-player tic-tac-toe against two house bots: ${result} after ${clicks} clicks`);
  assert.ok(clicks >= 1);
});

// A sheet of six roles (three-dimensional tic-tac-toe, each coordinate a role of its team): the
// server starts enough GDL house bots for its largest sheet, so the person's open offer fills
// with five of them; the person plays the first role with the move buttons to the end.
test(
    'an open offer of a six-role sheet is filled by five GDL house bots', {timeout: 180000},
    async (t) => {
      const {page} = b;
      await page.goto(server.url + '/');
      await page.waitForSelector('[data-testid=who]:has-text("You:")');
      await page.waitForSelector(
          '[data-testid=players] li:has-text("house_gdl_random_6") .badge.bot');
      await page.selectOption('[data-testid=new-game-kind]', 'gdl:tictactoe_3d_small_6player');
      await page.selectOption('[data-testid=new-game-opponent]', '');
      await page.click('[data-testid=new-game-submit]');
      await page.waitForURL(/#\/game\/\d+/, {timeout: 30000});
      await page.waitForSelector('.seat:has-text("house_gdl_random_6")', {timeout: 30000});
      assert.equal(await page.locator('.seat').count(), 6);
      assert.equal(await page.locator('.seat:has-text("house_gdl_")').count(), 5);
      const clicks = await playByClicking(
          page, '[data-testid=gdl-moves] button', 40,
          'the first of six roles makes at most forty moves');
      const result = await page.textContent('[data-testid=result]');
      t.diagnostic(
          `GDL six-role tic-tac-toe against five house bots: ${result} after ${clicks} clicks`);
      assert.ok(clicks >= 1);
      assert.doesNotMatch(result, /null|undefined/);
    });
