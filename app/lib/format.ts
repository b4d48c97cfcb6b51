// Small display formatters for sizes, dates and MIME types.
export { formatBytes } from '../../workers/shared/format-bytes';

export function formatDate(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '—';
  return new Date(ms).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}

/** The document types Sift imports, with their short names (in the order filters list them). */
export const MIME_LABELS: Readonly<Record<string, string>> = {
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'text/html': 'HTML',
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
};

export function mimeLabel(mime: string): string {
  return MIME_LABELS[mime] ?? mime;
}

/** A time left as people say it: "under a minute", "about 4 min", "about 1 h 20 min". */
export function formatTimeLeft(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `about ${h} h` : `about ${h} h ${m} min`;
}
