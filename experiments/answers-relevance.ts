// Dumps, for each question of an answers dev set, every refined strip of the first retrieval with
// its strip score, page and the pair verifier's relevance and stance, to a JSON-lines file that
// the selection rules are then tried on (which strips to answer with, when to say "not in the
// library"). `npx tsx experiments/answers-relevance.ts --docs DIR --questions FILE --out OUT
// [--verifier DIR] [--top N]`.
import { writeFileSync } from 'node:fs';
import { loadFittedModel } from '../workers/answer/fitted';
import { evaluateRetrieval } from '../workers/answer/pipeline';
import { refine } from '../workers/answer/refine';
import { relevanceCandidates } from '../workers/answer/relevance';
import { RETRIEVE_CHUNKS } from '../workers/answer/ask-run';
import { pageAt } from '../workers/shared/pages';
import { createFolderVerifier } from '../workers/verifier/node-bundle';
import { parseArgs } from '../lab/args';
import { openAnswersBench } from '../eval/answers-task';

const args = parseArgs(process.argv.slice(2));
const top = Number(args.top ?? 40);
const bench = await openAnswersBench(args);
const verifier = createFolderVerifier(args.verifier);
const fitted = await loadFittedModel(bench.deps.modelId);
const lines: string[] = [];
let pairs = 0;
const t0 = performance.now();
for (const q of bench.questions) {
  const retrieval = await bench.deps.retrieve({ query: q.question, limit: RETRIEVE_CHUNKS });
  const ev = await evaluateRetrieval(q.question, retrieval, bench.deps, fitted);
  const ref = refine(
    ev.query,
    ev.passages,
    ev.result.passages.map((p) => p.finalScore),
    fitted,
  );
  // The product's candidates first (whole sentences, best by strip score), then the rest.
  const strips = relevanceCandidates(ref.all, top);
  // The strip just before each one in its document's windows (its reading context), if any.
  const before = (s: (typeof strips)[number]) =>
    ref.all
      .filter((o) => o.documentId === s.documentId && o.end <= s.start && s.start - o.end < 40)
      .sort((a, b) => b.end - a.end)[0]?.text ?? null;
  const judged = await verifier.judge(strips.map((s) => ({ a: q.question, b: s.text })));
  pairs += strips.length;
  lines.push(
    JSON.stringify({
      id: q.id,
      question: q.question,
      answerable: q.answerable,
      gold: q.gold ?? [],
      phrases: q.answer_phrases ?? [],
      decision: ev.result.decision,
      passages: ev.result.passages.map((p) => p.finalScore),
      strips: strips.map((s, i) => ({
        text: s.text,
        doc: s.path,
        page: pageAt(bench.byName.get(s.path)?.pageStarts, s.start),
        start: s.start,
        score: s.score,
        passageRank: s.passageRank,
        // the strip's chunk among its document's retrieved chunks (0 best; -1 a neighbour's)
        chunkRank: (ev.passages[s.passageRank - 1]?.hits ?? []).findIndex(
          (h) => h.chunkId === s.chunkId,
        ),
        kept: s.score >= fitted.strip.keep,
        features: s.features,
        previous: before(s),
        rel: judged[i]!.relevance,
        stance: judged[i]!.stance,
      })),
    }),
  );
  console.error(`${q.id} ${strips.length} strips`);
}
console.error(`${pairs} pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
writeFileSync(args.out!, lines.join('\n') + '\n');
await bench.close();
