// The one place secrets are scrubbed from text: error messages, details, diagnostics, ledger
// and settings exports all pass through `redact()`. Owns: the set of known secrets and the
// patterns of credential-bearing text.

export const REDACTED = '[REDACTED]';

/** Header and query-parameter names that carry credentials; their values are always scrubbed. */
const SECRET_NAMES = [
  'authorization',
  'x-api-key',
  'x-subscription-token',
  'api_key',
  'apikey',
  'api-key',
  'key',
  'token',
  'access_token',
];

const NAME_PATTERN = SECRET_NAMES.map((n) => n.replace(/[-_]/g, '[-_]?')).join('|');
// `name=value` in URLs and forms, `"name": "value"` in JSON, `name: value` in header dumps.
const PAIR_RE = new RegExp(
  `((?:^|[?&\\s"'{,])(?:${NAME_PATTERN})["']?\\s*[:=]\\s*["']?)([^&\\s"',}]+)`,
  'gi',
);
const BEARER_RE = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

export interface Redactor {
  /** Registers a secret so every later `redact` call removes it. Empty strings are ignored. */
  addSecret(secret: string | null | undefined): void;
  removeSecret(secret: string): void;
  /** Text with every known secret and credential-shaped pair replaced by [REDACTED]. */
  redact(text: string): string;
  /** Deep copy of a plain value with every string redacted (for details and exports). */
  redactDeep<T>(value: T): T;
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();

  function redact(text: string): string {
    let out = text;
    // Longest first, so a secret containing another is scrubbed whole.
    for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
    }
    out = out.replace(BEARER_RE, `$1${REDACTED}`);
    out = out.replace(PAIR_RE, (_m, prefix: string, value: string) =>
      value === REDACTED ? `${prefix}${value}` : `${prefix}${REDACTED}`,
    );
    return out;
  }

  function redactDeep<T>(value: T): T {
    if (typeof value === 'string') return redact(value) as T;
    if (Array.isArray(value)) return (value as unknown[]).map((v) => redactDeep(v)) as T;
    if (value instanceof Error) return redact(value.message) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] =
          SECRET_NAMES.includes(k.toLowerCase()) && typeof v === 'string' && v
            ? REDACTED
            : redactDeep(v);
      }
      return out as T;
    }
    return value;
  }

  return {
    addSecret(secret) {
      // Very short strings would scrub ordinary words; real keys are long.
      if (secret && secret.length >= 4) secrets.add(secret);
    },
    removeSecret(secret) {
      secrets.delete(secret);
    },
    redact,
    redactDeep,
  };
}
