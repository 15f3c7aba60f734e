// crownhead_web.js: the engine's WebAssembly (crownhead_web_bg.wasm, built from web/engine/) as
// an ES module: the rules for a page (variants, layout, squareName, classify, parsePdn, Game)
// and the Hub session for the worker (Session). docs/WEB.md describes the API.
//
// Written by hand against the WebAssembly's exports (web/engine/src/exports.rs) and their
// calling convention (web/engine/src/abi.rs): text goes in through a buffer from
// `buffer_alloc`, which the call frees; text comes back in the answer buffer; a call that fails
// returns -1 with the error's message as the answer; games and sessions are handles. It keeps
// the API of the wasm-bindgen glue it replaced, so that building for the browser needs only
// `cargo build`, not a bindings generator's CLI compiled on every fresh machine.
//
//   import init, { Game, Session } from './crownhead_web.js';
//   await init();   // or init({ module_or_path: url }), or initSync({ module: bytes })

let wasm; // the instance's exports, once loaded
let output = null; // the latest Session's output function
let flags = null; // the latest Session's Int32Array of signals, if any

const FAILED = -1;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

// The memory is read through a fresh view each time: a view dies when the memory grows.
const bytes = (ptr, len) => new Uint8Array(wasm.memory.buffer, ptr >>> 0, len >>> 0);

// A text argument as (ptr, len) in a buffer the call takes; (0, 0) for an omitted one.
function pass(text) {
  if (text === undefined || text === null) return [0, 0];
  const data = encoder.encode(String(text));
  const ptr = wasm.buffer_alloc(data.length) >>> 0;
  bytes(ptr, data.length).set(data);
  return [ptr, data.length];
}

// The last call's answer.
const answer = () => decoder.decode(bytes(wasm.answer_ptr(), wasm.answer_len()));

// A call's return value, or its error thrown.
function checked(value) {
  if (value === FAILED) throw new Error(answer());
  return value;
}

// A call that answers text: the text, or its error thrown.
function text(value) {
  checked(value);
  return answer();
}

// The host functions the WebAssembly imports: the library's clock, the session's output and
// its stop and ponder-hit flags.
function imports() {
  return {
    crownhead: {
      now: () => performance.now(),
    },
    crownhead_web: {
      output: (ptr, len) => {
        const line = decoder.decode(bytes(ptr, len));
        try {
          if (output) output.call(null, line);
        } catch (e) {
          // A throwing listener must not stop the engine; the line is lost to it.
        }
      },
      flag: (i) => (flags ? Atomics.load(flags, i) : 0),
    },
  };
}

// Frees an object's handle when its JavaScript object is collected without `free()`.
const finalizer = (free) => (typeof FinalizationRegistry === 'undefined'
  ? { register: () => {}, unregister: () => {} }
  : new FinalizationRegistry((handle) => wasm[free](handle)));
const GameFinalization = finalizer('game_free');
const SessionFinalization = finalizer('session_free');

/** Every variant the engine plays: `[{"name","gameType","startFen","notation"}]` (JSON). */
export function variants() {
  return text(wasm.variants());
}

/** Where each of the 32 squares is drawn, seen from White's side (JSON); throws on an unknown
 *  variant. */
export function layout(variant) {
  return text(wasm.layout(...pass(String(variant))));
}

/** A square's name as the variant writes it: `b8` (algebraic) or `1` (numeric). */
export function squareName(variant, square) {
  const sq = +square;
  return text(wasm.square_name(...pass(String(variant)), sq));
}

/** A move's class by the scores before and after it, from the mover's side, in centi-men:
 *  "", "inaccuracy", "mistake" or "blunder". */
export function classify(variant, before, after) {
  const b = +before;
  const a = +after;
  return text(wasm.classify(...pass(String(variant)), b, a));
}

/** Every game of a PDN text: `{"games":[...],"errors":[...]}` (JSON). */
export function parsePdn(pdn) {
  return text(wasm.parse_pdn(...pass(String(pdn))));
}

/** A game from a start position: moves played and taken back by the variant's rules. */
export class Game {
  /** A game of `variant` from `fen`, or from the variant's start when `fen` is omitted; throws
   *  on an unknown variant or a bad FEN. */
  constructor(variant, fen) {
    const v = pass(String(variant));
    const f = pass(fen);
    this.__handle = checked(wasm.game_new(...v, ...f));
    GameFinalization.register(this, this.__handle, this);
  }

  /** Frees the game now (the object is unusable after). */
  free() {
    const handle = this.__handle;
    this.__handle = 0;
    GameFinalization.unregister(this);
    wasm.game_free(handle);
  }

  /** The current position as PDN FEN, in the variant's numbering. */
  fen() { return text(wasm.game_fen(this.__handle)); }

  /** The variant's name. */
  variant() { return text(wasm.game_variant(this.__handle)); }

  /** "white" or "black". */
  sideToMove() { return text(wasm.game_side_to_move(this.__handle)); }

  /** `[{"square","color","king"}]` (JSON). */
  pieces() { return text(wasm.game_pieces(this.__handle)); }

