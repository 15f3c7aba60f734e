// The evaluation over a whole game, in plain SVG: one point per move (White's view, in men,
// clamped to +-5), the marked moves as coloured dots, the current move as a vertical line.

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 160;
const CLAMP = 500;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

/** `points`: [{ply, white (centi-men, White's view), cls, text}] for plies 1..n; `current`:
 *  the ply shown on the board; `onPick(ply)` when the user clicks the graph. */
export function drawGraph(svg, points, current, onPick) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const n = Math.max(points.length, 1);
  const x = (ply) => (ply / n) * (W - 10) + 5;
  const y = (c) => H / 2 - (Math.max(-CLAMP, Math.min(CLAMP, c)) / CLAMP) * (H / 2 - 8);
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'g-white' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'g-black' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'g-axis' }, svg);
  if (points.length) {
    const d = [`M${x(0)} ${y(0)}`].concat(points.map((p) => `L${x(p.ply)} ${y(p.white)}`)).join(' ');
    el('path', { d: d + ` L${x(points[points.length - 1].ply)} ${H / 2} L${x(0)} ${H / 2} Z`, class: 'g-area' }, svg);
    el('path', { d, class: 'g-line' }, svg);
  }
  for (const p of points) {
    const c = el('circle', {
      cx: x(p.ply), cy: y(p.white), r: p.cls ? 5 : 2.2,
      class: `g-point ${p.cls || ''}`, 'data-ply': p.ply, 'data-class': p.cls || '',
    }, svg);
    const t = document.createElementNS(NS, 'title');
    t.textContent = p.text;
    c.appendChild(t);
  }
  if (current > 0) el('line', { x1: x(current), y1: 0, x2: x(current), y2: H, class: 'g-current' }, svg);
  svg.onclick = (e) => {
    const r = svg.getBoundingClientRect();
    const ply = Math.round((((e.clientX - r.left) / r.width) * W - 5) / (W - 10) * n);
    onPick(Math.max(0, Math.min(n, ply)));
  };
}
