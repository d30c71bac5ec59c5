// The WebSocket connection (protocol/README.md): hello, reconnection with back-off, resuming
// the games we follow from the last version seen, and resending a move that was not
// acknowledged (same client_id: the server never plays it twice).
//
// Who we are is the HttpOnly `arena_session` cookie, which the browser sends with the upgrade:
// the page never sees the session token (a browser's welcome carries none) and keeps none.
// Earlier pages kept it in localStorage: that copy is removed.

const OLD_SESSION_KEY = 'arena.session';
const NAME_KEY = 'arena.name';

export class Connection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.ws = null;
    this.player = null;         // welcome.player
    this.limits = {};
    this.connected = false;
    this.retry = 0;
    this.followed = new Map();  // game_id -> { role: 'play' | 'watch', version }
    this.pending = new Map();   // client_id -> move message not yet acknowledged
    this.restarted = false;     // the last close was 1001 "going away": versions restart at 0
    this.moveSeq = 0;
  }

  get name() { return localStorage.getItem(NAME_KEY) || ''; }
  set name(v) { localStorage.setItem(NAME_KEY, v); }

  open() {
    localStorage.removeItem(OLD_SESSION_KEY);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      // Version 3: our move is acknowledged by the state that carries its client_id.
      this.send({ type: 'hello', version: 3, name: this.name || undefined });
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.handle(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.connected = false;
      if (e.code === 1001) this.restarted = true;
      this.emit('disconnected', { code: e.code });
      const delay = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.open(), delay);
    };
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  handle(msg) {
    switch (msg.type) {
      case 'welcome': return this.onWelcome(msg);
      case 'state':
        if (msg.client_id !== undefined) this.pending.delete(msg.client_id);  // our move, durable
        return this.onGameEvent(msg);
      case 'game_start': case 'draw_offer': case 'moved': case 'game_end':
        return this.onGameEvent(msg);
      case 'move_ack': this.pending.delete(msg.client_id); break;  // a resend already recorded
      case 'error':
        if (msg.code === 'busy' && msg.ref === 'move') this.resendPending(300);
        break;
      default: break;
    }
    this.emit(msg.type, msg);
    this.emit('message', msg);
  }

  onWelcome(msg) {
    this.connected = true;
    this.retry = 0;
    this.player = msg.player;
    this.limits = msg.limits || {};
    // Resume our games and the ones we watch; after a restart versions start again at 0.
    for (const id of msg.your_games || []) {
      if (!this.followed.has(id)) this.followed.set(id, { role: 'play', version: -1 });
    }
    for (const [id, f] of this.followed) {
      if (f.done) continue;
      if (this.restarted) f.version = -1;
      this.send({ type: f.role === 'play' ? 'resume' : 'watch', game_id: id, since_version: f.version });
    }
    this.restarted = false;
    this.resendPending(0);
    this.emit('welcome', msg);
    this.emit('connected', msg);
  }

  onGameEvent(msg) {
    const f = this.followed.get(msg.game_id) || { role: 'watch', version: -1 };
    this.followed.set(msg.game_id, f);
    if (msg.type === 'game_start') {
      f.version = 0;  // a full replay from the start (also after a server restart)
      const mine = (msg.players || []).some((p) => this.player && p.id === this.player.id);
      if (mine) f.role = 'play';
    } else if (msg.version <= f.version) {
      return;  // already seen (a resume overlaps what we had)
    } else {
      f.version = msg.version;
    }
    if (msg.type === 'game_end') f.done = true;
    this.emit('game_event', msg);
  }

  resendPending(delay) {
    setTimeout(() => { for (const m of this.pending.values()) this.send(m); }, delay);
  }

  watch(gameId) {
    const f = this.followed.get(gameId);
    if (f && f.role === 'play') {
      if (f.version < 0) this.send({ type: 'resume', game_id: gameId, since_version: -1 });
      return;
    }
    if (f && f.role === 'watch' && f.version >= 0) return;
    this.followed.set(gameId, { role: 'watch', version: -1 });
    this.send({ type: 'watch', game_id: gameId, since_version: -1 });
  }

  unwatch(gameId) {
    const f = this.followed.get(gameId);
    if (f && f.role === 'watch') {
      this.followed.delete(gameId);
      this.send({ type: 'unwatch', game_id: gameId });
    }
  }

  move(gameId, move) {
    const clientId = `m${Date.now().toString(36)}-${++this.moveSeq}`;
    const msg = { type: 'move', game_id: gameId, move, client_id: clientId };
    this.pending.set(clientId, msg);
    this.send(msg);
  }
}
