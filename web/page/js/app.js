// The page: the game and its moves, play against the engine, live analysis, whole-game
// analysis, PDN in and out. The rules (legal moves, notation, results, PDN, FEN checks, the
// classes of moves) all come from the engine's own library compiled to WebAssembly
// (crownhead_web.js); the engine's searches from its Web Worker (engine.js).

import initRules, * as wasm from '../crownhead_web.js';
import { Board } from './board.js';
import { Engine, scoreText, isDecisive } from './engine.js';
import { drawGraph } from './graph.js';

const $ = (id) => document.getElementById(id);

// The rules library under the names of the contract, whichever spelling the glue exports.
const R = {
  variants: () => JSON.parse((wasm.variants)()),
  layout: (v) => JSON.parse((wasm.layout)(v)),
  squareName: (v, s) => (wasm.square_name || wasm.squareName)(v, s),
  parsePdn: (t) => JSON.parse((wasm.parsePdn || wasm.parse_pdn)(t)),
  classify: (v, b, a) => (wasm.classify)(v, b, a),
};
const call = (obj, ...names) => {
  for (const n of names) if (typeof obj[n] === 'function') return obj[n].bind(obj);
  throw new Error(`the rules library has no ${names[0]}`);
};
const G = {
  make: (variant, fen) => (fen ? new wasm.Game(variant, fen) : new wasm.Game(variant)),
  fen: (g) => call(g, 'fen')(),
  side: (g) => call(g, 'sideToMove', 'side_to_move')(),
  pieces: (g) => JSON.parse(call(g, 'pieces')()),
  legal: (g) => JSON.parse(call(g, 'legalMoves', 'legal_moves')()),
  play: (g, t) => call(g, 'play')(t),
  result: (g) => JSON.parse(call(g, 'result')()),
  pdn: (g, tags) => call(g, 'pdn')(JSON.stringify(tags)),
};

const DRAW_ACCEPT = 10; // centi-men: the engine accepts a draw when it stands no better (as `crownhead play`)
const MARK = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const S = {
  variants: [],
  variant: 'russian',
  startFen: '',
  mainline: [], // move objects {text, squares, captured, hub}
  ply: 0,
  human: 'white',
  level: 'full',
  tags: null, // tags of an imported game
  ended: null, // {result, reason} when a player resigned or a draw was agreed
  token: 0, // bumped whenever the game changes under a running engine move
  thinking: false,
  analysisOn: false,
  lines: [],
  atoken: 0,
  review: null, // {key, evals: [{score, best}], classes: [..]} of the whole-game analysis
  reviewing: false,
  game: null, // the Game at the shown ply
};

let engine;
let board;

function message(text) {
  $('message').textContent = text || '';
}
function status(text) {
  $('status').textContent = text;
}

/** A square as Hub writes it: the variant's own number where the variant numbers its squares
 *  (mirrored for Italian and Spanish), else the PDN number. */
function hubSquare(sq) {
  return S.hubNames ? S.hubNames[sq] : sq;
}

function fromHubSquare(n) {
  return S.hubNames ? S.hubNames.indexOf(n) : n;
}

/** Hub's text of a move: from-to, or fromxto then the captured squares ascending. */
function hubText(m) {
  const from = hubSquare(m.squares[0]);
  const to = hubSquare(m.squares[m.squares.length - 1]);
  if (!m.captured.length) return `${from}-${to}`;
  return [from, to, ...m.captured.map(hubSquare).sort((a, b) => a - b)].join('x');
}

/** The legal move that a Hub move text names (same from, to and captured squares). */
function fromHub(legal, text) {
  const n = String(text).split(/[-x]/i).map(Number).map(fromHubSquare);
  const caps = n.slice(2).sort((a, b) => a - b).join(',');
  return legal.find((m) => m.squares[0] === n[0] && m.squares[m.squares.length - 1] === n[1]
    && (n.length === 2 || [...m.captured].sort((a, b) => a - b).join(',') === caps));
}

/** The Hub board string of a game's position: side, then 32 squares. */
function hubBoard(g) {
  const cells = Array(33).fill('e');
  for (const p of G.pieces(g)) {
    const c = p.color === 'white' ? 'w' : 'b';
    cells[hubSquare(p.square)] = p.king ? c.toUpperCase() : c;
  }
  return (G.side(g) === 'white' ? 'W' : 'B') + cells.slice(1).join('');
}

