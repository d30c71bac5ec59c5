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
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
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
  const name = typeof p === 'string' ? p : p.name;
  const bot = typeof p === 'object' && p.bot;
  return h('span.player', {}, name, bot ? h('span.badge.bot', { title: 'a program' }, 'bot') : h('span.badge.human', { title: 'a person' }, 'human'));
}

export function describeTimeControl(tc) {
  if (!tc || tc === 'none') return 'no clock';
  let m = /^fischer:(\d+)\+(\d+)$/.exec(tc);
  if (m) return `${Number(m[1]) / 60000} min + ${Number(m[2]) / 1000} s`;
  m = /^movetime:(\d+)$/.exec(tc);
  if (m) return `${Number(m[1]) / 1000} s per move`;
  return tc;
}

export function describeResult(result, reason, players) {
  const names = (players || []).map((p) => (typeof p === 'string' ? p : p && p.name));
  let text;
  if (result === '1-0') text = `${names[0] || 'First player'} wins`;
  else if (result === '0-1') text = `${names[1] || 'Second player'} wins`;
  else if (result === '1/2-1/2') text = 'Draw';
  else if (result === '*') text = 'Aborted';
  else if (result === 'solved') text = 'Solved';
  else text = result || '';
  const why = reason ? ` (${reason.replace(/_/g, ' ')})` : '';
  return text + why;
}
