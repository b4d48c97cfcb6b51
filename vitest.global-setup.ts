// Vitest global setup: build the WASM runtime once, before any test process reads it, when it is
// missing or older than wasm/assembly (test files build it lazily too, but several forks doing so
// at once would race on the output file).
import { ensureKernelBuilt } from './workers/embed/node-kernel';

export default function setup(): void {
  ensureKernelBuilt();
}
