// "Import into library" for a web reference of an answer: the page is fetched by the web worker,
// cleaned on this thread (DOMPurify + Readability) and stored through the normal import pipeline.
import { useState } from 'react';
import { libraryClient, webClient } from '../clients';
import { browserHtmlCleaner } from '../lib/html-cleaner';
import { afterLibraryWrite } from '../state/actions';
import { importWebResult } from '../web';
import type { AnswerReference } from '../../workers/shared/answer-api';

export function WebReferenceImport({ reference }: { reference: AnswerReference }) {
  const [state, setState] = useState<'idle' | 'importing' | 'done' | { error: string }>('idle');
  const url = reference.url ?? reference.path;
  return (
    <>
      {' '}
      <button
        type="button"
        className="link"
        disabled={state === 'importing' || state === 'done'}
        data-testid="reference-import"
        onClick={() => {
          setState('importing');
          void importWebResult(
            { url, title: reference.title, provider: null },
            {
              api: webClient(),
              cleanHtml: browserHtmlCleaner,
              putDocument: (input) => libraryClient().importText(input),
            },
          ).then(async (outcome) => {
            if (outcome.ok) await afterLibraryWrite();
            setState(outcome.ok ? 'done' : { error: outcome.message });
          });
        }}
      >
        {state === 'importing'
          ? 'Importing…'
          : state === 'done'
            ? 'In library'
            : 'Import into library'}
      </button>
      {typeof state === 'object' && (
        <span className="web-hit-error" role="alert">
          {' '}
          {state.error}
        </span>
      )}
    </>
  );
}
