// The user's embedding choices kept across reloads: how many embed workers the backlog may use
// (at most hardwareConcurrency - 1, so the UI keeps a core; the user may lower it) and whether
// embedding is on hold (paused, or cancelled: neither restarts by itself after a reload). The flag
// store (localStorage in the app) is injected.
import { embedWorkerCount } from '../../workers/shared/embed-api';
import type { FlagStore } from './storage-persistence';

const WORKERS = 'sift.embed.workers';
const HOLD = 'sift.embed.hold';

export interface EmbedSettings {
  /** The most workers this device allows (hardwareConcurrency - 1, at least 1). */
  maxWorkers(): number;
  /** The workers to run: the user's choice within 1..maxWorkers, else maxWorkers. */
  workers(): number;
  /** Saves the user's choice (clamped) and returns what will run. */
  setWorkers(n: number): number;
  /** The user paused or cancelled embedding and has not resumed it. */
  held(): boolean;
  /** The hold is a cancel: the run was stopped, not paused (the UI says so, with no ETA). */
  cancelled(): boolean;
  /** Pause (true) or resume (false). */
  setHeld(held: boolean): void;
  /** Cancel: held like a pause, kept over reloads, but said as a stopped run. */
  setCancelled(): void;
}

export function createEmbedSettings(deps: {
  hardwareConcurrency: number;
  flags: FlagStore;
}): EmbedSettings {
  const max = () => embedWorkerCount(deps.hardwareConcurrency || 2);
  const clamp = (n: number) => Math.max(1, Math.min(max(), Math.floor(n)));
  return {
    maxWorkers: max,
    workers() {
      const saved = Number(deps.flags.get(WORKERS) ?? '');
      return Number.isFinite(saved) && saved >= 1 ? clamp(saved) : max();
    },
    setWorkers(n) {
      const value = clamp(Number.isFinite(n) ? n : max());
      deps.flags.set(WORKERS, String(value));
      return value;
    },
    held: () => deps.flags.get(HOLD) === '1' || deps.flags.get(HOLD) === 'cancelled',
    cancelled: () => deps.flags.get(HOLD) === 'cancelled',
    setHeld: (held) => deps.flags.set(HOLD, held ? '1' : ''),
    setCancelled: () => deps.flags.set(HOLD, 'cancelled'),
  };
}
