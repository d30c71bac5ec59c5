// Tiny DOM helpers: h('div.class', {attrs}, children...) and text formatting.
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {  // nested lists of children (a map of pairs) too
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// An <option> for a GDL sheet of the catalog: one the reader refuses is listed, disabled, with
// the reader's reason as its tooltip.
export function sheetOption(g, label) {
  return h('option', { value: g.name, disabled: Boolean(g.refused), title: g.refused || undefined },
    g.refused ? `${label} (does not load)` : label);
}

export function formatClock(ms) {
  if (ms === null || ms === undefined) return '–';
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000), sec = Math.floor((t % 60000) / 1000);
  const tenths = t < 10000 ? `.${Math.floor((t % 1000) / 100)}` : '';
  return `${m}:${String(sec).padStart(2, '0')}${tenths}`;
}

export function playerLabel(p) {
  if (!p) return '?';
  // The REST summaries name players without saying what they are: no badge then.
  if (typeof p === 'string') return h('span.player', {}, p);
  // Every name with a player id leads to that player's profile (ratings, games, engines).
  const name = p.id > 0 ? h('a.player-link', { href: `#/players/${p.id}`, 'data-testid': 'player-link' }, p.name) : p.name;
  return h('span.player', {}, name, p.bot ? h('span.badge.bot', { title: 'a program' }, 'bot') : h('span.badge.human', { title: 'a person' }, 'human'));
}

export function describeTimeControl(tc) {
  if (!tc || tc === 'none') return 'no clock';
  let m = /^fischer:(\d+)\+(\d+)$/.exec(tc);
  if (m) return `${Number(m[1]) / 60000} min + ${Number(m[2]) / 1000} s`;
  m = /^movetime:(\d+)$/.exec(tc);
  if (m) return `${Number(m[1]) / 1000} s per move`;
  return tc;
}

const REASONS = {
  line: 'a completed line', board_full: 'a full board', no_moves: 'no moves left', disc_count: 'disc count',
  checkmate: 'checkmate', stalemate: 'stalemate', threefold_repetition: 'threefold repetition',
  fifty_move_rule: 'the fifty-move rule', insufficient_material: 'insufficient material', no_progress: 'no progress',
  timeout: 'time', resignation: 'resignation', agreement: 'agreement', aborted: 'abort', abandonment: 'abandonment',
  illegal_move: 'an illegal move', solved: 'solving it', goals: 'the rules\' goals', store_error: 'a store failure',
};

// "ann 100 · bob 0 · cid 50": every seat's score (GDL goals), with its side name if given.
export function describeScores(scores, players, sides = []) {
  return (scores || []).map((sc, i) => {
    const p = (players || [])[i];
    const name = typeof p === 'string' ? p : p && p.name;
    return `${name || sides[i] || `Seat ${i + 1}`}${sides[i] && name ? ` (${sides[i]})` : ''} ${sc}`;
  }).join(' · ');
}

// "alice wins by checkmate", "Draw by agreement", "Aborted"; seat (0, 1, ...) words it for a
// player. A result of more than two seats is its scores ("100-0-50"): the best wins.
export function describeResult(result, reason, players, seat = -1) {
  const names = (players || []).map((p) => (typeof p === 'string' ? p : p && p.name));
  const winner = result === '1-0' ? 0 : result === '0-1' ? 1 : -1;
  let text;
  if (winner >= 0 && seat >= 0) text = winner === seat ? 'You won' : 'You lost';
  else if (winner >= 0) text = `${names[winner] || (winner ? 'Second player' : 'First player')} wins`;
  else if (result === '1/2-1/2') text = 'Draw';
  else if (result === '*') return 'Aborted';
  else if (result === 'solved') return 'Solved';
  else if (result === 'unsolved') return 'Ended short of the goal';
  else if (/^\d+(-\d+){2,}$/.test(result || '')) {
    // More than two seats: the scores; the best wins.
    const scores = result.split('-').map(Number);
    const best = Math.max(...scores);
    const top = scores.map((x, i) => (x === best ? i : -1)).filter((i) => i >= 0);
    if (top.length === scores.length) text = 'All even';
    else if (seat >= 0) text = top.includes(seat) ? (top.length > 1 ? 'You share the win' : 'You won') : 'You lost';
    else text = `${top.map((i) => names[i] || `Seat ${i + 1}`).join(' and ')} ${top.length > 1 ? 'share the win' : 'wins'}`;
  } else text = result || '';
  const why = reason && REASONS[reason] !== undefined ? REASONS[reason] : (reason || '').replace(/_/g, ' ');
  return why ? `${text} by ${why}` : text;
}
