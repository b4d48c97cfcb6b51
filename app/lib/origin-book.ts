// The addresses the user has set, per worker, kept across sessions: each worker starts with them
// in its CSP (workers/shared/worker-policy.ts), and a new one means that worker restarts with it.
// Owns: that list and its storage key. The key-value store (localStorage) is injected.
import {
  policyOrigin,
  WORKER_BUILT_IN_ORIGINS,
  type WorkerKind,
} from '../../workers/shared/worker-policy';

export interface FlagStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const ORIGIN_BOOK_KEY = 'sift.allowed-origins.v1';

export interface OriginBook {
  /** The origins the user set for `kind`, sorted. */
  get(kind: WorkerKind): string[];
  /**
   * Adds the origins of `urls` (non-http(s) ones, and the worker's built-in origins, which its
   * policy names already, ignored); true when one was new, i.e. the worker must restart.
   */
  add(kind: WorkerKind, urls: ReadonlyArray<string | null | undefined>): boolean;
}

export function createOriginBook(store: FlagStore | null): OriginBook {
  const read = (): Partial<Record<WorkerKind, string[]>> => {
    try {
      const parsed: unknown = JSON.parse(store?.getItem(ORIGIN_BOOK_KEY) ?? '{}');
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      return {};
    }
  };
  let book = read();
  const clean = (list: unknown): string[] =>
    Array.isArray(list)
      ? [...new Set(list.map((o) => policyOrigin(String(o))).filter((o) => o !== null))].sort()
      : [];
  return {
    get: (kind) => clean(book[kind]),
    add(kind, urls) {
      const have = clean(book[kind]);
      const builtIn = new Set(WORKER_BUILT_IN_ORIGINS[kind]);
      const fresh = clean(urls.filter((u): u is string => !!u)).filter((o) => !builtIn.has(o));
      const next = clean([...have, ...fresh]);
      if (next.length === have.length) return false;
      book = { ...book, [kind]: next };
      try {
        store?.setItem(ORIGIN_BOOK_KEY, JSON.stringify(book));
      } catch {
        // storage full or unavailable: the origin lasts this session
      }
      return true;
    },
  };
}
