// Provenance of a source (a library document or a web result): where it came from, when, which
// provider, its credibility tier and a quality grade A-E derived from tier and source type by ONE
// editable table (GRADE_TABLE; the user's edits are passed in as `table`). Local files get a
// user-set tier, "own" by default. Filtering and sorting by grade, tier and date live here too.
import type { QualityGrade } from '../shared/types';
import type { CredibilityTier } from '../shared/web-api';

export type SourceType = 'peer-reviewed' | 'preprint' | 'official' | 'news' | 'web' | 'own';
export type ProvenanceTier = CredibilityTier | 'own';

/** grade = GRADE_TABLE[tier][sourceType]. Rows: credibility tier (1 best .. 5 blocked, own = local file). */
export type GradeTable = Record<ProvenanceTier, Record<SourceType, QualityGrade>>;

export const GRADE_TABLE: GradeTable = {
  1: { 'peer-reviewed': 'A', preprint: 'B', official: 'A', news: 'B', web: 'B', own: 'B' },
  2: { 'peer-reviewed': 'A', preprint: 'B', official: 'B', news: 'C', web: 'B', own: 'B' },
  3: { 'peer-reviewed': 'B', preprint: 'C', official: 'B', news: 'C', web: 'C', own: 'C' },
  4: { 'peer-reviewed': 'C', preprint: 'D', official: 'C', news: 'D', web: 'D', own: 'D' },
  5: { 'peer-reviewed': 'E', preprint: 'E', official: 'E', news: 'E', web: 'E', own: 'E' },
  own: { 'peer-reviewed': 'B', preprint: 'C', official: 'B', news: 'C', web: 'C', own: 'C' },
};

const PEER_REVIEWED =
  /(^|\.)(nature\.com|science\.org|acm\.org|ieee\.org|openreview\.net|doi\.org|ncbi\.nlm\.nih\.gov|pubmed\.ncbi\.nlm\.nih\.gov|sciencedirect\.com|springer\.com|wiley\.com|thelancet\.com|nejm\.org|bmj\.com|plos\.org|cell\.com|jamanetwork\.com)$/;
const PREPRINT = /(^|\.)(arxiv\.org|biorxiv\.org|medrxiv\.org|ssrn\.com|researchgate\.net)$/;
const NEWS =
  /(^|\.)(bbc\.co\.uk|bbc\.com|nytimes\.com|theguardian\.com|reuters\.com|apnews\.com|cnn\.com|washingtonpost\.com)$/;

/** The source type a URL suggests (a local path is "own"). */
export function sourceTypeOf(location: string): SourceType {
  let host: string;
  try {
    const u = new URL(location);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'own';
    host = u.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return 'own';
  }
  if (PEER_REVIEWED.test(host)) return 'peer-reviewed';
  if (PREPRINT.test(host)) return 'preprint';
  if (/\.(gov|mil|int)$|(^|\.)(who\.int|europa\.eu)$|\.gov\.[a-z]{2}$/.test(host))
    return 'official';
  if (NEWS.test(host)) return 'news';
  return 'web';
}

export function gradeFor(
  tier: ProvenanceTier,
  sourceType: SourceType,
  table: GradeTable = GRADE_TABLE,
): QualityGrade {
  return table[tier][sourceType];
}

export interface Provenance {
  /** Path inside the library or URL. */
  location: string;
  title: string;
  /** Import or fetch date, ms since epoch. */
  date: number;
  /** Web provider id, or "library" for an imported file. */
  provider: string;
  tier: ProvenanceTier;
  sourceType: SourceType;
  grade: QualityGrade;
  /** The registered domain (web) or null (local file): the unit of independence. */
  domain: string | null;
  author?: string;
  publisher?: string;
  /** Author-year citation from the document's bibliographic data ("Doll & Hill 1954"). */
  citation?: string;
}

/**
 * Provenance of a source. `tier` is the credibility tier of its URL (web) or the user's tier for
 * a local file (default "own").
 */
export function provenanceOf(
  source: {
    location: string;
    title: string;
    date: number;
    provider?: string;
    author?: string;
    publisher?: string;
  },
  tier: ProvenanceTier | undefined,
  table: GradeTable = GRADE_TABLE,
): Provenance {
  const sourceType = sourceTypeOf(source.location);
  const t: ProvenanceTier = tier ?? (sourceType === 'own' ? 'own' : 3);
  return {
    location: source.location,
    title: source.title,
    date: source.date,
    provider: source.provider ?? (sourceType === 'own' ? 'library' : 'web'),
    tier: t,
    sourceType,
    grade: gradeFor(t, sourceType, table),
    domain: registeredDomain(source.location),
    ...(source.author ? { author: source.author } : {}),
    ...(source.publisher ? { publisher: source.publisher } : {}),
  };
}

/** Second-level labels under which registrations happen (example.co.uk is one registrant). */
const SECOND_LEVEL = new Set(['co', 'com', 'ac', 'gov', 'org', 'net', 'edu', 'nhs']);

/** "news.bbc.co.uk" -> "bbc.co.uk"; null for a non-URL. */
export function registeredDomain(location: string): string | null {
  let host: string;
  try {
    const u = new URL(location);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    host = u.hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const sld = labels[labels.length - 2]!;
  const keep = SECOND_LEVEL.has(sld) && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

export const GRADE_ORDER: readonly QualityGrade[] = ['A', 'B', 'C', 'D', 'E'];

export function gradeAtLeast(grade: QualityGrade, min: QualityGrade): boolean {
  return GRADE_ORDER.indexOf(grade) <= GRADE_ORDER.indexOf(min);
}

export interface ProvenanceFilter {
  minGrade?: QualityGrade;
  tiers?: ProvenanceTier[];
  after?: number;
  before?: number;
}

export function filterByProvenance<T extends { provenance: Provenance }>(
  items: T[],
  f: ProvenanceFilter,
): T[] {
  return items.filter(({ provenance: p }) => {
    if (f.minGrade && !gradeAtLeast(p.grade, f.minGrade)) return false;
    if (f.tiers && !f.tiers.includes(p.tier)) return false;
    if (f.after !== undefined && p.date < f.after) return false;
    if (f.before !== undefined && p.date >= f.before) return false;
    return true;
  });
}

const tierRank = (t: ProvenanceTier) => (t === 'own' ? 2.5 : t);

/** Stable sort: by grade (best first), tier (best first) or date (newest first). */
export function sortByProvenance<T extends { provenance: Provenance }>(
  items: T[],
  key: 'grade' | 'tier' | 'date',
): T[] {
  const cmp = (a: Provenance, b: Provenance) =>
    key === 'grade'
      ? GRADE_ORDER.indexOf(a.grade) - GRADE_ORDER.indexOf(b.grade)
      : key === 'tier'
        ? tierRank(a.tier) - tierRank(b.tier)
        : b.date - a.date;
  return items
    .map((x, i) => ({ x, i }))
    .sort((a, b) => cmp(a.x.provenance, b.x.provenance) || a.i - b.i)
    .map((e) => e.x);
}
