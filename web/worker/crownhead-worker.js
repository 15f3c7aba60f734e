// crownhead-worker.js: Crownhead, the checkers engine, as a Web Worker speaking Hub over
// postMessage, one text line per message (docs/WEB.md). Start it with
// `new Worker('crownhead-worker.js')`; crownhead_web.js and crownhead_web_bg.wasm sit beside it.
//
// The file plays two parts. Started by a page it is the *front*: it starts itself again as a
// nested worker, the *engine*, which runs the WebAssembly and searches on its own thread. The
// front is never busy, so it sees `stop` at once, and hands it to the searching engine:
//  - on a cross-origin isolated page (COOP/COEP headers), through a SharedArrayBuffer the
//    engine's search reads every thousand nodes or so: the search stops within a millisecond
//    and answers with its own best move, as natively;
//  - elsewhere, where no memory can be shared, by ending the engine worker and answering
//    `done` with the first moves of the last `info` line's pv, then starting a fresh engine
//    and replaying the settings and position to it (its hash table is lost).
// Searches are numbered by their `go` lines on both sides, so that a stop meant for one
// search never stops the next.

'use strict';

const ENGINE_NAME = 'crownhead-engine';

function command(line) {
  return line.trim().split(/\s+/)[0] || '';
}

if (self.name === ENGINE_NAME) {
  // ---- The engine: the wasm Hub session, fed line by line. ----
  let session = null;
  let flags = null;
  const pending = [];
  let searches = 0;

  let lines = 0;
  const drain = () => {
    while (session && pending.length) {
      const line = pending.shift();
      const go = command(line) === 'go';
      lines += 1;
      if (go) {
        searches += 1;
        // The front answers `ping` itself while this line runs.
        self.postMessage({ busy: lines });
      }
      session.line(line);
      // Every line's answers are out: the front counts the line done, and a search over.
      self.postMessage({ processed: lines, searched: searches });
    }
  };

  self.onmessage = (e) => {
    const data = e.data;
    if (data && typeof data === 'object') {
      // The first message: the shared flags (or null), then the module is loaded.
      flags = data.flags || null;
      import(new URL('crownhead_web.js', self.location.href).href)
        .then(async (m) => {
          await m.default({ module_or_path: new URL('crownhead_web_bg.wasm', self.location.href) });
          session = new m.Session((line) => self.postMessage(line), flags || undefined);
          drain();
        })
        .catch((err) => {
          self.postMessage(`error message="cannot load the engine: ${String(err).replace(/["=]/g, "'")}"`);
        });
      return;
    }
    pending.push(String(data));
    drain();
  };
} else {
  // ---- The front: relays lines, sees `stop` while the engine searches. ----
  const shared = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  const flags = shared ? new Int32Array(new SharedArrayBuffer(8)) : null;
  let engine = null;
  let sent = 0; // `go` lines sent to the current engine
  let searched = 0; // of them, those it has finished
  let forwarded = 0; // lines sent to the current engine
  let processed = 0; // of them, those it has answered
  let busy = 0; // the line (a go) it is running, if above `processed`
  const pings = []; // for each `ping` not yet answered, the lines sent before it
  let lastInfo = null; // the last info line of the running search
  let swallowing = false; // while a fresh engine replays the settings
  let stopWhenInfo = false; // no info line yet to answer a stop from
  const held = []; // lines that came meanwhile, for the fresh engine
  // What a fresh engine needs to reach the state of the one it replaces.
  const settings = [];
  let position = [];

  const start = () => {
    engine = new Worker(self.location.href, { name: ENGINE_NAME });
    engine.onmessage = (e) => fromEngine(e.data);
    engine.onerror = (e) => {
      self.postMessage(`error message="engine worker failed: ${String(e.message).replace(/["=]/g, "'")}"`);
    };
    engine.postMessage({ flags });
    sent = 0;
    searched = 0;
    forwarded = 0;
    processed = 0;
    busy = 0;
  };

  const forward = (line) => {
    forwarded += 1;
    engine.postMessage(line);
  };

  // A `ping` is answered once every line before it has been answered, or at once when the
  // only line before it still running is a search: as the native reader thread answers it.
  const answerPings = () => {
    while (pings.length && (processed >= pings[0] || (busy > processed && busy === pings[0]))) {
      pings.shift();
      if (!swallowing) self.postMessage('pong');
    }
  };

  const fromEngine = (data) => {
    if (data && typeof data === 'object') {
      if (data.busy) busy = data.busy;
      if (data.processed) {
        processed = data.processed;
        searched = data.searched;
      }
      answerPings();
      return;
    }
    const line = String(data);
    if (swallowing) {
      if (line === 'pong') swallowing = false;
      return;
    }
    if (line.startsWith('info ')) {
      lastInfo = line;
      if (stopWhenInfo) {
        stopWhenInfo = false;
        self.postMessage(line);
        restart();
        return;
      }
    }
    self.postMessage(line);
    if (stopWhenInfo && (line.startsWith('done') || line.startsWith('error'))) {
      // The search ended by itself before any info line: nothing to end.
      stopWhenInfo = false;
      release();
    }
  };

  const release = () => {
    for (const line of held.splice(0)) handle(line);
  };

  // Without shared memory: end the searching engine, answer from its last info line, start a
  // fresh one in the state the old one was in.
  const restart = () => {
    const pv = lastInfo && /pv="([^"]*)"/.exec(lastInfo);
    const moves = pv ? pv[1].trim().split(/\s+/).filter(Boolean) : [];
    engine.terminate();
    let done = 'done';
    if (moves.length > 0) done += ` move=${moves[0]}`;
    if (moves.length > 1) done += ` ponder=${moves[1]}`;
    self.postMessage(done);
    // The old engine's lines are gone with it: pings waiting on them are answered now.
    for (const p of pings.splice(0)) self.postMessage('pong');
    start();
    swallowing = true;
    for (const line of settings.concat(position)) forward(line);
    forward('ping');
    release();
  };

  const stopSearch = () => {
    if (flags) {
      Atomics.store(flags, 0, sent);
    } else if (lastInfo) {
      restart();
    } else {
      stopWhenInfo = true;
    }
  };

  const handle = (line) => {
    const cmd = command(line);
    if (cmd === 'ping' && line.trim() === 'ping') {
      pings.push(forwarded);
      answerPings();
      return;
    }
    if (stopWhenInfo) {
      held.push(line);
      return;
    }
    if (sent > searched) {
      // A search runs or waits to: any line but `ponder-hit` ends it first (Scan's rule).
      if (cmd === 'ponder-hit') {
        if (flags) Atomics.store(flags, 1, sent);
        else stopSearch();
      } else {
        stopSearch();
      }
    }
    if (cmd === 'set-param' || cmd === 'init') settings.push(line);
    if (cmd === 'pos') position = [line];
    if (cmd === 'level') position.push(line);
    if (cmd === 'go') {
      sent += 1;
      lastInfo = null;
    }
    if (!stopWhenInfo) forward(line);
    else held.push(line);
  };

  self.onmessage = (e) => handle(String(e.data));
  start();
}