  /** `[{"text","squares","captured"}]` (JSON): each legal move. */
  legalMoves() { return text(wasm.game_legal_moves(this.__handle)); }

  /** Plays a move in any notation the engine reads and returns it in the variant's; throws on
   *  an illegal move, the game unchanged. */
  play(move) { return text(wasm.game_play(this.__handle, ...pass(String(move)))); }

  /** Takes back the last move; throws at the start. */
  undo() { checked(wasm.game_undo(this.__handle)); }

  /** The moves played, in the variant's notation (JSON). */
  moves() { return text(wasm.game_moves(this.__handle)); }

  /** `{"over","result","reason"}` (JSON) by the variant's rules. */
  result() { return text(wasm.game_result(this.__handle)); }

  /** The game as PDN with the given tags (a JSON object of strings, or omitted). */
  pdn(tagsJson) { return text(wasm.game_pdn(this.__handle, ...pass(tagsJson))); }
}
if (Symbol.dispose) Game.prototype[Symbol.dispose] = Game.prototype.free;

/** A Hub session: one line in, lines out. A module serves one session at a time: the latest
 *  made receives the output and reads the flags. */
export class Session {
  /** A session that calls `outputFn(line)` for each line it writes, and reads `stop` and
   *  `ponder-hit` from `flagsArray` (an `Int32Array` of 2 over a `SharedArrayBuffer`) during a
   *  search, or only between lines when it is omitted. */
  constructor(outputFn, flagsArray) {
    output = outputFn;
    flags = flagsArray === undefined || flagsArray === null ? null : flagsArray;
    this.__handle = checked(wasm.session_new(flags ? 1 : 0));
    SessionFinalization.register(this, this.__handle, this);
  }

  /** Frees the session now (the object is unusable after). */
  free() {
    const handle = this.__handle;
    this.__handle = 0;
    SessionFinalization.unregister(this);
    wasm.session_free(handle);
  }

  /** Handles one line of Hub; returns false after `quit`. */
  line(line) {
    return checked(wasm.session_line(this.__handle, ...pass(String(line)))) !== 0;
  }

  /** The bench (`crownhead bench --depth D --hash H --threads 1`), its lines through the output
   *  function; throws on a bad depth or hash size. */
  bench(depth, hashMb) {
    checked(wasm.session_bench(this.__handle, depth, hashMb));
  }
}
if (Symbol.dispose) Session.prototype[Symbol.dispose] = Session.prototype.free;

// ---- Loading ----

async function instantiate(source, imports) {
  if (typeof Response === 'function' && source instanceof Response) {
    if (!source.ok) {
      throw new Error(`failed to fetch Wasm: ${source.status} ${source.statusText} fetching '${source.url}'`);
    }
    if (typeof WebAssembly.instantiateStreaming === 'function') {
      try {
        return await WebAssembly.instantiateStreaming(source, imports);
      } catch (e) {
        // A server that sends no `application/wasm` type: the slower way below still works.
        const basic = ['basic', 'cors', 'default'].includes(source.type);
        if (!basic || source.headers.get('Content-Type') === 'application/wasm') throw e;
        console.warn('`WebAssembly.instantiateStreaming` failed (the server does not serve Wasm as `application/wasm`); falling back to `WebAssembly.instantiate`:\n', e);
      }
    }
    return WebAssembly.instantiate(await source.arrayBuffer(), imports);
  }
  const instance = await WebAssembly.instantiate(source, imports);
  return instance instanceof WebAssembly.Instance ? { instance, module: source } : instance;
}

function finish(instance) {
  wasm = instance.exports;
  return wasm;
}

/** Loads the engine synchronously from `{ module }`: a `WebAssembly.Module` or its bytes. */
export function initSync(module) {
  if (wasm !== undefined) return wasm;
  if (module !== undefined && Object.getPrototypeOf(module) === Object.prototype) ({ module } = module);
  if (!(module instanceof WebAssembly.Module)) module = new WebAssembly.Module(module);
  return finish(new WebAssembly.Instance(module, imports()));
}

let loading;

/** Loads the engine: from `crownhead_web_bg.wasm` beside this module, or from
 *  `{ module_or_path }` (a URL, a string, a Request, a Response, a `WebAssembly.Module` or the
 *  bytes). Resolves to the WebAssembly's exports; loads once. */
async function init(options) {
  if (wasm !== undefined) return wasm;
  if (loading === undefined) {
    loading = load(options);
    loading.catch(() => { loading = undefined; });
  }
  return loading;
}

async function load(options) {
  let source = options;
  if (source !== undefined && Object.getPrototypeOf(source) === Object.prototype) {
    source = source.module_or_path;
  }
  if (source === undefined) source = new URL('crownhead_web_bg.wasm', import.meta.url);
  if (typeof source === 'string' || (typeof Request === 'function' && source instanceof Request)
      || source instanceof URL) {
    source = fetch(source);
  }
  const { instance } = await instantiate(await source, imports());
  return finish(instance);
}

export default init;
