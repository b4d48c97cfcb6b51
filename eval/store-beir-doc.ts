// Stores one BEIR document through the app's store, chunked by the app's chunker, the same way
// for every evaluation mode (lexical and hybrid must index identical chunks to be comparable).
// An empty text falls back to the title. Every BEIR document is distinct by id even when two
// texts are equal, so the id is part of the hash: the app dedupes by content, the benchmark must
// not drop ids.
import { createHash } from 'node:crypto';
import type { ChunkInput, DocumentInput } from '../workers/shared/types';
import { chunkText } from '../workers/ingest/chunk';
import type { Store } from '../workers/store/store';
import type { BeirDoc } from './beir';

/** A file the app's importer read (the answers task): stored exactly as the importer gave it. */
export type StoredDoc = BeirDoc & {
  imported?: { input: DocumentInput; chunks: ChunkInput[]; hash: string };
};

/** @returns the chunks stored for `doc` (in order; `seq` matches the store's rows). */
export async function storeBeirDoc(store: Store, doc: StoredDoc): Promise<ChunkInput[]> {
  if (doc.imported) {
    await store.putDocument(doc.imported.input, doc.imported.chunks, doc.imported.hash);
    return doc.imported.chunks;
  }
  const text = doc.text.trim().length > 0 ? doc.text : doc.title;
  const parts = chunkText(text);
  const hash = createHash('sha256')
    .update(`${doc.id}\u0000${doc.title}\u0000${text}`)
    .digest('hex');
  await store.putDocument(
    { path: doc.id, title: doc.title, mime: 'text/plain', size: text.length, modified: 0, text },
    parts,
    hash,
  );
  return parts;
}
