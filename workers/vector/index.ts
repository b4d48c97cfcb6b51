// Public surface of workers/vector: import from here, not from the files behind it.
export { createHnswIndex, deserializeHnsw, HNSW_DEFAULTS } from './hnsw';
export type { HnswDeps } from './hnsw';
export { createExactIndex, deserializeExact } from './exact';
export type { ExactConfig } from './exact';
export { jsDotKernel } from './dot-kernel';
export {
  deserializeVectorIndex,
  rebuildVectorIndex,
  loadOrRebuildVectorIndex,
} from './persistence';
export type { VectorSourceRow, RebuildOptions, LoadOutcome } from './persistence';
export { FORMAT_VERSION } from './format';
export * from './types';
export { createWasmDotKernel } from './wasm-dot-kernel';
export type { I16DotRuntime } from './wasm-dot-kernel';
