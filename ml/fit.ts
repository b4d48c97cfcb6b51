// `npm run fit`: refits the shipped parameter files, in dependency order.
//   npm run fit                      every step's commands, in order (hours: the verifier alone ~3 h)
//   npm run fit -- <step>...         the named steps only; --skip <step> leaves one out
//   npm run fit -- --list [<step>]   the ordered steps, their commands and files (runs nothing)
//   npm run fit -- --check           files, code feature lists and datasets against workers/fitted/manifest.json
//   npm run fit -- --write           rewrite the manifest after a refit (needs ../shared/datasets)
// Intermediate files go to .cache/fit/. After a run it compares each refitted file with the one at
// git's HEAD (byte-identical, identical values with new provenance, or which values moved); it never
// rewrites the manifest itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  buildManifest,
  checkManifest,
  compareRefit,
  MANIFEST_PATH,
  datasetFile,
  fitPlan,
  stepsText,
  type CheckDeps,
  type Manifest,
  type RefitComparison,
} from './fit-check';

// SIFT_FIT_ROOT: another checkout to check (fit.test.ts points it at a tampered copy).
const ROOT = resolve(process.env.SIFT_FIT_ROOT ?? resolve(import.meta.dirname, '..'));
const DATASETS = resolve(ROOT, '../shared/datasets');

const readOrNull = (path: string) => (existsSync(path) ? readFileSync(path) : null);

/** Fitted JSON on disk in workers/fitted/ (the manifest itself aside). */
function fittedOnDisk(): string[] {
  const dir = join(ROOT, 'workers', 'fitted');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'manifest.json')
    .map((f) => `workers/fitted/${f}`);
}

const deps: CheckDeps = {
  read: (p) => readOrNull(join(ROOT, p)),
  readDataset: (p) => readOrNull(datasetFile(ROOT, DATASETS, p)),
  fittedOnDisk: fittedOnDisk(),
};

function commitOf(path: string): string | undefined {
  try {
    const out = execFileSync(
      'git',
      ['log', '-1', '--follow', '--diff-filter=AM', '--format=%H', '--', path],
      {
        cwd: ROOT,
      },
    );
    return out.toString().trim() || undefined;
  } catch {
    return undefined;
  }
}

function loadManifest(): Manifest {
  return JSON.parse(readFileSync(join(ROOT, MANIFEST_PATH), 'utf8')) as Manifest;
}

function check(): number {
  const started = performance.now();
  const { problems, checkedDatasets, skippedDatasets } = checkManifest(loadManifest(), deps);
  const ms = Math.round(performance.now() - started);
  if (problems.length) {
    for (const p of problems)
      console.error(`fit --check: ${p.path} ${p.message}.\n  refit: ${p.command}`);
    console.error(
      `\nfit --check: ${problems.length} mismatch(es). Refit with the command named, then \`npm run fit -- --write\`; if only the manifest is stale (a deliberate edit), \`npm run fit -- --write\` alone.`,
    );
    return 1;
  }
  const manifest = loadManifest();
  const datasets = skippedDatasets
    ? `${checkedDatasets} dataset hashes checked, ${skippedDatasets} not present under ../shared/datasets`
    : `${checkedDatasets} dataset hashes checked`;
  console.log(
    `fit --check: ${manifest.files.length} fitted files match the manifest and the code (${datasets}; ${ms} ms)`,
  );
  return 0;
}

