// The verifier an embed worker hosts: on the first judge() it loads the bundle (cached copy or the
// app's origin, checked against its manifest) into a runtime instance of its own and keeps it;
// a failed load (VERIFIER_MISSING / _CORRUPT / _VERSION) goes to that caller and the next call
// tries again. Must not import Node modules, `self` or Comlink.
import type { PairVerifier } from '../shared/pair-verifier';
import type { Kernel } from '../embed/kernel';
import { readVerifierBundle, VERIFIER_ID, VERIFIER_VERSION } from './bundle';
import type { VerifierBundleStore } from './bundle-store';
import { loadPairModel } from './pair-model';
import { createPairVerifier } from './verifier';

/** The contract's window ([CLS] a [SEP] b [SEP]); the bundle's config.json must not exceed it. */
export const VERIFIER_MAX_LENGTH = 256;

export function createBundleVerifier(deps: {
  store: VerifierBundleStore;
  /** A fresh runtime instance for the verifier (its memory goes with it). */
  loadKernel: () => Promise<Kernel>;
  yieldToEvents?: () => Promise<void>;
}): PairVerifier {
  return createPairVerifier({
    info: { id: VERIFIER_ID, version: VERIFIER_VERSION, maxLength: VERIFIER_MAX_LENGTH },
    ...(deps.yieldToEvents ? { yieldToEvents: deps.yieldToEvents } : {}),
    load: async () => {
      const files = await deps.store.load();
      const bundle = readVerifierBundle(files);
      return loadPairModel(await deps.loadKernel(), bundle, files.weightsSha256.slice(0, 12));
    },
  });
}
