// A real in-memory library service for the answer tests (lexical retrieval, no embed worker, the
// LLM service the test passes in), filled with plain-text documents. Test-only.
import type { LibraryWorkerApi } from '../shared/library-api';
import { openNodeDatabase } from '../store/open-database-node';
import { jsDotKernel } from '../vector';
import { createLibraryService, type LibraryServiceDeps } from './service';

/** Opens a library service over a fresh in-memory database and imports `docs` ([path, text]). */
export async function openAnswerLibrary(
  docs: ReadonlyArray<readonly [string, string]>,
  deps: Pick<LibraryServiceDeps, 'wrapLlm'> & Partial<LibraryServiceDeps>,
): Promise<LibraryWorkerApi> {
  const db = openNodeDatabase();
  const lib = createLibraryService({
    openDatabase: () => db,
    dotKernel: async () => jsDotKernel,
    synonyms: async () => new Map(),
    wrapEmbedder: () => {
      throw new Error('no embed worker in this test');
    },
    ...deps,
  });
  await lib.init();
  for (const [path, text] of docs)
    await lib.importText({
      path,
      title: path,
      mime: 'text/plain',
      size: text.length,
      modified: 1,
      text,
    });
  return lib;
}
