// The LLM tier of answers against the scripted backend: streamed generation with citations,
// partial answers when the backend dies or is cancelled, the WSOP relevance grade and the
// entailment judge.
import { describe, expect, it } from 'vitest';
import type { Strip } from '../shared/answer-api';
import { createScriptedGenerator } from '../llm/scripted';
import { answerPrompt, createGenerateAnswer, STREAM_UPDATE_MS } from './generate';
import { applyEntailment, createLlmEntail, createLlmGrade, readYesNo } from './llm-judge';
import { sampleAnswer } from '../shared/answer.testkit';
import { parseCitations } from './parse-citations';

function strip(id: string, title: string, text: string, web = false): Strip {
  return {
    id,
    source: web ? 'web' : 'library',
    documentId: web ? null : 1,
    chunkId: web ? null : 1,
    path: web ? 'https://example.org/a' : 'notes/pelicans.md',
    title,
    start: 0,
    end: text.length,
    text,
    score: 0.9,
    ...(web ? { url: 'https://example.org/a', tier: '2' } : {}),
  };
}

const STRIPS = [
  strip(
    'd1:0-52',
    'Pelicans',
    'Pelican colonies nest on cliffs above the fjord. They fish at dawn.',
  ),
  strip('w1', 'Narwhals', 'Narwhal pods winter under the sea ice.', true),
];
let t = 0;
const now = () => (t += 5);
/** A clock past STREAM_UPDATE_MS at every call: every token reaches onToken. */
const slowNow = () => (t += STREAM_UPDATE_MS);

describe('answerPrompt', () => {
  it('numbers every strip, labels library and web sources, and asks for a citation per sentence', () => {
    const [system, user] = answerPrompt('Where do pelicans nest?', STRIPS);
    expect(system?.content).toMatch(/After every sentence, cite/);
    expect(user?.content).toContain('[1] (library: Pelicans) Pelican colonies nest on cliffs');
    expect(user?.content).toContain('[2] (web, credibility tier 2: Narwhals) Narwhal pods');
    expect(user?.content).toContain('Question: Where do pelicans nest?');
  });
});

describe('createGenerateAnswer', () => {
  it('streams the answer and returns the full text with its citations', async () => {
    const llm = createScriptedGenerator();
    const generate = createGenerateAnswer({ llm, now: slowNow });
    const seen: string[] = [];
    const out = await generate('Where do pelicans nest?', STRIPS, (text) => seen.push(text));
    expect(out.partial).toBe(false);
    expect(out.backend).toBe('scripted');
    expect(seen.length).toBeGreaterThan(3);
    expect(seen[seen.length - 1]).toBe(out.text);
    const parsed = parseCitations(out.text, STRIPS.length);
    expect(parsed[0]).toEqual({
      text: 'Pelican colonies nest on cliffs above the fjord.',
      numbers: [1],
      dropped: [],
    });
    // The scripted model makes a sentence up and cites [1] for it.
    expect(parsed[1]?.text).toMatch(/lunar astronauts/);
  });

  it('keeps what was streamed, marked partial, when the user cancels mid-stream', async () => {
    const llm = createScriptedGenerator({
      rules: [{ match: 'Question:', reply: 'One [1]. Two [1]. Three [1]. Four [1]. Five [1].' }],
    });
    const generate = createGenerateAnswer({ llm, now: slowNow });
    const ctrl = new AbortController();
    const out = await generate(
      'q',
      STRIPS,
      (text) => {
        if (text.includes('Two')) ctrl.abort();
      },
      ctrl.signal,
    );
    expect(out.partial).toBe(true);
    expect(out.text.startsWith('One [1]. Two')).toBe(true);
    expect(out.text).not.toContain('Five');
  });

  it('keeps the partial answer when the backend dies mid-stream', async () => {
    let pieces = 0;
    const dying = createScriptedGenerator({
      rules: [{ match: 'Question:', reply: 'Alpha holds [1]. Beta holds [2]. Gamma holds [1].' }],
    });
    const llm = {
      kind: dying.kind,
      generate: (
        req: Parameters<typeof dying.generate>[0],
        opts?: Parameters<typeof dying.generate>[1],
      ) =>
        dying.generate(req, {
          ...opts,
          onToken: (p: string) => {
            opts?.onToken?.(p);
            if (++pieces === 4) throw new Error('GPU device lost');
          },
        }),
    };
    const out = await createGenerateAnswer({ llm, now })('q', STRIPS, () => undefined);
    expect(out.partial).toBe(true);
    expect(out.text).toBe('Alpha holds [1]. Beta');
  });

  it('returns an empty partial answer when the backend fails before any text', async () => {
    const llm = createScriptedGenerator({ rules: [{ match: 'Question:', fail: 'NETWORK_ERROR' }] });
    const out = await createGenerateAnswer({ llm, now })('q', STRIPS, () => undefined);
    expect(out).toMatchObject({ text: '', partial: true, backend: 'scripted' });
  });
});

