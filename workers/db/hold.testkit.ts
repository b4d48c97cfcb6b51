// A gate that fake workers in tests wait on: `hold()` closes it, `release()` opens it and lets
// every waiter go. Test support only.

export interface Hold {
  /** The promise to wait on while held, null when open. */
  current(): Promise<void> | null;
  hold(): void;
  release(): void;
}

export function createHold(): Hold {
  let gate: Promise<void> | null = null;
  let open = () => {};
  return {
    current: () => gate,
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    release() {
      gate = null;
      open();
    },
  };
}
