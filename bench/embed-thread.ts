// Worker thread for bench/embed-cache.ts: loads the canonical runtime + USE-lite, then answers
// each message (string[]) with their int16 vectors. Node only.
import { parentPort } from 'node:worker_threads';
import { createNodeKernel, readUseLiteFile } from '../workers/embed/node-kernel';
import { loadUseLite } from '../workers/embed/use-lite';

const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
parentPort!.on('message', (texts: string[]) => {
  parentPort!.postMessage(texts.map((t) => model.embedInt16(t)));
});
parentPort!.postMessage('ready');
