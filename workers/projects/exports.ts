// Project exports as the spec gives them (advanced-retrieval-colbert-hyde.md "Output Artifacts"):
// index_metadata.json, retrieval_audit.md, and a Markdown report of a project (question, answer
// with citations and tiers, claims table with triangulation, audit table, references). Pure
// functions over plain data; nothing here reads settings, so no API key can reach an export.
// Every title, path, passage and claim goes through ../shared/safe-markdown.ts, so none can
// become markup.
import { mdCell, mdCode, mdText, mdUrl } from '../shared/safe-markdown';
import type { CitationAudit } from './audit';
import { formatPages } from '../shared/pages';
import type { Provenance } from './provenance';
import type { ObjectiveMeasures, Triangulation } from './triangulation';

export interface ExportSource {
  /** 12 hex digits of the content hash (the spec's key). */
  hash: string;
  provenance: Provenance;
  passageCount: number;
}

export interface RetrievalStats {
  total_queries: number;
  avg_results_per_query: number;
  cache_hit_rate: number;
  zero_result_queries: number;
  avg_relevance?: number;
}

export interface IndexMetadata {
  index_built: boolean;
  document_count: number;
  indexed_hashes: string[];
  sources: Record<
    string,
    { url: string; title: string; quality: string; fetch_date: string; passage_count: number }
  >;
  retrieval_stats: Omit<RetrievalStats, 'zero_result_queries' | 'avg_relevance'>;
}

export function indexMetadata(sources: ExportSource[], stats: RetrievalStats): IndexMetadata {
  const sorted = [...sources].sort((a, b) => a.hash.localeCompare(b.hash));
  return {
    index_built: sorted.length > 0,
    document_count: sorted.length,
    indexed_hashes: sorted.map((s) => s.hash),
    sources: Object.fromEntries(
      sorted.map((s) => [
        s.hash,
        {
          url: s.provenance.location,
          title: s.provenance.title,
          quality: s.provenance.grade,
          fetch_date: new Date(s.provenance.date).toISOString(),
          passage_count: s.passageCount,
        },
      ]),
    ),
    retrieval_stats: {
      total_queries: stats.total_queries,
      avg_results_per_query: round(stats.avg_results_per_query, 2),
      cache_hit_rate: round(stats.cache_hit_rate, 2),
    },
  };
}

export interface AuditRow {
  claim: string;
  citedSource: string;
  audit: CitationAudit;
  /** The PDF pages of the audited passage (absent for documents without pages). */
  pages?: { first: number; last: number };
}

/** The audited passage as a table cell, with its page for a PDF ("… (p. 14)"). */
function passageCell(r: AuditRow): string {
  const text = r.audit.passage?.text ?? '';
  return r.pages && text ? `${cell(text)} (${formatPages(r.pages)})` : cell(text);
}

/** Markdown table cell: one line, every Markdown and HTML character escaped, long text cut. */
export const cell = mdCell;

/** A source's location: a link when it is an http(s) URL, else a code span (a library path). */
function location(where: string): string {
  return mdUrl(where) ?? mdCode(where);
}

export function retrievalAudit(
  sources: ExportSource[],
  stats: RetrievalStats,
  rows: AuditRow[],
): string {
  const passages = sources.reduce((s, x) => s + x.passageCount, 0);
  const unique = new Set(sources.map((s) => s.provenance.domain ?? s.provenance.location)).size;
  const zeroPct = stats.total_queries
    ? Math.round((stats.zero_result_queries / stats.total_queries) * 100)
    : 0;
  const lines = [
    '# Retrieval Quality Audit',
    '',
    '## Index Statistics',
    `- Documents indexed: ${sources.length}`,
    `- Total passages: ${passages}`,
    `- Unique sources: ${unique}`,
    '',
    '## Query Performance',
    `- Queries executed: ${stats.total_queries}`,
    `- Average relevance score: ${stats.avg_relevance === undefined ? 'n/a' : `${round(stats.avg_relevance * 10, 1)}/10`}`,
    `- Zero-result queries: ${stats.zero_result_queries} (${zeroPct}%)`,
    '',
    '## Citation Verification',
    '| Claim | Cited Source | Retrieved Passage | Support Score | Status |',
    '|-------|--------------|-------------------|---------------|--------|',
    ...rows.map(
      (r) =>
        `| ${cell(r.claim)} | ${cell(r.citedSource)} | ${passageCell(r)} | ${
          r.audit.supportScore === undefined ? '' : r.audit.supportScore.toFixed(2)
        } | ${r.audit.status} |`,
    ),
    '',
    '## Recommendations',
    ...recommendations(rows),
    '',
  ];
  return lines.join('\n');
}

