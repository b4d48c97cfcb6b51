// The library's link to the LLM worker: holds the connected LlmApi and tells the research service
// which generator to use, following the backend the user picked in Settings ('none', or no LLM
// worker connected, means the LLM-free fallbacks). The LlmApi is injected (a Comlink remote).
import type { LlmApi, LlmBackendKind } from '../shared/llm-api';
import { llmDepFromApi } from '../query-plan/llm-adapter';
import type { LlmDep } from '../query-plan/types';

/** What the library needs of the LLM worker. */
export type LlmWorker = Pick<LlmApi, 'status' | 'generate' | 'cancel'>;

export interface LlmLink {
  connect(api: LlmWorker): void;
  /**
   * Asks the LLM worker for its active backend and calls `onChange` with the generator to use
   * when it differs from the last one seen (null = the fallbacks).
   */
  follow(onChange: (llm: LlmDep | null) => void): Promise<void>;
  /** The generator `follow` last found (null: the fallbacks). */
  current(): LlmDep | null;
}

/**
 * @param wrapCallback makes streamed-token callbacks callable across the port (`Comlink.proxy`)
 */
export function createLlmLink(
  wrapCallback?: <F extends (piece: string) => void>(fn: F) => F,
): LlmLink {
  let api: LlmWorker | null = null;
  let kind: LlmBackendKind | null = null;
  let dep: LlmDep | null = null;
  return {
    connect(next) {
      api = next;
    },
    async follow(onChange) {
      const current = api;
      const next = current ? (await current.status()).active.kind : 'none';
      if (next === kind) return;
      kind = next;
      dep = current && next !== 'none' ? llmDepFromApi(current, next, wrapCallback) : null;
      onChange(dep);
    },
    current: () => dep,
  };
}
