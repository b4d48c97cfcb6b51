// What the web worker may reach through its network gate (workers/shared/net-gate.ts): each
// provider's own API origin, and what the user set: a provider's base URL (a proxy, a SearXNG
// instance) and a page the user asked to import.
import { allowUserUrls, type NetGate } from '../shared/net-gate';
import type { WebApi } from '../shared/web-api';
import { PROVIDERS } from './providers';

/** The providers' default API origins (SearXNG has none: the user sets it). */
export function webBuiltInOrigins(): string[] {
  return Object.values(PROVIDERS)
    .map((p) => p.defaultBaseUrl)
    .filter((u): u is string => u !== null)
    .map((u) => new URL(u).origin);
}

/**
 * The web API with the gate following the user: stored base URLs once settings load, a base URL
 * when it is saved, a page's URL when its import is asked for.
 */
export function allowWebUserUrls(api: WebApi, gate: Pick<NetGate, 'allow'>): WebApi {
  const allowConfigured = async () => {
    for (const p of await api.listProviders())
      if (p.effectiveBaseUrl) gate.allow(p.effectiveBaseUrl);
  };
  const wrapped = allowUserUrls(api, gate, {
    updateProvider: (_id, patch) => [patch.baseUrl],
    fetchPage: (url) => [url],
  });
  return {
    ...wrapped,
    async init(storage) {
      try {
        await api.init(storage);
      } finally {
        await allowConfigured();
      }
    },
  };
}
