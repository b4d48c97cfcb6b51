// Out-of-fold passage scores for the evidence gate's TRAIN dump. The answer evaluator's passage
// model (logistic + boosted trees, ml/crag-fit.ts; blended with its query model when the
// fit chose a passageBlend) is fitted on the same SciFact train
// queries as the claims, and boosted trees score their own training rows far better than new
// ones: on the train dump the passage score alone lifted the gate's out-of-fold abstract F1 from
// 0.488 to 0.582, on dev only 0.435 -> 0.460. A gate fitted on in-sample scores trusts them too
// much. Here the passage model is refitted per fold (folds by claim id % 5, the gate's folds) on
// the crag-fit records of the other folds' queries, so each train claim is scored by a model
// that never saw it, as a dev claim or a user's claim is. Node only; bench code.
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import type { FittedModel } from '../workers/answer/fitted';
import { fitBoosted } from './boost';
import type { QueryRecord } from '../eval/crag-collect';
import { PASSAGE_BOOST } from './crag-fit';

export const PASSAGE_FOLDS = 5;

/** The fold of a claim / query id (the gate's folds: evidence-gate-fit.ts). */
export const foldOfId = (id: string): number => Number(id) % PASSAGE_FOLDS;

/**
 * Per fold k, `fitted` with its passage model refitted (same features, same trees) on the records
 * of the queries outside fold k. `records`: what `--task crag-fit --records FILE` collected for
 * the same split and model (features of each first retrieval's passages and their qrels labels).
 */
export function foldEvaluators(
  records: QueryRecord[],
  fitted: FittedModel,
  log: (msg: string) => void = () => {},
): FittedModel[] {
  const names = fitted.passage.features;
  const missing = [...new Set([...names, ...(fitted.query?.features ?? [])])].filter(
    (n) => records[0]?.first.features[0]?.[n] === undefined,
  );
  if (missing.length)
    throw new Error(
      `passage-folds: the records lack ${missing.join(', ')} (collected before the shipped evaluator's features); recollect them with --task crag-fit --records FILE`,
    );
  const out: FittedModel[] = [];
  for (let k = 0; k < PASSAGE_FOLDS; k++) {
    const train = records.filter((r) => foldOfId(r.qid) !== k);
    const rows = train.flatMap((r) => r.first.features);
    const labels = train.flatMap((r) => r.labels);
    const t0 = Date.now();
    const fold: FittedModel = {
      ...fitted,
      passage: fitBoosted(names, rows, labels, PASSAGE_BOOST),
    };
    // The passage score blends in the query model (`passageBlend`, crag-fit.ts), fitted on the
    // same queries plus their ablated retrievals' passages as negatives: refitted per fold too.
    if (fitted.query) {
      const ablated = train.flatMap((r) => r.ablation?.features ?? []);
      fold.query = fitBoosted(
        fitted.query.features,
        [...rows, ...ablated],
        [...labels, ...ablated.map(() => false)],
        PASSAGE_BOOST,
      );
    }
    out.push(fold);
    log(
      `[passage-folds] fold ${k}: ${train.length} queries, ${rows.length} passages${fitted.query ? ' (+ the query model)' : ''}, ${Date.now() - t0} ms`,
    );
  }
  return out;
}

/** The records `--task crag-fit --records FILE` wrote (node:v8 serialisation). */
export function readRecords(file: string): QueryRecord[] {
  return deserialize(readFileSync(file)) as QueryRecord[];
}
