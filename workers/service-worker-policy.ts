// Added to the service worker (workbox importScripts, built by vite.config.ts): answers each
// worker script with the Content-Security-Policy of its kind and origins (worker-policy.ts), since
// a dedicated worker's CSP is the one its script's response carries, and serves the files under a
// worker's policy prefix (its imports) from the cache. Owns: that fetch handler.
/// <reference lib="webworker" />
import { policyForRequest, unpolicedUrl } from './shared/worker-policy';

const sw = self as unknown as ServiceWorkerGlobalScope;

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== sw.location.origin) return;
  // A worker's script and everything it imports live under its policy prefix: serve the file.
  const real = unpolicedUrl(request.url);
  const csp = policyForRequest(request.url, request.destination);
  if (!real && !csp) return;
  event.respondWith(served(real ?? request.url, csp));
  // Workbox's own handler must not answer the same request again.
  event.stopImmediatePropagation();
});

/** Files a worker fetched under its prefix that no precache holds (a runtime fetched on use). */
const RUNTIME_CACHE = 'sift-worker-files';

/**
 * The file (precached or fetched before, else from the network and kept for offline use), with
 * `csp` as its policy when one applies.
 */
async function served(url: string, csp: string | null): Promise<Response> {
  const found = (await caches.match(url, { ignoreSearch: true })) ?? (await fetchAndKeep(url));
  if (!csp) return found;
  const headers = new Headers(found.headers);
  headers.set('Content-Security-Policy', csp);
  return new Response(found.body, { status: found.status, statusText: found.statusText, headers });
}

async function fetchAndKeep(url: string): Promise<Response> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (response.ok) {
    const copy = response.clone();
    void caches
      .open(RUNTIME_CACHE)
      .then((cache) => cache.put(url, copy))
      .catch(() => undefined);
  }
  return response;
}
