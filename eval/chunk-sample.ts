// Evenly spaced chunk texts of a BEIR corpus, as the eval embeds them (`title\nchunk`, the app's
// chunker): the sample the embedding benchmarks and the kernel-build comparison run on.
import { chunkText } from '../workers/ingest/chunk';
import { loadCorpus } from './beir';

/** `count` chunk inputs spread evenly over the corpus (every k-th chunk), as the eval builds them. */
export async function scifactChunks(dataset: string, count: number): Promise<string[]> {
  const corpus = await loadCorpus(dataset);
  const all: string[] = [];
  for (const doc of corpus) {
    const body = doc.text.trim().length > 0 ? doc.text : doc.title;
    for (const c of chunkText(body)) all.push(doc.title ? `${doc.title}\n${c.text}` : c.text);
  }
  const step = Math.max(1, Math.floor(all.length / count));
  const out: string[] = [];
  for (let i = 0; i < all.length && out.length < count; i += step) out.push(all[i]!);
  return out;
}
