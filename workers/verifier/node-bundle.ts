// Node-only: a verifier bundle folder read from disk into a PairModel or a PairVerifier on the
// canonical runtime (tests, the eval's stance-pairs task, the verifier bench). No product code
// imports it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeKernel, REPO_ROOT } from '../embed/node-kernel';
import type { PairVerifier } from '../shared/pair-verifier';
import { parseVerifierConfig, readVerifierBundle, VERIFIER_ID, VERIFIER_VERSION } from './bundle';
import { loadPairModel, type PairModel } from './pair-model';
import { createPairVerifier } from './verifier';

/** Where the app serves the bundle from, and where the lead drops the fitted one. */
export const VERIFIER_DIR = join(REPO_ROOT, `public/models/${VERIFIER_ID}`);

export function weightsSha256(dir = VERIFIER_DIR): string {
  return createHash('sha256')
    .update(readFileSync(join(dir, 'model.safetensors')))
    .digest('hex');
}

export async function loadPairModelFolder(dir = VERIFIER_DIR): Promise<PairModel> {
  const bundle = readVerifierBundle({
    config: readFileSync(join(dir, 'config.json'), 'utf8'),
    vocab: readFileSync(join(dir, 'vocab.txt'), 'utf8'),
    weights: readFileSync(join(dir, 'model.safetensors')),
  });
  return loadPairModel(await createNodeKernel(), bundle, weightsSha256(dir).slice(0, 12));
}

export function createFolderVerifier(dir = VERIFIER_DIR): PairVerifier {
  const config = parseVerifierConfig(readFileSync(join(dir, 'config.json'), 'utf8'));
  return createPairVerifier({
    info: { id: VERIFIER_ID, version: VERIFIER_VERSION, maxLength: config.max_length },
    load: () => loadPairModelFolder(dir),
  });
}
