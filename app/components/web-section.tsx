// The "search the web" section under local results: only when the user opens it, and only
// providers the user enabled are asked. Imported pages go through the normal import pipeline.
import { useState } from 'react';
import { Comlink, libraryClient, webClient } from '../clients';
import { DisclosureButton } from './disclosure-button';
import { browserHtmlCleaner } from '../lib/html-cleaner';
import { afterLibraryWrite } from '../state/actions';
import { useAppStore } from '../state/app-store';
import { importWebResult, WebSearchPanel } from '../web';
import type { RankedWebHit } from '../../workers/shared/web-api';
import { shapeWebSearch } from '../../workers/shared/web-route';

async function importHit(hit: RankedWebHit): Promise<string | null> {
  const outcome = await importWebResult(hit, {
    api: webClient(),
    cleanHtml: browserHtmlCleaner,
    putDocument: (input) => libraryClient().importText(input),
  });
  if (outcome.ok) await afterLibraryWrite();
  return outcome.ok ? null : outcome.message;
}

export function WebSection() {
  const [open, setOpen] = useState(false);
  const query = useAppStore((s) => s.query);
  // With the query optimised, its plan's route and rewrite shape the web search too.
  const plan = useAppStore((s) => (s.optimise ? s.plan : null));
  return (
    <section className="web-section">
      <DisclosureButton open={open} onToggle={setOpen} testId="web-toggle">
        {open ? 'Hide web search' : 'Search the web too…'}
      </DisclosureButton>
      {open && (
        <WebSearchPanel
          api={webClient()}
          initialQuery={query}
          wrapCallback={Comlink.proxy}
          onImport={importHit}
          shape={(q) =>
            shapeWebSearch(q, plan && plan.query.trim() === q.trim() ? plan.complexity : null, plan)
          }
        />
      )}
    </section>
  );
}
