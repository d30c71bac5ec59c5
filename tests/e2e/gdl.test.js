// GDL games on the page (protocol version 2): a scripted player seeks GDL tic-tac-toe
// (gdl:tictactoe, the sheet from ggp-base) and the page accepts, plays by clicking the cells
// of the grid the server found in the state's (cell ROW COL MARK) facts, sees the result and
// replays the game (a sheet the reader refuses is listed disabled, with its reason); then a
// simultaneous game (the iterated prisoner's dilemma, gt_prisoner), whose state has no grid,
// is played with the move buttons while the page lists its facts;
// then a sheet whose goal rules have a bug ends after one move and the result shows the note
// game_end carries (protocol version 3), which the API and the replay give from the store; last, a
// sheet of one role is played on the puzzles page, solved by clicking its grid and ended short of
// its goal with the move buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, screenshot, Client, createToken, ensureBinary, sleep } from './helpers.js';

// A sheet with a bug: white's goal rules give it no value at the end, which one move reaches.
const NO_GOAL = `(role white) (role black) (init (control white))
(<= (legal white go) (true (control white)))
(<= (legal black noop) (true (control white)))
(<= (next done) (does white go))
(<= terminal (true done))
(<= (goal black 100) (true done)) (<= (goal black 0) (not (true done)))
(<= (goal white 0) (not (true done)))
`;

// A puzzle of one role: four lights, a press toggles one; all on (goal 100) ends it, and so
// does the fifth press (goal 10). Its name ends in "Puzzle" as eightPuzzle's does: the page
// must still draw the sheet's grid, not its sliding-tile board.
const LIGHTS = `(role p)
(init (cell 1 1 off)) (init (cell 1 2 off)) (init (cell 2 1 off)) (init (cell 2 2 off))
(init (step 0))
(<= (legal p (press ?r ?c)) (true (cell ?r ?c ?s)))
(<= (pressed ?r ?c) (does p (press ?r ?c)))
(<= (next (cell ?r ?c on)) (pressed ?r ?c) (true (cell ?r ?c off)))
(<= (next (cell ?r ?c off)) (pressed ?r ?c) (true (cell ?r ?c on)))
(<= (next (cell ?r ?c ?s)) (true (cell ?r ?c ?s)) (not (pressed ?r ?c)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= allon (true (cell 1 1 on)) (true (cell 1 2 on)) (true (cell 2 1 on)) (true (cell 2 2 on)))
(<= terminal allon) (<= terminal (true (step 5)))
(<= (goal p 100) allon) (<= (goal p 10) (not allon))
`;

// A sheet the reader refuses: ?a occurs in no positive literal of its rule (GDL's safety).
const UNSAFE = `${NO_GOAL}(<= (twice ?a) (true done))
`;

let server, b;
before(async () => {
  ensureBinary();
  server = await startServer({ gdlSheets: { nogoal: NO_GOAL, lightsPuzzle: LIGHTS, unsafe: UNSAFE } });
  b = await openBrowser();
});
after(async () => { if (b) await b.browser.close(); if (server) await server.stop(); });

// A protocol-2 scripted player: every turn its seat is among state.movers it plays its first
// legal move (legal_moves_by_seat in simultaneous games); resolves with the game_end.
async function playSeat(client, gameId, seat) {
  let n = 0;
  for (;;) {
    const m = await client.next((x) => x.game_id === gameId && (x.type === 'game_end' ||
      (x.type === 'state' && !x.result && (x.movers || [x.to_move]).includes(seat))), 60000);
    if (m.type === 'game_end') return m;
    const legal = m.legal_moves_by_seat ? m.legal_moves_by_seat[seat] : m.legal_moves;
    client.send({ type: 'move', game_id: gameId, move: legal[0], client_id: `${client.name}-${++n}` });
  }
}

async function scriptedSeek(name, game) {
  const client = await new Client(server.wsUrl, name, createToken(server.db, name)).hello();
  client.send({ type: 'seek', game, options: '', time_control: 'none' });
  await client.next((m) => m.type === 'seek_created');
  const start = client.next((m) => m.type === 'game_start');
  const done = start.then((s) => playSeat(client, s.game_id, 0));
  return { client, start, done };
}