function variantInfo() {
  return S.variants.find((v) => v.name === S.variant) || S.variants[0];
}

/** The Game after the first `ply` moves of the main line. */
function gameAt(ply) {
  const g = G.make(S.variant, S.startFen);
  for (const m of S.mainline.slice(0, ply)) G.play(g, m.text);
  return g;
}

function setGame(g) {
  if (S.game && S.game !== g && S.game.free) S.game.free();
  S.game = g;
}

function engineColor() {
  if (S.human === 'both') return null;
  return S.human === 'white' ? 'black' : 'white';
}

function over() {
  if (S.ended && S.ply === S.mainline.length) return S.ended;
  const r = G.result(S.game);
  return r.over ? r : null;
}

// ---------------------------------------------------------------- drawing

function refresh() {
  const g = S.game;
  const end = over();
  const legal = end ? [] : G.legal(g);
  const atEnd = S.ply === S.mainline.length;
  const humanTurn = S.human === 'both' || G.side(g) === S.human || !atEnd;
  const last = S.ply > 0 ? S.mainline[S.ply - 1].squares : null;
  board.arrows = [];
  if (S.analysisOn && S.lines[0] && S.lines[0].moves[0]) {
    const m = S.lines[0].moves[0];
    board.arrows.push({ from: m.squares[0], to: m.squares[m.squares.length - 1] });
  }
  board.setPosition(G.pieces(g), legal, !S.thinking && humanTurn && !end, last);
  $('fen').value = G.fen(g);
  const side = G.side(g);
  if (end) {
    status(`Game over: ${end.result}, ${end.reason}`);
    $('result').textContent = `${end.result} (${end.reason})`;
  } else {
    $('result').textContent = S.ended ? `${S.ended.result} (${S.ended.reason})` : '';
    if (S.thinking) status('Crownhead is thinking…');
    else if (!atEnd) status(`Move ${S.ply} of ${S.mainline.length} (${side} to move): a move here starts a new line`);
    else if (S.human === 'both' || side === S.human) status(`${side === 'white' ? 'White' : 'Black'} to move`);
    else status(`${side === 'white' ? 'White' : 'Black'} to move (Crownhead)`);
  }
  drawMoves();
  drawLines();
  drawReview();
}

function moveNumbering(i) {
  // Ply i (0-based) of the main line: its move number and whether it is the first mover's.
  const first = variantInfo().startFen[0] === 'W' ? 'white' : 'black';
  const startSide = S.startFen[0] === 'W' ? 'white' : 'black';
  const offset = startSide === first ? 0 : 1;
  return { number: Math.floor((i + offset) / 2) + 1, firstMover: (i + offset) % 2 === 0, offset };
}

