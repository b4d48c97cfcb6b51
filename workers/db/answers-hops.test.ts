// Multi-hop answers over a real in-memory library (lexical retrieval): off by default; asked for,
// each hop retrieves from the question plus the bridge terms the evidence so far brings, is
// recorded as a `hop` action with its query, and the hops stop at the bound or at CORRECT.
import { describe, expect, it } from 'vitest';
import { bridgeQuery, MAX_HOPS } from '../answer/hops';
import { createLlmService } from '../llm/service';
import { openAnswerLibrary } from './answer-library.testkit';

const DOCS: Array<[string, string]> = [
  ['people/harbour.txt', 'The harbour master of Port Elling is Mara Quist, elected in 2019.'],
  ['people/quist.txt', 'Mara Quist plays the cello in the Elling town orchestra every Sunday.'],
  ['cooking/jam.md', 'Simmer the gooseberries with sugar until the jam sets in warm jars.'],
  ['space/mars.txt', 'The rover drilled into the red planet rock and sent mineral readings.'],
];
// Answered by one document outright. (The instrument the harbour master plays needs both
// documents: the vector-free evaluator fitted on lexical-only retrievals judges its first
// retrieval, which names no instrument, not CORRECT.)
const QUESTION = 'Who is the harbour master of Port Elling?';

const library = () =>
  openAnswerLibrary(DOCS, {
    wrapLlm: () => createLlmService({ env: { wasm: WebAssembly }, fetch }),
  });

describe('multi-hop answers', () => {
  it('hops only when asked, never past CORRECT', async () => {
    const lib = await library();
    const plain = await lib.ask({ question: QUESTION });
    expect(plain.crag.actions.filter((a) => a.kind === 'hop')).toEqual([]);
    // The first retrieval is already judged CORRECT: asking for hops changes nothing.
    expect(plain.crag.decision).toBe('CORRECT');
    const asked = await lib.ask({ question: QUESTION, maxHops: 2 });
    expect(asked.crag.actions.filter((a) => a.kind === 'hop')).toEqual([]);
    expect(asked.crag.steps.map((s) => s.kind)).not.toContain('hop');
  });

  it('hops from the evidence found while unsure, records the query, stops at CORRECT', async () => {
    const lib = await library();
    const question = 'Who counts the orchestra instruments?';
    const plain = await lib.ask({ question });
    // Its first retrieval is not judged CORRECT (so corrective actions run, not "none").
    expect(plain.crag.actions.map((a) => a.kind)).not.toContain('none');
    const hopped = await lib.ask({ question, maxHops: 2 });
    const hops = hopped.crag.actions.filter((a) => a.kind === 'hop');
    // One hop was enough: its retrieval is judged CORRECT, so the second never runs.
    expect(hops).toHaveLength(1);
    expect(hops[0]).toMatchObject({ status: 'ok', applied: true, note: 'hop 1 of 2: CORRECT' });
    // The question plus the words the first evidence brought (the orchestra's cellist).
    expect(hops[0]!.query).toMatch(/^Who counts the orchestra instruments\? .*mara quist/);
    expect(hopped.crag.decision).toBe('CORRECT');
    expect(hopped.crag.steps.map((s) => s.kind)).toContain('hop');
    const many = await lib.ask({ question, maxHops: 50 });
    expect(many.crag.actions.filter((a) => a.kind === 'hop').length).toBeLessThanOrEqual(MAX_HOPS);
  });
});

describe('bridgeQuery', () => {
  it('adds the words the best passages bring that the question lacks, best passage first', () => {
    const q = bridgeQuery('Who plays the cello?', [
      'Mara Quist plays the cello. Mara Quist lives in Elling.',
      'The orchestra of Elling rehearses on Sundays.',
    ]);
    expect(q?.terms.slice(0, 3)).toEqual(['mara', 'quist', 'elling']);
    expect(q?.query.startsWith('Who plays the cello? mara quist elling')).toBe(true);
    // Terms used by an earlier hop are not proposed again; nothing new: null.
    expect(
      bridgeQuery('Who plays the cello?', ['Mara plays the cello.'], new Set(['mara'])),
    ).toBeNull();
  });
});
