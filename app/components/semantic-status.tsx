// Shows the embedding backlog while it is being worked through: chunks done / total, the rate and
// the time left, how many embed workers run it, Pause / Resume / Cancel, and that search meanwhile
// uses meaning only for the embedded part (keywords for the rest). Also why semantic search is not
// available when it is not.
import { cancelEmbedding, pauseEmbedding } from '../state/actions';
import { useAppStore } from '../state/app-store';
import { formatTimeLeft } from '../lib/format';
import type { SemanticStatus } from '../../workers/shared/semantic-api';

const count = (n: number) => n.toLocaleString('en');

export function SemanticStatusBar() {
  const s = useAppStore((st) => st.semantic);
  const cancelled = useAppStore((st) => st.embeddingCancelled) && s?.phase === 'paused';
  if (!s) return null;
  if (s.phase === 'ready' && !s.message) return null;
  const partial = s.embedded < s.total && (s.phase === 'embedding' || s.phase === 'paused');
  return (
    <section
      className="semantic-status"
      data-testid="semantic-status"
      data-phase={s.phase}
      data-cancelled={cancelled ? 'true' : undefined}
      aria-label="Semantic indexing"
    >
      <div className="row">
        <strong aria-live="polite">
          {s.phase === 'indexing' && 'Loading the semantic index…'}
          {s.phase === 'embedding' && 'Embedding your library for meaning search…'}
          {s.phase === 'paused' && (cancelled ? 'Embedding cancelled' : 'Embedding paused')}
          {s.phase === 'error' && 'Semantic indexing stopped'}
          {s.phase === 'starting' && (s.message ?? 'Starting semantic search…')}
          {s.phase === 'ready' && 'Semantic search ready'}
        </strong>
        <span data-testid="semantic-counts" data-embedded={s.embedded} data-total={s.total}>
          {count(s.embedded)} / {count(s.total)} chunks embedded
        </span>
        {s.phase === 'embedding' && <EmbeddingRate s={s} />}
        <EmbeddingControls phase={s.phase} cancelled={cancelled} />
      </div>
      <SemanticProgress s={s} />
      {partial && (
        <p className="hint" data-testid="semantic-partial">
          Search works meanwhile: meaning search covers the {count(s.embedded)} embedded chunks, the
          other {count(s.total - s.embedded)} are found by keywords only.
        </p>
      )}
      {s.message && s.phase !== 'starting' && <p className="hint">{s.message}</p>}
    </section>
  );
}

function EmbeddingRate({ s }: { s: SemanticStatus }) {
  return (
    <span data-testid="semantic-rate">
      {s.ratePerSecond !== null
        ? `${s.ratePerSecond.toFixed(s.ratePerSecond < 10 ? 1 : 0)} chunks/s · ${formatTimeLeft(s.etaSeconds ?? Number.NaN)} left`
        : 'measuring speed…'}
      {` · ${s.workers} worker${s.workers === 1 ? '' : 's'}`}
    </span>
  );
}

/** Pause and Cancel while embedding; Resume when paused, Retry after an error. */
function EmbeddingControls({
  phase,
  cancelled,
}: {
  phase: SemanticStatus['phase'];
  cancelled: boolean;
}) {
  if (phase === 'embedding') {
    return (
      <>
        <button
          onClick={() => void pauseEmbedding(true)}
          data-testid="semantic-pause"
          aria-label="Pause embedding"
          title="Stays paused after a reload until you resume"
        >
          Pause
        </button>
        <button
          onClick={() => void cancelEmbedding()}
          data-testid="semantic-cancel"
          aria-label="Cancel embedding"
          title="Stops this run; what is embedded stays, the rest waits until you embed it (also after a reload)"
        >
          Cancel
        </button>
      </>
    );
  }
  if (phase === 'paused' || phase === 'error') {
    return (
      <button
        onClick={() => void pauseEmbedding(false)}
        data-testid="semantic-resume"
        aria-label={
          phase === 'error'
            ? 'Retry embedding'
            : cancelled
              ? 'Embed the rest of the library'
              : 'Resume embedding'
        }
      >
        {phase === 'error' ? 'Retry' : cancelled ? 'Embed the rest' : 'Resume'}
      </button>
    );
  }
  return null;
}

/** Chunks embedded while embedding; index entries loaded while loading the index. */
function SemanticProgress({ s }: { s: SemanticStatus }) {
  if (s.phase === 'embedding') {
    const pct = s.total > 0 ? Math.floor((s.embedded / s.total) * 100) : 0;
    return (
      <progress
        max={100}
        value={pct}
        aria-label="Chunks embedded"
        aria-valuetext={`${count(s.embedded)} of ${count(s.total)} chunks`}
      />
    );
  }
  if (s.phase === 'indexing') {
    const indexPct = s.todo > 0 ? Math.round((s.done / s.todo) * 100) : 0;
    return <progress max={100} value={indexPct} aria-valuetext={`${indexPct}%`} />;
  }
  return null;
}
