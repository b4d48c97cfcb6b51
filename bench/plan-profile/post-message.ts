// Ad-hoc (issue 15, RAGF-006): what a worker thread postMessage of a few strings costs the sender,
// to an idle thread and to one busy for 5 ms. `npx tsx bench/plan-profile/post-message.ts`
import { Worker } from 'node:worker_threads';
const w = new Worker(
  `const {parentPort}=require('node:worker_threads'); parentPort.on('message', (m) =>{ const t=Date.now(); while(Date.now()-t<Number(m[1]||0)); parentPort.postMessage(m[0]); });`,
  { eval: true },
);
await new Promise((r) => setTimeout(r, 200));
for (const busy of [0, 5]) {
  const ts: number[] = [];
  for (let i = 0; i < 100; i++) {
    const done = new Promise((r) => w.once('message', r));
    const t = performance.now();
    w.postMessage(['some text to embed here', busy]);
    ts.push(performance.now() - t);
    await done;
  }
  ts.sort((a, b) => a - b);
  console.log('busy', busy, 'postMessage p50 ms', ts[50]!.toFixed(4), 'p90', ts[90]!.toFixed(4));
}
await w.terminate();
