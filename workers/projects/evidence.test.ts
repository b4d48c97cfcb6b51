// The shipped stance model on the real USE-lite runtime: deterministic, on-topic evidence beats
// off-topic text, and the citation audit's three outcomes.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { loadUseLite } from '../embed/use-lite';
import { auditCitation, auditScore } from './audit';
import { createEvidenceJudge, type EvidenceJudge, type StanceEmbed } from './evidence';
import { createStanceModel, type FittedStanceModel } from './stance-model';

const fitted = JSON.parse(
  readFileSync(new URL('../fitted/stance-use-lite.json', import.meta.url), 'utf8'),
) as FittedStanceModel;

let judge: EvidenceJudge;
let embedCalls = 0;

beforeAll(async () => {
  const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  const embed: StanceEmbed = {
    claims: async (t) => t.map((x) => model.embedInt16(x)),
    sentences: async (t) => {
      embedCalls += t.length;
      return t.map((x) => model.embedInt16(x));
    },
  };
  judge = createEvidenceJudge({ model: createStanceModel(fitted, model.dim), embed });
});

const SOURCE =
  'We studied 2,000 adults for ten years. Vitamin D supplementation reduced the risk of hip fracture by 30%. ' +
  'The weather during the trial was mild. Participants were recruited in Oslo.';
const OFF_TOPIC =
  'The bridge was opened in 1932. Its steel arch spans 503 metres. Tourists climb it every day.';

describe('stance model and evidence judge', () => {
  it('was fitted on train claims only and matches the runtime features', () => {
    expect(String(fitted.provenance.fittedOn)).toMatch(/claims_train/);
    expect(() => createStanceModel(fitted, fitted.dim + 1)).toThrow(/fitted for the active/);
    expect(() => createStanceModel({ ...fitted, features: 'old' }, fitted.dim)).toThrow(/refit/);
  });

  it('judges the same claim and source identically every time', async () => {
    const claim = await judge.claimView('Vitamin D lowers the risk of hip fracture.');
    const a = await judge.judge(claim, SOURCE);
    const b = await judge.judge(claim, SOURCE);
    expect(a).toEqual(b);
    for (const s of a.sentences) expect(SOURCE.slice(s.start, s.end)).toBe(s.text);
  });

  it('scores an on-topic source above an off-topic one and judges at most 4 sentences', async () => {
    const claim = await judge.claimView('Vitamin D lowers the risk of hip fracture.');
    const on = await judge.judge(claim, SOURCE);
    const off = await judge.judge(claim, OFF_TOPIC);
    expect(on.supportScore).toBeGreaterThan(off.supportScore);
    const best = [...on.sentences].sort((x, y) => x.probs[2] - y.probs[2])[0]!;
    expect(best.text).toMatch(/Vitamin D supplementation/);
    const before = embedCalls;
    await judge.judge(claim, `${SOURCE} ${SOURCE} ${OFF_TOPIC}`);
    expect(embedCalls - before).toBeLessThanOrEqual(4);
  });

  it('audits a citation: not indexed, and an off-topic source never passes', async () => {
    const claim = await judge.claimView('Vitamin D lowers the risk of hip fracture.');
    expect(await auditCitation(judge, claim, null)).toEqual({ status: 'SOURCE_NOT_INDEXED' });
    const wrong = await auditCitation(judge, claim, { text: OFF_TOPIC });
    expect(wrong.status).toBe('REVIEW');
    const right = await auditCitation(judge, claim, { text: SOURCE });
    expect(right.supportScore!).toBeGreaterThan(wrong.supportScore!);
    expect(right.passage?.text).toMatch(/Vitamin D/);
    expect(await auditCitation(judge, claim, { text: '' })).toMatchObject({
      status: 'REVIEW',
      supportScore: 0,
    });
  });

  it("reproduces the fitting script's audit probabilities", () => {
    expect(fitted.audit).toBeDefined();
    expect(fitted.auditCheck?.length).toBe(3);
    for (const { x, p } of fitted.auditCheck!)
      expect(auditScore(fitted.audit!, x)).toBeCloseTo(p, 12);
  });
});
