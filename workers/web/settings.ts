// Provider settings persisted on the device through an injected key-value storage: enabled flag,
// API key, base URL override and proxy trust per provider, plus credibility overrides. Owns: the
// versioned schema (SETTINGS_VERSION) and its migration. Everything is off by default.
import type { CredibilityOverride, KeyValueStorage, ProviderId } from '../shared/web-api';
import { PROVIDER_IDS } from '../shared/web-api';

/** Bump with a migration in `migrate` whenever the stored shape changes. */
export const SETTINGS_VERSION = 1;
export const SETTINGS_KEY = 'sift.web.settings';

export interface ProviderSettings {
  enabled: boolean;
  apiKey: string | null;
  baseUrl: string | null;
  sendKeyToCustomBaseUrl: boolean;
}

export interface WebSettings {
  version: number;
  providers: Record<ProviderId, ProviderSettings>;
  credibilityOverrides: CredibilityOverride[];
}

export function defaultSettings(): WebSettings {
  const providers = {} as Record<ProviderId, ProviderSettings>;
  for (const id of PROVIDER_IDS) {
    providers[id] = { enabled: false, apiKey: null, baseUrl: null, sendKeyToCustomBaseUrl: false };
  }
  return { version: SETTINGS_VERSION, providers, credibilityOverrides: [] };
}

/** Reads any stored version into the current shape; unknown fields are dropped, bad ones defaulted. */
export function migrate(raw: unknown): WebSettings {
  const out = defaultSettings();
  if (typeof raw !== 'object' || raw === null) return out;
  const r = raw as Record<string, unknown>;
  // Version 1 is the first stored shape; later versions add their steps here.
  const providers = (r.providers ?? {}) as Record<string, unknown>;
  for (const id of PROVIDER_IDS) {
    const p = providers[id];
    if (typeof p !== 'object' || p === null) continue;
    const q = p as Record<string, unknown>;
    out.providers[id] = {
      enabled: q.enabled === true,
      apiKey: typeof q.apiKey === 'string' && q.apiKey ? q.apiKey : null,
      baseUrl: typeof q.baseUrl === 'string' && q.baseUrl ? q.baseUrl : null,
      sendKeyToCustomBaseUrl: q.sendKeyToCustomBaseUrl === true,
    };
  }
  if (Array.isArray(r.credibilityOverrides)) {
    for (const o of r.credibilityOverrides) {
      if (typeof o !== 'object' || o === null) continue;
      const { domain, tier } = o as Record<string, unknown>;
      if (
        typeof domain === 'string' &&
        (tier === 1 || tier === 2 || tier === 3 || tier === 4 || tier === 5)
      ) {
        out.credibilityOverrides.push({ domain, tier });
      }
    }
  }
  return out;
}

/** Storage used until `init` connects a persistent one: settings then last for the session only. */
export function createMemoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    get: async (k) => map.get(k) ?? null,
    set: async (k, v) => {
      map.set(k, v);
    },
    delete: async (k) => {
      map.delete(k);
    },
  };
}

export async function loadSettings(storage: KeyValueStorage): Promise<WebSettings> {
  const text = await storage.get(SETTINGS_KEY);
  if (text === null) return defaultSettings();
  try {
    return migrate(JSON.parse(text));
  } catch {
    return defaultSettings();
  }
}

export async function saveSettings(storage: KeyValueStorage, settings: WebSettings): Promise<void> {
  await storage.set(SETTINGS_KEY, JSON.stringify({ ...settings, version: SETTINGS_VERSION }));
}
