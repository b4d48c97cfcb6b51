// A generated library of N chunks for the benchmarks: SciFact repeated, each copy with a seeded
// word drop (copy 0 is the original), so large libraries have realistic vocabulary and lengths.
// Shared by the hybrid and long-query benchmarks; never imported by product code.
import { createHash } from 'node:crypto';
import { mulberry32 } from '../workers/embed/rng.testkit';

/** A 32-bit seed from a string (SHA-256's first 4 bytes). */
export function seedOf(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32LE(0);
}

/** Copy `copy` of a text: every word dropped with probability 0.1 (copy 0 is the original). */
export function perturb(text: string, copy: number, key: string): string {
  if (copy === 0) return text;
  const rand = mulberry32(seedOf(`${copy}:${key}`));
  return text
    .split(' ')
    .filter(() => rand() >= 0.1)
    .join(' ');
}

/** Nearest-rank percentile of an ascending list (0 when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
