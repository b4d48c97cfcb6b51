// Library: every document with size, type, chunk count and dates; delete; export and import the
// whole library as an SQLite file.
import { useEffect, useRef } from 'react';
import { formatBytes, formatDate, mimeLabel } from '../lib/format';
import { ColumnHeads } from '../components/column-heads';
import {
  deleteDocument,
  exportLibrary,
  importLibrary,
  openDocument,
  refreshDocuments,
} from '../state/actions';
import { useAppStore } from '../state/app-store';
import { ReferenceImports } from '../components/import-panel';

export function LibraryView() {
  const documents = useAppStore((s) => s.documents);
  const setView = useAppStore((s) => s.setView);
  const libraryInput = useRef<HTMLInputElement>(null);
  const totalChunks = documents.reduce((n, d) => n + d.chunkCount, 0);
  useEffect(() => {
    void refreshDocuments().catch(() => undefined); // another tab may have changed it meanwhile
  }, []);
  return (
    <section className="library" aria-label="Library">
      <div className="library-head">
        <h2>
          Library{' '}
          <small data-testid="library-count">
            {documents.length} documents · {totalChunks} chunks
          </small>
        </h2>
        <div className="actions">
          <button
            onClick={() => void exportLibrary()}
            data-testid="export-library"
            disabled={documents.length === 0}
          >
            Export library
          </button>
          <button onClick={() => libraryInput.current?.click()} data-testid="import-library">
            Import library…
          </button>
          <ReferenceImports />
          <input
            ref={libraryInput}
            type="file"
            accept=".sqlite,.db,.sqlite3,application/vnd.sqlite3"
            hidden
            data-testid="library-file-input"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (!file) return;
              if (
                confirm(
                  'Replace the whole library with this file? Export the current one first if you want to keep it.',
                )
              ) {
                void importLibrary(file);
              }
            }}
          />
        </div>
      </div>
      {documents.length === 0 ? (
        <p className="empty">
          No documents yet. Import files or a folder, or drop them on this window.
        </p>
      ) : (
        <table className="doc-table" data-testid="library-table">
          <ColumnHeads
            columns={[
              'Title',
              'Type',
              'Size',
              'Chunks',
              'Modified',
              'Imported',
              <span className="sr-only">Actions</span>,
            ]}
          />
          <tbody>
            {documents.map((d) => (
              <tr key={d.id} data-testid="library-row" data-path={d.path}>
                <td>
                  <button
                    className="link"
                    onClick={() => {
                      setView('search');
                      void openDocument(d.id, null);
                    }}
                  >
                    {d.title}
                  </button>
                  <div className="path">{d.path}</div>
                </td>
                <td>{mimeLabel(d.mime)}</td>
                <td>{formatBytes(d.size)}</td>
                <td>{d.chunkCount}</td>
                <td>{formatDate(d.modified)}</td>
                <td>{formatDate(d.importedAt)}</td>
                <td>
                  <button
                    className="danger"
                    aria-label={`Delete ${d.title}`}
                    data-testid="delete-document"
                    onClick={() => {
                      if (
                        confirm(
                          `Delete “${d.title}” from the library? The original file is not touched.`,
                        )
                      ) {
                        void deleteDocument(d.id);
                      }
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
