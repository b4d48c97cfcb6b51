import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from './node-kernel';
import { int16ToLeBytes, runSelfTest, type GoldenFile } from './self-test';
import { loadUseLite } from './use-lite';

const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-int16-sha256.json'), 'utf8'),
) as GoldenFile;

describe('determinism golden file (wasm/golden/use-lite-int16-sha256.json)', () => {
  it('holds at least 50 texts', () => {
    expect(golden.entries.length).toBeGreaterThanOrEqual(50);
  });

  it('is reproduced byte for byte by the canonical path', async () => {
    const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
    const result = await runSelfTest(model, golden);
    expect(result.mismatches).toEqual([]);
    expect(result.ok).toBe(true);
    // Independent hash (node:crypto) over the same little-endian bytes.
    for (const [i, entry] of golden.entries.slice(0, 10).entries()) {
      const bytes = int16ToLeBytes(model.embedInt16(entry.text));
      expect(createHash('sha256').update(bytes).digest('hex'), `entry ${i}`).toBe(entry.sha256);
    }
  });

  it('reports a mismatch when a vector changes', async () => {
    const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
    const tampered: GoldenFile = {
      ...golden,
      entries: golden.entries.map((e, i) => (i === 3 ? { ...e, sha256: '0'.repeat(64) } : e)),
    };
    const result = await runSelfTest(model, tampered);
    expect(result.ok).toBe(false);
    expect(result.mismatches.map((m) => m.index)).toEqual([3]);
  });
});
