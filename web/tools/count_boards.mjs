// How many GDL sheets the page draws as a board: for each folder of .kif sheets, starts
// `arena serve --gdl-dir DIR`, opens every sheet the reader loads (a puzzle for one role,
// else a game of as many guests as it has roles, aborted at once), takes its first state and
// game_start.board as the page gets them, and runs the page's own detection
// (web/js/boards/gdl_grid.js) on them.
//
//   node web/tools/count_boards.mjs [--arena build/boards/cli/arena] [--json out.json] [DIR...]
//
// Default folders: games/gdl/sheets and /work/shared/data/gdl/{games,test} when present.
// The server is started as the browser tests start it (tests/e2e/helpers.js, startServer), and the
// WebSocket client is theirs (tests/e2e/node_modules/ws: `npm ci` there).
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../tests/e2e/helpers.js';
import { detectGrid, parseKif } from '../js/boards/gdl_grid.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const WebSocket = createRequire(resolve(root, 'tests/e2e/package.json'))('ws');

function parseArgs(argv) {
  const o = { arena: process.env.ARENA_BINARY || resolve(root, 'build/boards/cli/arena'), json: '', dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--arena') o.arena = argv[++i];
    else if (argv[i] === '--json') o.json = argv[++i];
    else if (argv[i].startsWith('--')) throw new Error(`unknown option ${argv[i]}`);
    else o.dirs.push(resolve(argv[i]));
  }
  if (o.dirs.length === 0) {
    o.dirs = [resolve(root, 'games/gdl/sheets'), '/work/shared/data/gdl/games', '/work/shared/data/gdl/test']
      .filter((d) => existsSync(d));
  }
  if (!existsSync(o.arena)) throw new Error(`no arena binary at ${o.arena} (--arena PATH)`);
  return o;
}

// A guest speaking protocol version 2 (game_start.board); next(pred) waits for a message.
class Guest {
  constructor(wsUrl, name) {
    this.queue = [];
    this.waiters = [];
    this.ws = new WebSocket(wsUrl);
    this.ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      const i = this.waiters.findIndex((w) => w.pred(msg));
      if (i >= 0) { const [w] = this.waiters.splice(i, 1); w.res(msg); } else this.queue.push(msg);
    });
    this.name = name;
  }
  async hello() {
    await new Promise((res, rej) => { this.ws.once('open', res); this.ws.once('error', rej); });
    this.send({ type: 'hello', version: 2, name: this.name });
    this.welcome = await this.next((m) => m.type === 'welcome');
    return this;
  }
  send(m) { this.ws.send(JSON.stringify(m)); }
  next(pred, ms = 15000) {
    const i = this.queue.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.queue.splice(i, 1)[0]);
    return new Promise((res, rej) => {
      const w = { pred, res: (m) => { clearTimeout(t); res(m); } };
      const t = setTimeout(() => { this.waiters.splice(this.waiters.indexOf(w), 1); rej(new Error('timed out')); }, ms);
      this.waiters.push(w);
    });
  }
  drop() { this.queue = []; }
  close() { this.ws.close(); }
}

const isError = (m) => m.type === 'error';
// A sheet whose first state takes longer (a puzzle the server first solves, a slow grounding)
// is reported as timed out.
const LIMIT_MS = Number(process.env.COUNT_LIMIT_MS) || 15000;

