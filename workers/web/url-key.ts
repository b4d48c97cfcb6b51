// Normalised URL keys for merging the same page found by several providers: lowercase scheme
// and host, no "www.", no default port, no fragment, no tracking parameters, sorted query, no
// trailing slash. Owns: that function only.

const TRACKING_PARAMS = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'msclkid',
  'yclid',
  'mc_cid',
  'mc_eid',
  'igshid',
  '_hsenc',
  '_hsmi',
  'ref_src',
  'spm',
]);

function isTracking(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || TRACKING_PARAMS.has(n);
}

/** Dedupe key of a URL; unparseable input is returned trimmed, so it only merges with itself. */
export function normaliseUrlKey(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return raw.trim();
  }
  const host = u.hostname
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  const params = [...u.searchParams]
    .filter(([k]) => !isTracking(k))
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  let path = u.pathname.replace(/\/+$/, '');
  if (path === '') path = '';
  // http and https of the same page are the same page for dedupe purposes.
  const port = u.port && u.port !== '80' && u.port !== '443' ? `:${u.port}` : '';
  return `${host}${port}${path}${query}`;
}
