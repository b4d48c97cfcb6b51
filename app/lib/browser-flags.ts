// localStorage as a flag store, quiet where it is unavailable (private mode: a choice lasts one
// session), and the flags the app keeps in it.
import type { FlagStore } from './storage-persistence';
import { createWebProvidersFlag } from './web-providers-flag';

export const browserFlags: FlagStore = {
  get: (k) => {
    try {
      return localStorage.getItem(k);
    } catch {
      return null;
    }
  },
  set: (k, v) => {
    try {
      localStorage.setItem(k, v);
    } catch {
      // private mode: we may ask again next session, which is harmless
    }
  },
};

/** Whether any web provider was on when last listed (see web-providers-flag.ts). */
export const webProvidersFlag = createWebProvidersFlag(browserFlags);
