// The Markdown export: cited sentences with labels, a reference list with path / URL / tier, the
// CRAG metadata, and untrusted text escaped (no links, images or HTML smuggled in).
import { describe, expect, it } from 'vitest';
import { sampleAnswer } from '../../workers/shared/answer.testkit';
import type { Answer } from '../../workers/shared/answer-api';
import { answerToMarkdown, escapeMarkdown } from './answer-markdown';

function withWeb(): Answer {
  const a = sampleAnswer({
    documents: [3],
    labels: ['supported', 'unsupported'],
    decision: 'AMBIGUOUS',
    webUsed: true,
    actions: [
      {
        kind: 'web',
        status: 'ok',
        applied: true,
        note: 'web results joined the context',
        ms: 310,
        results: 4,
      },
    ],
  });
  a.references.push({
    n: 2,
    stripId: 'w1',
    source: 'web',
    documentId: null,
    chunkId: null,
    path: 'https://example.org/a b',
    url: 'https://example.org/a b',
    title: 'A [web] page',
    start: 0,
    end: 40,
    tier: '2',
  });
  a.sentences[1]!.citations = [2];
  return a;
}

describe('answerToMarkdown', () => {
  it('writes the cited sentences, marks unsupported ones, and lists references with their tier', () => {
    const md = answerToMarkdown(withWeb());
    expect(md).toContain('# Where do pelicans nest?');
    expect(md).toContain('Sentence 1. [1] Sentence 2. [2] _(unsupported)_');
    expect(md).toContain('1. Doc 3 — `notes/doc-3.md` (library, characters 0–20)');
    expect(md).toContain(
      '2. A \\[web\\] page — <https://example.org/a%20b> (web, tier 2, secondary, characters 0–40)',
    );
  });

  it('includes the CRAG metadata: decision, thresholds, actions, web, steps', () => {
    const md = answerToMarkdown(withWeb());
    expect(md).toContain(
      '- Decision: AMBIGUOUS (query score 0.400; CORRECT at ≥ 0.5, INCORRECT below 0.2',
    );
    expect(md).toContain('- Web used: yes');
    expect(md).toContain(
      '- Action web: ok, applied (310 ms) — web results joined the context; 4 results',
    );
    expect(md).toMatch(/- Steps: retrieve 20 ms, evaluate 10 ms, answer 10 ms; total 40 ms/);
  });

  it('marks partial answers, not-found answers and deleted documents', () => {
    const a = sampleAnswer({ partial: true, notFound: true });
    a.references[0]!.missing = true;
    const md = answerToMarkdown(a);
    expect(md).toContain('this answer is partial');
    expect(md).toContain('does not seem to hold the answer');
    expect(md).toContain('document deleted since');
  });

  it('escapes Markdown and HTML in untrusted text', () => {
    expect(escapeMarkdown('![x](javascript:alert(1)) <img src=x>')).toBe(
      '\\!\\[x\\]\\(javascript\\:alert\\(1\\)\\) \\<img src=x\\>',
    );
    const a = sampleAnswer({ question: '# <script>alert(1)</script>' });
    expect(answerToMarkdown(a)).not.toContain('<script>');
  });
});
