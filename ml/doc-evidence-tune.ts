// `npx tsx ml/doc-evidence-tune.ts --dataset <BEIR folder> [--split train] [--mode lexical|hybrid] [--model ...]`
// Fits document-level evidence (workers/search/document-evidence.ts) on a TRAIN split: computes
// each query's chunk list once (lexical: top 1000 BM25 chunks; hybrid: the fused list of the
// app's per-model fusion over lexicalK/semanticK 20), then scores a grid of (decay, depth) in
// memory and prints one JSON line per setting, best nDCG@10 last. Never fit on test.
import { loadSplit } from '../eval/beir';
import { evaluate, type Run } from '../eval/metrics';
import { createHybridCore, hybridSettings } from '../eval/hybrid-mode';
import { createLexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import { fuseHybrid } from '../workers/search/rrf';
import { groupByDocument } from '../workers/search/document-evidence';
import type { Rankable } from '../workers/shared/ranking';
import { storeBeirDoc } from '../eval/store-beir-doc';
import { parseArgs } from '../lab/args';

async function chunkLists(args: Record<string, string>, split: string) {
  const dataset = args.dataset!;
  const { corpus, queries, qrels, ids } = await loadSplit(dataset, split);
  const out = new Map<string, Rankable[]>();
  if ((args.mode ?? 'lexical') === 'lexical') {
    const db = await openNodeDatabase();
    const store = await createStore(db, { clock: () => 0 });
    const search = await createLexicalSearch(db.sql, { version: store.version });
    for (const doc of corpus) await storeBeirDoc(store, doc);
    for (const qid of ids)
      out.set(qid, await search.rankChunks(queries.get(qid)!, { limit: 1000 }));
  } else {
    const core = await createHybridCore(args);
    await core.index(corpus);
    const { method, lexicalK, semanticK, exact } = hybridSettings(args);
    for (const qid of ids) {
      const lists = await core.lists(queries.get(qid)!, { lexicalK, semanticK, exact });
      out.set(qid, fuseHybrid(lists.semantic, lists.lexical, method).items);
    }
  }
  return { qrels, out };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const split = args.split ?? 'train';
  if (split === 'test') throw new Error('fit on train only: --split train');
  const { qrels, out } = await chunkLists(args, split);
  const results: Array<{ decay: number; depth: number; 'nDCG@10': number; 'Recall@100': number }> =
    [];
  for (const depth of [1, 2, 3, 5, 10])
    for (const decay of depth === 1 ? [0] : [0.05, 0.1, 0.2, 0.3, 0.5, 0.7]) {
      const run: Run = {};
      for (const [qid, chunks] of out)
        run[qid] = groupByDocument(chunks, { decay, depth })
          .slice(0, 100)
          .map((g) => ({ docId: g.path, score: g.score }));
      const s = evaluate(qrels, run);
      const r = (x: number) => Math.round(x * 10000) / 10000;
      results.push({ decay, depth, 'nDCG@10': r(s['nDCG@10']), 'Recall@100': r(s['Recall@100']) });
    }
  results.sort((a, b) => a['nDCG@10'] - b['nDCG@10']);
  for (const line of results)
    console.log(JSON.stringify({ split, mode: args.mode ?? 'lexical', ...line }));
}

void main();
