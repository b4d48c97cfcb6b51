// The one table of measured evidence for the query techniques (issue 15): what each did to
// nDCG@10 on SciFact against plain search, with which models, on which split, by which command.
// The default switches are derived from it (a technique is on by default only when a TRAIN-split
// measurement against the plain base shows a gain), and the UI reads it to say why each is on or
// off. Plain data only.
import type { Complexity, TechniqueSwitches } from './research-api';

export type Technique = keyof TechniqueSwitches;

export interface TechniqueMeasurement {
  technique: Technique;
  /** The plain search it is compared with (same run settings, technique off). */
  base: 'hybrid' | 'lexical';
  /** Embedding model of the hybrid base (null: lexical base). */
  embedding: 'USE-lite' | 'all-MiniLM-L6-v2' | null;
  /** The generator for LLM techniques (null: LLM-free). */
  generator: 'SmolLM2-135M-Instruct' | null;
  split: 'train' | 'test' | 'test, first 100';
  /** A measurement of one route only (queries the router sent there). */
  route?: Complexity;
  queries: number;
  /** nDCG@10 with the technique minus without. */
  deltaNdcg10: number;
  /** Queries whose nDCG@10 rose / fell. */
  better: number;
  worse: number;
  /** Paired two-sided randomisation test on per-query nDCG@10 (null: not computed). */
  p: number | null;
  /** Where the figure comes from (run from the repository root). */
  source: string;
  /** Why the figure is provisional, shown with it. */
  caveat?: string;
}

/**
 * Until issue 15 the eval ordered a fused plan's documents by each one's score in the list it came
 * from, not by the fused (RRF) score: figures of fused plans from before then are provisional.
 */
const LIST_SCORES = 'scored before the eval used fused scores; to be re-run';

const TRAIN = (mode: string) =>
  `npm run eval -- --dataset ../shared/datasets/scifact --split train --mode ${mode}`;
const README = 'workers/query-plan/README.md (SmolLM2 section)';

export const TECHNIQUE_EVIDENCE: readonly TechniqueMeasurement[] = [
  // LLM-free, SciFact train (809 claims), lexical base: measured for issue 15.
  {
    technique: 'rm3',
    base: 'lexical',
    embedding: null,
    generator: null,
    split: 'train',
    queries: 809,
    deltaNdcg10: -0.0026,
    better: 98,
    worse: 89,
    p: 0.56,
    source: TRAIN('lexical+rm3'),
  },
  {
    technique: 'wordnet',
    base: 'lexical',
    embedding: null,
    generator: null,
    split: 'train',
    queries: 809,
    deltaNdcg10: -0.001,
    better: 33,
    worse: 54,
    p: 0.72,
    source: TRAIN('lexical+wordnet'),
  },
  {
    technique: 'keyphrases',
    base: 'lexical',
    embedding: null,
    generator: null,
    split: 'train',
    queries: 809,
    deltaNdcg10: -0.0348,
    better: 55,
    worse: 105,
    p: 0.001,
    source: TRAIN('lexical+keyphrases'),
  },
  // LLM-free on the app's hybrid with the downloadable all-MiniLM-L6-v2 (plain RRF), train.
  {
    technique: 'rm3',
    base: 'hybrid',
    embedding: 'all-MiniLM-L6-v2',
    generator: null,
    split: 'train',
    queries: 809,
    deltaNdcg10: 0.0012,
    better: 61,
    worse: 65,
    p: 0.73,
    source: `${TRAIN('hybrid+rm3')} --model all-MiniLM-L6-v2`,
  },
  {
    technique: 'wordnet',
    base: 'hybrid',
    embedding: 'all-MiniLM-L6-v2',
    generator: null,
    split: 'train',
    queries: 809,
    deltaNdcg10: -0.0037,
    better: 18,
    worse: 30,
    p: 0.1,
    source: `${TRAIN('hybrid+wordnet')} --model all-MiniLM-L6-v2`,
  },
  // LLM-free on the app's hybrid (USE-lite, adaptive fusion), test: earlier measurements.
  {
    technique: 'rm3',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: null,
    split: 'test',
    queries: 300,
    deltaNdcg10: -0.0056,
    better: 34,
    worse: 45,
    p: 0.53,
    source: README,
  },
  {
    technique: 'wordnet',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: null,
    split: 'test',
    queries: 300,
    deltaNdcg10: -0.002,
    better: 9,
    worse: 21,
    p: 0.7,
    source: README,
  },
  // LLM techniques with the generator a user can run offline (SmolLM2-135M), hybrid USE-lite.
  {
    technique: 'hyde',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: 'SmolLM2-135M-Instruct',
    split: 'test',
    queries: 300,
    deltaNdcg10: 0.0047,
    better: 13,
    worse: 9,
    p: 0.26,
    source: README,
  },
  {
    technique: 'hyde',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: 'SmolLM2-135M-Instruct',
    split: 'test, first 100',
    route: 'moderate',
    queries: 55,
    deltaNdcg10: 0.0175,
    better: 6,
    worse: 2,
    p: null,
    source: README,
  },
  {
    technique: 'fusion',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: 'SmolLM2-135M-Instruct',
    split: 'test',
    queries: 300,
    deltaNdcg10: -0.0975,
    better: 5,
    worse: 77,
    p: 0.001,
    source: README,
    caveat: LIST_SCORES,
  },
  ...(
    [
      ['simple', 32, -0.0853],
      ['moderate', 55, -0.1168],
      ['complex', 13, -0.1456],
    ] as const
  ).map(([route, queries, delta]): TechniqueMeasurement => ({
    technique: 'fusion',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: 'SmolLM2-135M-Instruct',
    split: 'test, first 100',
    route,
    queries,
    deltaNdcg10: delta,
    better: 0,
    worse: 0,
    p: null,
    source: README,
    caveat: LIST_SCORES,
  })),
  {
    // The complex route runs rewrite + HyDE + fusion + keyphrases: rewrite is not measured alone.
    technique: 'rewrite',
    base: 'hybrid',
    embedding: 'USE-lite',
    generator: 'SmolLM2-135M-Instruct',
    split: 'test, first 100',
    route: 'complex',
    queries: 13,
    deltaNdcg10: -0.1688,
    better: 0,
    worse: 0,
    p: null,
    source: README,
    caveat: LIST_SCORES,
  },
];