describe('createGenerateAnswer: bounded updates', () => {
  it('sends the text so far at most every STREAM_UPDATE_MS, and the whole text at the end', async () => {
    const pieces = Array.from({ length: 2000 }, (_, i) => `w${i} `);
    const llm = createScriptedGenerator({
      rules: [{ match: 'Question:', reply: pieces.join('') }],
    });
    let clock = 0;
    const seen: string[] = [];
    const out = await createGenerateAnswer({ llm, now: () => (clock += 1), maxTokens: 5000 })(
      'q',
      STRIPS,
      (text) => seen.push(text),
    );
    // ~2 clock reads per token, one update per 50 ticks: ~1/25 of the tokens, not one each.
    expect(seen.length).toBeLessThan(pieces.length / 10);
    expect(seen.at(-1)).toBe(out.text);
  });

  it('marks a reply cut at its size budget', async () => {
    const llm = {
      kind: 'http' as const,
      generate: async () => ({
        text: 'x',
        finishReason: 'cut' as const,
        tokens: 1,
        backend: 'http' as const,
      }),
    };
    const out = await createGenerateAnswer({ llm, now })('q', STRIPS, () => undefined);
    expect(out).toMatchObject({ text: 'x', partial: false, cut: true });
  });
});

describe('LLM judges', () => {
  it('reads yes / no from the first word only', () => {
    expect(readYesNo(' Yes, it is.')).toBe(1);
    expect(readYesNo('no')).toBe(0);
    expect(readYesNo('Not relevant')).toBe(0);
    expect(readYesNo('Maybe')).toBeNull();
    expect(readYesNo('')).toBeNull();
  });

  it('grades each passage with the WSOP relevant: yes/no question', async () => {
    const llm = createScriptedGenerator();
    const grade = createLlmGrade(llm);
    const out = await grade('where do pelican colonies nest', [
      { id: 'a', text: 'Pelican colonies nest on cliffs.' },
      { id: 'b', text: 'Narwhal pods winter under the ice.' },
    ]);
    expect(out).toEqual([1, 0]);
    expect(llm.calls[0]?.prompt).toMatch(
      /Query: where do pelican colonies nest\nDocument: Pelican/,
    );
    expect(llm.calls[0]?.prompt).toMatch(/Relevant \(yes\/no\):$/);
  });

  it('gives null grades when the backend answers neither, and stops after repeated failures', async () => {
    const vague = createScriptedGenerator({ rules: [{ match: 'Query:', reply: 'Perhaps.' }] });
    expect(await createLlmGrade(vague)('q', [{ id: 'a', text: 'x' }])).toEqual([null]);
    const broken = createScriptedGenerator({
      rules: [{ match: 'Query:', fail: 'PROVIDER_ERROR' }],
    });
    const passages = ['a', 'b', 'c', 'd'].map((id) => ({ id, text: id }));
    expect(await createLlmGrade(broken)('q', passages)).toEqual([null, null, null, null]);
    expect(broken.calls).toHaveLength(2);
  });

  it('judges entailment of a sentence by its evidence; no evidence is 0', async () => {
    const llm = createScriptedGenerator();
    const entail = createLlmEntail(llm);
    expect(await entail('Pelican colonies nest on cliffs.', [STRIPS[0]!.text])).toBe(1);
    expect(await entail('Lunar astronauts demonstrated it in 1851.', [STRIPS[0]!.text])).toBe(0);
    expect(await entail('Anything.', [])).toBe(0);
  });
});

describe('applyEntailment', () => {
  it('blends the judge into each cited sentence and relabels it; uncited ones stay as they are', async () => {
    const answer = sampleAnswer({
      mode: 'generated',
      labels: ['supported', 'supported', 'unsupported'],
    });
    answer.strips = [{ ...STRIPS[0]!, id: answer.references[0]!.stripId }];
    answer.sentences[0]!.text = 'Pelican colonies nest on cliffs.';
    answer.sentences[1]!.text = 'Lunar astronauts demonstrated it in 1851.';
    answer.sentences[2]!.stripIds = [];
    answer.sentences.forEach((s) => (s.support.components = { lexical: 0.7 }));
    const label = (score: number) =>
      score >= 0.6 ? 'supported' : score < 0.4 ? 'unsupported' : 'partly';
    const out = await applyEntailment(answer, createLlmEntail(createScriptedGenerator()), label, {
      now,
    });
    expect(out.sentences.map((s) => [s.support.label, s.support.components.llm])).toEqual([
      ['supported', 1],
      ['unsupported', 0],
      ['unsupported', undefined],
    ]);
    expect(out.sentences[1]!.support.score).toBeCloseTo(0.35);
    expect(out.crag.steps.at(-1)).toMatchObject({
      kind: 'check',
      note: 'LLM entailment judge: 2 sentences',
    });
    // Already judged by the service: left alone.
    expect(
      await applyEntailment(out, createLlmEntail(createScriptedGenerator()), label, { now }),
    ).toBe(out);
  });
});
