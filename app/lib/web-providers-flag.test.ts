// The web providers hint: unknown until a listing is recorded, then off only when no provider is on.
import { describe, expect, it } from 'vitest';
import { createWebProvidersFlag } from './web-providers-flag';

function flags() {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string) => void m.set(k, v) };
}

describe('web providers flag', () => {
  it('is not known off before any listing, then follows the last listing', () => {
    const store = flags();
    const flag = createWebProvidersFlag(store);
    expect(flag.knownOff()).toBe(false);
    flag.record([{ enabled: false }, { enabled: false }]);
    expect(flag.knownOff()).toBe(true);
    // Another tab (a new flag over the same storage) sees it too.
    expect(createWebProvidersFlag(store).knownOff()).toBe(true);
    flag.record([{ enabled: false }, { enabled: true }]);
    expect(flag.knownOff()).toBe(false);
    flag.record([]);
    expect(flag.knownOff()).toBe(true);
  });
});
