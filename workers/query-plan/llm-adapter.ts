// Adapts the LLM worker's API (LlmApi, usually a Comlink remote) to the `LlmDep` the techniques
// take: an AbortSignal cannot cross a worker boundary, so each call gets a request id and an
// abort becomes `api.cancel(id)`.
import { createError } from '../shared/errors';
import type { GenerateRequest, GenerateResult, LlmApi, LlmBackendKind } from '../shared/llm-api';
import type { LlmDep } from './types';

let counter = 0;

/**
 * @param api the LLM worker API (`Comlink.Remote<LlmApi>` works as is)
 * @param kind the active backend (from `api.status()`); 'none' makes every technique fall back
 * @param wrapCallback makes a streamed-token callback callable across the port (`Comlink.proxy`)
 */
export function llmDepFromApi(
  api: Pick<LlmApi, 'generate' | 'cancel'>,
  kind: LlmBackendKind,
  wrapCallback: <F extends (piece: string) => void>(fn: F) => F = (fn) => fn,
): LlmDep {
  return {
    kind,
    async generate(
      request: GenerateRequest,
      options?: { signal?: AbortSignal; onToken?: (piece: string) => void },
    ): Promise<GenerateResult> {
      const signal = options?.signal;
      if (signal?.aborted) throw signal.reason ?? createError('ABORTED');
      const id = `research-${++counter}`;
      const onAbort = () => void api.cancel(id).catch(() => undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const onToken = options?.onToken;
        return await (onToken
          ? api.generate(request, id, wrapCallback(onToken))
          : api.generate(request, id));
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
