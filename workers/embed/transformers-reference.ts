// The reference runtime of the BERT self-test in the browser: transformers.js (its own tokenizer
// from tokenizer.json, onnxruntime-web's WASM backend on the CPU, its mean/CLS pooling and
// normalisation) embedding with an ONNX graph exported from the stored weights. Loaded on demand
// by the embed worker (dynamic import), so its 27 MB runtime is fetched only when a user runs the
// self-test; the service worker then keeps it for offline use.
// The model files are served from memory through `env.fetch`: nothing goes to the hub or a CDN,
// nothing is written to the browser cache. Browser only (transformers.js picks onnxruntime-node
// in Node).
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { createError } from '../shared/errors';
import type { ReferenceEmbed } from './reference-check';

/** transformers.js resolves local models under this path; env.fetch answers it from memory. */
const LOCAL_PREFIX = '/sift-reference-models/';

/** Files being served, by path under LOCAL_PREFIX; each comparison adds and removes its own. */
const files = new Map<string, Uint8Array | string>();
let configured = false;
let runs = 0;

function configure(): void {
  if (configured) return;
  configured = true;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = LOCAL_PREFIX;
  env.useBrowserCache = false;
  env.useFSCache = false;
  // onnxruntime fetches its WASM from our origin (never the CDN transformers.js defaults to).
  env.useWasmCache = false;
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown; numThreads?: number } };
  if (onnx.wasm) {
    onnx.wasm.wasmPaths = { wasm: new URL(ortWasmUrl, self.location.href).href };
    // Threads need cross-origin isolation, which the app does not have: one thread, no probing.
    onnx.wasm.numThreads = 1;
  }
  env.fetch = (async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.startsWith(LOCAL_PREFIX) ? url : new URL(url, self.location.href).pathname;
    const body = path.startsWith(LOCAL_PREFIX) ? files.get(path.slice(LOCAL_PREFIX.length)) : null;
    if (body === undefined || body === null) return new Response(null, { status: 404 });
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-length': String(bytes.byteLength) },
    });
  }) as typeof fetch;
}

const toNumbers = (data: unknown): number[] =>
  Array.from(data as ArrayLike<bigint | number>, Number);

export const embedWithTransformers: ReferenceEmbed = async (request) => {
  configure();
  // A folder per run: two self-tests at once (Models page and Settings card) never share files.
  const dir = `${request.modelId}-check-${++runs}`;
  const own: Array<[string, Uint8Array | string]> = [
    [`${dir}/config.json`, request.configJson],
    [`${dir}/tokenizer.json`, request.tokenizerJson],
    [
      `${dir}/tokenizer_config.json`,
      JSON.stringify({ tokenizer_class: 'BertTokenizer', model_max_length: request.maxTokens }),
    ],
    [`${dir}/onnx/model.onnx`, request.onnx],
  ];
  for (const [path, body] of own) files.set(path, body);
  let extractor: FeatureExtractionPipeline | undefined;
  try {
    extractor = await pipeline('feature-extraction', dir, { device: 'wasm', dtype: 'fp32' });
    const vectors: Float32Array[] = [];
    const ids: number[][] = [];
    // One text per call: no padding, exactly what the canonical runtime sees.
    for (const text of request.texts) {
      const out = await extractor(text, { pooling: request.pooling, normalize: true });
      vectors.push(Float32Array.from(out.data as Float32Array));
      const enc = extractor.tokenizer(text, { truncation: true }) as {
        input_ids: { data: unknown };
      };
      ids.push(toNumbers(enc.input_ids.data));
    }
    const ortVersion = (env.backends.onnx as { versions?: { web?: string } }).versions?.web ?? '?';
    return {
      runtime: `transformers.js ${env.version} · onnxruntime-web ${ortVersion} (WASM, CPU)`,
      vectors,
      ids,
    };
  } catch (cause) {
    throw createError('MODEL_LOAD_FAILED', {
      reason: `transformers.js could not run the comparison (${cause instanceof Error ? cause.message : String(cause)}). If this device is offline, connect once so its runtime can be fetched.`,
      cause,
    });
  } finally {
    for (const [path] of own) files.delete(path);
    await extractor?.dispose().catch(() => undefined);
  }
};
