// The embedding settings kept over reloads: the worker count is hardwareConcurrency - 1 unless
// the user chose fewer (never more than the device allows, never 0), and the pause hold.
import { describe, expect, it } from 'vitest';
import { createEmbedSettings } from './embed-settings';

function flags() {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string) => void m.set(k, v) };
}

describe('createEmbedSettings', () => {
  it('uses every core but one by default and keeps the user choice within 1..max', () => {
    const store = flags();
    const s = createEmbedSettings({ hardwareConcurrency: 8, flags: store });
    expect(s.maxWorkers()).toBe(7);
    expect(s.workers()).toBe(7);
    expect(s.setWorkers(3)).toBe(3);
    // A reload (a new settings object over the same storage) keeps the choice.
    expect(createEmbedSettings({ hardwareConcurrency: 8, flags: store }).workers()).toBe(3);
    expect(s.setWorkers(0)).toBe(1);
    expect(s.setWorkers(99)).toBe(7);
    // A saved choice above what another device allows is clamped there.
    expect(createEmbedSettings({ hardwareConcurrency: 2, flags: store }).workers()).toBe(1);
  });

  it('keeps a pause over reloads until resumed', () => {
    const store = flags();
    const s = createEmbedSettings({ hardwareConcurrency: 4, flags: store });
    expect(s.held()).toBe(false);
    s.setHeld(true);
    expect(createEmbedSettings({ hardwareConcurrency: 4, flags: store }).held()).toBe(true);
    s.setHeld(false);
    expect(s.held()).toBe(false);
  });

  it('keeps a cancel over reloads too, told apart from a pause, until embedding resumes', () => {
    const store = flags();
    const s = createEmbedSettings({ hardwareConcurrency: 4, flags: store });
    s.setCancelled();
    const reloaded = createEmbedSettings({ hardwareConcurrency: 4, flags: store });
    expect([reloaded.held(), reloaded.cancelled()]).toEqual([true, true]);
    s.setHeld(true);
    expect([s.held(), s.cancelled()]).toEqual([true, false]);
    s.setCancelled();
    s.setHeld(false);
    expect([s.held(), s.cancelled()]).toEqual([false, false]);
  });
});
