// Settings > Models: the embedding models (installed, active, download, import, delete: see
// app/models/models-panel.tsx), how much of the library the active model has embedded, and the
// self-test of the active model (golden SHA-256 hashes for USE-lite; repeatability and the
// transformers.js comparison for BERT-family models).
import { useState } from 'react';
import { Comlink, modelsClient } from '../clients';
import { ModelsPanel, type ModelsApi } from '../models/models-panel';
import { SelfTestResult } from '../models/self-test-result';
import { useAppStore } from '../state/app-store';
import type { EmbedSelfTestResult } from '../../workers/shared/embed-api';

export interface ModelsCardProps {
  /**
   * Switches the library to model `id`: the db worker pauses the semantic index, activates the
   * model on every embed worker and re-embeds in the background. Without it, switching is off
   * (activating only the embed workers would mix vectors of two models in one index).
   */
  onActivate?: (id: string) => Promise<unknown>;
}

/**
 * The Models card's API: each call goes to the oldest live embed worker, since the pool may
 * replace a worker after a fault. Downloads reach the network ledger from the worker's fetch
 * layer, one row per file (workers/shared/ledgered-fetch.ts).
 */
function poolModelsApi(): ModelsApi {
  return {
    listModels: () => modelsClient().listModels(),
    catalogue: () => modelsClient().catalogue(),
    importModelFiles: (profileId, files) => modelsClient().importModelFiles(profileId, files),
    deleteModel: (id) => modelsClient().deleteModel(id),
    selfTest: (id) => modelsClient().selfTest(id),
    cancel: (jobId) => modelsClient().cancel(jobId),
    // one worker for the whole download, so its progress and cancel reach the same job
    downloadModel: (profileId, onProgress, baseUrl, jobId) =>
      modelsClient().downloadModel(profileId, onProgress, baseUrl, jobId),
  };
}

export function ModelsCard(props: ModelsCardProps = {}) {
  const semantic = useAppStore((s) => s.semantic);
  const notifyError = useAppStore((s) => s.notifyError);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<EmbedSelfTestResult | null>(null);
  const [api] = useState(poolModelsApi);
  const runSelfTest = async () => {
    setRunning(true);
    setResult(null);
    try {
      setResult(await modelsClient().selfTest());
    } catch (err) {
      notifyError(err);
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className="card" data-testid="models-card">
      <h3>Models</h3>
      {api && (
        <ModelsPanel
          api={api}
          proxy={Comlink.proxy}
          onError={notifyError}
          {...(props.onActivate ? { onActivate: props.onActivate } : {})}
          {...(semantic
            ? { embeddedLabel: `${semantic.embedded}/${semantic.total} chunks embedded` }
            : {})}
          {...(semantic?.model ? { embeddedModelId: semantic.model.id } : {})}
        />
      )}
      <p className="hint">
        The built-in model (USE-lite) is small and general-purpose: it helps with paraphrases but
        was not trained for scientific retrieval. Keyword search stays part of every hybrid search.
      </p>
      <button onClick={() => void runSelfTest()} disabled={running} data-testid="self-test">
        {running ? 'Running self-test…' : 'Run determinism self-test (active model)'}
      </button>
      {result && <SelfTestResult result={result} testId="self-test-result" />}
    </div>
  );
}
