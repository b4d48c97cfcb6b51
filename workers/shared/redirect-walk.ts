// Redirects followed by hand: each hop is read (`redirect: 'manual'`), checked by the caller
// before it is requested, and reported for the ledger, so a request never lands on a host nobody
// checked and the ledger names every host asked. Where the platform hides a redirect's target (a
// browser's opaque redirect) the walk stops with REDIRECT_REFUSED. Owns: that loop. Imports ./errors.
import { createError } from './errors';

export type WalkFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface RedirectHop {
  /** The address that answered with a redirect. */
  url: URL;
  status: number;
  /** Where it pointed (resolved), or null when the answer named no usable Location. */
  location: URL | null;
}

export interface WalkOptions {
  /** Hops followed at most (browsers allow 20). */
  maxHops?: number;
  /** Throws (an AppError) unless `to` may be requested after `from`; nothing is sent to `to` then. */
  checkHop(from: URL, to: URL): void;
  /** Hears each redirect answer before its target is checked (one ledger row each). */
  onHop?(hop: RedirectHop): void;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url`, following redirects by hand. Returns the final response and its address.
 * @throws AppError REDIRECT_REFUSED (hidden target, too many hops, no Location) or what `checkHop` throws
 */
export async function walkRedirects(
  fetch: WalkFetch,
  url: URL,
  init: RequestInit,
  options: WalkOptions,
): Promise<{ response: Response; url: URL }> {
  const maxHops = options.maxHops ?? 10;
  let current = url;
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hops = 0; ; hops++) {
    const response = await fetch(current.href, request);
    if (response.type === 'opaqueredirect') {
      options.onHop?.({ url: current, status: response.status, location: null });
      throw refused(`${current.host} answered with a redirect whose target the browser hides`);
    }
    if (!REDIRECT_STATUSES.has(response.status)) return { response, url: current };
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let next: URL | null;
    try {
      next = location ? new URL(location, current) : null;
    } catch {
      next = null;
    }
    options.onHop?.({ url: current, status: response.status, location: next });
    if (!next)
      throw refused(`${current.host} answered ${response.status} without a usable Location`);
    if (hops + 1 > maxHops) throw refused(`${url.host} redirected more than ${maxHops} times`);
    options.checkHop(current, next);
    // 301/302/303 after another method continue as a GET without a body (as browsers do).
    const method = (request.method ?? 'GET').toUpperCase();
    if (response.status !== 307 && response.status !== 308 && method !== 'GET') {
      const { body: _body, ...rest } = request;
      request = { ...rest, method: 'GET' };
    }
    current = next;
  }
}

/** The hop check of a page import: a redirect may stay on its host's origin only. */
export function sameOriginHop(from: URL, to: URL): void {
  if (to.origin !== from.origin)
    throw refused(
      `${from.host} redirected to ${to.host}; Sift does not follow a redirect to another host`,
    );
}

function refused(reason: string) {
  return createError('REDIRECT_REFUSED', {
    reason: `${reason}. Open the address in your browser and import the one it ends at.`,
  });
}
