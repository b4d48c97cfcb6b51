// The model list of an OpenAI-compatible endpoint (GET `${baseUrl}/models`), which doubles as
// the connection test: it proves the server is up, the base URL is right and the browser may
// call it (CORS). The key goes only to that URL, as in http.ts; it is never put in errors.
import { createError } from '../shared/errors';
import type { EndpointModels, HttpEndpointConfig } from '../shared/llm-api';
import { normaliseBaseUrl } from './http';

export interface ListModelsDeps {
  fetch: typeof fetch;
  now?: () => number;
}

/**
 * Lists the endpoint's models (ids sorted, duplicates removed).
 * @throws AppError INVALID_ARGUMENT (bad URL), NETWORK_ERROR (unreachable or CORS), AUTH_FAILED,
 * PROVIDER_ERROR (HTTP error), MALFORMED_RESPONSE (not an OpenAI model list)
 */
export async function listEndpointModels(
  config: Pick<HttpEndpointConfig, 'baseUrl' | 'apiKey'>,
  deps: ListModelsDeps,
): Promise<EndpointModels> {
  const baseUrl = normaliseBaseUrl(config.baseUrl);
  const url = `${baseUrl}/models`;
  const now = deps.now ?? Date.now;
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = config.apiKey?.trim();
  if (key) headers.authorization = `Bearer ${key}`;
  const start = now();
  let res: Response;
  try {
    res = await deps.fetch(url, { headers, redirect: 'error', credentials: 'omit' });
  } catch (err) {
    throw createError('NETWORK_ERROR', {
      reason: `Could not reach ${new URL(url).origin}: is the server running, and does it allow this page's origin (CORS)?`,
      cause: err instanceof Error ? err.message : String(err),
    });
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel().catch(() => undefined);
    throw createError('AUTH_FAILED', { status: res.status });
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw createError('PROVIDER_ERROR', {
      status: res.status,
      reason: `${url} answered HTTP ${res.status}: check the base URL (it usually ends in /v1).`,
    });
  }
  const json = (await res.json().catch(() => null)) as { data?: unknown } | null;
  if (!json || !Array.isArray(json.data)) {
    throw createError('MALFORMED_RESPONSE', {
      reason: `${url} did not answer an OpenAI model list ({ "data": [{ "id": … }] }).`,
    });
  }
  const ids = json.data
    .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length < 300);
  return { baseUrl, models: [...new Set(ids)].sort(), ms: Math.max(0, now() - start) };
}
