import { describe, expect, it } from 'vitest';
import type { CleanHtml } from '../../workers/shared/ingest-api';
import type { DocumentInput } from '../../workers/shared/types';
import type { FetchPageResult, RankedWebHit } from '../../workers/shared/web-api';
import { importWebResult, webPageToDocument } from './import-web-result';

const cleaner: CleanHtml = async (html) => ({
  title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '',
  text: html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim(),
});

const hit = {
  url: 'https://example-blog.com/what-is-rag',
  title: 'What is RAG? (result title)',
  provider: 'brave',
} as RankedWebHit;

describe('webPageToDocument', () => {
  it('cleans HTML with the injected cleaner and keeps URL, date and grade', async () => {
    const doc = await webPageToDocument(
      {
        kind: 'html',
        url: hit.url,
        title: '',
        html: '<html><head><title>What is RAG?</title></head><body><p>RAG combines retrieval.</p></body></html>',
        provider: 'brave',
        via: 'direct',
        fetchedAt: 1234,
        qualityGrade: 'C',
      },
      cleaner,
    );
    expect(doc).toMatchObject({
      path: hit.url,
      sourceUrl: hit.url,
      title: 'What is RAG?',
      mime: 'text/html',
      modified: 1234,
      qualityGrade: 'C',
    });
    expect(doc.text).toContain('RAG combines retrieval.');
    expect(doc.text).not.toContain('<p>');
  });

  it('uses extracted text as is, and the result title when the page has none', async () => {
    const doc = await webPageToDocument(
      {
        kind: 'text',
        url: hit.url,
        title: '',
        text: 'Line one\r\nLine two',
        provider: 'tavily',
        via: 'extract:tavily',
        fetchedAt: 5,
        qualityGrade: 'A',
      },
      cleaner,
      'Fallback title',
    );
    expect(doc).toMatchObject({
      title: 'Fallback title',
      text: 'Line one\nLine two',
      mime: 'text/plain',
      qualityGrade: 'A',
    });
  });

  it('a page without text is EMPTY_FILE', async () => {
    await expect(
      webPageToDocument(
        {
          kind: 'html',
          url: hit.url,
          title: '',
          html: '<html></html>',
          provider: null,
          via: 'direct',
          fetchedAt: 1,
          qualityGrade: 'C',
        },
        cleaner,
      ),
    ).rejects.toMatchObject({ code: 'EMPTY_FILE' });
  });
});

describe('importWebResult', () => {
  it('fetches, cleans and hands the document to the ingest pipeline', async () => {
    const stored: DocumentInput[] = [];
    const out = await importWebResult(hit, {
      api: {
        fetchPage: async (url, provider): Promise<FetchPageResult> => ({
          ok: true,
          page: {
            kind: 'html',
            url,
            title: '',
            html: '<title>T</title><p>Body text</p>',
            provider: provider ?? null,
            via: 'direct',
            fetchedAt: 9,
            qualityGrade: 'B',
          },
        }),
      },
      cleanHtml: cleaner,
      putDocument: async (doc) => {
        stored.push(doc);
        return { outcome: 'added', documentId: 1, chunkCount: 1 };
      },
    });
    expect(out).toMatchObject({ ok: true, via: 'direct', result: { outcome: 'added' } });
    expect(stored[0]).toMatchObject({ sourceUrl: hit.url, qualityGrade: 'B', title: 'T' });
  });

  it('a fetch failure (e.g. CORS) is a value with the worker’s explanation', async () => {
    const out = await importWebResult(hit, {
      api: {
        fetchPage: async () => ({
          ok: false,
          code: 'CORS_BLOCKED',
          message: 'blocked, set a proxy',
        }),
      },
      cleanHtml: cleaner,
      putDocument: async () => {
        throw new Error('must not be called');
      },
    });
    expect(out).toEqual({ ok: false, code: 'CORS_BLOCKED', message: 'blocked, set a proxy' });
  });
});