// The first state of sheet `g` (catalog entry) and its board layout: { position, board }.
async function firstState(guests, g) {
  for (const c of guests) c.drop();
  if (g.players === 1) {
    guests[0].send({ type: 'puzzle_start', puzzle: g.name, options: '', scramble: 0 });
    const m = await guests[0].next((x) => (x.type === 'puzzle_state' && x.puzzle === g.name) || isError(x), LIMIT_MS);
    if (isError(m)) throw new Error(m.message);
    return { position: m.position, board: m.board || null };
  }
  const [owner, ...others] = guests.slice(0, g.players);
  owner.send({ type: 'seek', game: g.name, options: '', time_control: 'none' });
  const created = await owner.next((x) => x.type === 'seek_created' || isError(x), LIMIT_MS);
  if (isError(created)) throw new Error(created.message);
  for (const c of others) c.send({ type: 'accept', seek_id: created.seek_id });
  // By name: a sheet that timed out may start its game late.
  const start = await owner.next((x) => (x.type === 'game_start' && x.game === g.name) || (isError(x) && x.ref === 'accept'), LIMIT_MS);
  if (isError(start)) throw new Error(start.message);
  const state = await owner.next((x) => x.type === 'state' && x.game_id === start.game_id, LIMIT_MS);
  owner.send({ type: 'abort', game_id: start.game_id });
  await owner.next((x) => x.type === 'game_end' && x.game_id === start.game_id).catch(() => null);
  return { position: state.position, board: start.board || null };
}

async function countDir(arena, dir) {
  const server = await startServer({ arena, gdlDir: dir, startMs: 30000 });
  const rows = [];
  try {
    const catalog = await (await fetch(`${server.url}/api/catalog`)).json();
    const sheets = (Array.isArray(catalog) ? catalog : catalog.games || []).filter((g) => g.gdl || String(g.name).startsWith('gdl:'));
    const most = Math.min(8, Math.max(1, ...sheets.map((g) => g.players || 1)));
    const wsUrl = server.url.replace('http', 'ws') + '/ws';
    const guests = await Promise.all(Array.from({ length: most }, (_, i) => new Guest(wsUrl, `counter${i}`).hello()));
    for (const g of sheets) {
      const row = { sheet: g.name, dir, players: g.players };
      if (g.refused) { row.status = 'refused'; rows.push(row); continue; }
      if (!g.players || g.players > most) { row.status = `not measured (${g.players || 'unknown'} roles)`; rows.push(row); continue; }
      try {
        const { position, board } = await firstState(guests, g);
        const facts = parseKif(position);
        const grid = detectGrid(facts, board);
        const alone = detectGrid(facts, null);
        row.status = grid ? 'board' : 'facts';
        row.server_layout = Boolean(board);
        row.from_state_alone = Boolean(alone);
        row.position = position.length > 400 ? `${position.slice(0, 400)}…` : position;
        if (grid) Object.assign(row, { relation: grid.relation, size: `${grid.xs.length}x${grid.ys.length}`, contents: grid.contents });
      } catch (err) {
        row.status = `error: ${err.message}`;
        // A guest whose puzzle or game is still starting would answer the next one "busy".
        for (let i = 0; i < Math.min(g.players || 1, guests.length); i++) {
          guests[i].close();
          guests[i] = await new Guest(wsUrl, `counter${i}x${rows.length}`).hello();
        }
      }
      rows.push(row);
      process.stderr.write(`${g.name}: ${row.status}\n`);
    }
    for (const c of guests) c.close();
  } finally {
    await server.stop();
  }
  return rows;
}

const o = parseArgs(process.argv.slice(2));
const all = [];
for (const dir of o.dirs) {
  const rows = await countDir(o.arena, dir);
  all.push(...rows);
  const loaded = rows.filter((r) => r.status === 'board' || r.status === 'facts');
  const boards = rows.filter((r) => r.status === 'board');
  console.log(`${dir}: ${rows.length} sheets, ${loaded.length} opened, ${boards.length} drawn as a board ` +
    `(${boards.filter((r) => r.from_state_alone).length} from the first state alone), ${loaded.length - boards.length} as a list of facts`);
  for (const r of rows) {
    console.log(`  ${r.sheet.padEnd(40)} ${r.status}${r.relation ? ` ${r.relation} ${r.size} [${r.contents.join(', ')}]` : ''}`);
  }
}
const opened = all.filter((r) => r.status === 'board' || r.status === 'facts');
console.log(`total: ${all.length} sheets, ${opened.length} opened, ${all.filter((r) => r.status === 'board').length} drawn as a board`);
if (o.json) writeFileSync(o.json, JSON.stringify(all, null, 1));
process.exit(0);
