// The LLM-free answer core on hand-built passages (no worker, no model): the evaluator ranks a
// relevant passage above an off-topic one and decides per query; refinement cuts strips with
// exact offsets, splits long sentences and keeps source order; the extractive answer cites every
// sentence and is deterministic; the checker labels uncited, copied and unrelated sentences.
import { describe, expect, it } from 'vitest';
import { bowVector } from '../query-plan/doubles.testkit';
import { createSentenceChecker } from './checker';
import { createRetrievalEvaluator, variantFor } from './evaluator';
import { extractiveAnswer } from './extractive';
import { LEXICAL_FEATURES, passageFeatures, queryContext, VECTORS_FLAG } from './features';
import { blendScores, loadFittedModel, logisticScore } from './fitted';
import type { Passage } from './passages';
import { passage } from './passage.testkit';
import { refine } from './refine';
import { contentStems, strips } from './text';
import type { LexicalStats } from './types';

const PELICANS =
  'The coastal pelican colony nests on the cliffs above the harbour. Pelicans feed on fish at dawn. ' +
  'The harbour master counts the pelican nests every spring, and the count has risen for a decade ' +
  'because the fishing fleet now discards less of its catch near the cliffs where the birds nest.';
const JAM = 'Simmer the gooseberries with sugar until the jam sets in warm jars. Label each jar.';
const MARS = 'The rover drilled into the red planet rock and sent mineral readings home.';
const CORPUS = [PELICANS, JAM, MARS];
const QUESTION = 'Where does the coastal pelican colony nest?';
const fitted = await loadFittedModel('use-lite');

const stats: LexicalStats = {
  async docFreq(words) {
    const sets = CORPUS.map((t) => new Set(contentStems(t)));
    return {
      total: CORPUS.length,
      df: words.map((w) => {
        const s = contentStems(w)[0] ?? w;
        return sets.filter((set) => set.has(s)).length;
      }),
    };
  },
};

async function evaluated(question: string, passages: Passage[]) {
  const q = await queryContext(question, stats, null);
  const features = passageFeatures(q, passages, new Map());
  return { q, result: createRetrievalEvaluator(fitted).evaluate(passages, features) };
}

/** The passages evaluated for `question`, then refined into strips by their final scores. */
async function refined(question: string, passages: Passage[]) {
  const { q, result } = await evaluated(question, passages);
  return refine(
    q,
    passages,
    result.passages.map((p) => p.finalScore),
    fitted,
  );
}

