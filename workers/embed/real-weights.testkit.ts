// Whether the tests that need the real all-MiniLM-L6-v2 weights (.cache/models, fetched by
// `npm run copy-model -- --fetch-minilm`) can run: without the weights such a test skips on a
// developer's machine and fails in CI, so a failed fetch cannot turn CI's real-weight groups into
// silent skips.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MINILM_DIR } from './node-kernel';

export const MINILM_WEIGHTS = join(MINILM_DIR, 'model.safetensors');
export const FETCH_MINILM = 'npm run copy-model -- --fetch-minilm';

/** Running under CI: the CI variable set to anything but empty, 0 or false (`.ci/run` sets it). */
export function inCi(env: Record<string, string | undefined> = process.env): boolean {
  const v = env.CI?.trim().toLowerCase();
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}

/**
 * True when the real weights are at `file`. Missing: false on a developer's machine (the caller
 * skips); in CI, throws, which fails the test that asked.
 */
export function haveRealWeights(file = MINILM_WEIGHTS, ci = inCi()): boolean {
  if (existsSync(file)) return true;
  if (ci)
    throw new Error(
      `The real all-MiniLM-L6-v2 weights are missing (${file}); CI runs every real-weight test: run \`${FETCH_MINILM}\` before the tests.`,
    );
  return false;
}
