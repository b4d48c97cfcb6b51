// How the query router shapes a web search (issue 17 item 7): per route, which providers are
// asked and how many results each returns, and which text is sent — the plan's rewrite (or the
// first sentence of its HyDE passage) instead of the raw query when the plan made one. One table,
// used by the search view's web section and the answer's web step. Pure.
import type { Complexity, QueryPlan } from './research-api';
import type { ProviderId, WebSearchRequest } from './web-api';

export interface WebRouteShape {
  /** Providers to ask (disabled ones are skipped by the service); null = every enabled one. */
  providers: ProviderId[] | null;
  /** Results per provider. */
  limit: number;
}

/**
 * simple: a lookup, a few results from the general web engines; moderate: every enabled provider,
 * the default 10; complex: every provider (scholarly ones included) and deeper lists.
 */
export const WEB_ROUTES: Record<Complexity, WebRouteShape> = {
  simple: { providers: ['brave', 'tavily', 'searxng', 'perplexity'], limit: 5 },
  moderate: { providers: null, limit: 10 },
  complex: { providers: null, limit: 20 },
};

/** Longest text sent as a web query (a HyDE passage is cut to its first sentence first). */
const MAX_WEB_QUERY = 300;

export interface ShapedWebSearch {
  request: WebSearchRequest;
  /** What was shaped and why, for the UI and the answer's action note ('' when nothing was). */
  note: string;
}

/**
 * The web request for `query` on a route, with the plan's reformulation when the plan is for the
 * same query; without a route, the raw query with the service's defaults.
 */
export function shapeWebSearch(
  query: string,
  route: Complexity | null,
  plan?: QueryPlan | null,
): ShapedWebSearch {
  if (!route) return { request: { query }, note: '' };
  const shape = WEB_ROUTES[route];
  const sent = plan && plan.query.trim() === query.trim() ? reformulation(plan) : null;
  const text = (sent?.text ?? query).slice(0, MAX_WEB_QUERY);
  const request: WebSearchRequest = {
    query: text,
    limit: shape.limit,
    ...(shape.providers ? { providers: shape.providers } : {}),
  };
  const who = shape.providers ? shape.providers.join(', ') : 'every enabled provider';
  const what = sent ? `the ${sent.from} “${text}”` : 'the query as typed';
  return {
    request,
    note: `${route} route: ${what}, up to ${shape.limit} results from ${who}`,
  };
}

function reformulation(plan: QueryPlan): { text: string; from: 'rewrite' | 'HyDE passage' } | null {
  const ok = (kind: 'rewrite' | 'hyde') =>
    plan.steps.find((s) => s.kind === kind && s.status === 'ok' && s.texts[0]?.trim());
  const rewrite = ok('rewrite');
  if (rewrite) return { text: rewrite.texts[0]!.trim(), from: 'rewrite' };
  const hyde = ok('hyde');
  if (hyde) {
    const first = /^.*?[.!?](?=\s|$)/s.exec(hyde.texts[0]!.trim())?.[0] ?? hyde.texts[0]!.trim();
    return { text: first.replace(/\s+/g, ' '), from: 'HyDE passage' };
  }
  return null;
}
