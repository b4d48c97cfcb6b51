import { describe, expect, it } from 'vitest';
import { createCredibility, normaliseDomain } from './credibility';
import { createRedactor, REDACTED } from './redact';
import { normaliseUrlKey } from './url-key';
import { arxiv, arxivSearchQuery } from './provider-arxiv';
import { readFileSync } from 'node:fs';

const res = (text: string) => ({
  status: 200,
  headers: { get: () => null },
  text,
  url: 'http://x/',
});

describe('normaliseUrlKey', () => {
  it('merges host case, www., fragments, tracking params, param order and trailing slash', () => {
    const key = normaliseUrlKey('https://example-blog.com/what-is-rag');
    for (const u of [
      'https://WWW.Example-Blog.com/what-is-rag/',
      'https://www.example-blog.com/what-is-rag/?utm_source=x&utm_medium=y',
      'http://example-blog.com/what-is-rag#intro',
      'https://example-blog.com/what-is-rag?fbclid=abc',
    ]) {
      expect(normaliseUrlKey(u)).toBe(key);
    }
    expect(normaliseUrlKey('https://a.org/p?b=2&a=1')).toBe(
      normaliseUrlKey('https://a.org/p?a=1&b=2'),
    );
  });
  it('keeps meaningful differences', () => {
    expect(normaliseUrlKey('https://a.org/p?id=1')).not.toBe(
      normaliseUrlKey('https://a.org/p?id=2'),
    );
    expect(normaliseUrlKey('https://a.org/P')).not.toBe(normaliseUrlKey('https://a.org/p'));
    expect(normaliseUrlKey('https://sub.a.org/p')).not.toBe(normaliseUrlKey('https://a.org/p'));
  });
});

describe('credibility tiers', () => {
  it('uses the spec lists, subdomains included', () => {
    const c = createCredibility();
    expect(c.tierFor('https://arxiv.org/abs/1')).toBe(1);
    expect(c.tierFor('https://export.arxiv.org/api/query')).toBe(1);
    expect(c.tierFor('https://www.nature.com/articles/x')).toBe(1);
    expect(c.tierFor('https://docs.tavily.com/x')).toBe(2);
    expect(c.tierFor('https://tavily.com/')).toBe(3);
    expect(c.tierFor('https://notarxiv.org/')).toBe(3);
    expect(c.tierFor('not a url')).toBe(3);
  });
  it('user overrides win, most specific domain first', () => {
    const c = createCredibility();
    expect(c.setOverride('blog.arxiv.org', 4)).toBe(true);
    expect(c.setOverride('https://www.example.org/path', 2)).toBe(true);
    expect(c.tierFor('https://blog.arxiv.org/post')).toBe(4);
    expect(c.tierFor('https://arxiv.org/abs/1')).toBe(1);
    expect(c.tierFor('https://docs.example.org/')).toBe(2);
    expect(c.setOverride('not a domain!', 1)).toBe(false);
    c.setOverride('example.org', null);
    expect(c.tierFor('https://docs.example.org/')).toBe(3);
    expect(c.table().grades).toEqual({ 1: 'A', 2: 'B', 3: 'C', 4: 'D', 5: 'E' });
  });
  it('normaliseDomain', () => {
    expect(normaliseDomain(' WWW.Example.ORG. ')).toBe('example.org');
    expect(normaliseDomain('a b')).toBeNull();
  });
});

describe('redact', () => {
  it('removes known secrets, encoded or not, and credential-shaped pairs', () => {
    const r = createRedactor();
    r.addSecret('tvly-ABC/123+x');
    const text = r.redact(
      'key tvly-ABC/123+x and tvly-ABC%2F123%2Bx; Authorization: Bearer zzz999; https://h/?api_key=qqq&q=ok',
    );
    expect(text).not.toContain('tvly-ABC');
    expect(text).not.toContain('zzz999');
    expect(text).not.toContain('qqq');
    expect(text).toContain('q=ok');
    expect(text).toContain(REDACTED);
  });
  it('redactDeep scrubs nested strings and secret-named fields', () => {
    const r = createRedactor();
    r.addSecret('s3cr3t-value');
    const out = r.redactDeep({ a: ['x s3cr3t-value'], apiKey: 'anything', n: 3 });
    expect(JSON.stringify(out)).not.toContain('s3cr3t');
    expect(out.apiKey).toBe(REDACTED);
    expect(out.n).toBe(3);
  });
});

describe('arXiv Atom parsing (real XML parser)', () => {
  it('builds an AND query of field terms without operators or syntax', () => {
    expect(arxivSearchQuery('  graph (neural) AND networks: ')).toBe(
      'all:graph AND all:neural AND all:networks',
    );
  });
  it('decodes entities, collapses whitespace, keeps one entry as a list', () => {
    const xml = readFileSync(new URL('./fixtures/arxiv-query.xml', import.meta.url), 'utf8');
    const one = xml.replace(/<entry>[\s\S]*?<\/entry>\s*(?=<entry>)/, '');
    const hits = arxiv.parseSearch(res(one));
    expect(hits).toHaveLength(1);
    const all = arxiv.parseSearch(res(xml));
    expect(all[0]).toMatchObject({
      url: 'https://arxiv.org/abs/2005.11401v4',
      title: 'Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks',
      publishedDate: '2020-05-22T05:26:16Z',
    });
    expect(all[0]?.snippet).toContain('parameters & achieve');
  });
  it('an error feed becomes PROVIDER_ERROR', () => {
    const xml = readFileSync(new URL('./fixtures/arxiv-error.xml', import.meta.url), 'utf8');
    expect(() => arxiv.parseSearch(res(xml))).toThrow(
      expect.objectContaining({ code: 'PROVIDER_ERROR' }),
    );
  });
  it('malformed XML becomes MALFORMED_RESPONSE', () => {
    expect(() => arxiv.parseSearch(res('<feed><entry>'))).toThrow(
      expect.objectContaining({ code: 'MALFORMED_RESPONSE' }),
    );
    expect(() => arxiv.parseSearch(res('{"json": true}'))).toThrow(
      expect.objectContaining({ code: 'MALFORMED_RESPONSE' }),
    );
  });
});
