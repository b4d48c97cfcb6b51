// Training data for the fitted cross-encoder stance model (experiments/fit-stance-cross.py), from
// SciFact claims_TRAIN only (the dev claims are never read):
//   npx tsx experiments/stance-cross-data.ts --dataset ../shared/datasets/scifact --out /tmp/cross.jsonl
// One JSON line per oracle instance, exactly as the claims eval builds them (claims-data.ts: gold
// rationale sentences for SUPPORT/CONTRADICT, the three BM25-closest sentences of each cited
// abstract for NOT ENOUGH INFO), plus the two BM25-closest non-rationale sentences of each evidence
// abstract (`negatives`, NEUTRAL at sentence level). Texts are tokenised here with the product's
// WordPiece (workers/embed/wordpiece.ts, no [CLS]/[SEP]) so the Python fit and the TypeScript
// forward see the same ids. `flipped`: the claim's flipped versions (ml/stance-synth.ts,
// negation toggled or a polar word swapped; the fit may train on them with the opposite label on the
// rationale, NEUTRAL on the negatives and on an NEI claim's sentences). Node only.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from '../lab/args';
import { loadCorpus } from '../eval/beir';
import {
  loadClaims,
  loadSentenceStarts,
  oracleInstances,
  originalSentences,
} from '../eval/claims-data';
import { flippedClaims } from '../ml/stance-synth';
import { topSentences } from '../workers/projects/sentence-rank';
import { parseWordPieceTokenizer } from '../workers/embed/bert-files';

const HARD_NEGATIVES = 2;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { strict: true });
  if (!args.dataset || !args.out)
    throw new Error('usage: stance-cross-data.ts --dataset <scifact folder> --out FILE');
  const tok = parseWordPieceTokenizer(
    readFileSync(args.tokenizer ?? '.cache/models/all-MiniLM-L6-v2/tokenizer.json', 'utf8'),
  );
  // encode() adds [CLS] ... [SEP]; the fit assembles the pair itself.
  const ids = (t: string) => tok.encode(t, 512).ids.slice(1, -1);
  const corpus = new Map((await loadCorpus(args.dataset)).map((d) => [d.id, d]));
  const claims = loadClaims(args.dataset, 'train');
  const instances = oracleInstances(claims, corpus, loadSentenceStarts());
  const starts = loadSentenceStarts();
  const lines = instances.map((inst) => {
    const sents = originalSentences(corpus.get(inst.docId)!.text, starts[inst.docId]!).map(
      (s) => s.text,
    );
    const evidence = inst.sentenceIdx.map((i) => sents[i] ?? '').filter((s) => s);
    let negatives: string[] = [];
    if (inst.label !== 'NEUTRAL') {
      const others = sents.filter((_, i) => !inst.sentenceIdx.includes(i));
      negatives = topSentences(inst.claim, others, HARD_NEGATIVES).map((i) => others[i]!);
    }
    return JSON.stringify({
      claimId: Number(inst.claimId),
      docId: inst.docId,
      label: inst.label,
      claim: ids(inst.claim),
      evidence: evidence.map(ids),
      negatives: negatives.map(ids),
      flipped: flippedClaims(inst.claim).map(ids),
    });
  });
  writeFileSync(args.out, `${lines.join('\n')}\n`);
  console.error(
    `[cross-data] ${claims.length} train claims, ${lines.length} instances -> ${args.out}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
