// HyDE on the canonical embedding path (USE-lite on the WASM runtime, real weights), with the
// hypothetical document SmolLM2-135M-Instruct actually wrote for this query in Chromium
// (workers/query-plan/browser-smoke, wllama) replayed by the scripted generator.
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { loadUseLite, type UseLiteModel } from '../embed/use-lite';
import { createScriptedGenerator } from '../llm/scripted';
import { createHyde } from './hyde';
import { manualClock } from './doubles.testkit';
import type { EmbedFn } from './types';
import { cosine } from './vectors';

const QUERY = 'How does aspirin reduce the risk of heart attack?';
const SMOLLM2_HYDE =
  'Alpabine, a widely used pain reliever, has been shown to have a significant impact on reducing the risk of heart attack by 45%. This is attributed to several mechanisms:\n\n1. Aspirin prevents blood from clotting, which is a key factor in reducing the risk of heart attacks.\n2. Aspirin acts as a vasodilator, which means it relaxes the blood vessel walls, reducing the blood pressure and blood flow to the heart.\n3. Aspirin also reduces the amount of cholesterol in the blood, which is a major risk factor for heart attacks.';

let model: UseLiteModel;
let embed: EmbedFn;
beforeAll(async () => {
  model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  embed = async (texts) => texts.map((t) => model.embedInt16(t));
});

/** HyDE whose generator answers every HyDE prompt with the recorded SmolLM2 passage. */
function scriptedHyde() {
  const g = createScriptedGenerator({ rules: [{ match: 'Question:', reply: SMOLLM2_HYDE }] });
  return createHyde({
    llm: { kind: 'scripted', generate: g.generate },
    embed,
    clock: manualClock(),
  });
}

describe('HyDE with the canonical USE-lite embeddings', () => {
  it('HYDE-002: the hypothetical document vector differs from the query vector (cosine < 0.95) yet stays on topic', async () => {
    const hyde = scriptedHyde();
    const out = await hyde.expand(QUERY);
    const q = model.embedInt16(QUERY);
    const c = cosine(out.vector, q);
    expect(c).toBeLessThan(0.95);
    expect(c).toBeGreaterThan(0.3); // an aspirin passage, not noise
    const unrelated = model.embedInt16('The football match ended in a draw after extra time.');
    expect(cosine(out.vector, unrelated)).toBeLessThan(c);
  });

  it('averaging with the query vector (the paper) moves the vector back toward the query', async () => {
    const hyde = scriptedHyde();
    const q = model.embedInt16(QUERY);
    const docOnly = await hyde.expand(QUERY);
    const withQuery = await hyde.expand(QUERY, { includeQuery: true });
    expect(cosine(withQuery.vector, q)).toBeGreaterThan(cosine(docOnly.vector, q));
  });
});
