// Whether any web provider is on, as last seen: an ask skips starting the web worker when none is.
// The web worker keeps the providers' settings; this is a hint kept beside them, recorded whenever
// the worker lists its providers (its start, the Settings view). Never seen (a new device, cleared
// storage): the worker is started and asked, as before. The flag store (localStorage) is injected.
import type { FlagStore } from './storage-persistence';

const KEY = 'sift.web.enabled';

export interface WebProvidersFlag {
  /** No provider was on when they were last listed (unknown is not off). */
  knownOff(): boolean;
  /** Records what a listing of the providers says. */
  record(providers: ReadonlyArray<{ enabled: boolean }>): void;
}

export function createWebProvidersFlag(flags: FlagStore): WebProvidersFlag {
  return {
    knownOff: () => flags.get(KEY) === '0',
    record: (providers) => flags.set(KEY, providers.some((p) => p.enabled) ? '1' : '0'),
  };
}
