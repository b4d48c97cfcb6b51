// Profiles of the BERT-family models Sift knows: what differs between them besides the weights
// (sequence length, pooling, query/passage prefixes), from each model card. Pure data.
import type { BertProfile } from './bert';

/** Bump when the canonical kernels change the bytes of BERT vectors. */
export const BERT_CANON_REVISION = 'canon.1';

export const BERT_PROFILES: Record<string, Omit<BertProfile, 'version'>> = {
  'all-MiniLM-L6-v2': { id: 'all-MiniLM-L6-v2', maxTokens: 256, pooling: 'mean' },
  'bge-small-en-v1.5': {
    id: 'bge-small-en-v1.5',
    maxTokens: 512,
    pooling: 'cls',
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
  },
  'e5-small-v2': {
    id: 'e5-small-v2',
    maxTokens: 512,
    pooling: 'mean',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
  },
  'gte-small': { id: 'gte-small', maxTokens: 512, pooling: 'mean' },
};
