// Seeded PRNG for fuzz tests and benches (mulberry32): the seed is printed on failure so a failing
// run can be replayed with EMBED_FUZZ_SEED=<seed>. Test-support only; no product code imports it.

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh seed per run unless EMBED_FUZZ_SEED pins one. */
export function fuzzSeed(): number {
  const pinned = process.env.EMBED_FUZZ_SEED;
  return pinned ? Number(pinned) : (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
}
