// `npm run fit`: the refit steps of the shipped parameter files, in dependency order.
//   npm run fit                 the ordered steps, their commands and files
//   npm run fit -- <step>       one step's commands, and the command each of its files records
//   npm run fit -- --check      files, code feature lists and datasets against workers/fitted/manifest.json
//   npm run fit -- --write      rewrite the manifest after a refit (needs ../shared/datasets)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  buildManifest,
  checkManifest,
  MANIFEST_PATH,
  datasetFile,
  stepsText,
  type CheckDeps,
  type Manifest,
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

function step(name: string): number {
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

const args = process.argv.slice(2);
const code = args.includes('--check')
  ? check()
  : args.includes('--write')
    ? write()
    : args[0]
      ? step(args[0])
      : (console.log(stepsText(loadManifest())), 0);
process.exit(code);