describe('retrieval evaluator', () => {
  it('scores the passage that addresses the question above an off-topic one', async () => {
    // Off-topic first, as a noisy fusion could rank it; the signals a real retrieval gives
    // (BM25 of the matching words, cosines of a sentence encoder) favour the pelican passage.
    const { result } = await evaluated(QUESTION, [
      passage(2, 1, JAM, 0.5, 0.55),
      passage(1, 2, PELICANS, 6, 0.75),
    ]);
    const [jam, pel] = result.passages;
    expect(pel!.score).toBeGreaterThan(jam!.score);
    expect(['CORRECT', 'AMBIGUOUS', 'INCORRECT']).toContain(result.decision);
  });

  it('decides by the fitted thresholds: above upper CORRECT, below lower INCORRECT', () => {
    const ev = createRetrievalEvaluator(fitted);
    const { upper, lower } = fitted.thresholds;
    expect(ev.decide([Math.min(1, upper + 0.01)]).decision).toBe('CORRECT');
    expect(ev.decide([Math.max(0, lower - 0.01)]).decision).toBe('INCORRECT');
    expect(ev.decide([(upper + lower) / 2]).decision).toBe('AMBIGUOUS');
    expect(ev.decide([]).decision).toBe(lower > 0 ? 'INCORRECT' : 'AMBIGUOUS');
  });

  it("measures how a single sentence addresses the question's terms and numbers", async () => {
    const q = await queryContext('Do pelicans nest in 2019 on the coast?', stats, null);
    const [pel, jam] = passageFeatures(
      q,
      [passage(1, 1, PELICANS, 6, 0.75), passage(2, 2, JAM, 0.5, 0.55)],
      new Map(),
      'Do pelicans nest in 2019 on the coast?',
    );
    expect(pel!.sentCovW).toBeGreaterThan(0.25); // pelican and nest, not coast or 2019
    expect(jam!.sentCovW).toBe(0);
    expect(pel!.sentCovW).toBeLessThanOrEqual(pel!.covW! + 1e-9);
    expect(jam!.numHit).toBe(0); // 2019 is in neither text
    expect(pel!.covGap).toBe(0); // the best covering passage
    expect(jam!.covGap).toBeLessThan(0);
    expect(pel!.bothLists).toBe(1);
  });

  it("weighs the question's terms by how few of the other passages hold them", async () => {
    const question = 'Do coastal pelican colonies nest near the harbour cliffs?';
    const ON_TOPIC = 'Pelican colonies are large. A pelican colony is loud.';
    const ON_TOPIC2 = 'The pelican colony moved. Colonies of pelicans fish together.';
    const passages = [
      passage(1, 1, ON_TOPIC, 3),
      passage(2, 2, PELICANS, 3),
      passage(3, 3, ON_TOPIC2, 3),
    ];
    const q = await queryContext(question, stats, null);
    const [a, pel, b] = passageFeatures(q, passages, new Map(), question);
    // every passage holds pelican and colony (the topic); only PELICANS the harbour and cliffs
    expect(pel!.onlyW).toBeGreaterThan(0.3);
    expect(a!.onlyW).toBe(0);
    expect(pel!.specCov).toBe(1);
    expect(a!.specCov).toBe(0);
    expect(a!.topicShare).toBe(pel!.topicShare);
    expect(a!.topicShare).toBeGreaterThan(0);
    expect(pel!.locCovW).toBeGreaterThan(a!.locCovW! + 0.3);
    expect(a!.locCovW).toBeCloseTo(b!.locCovW!, 9);
    // its best sentence covers more of the question than any other passage's
    expect(pel!.sentGapOther).toBeGreaterThan(0);
    expect(a!.sentGapOther).toBeCloseTo(-pel!.sentGapOther!, 9);
  });

  it('places each passage among the others by its chunk vectors (none without a query vector)', async () => {
    const question = 'Where does the coastal pelican colony nest?';
    const JAM2 = 'Simmer the gooseberries with sugar until the jam sets in jars.';
    const passages = [passage(1, 1, JAM, 2, 0.3), passage(2, 2, JAM2, 2, 0.3)];
    passages.push(passage(3, 3, PELICANS, 1, 0.6));
    const vectors = new Map(passages.map((p) => [p.chunkIds[0]!, bowVector(p.text)]));
    const q = await queryContext(question, stats, bowVector(question));
    const [jam, jam2, pel] = passageFeatures(q, passages, vectors, question);
    // the two jam passages are near-duplicates of each other; the pelican passage stands apart
    expect(jam2!.simToTop).toBeGreaterThan(0.8);
    expect(jam!.simToTop).toBe(1);
    expect(jam!.simMaxOther).toBeCloseTo(jam2!.simToTop!, 9);
    expect(pel!.simMaxOther).toBeLessThan(jam!.simMaxOther! - 0.3);
    expect(pel!.simMeanOther).toBeLessThanOrEqual(pel!.simMaxOther! + 1e-12);
    // one chunk each: its cosine to the question is also the second best and the mean
    expect(pel!.cos2nd).toBeCloseTo(pel!.cosMeanChunks!, 12);
    expect(pel!.cos2nd).toBeGreaterThan(jam!.cos2nd!);
    const noVector = passageFeatures(await queryContext(question, stats, null), passages, vectors);
    for (const f of noVector)
      for (const k of ['simMaxOther', 'simMeanOther', 'simToTop', 'cos2nd', 'cosMeanChunks'])
        expect(f[k]).toBe(0);
    expect([jam, jam2, pel].map((f) => f![VECTORS_FLAG])).toEqual([1, 1, 1]);
    expect(noVector.map((f) => f[VECTORS_FLAG])).toEqual([0, 0, 0]);
  });

  it('scores a retrieval without vectors by the vector-free variant, fitted without vector features', async () => {
    for (const model of ['use-lite', 'all-MiniLM-L6-v2']) {
      const fit = await loadFittedModel(model);
      const nv = fit.noVectors!;
      expect(nv, model).toBeDefined();
      for (const m of [nv.passage, ...(nv.query ? [nv.query] : [])])
        for (const f of m.features) expect(LEXICAL_FEATURES as readonly string[]).toContain(f);
      const question = 'Where does the coastal pelican colony nest?';
      const passages = [passage(1, 1, PELICANS, 6, 0.75), passage(2, 2, JAM, 0.5, 0.55)];
      const lexical = passageFeatures(
        await queryContext(question, stats, null),
        passages,
        new Map(),
      );
      expect(variantFor(fit, lexical)).toBe(nv);
      const vectors = new Map(passages.map((p) => [p.chunkIds[0]!, bowVector(p.text)]));
      const q = await queryContext(question, stats, bowVector(question));
      expect(variantFor(fit, passageFeatures(q, passages, vectors, question))).toBe(fit);
      // the decision reads the variant's thresholds
      const r = createRetrievalEvaluator(fit).evaluate(passages, lexical);
      expect(r.thresholds).toEqual(nv.thresholds);
    }
  });

  it("blends the query model's logit into the passage score by the fit's passageBlend", async () => {
    const fit = await loadFittedModel('all-MiniLM-L6-v2');
    const question = 'Where does the coastal pelican colony nest?';
    const passages = [passage(1, 1, PELICANS, 6, 0.75), passage(2, 2, JAM, 0.5, 0.55)];
    const vectors = new Map(passages.map((p) => [p.chunkIds[0]!, bowVector(p.text)]));
    const q = await queryContext(question, stats, bowVector(question));
    const features = passageFeatures(q, passages, vectors, question);
    const alone = { ...fit, passageBlend: 0 };
    const p = createRetrievalEvaluator(alone).scorePassages(features);
    const qs = createRetrievalEvaluator(alone).queryScores(features);
    expect(p).toEqual(features.map((f) => logisticScore(fit.passage, f)));
    for (const w of [0.25, 0.5, 1]) {
      const blended = createRetrievalEvaluator({ ...fit, passageBlend: w }).scorePassages(features);
      blended.forEach((s, i) => expect(s).toBeCloseTo(blendScores(p[i]!, qs[i]!, w), 12));
    }
    // without a query model the passage model scores alone, whatever the weight
    const { query: _q, ...noQuery } = fit;
    expect(
      createRetrievalEvaluator({ ...noQuery, passageBlend: 0.5 }).scorePassages(features),
    ).toEqual(p);
    // the query decision never reads the blend
    expect(createRetrievalEvaluator({ ...fit, passageBlend: 1 }).queryScores(features)).toEqual(qs);
  });

  it('holds a CORRECT whose deciding passage agrees in neither meaning nor words at AMBIGUOUS', () => {
    const t = { ...fitted.thresholds, correctMinCos: 0.4, correctMinCovW: 0.3 };
    const floored = { ...fitted, thresholds: t };
    const ev = createRetrievalEvaluator(floored);
    const high = Math.min(1, fitted.thresholds.upper + 0.01);
    // the deciding passage is the best of the top N, wherever it stands among them
    const scores = [0.01, high];
    const second = (cos: number, covW: number) => [
      { cos: 0.9, covW: 0.9 },
      { cos, covW },
    ];
    expect(ev.decide(scores, floored, second(0.39, 0.29)).decision).toBe('AMBIGUOUS');
    expect(ev.decide(scores, floored, second(0.4, 0)).decision).toBe('CORRECT'); // meaning
    expect(ev.decide(scores, floored, second(0.1, 0.3)).decision).toBe('CORRECT'); // words
    expect(ev.decide(scores, floored).decision).toBe('CORRECT'); // no features: no guard
    expect(ev.decide([0.01], floored, [{ cos: 0, covW: 0 }]).decision).not.toBe('CORRECT');
  });

  it('ships both floors fitted on train for the vector models, none without vectors', async () => {
    for (const id of ['use-lite', 'all-MiniLM-L6-v2']) {
      const fit = await loadFittedModel(id);
      for (const floor of [fit.thresholds.correctMinCos, fit.thresholds.correctMinCovW]) {
        expect(floor).toBeGreaterThan(0);
        expect(floor).toBeLessThan(1);
      }
      expect(fit.noVectors?.thresholds.correctMinCos).toBeUndefined();
      expect(fit.noVectors?.thresholds.correctMinCovW).toBeUndefined();
    }
  });

  it('answers a plain question over a tiny library CORRECT when its words are in the passage', async () => {
    const question = 'Who tuned each xylophone bar by ear?';
    const xylophone =
      'The workshop met on a rainy Tuesday. Everyone brought a jar of marmalade for the break, ' +
      'and the instructor tuned each xylophone bar by ear before lunch.';
    const passages = [passage(5, 1, xylophone, 6, 0.3), passage(2, 2, JAM, 0.0001, 0.2)];
    const vectors = new Map(passages.map((p) => [p.chunkIds[0]!, bowVector(p.text)]));
    const q = await queryContext(question, stats, bowVector(question));
    const features = passageFeatures(q, passages, vectors, question);
    const result = createRetrievalEvaluator(fitted).evaluate(passages, features);
    expect(result.decision).toBe('CORRECT');
  });

  it('judges a tiny library whose only keyword hit is one shared verb not CORRECT', async () => {
    // A handful of documents: the one passage holding "say" is first in both lists, as the
    // answer to any question would be, while its meaning is far from the question's. Rank and
    // keyword features alone call this CORRECT (query score about 0.9 without the floor).
    const narwhal =
      'Every spring the narwhal pods return to the fjord below the basalt cliffs, and the ' +
      'villagers count them from the headland. Satellite tags show that the animals dive more ' +
      'than a kilometre in search of halibut. Local fishermen say the narwhal arrive a week ' +
      'earlier than they did a generation ago.';
    const question = 'What does quantum chromodynamics say about gluon confinement?';
    const passages = [
      passage(4, 1, narwhal, 4, 0.19),
      passage(2, 2, JAM, 0.0001, 0.12),
      passage(3, 3, MARS, 0.0001, 0.1),
    ];
    const vectors = new Map(passages.map((p) => [p.chunkIds[0]!, bowVector(p.text)]));
    const q = await queryContext(question, stats, bowVector(question));
    const features = passageFeatures(q, passages, vectors, question);
    const result = createRetrievalEvaluator(fitted).evaluate(passages, features);
    expect(result.queryScore).toBeGreaterThanOrEqual(fitted.thresholds.upper);
    expect(result.decision).toBe('AMBIGUOUS');
  });

  it('judges an off-topic retrieval not CORRECT', async () => {
    const { result } = await evaluated('What is the boiling point of liquid nitrogen?', [
      passage(2, 1, JAM, 1),
      passage(3, 2, MARS, 1),
    ]);
    expect(result.decision).not.toBe('CORRECT');
  });
});

