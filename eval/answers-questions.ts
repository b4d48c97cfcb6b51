// The `answers` task's question file and figures: JSON lines {"id", "question", "answerable",
// "gold": [{"doc", "pages"}], "answer_phrases"} (gold fields optional), refused with the line
// number when malformed; page_hit_at_3, answer_phrase_recall and not_in_library_accuracy.

export interface AnswerQuestion {
  id: string;
  question: string;
  answerable: boolean;
  gold?: Array<{ doc: string; pages: number[] }>;
  answer_phrases?: string[];
}

/** One evaluated question: what the pipeline returned. */
export interface AnswerRow {
  id: string;
  retrieved: Array<{ doc: string; page: number | null }>;
  answer: string;
  not_in_library: boolean;
}

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.trim() !== '');

function fail(line: number, why: string): never {
  throw new Error(`questions line ${line}: ${why}`);
}

function parseGold(g: unknown, line: number): AnswerQuestion['gold'] {
  if (g === undefined) return undefined;
  if (!Array.isArray(g) || g.length === 0) fail(line, '"gold" must be a non-empty array');
  return g.map((x: unknown) => {
    const o = x as { doc?: unknown; pages?: unknown };
    if (typeof o?.doc !== 'string' || !o.doc) fail(line, 'each gold entry needs a "doc" file name');
    if (!Array.isArray(o.pages) || !o.pages.every((p) => Number.isInteger(p) && p >= 1))
      fail(line, `gold "${o.doc}" needs "pages": a list of page numbers (1-based)`);
    return { doc: o.doc, pages: o.pages as number[] };
  });
}

/** @throws Error naming the line and the field when a line is not a valid question */
export function parseQuestions(text: string): AnswerQuestion[] {
  const out: AnswerQuestion[] = [];
  const ids = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      fail(line, 'not valid JSON');
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) fail(line, 'not a JSON object');
    if (typeof o.id !== 'string' || !o.id) fail(line, '"id" must be a non-empty string');
    if (ids.has(o.id)) fail(line, `duplicate id "${o.id}"`);
    if (typeof o.question !== 'string' || !o.question.trim())
      fail(line, '"question" must be a non-empty string');
    if (typeof o.answerable !== 'boolean') fail(line, '"answerable" must be true or false');
    if (o.answer_phrases !== undefined && !isStrings(o.answer_phrases))
      fail(line, '"answer_phrases" must be a list of non-empty strings');
    const gold = parseGold(o.gold, line);
    if (!o.answerable && (gold || o.answer_phrases))
      fail(line, 'an unanswerable question has no "gold" or "answer_phrases"');
    ids.add(o.id);
    out.push({
      id: o.id,
      question: o.question,
      answerable: o.answerable,
      ...(gold ? { gold } : {}),
      ...(o.answer_phrases ? { answer_phrases: o.answer_phrases } : {}),
    });
  });
  return out;
}

/** A top-3 retrieved passage on a gold page (+-1) of a gold document. */
export function pageHitAt3(q: AnswerQuestion, row: AnswerRow): boolean {
  return row.retrieved
    .slice(0, 3)
    .some(
      (r) =>
        r.page !== null &&
        (q.gold ?? []).some(
          (g) => g.doc === r.doc && g.pages.some((p) => Math.abs(p - r.page!) <= 1),
        ),
    );
}

/** The answer holds every answer phrase (case-insensitive; whitespace runs count as one). */
export function phrasesFound(q: AnswerQuestion, row: AnswerRow): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  const answer = norm(row.answer);
  return (q.answer_phrases ?? []).every((p) => answer.includes(norm(p)));
}

const mean = (xs: boolean[]) =>
  xs.length ? Math.round((xs.filter(Boolean).length / xs.length) * 10000) / 10000 : null;

/** The task's figures over the questions that carry what each one needs. */
export function answerFigures(questions: AnswerQuestion[], rows: Map<string, AnswerRow>) {
  const row = (q: AnswerQuestion) => rows.get(q.id)!;
  const withGold = questions.filter((q) => q.answerable && q.gold);
  const withPhrases = questions.filter((q) => q.answerable && q.answer_phrases?.length);
  const answerable = questions.filter((q) => q.answerable);
  const unanswerable = questions.filter((q) => !q.answerable);
  return {
    page_hit_at_3: mean(withGold.map((q) => pageHitAt3(q, row(q)))),
    answer_phrase_recall: mean(withPhrases.map((q) => phrasesFound(q, row(q)))),
    not_in_library_accuracy: mean(unanswerable.map((q) => row(q).not_in_library)),
    // The cost side of the not-in-library rule: answerable questions it turned away.
    answerable_not_in_library: mean(answerable.map((q) => row(q).not_in_library)),
    counts: {
      questions: questions.length,
      gold: withGold.length,
      phrases: withPhrases.length,
      unanswerable: unanswerable.length,
    },
  };
}
