// Thin entry of the LLM worker: builds the LLM service with the browser's capabilities and
// exposes it with Comlink. WebLLM's MLCEngine runs inside this worker (WebGPU works in workers);
// wllama starts its own inner worker. Nothing here is tested in Node; the service is.
// Every request (WebLLM's and wllama's included) leaves through the network gate: the model hub,
// WebLLM's model libraries, and the endpoint or GGUF URL the user chose.
import { netGate } from './install-net-gate';
import * as Comlink from 'comlink';
import { installErrorTransfer } from './shared/comlink-errors';
import { createLlmService } from './llm/service';
import { WEBLLM_ORIGINS } from './llm/webllm';
import { allowUserUrls, setScopeFetch } from './shared/net-gate';
import { createLedgeredFetch, ledgerCacheAdds, type LedgerPort } from './shared/ledgered-fetch';
import { createRealWllama } from './llm/wllama-factory';
import wllamaWasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

installErrorTransfer();
for (const origin of WEBLLM_ORIGINS) netGate.allow(origin);

const nav = self.navigator as Navigator & {
  gpu?: { requestAdapter(): Promise<{ features: { has(n: string): boolean } } | null> };
};

// Every request the gate lets out goes to the network ledger: the endpoint's POSTs, and the
// model downloads WebLLM (fetch, Cache.add) and wllama make.
const ledgered = createLedgeredFetch(netGate.fetch, {
  origin: self.location.origin,
  purpose: (url, method) =>
    method === 'POST' ||
    url.pathname.endsWith('/chat/completions') ||
    url.pathname.endsWith('/models')
      ? 'llm endpoint'
      : 'llm model download',
});
setScopeFetch(self, ledgered.fetch);
ledgerCacheAdds(self, ledgered);

const service = createLlmService({
  env: { gpu: nav.gpu, storage: nav.storage, wasm: WebAssembly },
  fetch: ledgered.fetch,
  createWllama: () => createRealWllama(new URL(wllamaWasmUrl, self.location.href).href),
  // web-llm is loaded only when chosen: it is large and needs WebGPU.
  createMlcEngine: async (modelId, onProgress) => {
    const webllm = await import('@mlc-ai/web-llm');
    return webllm.CreateMLCEngine(modelId, {
      initProgressCallback: (r) => onProgress({ progress: r.progress, text: r.text }),
    });
  },
});

const ledgerPort: LedgerPort = { setLedger: async (sink) => ledgered.setSink(sink) };
Comlink.expose({
  ...allowUserUrls(service, netGate, {
    useHttp: (config) => [config.baseUrl],
    listModels: (endpoint) => [endpoint.baseUrl],
    useWllama: (source) => ['url' in source ? source.url : null],
  }),
  ...ledgerPort,
});
