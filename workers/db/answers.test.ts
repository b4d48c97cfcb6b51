// The library's answers over a real in-memory library (lexical retrieval, no embed worker): an
// extractive answer kept in the history with its CRAG metadata; generated answers through the
// real LLM service's scripted backend; a backend dying mid-stream keeps the partial answer with
// the extractive one beside it; the web step through the real web service (offline: the library
// answer stands with a notice); diagnostics over what was asked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createError } from '../shared/errors';
import { MAX_QUESTION_CHARS } from '../shared/answer-api';
import type { GenerateRequest } from '../shared/llm-api';
import { createLlmService } from '../llm/service';
import { createScriptedGenerator } from '../llm/scripted';
import { createFakeClock } from '../web/fake-clock.testkit';
import { createTestWebService } from '../web/web-service.testkit';
import type { AnswerDeps } from '../answer/types';
import { readOncePerAsk } from './answers';
import { openAnswerLibrary } from './answer-library.testkit';
import type { LibraryServiceDeps, LlmWorker } from './service';

const DOCS: Array<[string, string]> = [
  [
    'birds/pelicans.txt',
    'The coastal pelican colony nests on the cliffs above the harbour. Pelicans feed on fish at dawn.',
  ],
  ['cooking/jam.md', 'Simmer the gooseberries with sugar until the jam sets in warm jars.'],
  ['space/mars.txt', 'The rover drilled into the red planet rock and sent mineral readings.'],
];
const QUESTION = 'Where does the coastal pelican colony nest?';

const library = (extra: Partial<LibraryServiceDeps> = {}) =>
  openAnswerLibrary(DOCS, {
    wrapLlm: () => createLlmService({ env: { wasm: WebAssembly }, fetch }),
    ...extra,
  });

const port = () => ({}) as MessagePort;

/** An LLM worker whose scripted backend writes `reply`, failing after `dieAfter` pieces. */
function dyingLlm(reply: string, dieAfter: number): LlmWorker {
  const gen = createScriptedGenerator({ rules: [{ match: 'Question:', reply }] });
  return {
    status: async () => ({ active: { kind: 'scripted', reason: 'test' } }) as never,
    cancel: async () => undefined,
    async generate(request: GenerateRequest, _id?: string, onToken?: (p: string) => void) {
      let n = 0;
      return gen.generate(request, {
        onToken: (p) => {
          onToken?.(p);
          if (++n === dieAfter) throw createError('NETWORK_ERROR', { reason: 'Endpoint gone.' });
        },
      });
    },
  };
}

