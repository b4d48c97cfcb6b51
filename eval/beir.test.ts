import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadCorpus, loadQrels, loadQueries } from './beir';
import { evaluate, type Run } from './metrics';
import { createLexicalRetriever } from './lexical-mode';

const corpus = [
  {
    _id: 'd1',
    title: 'Merkle trees',
    text: 'A merkle tree lets a verifier check one block cheaply.',
  },
  { _id: 'd2', title: 'Gardening', text: 'Trees in the garden need water. '.repeat(40) },
  {
    _id: 'd3',
    title: 'Hashing',
    text: 'Hash functions map data to digests; merkle proofs use them.',
  },
];
const queries = [
  { _id: 'q1', text: 'merkle tree verification' },
  { _id: 'q2', text: 'watering garden trees' },
];
const qrels = 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n';

function writeDataset(gz: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'beir-'));
  mkdirSync(join(dir, 'qrels'));
  const put = (name: string, text: string) =>
    gz
      ? writeFileSync(join(dir, `${name}.gz`), gzipSync(text))
      : writeFileSync(join(dir, name), text);
  put('corpus.jsonl', corpus.map((d) => JSON.stringify(d)).join('\n'));
  put('queries.jsonl', queries.map((q) => JSON.stringify(q)).join('\n'));
  put(join('qrels', 'test.tsv'), qrels);
  return dir;
}

describe('BEIR loading', () => {
  it.each([false, true])('reads plain and gzipped files (gz=%s)', async (gz) => {
    const dir = writeDataset(gz);
    expect((await loadCorpus(dir)).map((d) => d.id)).toEqual(['d1', 'd2', 'd3']);
    expect((await loadQueries(dir)).get('q2')).toBe('watering garden trees');
    expect(await loadQrels(dir, 'test')).toEqual({ q1: { d1: 1 }, q2: { d2: 1 } });
  });
});

describe('lexical mode end to end', () => {
  it('indexes with the app store and ranks documents by their best chunk', async () => {
    const dir = writeDataset(false);
    const retriever = await createLexicalRetriever({});
    const report = await retriever.index(await loadCorpus(dir));
    expect(report.documents).toBe(3);
    expect(report.chunks).toBeGreaterThan(3); // d2 is split into several chunks
    const run: Run = {};
    for (const [id, text] of await loadQueries(dir)) run[id] = await retriever.search(text, 100);
    expect(run.q1![0]!.docId).toBe('d1');
    expect(new Set(run.q2!.map((d) => d.docId)).size).toBe(run.q2!.length); // one entry per document
    expect(evaluate(await loadQrels(dir, 'test'), run)['nDCG@10']).toBe(1);
    await retriever.close();
  });
});
