#!/usr/bin/env node
// `npm test`: typecheck, lint, the fitted-files check, unit tests, production build, end-to-end
// tests; then one summary line "N passed, N failed" that CI reads. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const run = (label, cmd, args, env = {}) => {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
};

mkdirSync('test-results', { recursive: true });
const counts = { passed: 0, failed: 0, skipped: 0 };

function readVitest(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  counts.passed += r.numPassedTests ?? 0;
  counts.failed += r.numFailedTests ?? 0;
  counts.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

function readPlaywright(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  counts.passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
  counts.failed += r.stats?.unexpected ?? 0;
  counts.skipped += r.stats?.skipped ?? 0;
}

const steps = [
  () => run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  () => run('lint', 'npx', ['eslint', '.']),
  () => run('format', 'npx', ['prettier', '--check', '.']),
  // the shipped fitted files against workers/fitted/manifest.json and the code (seconds)
  () => run('fitted', 'npm', ['run', 'fit', '--', '--check']),
  () => {
    const ok = run('unit', 'npx', [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=test-results/vitest.json',
    ]);
    readVitest('test-results/vitest.json');
    return ok;
  },
  () => run('build', 'npm', ['run', 'build']),
  () => {
    const ok = run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json',
    });
    readPlaywright('test-results/playwright.json');
    return ok;
  },
];

let ok = true;
for (const step of steps) {
  if (!step()) {
    ok = false;
    break;
  }
}
if (!ok && counts.failed === 0) counts.failed = 1; // a failing typecheck/lint/build step counts as a failure
console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(ok ? 0 : 1);
