import { describe, expect, it } from 'vitest';
import type { PlanStep, QueryPlan } from './research-api';
import { shapeWebSearch, WEB_ROUTES } from './web-route';

const step = (kind: PlanStep['kind'], texts: string[], status: PlanStep['status'] = 'ok') =>
  ({ id: kind, kind, status, texts }) as PlanStep;
const plan = (query: string, steps: PlanStep[]) =>
  ({ query, complexity: 'complex', steps }) as unknown as QueryPlan;

describe('shapeWebSearch', () => {
  it('sends the raw query with the defaults when there is no route', () => {
    expect(shapeWebSearch('rag', null)).toEqual({
      request: { query: 'rag' },
      note: '',
    });
  });

  it('shapes providers and depth per route', () => {
    expect(shapeWebSearch('capital of peru', 'simple').request).toEqual({
      query: 'capital of peru',
      limit: 5,
      providers: WEB_ROUTES.simple.providers,
    });
    expect(shapeWebSearch('q', 'moderate').request).toEqual({ query: 'q', limit: 10 });
    const c = shapeWebSearch('q', 'complex');
    expect(c.request).toEqual({ query: 'q', limit: 20 });
    expect(c.note).toBe(
      'complex route: the query as typed, up to 20 results from every enabled provider',
    );
  });

  it("sends the plan's rewrite, else its HyDE passage's first sentence, for the same query only", () => {
    const q = 'why do pelicans nest on cliffs';
    const rewritten = plan(q, [
      step('hyde', ['H. More.']),
      step('rewrite', ['pelican cliff nesting']),
    ]);
    expect(shapeWebSearch(q, 'complex', rewritten).request.query).toBe('pelican cliff nesting');
    expect(shapeWebSearch(q, 'complex', rewritten).note).toContain(
      'the rewrite “pelican cliff nesting”',
    );
    const hyde = plan(q, [
      step('rewrite', ['unused'], 'fallback'),
      step('hyde', ['Pelicans nest on cliffs to avoid predators.\nThey also...']),
    ]);
    expect(shapeWebSearch(q, 'complex', hyde).request.query).toBe(
      'Pelicans nest on cliffs to avoid predators.',
    );
    // A plan made for another query is not used.
    expect(shapeWebSearch('other', 'complex', rewritten).request.query).toBe('other');
  });
});
