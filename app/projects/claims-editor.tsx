// Projects > claims: the list as text (one claim per line; paste hundreds), save it, pull the
// claims out of the draft box (LLM-free sentence split), and run the checks with progress and
// cancel. The checks run in the database worker one claim at a time, so the UI stays responsive.
import { useState } from 'react';
import { cancelExtraction, extractClaimsText, saveClaims } from '../state/project-actions';
import { cancelChecks, checkClaims } from '../state/project-checks';
import { useProjectStore, type CheckRun } from '../state/project-store';
import type { QualityGrade } from '../../workers/shared/types';

const GRADES: QualityGrade[] = ['A', 'B', 'C', 'D'];
let extractSeq = 0;

export function ClaimsEditor() {
  const saved = useProjectStore((s) => s.claims.map((c) => c.text).join('\n'));
  // A new saved list (save, another project) starts the editor afresh from it.
  return <ClaimsForm key={saved} saved={saved} />;
}

function ClaimsForm({ saved }: { saved: string }) {
  const draft = useProjectStore((s) => s.draft);
  const run = useProjectStore((s) => s.run);
  const [text, setText] = useState(saved);
  const { extracting, extract } = useExtraction(draft, setText);
  const dirty = text.trim() !== saved.trim();
  const lines = text.split('\n').filter((l) => l.trim()).length;
  return (
    <section className="claims-editor no-print" aria-labelledby="claims-h">
      <h3 id="claims-h">Claims</h3>
      <label htmlFor="claims-text" className="hint">
        One claim per line. Saving replaces the list (earlier checks of it are cleared).
      </label>
      <textarea
        id="claims-text"
        rows={Math.min(12, Math.max(4, lines + 1))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        disabled={run !== null}
        data-testid="claims-text"
      />
      <div className="actions">
        <button
          onClick={() => void saveClaims(text)}
          disabled={!dirty || run !== null}
          data-testid="claims-save"
        >
          Save claims ({lines})
        </button>
        <ExtractButtons
          blocked={!draft.trim() || run !== null}
          extracting={extracting}
          extract={extract}
        />
        <MinGradeSelect />
        <CheckButton dirty={dirty} />
      </div>
      {run && <ClaimsProgress run={run} />}
    </section>
  );
}

/** Claims pulled from the draft into the text box; an LLM extraction has a request id to cancel. */
function useExtraction(draft: string, setText: (text: string) => void) {
  // The request id of a running LLM extraction (cancellable), or null.
  const [extracting, setExtracting] = useState<string | null>(null);
  const extract = (useLlm: boolean) => {
    const requestId = useLlm ? `extract-${++extractSeq}` : undefined;
    if (requestId) setExtracting(requestId);
    void extractClaimsText(draft, useLlm, requestId)
      .then((t) => t !== undefined && setText(t))
      .finally(() => requestId && setExtracting(null));
  };
  return { extracting, extract };
}

function ExtractButtons({
  blocked,
  extracting,
  extract,
}: {
  blocked: boolean;
  extracting: string | null;
  extract: (useLlm: boolean) => void;
}) {
  return (
    <>
      <button
        onClick={() => extract(false)}
        disabled={blocked || extracting !== null}
        title="Split the draft below into claims (no language model)"
        data-testid="claims-extract"
      >
        Extract from the draft
      </button>
      {extracting ? (
        <button onClick={() => cancelExtraction(extracting)} data-testid="claims-extract-cancel">
          Extracting with the language model… cancel
        </button>
      ) : (
        <button
          onClick={() => extract(true)}
          disabled={blocked}
          title="Restate the draft's sentences as short, self-contained claims with the active language model (Settings); without one, the draft is split into sentences"
          data-testid="claims-extract-llm"
        >
          Extract with the language model
        </button>
      )}
    </>
  );
}

function MinGradeSelect() {
  const minGrade = useProjectStore((s) => s.minGrade);
  const setMinGrade = useProjectStore((s) => s.setMinGrade);
  return (
    <label>
      Minimum grade{' '}
      <select
        value={minGrade ?? ''}
        onChange={(e) => setMinGrade((e.target.value || null) as QualityGrade | null)}
        data-testid="claims-min-grade"
      >
        <option value="">any</option>
        {GRADES.map((g) => (
          <option key={g} value={g}>
            {g} or better
          </option>
        ))}
      </select>
    </label>
  );
}

/** Checks the saved list (an unsaved edit must be saved first), or cancels the running check. */
function CheckButton({ dirty }: { dirty: boolean }) {
  const claims = useProjectStore((s) => s.claims);
  const run = useProjectStore((s) => s.run);
  return run ? (
    <button onClick={cancelChecks} data-testid="claims-cancel">
      Cancel check
    </button>
  ) : (
    <button
      onClick={() => void checkClaims()}
      disabled={claims.length === 0 || dirty}
      title={dirty ? 'Save the list first' : undefined}
      data-testid="claims-check"
    >
      Check all claims
    </button>
  );
}

function ClaimsProgress({ run }: { run: CheckRun }) {
  return (
    <div className="claims-progress" data-testid="claims-progress">
      <progress max={run.total} value={run.done + run.failed} aria-label="Claims checked" />{' '}
      <span aria-live="polite">
        {run.cancelled ? 'Cancelling… ' : ''}
        {run.done + run.failed} of {run.total} claims checked
      </span>
    </div>
  );
}
