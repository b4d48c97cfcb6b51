// Added to the service worker (workbox importScripts, built by vite.config.ts): answers each
// worker script with the Content-Security-Policy of its kind and origins (worker-policy.ts), since
// a dedicated worker's CSP is the one its script's response carries. Owns: that fetch handler.
/// <reference lib="webworker" />
import { policyForRequest } from './shared/worker-policy';

const sw = self as unknown as ServiceWorkerGlobalScope;

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== sw.location.origin) return;
  const csp = policyForRequest(request.url, request.destination);
  if (!csp) return;
  event.respondWith(withPolicy(request.url, csp));
  // Workbox's own handler must not answer the same request again.
  event.stopImmediatePropagation();
});

/** The script (precached, else from the network) with `csp` as its policy. */
async function withPolicy(url: string, csp: string): Promise<Response> {
  const plain = new URL(url);
  plain.search = '';
  const found =
    (await caches.match(plain.href, { ignoreSearch: true })) ??
    (await fetch(plain.href, { credentials: 'same-origin' }));
  const headers = new Headers(found.headers);
  headers.set('Content-Security-Policy', csp);
  return new Response(found.body, { status: found.status, statusText: found.statusText, headers });
}