function drawMoves() {
  const list = $('movelist');
  list.textContent = '';
  const classes = S.review && S.review.key === reviewKey() ? S.review.classes : null;
  S.mainline.forEach((m, i) => {
    const { number, firstMover } = moveNumbering(i);
    if (firstMover || i === 0) {
      const n = document.createElement('span');
      n.className = 'num';
      n.textContent = firstMover ? `${number}.` : `${number}...`;
      list.appendChild(n);
    }
    const s = document.createElement('span');
    s.className = 'mv' + (i + 1 === S.ply ? ' current' : '');
    s.textContent = m.text;
    s.dataset.ply = i + 1;
    if (classes && classes[i + 1]) s.dataset.class = classes[i + 1];
    s.onclick = () => goTo(i + 1);
    list.appendChild(s);
    list.appendChild(document.createTextNode(' '));
  });
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function drawLines() {
  const ol = $('lines');
  ol.textContent = '';
  const whiteSign = G.side(S.game) === 'white' ? 1 : -1;
  if (!S.analysisOn) {
    setEvalBar(null);
    return;
  }
  S.lines.forEach((line, k) => {
    if (!line) return;
    const li = document.createElement('li');
    li.dataset.line = k + 1;
    const sc = document.createElement('span');
    sc.className = 'score';
    sc.textContent = scoreText(line.score * whiteSign);
    li.appendChild(sc);
    line.moves.forEach((m, j) => {
      const b = document.createElement('span');
      b.className = 'pvmove';
      b.tabIndex = 0;
      b.textContent = m.text;
      b.onclick = () => playLine(line.moves.slice(0, j + 1));
      b.onkeydown = (e) => { if (e.key === 'Enter') playLine(line.moves.slice(0, j + 1)); };
      li.appendChild(b);
      li.appendChild(document.createTextNode(' '));
    });
    const d = document.createElement('span');
    d.className = 'dim';
    d.textContent = ` depth ${line.depth}, ${(line.nps).toFixed(2)} Mnodes/s`;
    li.appendChild(d);
    ol.appendChild(li);
  });
  if (S.lines[0]) setEvalBar(S.lines[0].score * whiteSign);
}

/** The bar's white share: 50% at level, most of it at +-5 men, all of it for a win. */
function setEvalBar(white) {
  const fill = $('evalfill');
  if (white === null || white === undefined) {
    fill.style.height = '50%';
    $('evaltext').textContent = '';
    return;
  }
  const share = isDecisive(white) ? (white > 0 ? 1 : 0) : 0.5 + 0.5 * Math.tanh(white / 300);
  fill.style.height = `${(share * 100).toFixed(1)}%`;
  $('evaltext').textContent = isDecisive(white) ? (white > 0 ? 'W wins' : 'B wins') : (white / 100).toFixed(2);
  $('evalbar').setAttribute('aria-valuenow', Math.round(share * 200 - 100));
}

// ---------------------------------------------------------------- game changes

function goTo(ply) {
  ply = Math.max(0, Math.min(S.mainline.length, ply));
  if (ply === S.ply && S.game) return;
  S.ply = ply;
  setGame(gameAt(ply));
  message('');
  afterChange();
}

/** The user or engine plays `move` (a legal move object) at the shown ply. */
function playMove(move) {
  if (S.ply < S.mainline.length) {
    // A new line from here: the rest of the old one and its review go.
    S.mainline = S.mainline.slice(0, S.ply);
    S.ended = null;
  }
  G.play(S.game, move.text);
  S.mainline.push({ ...move, hub: hubText(move) });
  S.ply = S.mainline.length;
  message('');
  afterChange();
}

function playLine(moves) {
  if (S.thinking) return;
  for (const m of moves) {
    const legal = G.legal(S.game);
    const found = legal.find((x) => x.text === m.text);
    if (!found) break;
    playMove(found);
  }
}

function afterChange() {
  refresh();
  // The engine's move first: it marks the engine as thinking, which analysis waits for.
  maybeEngineMove();
  startAnalysis();
}

async function maybeEngineMove() {
  const ec = engineColor();
  if (!ec || over() || S.ply !== S.mainline.length || G.side(S.game) !== ec || S.thinking) return;
  S.thinking = true;
  const token = ++S.token;
  refresh();
  const r = await engine.search({
    fen: hubBoard(gameAt(0)),
    moves: S.mainline.map((m) => m.hub),
    level: 'move-time=1',
    mode: 'think',
    params: { skill: S.level, multipv: 1 },
  });
  if (token !== S.token) return;
  S.thinking = false;
  const move = r.move && fromHub(G.legal(S.game), r.move);
  if (!move) {
    message(`The engine did not answer with a legal move (${r.move || r.error || 'none'})`);
    refresh();
    return;
  }
  playMove(move);
}

function newGame() {
  S.token++;
  S.thinking = false;
  S.variant = $('variant').value;
  S.human = $('color').value;
  S.level = $('level').value || 'full';
  S.startFen = variantInfo().startFen;
  S.mainline = [];
  S.ply = 0;
  S.tags = null;
  S.ended = null;
  S.review = null;
  $('tags').textContent = '';
  setupGeometry();
  setGame(gameAt(0));
  engine.setParam('variant', S.variant);
  engine.newGame();
  message('');
  afterChange();
}

function setupGeometry() {
  const names = {};
  for (let s = 1; s <= 32; s++) names[s] = R.squareName(S.variant, s);
  // Numbered variants write their own numbers in Hub too (a mirror of the PDN numbers for
  // some); algebraic ones the PDN numbers.
  const numbered = variantInfo().notation === 'numeric';
  S.hubNames = numbered && Object.entries(names).some(([k, v]) => String(k) !== v)
    ? [0, ...Array.from({ length: 32 }, (_, i) => Number(names[i + 1]))] : null;
  board.setGeometry(R.layout(S.variant), names, variantInfo().notation);
  $('movetext').placeholder = variantInfo().notation === 'numeric' ? 'e.g. 11-15' : 'e.g. c3-d4';
}

function takeBack() {
  if (!S.mainline.length) return;
  S.token++;
  S.thinking = false;
  S.ended = null;
  let n = S.mainline.length;
  n--;
  const ec = engineColor();
  // Back to a position where it is the player's turn.
  while (ec && n > 0 && gameAt(n) && G.side(gameAt(n)) === ec) n--;
  S.mainline = S.mainline.slice(0, n);
  S.ply = n;
  setGame(gameAt(n));
  message('Taken back');
  afterChange();
}

function resign() {
  if (over() || S.human === 'both') return;
  S.token++;
  S.thinking = false;
  goTo(S.mainline.length);
  S.ended = { over: true, result: S.human === 'white' ? '0-1' : '1-0', reason: `${S.human} resigned` };
  refresh();
}

async function offerDraw() {
  if (over() || S.human === 'both' || S.thinking) return;
  goTo(S.mainline.length);
  status('Crownhead considers your offer…');
  const token = ++S.token;
  let score = 0;
  await engine.search({
    fen: hubBoard(gameAt(0)),
    moves: S.mainline.map((m) => m.hub),
    level: 'move-time=0.5',
    mode: 'think',
    params: { skill: 'full', multipv: 1 },
    onInfo: (i) => { score = i.score; },
  });
  if (token !== S.token) return;
  const mine = G.side(S.game) === engineColor() ? score : -score;
  if (mine <= DRAW_ACCEPT) {
    S.ended = { over: true, result: '1/2-1/2', reason: 'draw agreed' };
    message(`Crownhead accepts the draw (it stands ${scoreText(mine)})`);
  } else {
    message(`Crownhead declines the draw: it stands ${scoreText(mine)}`);
  }
  refresh();
  maybeEngineMove();
}

// ---------------------------------------------------------------- live analysis

async function startAnalysis() {
  const token = ++S.atoken;
  S.lines = [];
  if (!S.analysisOn || S.thinking || S.reviewing) {
    if (!S.thinking && !S.reviewing) await engine.stop();
    drawLines();
    return;
  }
  if (over()) {
    drawLines();
    $('enginestat').textContent = 'game over';
    await engine.stop();
    return;
  }
  const g = S.game;
  const root = G.legal(g);
  const hasMultipv = 'multipv' in engine.params;
  $('multipvnote').hidden = hasMultipv;
  $('multipvnote').textContent = 'This engine build reports one line (no multipv param).';
  $('enginestat').textContent = 'thinking…';
  engine.search({
    fen: hubBoard(gameAt(0)),
    moves: S.mainline.slice(0, S.ply).map((m) => m.hub),
    mode: 'analyze',
    params: { skill: 'full', multipv: 3 },
    onInfo: (info) => {
      if (token !== S.atoken) return;
      const moves = [];
      const walk = G.make(S.variant, G.fen(g));
      let legal = root;
      for (const h of info.pv) {
        const m = fromHub(legal, h);
        if (!m) break;
        moves.push(m);
        G.play(walk, m.text);
        legal = G.legal(walk);
      }
      if (walk.free) walk.free();
      S.lines[info.multipv - 1] = { ...info, moves };
      $('enginestat').textContent = `depth ${info.depth}, ${(info.nodes / 1e6).toFixed(2)} M nodes`;
      drawLines();
      if (info.multipv === 1) {
        const m = moves[0];
        board.arrows = m ? [{ from: m.squares[0], to: m.squares[m.squares.length - 1] }] : [];
        board.draw();
      }
    },
  });
}

// ---------------------------------------------------------------- whole-game analysis

function reviewKey() {
  return S.variant + '|' + S.startFen + '|' + S.mainline.map((m) => m.hub).join(' ');
}

async function analyseGame() {
  if (!S.mainline.length || S.reviewing) return;
  S.token++;
  S.thinking = false;
  S.reviewing = true;
  S.atoken++;
  await engine.stop();
  const per = $('gametime').value;
  const key = reviewKey();
  const n = S.mainline.length;
  const evals = [];
  const progress = $('progress');
  progress.hidden = false;
  progress.max = n + 1;
  $('analysegame').disabled = true;
  // As `crownhead analyze`: a fresh table, one line, full strength, every position in order.
  engine.newGame();
  const g = gameAt(0);
  for (let ply = 0; ply <= n; ply++) {
    if (ply > 0) G.play(g, S.mainline[ply - 1].text);
    const r = G.result(g);
    if (r.over) {
      evals.push({ score: r.result === '1/2-1/2' ? 0 : -30000, best: null });
    } else {
      let score = 0;
      const done = await engine.search({
        fen: hubBoard(gameAt(0)),
        moves: S.mainline.slice(0, ply).map((m) => m.hub),
        level: per,
        mode: 'think',
        params: { skill: 'full', multipv: 1 },
        onInfo: (i) => { if (i.multipv === 1) score = i.score; },
      });
      evals.push({ score, best: done.move });
    }
    progress.value = ply + 1;
    status(`Analysing the game: position ${ply + 1} of ${n + 1}`);
  }
  if (g.free) g.free();
  const classes = [null];
  for (let ply = 1; ply <= n; ply++) {
    const before = evals[ply - 1].score;
    const after = -evals[ply].score;
    const best = evals[ply - 1].best;
    const wasBest = best !== null && sameHub(best, S.mainline[ply - 1].hub);
    // The library's classes, exactly as `analyze`: the best move loses nothing.
    classes.push(R.classify(S.variant, before, wasBest ? before : after) || null);
  }
  S.review = { key, evals, classes, per };
  S.reviewing = false;
  progress.hidden = true;
  $('analysegame').disabled = false;
  refresh();
  startAnalysis();
}

function sameHub(a, b) {
  const norm = (t) => {
    const n = String(t).split(/[-x]/i).map(Number);
    return `${n[0]}>${n[1]}:${n.slice(2).sort((x, y) => x - y).join(',')}`;
  };
  return norm(a) === norm(b);
}

function drawReview() {
  const svg = $('graph');
  if (!S.review || S.review.key !== reviewKey()) {
    drawGraph(svg, [], 0, () => {});
    $('summary').textContent = S.mainline.length ? 'Not analysed yet.' : '';
    return;
  }
  const g = gameAt(0);
  const points = [];
  const counts = { white: [0, 0, 0], black: [0, 0, 0] };
  S.review.evals.forEach((e, ply) => {
    const side = G.side(g);
    if (ply > 0) {
      const white = side === 'white' ? e.score : -e.score;
      const cls = S.review.classes[ply];
      const m = S.mainline[ply - 1];
      points.push({ ply, white, cls, text: `${ply}. ${m.text} ${scoreText(white)}${cls ? ' ' + cls : ''}` });
      if (cls) counts[side === 'white' ? 'black' : 'white'][['inaccuracy', 'mistake', 'blunder'].indexOf(cls)]++;
    }
    if (ply < S.mainline.length) G.play(g, S.mainline[ply].text);
  });
  if (g.free) g.free();
  drawGraph(svg, points, S.ply, goTo);
  const t = (c) => `${c[0]} inaccuracies, ${c[1]} mistakes, ${c[2]} blunders`;
  $('summary').textContent = `Each position ${S.review.per.replace('move-time=', '').replace('depth=', 'depth ')}${S.review.per.startsWith('move') ? ' s' : ''}. White: ${t(counts.white)}. Black: ${t(counts.black)}.`;
}

// ---------------------------------------------------------------- PDN

let imported = [];

function importPdn(text) {
  const errors = $('pdnerrors');
  errors.textContent = '';
  let parsed;
  try {
    parsed = R.parsePdn(text);
  } catch (e) {
    const li = document.createElement('li');
    li.textContent = e.message || String(e);
    errors.appendChild(li);
    return;
  }
  for (const e of parsed.errors || []) {
    const li = document.createElement('li');
    li.textContent = `line ${e.line}: ${e.message}`;
    errors.appendChild(li);
  }
  imported = parsed.games || [];
  const pick = $('gamepick');
  pick.textContent = '';
  pick.hidden = imported.length < 2;
  imported.forEach((g, i) => {
    const o = document.createElement('option');
    o.value = i;
    o.textContent = `${i + 1}. ${g.tags.White || '?'} – ${g.tags.Black || '?'} ${g.tags.Result || ''}`;
    pick.appendChild(o);
  });
  if (imported.length) loadGame(imported[0]);
  else if (!parsed.errors || !parsed.errors.length) message('No game found in the PDN');
}

function loadGame(pg) {
  if (!S.variants.some((v) => v.name === pg.variant)) {
    message(`This page's engine does not play ${pg.variant}`);
    return;
  }
  S.token++;
  S.thinking = false;
  S.variant = pg.variant;
  $('variant').value = pg.variant;
  $('color').value = 'both';
  S.human = 'both';
  S.startFen = pg.startFen || variantInfo().startFen;
  S.tags = pg.tags;
  S.ended = null;
  S.review = null;
  setupGeometry();
  const g = G.make(S.variant, S.startFen);
  S.mainline = [];
  for (const text of pg.moves) {
    const legal = G.legal(g);
    const before = G.fen(g);
    try {
      G.play(g, text);
    } catch (e) {
      message(`Move ${S.mainline.length + 1} (${text}): ${e.message || e}`);
      break;
    }
    const m = legal.find((x) => x.text === text) || matchByResult(legal, before, G.fen(g));
    if (!m) {
      message(`Move ${text} could not be matched`);
      break;
    }
    S.mainline.push({ ...m, hub: hubText(m) });
  }
  if (g.free) g.free();
  S.ply = 0;
  setGame(gameAt(0));
  engine.setParam('variant', S.variant);
  engine.newGame();
  const tags = Object.entries(pg.tags || {}).map(([k, v]) => `${k}: ${v}`).join(' · ');
  $('tags').textContent = tags;
  message(`Imported ${pg.moves.length} moves`);
  afterChange();
}

/** The legal move from `before` that leads to `after`. */
function matchByResult(legal, before, after) {
  return legal.find((x) => {
    const t = G.make(S.variant, before);
    G.play(t, x.text);
    const same = G.fen(t) === after;
    if (t.free) t.free();
    return same;
  });
}

function exportPdn() {
  const g = gameAt(S.mainline.length);
  const end = S.ended || (G.result(g).over ? G.result(g) : null);
  const level = S.level === 'full' ? 'Crownhead' : `Crownhead (${S.level})`;
  const tags = { ...(S.tags || {
    Event: 'Crownhead web',
    Date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
    White: S.human === 'white' ? 'You' : S.human === 'black' ? level : '?',
    Black: S.human === 'black' ? 'You' : S.human === 'white' ? level : '?',
  }) };
  tags.Result = end ? end.result : '*';
  const text = G.pdn(g, tags);
  if (g.free) g.free();
  $('pdntext').value = text;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-checkers-pdn' }));
  a.download = 'crownhead.pdn';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------- setup

let editing = null; // {pieces: Map square -> piece}

function setFen(fen) {
  let g;
  try {
    g = G.make(S.variant, fen.trim());
  } catch (e) {
    message(`Not set: ${e.message || e}`);
    return false;
  }
  S.token++;
  S.thinking = false;
  S.startFen = G.fen(g);
  S.mainline = [];
  S.ply = 0;
  S.tags = null;
  S.ended = null;
  S.review = null;
  setGame(g);
  engine.newGame();
  message('Position set');
  afterChange();
  return true;
}

function startEditing() {
  editing = new Map(G.pieces(S.game).map((p) => [p.square, p]));
  $('editside').value = G.side(S.game) === 'white' ? 'W' : 'B';
  $('editbar').hidden = false;
  $('edit').hidden = true;
  board.setup = true;
  board.setPosition([...editing.values()], [], false, null);
  status('Placing pieces: click the dark squares');
}

function cycle(square) {
  const order = [null, ['white', false], ['white', true], ['black', false], ['black', true]];
  const p = editing.get(square);
  const i = p ? order.findIndex((o) => o && o[0] === p.color && o[1] === p.king) : 0;
  const next = order[(i + 1) % order.length];
  if (next) editing.set(square, { square, color: next[0], king: next[1] });
  else editing.delete(square);
  board.setPosition([...editing.values()], [], false, null);
}

function editFen() {
  const list = (c) => [...editing.values()].filter((p) => p.color === c)
    .sort((a, b) => a.square - b.square).map((p) => (p.king ? 'K' : '') + p.square).join(',');
  return `${$('editside').value}:W${list('white')}:B${list('black')}`;
}

function stopEditing(apply) {
  if (apply && !setFen(editFen())) return; // the message says why; keep editing
  editing = null;
  board.setup = false;
  $('editbar').hidden = true;
  $('edit').hidden = false;
  refresh();
}

// ---------------------------------------------------------------- start

function keys(e) {
  const tag = (e.target.tagName || '').toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select') return;
  const moves = { ArrowLeft: S.ply - 1, ArrowRight: S.ply + 1, Home: 0, End: S.mainline.length, ArrowUp: 0, ArrowDown: S.mainline.length };
  if (e.key in moves) {
    e.preventDefault();
    goTo(moves[e.key]);
  } else if (e.key === 'f') {
    board.flip();
  }
}

function wire() {
  $('new').onclick = newGame;
  $('variant').onchange = newGame;
  $('color').onchange = () => { S.human = $('color').value; S.token++; S.thinking = false; afterChange(); };
  $('level').onchange = () => { S.level = $('level').value; };
  $('flip').onclick = () => board.flip();
  $('takeback').onclick = takeBack;
  $('resign').onclick = resign;
  $('draw').onclick = offerDraw;
  $('first').onclick = () => goTo(0);
  $('prev').onclick = () => goTo(S.ply - 1);
  $('next').onclick = () => goTo(S.ply + 1);
  $('last').onclick = () => goTo(S.mainline.length);
  document.addEventListener('keydown', keys);
  $('engineon').onchange = () => { S.analysisOn = $('engineon').checked; if (!S.analysisOn) board.arrows = []; refresh(); startAnalysis(); };
  $('analysegame').onclick = analyseGame;
  $('moveform').onsubmit = (e) => {
    e.preventDefault();
    const text = $('movetext').value.trim();
    if (!text || S.thinking || over()) return;
    const t = G.make(S.variant, G.fen(S.game));
    try {
      G.play(t, text);
    } catch (err) {
      const legal = G.legal(S.game).map((m) => m.text).join(', ');
      message(`${err.message || err}. Legal: ${legal}`);
      return;
    } finally {
      if (t.free) t.free();
    }
    // The legal move with the same result.
    const t2 = G.make(S.variant, G.fen(S.game));
    G.play(t2, text);
    const m = matchByResult(G.legal(S.game), G.fen(S.game), G.fen(t2));
    if (t2.free) t2.free();
    if (m) {
      $('movetext').value = '';
      playMove(m);
    }
  };
  $('fenform').onsubmit = (e) => { e.preventDefault(); setFen($('fen').value); };
  $('edit').onclick = startEditing;
  $('editdone').onclick = () => stopEditing(true);
  $('editcancel').onclick = () => stopEditing(false);
  $('clearboard').onclick = () => { editing.clear(); board.setPosition([], [], false, null); };
  $('import').onclick = () => importPdn($('pdntext').value);
  $('pdnfile').onchange = async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const text = await f.text();
    $('pdntext').value = text;
    importPdn(text);
  };
  $('gamepick').onchange = () => loadGame(imported[Number($('gamepick').value)]);
  $('export').onclick = exportPdn;
}

async function main() {
  try {
    await initRules();
  } catch (e) {
    status(`Could not load the engine's rules (crownhead_web.js): ${e.message || e}. Build them with scripts/build_web.sh`);
    return;
  }
  S.variants = R.variants();
  for (const v of S.variants) {
    const o = document.createElement('option');
    o.value = v.name;
    o.textContent = v.name[0].toUpperCase() + v.name.slice(1);
    $('variant').appendChild(o);
  }
  board = new Board($('board'), {
    onMove: (m) => playMove(m),
    onSquare: (s) => cycle(s),
    onMessage: (t) => message(t),
  });
  engine = new Engine('crownhead-worker.js');
  window.crownhead = { S, engine, board, goTo, R, G, hubText };
  status('Starting the engine…');
  const params = await engine.start();
  const levels = params.skill ? params.skill.values : ['full'];
  for (const l of levels) {
    const o = document.createElement('option');
    o.value = l;
    o.textContent = l[0].toUpperCase() + l.slice(1);
    $('level').appendChild(o);
  }
  $('level').value = levels.includes('casual') ? 'casual' : levels[levels.length - 1];
  wire();
  newGame();
  document.body.dataset.ready = '1';
}

main();
