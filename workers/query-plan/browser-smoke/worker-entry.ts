// Browser-side half of the LLM-worker smoke test: the real workers/llm.worker.ts behind Comlink,
// as app/clients.ts will use it (progress and token callbacks via Comlink.proxy, cancel by
// request id, AppError codes across the boundary, wllama's own worker nested inside).
import * as Comlink from 'comlink';
import { installErrorTransfer } from '../../shared/comlink-errors';
import { isAppError } from '../../shared/errors';
import type { LlmApi, LoadProgress } from '../../shared/llm-api';

declare global {
  interface Window {
    runWorkerSmoke(ggufUrl: string): Promise<unknown>;
  }
}

window.runWorkerSmoke = async (ggufUrl) => {
  installErrorTransfer();
  const api = Comlink.wrap<LlmApi>(
    new Worker('/llm.worker.js', { type: 'module', name: 'sift-llm' }),
  );
  const out: Record<string, unknown> = {};
  const status = await api.status();
  out.before = status.active;
  out.autoSelect = await api.autoSelect();
  const progress: LoadProgress[] = [];
  out.loaded = await api.useWllama(
    { url: ggufUrl },
    Comlink.proxy((p: LoadProgress) => void progress.push(p)),
  );
  out.progressEvents = progress.length;
  const pieces: string[] = [];
  const r = await api.generate(
    { prompt: 'Once upon a time', maxTokens: 32, temperature: 0 },
    'g1',
    Comlink.proxy((p: string) => void pieces.push(p)),
  );
  out.generate = { text: r.text, tokens: r.tokens, piecesStreamedToPage: pieces.length };
  let n = 0;
  const err = await api
    .generate(
      { prompt: 'Once upon a time', maxTokens: 200, temperature: 0.8 },
      'g2',
      Comlink.proxy(() => void (++n === 3 && api.cancel('g2'))),
    )
    .then(
      () => null,
      (e: unknown) => e,
    );
  out.cancel = {
    isAppError: isAppError(err),
    code: isAppError(err) ? err.code : String(err),
    partial: isAppError(err) ? err.details.partialText : null,
  };
  const bad = await api.useHttp({ baseUrl: 'ftp://x', model: 'm' }).then(
    () => null,
    (e: unknown) => e,
  );
  out.badEndpoint = isAppError(bad) ? bad.code : String(bad);
  out.after = (await api.status()).active;
  return out;
};
