import { scriptedVariants } from '../../workers/llm/scripted';
import { med, profileLibrary } from './setup';
const { queries, core } = await profileLibrary('use-lite');
const { embedFresh, embedFreshBatch } = core.parts();
const qs = [...queries.values()].slice(0, 30);
const t: Record<string, number[]> = {};
const time = (k: string, f: () => unknown) => {
  const a = performance.now();
  f();
  (t[k] ??= []).push(performance.now() - a);
};
for (const q of qs) {
  const vs = scriptedVariants(q, 4);
  time('claim', () => embedFresh(q));
  time('variant', () => embedFresh(vs[0]!));
  time('empty-ish "a"', () => embedFresh('a'));
  time('batch 4 variants', () => embedFreshBatch(vs));
  time('batch claim+4 variants', () => embedFreshBatch([q, ...vs]));
  time('claim words', () => 0);
  (t['claim words'] as number[]).pop();
  (t['claim words'] ??= []).push(q.split(' ').length);
}
for (const [k, v] of Object.entries(t)) console.log(k.padEnd(30), med(v));
await core.close();
