// Seeded PRNG for fuzz tests and benches (mulberry32): the seed is printed on failure so a failing
// run can be replayed with EMBED_FUZZ_SEED=<seed>. Test-support only; no product code imports it.

export { mulberry32 } from '../shared/rng.testkit';

/** A fresh seed per run unless EMBED_FUZZ_SEED pins one. */
export function fuzzSeed(): number {
  const pinned = process.env.EMBED_FUZZ_SEED;
  return pinned ? Number(pinned) : (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
}

/** `n` values drawn uniformly from [-scale, scale), rounded to f32, one `rand()` each in order. */
export function randomF32(rand: () => number, n: number, scale = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
  return out;
}
