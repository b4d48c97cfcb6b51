// The fitted sentence checker (checker-model.ts, fitted on SciFact train claim pairs; its
// features include the stance model's claim/sentence cues from workers/projects): the model
// lookup, the features' ranges, and that the MiniLM fit separates a supporting sentence from a
// same-topic sentence lacking the claim's rarest terms, with bag-of-words vectors standing in for
// the encoder (the features are what is under test, not the encoder); the cosine gate; the cited
// strips' document context (title and window: credited near the strip, not beyond); and, on the
// real MiniLM weights (skipped without them), support, topic and off-topic citations, and a
// sentence supported only once its strip comes with its abstract's context.
import { QUOTED_REASON } from '../shared/answer-api';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, loadBertFolder, MINILM_DIR } from '../embed/node-kernel';
import { haveRealWeights } from '../embed/real-weights.testkit';
import { bowVector } from '../query-plan/doubles.testkit';
import {
  CHECKER_FEATURES,
  CONTEXT_FEATURES,
  createSentenceChecker,
  supportLabelFor,
} from './checker';
import { checkerModelFor, type CheckerModel } from './checker-model';
import { loadFittedModel } from './fitted';
import { contextText, stripContext } from './strip-context';
import { corpusStats } from './passage.testkit';

const CORPUS = [
  'Vitamin D supplementation reduced fracture risk in elderly women over five years.',
  'Calcium intake was measured in elderly women and men across five countries.',
  'Statins lowered cholesterol in middle-aged men with diabetes.',
  'The trial of vitamin C found no change in cold duration among students.',
];
const stats = corpusStats(CORPUS);

describe('checker model', () => {
  it('uses the checker file fitted for each model and falls back to the evaluator fit elsewhere', async () => {
    const mini = checkerModelFor(await loadFittedModel('all-MiniLM-L6-v2'));
    expect(mini.features.slice(0, CHECKER_FEATURES.length)).toEqual([...CHECKER_FEATURES]);
    expect(mini.features.filter((f) => f.startsWith('st_')).length).toBeGreaterThan(0);
    // the MiniLM fit reads the cited strips' document context
    expect(mini.features).toEqual(expect.arrayContaining([...CONTEXT_FEATURES]));
    expect(mini.fittedOn).toMatch(/train/);
    expect(mini.supported).toBeGreaterThan(0);
    expect(mini.unsupported).toBeLessThanOrEqual(mini.supported);
    const use = await loadFittedModel('use-lite');
    expect(checkerModelFor(use).modelId).toBe('use-lite');
    expect(checkerModelFor(use).features).toEqual(expect.arrayContaining([...CONTEXT_FEATURES]));
    // a model with no checker file of its own keeps its evaluator fit's checker entry
    const other = { ...use, modelId: 'some-other-model' };
    expect(checkerModelFor(other)).toBe(other.checker);
  });

  it("labels a score by the model's own thresholds, as the checker does", async () => {
    const fitted = await loadFittedModel('all-MiniLM-L6-v2');
    const { supported, unsupported } = checkerModelFor(fitted);
    const label = supportLabelFor(fitted);
    const checker = createSentenceChecker({ stats, embed: async (t) => t.map(bowVector) }, fitted);
    for (const score of [supported, (supported + unsupported) / 2, unsupported - 1e-6, 0, 1])
      expect(label(score)).toBe(checker.label(score));
    expect(label(supported)).toBe('supported');
    expect(label(unsupported - 1e-6)).toBe('unsupported');
  });
});

