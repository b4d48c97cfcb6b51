// Issue 29 item 3: one LLM reply cannot freeze the tab. An OpenAI-compatible endpoint on
// 127.0.0.1 streams a 64 MB answer, as many deltas or as one giant delta; the llm worker cuts it
// (200 KB of text, or one 2 MB event) and closes the connection in under 2 s, the Answer view
// says "The reply was cut at 200 KB", and the page answers evaluate() promptly all along.
// HOSTILE_BASELINE=1 runs a one-sentence reply instead, to measure the page's own round trips.
// Before the budget, 16 MB froze the main thread 10.2 s and 48 MB crashed the tab.
import { test, expect, type Page } from '@playwright/test';
import type { ServerResponse } from 'node:http';
import { askGenerated, mockLlmEndpoint, sseDelta, withHttpEndpoint } from './helpers';

const MB = 1024 * 1024;
const SENTENCE = 'Smoking significantly increases the risk of lung cancer [1]. ';
let endpoint: Awaited<ReturnType<typeof mockLlmEndpoint>>;
type Shape = 'deltas' | 'one-delta' | 'small';
let shape: Shape = 'deltas';
const served: Array<{ bytes: number; ms: number; start: number; end: number }> = [];

/** Writes `total` bytes made by `piece(i)`, honouring backpressure, until done or the client leaves. */
function stream(res: ServerResponse, total: number, piece: (i: number) => string, end: string) {
  const start = Date.now();
  let bytes = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
    served.push({ bytes, ms: Date.now() - start, start, end: Date.now() });
  });
  const pump = (i: number): void => {
    while (!closed && bytes < total) {
      const chunk = piece(i++);
      bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', () => pump(i));
        return;
      }
    }
    if (!closed) res.end(end);
  };
  pump(0);
}

test.beforeAll(async () => {
  endpoint = await mockLlmEndpoint((body, res) => {
    if (!body.includes('cite the sources')) {
      const reply = body.includes('simple, moderate or complex') ? 'moderate' : ' yes';
      return res.end(`${sseDelta(reply)}data: [DONE]\n\n`);
    }
    const text = SENTENCE.repeat(Math.ceil((64 * 1024) / SENTENCE.length));
    if (shape === 'small') {
      stream(res, 1, () => sseDelta(`${SENTENCE}`), 'data: [DONE]\n\n');
    } else if (shape === 'deltas') {
      stream(res, 64 * MB, () => sseDelta(text), 'data: [DONE]\n\n');
    } else {
      const head = 'data: {"choices":[{"delta":{"content":"';
      stream(res, 64 * MB, (i) => (i === 0 ? head : 'x'.repeat(MB)), '"}}]}\n\ndata: [DONE]\n\n');
    }
  });
});
test.afterAll(() => endpoint.close());

/** Times page.evaluate round trips until `done` resolves: when each began and how long it took. */
async function roundTrips(page: Page, done: Promise<unknown>): Promise<Array<[number, number]>> {
  let finished = false;
  void done.finally(() => (finished = true));
  const trips: Array<[number, number]> = [];
  while (!finished) {
    const t0 = Date.now();
    await page.evaluate(() => document.body.childElementCount);
    trips.push([t0, Date.now() - t0]);
    await new Promise((r) => setTimeout(r, 50));
  }
  return trips;
}

const SHAPES: Shape[] = process.env.HOSTILE_BASELINE ? ['small'] : ['deltas', 'one-delta'];
for (const s of SHAPES) {
  test(`${s === 'small' ? 'baseline: a one-sentence reply' : `a 64 MB reply as ${s === 'deltas' ? 'many deltas' : 'one delta'} is cut in under 2 s`}, with the tab responsive`, async ({
    page,
  }) => {
    shape = s;
    served.length = 0;
    await withHttpEndpoint(page, endpoint.base);
    await expect(page.getByTestId('llm-http-current')).toBeVisible();
    const question = 'Does smoking raise lung cancer risk?';
    await askGenerated(page, question);
    const answer = page.getByTestId('answer').first();
    const shown = expect(answer).toHaveAttribute('data-question', question, { timeout: 60_000 });
    const trips = await roundTrips(page, shown);
    await shown;

    if (s !== 'small')
      await expect(
        page.getByTestId('answer-notice').filter({ hasText: 'cut at 200 KB' }),
      ).toHaveCount(1);
    expect(served.length).toBe(1);
    // The worker stopped reading and closed the connection long before 64 MB. (What the server
    // managed to write before the close depends on socket buffers and the machine's load: 16 MB
    // to 20 MB have been seen, so the bound is half the reply.)
    expect(served[0]!.ms).toBeLessThan(2000);
    expect(served[0]!.bytes).toBeLessThan(32 * MB);
    // The page answered promptly while the reply streamed and for a second after it was cut (the
    // rest of the answer pipeline, model checks included, is not this test's subject).
    const { start, end } = served[0]!;
    const during = trips.filter(([t0, dt]) => t0 + dt >= start && t0 <= end + 1000);
    expect(during.length).toBeGreaterThan(0);
    console.log(
      `slowest round trip while streaming (${s}): ${Math.max(...during.map(([, dt]) => dt))} ms`,
    );
    if (s === 'small') return;
    // 5 s: with a one-sentence reply (HOSTILE_BASELINE=1) the slowest round trip in the same window
    // was 2.2 s on the 2-core test machine under load (other work in the page); before the budget
    // a 16 MB reply froze the page 10.2 s and 48 MB crashed it.
    expect(Math.max(...during.map(([, dt]) => dt))).toBeLessThan(5000);
    if (s === 'deltas') {
      await expect(answer).toHaveAttribute('data-mode', 'generated');
      await expect(answer.getByTestId('answer-sentence').first()).toContainText('lung cancer');
    }
  });
}
