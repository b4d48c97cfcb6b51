// Diagnostics over kept answers: decision distribution, correction / web rates, breaker trips,
// latency per path and step (nearest-rank p50/p95), on records from a real history.
import { describe, expect, it } from 'vitest';
import type { CorrectiveAction } from '../shared/answer-api';
import { createAnswerHistory } from '../store/answer-history';
import { openTestLibrary } from '../store/store.testkit';
import { sampleAnswer } from '../shared/answer.testkit';
import { answerDiagnostics, answerPath, percentile } from './diagnostics';

const action = (
  kind: CorrectiveAction['kind'],
  status: CorrectiveAction['status'],
  applied: boolean,
  errorCode?: string,
): CorrectiveAction => ({
  kind,
  status,
  applied,
  note: '',
  ms: 10,
  ...(errorCode ? { errorCode } : {}),
});

describe('percentile', () => {
  it('uses the nearest rank', () => {
    const v = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(v, 50)).toBe(10);
    expect(percentile(v, 95)).toBe(19);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe('answerDiagnostics', () => {
  it('is all zeros with no answers', () => {
    const d = answerDiagnostics([]);
    expect(d).toMatchObject({ answers: 0, correctionRate: 0, webTriggerRate: 0, since: null });
    expect(d.latencyByPath).toEqual({});
  });

  it('counts decisions, corrections, web triggers, breaker trips and latency per path', async () => {
    const lib = await openTestLibrary();
    try {
      const history = createAnswerHistory(lib.db.sql);
      const answers = [
        sampleAnswer({ decision: 'CORRECT', totalMs: 30, createdAt: 5 }),
        sampleAnswer({ decision: 'CORRECT', totalMs: 50, createdAt: 6 }),
        sampleAnswer({
          decision: 'INCORRECT',
          totalMs: 200,
          actions: [
            action('web', 'failed', false, 'CIRCUIT_OPEN'),
            action('expansion', 'ok', true),
          ],
          labels: ['unsupported'],
        }),
        sampleAnswer({
          decision: 'AMBIGUOUS',
          totalMs: 400,
          webUsed: true,
          actions: [action('web', 'ok', true)],
          mode: 'generated',
          partial: true,
        }),
        sampleAnswer({
          decision: 'INCORRECT',
          totalMs: 90,
          notFound: true,
          actions: [action('web', 'skipped', false), action('not-found', 'ok', false)],
        }),
      ];
      for (const a of answers) await history.save(a);
      const d = answerDiagnostics(await history.records());
      expect(d.answers).toBe(5);
      expect(d.decisions).toEqual({ CORRECT: 2, AMBIGUOUS: 1, INCORRECT: 2 });
      expect(d.correctionRate).toBeCloseTo(2 / 5);
      expect(d.webTriggerRate).toBeCloseTo(2 / 5); // a skipped step did not trigger
      expect(d.webUsedRate).toBeCloseTo(1 / 5);
      expect(d.webFailures).toBe(1);
      expect(d.breakerTrips).toBe(1);
      expect(d.notFoundRate).toBeCloseTo(1 / 5);
      expect(d.partialAnswers).toBe(1);
      expect(d.labels).toEqual({ supported: 4, partly: 0, unsupported: 1 });
      expect(d.latencyByPath['CORRECT · extractive']).toEqual({ count: 2, p50: 30, p95: 50 });
      expect(d.latencyByPath['INCORRECT + expansion · extractive']).toMatchObject({ count: 1 });
      expect(d.latencyByPath['AMBIGUOUS + web · generated']).toMatchObject({ p50: 400 });
      expect(d.latencyByStep.retrieve?.count).toBe(5);
      expect(d.since).toBe(5);
    } finally {
      await lib.close();
    }
  });

  it('names a path by decision, applied actions and mode', () => {
    const a = sampleAnswer({ decision: 'AMBIGUOUS', actions: [action('refine', 'ok', true)] });
    expect(answerPath(a)).toBe('AMBIGUOUS · extractive');
  });
});
