// Arena's page: a hash router over the views, one WebSocket connection, a reconnect banner.
import { Connection } from './connection.js';
import { GameStore } from './games.js';
import { api, exists } from './api.js';
import { h } from './dom.js';
import { lobbyView } from './views/lobby.js';
import { gameView } from './views/game.js';
import { replayView, matchRecordView } from './views/replay.js';
import { puzzleView } from './views/puzzle.js';
import { leaderboardView } from './views/leaderboard.js';
import { tournamentsView } from './views/tournaments.js';
import { profileView } from './views/profile.js';
import { gameStatsView } from './views/gamestats.js';

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const conn = new Connection(wsUrl);
const store = new GameStore(conn);
const ctx = { conn, store, catalog: [], lobby: { seeks: [], players: [], games: [] }, navigate };
window.arena = ctx;  // handy in the console and for the browser tests

const main = document.getElementById('main');
const banner = document.getElementById('banner');
const who = document.getElementById('who');
let current = null;  // the view on screen: { el, dispose? }

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  const [, view = '', arg] = (location.hash || '#/').split('/');
  if (current && current.dispose) current.dispose();
  const id = Number(arg);
  const make = {
    '': () => lobbyView(ctx),
    game: () => gameView(ctx, id),
    replay: () => (arg === 'record' ? matchRecordView(ctx) : replayView(ctx, id)),
    puzzles: () => puzzleView(ctx),
    leaderboard: () => leaderboardView(ctx, arg),
    tournaments: () => tournamentsView(ctx),
    players: () => profileView(ctx, id),
    games: () => gameStatsView(ctx, arg),
  }[view] || (() => lobbyView(ctx));
  current = make();
  main.replaceChildren(current.el);
  for (const a of document.querySelectorAll('nav a')) {
    a.classList.toggle('active', a.getAttribute('href') === `#/${view}` || (view === '' && a.getAttribute('href') === '#/'));
  }
  window.scrollTo(0, 0);
}

conn.addEventListener('disconnected', () => {
  banner.hidden = false;
  banner.textContent = 'Connection lost — reconnecting… Your games go on and resume on their own.';
  document.body.classList.add('offline');
});
conn.addEventListener('connected', (e) => {
  banner.hidden = true;
  document.body.classList.remove('offline');
  const p = e.detail.player;
  who.replaceChildren(h('span', { title: `player id ${p.id}` }, `You: ${p.name}`));
});
conn.addEventListener('lobby', (e) => { ctx.lobby = e.detail; });

// "Your name": a guest chooses the name it is shown by (set_name, protocol/README.md "Names").
// The choice is kept in this browser and said again after a server restart; the server's
// refusal is shown as it words it.
const CHOSEN_NAME_KEY = 'arena.chosen_name';
const nameForm = document.getElementById('name-form');
const nameInput = document.getElementById('name-input');
const nameError = document.getElementById('name-error');
function showNameError(text) {
  nameError.textContent = text;
  nameError.hidden = !text;
}
nameForm.addEventListener('submit', (e) => {
  e.preventDefault();
  showNameError('');
  if (!conn.send({ type: 'set_name', name: nameInput.value })) showNameError('Not connected: try again in a moment.');
});
conn.addEventListener('name_set', (e) => {
  const p = e.detail.player;
  conn.player = p;
  localStorage.setItem(CHOSEN_NAME_KEY, p.name);
  who.replaceChildren(h('span', { title: `player id ${p.id}` }, `You: ${p.name}`));
  nameInput.value = '';
  showNameError('');
});
conn.addEventListener('error', (e) => {
  if (e.detail.ref === 'set_name') showNameError(`Name refused: ${e.detail.message}`);
});
conn.addEventListener('connected', (e) => {
  const p = e.detail.player;
  nameForm.hidden = Boolean(p.bot);
  const chosen = localStorage.getItem(CHOSEN_NAME_KEY);
  if (chosen && chosen !== p.name && !p.bot) conn.send({ type: 'set_name', name: chosen });
});
conn.addEventListener('game_event', (e) => {
  // A game of ours that starts (accepted seek or challenge) opens at once.
  const msg = e.detail;
  if (msg.type === 'game_start' && store.seatOf(store.get(msg.game_id)) >= 0 && !location.hash.startsWith(`#/game/${msg.game_id}`)) {
    const g = store.get(msg.game_id);
    if (!g.end && (!g.state || !g.state.result) && ctx.awaitingStart) {
      ctx.awaitingStart = false;
      navigate(`#/game/${msg.game_id}`);
    }
  }
});
conn.addEventListener('challenge_offer', (e) => showChallenge(e.detail));

function showChallenge(offer) {
  const box = h('div.toast', { role: 'alertdialog', 'data-testid': 'challenge-offer' },
    h('p', {}, `${offer.from && offer.from.name ? offer.from.name : 'Someone'} challenges you to ${offer.game}${offer.options ? ` (${offer.options})` : ''}.`),
    h('button.primary', { onclick: () => { ctx.awaitingStart = true; conn.send({ type: 'accept', challenge_id: offer.challenge_id }); box.remove(); } }, 'Accept'),
    h('button', { onclick: () => { conn.send({ type: 'decline', challenge_id: offer.challenge_id }); box.remove(); } }, 'Decline'));
  document.getElementById('toasts').append(box);
  setTimeout(() => box.remove(), 60000);
}

async function start() {
  try { ctx.catalog = await api.catalog(); } catch { ctx.catalog = []; }
  if (await exists('/api/tournaments')) document.getElementById('nav-tournaments').hidden = false;
  window.addEventListener('hashchange', route);
  conn.open();
  route();
}

start();
