// TREC run files (`qid Q0 docid rank score tag`) in the order the eval scores each query: the
// score column is rank-derived and strictly decreasing, so a standard scorer (trec_eval,
// pytrec_eval), which sorts by score and breaks ties by document id, ranks exactly as we do.
import { rankRun, type Run } from './metrics';

/**
 * The run file's text for the queries `ids`, in order: each query's documents as `evaluate`
 * ranks them (score descending, ties by document id descending, a document equal to the query id
 * dropped), with score = documents left from that rank (n, n - 1, ..., 1).
 */
export function formatTrecRun(run: Run, ids: string[], tag: string): string {
  const lines: string[] = [];
  for (const qid of ids) {
    const ranked = rankRun((run[qid] ?? []).filter((d) => d.docId !== qid));
    ranked.forEach((docId, i) => {
      lines.push(`${qid} Q0 ${docId} ${i + 1} ${ranked.length - i} ${tag}`);
    });
  }
  return `${lines.join('\n')}\n`;
}
