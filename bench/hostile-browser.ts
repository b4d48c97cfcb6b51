// The Chromium probes of the hostile suite: each runs one end-to-end test (Playwright, headless
// Chromium, the built app on `E2E_PORT`) that already attacks the app the way issue 29 did, and
// reports whether it held and how long it took. Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Probe, ProbeResult } from './hostile-probes';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `npx playwright test spec -g grep`; held when it passes within `timeoutMs`. */
export function runSpec(spec: string, grep: string, timeoutMs: number): Promise<ProbeResult> {
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) {
    return Promise.resolve({ held: false, figure: 'not run: build the app first (npm run build)' });
  }
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['playwright', 'test', `e2e/${spec}`, '-g', grep, '--reporter=line'],
      {
        cwd: ROOT,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL'); // the test runner and its browser
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const s = Math.round((Date.now() - t0) / 1000);
      const passed = /(\d+) passed/.exec(out)?.[1];
      const failed = /(\d+) failed/.exec(out)?.[1];
      const held = code === 0 && !!passed && !failed;
      const why =
        code === null
          ? `killed after ${Math.round(timeoutMs / 1000)} s`
          : failed
            ? `${failed} failed`
            : `${passed ?? 0} passed`;
      resolve({ held, figure: `${spec} "${grep}": ${why}, ${s} s` });
    });
  });
}

const spec = (name: string, file: string, grep: string, minutes = 5): Probe => ({
  name,
  runtime: 'chromium',
  run: () => runSpec(file, grep, minutes * 60_000),
});

export const BROWSER_PROBES: Probe[] = [
  spec('llm-reply-64mb-tab-responsive', 'hostile-reply.spec.ts', '64 MB reply'),
  spec('held-kill-mid-import', 'durability.spec.ts', 'closed in the middle of an import'),
  spec('held-kill-mid-embedding', 'embedding-progress.spec.ts', 'survives a reload mid-run', 8),
  spec('held-two-tabs-importing', 'durability.spec.ts', 'two tabs importing at the same time'),
  spec(
    'held-content-injection',
    'foundation.spec.ts',
    'imports the fixtures, reporting each bad file',
  ),
];
