// The selection the lexical ranking cuts its top chunks with must equal a full sort's.
import { describe, expect, it } from 'vitest';
import { kthLargest } from './lexical-prune';
import { mulberry32 } from './store.testkit';

describe('kthLargest', () => {
  it('equals the k-th of a descending sort, ties and repeated values included', () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const rand = mulberry32(seed);
    for (let round = 0; round < 200; round++) {
      const size = 1 + Math.floor(rand() * 300);
      const scores = Float64Array.from({ length: size }, () =>
        rand() < 0.3 ? Math.floor(rand() * 4) : rand() * 10,
      );
      const ids = [...scores.keys()].filter(() => rand() < 0.8);
      if (ids.length === 0) continue;
      const sorted = ids.map((id) => scores[id]!).sort((a, b) => b - a);
      const k = 1 + Math.floor(rand() * ids.length);
      expect(kthLargest(scores, ids, k), `seed ${seed}`).toBe(sorted[k - 1]);
    }
  });
});