async function acceptOnPage(page, game) {
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=who]:has-text("You:")');
  const offer = page.locator('[data-testid=seeks] li', { hasText: game });
  await offer.first().waitFor();
  await offer.first().locator('[data-testid=accept-seek]').click();
  await page.waitForURL(/#\/game\/\d+/, { timeout: 15000 });
  return Number(/#\/game\/(\d+)/.exec(page.url())[1]);
}

test('a sheet the reader refuses is listed, disabled, with the reason', { timeout: 30000 }, async () => {
  const { page } = b;
  await page.goto(server.url + '/');
  const refused = page.locator('[data-testid=new-game-kind] option[value="gdl:unsafe"]');
  await refused.waitFor({ state: 'attached' });
  assert.equal(await refused.isDisabled(), true);
  assert.match(await refused.textContent(), /does not load/);
  assert.match(await refused.getAttribute('title'), /unsafe\.kif:\d+: .*safety/);
  const loads = page.locator('[data-testid=new-game-kind] option[value="gdl:nogoal"]');
  assert.equal(await loads.isDisabled(), false);
  assert.equal(await loads.getAttribute('title'), null);
});

test('GDL tic-tac-toe is played by clicking the grid, then replayed', { timeout: 90000 }, async (t) => {
  const { page, errors } = b;
  // The new-game form offers the GDL sheets too.
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-testid=new-game-kind] option[value="gdl:tictactoe"]', { state: 'attached' });
  const opp = await scriptedSeek('sheet-bot', 'gdl:tictactoe');
  const id = await acceptOnPage(page, 'gdl:tictactoe');
  // A 3 x 3 grid from the state's facts; the control fact is listed beside it.
  await page.waitForSelector('[data-testid=gdl-grid] [data-square="3 3"]');
  assert.equal(await page.locator('[data-testid=gdl-grid] .gdl-cell').count(), 9);
  // Drawn as GGP sheets write cells, (cell X Y ...): the first argument left to right, the
  // second bottom to top, so the top row is (cell _ 3 _) and the bottom right (cell 3 1 _).
  const squares = await page.locator('[data-testid=gdl-grid] .gdl-cell').evaluateAll((els) => els.map((e) => e.dataset.square));
  assert.deepEqual([squares[0], squares[2], squares[6], squares[8]], ['1 3', '3 3', '1 1', '3 1']);
  assert.match(await page.textContent('[data-testid=gdl-facts]'), /\(control (xplayer|oplayer)\)/);
  // The page's player is the second seat: oplayer, shown by its role name.
  await page.waitForSelector('.seat:has-text("(you)") .side:has-text("oplayer")');
  let clicks = 0;
  while (!(await page.isVisible('[data-testid=result]'))) {
    const before = await page.locator('[data-testid=moves] li').count();
    const cell = page.locator('[data-testid=gdl-grid] .gdl-cell.playable').first();
    if (await cell.count()) {
      const square = await cell.getAttribute('data-square');
      await cell.click();
      clicks++;
      await page.waitForFunction((k) => document.querySelectorAll('[data-testid=moves] li').length > k ||
        !document.querySelector('[data-testid=result]').hidden, before);
      // The clicked cell holds the page's mark (oplayer's o), as the server's state says.
      assert.equal(await page.getAttribute(`[data-testid=gdl-grid] [data-square="${square}"]`, 'data-content'), 'o');
    } else {
      await sleep(50);
    }
    assert.ok(clicks <= 4, 'the second player makes at most four moves');
  }
  const end = await opp.done;
  const shown = await page.textContent('[data-testid=result]');
  t.diagnostic(`game ${id}: ${end.result} (${end.reason}), scores ${JSON.stringify(end.scores)}; page: ${shown}`);
  const expected = { '1-0': 'You lost', '0-1': 'You won', '1/2-1/2': 'Draw' }[end.result];
  assert.ok(shown.includes(expected), `"${shown}" says ${expected}`);
  assert.equal(end.reason, 'goals');
  assert.equal(await page.locator('[data-testid=end-note]').count(), 0, 'no note: the rules ended it as usual');
  const detail = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(await page.locator('[data-testid=moves] li').count(), detail.moves.length);
  assert.deepEqual(detail.scores, end.scores);
  await screenshot(page, 'gdl-tictactoe-result');

  // The replay draws the same grid, move by move.
  await page.click('text=Replay this game');
  const n = detail.moves.length;
  await page.waitForSelector(`[data-testid=ply]:has-text("ply ${n} / ${n}")`);
  const marks = () => page.locator('[data-testid=board] .gdl-cell[data-content="x"], [data-testid=board] .gdl-cell[data-content="o"]').count();
  assert.equal(await marks(), n);
  await page.click('[data-testid=replay-first]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 0 / ${n}")`);
  assert.equal(await marks(), 0);
  await page.click('[data-testid=replay-next]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 1 / ${n}")`);
  assert.equal(await marks(), 1);
  await screenshot(page, 'gdl-tictactoe-replay');
  assert.deepEqual(errors, []);
  opp.client.close();
});

test('a simultaneous GDL game is played with the move buttons', { timeout: 90000 }, async (t) => {
  const { page, errors } = b;
  const opp = await scriptedSeek('dilemma-bot', 'gdl:gt_prisoner');
  const id = await acceptOnPage(page, 'gdl:gt_prisoner');
  // No grid: the state's facts are listed, the moves are buttons.
  await page.waitForSelector('[data-testid=gdl-facts] li:has-text("(rounds 0)")');
  assert.equal(await page.isVisible('[data-testid=gdl-grid]'), false);
  let turns = 0;
  while (!(await page.isVisible('[data-testid=result]'))) {
    const button = page.locator('[data-testid=gdl-moves] button[data-move="defect"]');
    if (await button.isVisible()) {
      await button.click();
      turns++;
      // The turn is played once both moved: the move list grows (or the game ends).
      await page.waitForFunction((k) => document.querySelectorAll('[data-testid=moves] li').length >= k ||
        !document.querySelector('[data-testid=result]').hidden, turns);
    } else {
      await sleep(50);
    }
    assert.ok(turns <= 20, 'twenty rounds');
  }
  const end = await opp.done;
  t.diagnostic(`game ${id}: ${end.result}, scores ${JSON.stringify(end.scores)} after ${turns} turns`);
  assert.equal(turns, 20);
  // Always defecting against a first-legal-move player: the page's player scores more.
  const shown = await page.textContent('[data-testid=result]');
  const expected = { '1-0': 'You lost', '0-1': 'You won', '1/2-1/2': 'Draw' }[end.result];
  assert.ok(shown.includes(expected), `"${shown}" says ${expected}`);
  const detail = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(detail.moves.length, 40, 'two rows per turn');
  assert.deepEqual(detail.moves.slice(0, 2).map((m) => m.seat), [0, 1]);
  await screenshot(page, 'gdl-prisoner-result');
  assert.deepEqual(errors, []);
  opp.client.close();
});

test('the result says why a sheet with a bug ended the game', { timeout: 60000 }, async (t) => {
  const { page, errors } = b;
  const opp = await scriptedSeek('white-bot', 'gdl:nogoal');
  const id = await acceptOnPage(page, 'gdl:nogoal');
  const end = await opp.done;  // white's one move ends it
  await page.waitForSelector('[data-testid=result]:visible');
  const note = await page.textContent('[data-testid=end-note]');
  t.diagnostic(`game ${id}: ${end.result} (${end.reason}); note: ${note}`);
  assert.equal(end.note, note);
  assert.match(note, /no goal value/);
  assert.match(note, /white/);
  assert.match(await page.textContent('[data-testid=result]'), /You won/);  // black: 100, white: 0
  await screenshot(page, 'gdl-note');
  // Stored with the game: the API gives it, and the replay shows it under the result.
  const stored = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.equal(stored.note, note);
  await page.goto(`${server.url}/#/replay/${id}`);
  await page.waitForSelector('[data-testid=end-note]');
  assert.equal(await page.textContent('[data-testid=end-note]'), note);
  assert.deepEqual(errors, []);
  opp.client.close();
});

test('a GDL sheet of one role is a puzzle on the puzzles page', { timeout: 60000 }, async (t) => {
  const { page, errors } = b;
  await page.goto(server.url + '/#/puzzles');
  await page.selectOption('[data-testid=puzzle-kind]', 'gdl:lightsPuzzle');
  assert.equal(await page.isDisabled('[data-testid=puzzle-scramble]'), true, 'a sheet is not scrambled');
  // Solved: the four cells of the grid clicked in turn.
  await page.click('[data-testid=puzzle-start]');
  await page.waitForSelector('[data-testid=puzzle-status]:has-text("Moves: 0")');
  const cells = ['1 1', '1 2', '2 1', '2 2'];
  for (const [i, cell] of cells.entries()) {
    const square = page.locator(`[data-testid=gdl-grid] .gdl-cell[data-square="${cell}"]`);
    assert.equal(await square.getAttribute('data-content'), 'off');
    await square.click();
    if (i < cells.length - 1) {
      await page.waitForSelector(`[data-testid=puzzle-status]:has-text("Moves: ${i + 1}")`);
      assert.equal(await square.getAttribute('data-content'), 'on');
    }
  }
  await page.waitForSelector('[data-testid=puzzle-result]:has-text("Solved in 4 moves")');
  // The server's breadth-first search found the shortest solution's length when it opened it.
  assert.match(await page.textContent('[data-testid=puzzle-result]'), /The optimal solution takes 4 moves/);
  await screenshot(page, 'gdl-puzzle-solved');
  // Ended short of the goal: the same light pressed five times with its move button.
  await page.click('[data-testid=puzzle-start]');
  await page.waitForSelector('[data-testid=puzzle-status]:has-text("Moves: 0")');
  for (let i = 1; i <= 5; i++) {
    await page.click('[data-testid=gdl-moves] button[data-move="(press 1 1)"]');
    if (i < 5) await page.waitForSelector(`[data-testid=puzzle-status]:has-text("Moves: ${i}")`);
  }
  const result = page.locator('[data-testid=puzzle-result]');
  await result.filter({ hasText: 'Ended short of the goal after 5 moves' }).waitFor();
  const text = await result.textContent();
  t.diagnostic(text);
  assert.match(text, /score 10 of 100/);
  assert.deepEqual(errors, []);
});
