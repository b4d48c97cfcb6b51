// A hit's relevance band (High / Medium / Low), with what it means as its tooltip and accessible
// text: a band fitted on measured relevance (workers/shared/relevance.ts), never a rank.
import { BAND_LABEL, describeRelevance, type Relevance } from '../../workers/shared/relevance';

const UNRATED =
  'Not rated: the embedding model in use has no measured relevance bands yet, and no keyword ' +
  'matched this passage.';

export function RelevanceBadge({ relevance }: { relevance: Relevance | null | undefined }) {
  if (relevance === undefined) return null;
  const text = relevance ? describeRelevance(relevance) : UNRATED;
  const band = relevance?.band ?? 'none';
  return (
    <span className={`band band-${band}`} title={text} data-testid="relevance" data-band={band}>
      <span aria-hidden="true">{relevance ? BAND_LABEL[relevance.band] : 'Not rated'}</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}
