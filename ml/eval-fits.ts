// The fits the eval CLI offers (`npm run eval -- --task crag-fit|checker-fit|rationale-fit`, and
// `--task claims --passageRecords` for the evidence gate's train dump): eval/run.ts hands them to
// the eval tasks, so eval/ measures without importing ml/ and ml/ builds on eval/.
import type { CragFitRun, CragFits } from '../eval/crag';
import { goldSpans } from '../eval/crag-collect';
import type { OutOfFold } from '../eval/claims-pipeline';
import { fitChecker } from './checker-fit';
import { fitCrag, unfitted, writeFitted } from './crag-fit';
import { foldEvaluators, foldOfId, readRecords } from './passage-folds';
import { fitRationale } from './rationale-fit';

/** crag-fit, checker-fit or rationale-fit on the collected train records; logs the file written. */
async function runFit(c: CragFitRun): Promise<void> {
  const { task, args, harness, fitted0, records, l, log } = c;
  const provenance = {
    command: `npm run eval -- ${process.argv.slice(2).join(' ')}`,
    fittedOn: `${args.dataset} ${c.split} (${records.length} queries, ${l.corpus.length} documents)`,
  };
  if (task === 'checker-fit') {
    const path = await fitChecker(
      harness,
      fitted0,
      records,
      l.evidence,
      l.corpus.length,
      provenance,
      log,
    );
    log(`[checker-fit] wrote ${path}`);
  } else if (task === 'rationale-fit') {
    const path = fitRationale(fitted0, records, goldSpans(harness, l.evidence), provenance, log);
    log(`[rationale-fit] wrote ${path}`);
  } else {
    // the vector-free variant's rows: the same queries retrieved lexical-only
    // (--lexical-records FILE caches them as --records does)
    harness.setLexicalOnly(true);
    log('[crag-fit] lexical-only retrievals for the vector-free variant');
    const lexicalRecords = await c.collect(args['lexical-records']);
    harness.setLexicalOnly(false);
    const fitted = await fitCrag(
      harness,
      records,
      l.evidence,
      l.corpus.length,
      provenance,
      log,
      lexicalRecords,
    );
    log(`[crag-fit] wrote ${writeFitted(fitted)}`);
  }
}

export const CRAG_FITS: CragFits = { unfitted, run: runFit };

/** Passage models each fitted without one fold of the train claims (passage-folds.ts). */
export const OUT_OF_FOLD: OutOfFold = {
  models: (file, fitted, log) => foldEvaluators(readRecords(file), fitted, log),
  foldOf: foldOfId,
};
