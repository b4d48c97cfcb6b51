// Worker thread for bench/embed-cache.ts: loads one encoder (workerData.model: use-lite,
// all-MiniLM-L6-v2 or a folder), then answers each message (string[], exact model inputs) with
// their canonical int16 vectors; with workerData.queries, the texts are queries (the model's query
// form) embedded as one batched forward pass, as the app's embedder embeds a call's queries.
// Node only.
import { parentPort, workerData } from 'node:worker_threads';
import { loadNodeEncoder } from './embed-models';

const data = workerData as { model: string; queries?: boolean };
const encoder = await loadNodeEncoder(data.model);
parentPort!.on('message', (texts: string[]) => {
  parentPort!.postMessage(
    data.queries
      ? encoder.embedBatch(texts.map((t) => encoder.queryText(t)))
      : texts.map((t) => encoder.embed(t)),
  );
});
parentPort!.postMessage('ready');
