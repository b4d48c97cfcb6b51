// The verifier behind the embed worker's API over a MessageChannel (the worker boundary): pairs
// judged in order with the real development bundle; a bundle missing from the app arrives as
// AppError VERIFIER_MISSING and `judgeOrFallback` turns it into the labelled LLM-free value.
import * as Comlink from 'comlink';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbedder } from '../embed/embedder';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { createEmbedWorkerApi } from '../embed/worker-api';
import { installErrorTransfer } from '../shared/comlink-errors';
import { remotePairVerifier, type EmbedWorkerApi } from '../shared/embed-api';
import { AppError } from '../shared/errors';
import { judgeOrFallback } from '../shared/pair-verdicts';
import { VERIFIER_FILES } from './bundle';
import { createMemoryBundleCache, createVerifierBundleStore } from './bundle-store';
import { createBundleVerifier } from './bundle-verifier';
import { VERIFIER_DIR } from './node-bundle';

const BASE = 'https://sift.test/models/sift-verifier-v1/';

function workerWith(serve: boolean) {
  installErrorTransfer();
  const fetch = async (url: string) => {
    const name = url.slice(BASE.length);
    if (!serve || ![...VERIFIER_FILES, 'manifest.json'].includes(name)) {
      return new Response('not found', { status: 404 });
    }
    return new Response(Uint8Array.from(readFileSync(join(VERIFIER_DIR, name))));
  };
  const verifier = createBundleVerifier({
    store: createVerifierBundleStore({
      baseUrl: BASE,
      fetch,
      openCache: async () => createMemoryBundleCache(),
    }),
    loadKernel: createNodeKernel,
  });
  const embedder = createEmbedder({
    loadKernel: createNodeKernel,
    fetchModelFile: readUseLiteFile,
    loadGolden: async () => ({ modelId: 'use-lite', modelVersion: '', dim: 512, entries: [] }),
  });
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(createEmbedWorkerApi(embedder, undefined, verifier), port1);
  const remote = Comlink.wrap<EmbedWorkerApi>(port2);
  const close = () => {
    port1.close();
    port2.close();
  };
  return { remote, close };
}

describe('judgePairs across the worker boundary', () => {
  it('judges pairs in order on a library whose embedding model is USE-lite', async () => {
    const { remote, close } = workerWith(true);
    const v = remotePairVerifier(await remote.verifierInfo(), async () => remote);
    const pairs = [
      { a: 'Smoking causes cancer.', b: 'Smokers had more lung cancer.' },
      { a: 'Is the sea rising?', b: 'The museum opens at nine.' },
    ];
    const out = await judgeOrFallback(v, pairs);
    expect(out.source).toBe('verifier');
    if (out.source !== 'verifier') throw new Error('unreachable');
    expect(out.judgements).toHaveLength(2);
    expect(out.judgements[0]).not.toEqual(out.judgements[1]);
    expect(await v.judge([pairs[1]!, pairs[0]!])).toEqual([...out.judgements].reverse());
    close();
  }, 120_000);

  it('a bundle missing from the app arrives as VERIFIER_MISSING, labelled LLM-free for callers', async () => {
    const { remote, close } = workerWith(false);
    const err = await remote.judgePairs([{ a: 'a', b: 'b' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VERIFIER_MISSING');
    const v = remotePairVerifier(await remote.verifierInfo(), async () => remote);
    const out = await judgeOrFallback(v, [{ a: 'a', b: 'b' }]);
    expect(out).toMatchObject({ source: 'llm-free', code: 'VERIFIER_MISSING' });
    expect(await judgeOrFallback(undefined, [])).toMatchObject({ source: 'llm-free', code: null });
    close();
  }, 120_000);
});
