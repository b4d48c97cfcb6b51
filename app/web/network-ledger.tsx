// Settings > Network ledger: every outbound request Sift made (time, host, path, purpose,
// bytes), exportable as JSON, so the user can check nothing else left the device. Keys and
// query strings are never in the ledger (the worker strips them). Talks only to the WebApi prop.
import { useCallback } from 'react';
import type { LedgerEntry, WebApi } from '../../workers/shared/web-api';
import { formatBytes } from '../../workers/shared/format-bytes';
import { TitledSection } from '../components/titled-section';
import { usePolled } from '../lib/use-polled';

export interface NetworkLedgerProps {
  api: Pick<WebApi, 'getLedger' | 'exportLedger' | 'clearLedger'>;
  /** Refresh interval, default 3000 ms; 0 disables polling. */
  pollMs?: number;
}

export function NetworkLedgerView({ api, pollMs = 3000 }: NetworkLedgerProps) {
  const load = useCallback(() => api.getLedger(), [api]);
  const [entries, , refresh] = usePolled<LedgerEntry[]>(load, [], pollMs);

  async function download(): Promise<void> {
    const json = await api.exportLedger();
    const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `sift-network-ledger-${new Date().toISOString().slice(0, 10)}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  const sent = entries.reduce((n, e) => n + e.bytesSent, 0);
  const received = entries.reduce((n, e) => n + e.bytesReceived, 0);

  return (
    <TitledSection className="card network-ledger" title="Network ledger" testId="network-ledger">
      <p className="hint">
        Every request Sift sent from this device since it started: {entries.length} requests,{' '}
        {formatBytes(sent)} sent, {formatBytes(received)} received. API keys and search words are
        never recorded here.
      </p>
      <div className="actions">
        <button type="button" onClick={refresh}>
          Refresh
        </button>
        <button type="button" onClick={() => void download()} disabled={entries.length === 0}>
          Export
        </button>
        <button
          type="button"
          onClick={() => void api.clearLedger().then(refresh)}
          disabled={entries.length === 0}
        >
          Clear
        </button>
      </div>
      {entries.length === 0 ? (
        <p className="empty" data-testid="ledger-empty">
          No requests yet: nothing has left this device.
        </p>
      ) : (
        <table className="doc-table">
          <thead>
            <tr>
              <th>Time</th>
              <th>Host</th>
              <th>Path</th>
              <th>Purpose</th>
              <th>Sent</th>
              <th>Received</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {[...entries].reverse().map((e) => (
              <tr key={e.id} data-testid="ledger-row">
                <td>{new Date(e.time).toLocaleTimeString()}</td>
                <td>{e.host}</td>
                <td className="ledger-path">
                  {e.method} {e.path}
                </td>
                <td>{e.purpose}</td>
                <td>{formatBytes(e.bytesSent)}</td>
                <td data-testid="ledger-received">{formatBytes(e.bytesReceived)}</td>
                <td>
                  {e.outcome === 'ok'
                    ? (e.status ?? 'ok')
                    : `${e.outcome}${e.status ? ` (${e.status})` : ''}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </TitledSection>
  );
}
