// Profiles of the BERT-family models Sift knows: what differs between them besides the weights
// (sequence length, pooling, query/passage prefixes), from each model card, plus where to download
// them and how big they are. Pure data.
import type { BertProfile } from './bert';

/**
 * Bump when the canonical kernels change the bytes of BERT vectors. canon.1: GELU from an f64 erf
 * series, f64 softmax exponentials. canon.2: GELU in f32 lanes fused into the matmul, attention on
 * packed tiles with an f32 softmax (about 2x faster; cosine to canon.1 >= 0.99999999999 on the
 * golden texts). canon.3: every dense layer in int16 (`matmulI16`: weights |q| <= 2047 per
 * output column, activations |q| <= 32767 per row, exact int32 sums over 32-k blocks converted
 * to f32 in k order), about 1.3x faster per query than canon.2; cosine to canon.2 >= 0.9999 on
 * every golden text (workers/embed/bert-canon-revision.test.ts, wasm/compare-bert-revisions.ts).
 */
export const BERT_CANON_REVISION = 'canon.3';

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

export interface BertCatalogueData {
  label: string;
  /** Hugging Face repo id. */
  repo: string;
  dim: number;
  /**
   * config.json + tokenizer.json + model.safetensors in bytes. all-MiniLM-L6-v2's weights and
   * config are the exact sizes of the published files; the tokenizer sizes and the other models'
   * files are from their hub file lists, rounded: treat them as approximate.
   */
  sizeBytes: number;
  sizeApproximate: boolean;
  /** Published MTEB SciFact nDCG@10, where we have the figure. */
  scifactNdcg10?: number;
  description: string;
}

export const BERT_CATALOGUE: Record<string, BertCatalogueData> = {
  'all-MiniLM-L6-v2': {
    label: 'all-MiniLM-L6-v2',
    repo: 'sentence-transformers/all-MiniLM-L6-v2',
    dim: 384,
    sizeBytes: 612 + 466_247 + 90_868_376,
    sizeApproximate: true,
    scifactNdcg10: 0.645,
    description: 'Fast general-purpose English sentence encoder (6 layers).',
  },
  'bge-small-en-v1.5': {
    label: 'BGE small (en, v1.5)',
    repo: 'BAAI/bge-small-en-v1.5',
    dim: 384,
    sizeBytes: 743 + 711_396 + 133_466_304,
    sizeApproximate: true,
    description: 'English retrieval model (12 layers); adds an instruction to queries.',
  },
  'e5-small-v2': {
    label: 'E5 small v2',
    repo: 'intfloat/e5-small-v2',
    dim: 384,
    sizeBytes: 650 + 711_396 + 133_462_128,
    sizeApproximate: true,
    description: 'English retrieval model (12 layers); "query: " / "passage: " prefixes.',
  },
  'gte-small': {
    label: 'GTE small',
    repo: 'thenlper/gte-small',
    dim: 384,
    sizeBytes: 583 + 711_396 + 66_746_168,
    sizeApproximate: true,
    description: 'English retrieval model (12 layers, 16-bit weights).',
  },
};
