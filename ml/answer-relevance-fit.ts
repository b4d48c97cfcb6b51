// `npx tsx ml/answer-relevance-fit.ts [--docs eval/data/answers-dev/docs]
//   [--questions eval/data/answers-dev/questions.jsonl] [--model use-lite]
//   [--out workers/fitted/answer-relevance.json]`
// Fits the answer's relevance rule (workers/answer/relevance.ts) on the answers DEV set (our own
// questions over Debian PDFs; R's manuals are never read here): every question is asked through
// the app's answer service with the shipped pair verifier, and the best relevance it read is
// recorded. The threshold is the cut between answerable and unanswerable questions with the best
// balanced accuracy, the widest gap among equals, at the midpoint of the gap in logit space.
// Pool, weight and the answer's length are the file's own choices (kept as they are).
import { writeFileSync } from 'node:fs';
import { createAnswerService } from '../workers/answer/service';
import { loadFittedModel } from '../workers/answer/fitted';
import { ANSWER_RELEVANCE, type AnswerRelevanceModel } from '../workers/answer/relevance';
import { VERIFIER_DIR, weightsSha256 } from '../workers/verifier/node-bundle';
import { VERIFIER_ID } from '../workers/verifier/bundle';
import { round4 } from '../eval/logistic';
import { parseArgs } from '../lab/args';
import { openAnswersBench } from '../eval/answers-task';

export const ANSWERS_DEV = 'eval/data/answers-dev';

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** One question's best read relevance and whether the library holds its answer. */
export interface BestRead {
  best: number;
  answerable: boolean;
}

/** The threshold (a probability) with the best balanced accuracy; widest logit gap among equals. */
export function fitThreshold(rows: BestRead[]): { threshold: number; balancedAccuracy: number } {
  const xs = [...new Set(rows.map((r) => logit(Math.min(1 - 1e-6, Math.max(1e-6, r.best)))))].sort(
    (a, b) => a - b,
  );
  const pos = rows.filter((r) => r.answerable);
  const neg = rows.filter((r) => !r.answerable);
  if (!pos.length || !neg.length) throw new Error('need answerable and unanswerable questions');
  let best = { threshold: 0.5, balancedAccuracy: -1, gap: -1 };
  for (let i = 0; i + 1 < xs.length; i++) {
    const cut = (xs[i]! + xs[i + 1]!) / 2;
    const p = sigmoid(cut);
    const tpr = pos.filter((r) => r.best >= p).length / pos.length;
    const tnr = neg.filter((r) => r.best < p).length / neg.length;
    const ba = (tpr + tnr) / 2;
    const gap = xs[i + 1]! - xs[i]!;
    if (
      ba > best.balancedAccuracy + 1e-12 ||
      (Math.abs(ba - best.balancedAccuracy) <= 1e-12 && gap > best.gap)
    )
      best = { threshold: p, balancedAccuracy: ba, gap };
  }
  return { threshold: round4(best.threshold), balancedAccuracy: round4(best.balancedAccuracy) };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const docs = args.docs ?? `${ANSWERS_DEV}/docs`;
  const questionsFile = args.questions ?? `${ANSWERS_DEV}/questions.jsonl`;
  const out = args.out ?? 'workers/fitted/answer-relevance.json';
  const bench = await openAnswersBench({ ...args, docs, questions: questionsFile });
  try {
    const service = createAnswerService(bench.deps, await loadFittedModel(bench.deps.modelId));
    const rows: BestRead[] = [];
    for (const q of bench.questions) {
      const answer = await service.ask({
        question: q.question,
        mode: 'extractive',
        allowLlm: false,
        allowWeb: false,
      });
      const r = answer.crag.relevance;
      if (r?.source !== 'verifier') throw new Error(`question ${q.id}: not read (${r?.source})`);
      rows.push({ best: r.best, answerable: q.answerable });
    }
    const fit = fitThreshold(rows);
    const pos = rows.filter((r) => r.answerable).map((r) => r.best);
    const neg = rows.filter((r) => !r.answerable).map((r) => r.best);
    const model: AnswerRelevanceModel = {
      verifier: VERIFIER_ID,
      pool: ANSWER_RELEVANCE.pool,
      addressed: fit.threshold,
      relevanceWeight: ANSWER_RELEVANCE.relevanceWeight,
      answerMax: ANSWER_RELEVANCE.answerMax,
      command: 'npx tsx ml/answer-relevance-fit.ts',
      fittedOn: `${questionsFile} over ${docs} (the answers dev set; ${bench.deps.modelId} retrieval; verifier weights ${weightsSha256(VERIFIER_DIR).slice(0, 12)})`,
      figures: {
        questions: rows.length,
        balancedAccuracy: fit.balancedAccuracy,
        answerableBestMin: round4(Math.min(...pos)),
        unanswerableBestMax: round4(Math.max(...neg)),
      },
    };
    writeFileSync(out, JSON.stringify(model, null, 2) + '\n');
    console.log(JSON.stringify(model, null, 2));
  } finally {
    await bench.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
