// One polled-refresh hook for views that mirror worker state (network ledger, web providers):
// loads once on mount, then every `pollMs` (0 disables polling); results that arrive after the
// view unmounted are dropped. Owns only the timer and the latest value.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Dispatch, SetStateAction } from 'react';

export function usePolled<T>(
  load: () => Promise<T>,
  initial: T,
  pollMs: number,
): [T, Dispatch<SetStateAction<T>>, () => void] {
  const [value, setValue] = useState<T>(initial);
  const alive = useRef(true);
  const refresh = useCallback(() => {
    void load().then((next) => {
      if (alive.current) setValue(next);
    });
  }, [load]);

  useEffect(() => {
    alive.current = true;
    refresh();
    const t = pollMs ? setInterval(refresh, pollMs) : undefined;
    return () => {
      alive.current = false;
      if (t !== undefined) clearInterval(t);
    };
  }, [refresh, pollMs]);

  return [value, setValue, refresh];
}
