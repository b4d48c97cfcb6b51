// Determinism self-test: SHA-256 of each canonical int16 vector (little-endian bytes) for the texts
// of the golden file wasm/golden/use-lite-int16-sha256.json. Node tests and the browser (the embed
// worker's `selfTest()`, called by the e2e test in Chromium) run this same code.
// Must not import Node modules: hashing uses WebCrypto (globalThis.crypto.subtle).
import type { HashCheckResult } from '../shared/embed-api';

export interface GoldenFile {
  modelId: string;
  modelVersion: string;
  dim: number;
  entries: Array<{ text: string; sha256: string }>;
}

/** The golden texts' hashes against the golden file's. */
export type SelfTestResult = HashCheckResult;

/** The canonical byte form of a vector: int16 little-endian, regardless of platform. */
export function int16ToLeBytes(v: Int16Array): Uint8Array {
  const out = new Uint8Array(v.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setInt16(i * 2, v[i]!, true);
  return out;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function hashVectors(vectors: Int16Array[]): Promise<string[]> {
  return Promise.all(vectors.map((v) => sha256Hex(int16ToLeBytes(v))));
}

/** Embeds the golden texts with `embed` and compares their hashes byte for byte. */
export async function runSelfTest(
  model: { id: string; version: string; embedInt16(text: string): Int16Array },
  golden: GoldenFile,
): Promise<SelfTestResult> {
  const hashes = await hashVectors(golden.entries.map((e) => model.embedInt16(e.text)));
  const mismatches = golden.entries.flatMap((e, index) =>
    hashes[index] === e.sha256
      ? []
      : [{ index, text: e.text, expected: e.sha256, actual: hashes[index]! }],
  );
  return {
    modelId: model.id,
    modelVersion: model.version,
    ok:
      mismatches.length === 0 &&
      model.id === golden.modelId &&
      model.version === golden.modelVersion,
    total: golden.entries.length,
    mismatches,
    hashes,
  };
}
