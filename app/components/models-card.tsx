// Settings > Models: the embedding models (installed, active, download, import, delete: see
// app/models/models-panel.tsx), how much of the library the active model has embedded, and the
// self-test of the active model (golden SHA-256 hashes for USE-lite; repeatability and the
// transformers.js comparison for BERT-family models).
import { useState } from 'react';
import { Comlink, modelsClient, webClient } from '../clients';
import { ModelsPanel, type ModelsApi } from '../models/models-panel';
import { SelfTestResult } from '../models/self-test-result';
import { useAppStore } from '../state/app-store';
import type { EmbedSelfTestResult, EmbedWorkerApi } from '../../workers/shared/embed-api';

export interface ModelsCardProps {
  /**
   * Switches the library to model `id`: the db worker pauses the semantic index, activates the
   * model on every embed worker and re-embeds in the background. Without it, switching is off
   * (activating only the embed workers would mix vectors of two models in one index).
   */
  onActivate?: (id: string) => Promise<unknown>;
}

/**
 * The embed worker's model API, with every model download written to the network ledger
 * (Settings > Network ledger lists everything that left the device, downloads included).
 */
function withLedger(worker: () => Comlink.Remote<EmbedWorkerApi>): ModelsApi {
  return {
    listModels: () => worker().listModels(),
    catalogue: () => worker().catalogue(),
    importModelFiles: (profileId, files) => worker().importModelFiles(profileId, files),
    deleteModel: (id) => worker().deleteModel(id),
    selfTest: (id) => worker().selfTest(id),
    cancel: (jobId) => worker().cancel(jobId),
    async downloadModel(profileId, onProgress, baseUrl = 'https://huggingface.co', jobId) {
      const api = worker(); // one worker for the whole download (and its ledger entry)
      const time = Date.now();
      const repo = (await api.catalogue()).find((e) => e.id === profileId)?.repo ?? profileId;
      const record = (outcome: string, bytesReceived?: number) =>
        void webClient()
          .recordExternal({
            url: `${baseUrl.replace(/\/+$/, '')}/${repo}`,
            method: 'GET',
            purpose: `model download (${profileId})`,
            outcome,
            time,
            durationMs: Date.now() - time,
            ...(bytesReceived !== undefined ? { bytesReceived } : {}),
          })
          .catch(() => undefined);
      try {
        const model = await api.downloadModel(profileId, onProgress, baseUrl, jobId);
        record('ok', model.sizeBytes);
        return model;
      } catch (err) {
        record((err as { code?: string }).code ?? 'error');
        throw err;
      }
    },
  };
}

export function ModelsCard(props: ModelsCardProps = {}) {
  const semantic = useAppStore((s) => s.semantic);
  const notifyError = useAppStore((s) => s.notifyError);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<EmbedSelfTestResult | null>(null);
  // The pool may replace a worker (after a fault): each call goes to the oldest live one.
  const [ledgered] = useState(() => withLedger(modelsClient));
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
      {ledgered && (
        <ModelsPanel
          api={ledgered}
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