function write(): number {
  const manifest = buildManifest({ ...deps, commitOf });
  writeFileSync(join(ROOT, MANIFEST_PATH), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync('npx', ['prettier', '--write', '--log-level', 'warn', MANIFEST_PATH], { cwd: ROOT });
  console.log(`wrote ${MANIFEST_PATH} (${manifest.files.length} files)`);
  return 0;
}

function listStep(name: string): number {
  const manifest = loadManifest();
  const s = manifest.steps.find((x) => x.name === name);
  if (!s) {
    console.error(`No step ${name}. Steps: ${manifest.steps.map((x) => x.name).join(', ')}`);
    return 2;
  }
  console.log(`${s.name}: ${s.about}\n${s.commands.map((c) => `  $ ${c}`).join('\n')}`);
  for (const f of manifest.files.filter((x) => x.step === name)) {
    console.log(`\n${f.path}\n  refit: ${f.command}`);
    if (f.recordedCommand) console.log(`  the file records: ${f.recordedCommand}`);
  }
  return 0;
}

const minutes = (ms: number) => `${(ms / 60000).toFixed(1)} min`;

/** Each refitted file against the shipped one (git's HEAD): identical, or how it differs. */
function reportRefit(paths: string[]): void {
  console.log('\nfit: the refitted files against the shipped ones (HEAD)');
  for (const path of paths) {
    const bytes = readOrNull(join(ROOT, path));
    const shipped = shippedBytes(path);
    console.log(
      `  ${path}: ${!bytes || !shipped ? 'missing' : describeRefit(compareRefit(shipped, bytes))}`,
    );
  }
  console.log('Review the changes; `npm run fit -- --write` records them in the manifest.');
}

function describeRefit(c: RefitComparison): string {
  switch (c.kind) {
    case 'identical':
      return 'byte-identical';
    case 'provenance':
      return `every fitted value identical (only ${c.fields.join(', ')} changed)`;
    case 'values':
      return `${c.differing} fitted value(s) differ, the largest by ${c.maxAbs.toPrecision(3)} at ${c.at}`;
    case 'unreadable':
      return 'changed (not JSON)';
  }
}

/** The file as committed at HEAD (null: not committed). */
function shippedBytes(path: string): Buffer | null {
  try {
    return execFileSync('git', ['show', `HEAD:${path}`], { cwd: ROOT, maxBuffer: 1 << 28 });
  } catch {
    return null;
  }
}

/** Runs the plan's commands in order from the repo root; stops at the first that fails. */
function run(names: string[], skip: string[]): number {
  const manifest = loadManifest();
  let plan;
  try {
    plan = fitPlan(manifest, names).filter((r) => !skip.includes(r.step));
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  mkdirSync(join(ROOT, '.cache', 'fit'), { recursive: true });
  const started = performance.now();
  for (const [i, r] of plan.entries()) {
    console.log(`\nfit [${i + 1}/${plan.length}] ${r.step}: $ ${r.command}`);
    const t = performance.now();
    const res = spawnSync('bash', ['-c', r.command], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) {
      console.error(
        `fit: ${r.step} failed (exit ${res.status ?? res.signal}). The steps before it are refitted; fix the cause and run \`npm run fit -- ${plan
          .slice(i)
          .map((x) => x.step)
          .filter((x, j, all) => all.indexOf(x) === j)
          .join(' ')}\`.`,
      );
      return 1;
    }
    console.log(
      `fit [${i + 1}/${plan.length}] ${r.step} done in ${minutes(performance.now() - t)}`,
    );
  }
  reportRefit(plan.flatMap((r) => r.files));
  console.log(`fit: ${plan.length} command(s) in ${minutes(performance.now() - started)}`);
  return 0;
}

/** The values of each `--skip <step>`, and the other arguments. */
function parseRunArgs(args: string[]): { names: string[]; skip: string[] } {
  const names: string[] = [];
  const skip: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--skip') skip.push(args[++i] ?? '');
    else names.push(args[i]!);
  }
  return { names, skip };
}

const args = process.argv.slice(2);
const code = args.includes('--check')
  ? check()
  : args.includes('--write')
    ? write()
    : args[0] === '--list'
      ? args[1]
        ? listStep(args[1])
        : (console.log(stepsText(loadManifest())), 0)
      : (() => {
          const { names, skip } = parseRunArgs(args);
          return run(names, skip);
        })();
process.exit(code);
