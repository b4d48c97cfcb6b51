// `npm run bench -- plan [--dataset <BEIR folder>] [--queries N] [--token-ms T] [--docs N]`
// Latency of each query-plan route with the scripted generator (WSOP-006: simple < moderate <
// complex) over the app's real lexical search on a BEIR corpus, and RAG-Fusion's overhead
// relative to one query (RAGF-006: < 1.77x). `--token-ms` adds a simulated per-token generation
// time (0 = instant scripted generator: pure planning + retrieval overhead). Reports; never gates.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScriptedGenerator } from '../workers/llm/scripted';
import { createQueryPlanner } from '../workers/research/planner';
import { createBowEmbed } from '../workers/research/test-helpers';
import type { LlmDep } from '../workers/research/types';
import type { PlanOptions } from '../workers/shared/research-api';
import { loadCorpus, loadQueries } from './eval/beir';
import { createLexicalRetriever } from './eval/lexical-mode';
import { parseArgs } from './args';

const HERE = dirname(fileURLToPath(import.meta.url));

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    p50Ms: r(at(50)),
    p95Ms: r(at(95)),
    meanMs: r(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

export default {
  name: 'plan',
  async run(argv: string[]) {
    const args = parseArgs(argv);
    const dataset = args.dataset ?? join(HERE, '..', '..', 'shared', 'datasets', 'scifact');
    const nQueries = Number(args.queries ?? 50);
    const tokenMs = Number(args['token-ms'] ?? 0);
    const [corpus, queries] = await Promise.all([loadCorpus(dataset), loadQueries(dataset)]);
    const docs = args.docs ? corpus.slice(0, Number(args.docs)) : corpus;
    const lexical = await createLexicalRetriever({});
    await lexical.index(docs);
    const g = createScriptedGenerator({ yieldBetweenPieces: false });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const llm: LlmDep = {
      kind: 'scripted',
      generate: async (req, o) => {
        const res = await g.generate(req, o);
        if (tokenMs > 0) await sleep(tokenMs * res.tokens);
        return res;
      },
    };
    // One wa-sqlite connection: retrievals run one after another (see research-modes.ts).
    let queue: Promise<unknown> = Promise.resolve();
    const planner = createQueryPlanner({
      search: (req) => {
        const next = queue.then(() => lexical.search(req.lexicalQuery ?? req.text, req.limit));
        queue = next.catch(() => undefined);
        return next.then((d) => d.map((x) => ({ id: x.docId, score: x.score })));
      },
      embed: createBowEmbed(),
      llm,
      clock: { now: () => performance.now() },
    });
    const texts = [...queries.values()].slice(0, nQueries);
    const configs: Record<string, PlanOptions> = {
      simple: { complexity: 'simple' },
      moderate: { complexity: 'moderate' },
      complex: { complexity: 'complex' },
      'single query (fusion off)': {
        complexity: 'complex',
        techniques: { rewrite: false, hyde: false, fusion: false, keyphrases: false },
      },
      'fusion only (4 generated + original)': {
        complexity: 'complex',
        techniques: { rewrite: false, hyde: false, fusion: true, keyphrases: false },
      },
    };
    const names = Object.keys(configs);
    for (const q of texts.slice(0, 3)) for (const n of names) await planner.plan(q, configs[n]); // warm-up
    const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const retrievals: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
    // Round-robin with a rotating order: every configuration sees each query, warm or cold alike.
    for (let i = 0; i < texts.length; i++) {
      const order = names.map((_, j) => names[(i + j) % names.length]!);
      for (const n of order) {
        const { plan } = await planner.plan(texts[i]!, configs[n]);
        samples[n]!.push(plan.totalMs);
        retrievals[n]! += plan.steps.filter(
          (s) => s.kind === 'retrieve' && s.status === 'ok',
        ).length;
      }
    }
    const results: Record<string, ReturnType<typeof stats> & { retrievals: number }> = {};
    for (const n of names) {
      results[n] = {
        ...stats(samples[n]!),
        retrievals: Math.round((retrievals[n]! / texts.length) * 10) / 10,
      };
    }
    await lexical.close().catch(() => undefined);
    const single = results['single query (fusion off)']!.meanMs;
    const fusion = results['fusion only (4 generated + original)']!.meanMs;
    const report = {
      dataset,
      documents: docs.length,
      queries: texts.length,
      tokenMs,
      routes: results,
      'WSOP-006 simple < moderate < complex (mean)':
        results.simple!.meanMs < results.moderate!.meanMs &&
        results.moderate!.meanMs < results.complex!.meanMs,
      'RAGF-006 fusion / single (mean)': Math.round((fusion / single) * 100) / 100,
    };
    console.log(JSON.stringify(report, null, 2));
  },
};
