// Settings > Source credibility: the spec's tier lists (tier 1 authoritative, weight 1.0 -> grade
// A; tier 2 secondary, 0.8 -> B; tier 3 all others, 0.6 -> C) and the user's overrides, including
// tier 4 (distrusted, 0.3 -> D) and tier 5 (blocked: dropped from results -> E). Subdomains follow
// their domain. Talks only to the WebApi prop.
import { useEffect, useState } from 'react';
import { TitledSection } from '../components/titled-section';
import type { CredibilityTable, CredibilityTier, WebApi } from '../../workers/shared/web-api';

export interface CredibilityEditorProps {
  api: Pick<WebApi, 'getCredibility' | 'setCredibilityOverride'>;
}

export const TIER_LABELS: Record<CredibilityTier, string> = {
  1: 'Tier 1 · authoritative',
  2: 'Tier 2 · secondary',
  3: 'Tier 3 · other',
  4: 'Tier 4 · distrusted',
  5: 'Tier 5 · blocked',
};

const TIERS: CredibilityTier[] = [1, 2, 3, 4, 5];

export function CredibilityEditor({ api }: CredibilityEditorProps) {
  const [table, setTable] = useState<CredibilityTable | null>(null);
  const [domain, setDomain] = useState('');
  const [tier, setTier] = useState<CredibilityTier>(1);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void api.getCredibility().then(setTable);
  }, [api]);

  async function set(d: string, t: CredibilityTier | null): Promise<void> {
    setError(null);
    try {
      setTable(await api.setCredibilityOverride(d, t));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  if (!table) return <p>Loading credibility tiers…</p>;
  return (
    <TitledSection
      className="card credibility"
      title="Source credibility"
      testId="credibility-editor"
    >
      <p className="hint">
        Web results are weighted by the tier of their domain and carry a quality grade:{' '}
        {TIERS.map((t) => `${TIER_LABELS[t]} × ${table.weights[t]} → ${table.grades[t]}`).join(
          '; ',
        )}
        . A domain covers its subdomains.
      </p>
      <form
        className="actions"
        onSubmit={(e) => {
          e.preventDefault();
          if (domain.trim()) void set(domain, tier).then(() => setDomain(''));
        }}
      >
        <input
          value={domain}
          placeholder="example.org"
          onChange={(e) => setDomain(e.target.value)}
          aria-label="Domain"
          data-testid="credibility-domain"
        />
        <TierSelect value={tier} onChange={setTier} label="Tier" />
        <button type="submit">Set tier</button>
      </form>
      {error && <p role="alert">{error}</p>}
      <h4>Your overrides</h4>
      {table.overrides.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <ul>
          {table.overrides.map((o) => (
            <li key={o.domain} data-testid="credibility-override">
              {o.domain}:{' '}
              <TierSelect
                value={o.tier}
                onChange={(t) => void set(o.domain, t)}
                label={`Tier of ${o.domain}`}
              />{' '}
              <button type="button" onClick={() => void set(o.domain, null)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <h4>Built-in lists</h4>
      <ul>
        {([1, 2] as const).map((t) => (
          <li key={t}>
            {TIER_LABELS[t]}:{' '}
            {table.defaults
              .filter((d) => d.tier === t)
              .map((d) => d.domain)
              .join(', ')}
          </li>
        ))}
        <li>{TIER_LABELS[3]}: every other domain</li>
      </ul>
    </TitledSection>
  );
}

function TierSelect(props: {
  value: CredibilityTier;
  onChange: (tier: CredibilityTier) => void;
  label: string;
}) {
  return (
    <select
      value={props.value}
      onChange={(e) => props.onChange(Number(e.target.value) as CredibilityTier)}
      aria-label={props.label}
    >
      {TIERS.map((t) => (
        <option key={t} value={t}>
          {TIER_LABELS[t]}
        </option>
      ))}
    </select>
  );
}
