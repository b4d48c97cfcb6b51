// The answer history (issue 16): answers kept in the library with their CRAG metadata, listed
// newest first, read back with references to deleted documents marked missing, exported as JSON.
// Owns: the answers table (migration 7).
import { createError } from '../shared/errors';
import { safeJson } from '../shared/safe-markdown';
import type { Answer, CragMetadata, SupportLabel } from '../shared/answer-api';
import {
  ANSWER_EXPORT_FORMAT,
  ANSWER_EXPORT_VERSION,
  type AnswerSummary,
  type StoredAnswer,
} from '../shared/answer-history-api';
import type { Sql } from './sql';

/** What diagnostics read of each kept answer (no sentences, no strips). */
export interface AnswerRecord {
  id: number;
  createdAt: number;
  mode: Answer['mode'];
  partial: boolean;
  notFound: boolean;
  labels: Record<SupportLabel, number>;
  crag: CragMetadata;
}

export interface AnswerHistory {
  /** Keeps an answer; returns its id. */
  save(answer: Answer): Promise<number>;
  /** Newest first; a question asked again (same mode) once, as its newest answer. */
  list(limit?: number): Promise<AnswerSummary[]>;
  /** @throws AppError NOT_FOUND */
  get(id: number): Promise<StoredAnswer>;
  /** @throws AppError NOT_FOUND */
  remove(id: number): Promise<void>;
  /** CRAG metadata of every kept answer, oldest first. */
  records(): Promise<AnswerRecord[]>;
  /** Every answer as JSON text: `{ format, version, exportedAt, answers }`. */
  exportJson(now: number): Promise<string>;
}

interface SummaryRow {
  id: number;
  created_at: number;
  question: string;
  mode: string;
  decision: string;
  web_used: number;
  partial: number;
  not_found: number;
  total_ms: number;
  labels: string;
}

interface FullRow {
  id: number;
  format: number;
  answer: string;
  crag: string;
}

const SUMMARY = `id, created_at, question, mode, decision, web_used, partial, not_found, total_ms, labels`;

export function countLabels(answer: Pick<Answer, 'sentences'>): Record<SupportLabel, number> {
  const labels: Record<SupportLabel, number> = { supported: 0, partly: 0, unsupported: 0 };
  for (const s of answer.sentences) labels[s.support.label]++;
  return labels;
}

function toSummary(r: SummaryRow): AnswerSummary {
  return {
    id: r.id,
    createdAt: r.created_at,
    question: r.question,
    mode: r.mode as Answer['mode'],
    decision: r.decision as AnswerSummary['decision'],
    webUsed: r.web_used === 1,
    partial: r.partial === 1,
    notFound: r.not_found === 1,
    totalMs: r.total_ms,
    labels: JSON.parse(r.labels) as AnswerSummary['labels'],
  };
}

function parse(row: FullRow): StoredAnswer {
  if (row.format !== ANSWER_EXPORT_VERSION) {
    throw createError('SCHEMA_TOO_NEW', {
      reason: `Answer ${row.id} was kept by a newer Sift (format ${row.format}).`,
    });
  }
  const rest = JSON.parse(row.answer) as Omit<Answer, 'crag'>;
  return { ...rest, crag: JSON.parse(row.crag) as CragMetadata, id: row.id };
}

/** SQL: two questions are the same asked again (case and surrounding spaces aside). */
function sameQuestion(a: string, b: string): string {
  return `lower(trim(${a})) = lower(trim(${b}))`;
}

export function createAnswerHistory(sql: Sql): AnswerHistory {
  async function full(where: string, params: number[]): Promise<StoredAnswer[]> {
    const rows = await sql.all<FullRow>(
      `SELECT id, format, answer, crag FROM answers ${where} ORDER BY created_at, id`,
      params,
    );
    return rows.map(parse);
  }

  /** Marks references whose document is no longer in the library. */
  async function markMissing(answer: StoredAnswer): Promise<StoredAnswer> {
    const ids = [
      ...new Set(answer.references.flatMap((r) => (r.documentId === null ? [] : [r.documentId]))),
    ];
    if (ids.length === 0) return answer;
    const present = new Set(
      (
        await sql.all<{ id: number }>(
          `SELECT id FROM documents WHERE id IN (${ids.map(() => '?').join(',')})`,
          ids,
        )
      ).map((r) => r.id),
    );
    return {
      ...answer,
      references: answer.references.map((r) =>
        r.documentId !== null && !present.has(r.documentId) ? { ...r, missing: true } : r,
      ),
    };
  }

  return {
    async save(answer) {
      const { crag, ...rest } = answer;
      const result = await sql.run(
        `INSERT INTO answers (created_at, question, mode, decision, web_used, partial, not_found,
           total_ms, labels, format, answer, crag) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          answer.createdAt,
          answer.question,
          answer.mode,
          crag.decision,
          crag.webUsed ? 1 : 0,
          answer.partial ? 1 : 0,
          answer.notFound ? 1 : 0,
          crag.totalMs,
          JSON.stringify(countLabels(answer)),
          ANSWER_EXPORT_VERSION,
          JSON.stringify(rest),
          JSON.stringify(crag),
        ],
      );
      return result.lastInsertId;
    },

    async list(limit = 200) {
      // Asking the same question again (same mode) shows once, as its newest answer: the older
      // ones stay kept (a project may hold one) but do not repeat in the history.
      const rows = await sql.all<SummaryRow>(
        `SELECT ${SUMMARY} FROM answers a
         WHERE a.id = (SELECT b.id FROM answers b
                       WHERE b.mode = a.mode AND ${sameQuestion('b.question', 'a.question')}
                       ORDER BY b.created_at DESC, b.id DESC LIMIT 1)
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [limit],
      );
      return rows.map(toSummary);
    },

    async get(id) {
      const [answer] = await full('WHERE id = ?', [id]);
      if (!answer)
        throw createError('NOT_FOUND', { reason: `Answer ${id} is not in the history.` });
      return markMissing(answer);
    },

    async remove(id) {
      const { changes } = await sql.run('DELETE FROM answers WHERE id = ?', [id]);
      if (changes === 0)
        throw createError('NOT_FOUND', { reason: `Answer ${id} is not in the history.` });
    },

    async records() {
      const rows = await sql.all<SummaryRow & { crag: string }>(
        `SELECT ${SUMMARY}, crag FROM answers ORDER BY created_at, id`,
      );
      return rows.map((r) => ({
        id: r.id,
        createdAt: r.created_at,
        mode: r.mode as Answer['mode'],
        partial: r.partial === 1,
        notFound: r.not_found === 1,
        labels: JSON.parse(r.labels) as AnswerRecord['labels'],
        crag: JSON.parse(r.crag) as CragMetadata,
      }));
    },

    async exportJson(now) {
      // One at a time: calls on one connection must not interleave a cached statement.
      const answers: StoredAnswer[] = [];
      for (const a of await full('', [])) answers.push(await markMissing(a));
      // safeJson: the same data, with no `<` a viewer could render as a tag.
      return safeJson(
        {
          format: ANSWER_EXPORT_FORMAT,
          version: ANSWER_EXPORT_VERSION,
          exportedAt: new Date(now).toISOString(),
          answers,
        },
        2,
      );
    },
  };
}
