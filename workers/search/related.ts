// "Find related" (More like this, issue 15): the source passage itself is the query: lexically
// with all its terms, semantically with its stored vector (a document: the mean of its chunk
// vectors; selected text: embedded like a query), in the user's mode and filters, with the
// source document's chunks left out of both lists before fusion. Owns the source look-up and its
// errors; ranking is hybrid.ts's.
import { createError } from '../shared/errors';
import type { RelatedRequest } from '../shared/search-contract';
import type { DocumentDetail, SearchResponse } from '../shared/types';
import type { HybridSearch } from './hybrid';

/** A document's text beyond this many characters is not used as the query (bounded work). */
export const RELATED_MAX_CHARS = 2000;

export interface RelatedDeps {
  hybrid: HybridSearch;
  /** @throws AppError NOT_FOUND when the document was deleted */
  getDocument(id: number): Promise<DocumentDetail>;
  /** null when the chunk was deleted. */
  documentOfChunk(chunkId: number): Promise<number | null>;
  now?: () => number;
}

export interface RelatedResult extends SearchResponse {
  sourceLabel: string;
  sourceNotice: string | null;
}

interface Source {
  text: string;
  vector: Int16Array | undefined;
  exclude: Set<number>;
  label: string;
  notice: string | null;
}

const deleted = (what: string) =>
  createError('NOT_FOUND', {
    reason: `${what} was deleted from the library. Search again to find what is there now.`,
  });

/** Unit-length mean of int16 unit vectors, re-quantised with S = 32767 (canonical form). */
export function meanVector(vectors: Int16Array[]): Int16Array | undefined {
  const first = vectors[0];
  if (!first) return undefined;
  const sum = new Float64Array(first.length);
  for (const v of vectors) for (let i = 0; i < sum.length; i++) sum[i]! += v[i] ?? 0;
  let norm = 0;
  for (const x of sum) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm === 0) return undefined;
  return Int16Array.from(sum, (x) =>
    Math.max(-32767, Math.min(32767, Math.round((x / norm) * 32767))),
  );
}

function bounded(text: string): { text: string; notice: string | null } {
  if (text.length <= RELATED_MAX_CHARS) return { text, notice: null };
  const cut = text.lastIndexOf(' ', RELATED_MAX_CHARS);
  return {
    text: text.slice(0, cut > 0 ? cut : RELATED_MAX_CHARS),
    notice: `Only the first ${RELATED_MAX_CHARS.toLocaleString('en')} characters were used to find related passages.`,
  };
}

export function createRelatedSearch(deps: RelatedDeps) {
  const now = deps.now ?? (() => performance.now());

  async function documentOrDeleted(id: number): Promise<DocumentDetail> {
    try {
      return await deps.getDocument(id);
    } catch (err) {
      throw (err as { code?: string }).code === 'NOT_FOUND' ? deleted('The document') : err;
    }
  }

  async function resolve(request: RelatedRequest): Promise<Source> {
    const src = request.source;
    if (src.kind === 'text') {
      const text = src.text.trim();
      if (!text) throw createError('INVALID_QUERY', { reason: 'Select some text first.' });
      const doc = src.documentId !== undefined ? await documentOrDeleted(src.documentId) : null;
      return {
        ...bounded(text),
        vector: undefined,
        exclude: new Set(doc?.chunks.map((c) => c.id) ?? []),
        label: doc ? `the selection in ${doc.title || doc.path}` : 'the selection',
      };
    }
    const documentId =
      src.kind === 'chunk' ? await deps.documentOfChunk(src.chunkId) : src.documentId;
    if (documentId === null) throw deleted('The passage');
    const doc = await documentOrDeleted(documentId);
    const exclude = new Set(doc.chunks.map((c) => c.id));
    const name = doc.title || doc.path;
    if (src.kind === 'chunk') {
      const chunk = doc.chunks.find((c) => c.id === src.chunkId);
      if (!chunk) throw deleted('The passage');
      const stored = await deps.hybrid.storedVectors([chunk.id]);
      return {
        ...bounded(chunk.text),
        vector: stored.get(chunk.id),
        exclude,
        label: `a passage of ${name}`,
      };
    }
    const stored = await deps.hybrid.storedVectors([...exclude]);
    return {
      ...bounded(doc.text),
      vector: meanVector([...stored.values()]),
      exclude,
      label: name,
    };
  }

  return {
    /**
     * Hits like the source, source document excluded, in the request's mode and filters.
     * @throws AppError NOT_FOUND (source deleted), INVALID_QUERY (empty passage)
     */
    async find(request: RelatedRequest): Promise<RelatedResult> {
      const started = now();
      const source = await resolve(request);
      if (!source.text.trim())
        throw createError('INVALID_QUERY', { reason: 'The passage has no text to search with.' });
      const limit = request.limit ?? 10;
      const response = await deps.hybrid.retrieve(
        {
          query: source.text,
          limit,
          ...(request.documents !== undefined ? { documents: request.documents } : {}),
          ...(request.mode ? { mode: request.mode } : {}),
          ...(request.filters ? { filters: request.filters } : {}),
        },
        { ...(source.vector ? { vector: source.vector } : {}), excludeChunkIds: source.exclude },
      );
      return {
        ...response,
        tookMs: now() - started,
        sourceLabel: source.label,
        sourceNotice: source.notice,
      };
    },
  };
}
