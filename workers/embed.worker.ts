// Entry of the embed worker: builds the embedder from browser sources (runtime URL, model files
// under the app's /models/use-lite/, the bundled golden file, BERT-family models stored in OPFS
// under models/) and exposes EmbedWorkerApi.
// Only this file touches `self` / Comlink.expose for embeddings. Every request leaves through the
// network gate: the app's own files, the model hub, and a hub address the user set.
import { netGate } from './install-net-gate';
import * as Comlink from 'comlink';
import wasmUrl from '../wasm/build/sift-kernels.wasm?url';
import golden from '../wasm/golden/use-lite-int16-sha256.json';
import { installErrorTransfer } from './shared/comlink-errors';
import { createError } from './shared/errors';
import { createEmbedder } from './embed/embedder';
import { createKernel } from './embed/kernel';
import {
  createModelStore,
  createOpfsStorage,
  DEFAULT_HUB,
  type ModelStore,
} from './embed/model-store';
import { allowUserUrls, setScopeFetch } from './shared/net-gate';
import { createLedgeredFetch, ledgerCacheAdds, type LedgerPort } from './shared/ledgered-fetch';
import { createEmbedWorkerApi } from './embed/worker-api';
import { VERIFIER_ID } from './verifier/bundle';
import { createVerifierBundleStore } from './verifier/bundle-store';
import { createBundleVerifier } from './verifier/bundle-verifier';

installErrorTransfer();
netGate.allow(DEFAULT_HUB);

const modelBase = `${import.meta.env.BASE_URL}models/use-lite/`;

// Every request the gate lets out to another origin (model downloads, the reference runtime of a
// BERT self-test) goes to the network ledger; the app's own files do not leave the device.
const ledgered = createLedgeredFetch(netGate.fetch, {
  origin: self.location.origin,
  purpose: (url) => {
    // Hub files: /<org>/<model>/resolve/<revision>/<file> -> "model download (<model>) <file>".
    const hub = /\/[^/]+\/([^/]+)\/resolve\/[^/]+\/(.+)$/.exec(url.pathname);
    return hub ? `model download (${hub[1]}) ${hub[2]}` : 'model download';
  },
});
setScopeFetch(self, ledgered.fetch);
ledgerCacheAdds(self, ledgered);

// Downloaded and imported models live in OPFS, which survives reloads and works offline.
let models: ModelStore | undefined;
if (typeof navigator.storage?.getDirectory === 'function') {
  let root: Promise<FileSystemDirectoryHandle> | null = null;
  models = createModelStore({
    storage: createOpfsStorage(
      () =>
        (root ??= navigator.storage
          .getDirectory()
          .then((d) => d.getDirectoryHandle('models', { create: true }))),
    ),
    fetch: (input, init) => ledgered.fetch(input, init),
    estimate: () => navigator.storage.estimate(),
    online: () => navigator.onLine,
  });
}

const embedder = createEmbedder({
  loadKernel: () => createKernel({ url: wasmUrl }),
  fetchModelFile: async (name) => {
    const res = await netGate.fetch(modelBase + name);
    // vite preview answers a missing file with index.html: check the content type too.
    if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html')) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `Model file ${name} is missing from the app.`,
      });
    }
    return res.arrayBuffer();
  },
  loadGolden: async () => golden,
  ...(models ? { models } : {}),
  // transformers.js and its 27 MB onnxruntime are fetched only when a BERT self-test runs.
  referenceEmbed: async (request) =>
    (await import('./embed/transformers-reference')).embedWithTransformers(request),
});

// The pair verifier: its bundle comes from the app's own origin on first use (not precached) and is
// kept in Cache Storage; it runs in a runtime instance of its own, whatever the embedding model.
const verifier = createBundleVerifier({
  store: createVerifierBundleStore({
    baseUrl: `${import.meta.env.BASE_URL}models/${VERIFIER_ID}/`,
    fetch: (url) => netGate.fetch(url),
    ...(typeof caches !== 'undefined' ? { openCache: () => caches.open(VERIFIER_ID) } : {}),
  }),
  loadKernel: () => createKernel({ url: wasmUrl }),
});

const ledgerPort: LedgerPort = { setLedger: async (sink) => ledgered.setSink(sink) };
Comlink.expose({
  ...allowUserUrls(createEmbedWorkerApi(embedder, models, verifier), netGate, {
    downloadModel: (_profileId, _onProgress, baseUrl) => [baseUrl],
  }),
  ...ledgerPort,
});
