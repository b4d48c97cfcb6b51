// Unit and boundary tests run in Node, beside the code (`*.test.ts`); e2e lives in `e2e/`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'app/**/*.test.ts',
      'workers/**/*.test.ts',
      'wasm/**/*.test.ts',
      'bench/**/*.test.ts',
      'eval/**/*.test.ts',
      'ml/**/*.test.ts',
      'lab/**/*.test.ts',
      'tools/**/*.test.ts',
      'experiments/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['vitest.global-setup.ts'],
  },
});
