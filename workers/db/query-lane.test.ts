// The query lane over real pools (workers/embed/pool.ts) of fake workers that can be held: a lone
// query goes to the query worker; a query never queues behind a busy backlog worker; a plan's
// variants run beside the original (all but the last on the idle backlog worker while the query
// worker embeds the original, the last queued behind it); the texts are shared over idle workers in input order; without a query worker the
// backlog's idle workers share them as before.
import { describe, expect, it } from 'vitest';
import type { EmbedPoolWorker } from '../shared/embed-api';
import { createEmbedPool } from '../embed/pool';
import { createHold } from './hold.testkit';
import { embedQueriesOnLane } from './query-lane';

const vec = (t: string) => Int16Array.from([t.length, t.charCodeAt(0)]);

/** A worker named `name` whose calls are logged; `hold()` keeps its next calls until `release()`. */
function heldWorker(name: string, log: Array<{ worker: string; texts: string[] }>) {
  const { current, hold, release } = createHold();
  const worker: EmbedPoolWorker = {
    async embed(texts) {
      log.push({ worker: name, texts });
      const gate = current();
      if (gate) await gate;
      return texts.map(vec);
    },
    terminate() {},
  };
  return { worker, hold, release };
}

function lane(backlogSize: number) {
  const log: Array<{ worker: string; texts: string[] }> = [];
  const backlogWorkers = Array.from({ length: backlogSize }, (_, i) => heldWorker(`b${i}`, log));
  const queryWorker = heldWorker('q', log);
  let next = 0;
  const backlog = createEmbedPool({
    size: backlogSize,
    spawn: async () => backlogWorkers[next++]!.worker,
  });
  const query = createEmbedPool({ size: 1, spawn: async () => queryWorker.worker });
  return { log, backlog, query, backlogWorkers, queryWorker };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** One backlog worker beside the query worker, which holds the original query ('the claim'). */
async function originalHeld() {
  const l = lane(1);
  const { backlog, query } = l;
  await Promise.all([backlog.workers(), query.workers()]);
  l.queryWorker.hold();
  const original = embedQueriesOnLane({ backlog, query }, ['the claim']);
  await tick();
  return { ...l, original };
}

describe('embedQueriesOnLane', () => {
  it('embeds a lone query on the query worker', async () => {
    const { log, backlog, query } = lane(1);
    await Promise.all([backlog.workers(), query.workers()]);
    const [v] = await embedQueriesOnLane({ backlog, query }, ['pelican colony']);
    expect(v).toEqual(vec('pelican colony'));
    expect(log).toEqual([{ worker: 'q', texts: ['pelican colony'] }]);
  });

  it('never queues a query behind a busy backlog worker', async () => {
    const { log, backlog, query, backlogWorkers } = lane(1);
    await Promise.all([backlog.workers(), query.workers()]);
    backlogWorkers[0]!.hold();
    const passages = backlog.embed(['p1', 'p2'], { role: 'passage' }); // the import's batch
    await tick();
    // The backlog worker is still busy: the query and a plan's variants finish without it.
    const vs = await embedQueriesOnLane({ backlog, query }, ['a', 'bb', 'ccc']);
    expect(vs).toEqual(['a', 'bb', 'ccc'].map(vec));
    expect(log.filter((c) => c.worker === 'b0')).toEqual([{ worker: 'b0', texts: ['p1', 'p2'] }]);
    expect(log.filter((c) => c.worker === 'q')).toEqual([
      { worker: 'q', texts: ['a', 'bb', 'ccc'] },
    ]);
    backlogWorkers[0]!.release();
    await passages;
  });

  it("runs a plan's variants on the idle backlog worker while the query worker embeds the original (2 cores)", async () => {
    const { log, backlog, query, queryWorker, original } = await originalHeld();
    const variants = ['v1', 'v22', 'v333', 'v4444'];
    const pending = embedQueriesOnLane({ backlog, query }, variants);
    await tick();
    // All but the last variant run as one batch on the idle backlog worker beside the original;
    // the last one goes to the query worker, after the original.
    expect(log.slice(0, 2)).toEqual([
      { worker: 'q', texts: ['the claim'] },
      { worker: 'b0', texts: ['v1', 'v22', 'v333'] },
    ]);
    queryWorker.release();
    expect(await original).toEqual([vec('the claim')]);
    expect(await pending).toEqual(variants.map(vec));
    expect(log.slice(2)).toEqual([{ worker: 'q', texts: ['v4444'] }]);
  });

  it('sends two texts to the idle backlog worker while the query worker is busy', async () => {
    const { log, backlog, query, queryWorker, original } = await originalHeld();
    // Done while the original is still held: nothing queued behind it.
    expect(await embedQueriesOnLane({ backlog, query }, ['v1', 'v22'])).toEqual(
      ['v1', 'v22'].map(vec),
    );
    expect(log[1]).toEqual({ worker: 'b0', texts: ['v1', 'v22'] });
    queryWorker.release();
    await original;
  });

  it('shares texts over every idle worker, the query worker first, in input order', async () => {
    const { log, backlog, query } = lane(2);
    await Promise.all([backlog.workers(), query.workers()]);
    const texts = ['t1', 't2', 't3', 't4', 't5'];
    expect(await embedQueriesOnLane({ backlog, query }, texts)).toEqual(texts.map(vec));
    // ceil(5 / 3) = 2 each: the query worker the first share, the backlog's two the rest.
    expect(log.find((c) => c.worker === 'q')?.texts).toEqual(['t1', 't2']);
    expect(
      log
        .filter((c) => c.worker !== 'q')
        .map((c) => c.texts)
        .sort(),
    ).toEqual([['t3', 't4'], ['t5']]);
  });

  it("without a query worker, shares the texts over the backlog's idle workers", async () => {
    const { log, backlog } = lane(2);
    await backlog.workers();
    const texts = ['t1', 't2', 't3'];
    expect(await embedQueriesOnLane({ backlog, query: null }, texts)).toEqual(texts.map(vec));
    expect(log.map((c) => c.texts).sort()).toEqual([['t1', 't2'], ['t3']]);
  });
});
