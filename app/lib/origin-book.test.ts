// The origin book keeps the user's addresses per worker as exact origins across sessions and says
// when one is new (that worker then restarts under a policy that names it).
import { describe, expect, it } from 'vitest';
import { createOriginBook, ORIGIN_BOOK_KEY } from './origin-book';

function memoryStore(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
  };
}

describe('origin book', () => {
  it('adds exact origins per worker, says when one is new, and keeps them', () => {
    const store = memoryStore();
    const book = createOriginBook(store);
    expect(book.add('llm', ['http://127.0.0.1:11434/v1'])).toBe(true);
    expect(book.add('llm', ['http://127.0.0.1:11434/v1/models', null, undefined])).toBe(false);
    expect(book.add('llm', ['javascript:alert(1)', 'http://a;b/'])).toBe(false);
    expect(book.get('llm')).toEqual(['http://127.0.0.1:11434']);
    expect(book.get('web')).toEqual([]);
    expect(createOriginBook(store).get('llm')).toEqual(['http://127.0.0.1:11434']);
  });

  it('reads a damaged or hostile stored list as what it can use', () => {
    const store = memoryStore({
      [ORIGIN_BOOK_KEY]: JSON.stringify({ web: ['https://ok.example/x', "x'; script-src *", 3] }),
    });
    expect(createOriginBook(store).get('web')).toEqual(['https://ok.example']);
    expect(createOriginBook(memoryStore({ [ORIGIN_BOOK_KEY]: '{' })).get('web')).toEqual([]);
    expect(createOriginBook(null).add('web', ['https://x.example'])).toBe(true);
  });

  it("ignores a worker's built-in origins: its policy names them, so it never restarts for them", () => {
    const book = createOriginBook(memoryStore());
    // The web providers' default API addresses (what the web worker sees on its first start).
    expect(book.add('web', ['https://api.tavily.com/search', 'https://api.exa.ai'])).toBe(false);
    expect(book.get('web')).toEqual([]);
    expect(book.add('web', ['https://api.tavily.com', 'https://search.example/api'])).toBe(true);
    expect(book.get('web')).toEqual(['https://search.example']);
  });
});