function recommendations(rows: AuditRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.audit.status === 'SOURCE_NOT_INDEXED')
      out.push(`- Re-fetch or import ${cell(r.citedSource, 80)} (cited but not in the library)`);
    else if (r.audit.status === 'REVIEW')
      out.push(`- Verify manually: "${cell(r.claim, 80)}" against ${cell(r.citedSource, 80)}`);
    else if (r.audit.stance === 'CONTRADICT')
      out.push(`- ${cell(r.citedSource, 80)} appears to contradict "${cell(r.claim, 80)}"`);
  }
  return out.length ? out : ['- None'];
}

export interface ReportInput {
  project: string;
  question: string;
  answer?: {
    sentences: Array<{ text: string; citations: number[] }>;
    citations: Array<{ n: number; provenance: Provenance }>;
  };
  claims: Array<{ text: string; triangulation: Triangulation }>;
  audit: AuditRow[];
  measures: ObjectiveMeasures;
  references: Provenance[];
}

/** The project report as Markdown (also what the printable view shows). */
export function projectReport(r: ReportInput): string {
  const ref = (p: Provenance) =>
    `${p.citation ? `${cell(p.citation, 120)}. ` : ''}${cell(p.title || p.location, 120)} — ${location(p.location)} (grade ${mdText(p.grade)}, tier ${p.tier}, ${new Date(p.date).toISOString().slice(0, 10)})`;
  const lines = [
    `# ${cell(r.project, 200)}`,
    '',
    '## Question',
    r.question.trim() ? mdText(r.question) : '_No question set._',
    '',
  ];
  if (r.answer) {
    const text = r.answer.sentences
      .map((x) => `${mdText(x.text)}${x.citations.map((n) => ` [${Math.trunc(n)}]`).join('')}`)
      .join(' ');
    lines.push('## Answer', text, '');
    for (const c of r.answer.citations) lines.push(`[${c.n}] ${ref(c.provenance)}`);
    lines.push('');
  }
  lines.push(
    '## Claims',
    '| # | Claim | Status | Independent support | Supporting | Contradicting |',
    '|---|-------|--------|---------------------|------------|---------------|',
    ...r.claims.map(
      (c, i) =>
        `| ${i + 1} | ${cell(c.text)} | ${c.triangulation.status} | ${c.triangulation.independentSupport} | ${cell(
          c.triangulation.supporting
            .map((s) => s.provenance.title || s.provenance.location)
            .join('; '),
        )} | ${cell(c.triangulation.contradicting.map((s) => s.provenance.title || s.provenance.location).join('; '))} |`,
    ),
    '',
    '## Objective measures',
    `- Triangulation coverage: ${round(r.measures.triangulationCoverage, 1)}% (target >= 90%)`,
    `- Tier 1 source ratio: ${round(r.measures.tier1Ratio, 2)} (target >= 0.5)`,
    `- Average latency: ${r.measures.averageLatencyMs === null ? 'n/a' : `${Math.round(r.measures.averageLatencyMs)} ms`} (target < 5 s)`,
    '',
    '## Citation audit',
    '| Claim | Cited source | Passage | Score | Status |',
    '|-------|--------------|---------|-------|--------|',
    ...r.audit.map(
      (a) =>
        `| ${cell(a.claim)} | ${cell(a.citedSource)} | ${passageCell(a)} | ${
          a.audit.supportScore === undefined ? '' : a.audit.supportScore.toFixed(2)
        } | ${a.audit.status} |`,
    ),
    '',
    '## References',
    ...r.references.map((p, i) => `${i + 1}. ${ref(p)}`),
    '',
  );
  return lines.join('\n');
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
