// The rationale ranker with its shipped fitted file (MiniLM, claims_train): through the real
// refinement of an abstract-shaped passage it prefers the finding near the end over the
// background sentence that opens the abstract with the same words, and the extractive answer built
// on it cites every sentence, stays within its fitted size and is deterministic; a model without a
// ranker file keeps the strip score.
import { describe, expect, it } from 'vitest';
import { extractiveAnswer } from './extractive';
import { isContentsLine } from '../shared/contents-lines';
import { passageFeatures, queryContext } from './features';
import { loadFittedModel } from './fitted';
import { createRetrievalEvaluator } from './evaluator';
import { passage } from './passage.testkit';
import {
  RATIONALE_FEATURES,
  rankRationale,
  rationaleFeatures,
  rationaleModelFor,
} from './rationale-rank';
import { refine } from './refine';
import { contentStems } from './text';
import type { LexicalStats } from './types';

const ABSTRACT =
  'Vitamin D supplementation has been proposed to lower the risk of hip fracture in older women. ' +
  'Few trials have measured it over long periods. ' +
  'We enrolled 2,400 women aged 70 years or more in a randomised trial lasting five years. ' +
  'Participants received vitamin D or placebo every month. ' +
  'Vitamin D supplementation lowered the risk of hip fracture by 18% in older women (95% CI 4-30%).';
const OTHER = 'Simmer the gooseberries with sugar until the jam sets in warm jars. Label each jar.';
const CLAIM = 'Vitamin D supplementation lowers the risk of hip fracture in older women.';
const CORPUS = [ABSTRACT, OTHER];

const stats: LexicalStats = {
  async docFreq(words) {
    const sets = CORPUS.map((t) => new Set(contentStems(t)));
    return {
      total: 50, // as in a library where these words are rare
      df: words.map((w) => {
        const s = contentStems(w)[0] ?? w;
        return sets.filter((set) => set.has(s)).length;
      }),
    };
  },
};

async function refined() {
  const fitted = await loadFittedModel('all-MiniLM-L6-v2');
  const q = await queryContext(CLAIM, stats, null);
  const passages = [passage(1, 1, ABSTRACT, 12), passage(2, 2, OTHER, 0.5)];
  const result = createRetrievalEvaluator(fitted).evaluate(
    passages,
    passageFeatures(q, passages, new Map(), CLAIM),
  );
  const r = refine(
    q,
    passages,
    result.passages.map((p) => p.finalScore),
    fitted,
  );
  return { fitted, r };
}

describe('rationale ranker', () => {
  it('ships a MiniLM model over its features, fitted on train', async () => {
    const model = rationaleModelFor(await loadFittedModel('all-MiniLM-L6-v2'))!;
    expect(model.features).toEqual([...RATIONALE_FEATURES]);
    expect(model.weights).toHaveLength(RATIONALE_FEATURES.length);
    expect(model.fittedOn).toMatch(/ train /);
    expect(model.command).toMatch(/--split train/);
    expect(model.answerMax).toBeGreaterThanOrEqual(1);
    expect(rationaleModelFor({ modelId: 'use-lite' })).toBeNull();
  });

  it('ranks the finding at the end above the background sentence with the same words', async () => {
    const { fitted, r } = await refined();
    const first = r.all.find((s) => s.documentId === 1 && s.start === 0)!;
    const last = r.all.find((s) => s.documentId === 1 && s.text.includes('by 18%'))!;
    expect(first.features.relPos).toBe(0);
    expect(last.features.relEnd).toBeCloseTo(1, 5);
    expect(rationaleFeatures(last).lastQuarter).toBe(1);
    expect(rationaleFeatures(first).firstSentence).toBe(1);
    // The strip model alone sees the same words in both; the ranker adds where they sit.
    const ranked = rankRationale([first, last], rationaleModelFor(fitted)!);
    expect(ranked[0]!.strip).toBe(last);
    expect(ranked[0]!.p).toBeGreaterThan(ranked[1]!.p);
  });

  it('answers with the finding, cites every sentence, is deterministic', async () => {
    const { fitted, r } = await refined();
    const model = rationaleModelFor(fitted)!;
    const a = extractiveAnswer(r.kept, fitted, r.all);
    expect(a.sentences.length).toBeGreaterThanOrEqual(1);
    expect(a.sentences.length).toBeLessThanOrEqual(model.answerMax);
    expect(a.sentences.some((s) => s.text.includes('by 18%'))).toBe(true);
    a.sentences.forEach((s, i) => {
      expect(a.references[i]).toMatchObject({ n: i + 1, stripId: s.strip.id });
      expect(ABSTRACT.slice(s.strip.start, s.strip.end)).toBe(s.text);
    });
    expect(extractiveAnswer(r.kept, fitted, r.all)).toEqual(a);
    // Without a ranker the strip score picks, as before the ranker.
    const plain = extractiveAnswer(r.kept, fitted, r.all, null);
    expect(plain.sentences.length).toBeLessThanOrEqual(fitted.strip.answerMax);
  });

  it('never answers with a contents line, with the ranker or without', async () => {
    const { fitted, r } = await refined();
    const best = [...r.kept].sort((a, b) => b.score - a.score)[0]!;
    // The best strip, as a contents page would write it: a topic, dot leaders, a page number.
    const contents = {
      ...best,
      id: `${best.id}-toc`,
      text: `${best.text} . . . . . . . 12`,
      score: best.score + 1,
    };
    for (const ranker of [rationaleModelFor(fitted), null]) {
      const a = extractiveAnswer([contents, ...r.kept], fitted, [contents, ...r.all], ranker);
      expect(a.sentences.length).toBeGreaterThanOrEqual(1);
      expect(a.sentences.some((s) => s.strip.id === contents.id)).toBe(false);
    }
    expect(isContentsLine('3.4 Indexing . . . . . . 12')).toBe(true);
    expect(isContentsLine('Dots... in prose stay prose.')).toBe(false);
  });
});
