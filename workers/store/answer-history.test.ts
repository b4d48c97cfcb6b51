// The answer history on a real in-memory library: kept with its CRAG metadata, listed newest
// first, references to deleted documents marked missing, exported, carried by a library export.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleAnswer } from '../shared/answer.testkit';
import { ANSWER_EXPORT_FORMAT } from '../shared/answer-history-api';
import { createAnswerHistory, type AnswerHistory } from './answer-history';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
let history: AnswerHistory;
beforeEach(async () => {
  lib = await openTestLibrary();
  history = createAnswerHistory(lib.db.sql);
});
afterEach(async () => {
  await lib.close();
});

describe('answer history', () => {
  it('keeps an answer with its CRAG metadata and gives it back whole', async () => {
    const a = await put(lib.store, doc('a.md', 'Pelicans nest on cliffs.'));
    const answer = sampleAnswer({ documents: [a.documentId], decision: 'AMBIGUOUS' });
    const id = await history.save(answer);
    const back = await history.get(id);
    expect(back).toEqual({ ...answer, id });
    expect(back.crag.decision).toBe('AMBIGUOUS');
  });

  it('lists newest first with the decision and the sentence labels', async () => {
    await history.save(sampleAnswer({ question: 'old', createdAt: 1 }));
    await history.save(
      sampleAnswer({
        question: 'new',
        createdAt: 2,
        decision: 'INCORRECT',
        labels: ['supported', 'unsupported', 'unsupported'],
        mode: 'generated',
        partial: true,
      }),
    );
    const list = await history.list();
    expect(list.map((s) => s.question)).toEqual(['new', 'old']);
    expect(list[0]).toMatchObject({
      decision: 'INCORRECT',
      mode: 'generated',
      partial: true,
      labels: { supported: 1, partly: 0, unsupported: 2 },
    });
    expect(await history.list(1)).toHaveLength(1);
  });

  it('marks references to deleted documents as missing, never failing', async () => {
    const a = await put(lib.store, doc('a.md', 'alpha'));
    const b = await put(lib.store, doc('b.md', 'beta'));
    const id = await history.save(sampleAnswer({ documents: [a.documentId, b.documentId] }));
    await lib.store.deleteDocument(b.documentId);
    const back = await history.get(id);
    expect(back.references.map((r) => r.missing ?? false)).toEqual([false, true]);
  });

  it('deletes one answer; a missing id is NOT_FOUND', async () => {
    const id = await history.save(sampleAnswer());
    await history.remove(id);
    await expect(history.get(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(history.remove(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('exports every answer with its metadata as versioned JSON', async () => {
    await history.save(sampleAnswer({ question: 'q1' }));
    await history.save(sampleAnswer({ question: 'q2', webUsed: true }));
    const json = JSON.parse(await history.exportJson(Date.UTC(2026, 0, 2))) as {
      format: string;
      version: number;
      exportedAt: string;
      answers: Array<{ question: string; crag: { webUsed: boolean } }>;
    };
    expect(json.format).toBe(ANSWER_EXPORT_FORMAT);
    expect(json.version).toBe(1);
    expect(json.exportedAt).toBe('2026-01-02T00:00:00.000Z');
    expect(json.answers.map((a) => [a.question, a.crag.webUsed])).toEqual([
      ['q1', false],
      ['q2', true],
    ]);
  });

  it('travels with a library export and import', async () => {
    await put(lib.store, doc('a.md', 'alpha'));
    await history.save(sampleAnswer({ question: 'kept' }));
    const bytes = await lib.store.exportDatabase();
    const other = await openTestLibrary();
    try {
      await other.store.importDatabase(bytes);
      const list = await createAnswerHistory(other.db.sql).list();
      expect(list.map((s) => s.question)).toEqual(['kept']);
    } finally {
      await other.close();
    }
  });
});
