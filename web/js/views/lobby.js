// The lobby: who is online, the seeks on offer, live games, recent finished games, the form
// that starts a game (an open seek, or a challenge to a named player or bot), and "Play the
// computer": a game at once against the house bot of a chosen strength.
import { h, playerLabel, describeTimeControl, describeResult, sheetOption } from '../dom.js';
import { api } from '../api.js';

const TIME_CONTROLS = [
  ['none', 'No clock'],
  ['fischer:60000+0', '1 min'],
  ['fischer:180000+2000', '3 min + 2 s'],
  ['fischer:300000+3000', '5 min + 3 s'],
  ['fischer:900000+10000', '15 min + 10 s'],
  ['movetime:10000', '10 s per move'],
  ['movetime:30000', '30 s per move'],
];

// The kinds of the catalog for two to six players (GDL games, "gdl:NAME", may have more than two
// seats: their seek waits for that many players), with tic-tac-toe's 4x4x4 variant folded in as
// an option.
function playableGames(catalog) {
  const list = catalog.filter((g) => g.players >= 2 && g.players <= 6 && g.name !== 'qubic');
  return list.length ? list : [{ name: 'tictactoe', title: 'Tic-tac-toe' }, { name: 'chess', title: 'Chess' }];
}

// The house bots of a hand-written game, by level: the bots whose open seek of `game` is in the
// lobby and who are named house_GAME_LEVEL (bots/client/roster.h), by name (a stable order
// while their seeks come and go).
function houseLevels(seeks, game) {
  const prefix = `house_${game}_`;
  const levels = [];
  for (const sk of seeks) {
    const by = sk.by || {};
    if (sk.game !== game || !by.bot || typeof by.name !== 'string' || !by.name.startsWith(prefix)) continue;
    if (!levels.some((l) => l.name === by.name)) levels.push({ name: by.name, level: by.name.slice(prefix.length) });
  }
  return levels.sort((a, b) => a.name.localeCompare(b.name));
}

function optionsFor(game, form) {
  if (game === 'isolation') return `size=${form.querySelector('[name=size]').value}`;
  if (game === 'tictactoe') return form.querySelector('[name=variant]').value === '4x4x4' ? 'variant=4x4x4' : '';
  return '';
}

