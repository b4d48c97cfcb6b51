// Node-only convenience for tests, eval and bench: reads the sync build's WASM from node_modules
// and opens an in-memory library. Never imported by browser code (it uses node:fs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openMemoryDatabase, type OpenedDatabase } from './open-database';

let wasm: Uint8Array | null = null;

/** The bytes of `@journeyapps/wa-sqlite/dist/wa-sqlite.wasm`, read once. */
export function syncWasmBytes(): Uint8Array {
  wasm ??= readFileSync(
    createRequire(import.meta.url).resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm'),
  );
  return wasm;
}

/** An in-memory library database (a fresh WASM instance each call, so tests are isolated). */
export function openNodeDatabase(): Promise<OpenedDatabase> {
  return openMemoryDatabase(syncWasmBytes());
}
