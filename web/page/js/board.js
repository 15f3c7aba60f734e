// The board, drawn in SVG from the rules library's layout (where each numbered square is, seen
// from White's side), and the mouse and touch input for moves: click the piece then the target
// (or drag it there). A multi-capture is entered by its final square; when two captures end on
// the same square, by the squares in between as well.

const NS = 'http://www.w3.org/2000/svg';
const CELL = 100;

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  /** `svg`: the <svg> element; `onMove(move)` is called with a legal move object chosen by
   *  the user; `onSquare(square)` in setup mode; `onMessage(text)` for explanations. */
  constructor(svg, { onMove, onSquare, onMessage }) {
    this.svg = svg;
    this.onMove = onMove;
    this.onSquare = onSquare;
    this.onMessage = onMessage;
    this.flipped = false;
    this.layout = [];
    this.names = {};
    this.pieces = [];
    this.legal = [];
    this.interactive = false;
    this.setup = false;
    this.lastMove = null;
    this.selected = null; // the from square
    this.path = []; // intermediate squares clicked since
    this.forced = []; // squares highlighted because they must capture
    this.arrows = [];
    svg.setAttribute('viewBox', `0 0 ${8 * CELL} ${8 * CELL}`);
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
  }

  /** The variant's geometry: `layout` as the rules library gives it, `names` square -> text. */
  setGeometry(layout, names, notation) {
    this.layout = layout;
    this.names = names;
    this.notation = notation;
  }

  /** What to draw: pieces [{square,color,king}], the legal moves of the side to move, whether
   *  the user may move now, and the last move's squares. */
  setPosition(pieces, legal, interactive, lastMove) {
    this.pieces = pieces;
    this.legal = legal;
    this.interactive = interactive;
    this.lastMove = lastMove;
    this.clearSelection();
    this.draw();
  }

  clearSelection() {
    this.selected = null;
    this.path = [];
    this.forced = [];
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
  }

  cellOf(square) {
    const s = this.layout.find((x) => x.square === square);
    if (!s) return null;
    return this.flipped ? { row: 7 - s.row, col: 7 - s.col } : { row: s.row, col: s.col };
  }

  squareAt(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    let col = Math.floor(((clientX - r.left) / r.width) * 8);
    let row = Math.floor(((clientY - r.top) / r.height) * 8);
    if (this.flipped) {
      col = 7 - col;
      row = 7 - row;
    }
    const s = this.layout.find((x) => x.row === row && x.col === col);
    return s ? s.square : null;
  }

  /** The moves consistent with the selection and the squares clicked since. */
  candidates() {
    if (this.selected === null) return [];
    return this.legal.filter((m) => {
      if (m.squares[0] !== this.selected) return false;
      let i = 1;
      for (const p of this.path) {
        while (i < m.squares.length && m.squares[i] !== p) i++;
        if (i >= m.squares.length) return false;
        i++;
      }
      return true;
    });
  }

  /** The squares to mark as targets: the final squares of the candidates, and while two
   *  candidates end on one square, the squares in between that tell them apart. */
  targets() {
    const c = this.candidates();
    const finals = new Set(c.map((m) => m.squares[m.squares.length - 1]));
    const between = new Set();
    if (this.pendingTo !== undefined && this.pendingTo !== null) {
      for (const m of c) {
        if (m.squares[m.squares.length - 1] !== this.pendingTo) continue;
        for (const s of m.squares.slice(1, -1)) between.add(s);
      }
    }
    return { finals, between };
  }

  click(square) {
    if (this.setup) {
      if (square !== null) this.onSquare(square);
      return;
    }
    if (!this.interactive || square === null) return;
    if (this.selected !== null) {
      const c = this.candidates();
      // A square in between that tells two same-ending captures apart.
      if (this.pendingTo != null) {
        const ending = c.filter((m) => m.squares[m.squares.length - 1] === this.pendingTo);
        const through = ending.filter((m) => m.squares.slice(1, -1).includes(square));
        if (through.length === 1) return this.play(through[0]);
        if (through.length > 1) {
          this.path.push(square);
          this.draw();
          return;
        }
      }
      const ending = c.filter((m) => m.squares[m.squares.length - 1] === square);
      if (ending.length === 1) return this.play(ending[0]);
      if (ending.length > 1) {
        this.pendingTo = square;
        this.onMessage(`${ending.length} captures end on ${this.names[square]}: click a square in between to choose`);
        this.draw();
        return;
      }
      if (c.some((m) => m.squares.slice(1, -1).includes(square))) {
        this.path.push(square);
        this.draw();
        return;
      }
    }
    this.pendingTo = null;
    this.path = [];
    const from = this.legal.filter((m) => m.squares[0] === square);
    if (from.length) {
      this.selected = this.selected === square ? null : square;
      this.forced = [];
      this.draw();
      return;
    }
    // A piece of the side to move that cannot move: say why, if a capture is compulsory.
    const mover = this.pieces.find((p) => p.square === square);
    const side = this.legal.length ? this.pieces.find((p) => p.square === this.legal[0].squares[0]) : null;
    if (mover && side && mover.color === side.color && this.legal.some((m) => m.captured.length)) {
      this.forced = [...new Set(this.legal.map((m) => m.squares[0]))];
      this.onMessage(`A capture is compulsory: ${this.forced.map((s) => this.names[s]).join(', ')} must capture`);
    }
    this.selected = null;
    this.draw();
  }

  play(move) {
    this.clearSelection();
    this.pendingTo = null;
    this.onMove(move);
  }

  pointerDown(e) {
    e.preventDefault();
    this.downSquare = this.squareAt(e.clientX, e.clientY);
    this.downSelected = this.selected;
    this.click(this.downSquare);
  }

  pointerUp(e) {
    // A drag: the piece picked up on one square and let go on another.
    const sq = this.squareAt(e.clientX, e.clientY);
    if (this.setup || sq === null || sq === this.downSquare || this.selected === null) return;
    this.click(sq);
  }

  draw() {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const marker = el('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' }, el('defs', {}, svg));
    el('path', { d: 'M0 0 L10 5 L0 10 Z', class: 'arrowhead' }, marker);
    const dark = new Set(this.layout.map((s) => `${s.row},${s.col}`));
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const r = this.flipped ? 7 - row : row;
        const c = this.flipped ? 7 - col : col;
        el('rect', {
          x: col * CELL, y: row * CELL, width: CELL, height: CELL,
          class: dark.has(`${r},${c}`) ? 'sq-dark' : 'sq-light',
        }, svg);
      }
    }
    const { finals, between } = this.targets();
    const at = (sq) => this.cellOf(sq);
    const mark = (sq, cls) => {
      const p = at(sq);
      if (p) el('rect', { x: p.col * CELL, y: p.row * CELL, width: CELL, height: CELL, class: cls }, svg);
    };
    if (this.lastMove) for (const s of [this.lastMove[0], this.lastMove[this.lastMove.length - 1]]) mark(s, 'sq-last');
    if (this.selected !== null) mark(this.selected, 'sq-selected');
    for (const s of this.path) mark(s, 'sq-path');
    for (const s of this.forced) mark(s, 'sq-forced');
    // Square numbers (numeric variants) or file and rank letters (algebraic ones).
    for (const s of this.layout) {
      const p = at(s.square);
      const name = this.names[s.square];
      if (this.notation === 'numeric') {
        const t = el('text', { x: p.col * CELL + 6, y: p.row * CELL + 22, class: 'sq-num' }, svg);
        t.textContent = name;
      }
    }
    if (this.notation !== 'numeric') {
      const files = {};
      const ranks = {};
      for (const s of this.layout) {
        const p = at(s.square);
        const name = this.names[s.square];
        files[p.col] = name.slice(0, 1);
        ranks[p.row] = name.slice(1);
      }
      for (const [col, f] of Object.entries(files)) {
        const t = el('text', { x: col * CELL + CELL - 18, y: 8 * CELL - 6, class: 'coord' }, svg);
        t.textContent = f;
      }
      for (const [row, r] of Object.entries(ranks)) {
        const t = el('text', { x: 4, y: row * CELL + 22, class: 'coord' }, svg);
        t.textContent = r;
      }
    }
    for (const piece of this.pieces) {
      const p = at(piece.square);
      if (!p) continue;
      const cx = p.col * CELL + CELL / 2;
      const cy = p.row * CELL + CELL / 2;
      const g = el('g', { class: `piece ${piece.color}${piece.king ? ' king' : ''}`, 'data-square': piece.square }, svg);
      el('circle', { cx, cy: cy + 4, r: 38, class: 'shadow' }, g);
      el('circle', { cx, cy, r: 38, class: 'body' }, g);
      el('circle', { cx, cy, r: 27, class: 'ring' }, g);
      if (piece.king) {
        // A crown: three points on a band.
        el('path', {
          d: `M${cx - 20} ${cy + 10} L${cx - 22} ${cy - 12} L${cx - 10} ${cy} L${cx} ${cy - 18} L${cx + 10} ${cy} L${cx + 22} ${cy - 12} L${cx + 20} ${cy + 10} Z`,
          class: 'crown',
        }, g);
      }
    }
    for (const s of finals) {
      const p = at(s);
      el('circle', { cx: p.col * CELL + CELL / 2, cy: p.row * CELL + CELL / 2, r: 16, class: 'target', 'data-square': s }, svg);
    }
    for (const s of between) {
      const p = at(s);
      el('circle', { cx: p.col * CELL + CELL / 2, cy: p.row * CELL + CELL / 2, r: 12, class: 'target between', 'data-square': s }, svg);
    }
    for (const a of this.arrows) this.drawArrow(a.from, a.to, a.cls);
  }

  drawArrow(from, to, cls) {
    const a = this.cellOf(from);
    const b = this.cellOf(to);
    if (!a || !b) return;
    const x1 = a.col * CELL + CELL / 2;
    const y1 = a.row * CELL + CELL / 2;
    const x2 = b.col * CELL + CELL / 2;
    const y2 = b.row * CELL + CELL / 2;
    el('line', { x1, y1, x2, y2, class: `arrow ${cls || ''}`, 'marker-end': 'url(#arrowhead)' }, this.svg);
  }

  /** The screen position of a square's centre, for tests and drags. */
  centre(square) {
    const p = this.cellOf(square);
    const r = this.svg.getBoundingClientRect();
    return { x: r.left + ((p.col + 0.5) / 8) * r.width, y: r.top + ((p.row + 0.5) / 8) * r.height };
  }
}
