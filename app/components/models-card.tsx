// Settings > Models: the embedding model in use, how much of the library it has embedded, and
// the determinism self-test (golden SHA-256 hashes of int16 vectors, identical on every device).
import { useState } from 'react';
import { embedClients } from '../clients';
import { useAppStore } from '../state/app-store';
import type { EmbedSelfTestResult } from '../../workers/shared/embed-api';

export function ModelsCard() {
  const semantic = useAppStore((s) => s.semantic);
  const notifyError = useAppStore((s) => s.notifyError);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<EmbedSelfTestResult | null>(null);
  const model = semantic?.model;
  const runSelfTest = async () => {
    setRunning(true);
    setResult(null);
    try {
      const first = embedClients()[0];
      if (first) setResult(await first.selfTest());
    } catch (err) {
      notifyError(err);
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className="card" data-testid="models-card">
      <h3>Models</h3>
      <table className="doc-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Dimensions</th>
            <th scope="col">Size</th>
            <th scope="col">Embedded</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              Universal Sentence Encoder lite{' '}
              <small>({model ? `${model.id} ${model.version}` : 'loading'})</small>
              <div className="path">
                Ships with Sift · canonical WebAssembly runtime · works offline
              </div>
            </td>
            <td>{model?.dim ?? 512}</td>
            <td>28 MB</td>
            <td data-testid="models-embedded">
              {semantic ? `${semantic.embedded}/${semantic.total} chunks` : '—'}
            </td>
            <td>Active</td>
          </tr>
        </tbody>
      </table>
      <p className="hint">
        USE-lite is a small general-purpose model: it helps with paraphrases but was not trained for
        scientific retrieval. Keyword search stays part of every hybrid search.
      </p>
      <button onClick={() => void runSelfTest()} disabled={running} data-testid="self-test">
        {running ? 'Running self-test…' : 'Run determinism self-test'}
      </button>
      {result && (
        <p
          data-testid="self-test-result"
          data-ok={String(result.ok)}
          data-hashes={result.hashes.join(',')}
          role="status"
        >
          {result.ok
            ? `Self-test passed: all ${result.total} vectors are byte-identical to the reference.`
            : `Self-test FAILED: ${result.mismatches.length} of ${result.total} vectors differ from the reference. Please report this device and browser.`}
        </p>
      )}
    </div>
  );
}
