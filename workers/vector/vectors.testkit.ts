// Seeded test data for the vector-index tests and the benchmark: unit vectors quantised to the
// canonical int16 scale, either uniform on the sphere or around cluster centres (closer to how
// text embeddings are spread). Test support only; not used by the app.
import { mulberry32 } from '../shared/rng.testkit';
import { quantizeUnit } from '../shared/quant';

/** mulberry32 (workers/shared/rng.testkit.ts): small, fast, seeded. */
export const createRandom = mulberry32;

export function gaussian(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function randomUnit(random: () => number, dim: number): Int16Array {
  const v = new Float64Array(dim);
  for (let i = 0; i < dim; i++) v[i] = gaussian(random);
  return quantizeUnit(v);
}

/**
 * `count` vectors around `clusters` random centres with per-coordinate noise `spread`
 * (relative to a unit centre): neighbours are meaningful, as with real embeddings.
 */
export function clusteredUnits(
  random: () => number,
  dim: number,
  count: number,
  clusters = 150,
  spread = 0.4,
): Int16Array[] {
  const centres: Float64Array[] = [];
  for (let c = 0; c < clusters; c++) {
    const v = new Float64Array(dim);
    for (let i = 0; i < dim; i++) v[i] = gaussian(random) / Math.sqrt(dim);
    centres.push(v);
  }
  const out: Int16Array[] = [];
  for (let j = 0; j < count; j++) {
    const c = centres[Math.floor(random() * clusters)]!;
    const v = new Float64Array(dim);
    for (let i = 0; i < dim; i++) v[i] = c[i]! + gaussian(random) * spread * Math.sqrt(1 / dim) * 4;
    out.push(quantizeUnit(v));
  }
  return out;
}

/** Reference dot product, written independently of the kernels under test. */
export function referenceDot(a: Int16Array, b: Int16Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Reference top-k (dot desc, id asc) by sorting everything. */
export function referenceTopK(
  entries: Iterable<[number, Int16Array]>,
  query: Int16Array,
  k: number,
): Array<{ id: number; dot: number }> {
  const all = [...entries].map(([id, v]) => ({ id, dot: referenceDot(query, v) }));
  all.sort((a, b) => b.dot - a.dot || a.id - b.id);
  return all.slice(0, k);
}

/** The seed for a fuzz run: SEED from the environment, else a new one each run. */
export function fuzzSeed(): number {
  const env = process.env.SEED;
  return env ? Number(env) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
}
