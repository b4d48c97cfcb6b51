// Browser entry for wasm/browser-check.ts: runs the embedder's determinism self-test in the page
// (same modules as the embed worker) and publishes the result on window for Playwright to read.
import golden from './golden/use-lite-int16-sha256.json';
import { createEmbedder } from '../workers/embed/embedder';
import { createKernel } from '../workers/embed/kernel';

const embedder = createEmbedder({
  loadKernel: () => createKernel({ url: '/sift-kernels.wasm' }),
  fetchModelFile: async (name) => (await fetch(`/models/use-lite/${name}`)).arrayBuffer(),
  loadGolden: async () => golden,
});
(window as unknown as { selfTest: Promise<unknown> }).selfTest = embedder.selfTest();
