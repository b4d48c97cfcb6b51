import { describe, expect, it } from 'vitest';
import { createHnswIndex } from './hnsw';
import { vectorIndexContract } from './index-contract.testkit';

vectorIndexContract('hnsw (M 16)', (dim, initialCapacity) =>
  createHnswIndex({ dim, initialCapacity }),
);
// A tiny M forces the neighbour heuristic and link shrinking even on contract-sized data.
vectorIndexContract('hnsw (M 4, efConstruction 16)', (dim, initialCapacity) =>
  createHnswIndex({ dim, M: 4, efConstruction: 16, initialCapacity }),
);

describe('hnsw config', () => {
  it('rejects invalid build parameters', () => {
    expect(() => createHnswIndex({ dim: 0 })).toThrow(/dim/);
    expect(() => createHnswIndex({ dim: 8, M: 1 })).toThrow(/M/);
    expect(() => createHnswIndex({ dim: 8, efConstruction: 0 })).toThrow(/efConstruction/);
  });
});
