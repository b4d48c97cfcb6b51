// Which fusion the hybrid search uses for the library's embedding model. Chosen on SciFact TRAIN
// queries only (ml/hybrid-tune.ts, eval/README.md "Fusion per model"):
// - USE-lite (shipped, weak at retrieval): adaptive fusion, which trusts the dense list only as far
//   as the lexical list corroborates it (train: adaptive 0.6870 vs plain RRF 0.5914 nDCG@10).
// - BERT-family retrieval models: plain RRF (k = 60). With all-MiniLM-L6-v2, RRF scored best in
//   every agreement bucket on train (RRF 0.7283 vs adaptive 0.7052); gating a strong dense list
//   by agreement only throws its gain away. bge, e5 and gte are stronger retrievers than MiniLM
//   (MTEB) and take the same setting; they were not measured here.
// Unknown models get the conservative adaptive fusion.
import { BERT_PROFILES } from '../embed/model-profiles';
import type { FusionMethod } from './rrf';

const ADAPTIVE: FusionMethod = { kind: 'adaptive' };
const RRF: FusionMethod = { kind: 'rrf' };

/** The fusion for vectors of `modelId` (undefined: no model yet, the conservative default). */
export function fusionForModel(modelId: string | undefined): FusionMethod {
  return modelId !== undefined && Object.hasOwn(BERT_PROFILES, modelId) ? RRF : ADAPTIVE;
}
