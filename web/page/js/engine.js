// The engine in its Web Worker (crownhead-worker.js, built into web/dist), spoken to in Hub,
// one line per message. One search at a time: a new search stops the running one first and
// waits for its `done`, so the page never sees two searches' lines mixed.

/** A parsed `info` line: the fields the page shows. Score in centi-men, side to move's view,
 *  wins and losses as the engine encodes them (30000 - plies). */
export function parseInfo(line) {
  const field = (k) => {
    const m = line.match(new RegExp(`(?:^| )${k}=("([^"]*)"|\\S+)`));
    return m ? (m[2] !== undefined ? m[2] : m[1]) : null;
  };
  const score = menToCenti(parseFloat(field('score')));
  return {
    depth: parseInt(field('depth'), 10),
    score,
    nodes: parseInt(field('nodes') || '0', 10),
    nps: parseFloat(field('nps') || '0'), // in millions, as Hub writes it
    time: parseFloat(field('time') || '0'),
    multipv: parseInt(field('multipv') || '1', 10),
    pv: (field('pv') || '').trim().split(/\s+/).filter(Boolean),
  };
}

/** Hub writes men with two decimals and a win in n plies as 100 - n/100 men; back to the
 *  engine's centi-men with wins as 30000 - plies (what `classify` and `analyze` use). */
export function menToCenti(men) {
  if (!Number.isFinite(men)) return 0;
  const c = Math.round(men * 100);
  if (Math.abs(c) > 9000) {
    const plies = 10000 - Math.abs(c);
    return Math.sign(c) * (30000 - plies);
  }
  return c;
}

/** Whether a centi-men score is a win or loss (beyond the engine's threshold). */
export function isDecisive(c) {
  return Math.abs(c) > 29000;
}

/** A score for people: +1.25 or "wins in 7" / "loses in 3" (moves, not plies). */
export function scoreText(c) {
  if (isDecisive(c)) {
    const moves = Math.ceil((30000 - Math.abs(c)) / 2);
    return c > 0 ? `wins in ${moves}` : `loses in ${moves}`;
  }
  return (c >= 0 ? '+' : '') + (c / 100).toFixed(2);
}

export class Engine {
  constructor(url = 'crownhead-worker.js') {
    this.worker = new Worker(url);
    this.params = {};
    this.listeners = [];
    this.busy = null; // promise of the running search's done
    this.onInfo = null;
    this.doneResolve = null;
    this.log = [];
    this.worker.onmessage = (e) => this.receive(String(e.data));
    this.worker.onerror = (e) => this.receive(`error worker: ${e.message || 'failed to start'}`);
  }

  send(line) {
    this.log.push('> ' + line);
    this.worker.postMessage(line);
  }

  receive(line) {
    this.log.push('< ' + line);
    if (this.log.length > 400) this.log.splice(0, 200);
    if (line.startsWith('info ')) {
      if (this.onInfo) this.onInfo(parseInfo(line));
    } else if (line.startsWith('done')) {
      const m = line.match(/move=(\S+)/);
      const p = line.match(/ponder=(\S+)/);
      const resolve = this.doneResolve;
      this.doneResolve = null;
      this.onInfo = null;
      if (resolve) resolve({ move: m ? m[1] : null, ponder: p ? p[1] : null });
    } else if (line.startsWith('error') && this.doneResolve) {
      // A search refused (a bad position, say): nothing will come, so it ends here.
      const resolve = this.doneResolve;
      this.doneResolve = null;
      this.onInfo = null;
      resolve({ move: null, error: line });
    }
    for (const l of this.listeners.slice()) l(line);
  }

  /** Waits for the first line that `pred` accepts. */
  waitFor(pred) {
    return new Promise((resolve) => {
      const l = (line) => {
        if (pred(line)) {
          this.listeners.splice(this.listeners.indexOf(l), 1);
          resolve(line);
        }
      };
      this.listeners.push(l);
    });
  }

  /** The handshake: `hub` (the params, with the levels and variants the engine offers), then
   *  `init`. Returns the params as {name: {value, type, values}}. */
  async start() {
    const lines = [];
    const collect = (line) => lines.push(line);
    this.listeners.push(collect);
    const waited = this.waitFor((l) => l === 'wait');
    this.send('hub');
    await waited;
    this.listeners.splice(this.listeners.indexOf(collect), 1);
    for (const line of lines) {
      if (!line.startsWith('param ')) continue;
      const get = (k) => {
        const m = line.match(new RegExp(` ${k}=("([^"]*)"|\\S+)`));
        return m ? (m[2] !== undefined ? m[2] : m[1]) : null;
      };
      const values = get('values');
      this.params[get('name')] = { value: get('value'), type: get('type'), values: values ? values.split(' ') : null };
    }
    const ready = this.waitFor((l) => l === 'ready');
    this.send('init');
    await ready;
    return this.params;
  }

  /** Sets a param if it is not already at that value (the engine refuses none while idle). */
  setParam(name, value) {
    if (!this.params[name]) return false;
    if (this.params[name].value === String(value)) return true;
    this.params[name].value = String(value);
    this.send(`set-param name=${name} value=${value}`);
    return true;
  }

  /** Stops the running search, if any, and waits for its `done`. */
  async stop() {
    if (!this.busy) return;
    const busy = this.busy;
    this.send('stop');
    await busy;
  }

  /** One search: `pos` (a FEN and the moves from it, in Hub text), the `level` line's
   *  arguments, `go think|analyze`. Resolves with the move ({move, ponder}) at `done`.
   *  `params` are set first (variant, skill, multipv). */
  async search({ fen, moves = [], level = '', mode = 'think', params = {}, onInfo = null }) {
    while (this.busy) await this.stop();
    for (const [k, v] of Object.entries(params)) this.setParam(k, v);
    const quoted = moves.length ? ` moves="${moves.join(' ')}"` : '';
    let finish;
    const done = new Promise((r) => (finish = r));
    this.doneResolve = finish;
    this.onInfo = onInfo;
    this.busy = done;
    this.send(`pos pos=${fen}${quoted}`);
    if (level) this.send(`level ${level}`);
    this.send(`go ${mode}`);
    const result = await done;
    if (this.busy === done) this.busy = null;
    return result;
  }

  newGame() {
    this.send('new-game');
  }
}
