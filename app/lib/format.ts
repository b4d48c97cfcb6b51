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

const MIME_LABELS: Record<string, string> = {
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'text/html': 'HTML',
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
};

export function mimeLabel(mime: string): string {
  return MIME_LABELS[mime] ?? mime;
}