describe('fitted checker', async () => {
  const checker = createSentenceChecker(
    { stats, embed: async (texts) => texts.map(bowVector) },
    await loadFittedModel('all-MiniLM-L6-v2'),
  );
  const claim = 'Vitamin D supplementation reduces fracture risk in elderly women.';

  it('computes every feature, shares within [0, 1]', async () => {
    const [f] = await checker.features([{ sentence: claim, evidence: CORPUS.slice(0, 2) }]);
    for (const name of CHECKER_FEATURES) expect(Number.isFinite(f![name])).toBe(true);
    for (const name of [
      'covW',
      'covP',
      'covBest',
      'covPBest',
      'pairsBest',
      'missMax',
      'precBest',
    ]) {
      expect(f![name]).toBeGreaterThanOrEqual(0);
      expect(f![name]).toBeLessThanOrEqual(1);
    }
  });

  it('scores supporting evidence above same-topic evidence without the rare terms', async () => {
    const [right, hard, random, copied] = await checker.check([
      { sentence: claim, evidence: [CORPUS[0]!] },
      { sentence: claim, evidence: [CORPUS[1]!] },
      { sentence: claim, evidence: [CORPUS[2]!] },
      { sentence: CORPUS[0]!, evidence: [CORPUS[0]!] },
    ]);
    expect(right!.score).toBeGreaterThan(hard!.score);
    expect(right!.score).toBeGreaterThan(random!.score);
    expect(random!.label).toBe('unsupported');
    expect(copied!.label).toBe('supported');
  });

  it('flags a sentence whose nearest cited strip falls below a cosine gate', async () => {
    const fitted = await loadFittedModel('all-MiniLM-L6-v2');
    // the fit may choose no gate (the context fit does); when it does, it is a cosine
    const gate = checkerModelFor(fitted).gate;
    if (gate !== undefined) expect(Math.abs(gate)).toBeLessThan(1);
    // the same pair under the fitted model without its gate, and with a gate above its cosine
    const withGate = (g?: number): CheckerModel => {
      const m: CheckerModel = { ...checkerModelFor(fitted) };
      delete m.gate;
      if (g !== undefined) m.gate = g;
      return m;
    };
    const pair = { sentence: claim, evidence: [CORPUS[1]!] };
    const [f] = await checker.features([pair]);
    const ungated = createSentenceChecker(
      { stats, embed: async (texts) => texts.map(bowVector) },
      { ...fitted, modelId: 'gate-test', checker: withGate() },
    );
    const gated = createSentenceChecker(
      { stats, embed: async (texts) => texts.map(bowVector) },
      { ...fitted, modelId: 'gate-test', checker: withGate(f!.cos! + 0.01) },
    );
    const [open] = await ungated.check([pair]);
    const [shut] = await gated.check([pair]);
    expect(open!.score).toBeGreaterThan(0);
    expect(shut!.score).toBe(0);
    expect(shut!.label).toBe('unsupported');
    expect(shut!.reason).toMatch(/off topic/);
    // a verbatim copy is supported by construction, gate or not
    const [copied] = await gated.check([{ sentence: CORPUS[1]!, evidence: [CORPUS[1]!] }]);
    expect(copied!.label).toBe('supported');
    // ... and says what it checked: the quote, not that it answers.
    expect(copied!.reason).toBe(QUOTED_REASON);
  });
});

describe('document context of the cited strips', async () => {
  const fitted = await loadFittedModel('all-MiniLM-L6-v2');
  const embedded: string[] = [];
  const checkerWith = (contextCosine: boolean) =>
    createSentenceChecker(
      {
        stats,
        embed: async (texts) => {
          embedded.push(...texts);
          return texts.map(bowVector);
        },
        contextCosine,
      },
      fitted,
    );
  // the abstract's neighbouring sentence holds what the cited strip leaves implicit
  const doc =
    'Vitamin D supplementation was given to elderly women for five years. ' +
    'Fracture risk was reduced by a third in the treated group. ' +
    Array.from({ length: 60 }, (_, i) => `filler${i}`).join(' ') +
    ' Statins lowered cholesterol in middle-aged men with diabetes.';
  const stripAt = (text: string) => {
    const start = doc.indexOf(text);
    return { text, span: { start, end: start + text.length } };
  };
  const strip = stripAt('Fracture risk was reduced by a third in the treated group.');
  const sentence = 'Vitamin D supplementation reduces fracture risk in elderly women.';

  it('equals the strip-only features without a context', async () => {
    const [f] = await checkerWith(false).features([{ sentence, evidence: [strip.text] }]);
    expect(f!.ctxCov).toBe(f!.covBest);
    expect(f!.ctxCovP).toBe(f!.covPBest);
    expect(f!.ctxTitleCov).toBe(f!.covBest);
    expect(f!.ctxCos).toBe(f!.cos);
    for (const name of CONTEXT_FEATURES) expect(Number.isFinite(f![name])).toBe(true);
  });

  it('credits words of the title and the nearby text, not of text beyond the window', async () => {
    const context = [stripContext('Fractures in elderly women', doc, strip.span)];
    const [plain, near] = await checkerWith(false).features([
      { sentence, evidence: [strip.text] },
      { sentence, evidence: [strip.text], context },
    ]);
    expect(near!.ctxTitleCov).toBeGreaterThan(plain!.ctxTitleCov!);
    expect(near!.ctxCov).toBeGreaterThan(near!.ctxTitleCov!);
    expect(near!.ctxCov).toBe(1);
    expect(near!.ctxMissRare).toBeLessThan(plain!.ctxMissRare!);
    // the strip features are the strip's alone: the context never enters them
    expect(near!.covBest).toBe(plain!.covBest);
    // a strip whose supporting sentence lies beyond the window gets nothing from it
    const far = stripAt('Statins lowered cholesterol in middle-aged men with diabetes.');
    const [f] = await checkerWith(false).features([
      { sentence, evidence: [far.text], context: [stripContext('', doc, far.span)] },
    ]);
    expect(f!.ctxCov).toBe(f!.covBest);
  });

  it('embeds the context windows only for the context cosine', async () => {
    const context = [stripContext('Fractures in elderly women', doc, strip.span)];
    const whole = contextText(strip.text, context[0]!);
    embedded.length = 0;
    const [off] = await checkerWith(false).features([
      { sentence, evidence: [strip.text], context },
    ]);
    expect(embedded).not.toContain(whole);
    expect(off!.ctxCos).toBe(off!.cos);
    embedded.length = 0;
    const [on] = await checkerWith(true).features([{ sentence, evidence: [strip.text], context }]);
    expect(embedded).toContain(whole);
    expect(on!.ctxCos).toBeGreaterThan(on!.cos!);
  });
});

