// Browser-side half of the wllama smoke test (bundled by run.mjs; never part of the app):
// loads a GGUF through our real adapter (loadWllama + createRealWllama), then streams, stops at a
// stop string, cancels mid-stream, and optionally runs HyDE / multi-query / rewrite prompts.
import { createMultiQuery, pairwiseJaccard } from '../fusion';
import { hydePrompt } from '../hyde';
import { createQueryPlanner } from '../planner';
import { createBowEmbed, createToySearch } from '../doubles.testkit';
import { createRewriter } from '../rewrite';
import { approxTokenCount } from '../text';
import { isAppError } from '../../shared/errors';
import { detectCapabilities, chooseBackend, type GpuLike } from '../../llm/detect';
import { loadWllama, type WllamaBackend } from '../../llm/wllama';
import { createRealWllama } from '../../llm/wllama-factory';

declare global {
  interface Window {
    runSmoke(ggufUrl: string, opts: { research: boolean; query: string }): Promise<unknown>;
  }
}

/** Loads the GGUF from its URL, timed, with the device's capabilities and backend choice. */
async function loadFromUrl(
  ggufUrl: string,
  wasmUrl: string,
): Promise<{ b: WllamaBackend; report: Record<string, unknown> }> {
  const caps = await detectCapabilities({
    gpu: (navigator as Navigator & { gpu?: GpuLike }).gpu,
    storage: navigator.storage,
    wasm: WebAssembly,
  });
  const t0 = performance.now();
  const progress: number[] = [];
  const b = await loadWllama(
    () => createRealWllama(wasmUrl),
    { url: ggufUrl },
    { onProgress: (p) => p.fraction !== null && progress.push(p.fraction), nCtx: 1024 },
  );
  const loadMs = performance.now() - t0;
  return {
    b,
    report: {
      capabilities: caps,
      choice: chooseBackend(caps),
      model: b.model,
      loadMs: Math.round(loadMs),
      progressEvents: progress.length,
    },
  };
}

/** Streams, stops at a stop string, cancels mid-stream, then generates again. */
async function generation(b: WllamaBackend): Promise<Record<string, unknown>> {
  const streamed: string[] = [];
  const t1 = performance.now();
  const r1 = await b.generator.generate(
    { prompt: 'Once upon a time', maxTokens: 64, temperature: 0.1, seed: 42 },
    { onToken: (p) => streamed.push(p) },
  );
  const genMs = performance.now() - t1;
  const stream = {
    text: r1.text,
    tokens: r1.tokens,
    finishReason: r1.finishReason,
    pieces: streamed.length,
    ms: Math.round(genMs),
    tokensPerSecond: Math.round((r1.tokens / genMs) * 1000),
  };

  const r2 = await b.generator.generate({
    prompt: 'Once upon a time',
    maxTokens: 64,
    temperature: 0.1,
    seed: 42,
    stop: ['.'],
  });
  const stop = { text: r2.text, finishReason: r2.finishReason, hasStop: r2.text.includes('.') };
  return { stream, stop, ...(await cancellation(b)) };
}

/** A generation aborted after five pieces, and one after it (the instance must still work). */
async function cancellation(b: WllamaBackend): Promise<Record<string, unknown>> {
  const ctrl = new AbortController();
  let n = 0;
  const err = await b.generator
    .generate(
      { prompt: 'Once upon a time', maxTokens: 200, temperature: 0.8 },
      { signal: ctrl.signal, onToken: () => ++n === 5 && ctrl.abort() },
    )
    .then(
      () => null,
      (e: unknown) => e,
    );
  const cancel = {
    code: isAppError(err) ? err.code : String(err),
    partial: isAppError(err) ? err.details.partialText : null,
    piecesBeforeAbort: n,
  };
  const afterCancel = (
    await b.generator.generate({ prompt: 'The cat', maxTokens: 8, temperature: 0 })
  ).text;
  return { cancel, afterCancel };
}

/** A HyDE round trip through the planner (toy corpus and bag-of-words embedder: plumbing only). */
async function hydeRoundTrip(b: WllamaBackend, query: string): Promise<unknown> {
  const planner = createQueryPlanner({
    search: createToySearch(),
    embed: createBowEmbed(),
    llm: { kind: 'wllama', generate: b.generator.generate },
    clock: { now: () => performance.now() },
    stepTimeoutMs: 600_000,
  });
  const planned = await planner.plan(query || 'How does aspirin reduce heart attack risk?', {
    complexity: 'moderate',
  });
  return {
    route: planned.plan.complexity,
    steps: planned.plan.steps
      .filter((st) => st.status !== 'skipped')
      .map((st) => ({
        id: st.id,
        status: st.status,
        ms: Math.round(st.durationMs),
        text: st.texts[0]?.slice(0, 120) ?? null,
      })),
    top: planned.hits.slice(0, 3).map((h) => h.id),
  };
}

/** A model picked from disk arrives as a File/Blob: loads the same bytes that way too. */
async function fromBlob(ggufUrl: string, wasmUrl: string): Promise<string> {
  const blob = await (await fetch(ggufUrl)).blob();
  const fromDisk = await loadWllama(
    () => createRealWllama(wasmUrl),
    { file: blob, name: 'picked.gguf' },
    { nCtx: 512 },
  );
  const text = (
    await fromDisk.generator.generate({ prompt: 'Once upon a time', maxTokens: 8, temperature: 0 })
  ).text;
  await fromDisk.unload();
  return text;
}

/** HyDE, multi-query and rewrite prompts on the model, for a look at what it writes. */
async function research(b: WllamaBackend, q: string): Promise<unknown> {
  const llm = { kind: 'wllama' as const, generate: b.generator.generate };
  const t2 = performance.now();
  const hyde = await b.generator.generate({
    messages: [{ role: 'user', content: hydePrompt(q) }],
    temperature: 0.7,
    maxTokens: 256,
  });
  const mq = await createMultiQuery({ llm }).generate(q, { timeoutMs: 120_000 });
  const rw = await createRewriter({ llm }).rewrite(q, { timeoutMs: 120_000 });
  return {
    query: q,
    hyde: hyde.text,
    hydeTokens: hyde.tokens,
    queries: mq.queries,
    fusionFallback: mq.fallbackCode,
    jaccard: pairwiseJaccard(mq.generated),
    rewrite: rw.rewritten,
    rewriteSource: rw.source,
    rewriteTokens: approxTokenCount(rw.rewritten),
    ms: Math.round(performance.now() - t2),
  };
}

window.runSmoke = async (ggufUrl, opts) => {
  const wasmUrl = new URL('/wllama.wasm', location.href).href;
  const { b, report } = await loadFromUrl(ggufUrl, wasmUrl);
  const out: Record<string, unknown> = { ...report, ...(await generation(b)) };
  out.hydeRoundTrip = await hydeRoundTrip(b, opts.query);
  out.fromBlob = await fromBlob(ggufUrl, wasmUrl);
  if (opts.research) out.research = await research(b, opts.query);
  await b.unload();
  return out;
};
