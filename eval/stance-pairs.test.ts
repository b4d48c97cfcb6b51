// The stance-pairs eval: strict input (a wrong line refused with its number), the aggregation of
// a source's sentences, and a report on the real development bundle.
import { describe, expect, it } from 'vitest';
import { loadPairModelFolder } from '../workers/verifier/node-bundle';
import {
  aggregateSource,
  parseStancePairs,
  sourceSentences,
  stancePairsReport,
} from './stance-pairs';

const j = (support: number, contradict: number, nei: number) => ({
  stance: { support, contradict, nei },
  relevance: 0.5,
  truncated: false,
});

describe('stance-pairs', () => {
  it('refuses other labels and other fields, naming the line', () => {
    const ok = '{"claim":"a","evidence":"b","label":"SUPPORT"}';
    expect(parseStancePairs(`${ok}\n\n${ok}\n`)).toHaveLength(2);
    expect(() => parseStancePairs(`${ok}\n{"claim":"a","evidence":"b","label":"REFUTES"}`)).toThrow(
      /^line 2: label "REFUTES"/,
    );
    expect(() =>
      parseStancePairs(`${ok}\n${ok}\n{"claim":"a","evidence":"b","label":"NEI","x":1}`),
    ).toThrow(/^line 3: fields are claim,evidence,label,x/);
    expect(() => parseStancePairs('{"claim":"a","evidence":3,"label":"NEI"}')).toThrow(/^line 1:/);
    expect(() => parseStancePairs('not json')).toThrow(/^line 1: not JSON/);
  });

  it('labels a source by its most confident non-NEI sentence, NEI when all are NEI', () => {
    expect(aggregateSource([j(0.2, 0.1, 0.7), j(0.6, 0.3, 0.1)]).label).toBe('SUPPORT');
    expect(aggregateSource([j(0.5, 0.1, 0.4), j(0.1, 0.8, 0.1)]).label).toBe('CONTRADICT');
    expect(aggregateSource([j(0.3, 0.3, 0.4), j(0.1, 0.2, 0.7)]).label).toBe('NEI');
    expect(sourceSentences('One thing. Another thing here.')).toEqual([
      'One thing.',
      'Another thing here.',
    ]);
    expect(sourceSentences('')).toEqual(['']);
  });

  it('reports macro F1, per-class F1, SUPPORT vs CONTRADICT, the confusion matrix and pair p50', async () => {
    const model = await loadPairModelFolder();
    const pairs = parseStancePairs(
      [
        {
          claim: 'Smoking causes cancer.',
          evidence: 'Smokers had more cancer. It was a cohort.',
          label: 'SUPPORT',
        },
        { claim: 'The moon is cheese.', evidence: 'The moon is rock.', label: 'CONTRADICT' },
        { claim: 'Water boils at 100 C.', evidence: '', label: 'NEI' },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n'),
    );
    let t = 0;
    const r = stancePairsReport(pairs, model, () => (t += 5));
    expect(r.pairs).toBe(3);
    expect(r.sentence_pairs).toBe(4);
    expect(r.pair_p50_ms).toBe(5);
    expect(Object.keys(r.f1)).toEqual(['SUPPORT', 'CONTRADICT', 'NEI']);
    expect(r.support_vs_contradict_pairs).toBe(2);
    expect(Object.values(r.confusion).reduce((a, b) => a + b, 0)).toBe(3);
    expect(r.macro_f1).toBeGreaterThanOrEqual(0);
    expect(r.macro_f1).toBeLessThanOrEqual(1);
  }, 120_000);
});
