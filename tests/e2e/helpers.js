// Shared helpers of the browser tests: a real `arena serve` on a free loopback port with a
// temporary database, Debian's chromium driven by playwright-core, and scripted WebSocket
// players (the `ws` package) that stand in for an opponent when no house bot is running.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';

const here = dirname(fileURLToPath(import.meta.url));
export const ARENA = process.env.ARENA_BINARY || resolve(here, '../../build/web/cli/arena');
export const WEB_ROOT = process.env.ARENA_WEB_ROOT || resolve(here, '../../web');
export const OUT = process.env.ARENA_E2E_OUT || resolve(here, '../../build/web/e2e-screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Starts the server; resolves with { url, wsUrl, db, token(name), stop() } once it listens.
// gdlSheets: { STEM: 'KIF text' }, written to the server's folder and hosted as gdl:STEM;
// gdlDir: the folder of sheets it hosts (--gdl-dir); arena: the binary (web/tools use their own
// build); startMs: how long it may take to listen.
// db: a database file the caller filled (and removes); by default a new one in the server's folder.
export async function startServer({ houseBots = false, gdlSheets = {}, gdlDir = '', arena = ARENA, startMs = 20000, db: given = '' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'arena-e2e-'));
  const db = given || join(dir, 'test.db');
  const args = ['serve', '--host', '127.0.0.1', '--port', '0', '--db', db, '--web-root', WEB_ROOT, '--grace-ms', '2000'];
  if (houseBots) args.push('--house-bots');
  if (gdlDir) args.push('--gdl-dir', gdlDir);
  for (const [stem, text] of Object.entries(gdlSheets)) {
    const file = join(dir, `${stem}.kif`);
    writeFileSync(file, text);
    args.push('--gdl', file);
  }
  const proc = spawn(arena, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const url = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`arena serve did not start in ${startMs / 1000} s:\n${log}`)), startMs);
    const onData = (d) => {
      log += d;
      const m = /listening on (http:\/\/[\d.]+:\d+)\//.exec(log);
      if (m) { clearTimeout(timer); res(m[1]); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (d) => { log += d; });
    proc.on('exit', (code) => { clearTimeout(timer); rej(new Error(`arena serve exited (${code}):\n${log}`)); });
  });
  return {
    url,
    wsUrl: url.replace('http', 'ws') + '/ws',
    db,
    log: () => log,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        let timer;
        await Promise.race([new Promise((r) => proc.once('exit', r)), new Promise((r) => { timer = setTimeout(r, 5000); })]);
        clearTimeout(timer);  // a pending timer would keep the test process alive
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// A bot token, created in the server's database (`arena token create`).
export function createToken(db, name) {
  return execFileSync(ARENA, ['token', 'create', name, '--db', db], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').at(-1).trim();
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Debian's chromium, headless, with a fresh profile (playwright makes a new temporary one).
export async function openBrowser(viewport = { width: 1280, height: 860 }) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // Script errors, console errors, and failed requests except the page's probe for the
  // optional tournaments API (a 404 there only hides the section).
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/api/tournaments')) errors.push(`${r.status()} ${r.url()}`); });
  return { browser, context, page, errors };
}

export async function screenshot(page, name) {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

// A scripted protocol client: hello, then every message is queued for next(predicate).
export class Client {
  constructor(wsUrl, name, token) {
    this.name = name;
    this.queue = [];
    this.waiters = [];
    this.ws = new WebSocket(wsUrl, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    this.ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      const i = this.waiters.findIndex((w) => w.pred(msg));
      if (i >= 0) { const [w] = this.waiters.splice(i, 1); w.res(msg); } else this.queue.push(msg);
    });
  }

  async hello() {
    await new Promise((res, rej) => { this.ws.once('open', res); this.ws.once('error', rej); });
    this.send({ type: 'hello', version: 1, name: this.name });
    this.welcome = await this.next((m) => m.type === 'welcome');
    return this;
  }

  send(msg) { this.ws.send(JSON.stringify(msg)); }

  next(pred, timeout = 15000) {
    const i = this.queue.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.queue.splice(i, 1)[0]);
    return new Promise((res, rej) => {
      const timer = setTimeout(() => {
        const k = this.waiters.indexOf(w);
        if (k >= 0) { this.waiters.splice(k, 1); rej(new Error(`${this.name}: timed out waiting for a message`)); }
      }, timeout);
      timer.unref();  // a client left waiting never keeps the test process alive
      const w = { pred, res: (m) => { clearTimeout(timer); res(m); } };
      this.waiters.push(w);
    });
  }

  // Plays game `gameId` to its end, choosing with pick(legal_moves, state); resolves with game_end.
  async play(gameId, seat, pick, { delay = 0, info = null } = {}) {
    let n = 0;
    for (;;) {
      const m = await this.next((x) => x.game_id === gameId && (x.type === 'game_end' || (x.type === 'state' && !x.result && x.to_move === seat)), 60000);
      if (m.type === 'game_end') return m;
      if (delay) await sleep(delay);
      const move = pick(m.legal_moves, m);
      this.send({ type: 'move', game_id: gameId, move, client_id: `${this.name}-${++n}`, ...(info ? { info: info(move, m) } : {}) });
    }
  }

  close() { this.ws.close(); }
}

// Two clients play a whole game (first seeks, second accepts); resolves with { gameId, end }.
export async function playScriptedGame(a, b, game, { options = '', delay = 0, info = null, pick = (l) => l[0] } = {}) {
  a.send({ type: 'seek', game, options, time_control: 'none' });
  const { seek_id: seekId } = await a.next((m) => m.type === 'seek_created');
  b.send({ type: 'accept', seek_id: seekId });
  const start = await a.next((m) => m.type === 'game_start');
  await b.next((m) => m.type === 'game_start');
  const [endA] = await Promise.all([a.play(start.game_id, 0, pick, { delay, info }), b.play(start.game_id, 1, pick, { delay, info })]);
  return { gameId: start.game_id, end: endA };
}

export function ensureBinary() {
  if (!existsSync(ARENA)) throw new Error(`arena binary not found at ${ARENA} (set ARENA_BINARY)`);
}
