// `npx tsx ml/crag-fit-novectors.ts MODEL LEXICAL_RECORDS`: refits only the vector-free
// variant (`noVectors`) of workers/fitted/MODEL.json from a TRAIN split's lexical-only
// records (`--lexical-records` of `--task crag-fit`), with the same function crag-fit uses
// (`fitVariant` over LEXICAL_FEATURES), and notes the command in the file's provenance. For a
// change to the variant's feature list without refitting the rest; a full crag-fit gives the
// same variant from the same records. Train only: never pass a test split's records.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { LEXICAL_FEATURES } from '../workers/answer/features';
import type { FittedModel } from '../workers/answer/fitted';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import type { QueryRecord } from '../eval/crag-collect';
import { fitVariant, formatFitted, present } from './crag-fit';

function main(): void {
  const [model, file] = process.argv.slice(2);
  if (!model || !file) throw new Error('usage: crag-fit-novectors.ts MODEL LEXICAL_RECORDS');
  const path = join(REPO_ROOT, 'workers/fitted', `evaluator-${model}.json`);
  const fitted = JSON.parse(readFileSync(path, 'utf8')) as FittedModel;
  const records = deserialize(readFileSync(file)) as QueryRecord[];
  if (records.some((r) => r.first.features.some((f) => f.vectors !== 0)))
    throw new Error(`${file} holds retrievals with vectors: pass crag-fit's --lexical-records`);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const names = present(records, LEXICAL_FEATURES, log);
  fitted.noVectors = fitVariant(fitted, records, names, log).variant;
  log(`[crag-fit-novectors] thresholds ${JSON.stringify(fitted.noVectors.thresholds)}`);
  fitted.command += ` ; npx tsx ml/crag-fit-novectors.ts ${model} ${file} (${new Date().toISOString().slice(0, 10)})`;
  writeFileSync(path, formatFitted(fitted));
  log(`[crag-fit-novectors] wrote ${path}`);
}

main();
