// The evidence gate and the rationale picker with their shipped files: the picker prefers the
// finding at the end of an abstract over the opening sentence with the same words; the judge
// (real stance model on the real USE-lite runtime) turns a labelled source NEUTRAL exactly when
// its gate probability is under the threshold, and the search context moves that probability.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { loadUseLite } from '../embed/use-lite';
import { createEvidenceJudge, type StanceEmbed } from './evidence';
import {
  evidenceGateFor,
  GATE_FEATURES,
  gateFeatures,
  gateProbability,
  type EvidenceGate,
} from './evidence-gate';
import pick from '../fitted/sentence-pick.json';
import { PICK_FEATURES, rankSentences, topSentences } from './sentence-rank';
import { splitSentences } from './sentences';
import { createStanceModel, type FittedStanceModel } from './stance-model';

const fitted = JSON.parse(
  readFileSync(new URL('../fitted/stance-use-lite.json', import.meta.url), 'utf8'),
) as FittedStanceModel;

const ABSTRACT =
  'Vitamin D supplementation has been proposed to lower the risk of hip fracture in older women. ' +
  'Few trials have measured it over long periods. ' +
  'We enrolled 2,400 women aged 70 years or more in a randomised trial lasting five years. ' +
  'Participants received vitamin D or placebo every month. ' +
  'Vitamin D supplementation lowered the risk of hip fracture by 18% in older women.';
const CLAIM = 'Vitamin D supplementation lowers the risk of hip fracture in older women.';

let embed: StanceEmbed;
beforeAll(async () => {
  const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  embed = {
    claims: async (t) => t.map((x) => model.embedInt16(x)),
    sentences: async (t) => t.map((x) => model.embedInt16(x)),
  };
});

describe('rationale picker', () => {
  it('ships a train-fitted model over its features', () => {
    expect(pick.features).toEqual([...PICK_FEATURES]);
    expect(pick.fittedOn).toMatch(/claims_train/);
  });

  it('prefers the finding at the end over the opening sentence with the same words', () => {
    const sents = splitSentences(ABSTRACT);
    const texts = sents.map((s) => s.text);
    // BM25 alone cannot tell them apart: the opening sentence shares as many claim words.
    expect(topSentences(CLAIM, texts, 1)).toEqual([0]);
    expect(rankSentences(CLAIM, sents, 1, pick)).toEqual([sents.length - 1]);
    expect(rankSentences(CLAIM, sents, 10, pick)).toHaveLength(sents.length);
  });
});

describe('evidence gate', () => {
  it('ships a MiniLM gate over its features, fitted on train', () => {
    const gate = evidenceGateFor('all-MiniLM-L6-v2')!;
    for (const f of gate.features) expect(GATE_FEATURES).toContain(f);
    expect(gate.fittedOn).toMatch(/claims_train/);
    expect(gate.threshold).toBeGreaterThan(0);
    expect(evidenceGateFor('use-lite')!.fittedOn).toMatch(/claims_train/);
    expect(evidenceGateFor('no-such-model')).toBeNull();
  });

  it.each(['all-MiniLM-L6-v2', 'use-lite'])(
    'was fitted over the shipped %s stance model (refit the gate after refitting it)',
    (id) => {
      const stance = JSON.parse(
        readFileSync(new URL(`../fitted/stance-${id}.json`, import.meta.url), 'utf8'),
      ) as FittedStanceModel;
      expect(evidenceGateFor(id)!.stanceProvenance).toEqual(stance.provenance);
      // ... through fold models that did not see each train claim (stance-fit.ts --folds): the
      // shipped model's own train stances are in-sample and the gate would trust its margin too much.
      expect(evidenceGateFor(id)!.stanceFit).toBe('out-of-fold');
    },
  );

  it.each(['all-MiniLM-L6-v2', 'use-lite'])(
    "reads the shipped answer evaluator's passage scores for %s (refit the gate after it)",
    (id) => {
      const gate = evidenceGateFor(id)!;
      if (!gate.features.includes('passageScore')) return;
      const evaluator = JSON.parse(
        readFileSync(new URL(`../fitted/evaluator-${id}.json`, import.meta.url), 'utf8'),
      ) as { command: string; date: string };
      expect(gate.passageModel).toBe(`${evaluator.command} (${evaluator.date})`);
      // Fitted on train claims scored by evaluators that did not see them (passage-folds.ts):
      // the shipped evaluator's own train scores are in-sample and the gate would over-trust them.
      expect(gate.passageFit).toBe('out-of-fold');
    },
  );

  it('turns a labelled source NEUTRAL exactly below its threshold; rank moves it', async () => {
    const model = createStanceModel(fitted, fitted.dim);
    const plain = createEvidenceJudge({ model, embed });
    const claim = await plain.claimView(CLAIM);
    const j = await plain.judge(claim, ABSTRACT);
    expect(j.stance).not.toBe('NEUTRAL');
    expect(j.gate).toBeUndefined();
    // A gate that reads only the search rank: first source passes, a late one does not.
    const byRank: EvidenceGate = {
      features: ['rankInv'],
      weights: [4],
      bias: 0,
      mean: [0.5],
      scale: [1],
      threshold: 0.5,
    };
    const gated = createEvidenceJudge({ model, embed, gate: byRank });
    const first = await gated.judge(claim, ABSTRACT, undefined, { rank: 0 });
    const late = await gated.judge(claim, ABSTRACT, undefined, { rank: 5 });
    expect(first.stance).toBe(j.stance);
    expect(first.gate).toBeCloseTo(gateProbability(byRank, { rankInv: 1 }), 10);
    expect(late.stance).toBe('NEUTRAL');
    expect(late.gate!).toBeLessThan(0.5);
    // The sentences stay judged either way (the audit and the UI still show them).
    expect(late.sentences).toEqual(first.sentences);
    // Without a search context the gate reads the feature's training mean.
    expect(gateFeatures(j).rankInv).toBeUndefined();
  });
});