describe('knowledge refinement', () => {
  it('cuts strips at exact offsets, splits long sentences, keeps source order', async () => {
    const r = await refined(QUESTION, [passage(1, 1, PELICANS, 5), passage(2, 2, JAM, 1)]);
    const text = new Map([
      [1, PELICANS],
      [2, JAM],
    ]);
    for (const s of r.all) expect(text.get(s.documentId!)!.slice(s.start, s.end)).toBe(s.text);
    // The third sentence has over 25 words: it comes out in clause pieces.
    const longStart = PELICANS.indexOf('The harbour master');
    expect(r.all.filter((s) => s.documentId === 1 && s.start >= longStart).length).toBeGreaterThan(
      1,
    );
    expect(strips(PELICANS).every((s) => s.text.split(/\s+/).length <= 40)).toBe(true);
    expect(r.kept.length).toBeGreaterThan(0);
    expect(r.kept.some((s) => s.text.includes('coastal pelican colony nests'))).toBe(true);
    const order = r.kept.map((s) => [s.passageRank, s.start] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(order).toEqual(sorted);
    expect(r.keptTokens).toBeLessThanOrEqual(r.retrievedTokens);
  });
});

describe('extractive answer', () => {
  it('cites a strip for every sentence and gives the same answer twice', async () => {
    const run = async () => {
      const r = await refined(QUESTION, [passage(1, 1, PELICANS, 5), passage(2, 2, JAM, 1)]);
      return extractiveAnswer(r.kept, fitted, r.all);
    };
    const a = await run();
    expect(a.sentences.length).toBeGreaterThan(0);
    a.sentences.forEach((s, i) => {
      expect(a.references[i]!.stripId).toBe(s.strip.id);
      expect(a.references[i]!.n).toBe(i + 1);
      expect(PELICANS.concat(JAM)).toContain(s.text);
    });
    expect(await run()).toEqual(a);
  });
});

describe('sentence checker', () => {
  const checker = createSentenceChecker(
    { stats, embed: async (texts) => texts.map(bowVector) },
    fitted,
  );
  it('labels uncited unsupported, copied supported, unrelated-cited not supported', async () => {
    const copied = 'The coastal pelican colony nests on the cliffs above the harbour.';
    const [none, same, unrelated] = await checker.check([
      { sentence: copied, evidence: [] },
      { sentence: copied, evidence: [copied] },
      { sentence: copied, evidence: [MARS] },
    ]);
    expect(none!.label).toBe('unsupported');
    expect(same!.label).toBe('supported');
    expect(unrelated!.label).not.toBe('supported');
  });
});
