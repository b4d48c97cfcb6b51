// Seeded PRNG for fuzz tests and benches (mulberry32): the seed is printed on failure so a failing
// run can be replayed with EMBED_FUZZ_SEED=<seed>. Test-support only; no product code imports it.

export { mulberry32 } from '../shared/test-rng';

/** A fresh seed per run unless EMBED_FUZZ_SEED pins one. */
export function fuzzSeed(): number {
  const pinned = process.env.EMBED_FUZZ_SEED;
  return pinned ? Number(pinned) : (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
}
