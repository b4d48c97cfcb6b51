// Ad-hoc (issue 15, RAGF-006): CPU of a plan's work after its vectors arrive (the semantic sides:
// HNSW, chunk keys, fusion with the lexical list already read), one retrieval against four.
// `npx tsx bench/plan-profile/post-vector.ts`
import { scriptedVariants } from '../../workers/llm/scripted';
import { hybridSettings } from '../../eval/hybrid-mode';
import { med, partTimer, profileLibrary } from './setup';

const { queries, core } = await profileLibrary('use-lite');
const { embedFresh } = core.parts();
const { hybrid } = core.appSearch({ fusion: hybridSettings({ model: 'use-lite' }).method });
const { cpu, part } = partTimer();
const texts = [...queries.values()].slice(0, 60);
for (const round of [0, 1, 2]) {
  for (const q of texts) {
    const vs = scriptedVariants(q, 4);
    const vectors = vs.map(embedFresh);
    const rank = (t: string, v: Int16Array) =>
      hybrid.rank({ query: t, limit: 10, mode: 'semantic' }, { vector: v });
    await part('S1: one semantic side', () => rank(vs[0]!, vectors[0]!));
    await part('S4: four semantic sides at once', () =>
      Promise.all(vs.map((t, i) => rank(t, vectors[i]!))),
    );
    // The hybrid ranks with the keyword lists read beforehand (what is left once vectors arrive).
    let release = (_: Int16Array[]) => {};
    const pending = new Promise<Int16Array[]>((r) => (release = r));
    const all = Promise.all(
      vs.map((t, i) =>
        hybrid.rank({ query: t, limit: 10 }, { pendingVector: pending.then((x) => x[i]!) }),
      ),
    );
    await new Promise((r) => setTimeout(r, 5));
    await part('H4: four hybrid ranks after their keyword sides', async () => {
      release(vectors);
      await all;
    });
  }
  if (round === 0) for (const k of Object.keys(cpu)) cpu[k]!.length = 0;
}
for (const [k, v] of Object.entries(cpu)) console.log(k.padEnd(48), 'cpu', med(v));
await core.close();
