// Worker thread for lab/embed-cache.ts: loads one encoder (workerData.model: use-lite,
// all-MiniLM-L6-v2 or a folder), then answers each message (string[], exact model inputs) with
// their canonical int16 vectors; with workerData.queries, the texts are queries (the model's query
// form) embedded as one batched forward pass, as the app's embedder embeds a call's queries.
// The message 'memory' ('memory-gc': after a collection) is answered with this thread's own
// memory (V8 heap of its isolate, external incl. the kernel's WASM memory) for the embed-bert
// bench. Node only.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { loadNodeEncoder } from './embed-models';

const data = workerData as {
  model: string;
  queries?: boolean;
  /**
   * Fault injection for the pool's tests: at its `atBatch`-th batch (0-based) the thread hangs
   * (spins forever, as an endless loop in the runtime would: alive, silent) or crashes (an
   * uncaught error ends the thread) before answering.
   */
  fault?: { kind: 'hang' | 'crash'; atBatch: number };
};
const encoder = await loadNodeEncoder(data.model);
let batches = 0;
parentPort!.on('message', (texts: string[] | 'memory' | 'memory-gc') => {
  if (texts === 'memory' || texts === 'memory-gc') {
    // 'memory-gc' first collects garbage (when run with --expose-gc): live memory only.
    if (texts === 'memory-gc') (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage(); // heap and external are this isolate's; rss the process's
    const h = getHeapStatistics();
    parentPort!.postMessage({
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      rss: m.rss,
      mallocedMemory: h.malloced_memory,
    });
    return;
  }
  if (data.fault && batches++ === data.fault.atBatch) {
    if (data.fault.kind === 'crash') throw new Error('RuntimeError: unreachable (injected crash)');
    for (;;); // injected hang: only terminate() stops it
  }
  parentPort!.postMessage(
    data.queries
      ? encoder.embedBatch(texts.map((t) => encoder.queryText(t)))
      : texts.map((t) => encoder.embed(t)),
  );
});
parentPort!.postMessage('ready');