export function lobbyView(ctx) {
  const { conn } = ctx;
  const el = h('div.lobby');
  const games = playableGames(ctx.catalog);

  const gameSelect = h('select', { name: 'game', 'data-testid': 'new-game-kind' },
    games.filter((g) => !g.gdl).map((g) => h('option', { value: g.name }, g.title || g.name)),
    games.some((g) => g.gdl) ? h('optgroup', { label: 'GDL games (rule sheets)' }, games.filter((g) => g.gdl).map((g) =>
      sheetOption(g, `${g.name.replace(/^gdl:/, '')}${g.players > 2 ? ` (${g.players} players)` : ''}`))) : null);
  const variant = h('label.opt', { dataset: { for: 'tictactoe' } }, 'Board ',
    h('select', { name: 'variant', 'data-testid': 'new-game-variant' }, h('option', { value: '3x3' }, '3x3'), h('option', { value: '4x4x4' }, '4x4x4 (Qubic)')));
  const size = h('label.opt', { dataset: { for: 'isolation' } }, 'Size ',
    h('select', { name: 'size' }, [5, 6, 7, 8, 9].map((n) => h('option', { value: n, selected: n === 7 }, `${n}x${n}`))));
  const tc = h('select', { name: 'tc', 'data-testid': 'new-game-tc' }, TIME_CONTROLS.map(([v, t]) => h('option', { value: v }, t)));
  const opponent = h('select', { name: 'opponent', 'data-testid': 'new-game-opponent' });
  const status = h('p.form-status', { 'aria-live': 'polite' });

  // Play the computer: every two-or-more-player game of the catalog as it is named there (qubic
  // too), a strength, a clock.
  const cpuGames = ctx.catalog.filter((g) => g.players >= 2 && g.players <= 6);
  const cpuList = cpuGames.length ? cpuGames : games;
  const cpuGame = h('select', { name: 'cpu-game', 'data-testid': 'cpu-game' },
    cpuList.filter((g) => !g.gdl).map((g) => h('option', { value: g.name }, g.title || g.name)),
    cpuList.some((g) => g.gdl) ? h('optgroup', { label: 'GDL games (rule sheets)' }, cpuList.filter((g) => g.gdl).map((g) =>
      sheetOption(g, `${g.name.replace(/^gdl:/, '')}${g.players > 2 ? ` (${g.players} players)` : ''}`))) : null);
  const cpuLevel = h('select', { name: 'cpu-level', 'data-testid': 'cpu-level' });
  const cpuTc = h('select', { name: 'cpu-tc', 'data-testid': 'cpu-tc' }, TIME_CONTROLS.map(([v, t]) => h('option', { value: v }, t)));
  const cpuStatus = h('p.form-status', { 'aria-live': 'polite', 'data-testid': 'cpu-status' });
  const cpuForm = h('form.card.play-computer', { onsubmit: (e) => { e.preventDefault(); playComputer(); } },
    h('h2', {}, 'Play the computer'),
    h('div.form-row', {}, h('label', {}, 'Game ', cpuGame), h('label', {}, 'Strength ', cpuLevel), h('label', {}, 'Clock ', cpuTc)),
    h('button.primary', { type: 'submit', 'data-testid': 'cpu-play' }, 'Play'),
    cpuStatus);
  const isSheet = (name) => cpuList.some((g) => g.name === name && g.gdl);
  // The strengths of the chosen game: its house bots' levels; a GDL sheet is taken by the house
  // GDL players (whoever is free), and with no house bot listed an open seek waits for any.
  function renderLevels() {
    const game = cpuGame.value;
    const levels = isSheet(game) ? [] : houseLevels((ctx.lobby || {}).seeks || [], game);
    const options = levels.length ? levels.map((l) => [l.name, `${l.level[0].toUpperCase()}${l.level.slice(1)}`])
      : [['', isSheet(game) ? 'House GDL player' : 'Any computer']];
    const key = options.map(([v]) => v).join(',');
    if (key === cpuLevel.dataset.key) return;
    cpuLevel.dataset.key = key;
    const keep = cpuLevel.value;
    cpuLevel.replaceChildren(...options.map(([v, t]) => h('option', { value: v }, t)));
    if (options.some(([v]) => v === keep)) cpuLevel.value = keep;
  }
  cpuGame.addEventListener('change', renderLevels);
  let lastFrom = '';    // the form that sent the latest offer ('cpu' or 'form'), for its errors
  let cpuTarget = '';   // the house bot challenged
  function playComputer() {
    const game = cpuGame.value;
    const msg = { game, options: '', time_control: cpuTc.value };
    ctx.awaitingStart = true;
    lastFrom = 'cpu';
    cpuTarget = cpuLevel.value;
    if (cpuLevel.value) {
      conn.send({ type: 'challenge', to: cpuLevel.value, ...msg });
      cpuStatus.textContent = `Starting a game against ${cpuLevel.value}…`;
    } else {
      conn.send({ type: 'seek', ...msg });
      cpuStatus.textContent = 'Your offer is in the lobby; a house bot takes it in a moment.';
    }
  }
  const form = h('form.card.new-game', { onsubmit: (e) => { e.preventDefault(); submit(); } },
    h('h2', {}, 'Start a game'),
    h('div.form-row', {}, h('label', {}, 'Game ', gameSelect), variant, size),
    h('div.form-row', {}, h('label', {}, 'Clock ', tc)),
    h('div.form-row', {}, h('label', {}, 'Opponent ', opponent)),
    h('button.primary', { type: 'submit', 'data-testid': 'new-game-submit' }, 'Start'),
    status);
  const showOptions = () => {
    for (const o of form.querySelectorAll('.opt')) o.hidden = o.dataset.for !== gameSelect.value;
  };
  gameSelect.addEventListener('change', showOptions);
  showOptions();

  function submit() {
    const game = gameSelect.value;
    const msg = { game, options: optionsFor(game, form), time_control: tc.value };
    ctx.awaitingStart = true;
    lastFrom = 'form';
    if (opponent.value) {
      conn.send({ type: 'challenge', to: opponent.value, ...msg });
      status.textContent = `Challenge sent to ${opponent.value}; the game opens when they accept.`;
    } else {
      conn.send({ type: 'seek', ...msg });
      status.textContent = 'Your offer is in the lobby; the game opens when someone accepts it.';
    }
  }

  const playersBox = h('section.card', {}, h('h2', {}, 'Online'), h('ul.players', { 'data-testid': 'players' }));
  const seeksBox = h('section.card', {}, h('h2', {}, 'Games on offer'), h('ul.seeks', { 'data-testid': 'seeks' }));
  const liveBox = h('section.card', {}, h('h2', {}, 'Live games'), h('ul.live', { 'data-testid': 'live-games' }));
  const doneBox = h('section.card', {}, h('h2', {}, 'Finished games'), h('ul.finished', { 'data-testid': 'finished-games' }));
  el.append(h('div.lobby-main', {}, cpuForm, form, seeksBox, liveBox), h('div.lobby-side', {}, playersBox, doneBox));

  const me = () => conn.player || {};
  function render() {
    renderLevels();
    const lobby = ctx.lobby || {};
    const players = lobby.players || [];
    // Rebuild the opponent list only when it changes, so an open drop-down stays open.
    const key = players.map((p) => `${p.id}:${p.name}:${p.bot}`).join(',');
    if (key !== opponent.dataset.key) {
      opponent.dataset.key = key;
      const keep = opponent.value;
      opponent.replaceChildren(h('option', { value: '' }, 'Anyone (open offer in the lobby)'),
        ...players.filter((p) => p.id !== me().id).sort((a, b) => Number(b.bot) - Number(a.bot))
          .map((p) => h('option', { value: p.name }, `${p.name} (${p.bot ? 'bot' : 'human'})`)));
      opponent.value = [...opponent.options].some((o) => o.value === keep) ? keep : '';
    }

    playersBox.querySelector('ul').replaceChildren(...(players.length ? players.map((p) =>
      h('li', {}, playerLabel(p), p.id === me().id ? h('span.muted', {}, ' (you)') : null)) : [h('li.muted', {}, 'Nobody yet')]));

    const seeks = lobby.seeks || [];
    seeksBox.querySelector('ul').replaceChildren(...(seeks.length ? seeks.map((sk) => {
      const mine = sk.by && sk.by.id === me().id;
      const joined = sk.joined || [];
      const many = (sk.seats || 2) > 2;  // a seek of more seats is joined until it is full
      const inIt = joined.some((p) => p.id === me().id);
      return h('li.row', { dataset: { seek: sk.seek_id } },
        h('span', {}, h('strong', {}, sk.game), sk.options ? ` ${sk.options}` : '', ` · ${describeTimeControl(sk.time_control)} · by `, playerLabel(sk.by),
          many ? h('span.muted', { 'data-testid': 'seek-seats' }, ` · ${joined.length + 1}/${sk.seats} players`) : null),
        mine ? h('button', { onclick: () => conn.send({ type: 'cancel_seek', seek_id: sk.seek_id }) }, 'Cancel')
          : inIt ? h('button', { 'data-testid': 'leave-seek', onclick: () => conn.send({ type: 'cancel_seek', seek_id: sk.seek_id }) }, 'Leave')
            : h('button.primary', { 'data-testid': 'accept-seek', onclick: () => { ctx.awaitingStart = true; conn.send({ type: 'accept', seek_id: sk.seek_id }); } }, many ? 'Join' : 'Accept'));
    }) : [h('li.muted', {}, 'No open offers. Start one above.')]));

    const live = (lobby.games || []).filter((g) => g.live !== false);
    liveBox.querySelector('ul').replaceChildren(...(live.length ? live.map((g) =>
      h('li.row', { dataset: { game: g.id } },
        h('span', {}, h('strong', {}, g.game), g.options ? ` ${g.options}` : '', ' · ', g.players.map((p, i) => [i ? ' vs ' : '', playerLabel(p)]), ` · ply ${g.plies}`),
        h('a.button', { href: `#/game/${g.id}`, 'data-testid': 'watch-game' }, g.players.some((p) => p.id === me().id) ? 'Play' : 'Watch'))) : [h('li.muted', {}, 'No games in progress.')]));
  }

  async function loadFinished() {
    try {
      const list = (await api.games('?status=finished&limit=15')).filter((g) => g.result);
      doneBox.querySelector('ul').replaceChildren(...(list.length ? list.map((g) =>
        h('li.row', {}, h('span', {}, h('strong', {}, g.game), ` ${g.players.filter(Boolean).join(' vs ')} · ${describeResult(g.result, '', g.players)}`),
          h('a.button', { href: `#/replay/${g.id}`, 'data-testid': 'replay-link' }, 'Replay'))) : [h('li.muted', {}, 'None yet.')]));
    } catch (err) {
      doneBox.querySelector('ul').replaceChildren(h('li.error', {}, err.message));
    }
  }

  const onLobby = () => render();
  const onJoined = (e) => {
    const left = e.detail.seats - e.detail.players.length;
    status.textContent = `${e.detail.game}: ${e.detail.players.length} of ${e.detail.seats} players; the game starts when ${left} more join${left === 1 ? 's' : ''}.`;
  };
  conn.addEventListener('seek_joined', onJoined);
  const onError = (e) => {
    if (!['seek', 'challenge', 'accept'].includes(e.detail.ref)) return;
    (lastFrom === 'cpu' && e.detail.ref !== 'accept' ? cpuStatus : status).textContent = e.detail.message;
  };
  // A house bot that has its most games at once declines: say so.
  const onDeclined = (e) => {
    if (!cpuTarget || !e.detail.by || e.detail.by.name !== cpuTarget) return;
    cpuStatus.textContent = `${e.detail.by ? e.detail.by.name : 'The bot'} is busy; try another strength or a moment later.`;
    ctx.awaitingStart = false;
  };
  conn.addEventListener('declined', onDeclined);
  conn.addEventListener('lobby', onLobby);
  conn.addEventListener('error', onError);
  render();
  loadFinished();
  const timer = setInterval(loadFinished, 10000);
  return {
    el,
    dispose() {
      conn.removeEventListener('lobby', onLobby);
      conn.removeEventListener('seek_joined', onJoined);
      conn.removeEventListener('error', onError);
      conn.removeEventListener('declined', onDeclined);
      clearInterval(timer);
    },
  };
}
