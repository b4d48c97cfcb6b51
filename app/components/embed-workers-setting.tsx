// Settings > Embedding: how many embed workers embed the library (every core but one by default;
// the user may lower it to keep the machine responsive). Saved on this device; applies at once.
import { useState } from 'react';
import { embedSettings, setEmbedWorkers } from '../state/actions';

export function EmbedWorkersSetting() {
  const max = embedSettings.maxWorkers();
  const [workers, setWorkers] = useState(() => embedSettings.workers());
  return (
    <div className="card" data-testid="embed-workers-card">
      <h3>Embedding</h3>
      <label>
        Embed workers{' '}
        <select
          value={workers}
          onChange={(e) => {
            const n = Number(e.currentTarget.value);
            setWorkers(n);
            void setEmbedWorkers(n).then(setWorkers);
          }}
          data-testid="embed-workers"
        >
          {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
              {n === max ? ' (all cores but one)' : ''}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">
        Each worker embeds on its own processor core and holds its own copy of the model. Fewer
        workers leave more of this device free while the library is embedded; the results are the
        same.
      </p>
    </div>
  );
}
