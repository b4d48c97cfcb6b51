// Loads a BEIR dataset folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv (each may be .gz).
// Node only (fs, zlib). Must not import workers/ (the modes do).
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Qrels } from './metrics';

export interface BeirDoc {
  id: string;
  title: string;
  text: string;
}

function resolve(folder: string, name: string): string {
  const plain = join(folder, name);
  if (existsSync(plain)) return plain;
  if (existsSync(`${plain}.gz`)) return `${plain}.gz`;
  throw new Error(`Missing ${plain} (or ${plain}.gz): is --dataset a BEIR folder?`);
}

async function* lines(path: string): AsyncGenerator<string> {
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const line of rl) if (line.trim()) yield line;
}

export async function loadCorpus(folder: string): Promise<BeirDoc[]> {
  const docs: BeirDoc[] = [];
  for await (const line of lines(resolve(folder, 'corpus.jsonl'))) {
    const d = JSON.parse(line) as { _id: string | number; title?: string; text?: string };
    docs.push({ id: String(d._id), title: d.title ?? '', text: d.text ?? '' });
  }
  return docs;
}

export async function loadQueries(folder: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const line of lines(resolve(folder, 'queries.jsonl'))) {
    const q = JSON.parse(line) as { _id: string | number; text: string };
    out.set(String(q._id), q.text);
  }
  return out;
}

export async function loadQrels(folder: string, split: string): Promise<Qrels> {
  const qrels: Qrels = {};
  let first = true;
  for await (const line of lines(resolve(folder, join('qrels', `${split}.tsv`)))) {
    const [qid, docId, score] = line.split('\t');
    if (first && qid === 'query-id') {
      first = false;
      continue;
    }
    first = false;
    if (qid === undefined || docId === undefined) continue;
    (qrels[qid] ??= {})[docId] = Number(score ?? 1);
  }
  return qrels;
}

/** A split ready to run: corpus, queries, qrels, and the judged query ids that have a text. */
export async function loadSplit(folder: string, split: string) {
  const [corpus, queries, qrels] = await Promise.all([
    loadCorpus(folder),
    loadQueries(folder),
    loadQrels(folder, split),
  ]);
  const ids = Object.keys(qrels).filter((id) => queries.has(id));
  return { corpus, queries, qrels, ids };
}
