// Projects > exports: the Markdown report, index_metadata.json and retrieval_audit.md (spec
// files) as downloads, and Print (the browser's print to PDF over the print stylesheet).
import { downloadReferences } from '../state/biblio-actions';
import { downloadExport } from '../state/project-checks';

export function ExportPanel() {
  return (
    <section className="export-panel no-print" aria-labelledby="export-h">
      <h3 id="export-h">Exports</h3>
      <div className="actions">
        <button onClick={() => void downloadExport('report')} data-testid="export-report">
          Report (Markdown)
        </button>
        <button
          onClick={() => void downloadExport('index-metadata')}
          data-testid="export-index-metadata"
        >
          index_metadata.json
        </button>
        <button
          onClick={() => void downloadExport('retrieval-audit')}
          data-testid="export-retrieval-audit"
        >
          retrieval_audit.md
        </button>
        <button onClick={() => void downloadReferences('bibtex')} data-testid="export-bibtex">
          References (BibTeX)
        </button>
        <button onClick={() => void downloadReferences('csl-json')} data-testid="export-csl-json">
          References (CSL-JSON)
        </button>
        <button onClick={() => window.print()} data-testid="export-print">
          Print / save as PDF
        </button>
      </div>
    </section>
  );
}
