// The answer's relevance reading with the shipped pair verifier (real weights, canonical runtime):
// only whole sentences are read, the best few by strip score; a question the passages answer is
// addressed and its answer starts from the sentence that answers, an off-topic question is not
// addressed; without the verifier (or with another one) the reading is LLM-free and says why.
import { describe, expect, it } from 'vitest';
import { createFolderVerifier } from '../verifier/node-bundle';
import type { PairVerifier } from '../shared/pair-verifier';
import { describeReading } from '../shared/answer-api';
import { createRetrievalEvaluator } from './evaluator';
import { passageFeatures, queryContext } from './features';
import { loadFittedModel } from './fitted';
import { corpusStats, passage } from './passage.testkit';
import { refine, type ScoredStrip } from './refine';
import {
  ANSWER_RELEVANCE,
  answerStrips,
  isWholeSentence,
  readRelevance,
  relevanceCandidates,
} from './relevance';

const MANUAL =
  'IDL stands for Interface Description Language. Camlidl reads an IDL file and generates stub ' +
  'code for calling C functions from Caml. 3.4 Indexing . . . . . . . . . . . . 12 ' +
  'The stubs are compiled with the C compiler. Each generated file is named after the IDL file.';
const GARDEN = 'Water tomato plants at the root in the morning. Prune the side shoots every week.';
const CORPUS = [MANUAL, GARDEN];
const fitted = await loadFittedModel('use-lite');
const verifier = createFolderVerifier();

const stats = corpusStats(CORPUS);

/** Every strip of the two documents, refined for `question` as the answer service does. */
async function stripsFor(question: string): Promise<ScoredStrip[]> {
  const passages = [passage(1, 1, MANUAL, 5), passage(2, 2, GARDEN, 1)];
  const q = await queryContext(question, stats, null);
  const result = createRetrievalEvaluator(fitted).evaluate(
    passages,
    passageFeatures(q, passages, new Map()),
  );
  return refine(
    q,
    passages,
    result.passages.map((p) => p.finalScore),
    fitted,
  ).all;
}

describe('whole sentences', () => {
  it('takes sentences and list leads, not headings, contents lines or cut-off lines', () => {
    expect(isWholeSentence('IDL stands for Interface Description Language.')).toBe(true);
    expect(isWholeSentence('For each file f.idl, camlidl generates the following files:')).toBe(
      true,
    );
    expect(isWholeSentence('Is the reread command still recommended?')).toBe(true);
    expect(isWholeSentence('2.1 ASN.1 syntax')).toBe(false);
    expect(isWholeSentence('The treemagic files')).toBe(false);
    expect(isWholeSentence('which is a library for')).toBe(false);
    expect(isWholeSentence('See below.')).toBe(false);
  });

  it('takes prose with some code in it, not code soup', () => {
    expect(isWholeSentence('typedef [string] char * str becomes type str = string.')).toBe(true);
    expect(
      isWholeSentence('0 gnuplot*line2Width: 0 gnuplot*line3Width: 0 gnuplot*line4Width:'),
    ).toBe(false);
    expect(isWholeSentence('off gnuplot*borderDashes: 0 gnuplot*axisDashes:')).toBe(false);
  });

  it('reads at most `pool` strips, whole sentences first, never a contents line', async () => {
    const all = await stripsFor('What does IDL stand for?');
    const picked = relevanceCandidates(all, 3);
    expect(picked).toHaveLength(3);
    expect(picked.every((s) => isWholeSentence(s.text) && !/\. \. \./.test(s.text))).toBe(true);
    const scores = picked.map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(relevanceCandidates([], 3)).toEqual([]);
  });
});

describe('the relevance reading (pair verifier v1)', () => {
  it('finds the sentence that answers and says the question is addressed', async () => {
    const question = 'What does IDL stand for?';
    const reading = await readRelevance(question, await stripsFor(question), verifier);
    expect(reading.summary).toMatchObject({ source: 'verifier', addressed: true });
    const answer = answerStrips(reading);
    expect(answer[0]!.text).toBe('IDL stands for Interface Description Language.');
    expect(answer.length).toBeLessThanOrEqual(ANSWER_RELEVANCE.answerMax);
    expect(describeReading(reading.summary)).toMatch(/best addresses the question/);
  });

  it('says an off-topic question is not addressed, however well the words match', async () => {
    const question = 'Who won the 2018 FIFA World Cup final?';
    const reading = await readRelevance(question, await stripsFor(question), verifier);
    expect(reading.summary).toMatchObject({ source: 'verifier', addressed: false });
    expect(describeReading(reading.summary)).toMatch(/none addresses the question/);
  });

  it('is LLM-free without the verifier, or with one the rule was not fitted on', async () => {
    const all = await stripsFor('What does IDL stand for?');
    const none = await readRelevance('What does IDL stand for?', all, undefined);
    expect(none).toEqual({
      read: [],
      summary: { source: 'llm-free', reason: 'No pair verifier is available here.' },
    });
    const other: PairVerifier = { ...verifier, info: { ...verifier.info, id: 'sift-verifier-v0' } };
    const r = await readRelevance('What does IDL stand for?', all, other);
    expect(r.summary.source).toBe('llm-free');
    expect(describeReading(r.summary)).toMatch(/fitted on sift-verifier-v1, not sift-verifier-v0/);
  });
});
