// The network ledger: one line per outbound request Sift made (time, host, path, purpose,
// bytes), so the user can check that nothing else left the device. Owns: the bounded entry
// list and its JSON export. Never stores keys, query strings or bodies.
import type { ExternalLedgerRecord, LedgerEntry } from '../shared/web-api';
import type { Clock } from './clock';
import type { Redactor } from './redact';

export interface LedgerInput {
  url: string;
  method: string;
  purpose: string;
  bytesSent: number;
  bytesReceived: number;
  status: number | null;
  outcome: string; // 'ok', an ErrorCode or HTTP_<status>
  time: number;
  durationMs: number;
}

export interface NetworkLedger {
  record(input: LedgerInput): LedgerEntry;
  /** For callers outside the web worker (model downloads): same sanitising as `record`. */
  recordExternal(record: ExternalLedgerRecord): LedgerEntry;
  list(): LedgerEntry[];
  /** Restores entries saved by an earlier session (invalid ones are skipped). */
  load(saved: unknown): void;
  exportJson(): string;
  clear(): void;
  subscribe(listener: (entry: LedgerEntry) => void): () => void;
  onClear(listener: () => void): void;
}

export interface LedgerDeps {
  clock: Clock;
  redactor: Redactor;
  /** Oldest entries are dropped past this many. Default 5000. */
  maxEntries?: number;
}

export function createNetworkLedger({
  clock,
  redactor,
  maxEntries = 5000,
}: LedgerDeps): NetworkLedger {
  let entries: LedgerEntry[] = [];
  let nextId = 1;
  const listeners = new Set<(entry: LedgerEntry) => void>();
  const clearListeners = new Set<() => void>();

  function record(input: LedgerInput): LedgerEntry {
    let host = '(invalid url)';
    let path = '';
    try {
      const u = new URL(input.url);
      host = u.host;
      // The query string may carry a key (or the user's search words): keep the path only.
      path = u.pathname;
    } catch {
      // keep placeholders
    }
    const entry: LedgerEntry = {
      id: nextId++,
      time: input.time,
      host,
      path: redactor.redact(path),
      method: input.method.toUpperCase(),
      purpose: redactor.redact(input.purpose),
      bytesSent: Math.max(0, Math.round(input.bytesSent)),
      bytesReceived: Math.max(0, Math.round(input.bytesReceived)),
      status: input.status,
      outcome: input.outcome,
      durationMs: Math.max(0, input.durationMs),
    };
    entries.push(entry);
    if (entries.length > maxEntries) entries = entries.slice(entries.length - maxEntries);
    for (const listener of listeners) listener(entry);
    return entry;
  }

  return {
    record,
    recordExternal(r) {
      return record({
        url: r.url,
        method: r.method ?? 'GET',
        purpose: r.purpose,
        bytesSent: r.bytesSent ?? 0,
        bytesReceived: r.bytesReceived ?? 0,
        status: r.status ?? null,
        outcome: r.outcome ?? 'ok',
        time: r.time ?? clock.now(),
        durationMs: r.durationMs ?? 0,
      });
    },
    list: () => entries.map((e) => ({ ...e })),
    load(saved) {
      if (!Array.isArray(saved)) return;
      const ok = saved.filter(
        (e): e is LedgerEntry =>
          typeof e === 'object' &&
          e !== null &&
          typeof (e as LedgerEntry).id === 'number' &&
          typeof (e as LedgerEntry).time === 'number' &&
          typeof (e as LedgerEntry).host === 'string' &&
          typeof (e as LedgerEntry).path === 'string' &&
          typeof (e as LedgerEntry).purpose === 'string',
      );
      entries = [...ok, ...entries].slice(-maxEntries);
      nextId = Math.max(nextId, ...entries.map((e) => e.id + 1));
    },
    exportJson: () =>
      redactor.redact(
        JSON.stringify(
          { format: 'sift-network-ledger', version: 1, exportedAt: clock.now(), entries },
          null,
          2,
        ),
      ),
    clear() {
      entries = [];
      for (const listener of clearListeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClear(listener) {
      clearListeners.add(listener);
    },
  };
}