describe('library answers', () => {
  it('answers extractively with citations, keeps the answer with its CRAG metadata', async () => {
    const lib = await library();
    const answer = await lib.ask({ question: QUESTION });
    expect(answer.mode).toBe('extractive');
    expect(answer.sentences.length).toBeGreaterThan(0);
    expect(answer.sentences.every((s) => s.citations.length > 0)).toBe(true);
    expect(answer.references[0]?.path).toBe('birds/pelicans.txt');
    const doc = await lib.getDocument(answer.references[0]!.documentId!);
    const ref = answer.references[0]!;
    expect(answer.sentences[0]?.text).toBe(doc.text.slice(ref.start, ref.end));
    expect(answer.crag.steps.map((s) => s.kind)).toEqual(
      expect.arrayContaining(['retrieve', 'evaluate', 'correct', 'refine', 'answer', 'check']),
    );
    expect(answer.crag.steps.every((s) => Number.isFinite(s.ms) && s.ms >= 0)).toBe(true);
    expect(['CORRECT', 'AMBIGUOUS', 'INCORRECT']).toContain(answer.crag.decision);
    expect(answer.crag.evaluator.passages[0]?.components).toBeDefined();
    const [kept] = await lib.listAnswers();
    expect(kept).toMatchObject({
      id: answer.id,
      question: QUESTION,
      decision: answer.crag.decision,
    });
    expect((await lib.getAnswer(answer.id)).crag).toEqual(answer.crag);
    expect((await lib.answerDiagnostics()).answers).toBe(1);
    expect((JSON.parse(await lib.exportAnswers()) as { answers: unknown[] }).answers).toHaveLength(
      1,
    );
  });

  it('says the library does not seem to hold what is absent, with the closest passages', async () => {
    const lib = await library();
    const answer = await lib.ask({ question: 'What is the boiling point of liquid nitrogen?' });
    expect(answer.crag.decision).toBe('INCORRECT');
    expect(answer.notFound).toBe(true);
    expect(answer.sentences).toHaveLength(0);
    expect(answer.crag.actions.map((a) => a.kind)).toContain('not-found');
    expect(answer.crag.webUsed).toBe(false);
  });

  it('reorders an INCORRECT retrieval by the evaluator, closest passages best first', async () => {
    const lib = await library();
    // Words of three documents, none of which answers: judged INCORRECT with three passages.
    const answer = await lib.ask({ question: 'How warm is the planet at dawn?' });
    expect(answer.crag.decision).toBe('INCORRECT');
    // The shipped fit corrects INCORRECT retrievals by reordering them (no second retrieval).
    expect(answer.crag.actions.find((a) => a.kind === 'rerank')).toMatchObject({
      status: 'ok',
      applied: true,
    });
    const scores = answer.closest.map((p) => p.finalScore);
    expect(scores.length).toBeGreaterThan(1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const all = answer.crag.evaluator.passages.map((p) => p.finalScore);
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('answers over an empty library that it holds nothing, without a crash', async () => {
    const lib = await openAnswerLibrary([], {
      wrapLlm: () => createLlmService({ env: { wasm: WebAssembly }, fetch }),
    });
    const answer = await lib.ask({ question: QUESTION });
    expect(answer.notFound).toBe(true);
    expect(answer.crag.decision).toBe('INCORRECT');
    expect(answer.sentences).toEqual([]);
    expect(answer.closest).toEqual([]);
  });

  it('refuses an empty question with INVALID_QUERY', async () => {
    const lib = await library();
    await expect(lib.ask({ question: '   ' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('generates through the scripted backend, streaming, and flags the sentence it made up', async () => {
    const llm = createLlmService({ env: { wasm: WebAssembly }, fetch });
    await llm.useScripted();
    const lib = await library({ wrapLlm: () => llm });
    await lib.connectLlm(port());
    const streamed: string[] = [];
    const answer = await lib.ask({ question: QUESTION }, 'r1', (t) => void streamed.push(t));
    expect(answer.mode).toBe('generated');
    expect(streamed.length).toBeGreaterThan(1);
    const madeUp = answer.sentences.find((s) => s.text.includes('lunar astronauts'));
    expect(madeUp?.support.label).toBe('unsupported');
    expect(answer.crag.llmUsed).toBe(true);
  });

  it("checks a generated sentence with its cited strip's document context", async () => {
    // the sentence draws on both pelican sentences and cites one strip: the other sentence is
    // the strip's context (same document, within the window), so only the context covers it all
    const reply = 'The coastal pelican colony on the harbour cliffs feeds on fish at dawn [1].';
    const gen = createScriptedGenerator({ rules: [{ match: 'Question:', reply }] });
    const llm: LlmWorker = {
      status: async () => ({ active: { kind: 'scripted', reason: 'test' } }) as never,
      cancel: async () => undefined,
      generate: async (request: GenerateRequest, _id?: string, onToken?: (p: string) => void) =>
        gen.generate(request, { ...(onToken ? { onToken } : {}) }),
    };
    const lib = await library({ wrapLlm: () => llm });
    await lib.connectLlm(port());
    const answer = await lib.ask({ question: QUESTION });
    expect(answer.mode).toBe('generated');
    const c = answer.sentences[0]!.support.components;
    expect(answer.strips.find((s) => s.id === answer.sentences[0]!.stripIds[0])?.path).toBe(
      'birds/pelicans.txt',
    );
    expect(c.covBest).toBeLessThan(1);
    expect(c.ctxCov).toBeGreaterThan(c.covBest!);
    expect(c.ctxCov).toBe(1);
  });

  it('keeps a partial answer, marked, with the extractive answer beside it, when the backend dies', async () => {
    const lib = await library({
      wrapLlm: () =>
        dyingLlm('The pelican colony nests on the cliffs [1]. It also nests on the moon [1].', 6),
    });
    await lib.connectLlm(port());
    const answer = await lib.ask({ question: QUESTION });
    expect(answer.partial).toBe(true);
    expect(answer.sentences[0]?.text).toMatch(/^The pelican colony/);
    expect(answer.extractive?.mode).toBe('extractive');
    expect(answer.extractive?.sentences.length).toBeGreaterThan(0);
    expect((await lib.listAnswers())[0]?.partial).toBe(true);
  });

  it('cuts a 10 KB question to its first MAX_QUESTION_CHARS characters, says so, and answers', async () => {
    const lib = await library();
    const long = `${QUESTION} ${'pelican harbour '.repeat(700)}`.slice(0, 10_240);
    const answer = await lib.ask({ question: long });
    expect(answer.question).toBe(long.slice(0, MAX_QUESTION_CHARS));
    expect(answer.notices).toContain(
      `The question was cut to its first ${MAX_QUESTION_CHARS} characters.`,
    );
    expect(answer.sentences.length).toBeGreaterThan(0);
    expect((await lib.listAnswers())[0]?.question).toBe(answer.question);
  });

  it('keeps what was written, marked partial, with the extractive answer, when the user stops it', async () => {
    const llm = createLlmService({ env: { wasm: WebAssembly }, fetch });
    await llm.useScripted();
    const lib = await library({ wrapLlm: () => llm });
    await lib.connectLlm(port());
    const streamed: string[] = [];
    let stopped = false;
    const answer = await lib.ask({ question: QUESTION }, 'r1', (t) => {
      streamed.push(t);
      if (!stopped && streamed.length === 1) {
        stopped = true;
        void lib.cancelAnswer('r1');
      }
    });
    expect(stopped).toBe(true);
    expect(answer.mode).toBe('generated');
    expect(answer.partial).toBe(true);
    // What was streamed before Stop is the answer; the scripted reply's made-up end never came.
    expect(answer.sentences.map((s) => s.text).join(' ')).not.toMatch(/lunar astronauts/);
    expect(answer.extractive?.mode).toBe('extractive');
    expect(answer.extractive?.sentences.length).toBeGreaterThan(0);
    expect((await lib.listAnswers())[0]?.partial).toBe(true);
    // The companion, read from the ask's own retrievals, is the answer an extractive ask gives.
    const alone = await lib.ask({ question: QUESTION, mode: 'extractive', allowLlm: false });
    expect(answer.extractive?.sentences.map((s) => [s.text, s.support.label])).toEqual(
      alone.sentences.map((s) => [s.text, s.support.label]),
    );
  });

  it('keeps the web results that arrived when a provider breaks off half way, and says so', async () => {
    const tavily = readFileSync(
      new URL('../web/fixtures/tavily-search.json', import.meta.url),
      'utf8',
    );
    const exa = readFileSync(new URL('../web/fixtures/exa-search.json', import.meta.url), 'utf8');
    const clock = createFakeClock();
    const web = createTestWebService({
      fetch: async (input) => {
        if (new URL(input).host !== 'api.exa.ai') return new Response(tavily, { status: 200 });
        // Exa starts answering, then the connection drops in the middle of the body.
        const half = new TextEncoder().encode(exa.slice(0, exa.length >> 1));
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(half);
            c.error(new TypeError('network connection lost'));
          },
        });
        return new Response(body, { status: 200 });
      },
      clock,
      isOnline: () => true,
      maxRetries: 0,
    });
    await web.init();
    await web.updateProvider('tavily', { enabled: true, apiKey: 'tvly-dev-KEY-0123456789' });
    await web.updateProvider('exa', { enabled: true, apiKey: 'exa-KEY-0123456789' });
    const lib = await library({ wrapWeb: () => web });
    await lib.connectWeb(port());
    // A complex question: its route asks both providers (a simple one would skip Exa).
    const answer = await lib.ask({
      question:
        'How do quantum chromodynamics lattice simulations compare with experiments on gluon confinement and why do they differ?',
    });
    expect(answer.crag.decision).not.toBe('CORRECT');
    const step = answer.crag.actions.find((a) => a.kind === 'web');
    expect(step).toMatchObject({ status: 'ok', applied: true });
    expect(step?.note).toMatch(
      /partial: exa failed \([A-Z_]+\), the results that arrived are kept/,
    );
    expect(answer.notices).toContain(
      'Some web providers failed part way; the web results that arrived are used (see the corrective actions).',
    );
    expect(answer.crag.webUsed).toBe(true);
    expect(answer.strips.some((s) => s.source === 'web')).toBe(true);
  });

  it('never puts a provider API key in the kept answer or its export, even when the provider echoes it', async () => {
    const KEY = 'tvly-dev-KEY-0123456789';
    const web = createTestWebService({
      // The provider refuses the key and quotes it back in its error body.
      fetch: async () =>
        new Response(
          JSON.stringify({ detail: { error: `Unauthorized: invalid API key ${KEY}` } }),
          {
            status: 401,
          },
        ),
      clock: createFakeClock(),
      isOnline: () => true,
      maxRetries: 0,
    });
    await web.init();
    await web.updateProvider('tavily', { enabled: true, apiKey: KEY });
    const lib = await library({ wrapWeb: () => web });
    await lib.connectWeb(port());
    const answer = await lib.ask({ question: 'quantum chromodynamics lattice gluon confinement' });
    expect(answer.crag.actions.find((a) => a.kind === 'web')).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(JSON.stringify(await lib.getAnswer(answer.id))).not.toContain(KEY);
    expect(await lib.exportAnswers()).not.toContain(KEY);
  });

  it('asks the web when a provider is enabled; offline, the library answer stands with a notice', async () => {
    const web = createTestWebService({
      fetch: async () =>
        new Response(
          readFileSync(new URL('../web/fixtures/tavily-search.json', import.meta.url), 'utf8'),
          {
            status: 200,
          },
        ),
      clock: createFakeClock(),
      isOnline: () => false,
    });
    await web.init();
    await web.updateProvider('tavily', { enabled: true, apiKey: 'tvly-dev-KEY-0123456789' });
    const lib = await library({ wrapWeb: () => web });
    await lib.connectWeb(port());
    // Nothing in the library is about this: the retrieval is not CORRECT, so the web step runs.
    const answer = await lib.ask({ question: 'quantum chromodynamics lattice gluon confinement' });
    expect(answer.crag.decision).not.toBe('CORRECT');
    const step = answer.crag.actions.find((a) => a.kind === 'web');
    expect(step).toMatchObject({ status: 'failed', errorCode: 'OFFLINE' });
    expect(answer.notices).toContain('Web search failed; the library answer stands.');
    expect(answer.crag.webUsed).toBe(false);
    expect(answer.strips.every((s) => s.source !== 'web')).toBe(true);
    expect((await lib.answerDiagnostics()).webTriggerRate).toBe(1);
  });
});

describe('readOncePerAsk', () => {
  const counting = () => {
    const calls = { retrieve: 0, document: 0, chunkVectors: 0, embed: 0 };
    let failNext = false;
    const deps: Pick<AnswerDeps, 'retrieve' | 'document' | 'chunkVectors' | 'embed'> = {
      retrieve: async () => {
        calls.retrieve++;
        return { chunks: [], queryVector: null };
      },
      document: async () => {
        calls.document++;
        if (failNext) {
          failNext = false;
          throw createError('DB_LOCKED');
        }
        return null;
      },
      chunkVectors: async () => {
        calls.chunkVectors++;
        return new Map<number, Int16Array>();
      },
      embed: async (texts) => {
        calls.embed++;
        return texts.map(() => new Int16Array(1));
      },
    };
    return { calls, deps, failOnce: () => (failNext = true) };
  };

  it('reads each request once, keeps different requests apart and hands out its own list', async () => {
    const { calls, deps } = counting();
    const once = readOncePerAsk(deps);
    const a = await once.retrieve({ query: 'pelicans', limit: 30 });
    const b = await once.retrieve({ query: 'pelicans', limit: 30 });
    await once.retrieve({ query: 'pelicans', limit: 40 });
    expect(calls.retrieve).toBe(2);
    expect(a.chunks).not.toBe(b.chunks);
    await once.embed(['a', 'b'], 'passage');
    await once.embed(['a', 'b'], 'passage');
    await once.embed(['a', 'b'], 'query');
    expect(calls.embed).toBe(2);
    await Promise.all([once.chunkVectors([1, 2]), once.chunkVectors([1, 2])]);
    expect(calls.chunkVectors).toBe(1);
  });

  it('reads again after a failed read', async () => {
    const { calls, deps, failOnce } = counting();
    const once = readOncePerAsk(deps);
    failOnce();
    await expect(once.document(7)).rejects.toThrow();
    await expect(once.document(7)).resolves.toBeNull();
    await once.document(7);
    expect(calls.document).toBe(2);
  });
});