/**
 * On by default only with a measured gain on the TRAIN split against the plain base, on every
 * base measured (lexical, and hybrid with each embedding model: a default must not hurt any of
 * them); `route` narrows to measurements of that route. Test-split figures never switch a
 * technique on (they are for reporting, never for choosing).
 */
export function supportedByEvidence(
  technique: Technique,
  route?: Complexity,
  evidence: readonly TechniqueMeasurement[] = TECHNIQUE_EVIDENCE,
): boolean {
  const train = evidence.filter(
    (m) => m.technique === technique && m.split === 'train' && (m.route ?? route) === route,
  );
  return train.length > 0 && train.every((m) => m.deltaNdcg10 > 0);
}

const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(3)}`;

/** One line for the UI: why the technique is on or off by default, with the figure behind it. */
export function techniqueReason(
  technique: Technique,
  evidence: readonly TechniqueMeasurement[] = TECHNIQUE_EVIDENCE,
): string {
  const on = supportedByEvidence(technique, undefined, evidence);
  const rows = evidence.filter((m) => m.technique === technique);
  // The most relevant figure: train before test, all queries before one route.
  const best = [...rows].sort(
    (a, b) =>
      Number(a.split !== 'train') - Number(b.split !== 'train') ||
      Number(a.route !== undefined) - Number(b.route !== undefined) ||
      Number(a.base !== 'hybrid') - Number(b.base !== 'hybrid'),
  )[0];
  if (!best)
    return technique === 'routing'
      ? 'On: routing only decides which techniques a query may use; it does not change a ranking by itself.'
      : 'Off by default: not measured.';
  const models = [best.embedding, best.generator].filter(Boolean).join(', ');
  const where = `${best.route ? `${best.route} queries, ` : ''}SciFact ${best.split}, ${best.queries} claims${models ? `, ${models}` : ''}`;
  const sig =
    (best.p !== null && best.p >= 0.05 ? ', not significant' : '') +
    (best.caveat ? `; ${best.caveat}` : '') +
    (!on && best.deltaNdcg10 > 0 ? '; not a gain on every search measured' : '');
  return `${on ? 'On' : 'Off'} by default: measured ${signed(best.deltaNdcg10)} nDCG@10 against plain ${best.base} search on scientific claims (${where}${sig}).`;
}
