// Credibility tiers by domain (WSOP credibility_scoring: tier 1 authoritative 1.0, tier 2
// secondary 0.8, tier 3 all others 0.6), user overrides on top, and the mapping to the source
// quality grade used by research projects. Owns: tier lookup (subdomains included) and weights.
import type { QualityGrade } from '../shared/types';
import type { CredibilityOverride, CredibilityTable, CredibilityTier } from '../shared/web-api';

/** Spec lists, verbatim from web-search-optimization-protocol.yaml credibility_scoring.tiers. */
export const DEFAULT_TIER_DOMAINS: CredibilityOverride[] = [
  ...[
    'arxiv.org',
    'github.com',
    'semanticscholar.org',
    'huggingface.co',
    'nature.com',
    'science.org',
    'acm.org',
    'ieee.org',
    'openreview.net',
  ].map((domain) => ({ domain, tier: 1 as const })),
  ...[
    'nvidia.com',
    'google.ai',
    'anthropic.com',
    'openai.com',
    'langchain.com',
    'llamaindex.ai',
    'docs.tavily.com',
  ].map((domain) => ({ domain, tier: 2 as const })),
];

/**
 * Weights: tiers 1-3 from the spec. Tiers 4 (distrusted) and 5 (blocked) exist only as user
 * overrides: 4 keeps the result but down-weights it, 5 drops it from results.
 */
export const TIER_WEIGHTS: Record<CredibilityTier, number> = {
  1: 1.0,
  2: 0.8,
  3: 0.6,
  4: 0.3,
  5: 0,
};

/** Quality grade per tier: 1 -> A, 2 -> B, 3 -> C, 4 -> D, 5 -> E. */
export const TIER_GRADES: Record<CredibilityTier, QualityGrade> = {
  1: 'A',
  2: 'B',
  3: 'C',
  4: 'D',
  5: 'E',
};

/** Lowercase host without a leading "www." and trailing dot; null when not a host name. */
export function normaliseDomain(input: string): string | null {
  let d = input.trim().toLowerCase();
  if (d.includes('://')) {
    try {
      d = new URL(d).hostname;
    } catch {
      return null;
    }
  }
  d = d.replace(/\.$/, '').replace(/^www\./, '');
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d) && !/^[a-z0-9-]+$/.test(d)) return null;
  return d;
}

export interface Credibility {
  /** Tier for a URL: the most specific matching domain wins (overrides before defaults). */
  tierFor(url: string): CredibilityTier;
  setOverride(domain: string, tier: CredibilityTier | null): boolean;
  overrides(): CredibilityOverride[];
  table(): CredibilityTable;
}

export function createCredibility(initial: CredibilityOverride[] = []): Credibility {
  const overrides = new Map<string, CredibilityTier>();
  for (const o of initial) {
    const d = normaliseDomain(o.domain);
    if (d) overrides.set(d, o.tier);
  }
  const defaults = new Map(DEFAULT_TIER_DOMAINS.map((o) => [o.domain, o.tier] as const));

  function lookup(map: Map<string, CredibilityTier>, host: string): CredibilityTier | null {
    // example.sub.arxiv.org -> sub.arxiv.org -> arxiv.org -> org: first hit is the most specific.
    const parts = host.split('.');
    for (let i = 0; i < parts.length; i++) {
      const t = map.get(parts.slice(i).join('.'));
      if (t !== undefined) return t;
    }
    return null;
  }

  return {
    tierFor(url) {
      let host: string;
      try {
        host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
      } catch {
        return 3;
      }
      return lookup(overrides, host) ?? lookup(defaults, host) ?? 3;
    },
    setOverride(domain, tier) {
      const d = normaliseDomain(domain);
      if (!d) return false;
      if (tier === null) overrides.delete(d);
      else overrides.set(d, tier);
      return true;
    },
    overrides: () => [...overrides].map(([domain, tier]) => ({ domain, tier })),
    table: () => ({
      defaults: DEFAULT_TIER_DOMAINS.map((o) => ({ ...o })),
      overrides: [...overrides].map(([domain, tier]) => ({ domain, tier })),
      weights: { ...TIER_WEIGHTS },
      grades: { ...TIER_GRADES },
    }),
  };
}
