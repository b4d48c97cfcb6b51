// An answer as Markdown for copy / export: the sentences with their [n] citations and support
// labels (unsupported ones marked), the reference list (title, path or URL, tier) and the CRAG
// metadata. Imported, web and model-written text is untrusted: it goes through the one escaping
// module (workers/shared/safe-markdown.ts), so an exported answer cannot carry links, images or
// HTML it did not show.
import type { Answer, AnswerReference, SupportLabel } from '../../workers/shared/answer-api';
import { groupReferences } from './reference-groups';
import { mdCode, mdText, mdUrl } from '../../workers/shared/safe-markdown';
import { formatPages } from '../../workers/shared/pages';
import { formatSection } from '../../workers/shared/sections';

const TIER_NAMES: Record<string, string> = {
  '1': 'tier 1, authoritative',
  '2': 'tier 2, secondary',
  '3': 'tier 3, other',
  '4': 'tier 4, distrusted',
  '5': 'tier 5, blocked',
};

export function tierName(tier: string | undefined): string {
  return tier ? (TIER_NAMES[tier] ?? `tier ${mdText(tier)}`) : '';
}

/** Escapes Markdown and HTML syntax in untrusted text (one line). */
export const escapeMarkdown = mdText;

export const LABEL_TEXT: Record<SupportLabel, string> = {
  supported: 'supported',
  partly: 'partly supported',
  unsupported: 'unsupported',
};

/** Where a reference points: the URL for web results, the library path otherwise. */
export function referenceLocation(ref: AnswerReference): string {
  return ref.source === 'web' ? (ref.url ?? ref.path) : ref.path;
}

function referenceLine(ref: AnswerReference, numbers: readonly number[] = [ref.n]): string {
  const location = referenceLocation(ref);
  const where = (ref.source === 'web' ? mdUrl(location) : null) ?? mdCode(location);
  const kind = ref.source === 'web' ? `web${ref.tier ? `, ${tierName(ref.tier)}` : ''}` : 'library';
  const missing = ref.missing ? ' — document deleted since' : '';
  const also = numbers.length > 1 ? `[${numbers.join(', ')}] ` : '';
  const pages = ref.pages ? `${formatPages(ref.pages)}, ` : '';
  // A section title comes from the PDF's outline: the file's own text, escaped like its title.
  const section = ref.section ? `${escapeMarkdown(formatSection(ref.section))}, ` : '';
  return `${ref.n}. ${also}${escapeMarkdown(ref.title)} — ${where} (${kind}, ${pages}${section}characters ${ref.start}–${ref.end})${missing}`;
}

const ms = (v: number) => `${Math.round(v)} ms`;

function metadataLines(answer: Answer): string[] {
  const c = answer.crag;
  const t = c.evaluator.thresholds;
  const lines = [
    `- Decision: ${c.decision} (query score ${c.queryScore.toFixed(3)}; CORRECT at ≥ ${t.upper}, INCORRECT below ${t.lower}; fitted model ${escapeMarkdown(c.evaluator.fittedModel)})`,
    `- Web used: ${c.webUsed ? 'yes' : 'no'}; language model used: ${c.llmUsed ? 'yes' : 'no'}`,
    `- Tokens: ${c.retrievedTokens} retrieved, ${c.keptTokens} kept after refinement`,
  ];
  for (const a of c.actions) {
    const extra = [
      a.technique ? `technique ${escapeMarkdown(a.technique)}` : '',
      a.query ? `query “${escapeMarkdown(a.query)}”` : '',
      a.results !== undefined ? `${a.results} results` : '',
      a.errorCode ? `error ${escapeMarkdown(a.errorCode)}` : '',
    ].filter(Boolean);
    lines.push(
      `- Action ${a.kind}: ${a.status}${a.applied ? ', applied' : ''} (${ms(a.ms)}) — ${escapeMarkdown(a.note)}${extra.length ? `; ${extra.join('; ')}` : ''}`,
    );
  }
  lines.push(
    `- Steps: ${c.steps.map((s) => `${s.kind} ${ms(s.ms)}`).join(', ')}; total ${ms(c.totalMs)}`,
  );
  return lines;
}

/** The whole answer as Markdown. */
export function answerToMarkdown(answer: Answer): string {
  const out: string[] = [`# ${escapeMarkdown(answer.question)}`, ''];
  if (answer.partial)
    out.push('> The language model stopped before finishing: this answer is partial.', '');
  if (answer.notFound)
    out.push('> Your library does not seem to hold the answer to this question.', '');
  for (const n of answer.notices) out.push(`> ${escapeMarkdown(n)}`, '');
  const body = answer.sentences.map((s) => {
    const cites = s.citations.map((n) => `[${n}]`).join('');
    const label = s.support.label === 'supported' ? '' : ` _(${LABEL_TEXT[s.support.label]})_`;
    return `${escapeMarkdown(s.text)}${cites ? ` ${cites}` : ''}${label}`;
  });
  if (body.length) out.push(body.join(' '), '');
  if (answer.references.length) {
    // Each document once, with every number that cites one of its passages.
    out.push(
      '## References',
      '',
      ...groupReferences(answer.references).map((g) => referenceLine(g.ref, g.numbers)),
      '',
    );
  }
  out.push('## How this answer was made', '', ...metadataLines(answer), '');
  out.push(
    `_Asked ${new Date(answer.createdAt).toISOString()} · ${answer.mode} answer · embedding model ${escapeMarkdown(answer.crag.modelId)}_`,
    '',
  );
  return out.join('\n');
}
