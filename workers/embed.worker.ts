// Entry of the embed worker: builds the embedder from browser sources (runtime URL, model files
// under the app's /models/use-lite/, the bundled golden file) and exposes EmbedWorkerApi.
// Only this file touches `self` / Comlink.expose for embeddings.
import * as Comlink from 'comlink';
import wasmUrl from '../wasm/build/sift-kernels.wasm?url';
import golden from '../wasm/golden/use-lite-int16-sha256.json';
import { installErrorTransfer } from './shared/comlink-errors';
import { createError } from './shared/errors';
import { createEmbedder } from './embed/embedder';
import { createKernel } from './embed/kernel';
import { createEmbedWorkerApi } from './embed/worker-api';

installErrorTransfer();

const modelBase = `${import.meta.env.BASE_URL}models/use-lite/`;
const embedder = createEmbedder({
  loadKernel: () => createKernel({ url: wasmUrl }),
  fetchModelFile: async (name) => {
    const res = await fetch(modelBase + name);
    // vite preview answers a missing file with index.html: check the content type too.
    if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html')) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `Model file ${name} is missing from the app.`,
      });
    }
    return res.arrayBuffer();
  },
  loadGolden: async () => golden,
});

Comlink.expose(createEmbedWorkerApi(embedder));
