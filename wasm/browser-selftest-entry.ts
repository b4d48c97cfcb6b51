// Browser entry for wasm/browser-check.ts: runs the embedder's determinism self-test in the page
// (same modules as the embed worker) and publishes the result on window for Playwright to read;
// when the page serves all-MiniLM-L6-v2 (/models/minilm/), also the BERT canonical path's golden
// hashes (int16 and float32 bytes of wasm/golden/minilm-int16-sha256.json); when it serves the
// verifier bundle (/models/sift-verifier-v1/), the pair verifier's output hashes
// (wasm/golden/verifier-sha256.json).
import golden from './golden/use-lite-int16-sha256.json';
import minilmGolden from './golden/minilm-int16-sha256.json';
import { loadBert } from '../workers/embed/bert';
import { parseBertConfig, parseWordPieceTokenizer } from '../workers/embed/bert-files';
import { createEmbedder } from '../workers/embed/embedder';
import { createKernel } from '../workers/embed/kernel';
import { BERT_CANON_REVISION, BERT_PROFILES } from '../workers/embed/model-profiles';
import { parseSafetensors } from '../workers/embed/safetensors';
import { hashVectors, sha256Hex } from '../workers/embed/self-test';
import verifierGolden from './golden/verifier-sha256.json';
import verifierReference from './golden/verifier-reference.json';
import { readVerifierBundle } from '../workers/verifier/bundle';
import { checkVerifierGolden } from '../workers/verifier/golden';
import { loadPairModel } from '../workers/verifier/pair-model';

const embedder = createEmbedder({
  loadKernel: () => createKernel({ url: '/sift-kernels.wasm' }),
  fetchModelFile: async (name) => (await fetch(`/models/use-lite/${name}`)).arrayBuffer(),
  loadGolden: async () => golden,
});
(window as unknown as { selfTest: Promise<unknown> }).selfTest = embedder.selfTest();

/** all-MiniLM-L6-v2's golden texts on the canonical path in this engine, or null when not served. */
async function minilmCheck(): Promise<unknown> {
  const file = async (name: string) => {
    const res = await fetch(`/models/minilm/${name}`);
    return res.ok ? res.arrayBuffer() : null;
  };
  const [config, tokenizer, weights] = await Promise.all(
    ['config.json', 'tokenizer.json', 'model.safetensors'].map(file),
  );
  if (!config || !tokenizer || !weights) return null;
  const td = new TextDecoder();
  // The version as Node's loadBertFolder makes it: the weights' SHA-256 prefix and the revision.
  const version = `${(await sha256Hex(new Uint8Array(weights))).slice(0, 12)}+${BERT_CANON_REVISION}`;
  const model = loadBert(
    await createKernel({ url: '/sift-kernels.wasm' }),
    parseBertConfig(td.decode(config)),
    parseSafetensors(weights),
    parseWordPieceTokenizer(td.decode(tokenizer)),
    { ...BERT_PROFILES['all-MiniLM-L6-v2']!, version },
  );
  const vectors = minilmGolden.entries.map((e) => model.embedIds(model.tokenize(e.text)));
  const hashes = await hashVectors(vectors.map((v) => v.int16));
  const floatHashes = await Promise.all(
    vectors.map((v) =>
      sha256Hex(new Uint8Array(v.float.buffer, v.float.byteOffset, v.float.byteLength)),
    ),
  );
  const mismatches = minilmGolden.entries
    .map((e, i) => ({ text: e.text.slice(0, 40), i }))
    .filter(
      ({ i }) =>
        hashes[i] !== minilmGolden.entries[i]!.sha256 ||
        floatHashes[i] !== minilmGolden.entries[i]!.floatSha256,
    );
  return {
    version: model.version,
    goldenVersion: minilmGolden.modelVersion,
    ok: model.version === minilmGolden.modelVersion && mismatches.length === 0,
    total: minilmGolden.entries.length,
    mismatches,
  };
}
(window as unknown as { minilmCheck: Promise<unknown> }).minilmCheck = minilmCheck();

/** The pair verifier's golden output hashes in this engine, or null when the bundle is not served. */
async function verifierCheck(): Promise<unknown> {
  const file = async (name: string) => {
    const res = await fetch(`/models/sift-verifier-v1/${name}`);
    return res.ok ? res.arrayBuffer() : null;
  };
  const [config, vocab, weights] = await Promise.all(
    ['config.json', 'vocab.txt', 'model.safetensors'].map(file),
  );
  if (!config || !vocab || !weights) return null;
  const td = new TextDecoder();
  const sha = await sha256Hex(new Uint8Array(weights));
  const bundle = readVerifierBundle({
    config: td.decode(config),
    vocab: td.decode(vocab),
    weights,
  });
  const model = loadPairModel(await createKernel({ url: '/sift-kernels.wasm' }), bundle, sha);
  const { hashes: _hashes, ...check } = await checkVerifierGolden(
    model,
    verifierReference.pairs,
    verifierGolden,
    sha,
  );
  return check;
}
(window as unknown as { verifierCheck: Promise<unknown> }).verifierCheck = verifierCheck();
