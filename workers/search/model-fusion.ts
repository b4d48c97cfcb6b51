// Which fusion the hybrid search uses for the library's embedding model. Chosen on SciFact TRAIN
// queries only (ml/hybrid-tune.ts, eval/README.md "Fusion per model"), at the app's depth of 20
// chunks per list:
// - USE-lite (shipped, weak at retrieval: 0.277 nDCG@10 alone): no weighting of its list beats
//   lexical at the top (lexical 0.6877; adaptive 0.6870, weighted RRF s = 0.05 0.6851, min-max
//   below), so its list only adds what lexical missed: weighted RRF with semantic weight 0.001,
//   which keeps the lexical order exactly (one lexical rank, down to rank 100, is worth more than
//   0.001 of any semantic one) and orders the dense-only finds after it by semantic rank. Its
//   lexical list is read 100 deep (semantic 20), so lexical alone fills the top 10 documents as
//   in keyword search: train 0.6890 vs lexical 0.6889, Recall@100 0.9126 vs 0.9052.
//   Hybrid never ranks below keyword search.
// - BERT-family retrieval models: plain RRF (k = 60). With all-MiniLM-L6-v2, RRF scored best in
//   every agreement bucket on train (RRF 0.7283 vs adaptive 0.7052); gating a strong dense list
//   by agreement only throws its gain away. bge, e5 and gte are stronger retrievers than MiniLM
//   (MTEB) and take the same setting; they were not measured here.
// Unknown models get the conservative adaptive fusion.
import { BERT_PROFILES } from '../embed/model-profiles';
import type { FusionMethod } from './rrf';

const ADAPTIVE: FusionMethod = { kind: 'adaptive' };
const RRF: FusionMethod = { kind: 'rrf' };
const LEXICAL_FIRST: FusionMethod = {
  kind: 'weighted-rrf',
  weights: { semantic: 0.001, lexical: 1 },
};

/** The fusion for vectors of `modelId` (undefined: no model yet, the conservative default). */
export function fusionForModel(modelId: string | undefined): FusionMethod {
  if (modelId === 'use-lite') return LEXICAL_FIRST;
  return modelId !== undefined && Object.hasOwn(BERT_PROFILES, modelId) ? RRF : ADAPTIVE;
}

/**
 * The lexical list's depth inside a hybrid fusion for vectors of `modelId`: 100 for USE-lite's
 * lexical-first fusion (lexical must fill a page of documents by itself), else `standard` (the
 * CFS-012 depth the search was built with).
 */
export function hybridLexicalDepth(modelId: string | undefined, standard: number): number {
  return modelId === 'use-lite' ? Math.max(standard, 100) : standard;
}
