import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RankedWebHit } from '../../workers/shared/web-api';
import { WebResultsList } from './web-results';

const hit = (over: Partial<RankedWebHit>): RankedWebHit => ({
  url: 'https://arxiv.org/abs/2005.11401',
  title: 'RAG paper',
  snippet: 'Snippet',
  publishedDate: '2020-05-22T00:00:00Z',
  provider: 'tavily',
  providerScore: 0.9,
  raw: {},
  key: 'arxiv.org/abs/2005.11401',
  alsoFrom: ['brave'],
  tier: 1,
  tierWeight: 1,
  qualityGrade: 'A',
  relevance: 0.9,
  score: 0.9,
  ...over,
});

describe('WebResultsList', () => {
  it('shows tier, grade, providers and an import button per result', () => {
    const html = renderToStaticMarkup(
      createElement(WebResultsList, { hits: [hit({})], onImport: () => undefined }),
    );
    expect(html).toContain('Tier 1 · authoritative · grade A');
    expect(html).toContain('Tavily, Brave');
    expect(html).toContain('Import into library');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it('renders untrusted web text as text and links only http(s)', () => {
    const html = renderToStaticMarkup(
      createElement(WebResultsList, {
        hits: [
          hit({
            url: 'javascript:alert(1)',
            key: 'x',
            title: '<img src=x onerror=alert(1)>',
            snippet: '<script>bad()</script>',
          }),
        ],
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&lt;script&gt;');
  });

  it('says plainly when everything failed because the device is offline', () => {
    const html = renderToStaticMarkup(
      createElement(WebResultsList, {
        hits: [],
        failures: [{ provider: 'tavily', code: 'OFFLINE', message: 'x', retryable: true }],
      }),
    );
    expect(html).toContain('You are offline');
    expect(html).toContain('Local search still works');
  });
});
