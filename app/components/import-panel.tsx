// Import controls: file picker, folder picker, drag and drop, and the progress of a running import.
import { useEffect, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import {
  fromDataTransfer,
  fromFileList,
  hasDirectoryPicker,
  pickDirectory,
} from '../lib/collect-files';
import { cancelImport, importFiles } from '../state/actions';
import { importReferenceFile, importZoteroFolder } from '../state/biblio-actions';
import { useAppStore } from '../state/app-store';
import { DisclosureButton } from './disclosure-button';

const ACCEPT = '.txt,.md,.markdown,.html,.htm,.pdf,.docx';

/** Imports what a file or folder input picked, then clears it so the same pick works again. */
function importPicked(e: ChangeEvent<HTMLInputElement>): void {
  const files = e.currentTarget.files;
  if (files) void importFiles(fromFileList(files));
  e.currentTarget.value = '';
}

export function ImportButtons() {
  const fileInput = useRef<HTMLInputElement>(null);
  const dirInput = useRef<HTMLInputElement>(null);
  const notifyError = useAppStore((s) => s.notifyError);
  const onFolder = async () => {
    if (!hasDirectoryPicker()) {
      dirInput.current?.click();
      return;
    }
    try {
      const files = await pickDirectory();
      if (files) await importFiles(files);
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <div className="import-buttons">
      <button onClick={() => fileInput.current?.click()} data-testid="import-files">
        Import files…
      </button>
      <button onClick={() => void onFolder()} data-testid="import-folder">
        Import folder…
      </button>
      <input
        ref={fileInput}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        data-testid="file-input"
        onChange={importPicked}
      />
      <input
        ref={dirInput}
        type="file"
        hidden
        data-testid="dir-input"
        {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
        onChange={importPicked}
      />
    </div>
  );
}

/** Reference files (BibTeX, RIS, CSL-JSON) and a Zotero data folder (in the Library view). */
export function ReferenceImports() {
  const refInput = useRef<HTMLInputElement>(null);
  const zoteroInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <button onClick={() => refInput.current?.click()} data-testid="import-references">
        Import references…
      </button>
      <button onClick={() => zoteroInput.current?.click()} data-testid="import-zotero">
        Import Zotero folder…
      </button>
      <input
        ref={refInput}
        type="file"
        accept=".bib,.bibtex,.ris,.json"
        hidden
        data-testid="references-input"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file) void importReferenceFile(file);
        }}
      />
      <input
        ref={zoteroInput}
        type="file"
        hidden
        data-testid="zotero-input"
        {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
        onChange={(e) => {
          const files = e.currentTarget.files ? fromFileList(e.currentTarget.files) : [];
          e.currentTarget.value = '';
          void importZoteroFolder(files);
        }}
      />
    </>
  );
}

/** Covers the window while files are dragged over it. */
export function DropZone() {
  const [over, setOver] = useState(false);
  const notifyError = useAppStore((s) => s.notifyError);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overHandler = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      fromDataTransfer(e.dataTransfer).then(importFiles, notifyError);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, [notifyError]);
  if (!over) return null;
  return (
    <div className="dropzone" data-testid="dropzone">
      Drop files or folders to import them
    </div>
  );
}

export function ImportProgressBar() {
  const run = useAppStore((s) => s.importRun);
  return <ImportRunProgress key={run} />;
}

function ImportRunProgress() {
  const p = useAppStore((s) => s.importing);
  const setImporting = useAppStore((s) => s.setImporting);
  const [showFailures, setShowFailures] = useState(false);
  if (!p) return null;
  const pct = p.filesTotal ? Math.round((p.filesDone / p.filesTotal) * 100) : 0;
  return (
    <section className="import-progress" data-testid="import-progress" aria-label="Import progress">
      <div className="row">
        <strong>
          {p.done ? (p.cancelled ? 'Import cancelled' : 'Import finished') : 'Importing…'}
        </strong>
        <span data-testid="import-counts">
          {p.filesDone}/{p.filesTotal} files · {p.chunksDone} chunks · {p.failures.length} errors
        </span>
        {!p.done ? (
          <button onClick={() => void cancelImport()} data-testid="import-cancel">
            Cancel
          </button>
        ) : (
          <button onClick={() => setImporting(null)} aria-label="Close import report">
            Close
          </button>
        )}
      </div>
      <progress max={100} value={pct} aria-valuetext={`${pct}%`} />
      {!p.done && p.current && <div className="current">Reading {p.current}</div>}
      {p.notes.length > 0 && (
        <ul className="import-notes" data-testid="import-notes">
          {p.notes.map((n) => (
            <li key={n.path}>{n.message}</li>
          ))}
        </ul>
      )}
      {p.failures.length > 0 && (
        <div className="failures">
          <DisclosureButton open={showFailures} onToggle={setShowFailures}>
            {showFailures ? 'Hide' : 'Show'} {p.failures.length} file
            {p.failures.length === 1 ? '' : 's'} that could not be imported
          </DisclosureButton>
          {showFailures && (
            <ul data-testid="import-failures">
              {p.failures.map((f) => (
                <li key={f.path} data-code={f.code}>
                  <code>{f.path}</code>: {f.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
