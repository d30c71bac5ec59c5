// A GGP match played by `arena ggp-match` between two `arena ggp-player`s and written with
// --record (ggp-base's match JSON) is opened in the page and replayed on the GDL board: every
// state of the record is drawn, the start empty and the end with a piece per mark played.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARENA, startServer, openBrowser, screenshot, ensureBinary } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const SHEET = resolve(here, '../../games/gdl/sheets/tictactoe.kif');
let server, b, dir, record;
const players = [];

// `arena ggp-player` on a free port; resolves with its URL.
function ggpPlayer() {
  const p = spawn(ARENA, ['ggp-player', '--port', '0', '--preset', 'GDL_Random', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  players.push(p);
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`ggp-player did not start: ${out}`)), 20000);
    p.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) { clearTimeout(timer); res(m[1]); }
    });
  });
}

before(async () => {
  ensureBinary();
  dir = mkdtempSync(join(tmpdir(), 'arena-record-'));
  const [x, o] = [await ggpPlayer(), await ggpPlayer()];
  const file = join(dir, 'match.json');
  execFileSync(ARENA, ['ggp-match', '--gdl', SHEET, '--player', x, '--player', o, '--startclock', '3',
    '--playclock', '1', '--record', file], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 });
  record = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(join(dir, 'broken.json'), JSON.stringify({ matchId: 'x', moves: [] }));
  server = await startServer();
  b = await openBrowser();
});
after(async () => {
  for (const p of players) p.kill('SIGTERM');
  if (b) await b.browser.close();
  if (server) await server.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a GGP match record is replayed on the board, state by state', { timeout: 60000 }, async () => {
  const { page, errors } = b;
  const n = record.moves.length;
  const marks = record.moves.flat().filter((m) => m !== 'noop').length;
  await page.goto(`${server.url}/#/games`);
  await page.click('[data-testid=open-record]');
  await page.setInputFiles('[data-testid=record-file]', join(dir, 'broken.json'));
  await page.waitForSelector('[data-testid=record-status]:has-text("not a GGP match record")');
  await page.setInputFiles('[data-testid=record-file]', join(dir, 'match.json'));
  await page.waitForSelector(`[data-testid=ply]:has-text("ply ${n} / ${n}")`);
  const pieces = () => page.locator('[data-testid=gdl-grid] .gdl-piece:visible').count();
  assert.equal(await pieces(), marks, 'the last state: a piece per mark played');
  assert.ok(await page.locator('[data-testid=gdl-legend] li').count() >= 2, 'a legend names the contents');
  assert.match(await page.textContent('[data-testid=result]'), /wins|Draw/);
  await screenshot(page, 'matchrecord-end');
  await page.click('[data-testid=replay-first]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 0 / ${n}")`);
  assert.equal(await pieces(), 0, 'the initial state has no marks');
  await page.click('[data-testid=replay-next]');
  await page.waitForSelector(`[data-testid=ply]:has-text("ply 1 / ${n}")`);
  assert.ok(await pieces() <= 1, 'after the first step at most one mark (a lone mark may not make a grid)');
  assert.equal(await page.textContent('[data-testid=moves] li.current .mv'), record.moves[0].join(' '));
  assert.deepEqual(errors, []);
});
