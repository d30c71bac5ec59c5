#!/usr/bin/env node
// A minimal Arena bot in JavaScript: log in, take (or offer) a game, play random legal moves.
// The server sends the legal moves with every state, so a bot needs no rules code: replace
// chooseMove() with your own search. Speaks protocol version 3: it also plays games of three
// to six seats and simultaneous turns (GDL games, gdl:NAME), and its moves are acknowledged by
// the state that carries their client_id (no move_ack).
//
//   npm ci && node arena_client.mjs --server ws://127.0.0.1:8080/ws --name jsbot --game chess
//   node arena_client.mjs --server ws://HOST:PORT/ws --token TOKEN --seek --games 3
//
// Protocol: protocol/README.md. Exit status 0 when the games asked for have ended, 1 otherwise.

import WebSocket from 'ws';

function parseArgs(argv) {
  const args = { server: 'ws://127.0.0.1:8080/ws', name: 'jsbot', game: null, options: '',
                 timeControl: 'none', seek: false, games: 1, token: null, timeout: 0,
                 search: '', heuristic: '' };
  for (let i = 2; i < argv.length; ++i) {
    const flag = argv[i];
    const value = () => argv[++i];
    if (flag === '--server') args.server = value();
    else if (flag === '--token') args.token = value();
    else if (flag === '--name') args.name = value();
    else if (flag === '--game') args.game = value();
    else if (flag === '--options') args.options = value();
    else if (flag === '--time-control') args.timeControl = value();
    else if (flag === '--games') args.games = Number(value());
    else if (flag === '--timeout') args.timeout = Number(value());
    else if (flag === '--seek') args.seek = true;
    else if (flag === '--search') args.search = value();
    else if (flag === '--heuristic') args.heuristic = value();
    else { console.error(`unknown flag ${flag}`); process.exit(2); }
  }
  return args;
}

// The legal moves of `seat` in `state`, or [] when it does not move now (protocol 2: `movers`
// lists every seat to move; simultaneous games have `legal_moves_by_seat`).
function myMoves(state, seat) {
  if (state.result !== null || !(state.movers ?? [state.to_move]).includes(seat)) return [];
  if (state.legal_moves_by_seat) return state.legal_moves_by_seat[seat];
  return state.to_move === seat ? state.legal_moves : [];
}

// Your bot goes here: state.position and your legal `moves` are all you need.
function chooseMove(state, moves) {
  return moves[Math.floor(Math.random() * moves.length)];
}

const args = parseArgs(process.argv);
const headers = args.token ? { Authorization: `Bearer ${args.token}` } : {};
const ws = new WebSocket(args.server, { headers });
const send = (message) => ws.send(JSON.stringify(message));
const seek = () => send({ type: 'seek', game: args.game ?? 'tictactoe', options: args.options,
                          time_control: args.timeControl });
let me = null;
let finished = 0;
const seats = new Map();  // game id -> our seat
const accepted = new Set();
const unacked = new Map();  // game id -> the client_id of our move not yet acknowledged

if (args.timeout > 0) {
  setTimeout(() => { console.error('arena_client.mjs: timed out'); process.exit(1); },
             args.timeout * 1000);
}

// --search names this bot's engine in the hello: the server records it as the bot's version.
ws.on('open', () => send({ type: 'hello', version: 3, name: args.name,
                           ...(args.search ? { engine: { search: args.search,
                                                         heuristic: args.heuristic } } : {}) }));
ws.on('error', (e) => { console.error('arena_client.mjs:', e.message); process.exit(1); });
ws.on('close', () => { console.error('the server closed the connection'); process.exit(1); });
ws.on('message', (data) => {
  const msg = JSON.parse(data.toString());
  switch (msg.type) {
    case 'welcome':
      me = msg.player.id;
      console.log('logged in as', msg.player.name);
      if (args.seek) seek();
      break;
    case 'lobby':
      if (args.seek || seats.size > 0) break;
      // Take the first open seek of the game we want (or of any game).
      for (const s of msg.seeks) {
        if (s.by.id !== me && (args.game === null || s.game === args.game) &&
            !accepted.has(s.seek_id)) {
          accepted.add(s.seek_id);
          send({ type: 'accept', seek_id: s.seek_id });
          break;
        }
      }
      break;
    case 'challenge_offer':
      send({ type: 'accept', challenge_id: msg.challenge_id });
      break;
    case 'game_start': {
      const seat = msg.players.findIndex((p) => p.id === me);
      if (seat >= 0) {
        seats.set(msg.game_id, seat);
        console.log('game', msg.game_id, msg.game, 'as player', seat);
      }
      break;
    }
    case 'state': {
      // v3: the state that carries our client_id acknowledges our move (durable).
      if (msg.client_id !== undefined && unacked.get(msg.game_id) === msg.client_id) {
        unacked.delete(msg.game_id);
      }
      const moves = seats.has(msg.game_id) ? myMoves(msg, seats.get(msg.game_id)) : [];
      if (moves.length > 0) {
        const move = chooseMove(msg, moves);
        const clientId = `${msg.game_id}-${msg.version}`;
        unacked.set(msg.game_id, clientId);
        send({ type: 'move', game_id: msg.game_id, move, client_id: clientId,
               info: { depth: 0, nodes: moves.length, pv: [move], time_ms: 0 } });
      }
      break;
    }
    case 'move_ack':
      // Still the answer to a resent move that was already recorded.
      if (unacked.get(msg.game_id) === msg.client_id) unacked.delete(msg.game_id);
      break;
    case 'game_end':
      if (!seats.has(msg.game_id)) break;
      console.log('game', msg.game_id, 'ended', msg.result, msg.reason,
                  `(we were player ${seats.get(msg.game_id)})`);
      seats.delete(msg.game_id);
      if (++finished >= args.games) {
        ws.removeAllListeners('close');
        ws.close();
        process.exit(0);
      }
      if (args.seek) seek();
      break;
    case 'error':
      console.error('server said:', msg.code, msg.message);
      break;
    default:
      break;  // new message types may appear: ignore what you do not know
  }
});
