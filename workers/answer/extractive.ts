// The extractive answer (the offline default, no LLM): the best strips, de-duplicated, ordered
// by document rank then source order, each sentence citing its strip as [n]. Deterministic: the
// same library and question give the same answer (ties broken by strip id).
import type { AnswerReference, Strip } from '../shared/answer-api';
import { isContentsLine } from '../shared/contents-lines';
import { jaccard } from '../query-plan/text';
import type { FittedModel } from './fitted';
import { rankRationale, rationaleModelFor, type RationaleModel } from './rationale-rank';
import type { ScoredStrip } from './refine';

export interface ExtractiveDraft {
  /** Sentence text and the strip it cites, in answer order. */
  sentences: Array<{ text: string; strip: Strip }>;
  references: AnswerReference[];
}

export const DUPLICATE_JACCARD = 0.6;

export function referenceFor(strip: Strip, n: number): AnswerReference {
  return {
    n,
    stripId: strip.id,
    source: strip.source,
    documentId: strip.documentId,
    chunkId: strip.chunkId,
    path: strip.path,
    title: strip.title,
    start: strip.start,
    end: strip.end,
    ...(strip.url ? { url: strip.url } : {}),
    ...(strip.tier ? { tier: strip.tier } : {}),
  };
}

/**
 * Picks the answer strips from the refined ones (`kept`, falling back to the best of `all`): by
 * the rationale ranker's probability when the model has one (`ranker`, default its shipped file),
 * else by strip score; either way at least one strip, at most the fitted maximum.
 */
export function extractiveAnswer(
  keptIn: ScoredStrip[],
  fitted: FittedModel,
  allIn: ScoredStrip[] = keptIn,
  ranker: RationaleModel | null = rationaleModelFor(fitted),
): ExtractiveDraft {
  // A contents or index line ("3.4 Indexing . . . . 12") names a topic; it never answers one.
  const all = allIn.some((s) => !isContentsLine(s.text))
    ? allIn.filter((s) => !isContentsLine(s.text))
    : allIn;
  const kept = keptIn.filter((s) => !isContentsLine(s.text));
  const byScore = (list: ScoredStrip[]) =>
    [...list].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let pool: ScoredStrip[];
  let max = fitted.strip.answerMax;
  if (ranker) {
    const ranked = rankRationale(kept.length ? kept : all, ranker);
    pool = ranked.filter((r, i) => i === 0 || r.p >= ranker.answer).map((r) => r.strip);
    max = ranker.answerMax;
  } else {
    pool = byScore(kept).filter((s) => s.score >= fitted.strip.answer);
    if (pool.length === 0) pool = byScore(kept.length ? kept : all).slice(0, 1);
  }
  return draftOf(pool, max);
}

/**
 * The answer made of `pool`'s strips (best first): at most `max`, near-duplicates dropped, in
 * reading order (documents by rank, strips by offset), each citing its own reference.
 */
export function draftOf(pool: ScoredStrip[], max: number): ExtractiveDraft {
  const chosen: ScoredStrip[] = [];
  for (const s of pool) {
    if (chosen.length >= max) break;
    if (chosen.some((c) => jaccard(c.text, s.text) >= DUPLICATE_JACCARD)) continue;
    chosen.push(s);
  }
  chosen.sort((a, b) => a.passageRank - b.passageRank || a.start - b.start);
  const references = chosen.map((s, i) => referenceFor(s, i + 1));
  return { sentences: chosen.map((s) => ({ text: s.text, strip: s })), references };
}

/** "text [n]" lines of an answer as Markdown-ish plain text (for export and the UI's copy). */
export function citedText(draft: ExtractiveDraft): string {
  return draft.sentences.map((s, i) => `${s.text} [${i + 1}]`).join(' ');
}

/** Characters a list-introducing sentence may grow by with the items that follow it. */
export const LIST_CHARS = 600;

/** A list item's start: a bullet, a dash or a number with '.' or ')'. */
const LIST_ITEM = /^(?:[•◦▪‣∙·*–-]|\(?\d{1,2}[.)])\s/u;

/**
 * A sentence that introduces a list ("…generates the following files:") with the list items that
 * follow it in its document, so the answer says what the list holds: strips of `all` from the same
 * document separated only by white space, each line starting with a bullet (a line without one
 * ends the list), while the whole stays within LIST_CHARS more. `text` is the document's stored text (the span's exact characters).
 */
export function withListItems(strip: ScoredStrip, all: ScoredStrip[], text: string): ScoredStrip {
  if (!strip.text.trimEnd().endsWith(':') || text.slice(strip.start, strip.end) !== strip.text)
    return strip;
  const next = all
    .filter((s) => s.documentId === strip.documentId && s.start >= strip.end)
    .sort((a, b) => a.start - b.start);
  let end = strip.end;
  for (const s of next) {
    const gap = text.slice(end, s.start);
    if (gap.trim() !== '' || s.end - strip.end > LIST_CHARS) break;
    // A new line starts an item or ends the list; on the same line an item goes on.
    const newLine = gap.includes('\n') || end === strip.end;
    if (newLine && !LIST_ITEM.test(s.text)) break;
    end = s.end;
  }
  if (end === strip.end) return strip;
  return {
    ...strip,
    id: `d${strip.documentId}:${strip.start}-${end}`,
    end,
    text: text.slice(strip.start, end),
  };
}
