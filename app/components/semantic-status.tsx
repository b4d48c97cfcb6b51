// Shows the embedding backlog while it is being worked through (with pause/resume), and why
// semantic search is not available when it is not.
import { pauseEmbedding } from '../state/actions';
import { useAppStore } from '../state/app-store';

export function SemanticStatusBar() {
  const s = useAppStore((st) => st.semantic);
  if (!s) return null;
  if (s.phase === 'ready' && !s.message) return null;
  const pct = s.todo > 0 ? Math.round((s.done / s.todo) * 100) : 0;
  return (
    <section
      className="semantic-status"
      data-testid="semantic-status"
      data-phase={s.phase}
      aria-live="polite"
    >
      <div className="row">
        <strong>
          {s.phase === 'indexing' && 'Loading the semantic index…'}
          {s.phase === 'embedding' && 'Preparing semantic search…'}
          {s.phase === 'paused' && 'Semantic indexing paused'}
          {s.phase === 'error' && 'Semantic indexing stopped'}
          {s.phase === 'starting' && 'Starting semantic search…'}
          {s.phase === 'ready' && 'Semantic search ready'}
        </strong>
        <span data-testid="semantic-counts">
          {s.embedded}/{s.total} chunks embedded
        </span>
        {s.phase === 'embedding' && (
          <button onClick={() => void pauseEmbedding(true)} data-testid="semantic-pause">
            Pause
          </button>
        )}
        {(s.phase === 'paused' || s.phase === 'error') && (
          <button onClick={() => void pauseEmbedding(false)} data-testid="semantic-resume">
            {s.phase === 'error' ? 'Retry' : 'Resume'}
          </button>
        )}
      </div>
      {(s.phase === 'embedding' || s.phase === 'indexing') && (
        <progress max={100} value={pct} aria-valuetext={`${pct}%`} />
      )}
      {s.message && <p className="hint">{s.message}</p>}
    </section>
  );
}
