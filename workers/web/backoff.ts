// Exponential backoff with jitter and Retry-After parsing (WSOP rate_limiting.exponential_backoff:
// base 1 s, max 60 s, jitter 0.5). Owns: delay arithmetic only; sleeping is the caller's, on the
// injected clock.
import type { RandomSource } from './clock';

export interface BackoffConfig {
  /** base_delay in the spec, seconds there, ms here. */
  baseMs: number;
  /** max_delay in the spec. */
  maxMs: number;
  /** jitter in the spec: the fraction of the delay that is randomised (0..1). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffConfig = { baseMs: 1000, maxMs: 60_000, jitter: 0.5 };

/**
 * Delay before retry number `attempt` (0 = first retry): min(max, base * 2^attempt), of which a
 * `jitter` fraction is random, i.e. uniformly within [(1 - jitter) * d, d]. Never above maxMs.
 */
export function backoffDelay(
  attempt: number,
  random: RandomSource,
  config = DEFAULT_BACKOFF,
): number {
  const exp = Math.min(config.maxMs, config.baseMs * 2 ** Math.max(0, attempt));
  const r = Math.min(Math.max(random(), 0), 1);
  return exp * (1 - config.jitter) + exp * config.jitter * r;
}

/**
 * Parses a Retry-After header (RFC 9110 10.2.3): delta-seconds or an HTTP-date.
 * Returns ms to wait from `now`, or null when absent or unreadable. Past dates give 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // Only the HTTP-date forms; Date.parse accepts IMF-fixdate, RFC 850 and asctime.
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
