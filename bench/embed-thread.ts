// Worker thread for bench/embed-cache.ts: loads one encoder (workerData.model: use-lite,
// all-MiniLM-L6-v2 or a folder), then answers each message (string[], exact model inputs) with
// their canonical int16 vectors. Node only.
import { parentPort, workerData } from 'node:worker_threads';
import { loadNodeEncoder } from './embed-models';

const encoder = await loadNodeEncoder((workerData as { model: string }).model);
parentPort!.on('message', (texts: string[]) => {
  parentPort!.postMessage(texts.map((t) => encoder.embed(t)));
});
parentPort!.postMessage('ready');
