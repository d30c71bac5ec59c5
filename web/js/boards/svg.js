// Small helpers to build SVG boards without a framework.

const NS = 'http://www.w3.org/2000/svg';

// An SVG element with attributes; children may be elements or strings (text nodes).
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

// An <svg> filling its container's width, with a square (or w x h) view box.
export function svgRoot(w, h, label) {
  return s('svg', { viewBox: `0 0 ${w} ${h}`, class: 'board-svg', role: 'img', 'aria-label': label });
}

// A clickable cell: a rect with data-square, and a label for tests and screen readers.
export function cell(x, y, w, h, cls, square, extra = {}) {
  return s('rect', { x, y, width: w, height: h, class: cls, 'data-square': square, ...extra });
}

// A dot that marks a legal target.
export function targetDot(cx, cy, r, square) {
  return s('circle', { cx, cy, r, class: 'target-dot', 'data-target': square, 'pointer-events': 'none' });
}

// Replaces the children of `root` with `nodes`.
export function replaceChildren(root, nodes) {
  root.replaceChildren(...nodes.flat().filter(Boolean));
}
