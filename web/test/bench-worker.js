// The browser tests' bench worker: runs `crownhead bench` (Session.bench) in a worker of its
// own, where the engine searches in a page, and posts its lines back; the page's main thread
// stays free.
import init, { Session } from './crownhead_web.js';

const ready = init();
self.onmessage = async (e) => {
  await ready;
  const [depth, hash] = e.data;
  const lines = [];
  new Session((l) => lines.push(l)).bench(depth, hash);
  self.postMessage(lines);
};
