// The Content-Security-Policy each Sift worker runs under, built from the origins it may reach.
// A dedicated worker takes its CSP from its script's response, so the page asks for each worker
// script under a path that names its kind and the user's origins (`policyScriptUrl`), and whoever
// serves it (the service worker, `vite preview`) strips that part to find the file and answers
// with `workerCsp` (`policyForRequest`, `unpolicedUrl`). The policy sits in the path, above the
// script's folder, and not in a query string: the chunks a worker imports resolve relative to its
// script, so they keep the same prefix and a chunk that imports the entry chunk back gets the very
// module the worker started (a query string made it a second copy, and the entry ran twice).
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

/** The path segment that starts a worker's policy: `<root>sift-policy/<kind>/<origins>/<path>`. */
export const POLICY_SEGMENT = 'sift-policy';

/**
 * Set by a server that serves policy paths itself (`vite preview` here). A static host serves
 * only real paths, so there the page starts workers under policy paths once the service worker
 * (which serves them) controls it, and from their plain URLs before (behind the gate alone).
 */
export const POLICY_PATHS_COOKIE = 'sift-policy-paths';

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

/** The user's origins as one path segment: base64url of their sorted list, or '-' for none. */
function encodeOrigins(origins: readonly string[]): string {
  if (!origins.length) return '-';
  return btoa(origins.join(' ')).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeOrigins(segment: string): string[] {
  if (segment === '-') return [];
  try {
    return atob(segment.replace(/-/g, '+').replace(/_/g, '/')).split(' ').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * `scriptUrl` under the policy prefix of a worker of `kind` that may also reach `userOrigins`. The
 * prefix goes right after `root` (the app's base path), above every folder the worker's imports
 * and `new URL(..., import.meta.url)` lookups resolve into.
 */
export function policyScriptUrl(
  scriptUrl: string,
  kind: WorkerKind,
  userOrigins: readonly string[],
  base?: string,
  root = '/',
): string {
  const u = new URL(scriptUrl, base);
  const user = [
    ...new Set(userOrigins.map(policyOrigin).filter((o): o is string => o !== null)),
  ].sort();
  const start = u.pathname.startsWith(root) ? root.length : 1;
  const prefix = `${POLICY_SEGMENT}/${kind}/${encodeOrigins(user)}/`;
  u.pathname = u.pathname.slice(0, start) + prefix + u.pathname.slice(start);
  return u.href;
}

const POLICY_PATH = new RegExp(`^(.*?/)${POLICY_SEGMENT}/([a-z]+)/([A-Za-z0-9_-]+)/(.*)$`);

/** The kind, origins and real path of a URL under the policy prefix, or null. */
function parsePolicyPath(url: string): { kind: WorkerKind; origins: string[]; real: URL } | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const m = POLICY_PATH.exec(u.pathname);
  const kind = m?.[2] ?? null;
  if (!m || !isKind(kind)) return null;
  const real = new URL(u.href);
  real.pathname = m[1]! + m[4]!;
  return { kind, origins: decodeOrigins(m[3]!), real };
}

/** The file a URL under the policy prefix names (prefix stripped), or null for any other URL. */
export function unpolicedUrl(url: string): string | null {
  return parsePolicyPath(url)?.real.href ?? null;
}

/** The worker kind a script URL was started under (its policy prefix), or null. */
export function policyKindOf(url: string): WorkerKind | null {
  return parsePolicyPath(url)?.kind ?? null;
}

function isKind(k: string | null): k is WorkerKind {
  return k === 'db' || k === 'embed' || k === 'llm' || k === 'web';
}

/**
 * The CSP to serve with a request for `url`, or null when none applies. A file asked for under a
 * policy prefix (the worker's script) gets that kind's policy with its origins; any other request whose
 * destination is a worker (a script someone tries to start as a worker without a kind) gets the
 * strictest, the db worker's.
 */
export function policyForRequest(url: string, destination: string): string | null {
  const isWorker = destination === 'worker' || destination === 'sharedworker';
  const parsed = parsePolicyPath(url);
  // (Under the prefix the files the worker imports get it too: a policy on a module is inert.)
  if (parsed) return workerCsp(parsed.kind, parsed.origins);
  return isWorker ? workerCsp('db') : null;
}
