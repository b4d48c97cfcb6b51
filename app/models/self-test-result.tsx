// The outcome of a model's self-test on the Models page: the determinism check (golden hashes for
// USE-lite, computed-twice for BERT-family models) and, for BERT-family models, the comparison
// with transformers.js (onnxruntime) sentence by sentence: cosine and whether the token ids match.
import type { EmbedSelfTestResult } from '../../workers/shared/embed-api';
import { ColumnHeads } from '../components/column-heads';

function determinismText(r: EmbedSelfTestResult): string {
  if (r.mismatches.length > 0) {
    return `${r.mismatches.length} of ${r.total} vectors differ${r.check === 'repeat' ? ' between two runs' : ' from the reference'}. Please report this device and browser.`;
  }
  return r.check === 'repeat'
    ? `all ${r.total} test vectors were byte-identical when computed twice.`
    : `all ${r.total} vectors are byte-identical to the reference.`;
}

/** Cosines this close to 1 read better as "1 − x". */
export function formatCosine(c: number): string {
  if (Number.isNaN(c)) return 'missing';
  return c >= 0.999999 ? c.toFixed(9) : c.toFixed(6);
}

export function SelfTestResult({
  result,
  testId = 'model-self-test-result',
}: {
  result: EmbedSelfTestResult;
  testId?: string;
}) {
  const ref = result.reference;
  return (
    <div
      data-testid={testId}
      data-ok={String(result.ok)}
      data-model={result.modelId}
      data-check={result.check ?? 'golden'}
      data-hashes={result.hashes.join(',')}
      role="status"
    >
      <p>
        {result.ok ? 'Self-test passed' : 'Self-test FAILED'} for {result.modelId}:{' '}
        {determinismText(result)}
      </p>
      {ref && (
        <>
          <p
            data-testid="reference-check"
            data-ok={String(ref.ok)}
            data-min-cosine={String(ref.minCosine)}
          >
            Compared with {ref.runtime} on the same weights: lowest cosine{' '}
            <strong>{formatCosine(ref.minCosine)}</strong> over {ref.rows.length} sentences (each
            must reach {ref.threshold}).{' '}
            {ref.ok
              ? 'The canonical vectors agree.'
              : 'They do not agree: please report this device and browser.'}
          </p>
          <table className="doc-table" data-testid="reference-rows">
            <ColumnHeads columns={['Sentence', 'Cosine', 'Same tokens']} />
            <tbody>
              {ref.rows.map((row) => (
                <tr key={row.text} data-cosine={String(row.cosine)}>
                  <td>{row.text}</td>
                  <td>{formatCosine(row.cosine)}</td>
                  <td>{row.sameTokens ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {result.referenceError && (
        <p className="hint" data-testid="reference-error">
          The comparison with transformers.js could not run: {result.referenceError}
        </p>
      )}
    </div>
  );
}
