// Canonical embeddings of claims and sentences for the stance model's fitting and `--task claims`:
// the same Node encoders and thread pool as the retrieval eval (lab/embed-models.ts,
// embed-cache.ts), cached in .cache/stance/ (not the corpus cache other runs append to). Claims
// get the model's query text, sentences its passage text, as the app embeds them. Node only.
import { embedAllCached, openEmbedCache } from '../lab/embed-cache';
import { loadNodeEncoder } from '../lab/embed-models';

export interface StanceEmbedder {
  id: string;
  version: string;
  dim: number;
  claims(texts: string[]): Promise<Int16Array[]>;
  sentences(texts: string[]): Promise<Int16Array[]>;
}

export async function createStanceEmbedder(
  model: string,
  threads: number,
): Promise<StanceEmbedder> {
  const encoder = await loadNodeEncoder(model);
  const cache = openEmbedCache(encoder.id, encoder.version, encoder.dim, 'stance');
  const run = async (inputs: string[], what: string) => {
    const t0 = performance.now();
    const missing = new Set(inputs.filter((t) => !cache.get(t))).size;
    if (missing === 0) return inputs.map((t) => cache.get(t)!);
    const out = await embedAllCached(inputs, cache, threads, model, (done, total) =>
      process.stderr.write(`\r[stance] ${what}: ${done}/${total}`),
    );
    const s = (performance.now() - t0) / 1000;
    process.stderr.write(
      `\n[stance] ${what}: ${inputs.length} texts, ${missing} embedded in ${s.toFixed(1)} s` +
        (missing ? ` (${((s * 1000) / missing).toFixed(1)} ms each, ${threads} threads)` : '') +
        '\n',
    );
    return out;
  };
  return {
    id: encoder.id,
    version: encoder.version,
    dim: encoder.dim,
    claims: (texts) =>
      run(
        texts.map((t) => encoder.queryText(t)),
        'claims',
      ),
    sentences: (texts) =>
      run(
        texts.map((t) => encoder.passageText(t)),
        'sentences',
      ),
  };
}
