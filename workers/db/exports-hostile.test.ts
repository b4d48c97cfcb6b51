// Every export (project report, retrieval_audit.md, index_metadata.json, an answer's Markdown, the
// answers history JSON) built from hostile titles, paths, passages, claims and model output, then
// rendered by marked as a viewer that allows HTML would: no element outside the allow-list, no
// event handler, no `javascript:` link. The old report gave a title 14 live elements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerToMarkdown } from '../../app/answer/answer-markdown';
import { sampleAnswer } from '../shared/answer.testkit';
import type { StoredAnswer } from '../shared/answer-history-api';
import { hostileString, liveMarkup } from '../shared/markdown-safety.testkit';
import type { ClaimCheckView, ProjectClaim } from '../shared/projects-api';
import type { DocumentSummary } from '../shared/types';
import { createAnswerHistory } from '../store/answer-history';
import { openTestLibrary, type TestLibrary } from '../store/store.testkit';
import { buildExports, provenanceOfDocument } from './projects-exports';

const EVIL = 'x <img src=x onerror=alert(1)> <script>alert(1)</script> [c](javascript:alert(1))';
const EVIL_PATH = 'a\n\n<img src=x onerror=alert(1)>\n\n`.txt';

function hostileDocument(v: string, url: string | null): DocumentSummary {
  return {
    id: 1,
    path: `${v}${EVIL_PATH}`,
    title: `${EVIL} ${v}`,
    mime: 'text/plain',
    size: 10,
    modified: 0,
    contentHash: 'abcdef0123456789abcdef',
    importedAt: 0,
    sourceUrl: url,
    qualityGrade: null,
    chunkCount: 3,
  };
}

function hostileAnswer(v: string): StoredAnswer {
  const a = sampleAnswer({ documents: [1, 2] });
  return {
    ...a,
    id: 1,
    question: `${EVIL} ${v}`,
    notices: [`${v} <b onmouseover=x>`],
    sentences: a.sentences.map((s) => ({ ...s, text: `${v} ${EVIL}` })),
    references: a.references.map((r, i) => ({
      ...r,
      title: `${EVIL}${v}`,
      path: `${EVIL_PATH}${v}`,
      ...(i === 1
        ? {
            source: 'web' as const,
            url: i % 2 ? `javascript:alert(1)//${v}` : `https://x.org/${v}`,
          }
        : {}),
    })),
  };
}

function allExports(v: string): Array<[string, string]> {
  const doc = hostileDocument(v, v.length % 2 ? 'javascript:alert(1)' : `https://x.org/${v}`);
  const check: ClaimCheckView = {
    claim: `${EVIL} ${v}`,
    status: 'LIKELY',
    independentSupport: 1,
    evidence: ['supporting', 'contradicting'].map((role) => ({
      documentId: 1,
      provenance: provenanceOfDocument(doc),
      stance: 'SUPPORT',
      supportScore: 0.9,
      role: role as 'supporting',
      sentences: [],
    })),
    skipped: [],
    tookMs: 40,
    minGrade: null,
  };
  const claim: ProjectClaim = {
    id: 1,
    seq: 1,
    text: `${EVIL} ${v}`,
    keyClaim: false,
    checkedAt: 1,
    result: check,
  };
  const files = buildExports({
    project: {
      id: 1,
      name: `${EVIL} ${v}`,
      question: `${v}\n\n${EVIL}`,
      createdAt: 0,
      updatedAt: 0,
    },
    documents: [doc],
    claims: [claim],
    audit: (['PASS', 'REVIEW', 'SOURCE_NOT_INDEXED'] as const).map((status) => ({
      claim: `${EVIL} ${v}`,
      n: '1',
      citedSource: `${v} ${EVIL_PATH}`,
      documentId: 1,
      status,
      supportScore: 0.5,
      stance: 'CONTRADICT',
      passage: { text: `${v} ${EVIL}`, start: 0, end: 1 },
      at: { start: 0, end: 1 },
    })),
    answer: hostileAnswer(v),
  });
  return [
    ['report', files.report.text],
    ['retrieval_audit.md', files.retrievalAudit.text],
    ['index_metadata.json', files.indexMetadata.text],
    ['answer Markdown', answerToMarkdown(hostileAnswer(v))],
  ];
}

let lib: TestLibrary;
beforeAll(async () => {
  lib = await openTestLibrary();
});
afterAll(async () => {
  await lib.close();
});

describe('exports carry no live HTML', () => {
  it.each(['', 'plain', '`', '\u0000', 'java\tscript:alert(1)', '</td></tr><script>'])(
    'renders every export inert for the extra value %j',
    (v) => {
      for (const [name, text] of allExports(v)) expect(liveMarkup(text), name).toEqual([]);
    },
  );

  it('renders every export inert for 150 seeded hostile strings', () => {
    const failing: string[] = [];
    for (let seed = 1; seed <= 150; seed++) {
      for (const [name, text] of allExports(hostileString(seed))) {
        if (liveMarkup(text).length) failing.push(`${name} @ seed ${seed}`);
      }
    }
    expect(failing.slice(0, 5)).toEqual([]);
  });

  it('writes the answers history JSON with no tag, and it parses back whole', async () => {
    const history = createAnswerHistory(lib.db.sql);
    const answer = hostileAnswer('<svg onload=alert(1)>');
    const { id: _id, ...unsaved } = answer;
    await history.save(unsaved);
    const json = await history.exportJson(0);
    expect(liveMarkup(json)).toEqual([]);
    expect(json).not.toMatch(/[<>]/);
    const back = JSON.parse(json) as { answers: StoredAnswer[] };
    expect(back.answers[0]?.question).toBe(answer.question);
  });

  it('keeps the report readable: titles, citations and links as a reader expects', () => {
    const report = allExports('')[0]![1];
    expect(report).toContain('## Answer');
    expect(report).toMatch(/\[1\]/);
    const json = JSON.parse(allExports('')[2]![1]) as {
      sources: Record<string, { title: string }>;
    };
    expect(Object.values(json.sources)[0]?.title).toContain('<img src=x onerror=alert(1)>');
  });
});
