// Writes wasm/golden/verifier-sha256.json: SHA-256 of the canonical runtime's output bytes for the
// pairs of wasm/golden/verifier-reference.json, on the bundle in public/models/sift-verifier-v1/.
// Run through `npm run golden:verifier` (the PyTorch reference first), only on purpose: after a new
// bundle or a kernel revision that changes the bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import { hashPairOutputs, type VerifierGolden } from '../workers/verifier/golden';
import { loadPairModelFolder, weightsSha256 } from '../workers/verifier/node-bundle';

const reference = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/verifier-reference.json'), 'utf8'),
) as { bundleSha256: string; pairs: Array<{ a: string; b: string }> };
const sha = weightsSha256();
if (sha !== reference.bundleSha256) {
  throw new Error(
    'verifier-reference.json belongs to another bundle: run python3 ml/verifier/reference.py first.',
  );
}
const model = await loadPairModelFolder();
const hashes = await hashPairOutputs(model, reference.pairs);
const golden: VerifierGolden = { bundleSha256: sha, entries: hashes.map((sha256) => ({ sha256 })) };
writeFileSync(
  join(REPO_ROOT, 'wasm/golden/verifier-sha256.json'),
  `${JSON.stringify(golden, null, 1)}\n`,
);
process.stdout.write(`wrote wasm/golden/verifier-sha256.json: ${hashes.length} pairs\n`);
