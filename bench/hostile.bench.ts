// `npm run bench -- hostile [--json FILE] [--quick] [--node-only] [--only NAME]`
// The reliability suite of issue 29: every attack that once broke Sift (or that it held), run
// headless on the modules in Node and on the built app in Chromium (Playwright, E2E_PORT), one
// line per probe: held or FAILED, with its figure (time, peak memory growth). `--json` writes
// `{"probes": [{"name", "held", "figure"}]}`. `--quick` scales the heavy Node probes down
// (10,540 fuzzed queries -> 1,000; 5,000 files -> 1,000; 64 MB line -> 16 MB); the Chromium
// probes take minutes (build first: `npm run build`), `--node-only` skips them. Exit code 1 when
// any probe failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from '../lab/args';
import { GATE_PROBE_TESTS } from '../e2e/gate-probes';
import { BROWSER_PROBES, runSpec } from './hostile-browser';
import { NODE_PROBES, type Probe } from './hostile-probes';

/**
 * Item 1, the network gate: one probe per vector, each an end-to-end test of e2e/gate.spec.ts
 * (listed in e2e/gate-probes.ts), plus the worker-origins test of network.spec.ts.
 */
export const GATE_PROBES: Probe[] = [
  ...GATE_PROBE_TESTS.map((t): Probe => ({
    name: t.name,
    runtime: 'chromium',
    run: () => runSpec(t.spec, t.grep, 5 * 60_000),
  })),
  {
    name: 'gate-worker-origins',
    runtime: 'chromium',
    run: () =>
      runSpec(
        'network.spec.ts',
        'a worker behind the gate reaches only its own origin',
        5 * 60_000,
      ),
  },
];

export function allProbes(): Probe[] {
  return [...GATE_PROBES, ...NODE_PROBES, ...BROWSER_PROBES];
}

export default {
  name: 'hostile',
  async run(argv: string[]): Promise<void> {
    const args = parseArgs(argv);
    const quick = 'quick' in args;
    let probes = allProbes();
    if ('node-only' in args) probes = probes.filter((p) => p.runtime === 'node');
    if (args.only) probes = probes.filter((p) => p.name.includes(args.only!));
    const results: Array<{ name: string; held: boolean; figure: string }> = [];
    for (const p of probes) {
      let r;
      try {
        r = await p.run({ quick });
      } catch (err) {
        r = {
          held: false,
          figure: `probe crashed: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
      results.push({ name: p.name, held: r.held, figure: r.figure });
      console.log(
        `${r.held ? 'held  ' : 'FAILED'} ${p.name.padEnd(34)} ${p.runtime.padEnd(8)} ${r.figure}`,
      );
    }
    const held = results.filter((r) => r.held).length;
    console.log(`${held} of ${results.length} probes held${quick ? ' (--quick)' : ''}.`);
    if (args.json) {
      mkdirSync(dirname(args.json), { recursive: true });
      writeFileSync(args.json, `${JSON.stringify({ probes: results }, null, 2)}\n`);
    }
    if (held < results.length) process.exitCode = 1;
  },
};
