// The Content-Security-Policy each Sift worker runs under, built from the origins it may reach.
// A dedicated worker takes its CSP from its script's response, so the page asks for each worker
// script with its kind and the user's origins in the URL (`policyScriptUrl`), and whoever serves
// it (the service worker, `vite preview`) answers with `workerCsp` (`policyForRequest`).
// Owns: the per-worker built-in origins, the policy text, and that URL encoding. Imports nothing.

/** The Sift workers, each with its own built-in origins and nested-worker needs. */
export type WorkerKind = 'db' | 'embed' | 'llm' | 'web';

/** The model hub and the CDNs it redirects downloads to (the browser follows those hops). */
const HUB = ['https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'];

/**
 * What each worker reaches without the user setting anything; the gate of each worker entry
 * allows the same (workers/shared/worker-policy.test.ts holds the two lists equal).
 */
export const WORKER_BUILT_IN_ORIGINS: Readonly<Record<WorkerKind, readonly string[]>> = {
  db: [],
  embed: HUB,
  // WebLLM: weights from the hub, model libraries from raw.githubusercontent.com.
  llm: [...HUB, 'https://raw.githubusercontent.com'],
  // The web providers' default API origins (webBuiltInOrigins()).
  web: [
    'https://api.tavily.com',
    'https://api.exa.ai',
    'https://api.perplexity.ai',
    'https://api.search.brave.com',
    'https://api.semanticscholar.org',
    'https://export.arxiv.org',
  ],
};

/** Only the LLM worker starts a nested worker: wllama's, from a blob: URL (it inherits this policy). */
const NESTED_WORKERS: Readonly<Record<WorkerKind, string>> = {
  db: "'none'",
  embed: "'none'",
  llm: 'blob:',
  web: "'none'",
};

export const KIND_PARAM = 'sift-worker';
export const ALLOW_PARAM = 'sift-allow';

/**
 * `url`'s http(s) origin if it is one a policy can name exactly: a host of letters, digits, dots
 * and hyphens (or an IPv4/bracketed IPv6 literal) and an optional port. Anything else (a `;` or a
 * space that would end the directive, a `*`, another scheme) is null.
 */
export function policyOrigin(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!/^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(u.hostname)) return null;
  return u.origin;
}

/** The policy of a worker of `kind` that may also reach `userOrigins` (invalid ones dropped). */
export function workerCsp(kind: WorkerKind, userOrigins: readonly string[] = []): string {
  const user = userOrigins.map(policyOrigin).filter((o): o is string => o !== null);
  const reach = [...new Set([...WORKER_BUILT_IN_ORIGINS[kind], ...user])];
  return [
    "default-src 'none'",
    // Its own chunks and WebAssembly only: no remote import(), no eval.
    "script-src 'self' 'wasm-unsafe-eval'",
    // blob:/data: never leave the device (model bytes, wasm); every host is named.
    ['connect-src', "'self'", 'blob:', 'data:', ...reach].join(' '),
    `worker-src ${NESTED_WORKERS[kind]}`,
    "font-src 'none'",
    "img-src 'self' blob: data:",
    "base-uri 'none'",
  ].join('; ');
}

/** `scriptUrl` carrying the worker's kind and the user's origins for whoever serves it. */
export function policyScriptUrl(
  scriptUrl: string,
  kind: WorkerKind,
  userOrigins: readonly string[],
  base?: string,
): string {
  const u = new URL(scriptUrl, base);
  u.searchParams.set(KIND_PARAM, kind);
  const user = userOrigins.map(policyOrigin).filter((o): o is string => o !== null);
  if (user.length) u.searchParams.set(ALLOW_PARAM, [...new Set(user)].sort().join(' '));
  return u.href;
}

function isKind(k: string | null): k is WorkerKind {
  return k === 'db' || k === 'embed' || k === 'llm' || k === 'web';
}

/**
 * The CSP to serve with a request for `url`, or null when none applies. A worker script asked for
 * with a kind gets that kind's policy; any other request whose destination is a worker (a script
 * someone tries to start as a worker without a kind) gets the strictest, the db worker's.
 */
export function policyForRequest(url: string, destination: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const kind = u.searchParams.get(KIND_PARAM);
  if (isKind(kind)) {
    const allow = (u.searchParams.get(ALLOW_PARAM) ?? '').split(' ').filter(Boolean);
    return workerCsp(kind, allow);
  }
  return destination === 'worker' || destination === 'sharedworker' ? workerCsp('db') : null;
}
