// Settings > Web search: one card per provider with its enable switch, API key (write-only: the
// saved key is never shown again), base URL / proxy, key-to-proxy trust, rate limit, and the
// circuit breaker's state and last error in plain words. Talks only to the WebApi prop.
import { webProvidersFlag } from '../lib/browser-flags';
import { useCallback, useState } from 'react';
import type { ProviderStatus, WebApi } from '../../workers/shared/web-api';
import { usePolled } from '../lib/use-polled';

export interface ProviderSettingsProps {
  api: Pick<WebApi, 'listProviders' | 'updateProvider' | 'resetBreaker'>;
  /** Refresh interval for breaker state, default 5000 ms; 0 disables polling. */
  pollMs?: number;
}

function explain(code: string, host: string | null): string {
  switch (code) {
    case 'CORS_BLOCKED':
      return `The browser blocked the answer from ${host ?? 'this service'}: it does not allow web pages to call it directly. Set a base URL that points to a proxy you run (or your own instance) that adds CORS headers.`;
    case 'AUTH_FAILED':
      return 'The service rejected the API key. Paste a new key.';
    case 'KEY_HOST_REFUSED':
      return 'The key was not sent because the base URL is on another host. Tick “Send my key to this base URL” only if you run or trust that proxy.';
    case 'RATE_LIMITED':
      return 'The service asked Sift to slow down. Sift waits and retries by itself.';
    case 'OFFLINE':
      return 'You were offline.';
    default:
      return '';
  }
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

interface CardProps {
  status: ProviderStatus;
  api: ProviderSettingsProps['api'];
  onChange: (next: ProviderStatus) => void;
  refresh: () => void;
}

type ProviderPatch = Parameters<WebApi['updateProvider']>[1];

function ProviderCard({ status, api, onChange, refresh }: CardProps) {
  const [error, setError] = useState<string | null>(null);

  async function apply(patch: ProviderPatch): Promise<void> {
    setError(null);
    try {
      onChange(await api.updateProvider(status.id, patch));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  const host = hostOf(status.effectiveBaseUrl);
  const customHost =
    status.baseUrl !== null &&
    status.defaultBaseUrl !== null &&
    host !== new URL(status.defaultBaseUrl).host;

  return (
    <div className="card web-provider" data-testid={`web-provider-${status.id}`}>
      <ProviderHead status={status} apply={apply} />
      {status.keyRequirement !== 'none' && <ProviderKeyForm status={status} apply={apply} />}
      <ProviderBaseUrlForm status={status} apply={apply} />

      {customHost && status.keyRequirement !== 'none' && (
        <label className="web-provider-row">
          <input
            type="checkbox"
            checked={status.sendKeyToCustomBaseUrl}
            onChange={(e) => void apply({ sendKeyToCustomBaseUrl: e.target.checked })}
          />{' '}
          Send my key to this base URL ({host}). Only if you run or trust it: it will see your key.
        </label>
      )}

      <p className="hint">
        Sends at most one request every {status.minIntervalMs} ms ({status.rateLimitNote}).{' '}
        <a href={status.docsUrl} target="_blank" rel="noopener noreferrer">
          Provider documentation
        </a>
      </p>

      <BreakerNotes
        status={status}
        host={host}
        onRetry={() => void api.resetBreaker(status.id).then(refresh)}
      />
      {error && (
        <p className="web-provider-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface PartProps {
  status: ProviderStatus;
  apply: (patch: ProviderPatch) => Promise<void>;
}

/** The enable switch with the provider's name, and its circuit breaker's state in words. */
function ProviderHead({ status, apply }: PartProps) {
  const state = status.breaker.state;
  return (
    <div className="web-provider-head">
      <label>
        <input
          type="checkbox"
          checked={status.enabled}
          onChange={(e) => void apply({ enabled: e.target.checked })}
          data-testid={`web-provider-enable-${status.id}`}
        />{' '}
        <strong>{status.label}</strong>
      </label>
      <span className={`breaker breaker-${state}`} data-testid={`web-breaker-${status.id}`}>
        {state === 'closed'
          ? 'working'
          : state === 'open'
            ? 'paused after repeated failures'
            : 'will retry on next search'}
      </span>
    </div>
  );
}

/** The write-only key: the draft is cleared once saved, and the saved key is never shown. */
function ProviderKeyForm({ status, apply }: PartProps) {
  const [keyDraft, setKeyDraft] = useState('');
  return (
    <form
      className="web-provider-row"
      onSubmit={(e) => {
        e.preventDefault();
        if (keyDraft.trim()) void apply({ apiKey: keyDraft }).then(() => setKeyDraft(''));
      }}
    >
      <label>
        API key {status.keyRequirement === 'optional' ? '(optional)' : ''}{' '}
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={keyDraft}
          placeholder={status.hasKey ? 'saved on this device' : 'paste your key'}
          onChange={(e) => setKeyDraft(e.target.value)}
          data-testid={`web-provider-key-${status.id}`}
        />
      </label>
      <button type="submit" disabled={!keyDraft.trim()}>
        Save key
      </button>
      {status.hasKey && (
        <button type="button" onClick={() => void apply({ apiKey: '' })}>
          Remove key
        </button>
      )}
    </form>
  );
}

function ProviderBaseUrlForm({ status, apply }: PartProps) {
  const [baseDraft, setBaseDraft] = useState(status.baseUrl ?? '');
  return (
    <form
      className="web-provider-row"
      onSubmit={(e) => {
        e.preventDefault();
        void apply({ baseUrl: baseDraft.trim() || null });
      }}
    >
      <label>
        Base URL or proxy{' '}
        <input
          type="url"
          value={baseDraft}
          placeholder={status.defaultBaseUrl ?? 'https://your-instance.example'}
          onChange={(e) => setBaseDraft(e.target.value)}
          data-testid={`web-provider-base-${status.id}`}
        />
      </label>
      <button type="submit">Save URL</button>
      {status.baseUrl && (
        <button
          type="button"
          onClick={() => {
            setBaseDraft('');
            void apply({ baseUrl: null });
          }}
        >
          Use default
        </button>
      )}
    </form>
  );
}

/** The breaker's last error explained, and when it is not closed, a way to retry now. */
function BreakerNotes({
  status,
  host,
  onRetry,
}: {
  status: ProviderStatus;
  host: string | null;
  onRetry: () => void;
}) {
  const b = status.breaker;
  return (
    <>
      {b.lastError && (
        <p className="web-provider-error" data-testid={`web-provider-error-${status.id}`}>
          Last error ({new Date(b.lastError.at).toLocaleTimeString()}): {b.lastError.message}{' '}
          {explain(b.lastError.code, host)}
        </p>
      )}
      {b.state !== 'closed' && (
        <p className="hint">
          {b.retryAt ? `Sift tries again after ${new Date(b.retryAt).toLocaleTimeString()}. ` : ''}
          <button type="button" onClick={onRetry}>
            Try again now
          </button>
        </p>
      )}
    </>
  );
}

export function WebProviderSettings({ api, pollMs = 5000 }: ProviderSettingsProps) {
  // Each listing says whether any provider is on: an ask starts the web worker only then.
  const load = useCallback(
    () =>
      api.listProviders().then((list) => {
        webProvidersFlag.record(list);
        return list;
      }),
    [api],
  );
  const [providers, setProviders, refresh] = usePolled<ProviderStatus[] | null>(load, null, pollMs);

  const replace = (next: ProviderStatus): void =>
    setProviders((list) => {
      const updated = (list ?? []).map((p) => (p.id === next.id ? next : p));
      webProvidersFlag.record(updated);
      return updated;
    });

  return (
    <section className="web-settings" aria-label="Web search providers" data-testid="web-settings">
      <h3>Web search</h3>
      <p className="hint">
        Off by default. A provider you turn on receives your search words; its key stays on this
        device and is sent only to that provider’s own address. Every request appears in the network
        ledger.
      </p>
      {providers === null ? (
        <p>Loading providers…</p>
      ) : (
        providers.map((p) => (
          <ProviderCard key={p.id} status={p} api={api} onChange={replace} refresh={refresh} />
        ))
      )}
    </section>
  );
}
