// Display data and vector versions of the models the embed worker can run: the profile as the UI
// sees it (labels, prefixes, pooling) and the version string that keys BERT vectors.
// Pure functions over model-profiles.ts; must not import storage, Node modules or Comlink.
import type { ModelProfileInfo } from '../shared/embed-api';
import { BERT_CANON_REVISION, BERT_CATALOGUE, BERT_PROFILES } from './model-profiles';
import { USE_LITE_MAX_TOKENS, USE_LITE_MODEL_ID } from './use-lite';

export const USE_LITE_LABEL = 'Universal Sentence Encoder lite';
/** model.json + vocab.json + 7 weight shards as shipped in public/models/use-lite/ (du -cb). */
export const USE_LITE_SIZE_BYTES = 28_369_009;

export function profileInfo(id: string): ModelProfileInfo {
  if (id === USE_LITE_MODEL_ID) {
    return {
      id,
      label: USE_LITE_LABEL,
      queryPrefix: '',
      passagePrefix: '',
      pooling: 'mean',
      maxTokens: USE_LITE_MAX_TOKENS,
    };
  }
  const p = BERT_PROFILES[id];
  if (!p) throw new Error(`unknown profile ${id}`);
  return {
    id,
    label: BERT_CATALOGUE[id]?.label ?? id,
    queryPrefix: p.queryPrefix ?? '',
    passagePrefix: p.passagePrefix ?? '',
    pooling: p.pooling ?? 'mean',
    maxTokens: p.maxTokens,
  };
}

/** 32-bit FNV-1a of a string, hex: a short fingerprint of the profile's prefixes. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * The version of a BERT model's vectors: the weights' SHA-256, the pooling, the window and the
 * prefixes (everything that changes the bytes besides the id), and the kernels' revision.
 */
export function bertVersion(sha256: string, profileId: string): string {
  const p = profileInfo(profileId);
  const prefixes = fnv1a(`${p.queryPrefix}\u0000${p.passagePrefix}`);
  return `${sha256.slice(0, 12)}.${p.pooling}${p.maxTokens}.${prefixes}+${BERT_CANON_REVISION}`;
}
