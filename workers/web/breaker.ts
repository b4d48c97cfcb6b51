// Circuit breaker per provider (WSOP rate_limiting.circuit_breaker: failure_threshold 5,
// recovery_timeout 30 s). closed -> open after 5 consecutive failures; after 30 s one half-open
// trial is let through; success closes, failure re-opens. Owns: that state machine and its
// snapshot for Settings.
import type { BreakerSnapshot, BreakerState } from '../shared/web-api';
import type { Clock } from './clock';

export interface BreakerConfig {
  failureThreshold: number;
  /** recovery_timeout in the spec (seconds there, ms here). */
  recoveryMs: number;
}

export const DEFAULT_BREAKER: BreakerConfig = { failureThreshold: 5, recoveryMs: 30_000 };

export interface CircuitBreaker {
  /**
   * Asks to send one request. True when closed, or when open long enough and no trial is in flight
   * (the call then becomes the half-open trial). False means: make no request.
   */
  tryAcquire(): boolean;
  onSuccess(): void;
  onFailure(error: { code: string; message: string }): void;
  /** A request that was let through but never ran (aborted before sending): frees a trial slot. */
  release(): void;
  reset(): void;
  snapshot(): BreakerSnapshot;
}

export function createCircuitBreaker(clock: Clock, config = DEFAULT_BREAKER): CircuitBreaker {
  let state: BreakerState = 'closed';
  let failures = 0;
  let openedAt = 0;
  let trialInFlight = false;
  let lastError: BreakerSnapshot['lastError'] = null;

  function open(): void {
    state = 'open';
    openedAt = clock.now();
    trialInFlight = false;
  }

  return {
    tryAcquire() {
      if (state === 'closed') return true;
      if (state === 'open') {
        if (clock.now() - openedAt < config.recoveryMs) return false;
        state = 'half-open';
        trialInFlight = true;
        return true;
      }
      // half-open: only the single trial may be in flight.
      if (trialInFlight) return false;
      trialInFlight = true;
      return true;
    },
    onSuccess() {
      state = 'closed';
      failures = 0;
      trialInFlight = false;
    },
    onFailure(error) {
      failures += 1;
      lastError = { code: error.code, message: error.message, at: clock.now() };
      if (state === 'half-open' || failures >= config.failureThreshold) open();
    },
    release() {
      if (state === 'half-open') trialInFlight = false;
    },
    reset() {
      state = 'closed';
      failures = 0;
      trialInFlight = false;
    },
    snapshot() {
      // Report an open breaker whose recovery time has passed as half-open: the next call is the trial.
      const effective: BreakerState =
        state === 'open' && clock.now() - openedAt >= config.recoveryMs ? 'half-open' : state;
      return {
        state: effective,
        consecutiveFailures: failures,
        retryAt: state === 'open' ? openedAt + config.recoveryMs : null,
        lastError: lastError ? { ...lastError } : null,
      };
    },
  };
}
