// Makes docs/page.png, the README's picture of the page: a real `arena serve` on a free loopback
// port, two bots playing chess (chess_strong against chess_ab_quiescence), watched in Debian's
// chromium (playwright-core from tests/e2e, `scripts/install-deps test`) after 24 plies.
//
//   node docs/screenshot.mjs [ARENA_BINARY] [OUT.png]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { chromium } = await import(resolve(here, '../tests/e2e/node_modules/playwright-core/index.mjs'));
const arena = process.argv[2] || resolve(here, '../build/release/cli/arena');
const out = process.argv[3] || resolve(here, 'page.png');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'arena-shot-'));
const children = [];
function run(args) {
  const p = spawn(arena, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(p);
  return p;
}
try {
  const server = run(['serve', '--host', '127.0.0.1', '--port', '0', '--db', join(dir, 'shot.db'),
    '--web-root', resolve(here, '../web')]);
  const url = await new Promise((res, rej) => {
    let log = '';
    const timer = setTimeout(() => rej(new Error(`no server:\n${log}`)), 20000);
    server.stdout.on('data', (d) => {
      log += d;
      const m = /listening on (http:\/\/[\d.]+:\d+)\//.exec(log);
      if (m) { clearTimeout(timer); res(m[1]); }
    });
  });
  const ws = url.replace('http', 'ws') + '/ws';
  run(['bot', '--server', ws, '--name', 'strong', '--preset', 'chess_strong', '--seek', '1',
    '--time-control', 'movetime:700']);
  await sleep(1000);
  run(['bot', '--server', ws, '--name', 'quiescence', '--preset', 'chess_ab_quiescence', '--accept-seeks',
    '--games', '1']);
  let game;
  for (let i = 0; i < 100 && !game; ++i) {
    await sleep(200);
    const live = await (await fetch(`${url}/api/games`)).json();
    game = (live.games || live)[0];
  }
  if (!game) throw new Error('no game started');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 1180 } });
  await page.goto(`${url}/#/game/${game.id}`);
  await page.waitForFunction(() => document.querySelectorAll('.move-list li, .moves li, [data-testid=moves] li').length >= 12,
    null, { timeout: 60000 }).catch(() => {});
  await sleep(1500);
  await page.screenshot({ path: out });
  await browser.close();
  console.log(`wrote ${out}`);
} finally {
  for (const p of children) p.kill('SIGTERM');
  await sleep(500);
  rmSync(dir, { recursive: true, force: true });
}