describe('fitted checker on the real MiniLM vectors', () => {
  const hasModel = haveRealWeights();
  const realChecker = async () => {
    const bert = loadBertFolder(await createNodeKernel(), MINILM_DIR);
    return createSentenceChecker(
      {
        stats,
        embed: async (texts) => texts.map((t) => bert.embedInt16(bert.passagePrefix + t)),
      },
      await loadFittedModel('all-MiniLM-L6-v2'),
    );
  };

  it.skipIf(!hasModel)(
    'supports a paraphrase, flags an off-topic citation, ranks a same-topic strip lower',
    async () => {
      const checker = await realChecker();
      const sentence = 'Vitamin D supplementation lowered fracture risk in elderly women.';
      const [right, topic, off] = await checker.check([
        { sentence, evidence: [CORPUS[0]!] },
        { sentence, evidence: [CORPUS[1]!] },
        {
          sentence,
          evidence: ['The bridge was opened in 1932 and its steel arch spans 503 metres.'],
        },
      ]);
      expect(right!.label).toBe('supported');
      expect(topic!.score).toBeLessThan(right!.score);
      expect(topic!.label).not.toBe('supported');
      expect(off!.label).toBe('unsupported');
    },
  );

  it.skipIf(!hasModel)(
    "supports a sentence that leans on its strip's abstract only with that context",
    async () => {
      const checker = await realChecker();
      // SciFact's rationale sentences often say "the animals", "group 3": the strip shares no
      // content word with the claim, its title and neighbouring sentence say what it is about
      const doc =
        'Macaques were vaccinated with an SIV vaccine in three groups. ' +
        'All six animals in group 3 were protected. The two other groups received a placebo ' +
        'or half the dose, and most of their animals were infected within ten weeks.';
      const strip = 'All six animals in group 3 were protected.';
      const start = doc.indexOf(strip);
      const context = [
        stripContext('SIV vaccine efficacy in macaques', doc, {
          start,
          end: start + strip.length,
        }),
      ];
      const sentence = 'The SIV vaccine protected macaques from infection.';
      const offDoc =
        'The bridge was opened in 1932. Its steel arch spans 503 metres over the river. ' +
        'Ferries stopped running the same year.';
      const off = 'Its steel arch spans 503 metres over the river.';
      const o = offDoc.indexOf(off);
      const [bare, withContext, offTopic] = await checker.check([
        { sentence, evidence: [strip] },
        { sentence, evidence: [strip], context },
        {
          sentence,
          evidence: [off],
          context: [stripContext('Harbour bridge', offDoc, { start: o, end: o + off.length })],
        },
      ]);
      expect(bare!.label).toBe('unsupported');
      expect(withContext!.label).toBe('supported');
      expect(withContext!.components.ctxCov).toBeGreaterThan(bare!.components.ctxCov!);
      expect(offTopic!.label).toBe('unsupported');
    },
  );
});
