// Loading a persisted vector index, and rebuilding it from the vectors kept in SQLite when the
// bytes are missing or damaged. Where the bytes live (OPFS file or a SQLite blob) is the
// caller's choice; this module only turns bytes into an index and back.
// The vector source and the kernel are injected.
import { createError, isAppError, toAppError, type AppError } from '../shared/errors';
import { deserializeExact } from './exact';
import { corrupt, KIND_EXACT, KIND_HNSW, readHeader } from './format';
import { deserializeHnsw } from './hnsw';
import type { DotKernel, RebuildProgress, VectorIndex } from './types';

/**
 * Reads bytes from `serialize()` of either index kind.
 * @throws AppError INDEX_CORRUPT for missing, foreign, old-version, truncated or damaged bytes.
 */
export function deserializeVectorIndex(
  bytes: Uint8Array,
  deps: { kernel?: DotKernel | undefined; adopt?: boolean } = {},
): VectorIndex {
  const h = readHeader(bytes);
  if (h.kind === KIND_EXACT) return deserializeExact(bytes, deps);
  if (h.kind === KIND_HNSW) return deserializeHnsw(bytes, deps, { adopt: deps.adopt === true });
  return corrupt(`The vector index has an unknown kind (${h.kind}).`);
}

export interface VectorSourceRow {
  id: number;
  vector: Int16Array;
}

export interface RebuildOptions {
  /** Total rows when known (e.g. SELECT COUNT(*)), for a progress bar. */
  total?: number | null;
  /** Called every `progressEvery` rows and once at the end. */
  onProgress?: (p: RebuildProgress) => void;
  progressEvery?: number;
  signal?: AbortSignal;
  /** Yields to the event loop every `progressEvery` rows so a worker stays responsive (default true). */
  yieldBetweenBatches?: boolean;
}

/**
 * Inserts every row of `source` (sync or async iterable, e.g. a paged SELECT over the vectors
 * table in chunk-id order) into `createEmpty()`'s index.
 * @throws AppError ABORTED when `signal` aborts; INVALID_ARGUMENT for a malformed row.
 */
export async function rebuildVectorIndex(
  createEmpty: () => VectorIndex,
  source: Iterable<VectorSourceRow> | AsyncIterable<VectorSourceRow>,
  options: RebuildOptions = {},
): Promise<VectorIndex> {
  const index = createEmpty();
  const every = Math.max(1, options.progressEvery ?? 500);
  const total = options.total ?? null;
  let done = 0;
  for await (const row of source as AsyncIterable<VectorSourceRow>) {
    if (options.signal?.aborted) throw toAppError(new DOMException('aborted', 'AbortError'));
    index.add(row.id, row.vector);
    done++;
    if (done % every === 0) {
      options.onProgress?.({ done, total });
      if (options.yieldBetweenBatches !== false) await new Promise<void>((r) => setTimeout(r, 0));
    }
  }
  options.onProgress?.({ done, total });
  return index;
}

export type LoadOutcome =
  | { index: VectorIndex; rebuilt: false }
  /** `reason` is why the stored bytes were not used (INDEX_CORRUPT): tell the user. */
  | { index: VectorIndex; rebuilt: true; reason: AppError };

/**
 * Loads the persisted index, or rebuilds it from `source` when the bytes are missing or
 * damaged. A rebuild is an expected outcome (a value), not an exception.
 * @throws AppError from the rebuild itself (ABORTED, INVALID_ARGUMENT).
 */
export async function loadOrRebuildVectorIndex(
  bytes: Uint8Array | null,
  createEmpty: () => VectorIndex,
  source: () => Iterable<VectorSourceRow> | AsyncIterable<VectorSourceRow>,
  options: RebuildOptions & {
    kernel?: DotKernel | undefined;
    expectDim?: number | undefined;
    /** `bytes` are handed over: the index may keep them as its storage (see DeserializeOptions). */
    adopt?: boolean;
  } = {},
): Promise<LoadOutcome> {
  let reason: AppError;
  try {
    const index = deserializeVectorIndex(bytes ?? new Uint8Array(0), {
      kernel: options.kernel,
      adopt: options.adopt === true,
    });
    if (options.expectDim === undefined || index.dim === options.expectDim)
      return { index, rebuilt: false };
    reason = createError('INDEX_CORRUPT', {
      reason: `The stored index has dimension ${index.dim} but the model produces ${options.expectDim}.`,
    });
  } catch (err) {
    if (!isAppError(err) || err.code !== 'INDEX_CORRUPT') throw err;
    reason = err;
  }
  const index = await rebuildVectorIndex(createEmpty, source(), options);
  return { index, rebuilt: true, reason };
}
