// One entry of the results list: a document with its best passage, its relevance band, and its
// next best passages collapsed beneath ("3 more passages", a button: Tab to it, Enter or Space
// toggles). Each passage opens the document at that passage.
import { formatPages } from '../../workers/shared/pages';
import { formatSection } from '../../workers/shared/sections';
import { useId } from 'react';
import { Highlighted } from './highlighted';
import { RelevanceBadge } from './relevance-badge';
import { mimeLabel } from '../lib/format';
import { formatDate } from '../lib/format';
import type { SourceInfo } from '../lib/provenance';
import type { DocumentResult } from '../../workers/shared/types';

export interface ResultEntryProps {
  doc: DocumentResult;
  /** Where the document came from and its grade (absent while the list loads). */
  source?: SourceInfo | undefined;
  index: number;
  selected: boolean;
  expanded: boolean;
  onToggle(): void;
  onOpen(seq: number): void;
  onSelect(): void;
  onRelated(chunkId: number): void;
}

export function ResultEntry(props: ResultEntryProps) {
  const { doc, index, selected, expanded } = props;
  const [best, ...more] = doc.passages;
  const moreId = useId();
  if (!best) return null;
  return (
    <li
      role="option"
      aria-selected={selected}
      data-index={index}
      data-testid="result"
      data-path={doc.path}
      data-seq={best.seq}
      data-score={best.score}
      data-passages={doc.passages.length}
      className={selected ? 'result selected' : 'result'}
      onClick={() => {
        props.onSelect();
        props.onOpen(best.seq);
      }}
    >
      <div className="result-head">
        <span className="title" data-testid="result-title">
          {doc.title}
        </span>
        <RelevanceBadge relevance={best.relevance} />
      </div>
      <div className="path">
        {doc.path}
        {best.pages && <span data-testid="result-page">, {formatPages(best.pages)}</span>}
        {best.section && (
          <span data-testid="result-section"> · {formatSection(best.section)}</span>
        )}{' '}
        · {mimeLabel(doc.mime)}
        {best.ranks.lexical ? ` · lexical #${best.ranks.lexical}` : ''}
        {best.ranks.semantic ? ` · semantic #${best.ranks.semantic}` : ''}
      </div>
      {props.source && (
        <div className="path" data-testid="result-provenance" data-grade={props.source.grade}>
          {props.source.origin} · grade {props.source.grade} · imported{' '}
          {formatDate(props.source.importedAt)}
        </div>
      )}
      <p className="snippet" data-testid="result-snippet">
        <Highlighted value={best.snippet} />
      </p>
      <div className="result-actions">
        {more.length > 0 && (
          <button
            className="link"
            aria-expanded={expanded}
            aria-controls={moreId}
            data-testid="more-passages"
            onClick={(e) => {
              e.stopPropagation();
              props.onToggle();
            }}
          >
            {`${expanded ? 'Hide ' : ''}${more.length} more passage${more.length === 1 ? '' : 's'}`}
          </button>
        )}
        <button
          className="link"
          data-testid="more-like-this"
          title="Find passages in other documents like this one"
          onClick={(e) => {
            e.stopPropagation();
            props.onRelated(best.chunkId);
          }}
        >
          More like this
        </button>
      </div>
      {more.length > 0 && (
        <ul className="passages" id={moreId} hidden={!expanded} data-testid="passages">
          {expanded &&
            more.map((p) => (
              <li key={p.chunkId} data-testid="passage" data-seq={p.seq}>
                <button
                  className="passage"
                  title="Open the document at this passage"
                  onClick={(e) => {
                    e.stopPropagation();
                    props.onSelect();
                    props.onOpen(p.seq);
                  }}
                >
                  <span className="snippet">
                    <Highlighted value={p.snippet} />
                  </span>
                  <RelevanceBadge relevance={p.relevance} />
                </button>
              </li>
            ))}
        </ul>
      )}
    </li>
  );
}
