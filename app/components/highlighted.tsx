// Renders text with highlight ranges as <mark> elements. Text is always rendered as text,
// never parsed as HTML, so imported content cannot inject markup.
import type { HighlightedText } from '../../workers/shared/types';

export function Highlighted({ value }: { value: HighlightedText }) {
  const parts: Array<{ text: string; mark: boolean }> = [];
  let pos = 0;
  const ranges = [...value.highlights].sort((a, b) => a[0] - b[0]);
  for (const [start, end] of ranges) {
    if (start < pos || end <= start) continue; // overlapping or empty ranges are skipped
    if (start > pos) parts.push({ text: value.text.slice(pos, start), mark: false });
    parts.push({ text: value.text.slice(start, end), mark: true });
    pos = end;
  }
  if (pos < value.text.length) parts.push({ text: value.text.slice(pos), mark: false });
  return (
    <>
      {parts.map((p, i) =>
        p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </>
  );
}
