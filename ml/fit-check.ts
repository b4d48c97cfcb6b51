// The manifest of the shipped fitted files (workers/fitted/manifest.json): building it from the
// registry and the files, and checking files, the code's feature lists and the datasets against it.
// I/O is injected (`read`), so a test can hand it a tampered copy.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  CODE_FEATURE_LISTS,
  FIT_STEPS,
  FITTED_FILES,
  STANCE_FEATURES_VERSION,
  type FitStep,
  type FittedFile,
} from './fitted-registry';

export const MANIFEST_PATH = 'workers/fitted/manifest.json';
export const MANIFEST_FORMAT = 'sift-fitted-manifest/1';

export interface ManifestFeatureList {
  at: string;
  kind: 'names' | 'version';
  /** The code constant (module#NAME) the file's list must draw from. */
  code: string;
  /** SHA-256 of the code list's names, JSON-encoded in order. */
  codeSha256: string;
  /** SHA-256 of the file's own ordered list at `at` (kind `names` only). */
  fileSha256?: string;
  /** The stance feature version the code computed (kind `version` only). */
  version?: string;
}

export interface ManifestFile {
  path: string;
  step: string;
  producer: string;
  command: string;
  /** The command the file itself records (what actually wrote it), when it records one. */
  recordedCommand?: string | undefined;
  /** The last commit that changed the file when the manifest was written. */
  commit?: string | undefined;
  sha256: string;
  bytes: number;
  datasets: Array<{ path: string; sha256: string }>;
  features: ManifestFeatureList[];
  /** For a bundle: its other files as its own manifest lists them. */
  bundleFiles?: Array<{ path: string; sha256: string }>;
}

export interface Manifest {
  format: string;
  about: string;
  datasetsRoot: string;
  steps: Array<{ name: string; about: string; commands: string[] }>;
  files: ManifestFile[];
}

/** What the checker reads: repo files, dataset files (null: absent), the code's lists. */
export interface CheckDeps {
  /** A repo-relative file's bytes, or null when it does not exist. */
  read(path: string): Buffer | null;
  /**
   * A dataset file's bytes (path relative to the datasets root, or `repo:<path>` for one committed
   * in the checkout), or null when absent.
   */
  readDataset(path: string): Buffer | null;
  /** The code's feature lists by constant name (default: the registry's, from the code). */
  codeLists?: Record<string, readonly string[]>;
  /** Repo-relative fitted files present on disk, to catch one the manifest does not list. */
  fittedOnDisk?: string[];
}

/** The prefix of a dataset path committed in the checkout rather than under the datasets root. */
export const REPO_DATASET = 'repo:';

/** Where a manifest dataset path lies: under the checkout (`repo:`) or the datasets root. */
export function datasetFile(root: string, datasetsRoot: string, path: string): string {
  return path.startsWith(REPO_DATASET)
    ? join(root, path.slice(REPO_DATASET.length))
    : join(datasetsRoot, path);
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** SHA-256 of an ordered feature-name list (its JSON). */
export const featureListSha256 = (names: readonly string[]) => sha256(JSON.stringify(names));

function at(json: unknown, path: string): unknown {
  let v: unknown = json;
  for (const key of path.split('.')) v = (v as Record<string, unknown> | undefined)?.[key];
  return v;
}

function defaultCodeLists(): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(CODE_FEATURE_LISTS).map(([k, v]) => [k, v.names]));
}

/** The command a file records for itself (top level, or the stance file's provenance). */
function recordedCommand(json: unknown): string | undefined {
  const c = at(json, 'command') ?? at(json, 'provenance.command');
  return typeof c === 'string' ? c : undefined;
}

/** Builds the manifest from the registry, the files and the datasets (every input must exist). */
export function buildManifest(
  deps: CheckDeps & { commitOf?: (path: string) => string | undefined },
): Manifest {
  const codeLists = deps.codeLists ?? defaultCodeLists();
  const need = (data: Buffer | null, what: string) => {
    if (!data) throw new Error(`${what} is missing: the manifest needs every file to hash`);
    return data;
  };
  const files = FITTED_FILES.map((f): ManifestFile => {
    const data = need(deps.read(f.path), f.path);
    const json: unknown = JSON.parse(data.toString('utf8'));
    const out: ManifestFile = {
      path: f.path,
      step: f.step,
      producer: f.producer,
      command: f.command,
      recordedCommand: recordedCommand(json),
      commit: deps.commitOf?.(f.path),
      sha256: sha256(data),
      bytes: data.length,
      datasets: f.datasets.map((p) => ({
        path: p,
        sha256: sha256(need(deps.readDataset(p), `dataset ${p}`)),
      })),
      features: f.features.map((x) => ({
        at: x.at,
        kind: x.kind,
        code: `${CODE_FEATURE_LISTS[x.code]!.module}#${x.code}`,
        codeSha256: featureListSha256(codeLists[x.code]!),
        ...(x.kind === 'version'
          ? { version: STANCE_FEATURES_VERSION }
          : { fileSha256: featureListSha256(at(json, x.at) as string[]) }),
      })),
    };
    if (f.bundle) out.bundleFiles = bundleFiles(f, json);
    return out;
  });
  return {
    format: MANIFEST_FORMAT,
    about:
      'Every shipped fitted parameter file: its producer, refit command, SHA-256, the dataset files it was fitted on (relative to datasetsRoot) and the hash of the code feature list it must match. `npm run fit -- --check` verifies it; `npm run fit -- --write` rewrites it after a refit.',
    datasetsRoot: '../shared/datasets',
    steps: FIT_STEPS.map((s: FitStep) => ({ name: s.name, about: s.about, commands: s.commands })),
    files,
  };
}

function bundleFiles(f: FittedFile, json: unknown): Array<{ path: string; sha256: string }> {
  const listed = at(json, 'files') as Record<string, { sha256: string }> | undefined;
  const dir = f.path.slice(0, f.path.lastIndexOf('/') + 1);
  return Object.entries(listed ?? {}).map(([name, v]) => ({ path: dir + name, sha256: v.sha256 }));
}

/** One mismatch, with the command that refits the file concerned. */
export interface Problem {
  path: string;
  message: string;
  command: string;
}

/**
 * Every way the files, the code and the datasets differ from the manifest (empty: all match).
 * Dataset files absent under the datasets root are not compared (`skippedDatasets` counts them).
 */
export function checkManifest(
  manifest: Manifest,
  deps: CheckDeps,
): { problems: Problem[]; checkedDatasets: number; skippedDatasets: number } {
  const codeLists = deps.codeLists ?? defaultCodeLists();
  const problems: Problem[] = [];
  let checkedDatasets = 0;
  let skippedDatasets = 0;
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const f of FITTED_FILES) {
    if (!listed.has(f.path))
      problems.push({
        path: f.path,
        message: 'is not in the manifest',
        command: 'npm run fit -- --write',
      });
  }
  for (const path of deps.fittedOnDisk ?? []) {
    if (!listed.has(path))
      problems.push({
        path,
        message: 'is a fitted file the manifest and ml/fitted-registry.ts do not list',
        command: 'add it to ml/fitted-registry.ts, then npm run fit -- --write',
      });
  }
  const datasetHashes = new Map<string, string | null>();
  for (const f of manifest.files) {
    const problem = (message: string) =>
      problems.push({ path: f.path, message, command: f.command });
    const data = deps.read(f.path);
    if (!data) {
      problem('is missing');
      continue;
    }
    if (sha256(data) !== f.sha256) problem(`has SHA-256 ${sha256(data)}, the manifest ${f.sha256}`);
    let json: unknown;
    try {
      json = JSON.parse(data.toString('utf8'));
    } catch {
      problem('is not valid JSON');
      continue;
    }
    for (const list of f.features) {
      const name = list.code.split('#')[1]!;
      const code = codeLists[name];
      if (!code) {
        problem(`names a code feature list ${list.code} that does not exist`);
        continue;
      }
      if (featureListSha256(code) !== list.codeSha256)
        problem(
          `was fitted over ${list.code} as it was; the code's list has changed (hash ${featureListSha256(code).slice(0, 12)}, recorded ${list.codeSha256.slice(0, 12)})`,
        );
      problems.push(...fileListProblems(f, list, at(json, list.at), code));
    }
    for (const b of f.bundleFiles ?? []) {
      const bytes = deps.read(b.path);
      if (!bytes) problem(`lists ${b.path}, which is missing`);
      else if (sha256(bytes) !== b.sha256) problem(`lists ${b.path} with another SHA-256`);
    }
    for (const d of f.datasets) {
      if (!datasetHashes.has(d.path)) {
        const bytes = deps.readDataset(d.path);
        datasetHashes.set(d.path, bytes ? sha256(bytes) : null);
      }
      const got = datasetHashes.get(d.path);
      if (got === null) {
        skippedDatasets++;
        continue;
      }
      checkedDatasets++;
      if (got !== d.sha256)
        problem(`was fitted on dataset ${d.path} with SHA-256 ${d.sha256}; it is now ${got}`);
    }
  }
  return { problems, checkedDatasets, skippedDatasets };
}

function fileListProblems(
  f: ManifestFile,
  list: ManifestFeatureList,
  value: unknown,
  code: readonly string[],
): Problem[] {
  const problem = (message: string) => [{ path: f.path, message, command: f.command }];
  if (list.kind === 'version') {
    if (value !== list.version || list.version !== STANCE_FEATURES_VERSION)
      return problem(
        `has features ${String(value)} at ${list.at}; the code computes ${STANCE_FEATURES_VERSION}`,
      );
    return [];
  }
  if (!Array.isArray(value)) return problem(`has no feature list at ${list.at}`);
  const known = new Set(code);
  const unknown = (value as unknown[]).filter((n) => typeof n !== 'string' || !known.has(n));
  if (unknown.length)
    return problem(
      `reads features at ${list.at} the code does not compute (${list.code}): ${unknown.join(', ')}`,
    );
  if (list.fileSha256 && featureListSha256(value as string[]) !== list.fileSha256)
    return problem(`has another feature list at ${list.at} than the one recorded`);
  return [];
}

/** One command of a refit: its step, the shell command (`<model>` filled in) and the files it writes. */
export interface FitRun {
  step: string;
  command: string;
  files: string[];
}

/**
 * The refit commands of the named steps (every step when none), in the manifest's step order: each
 * file's own command once (a step with `<model>` runs once per embedding model that has a file).
 */
export function fitPlan(manifest: Manifest, only: readonly string[] = []): FitRun[] {
  const unknown = only.filter((n) => !manifest.steps.some((s) => s.name === n));
  if (unknown.length)
    throw new Error(
      `No step ${unknown.join(', ')}. Steps: ${manifest.steps.map((s) => s.name).join(', ')}`,
    );
  const runs: FitRun[] = [];
  for (const s of manifest.steps) {
    if (only.length && !only.includes(s.name)) continue;
    for (const f of manifest.files.filter((x) => x.step === s.name)) {
      const same = runs.find((r) => r.step === s.name && r.command === f.command);
      if (same) same.files.push(f.path);
      else runs.push({ step: s.name, command: f.command, files: [f.path] });
    }
  }
  return runs;
}

/**
 * Top-level fields a fit writes about itself (when, how, on what; the gate's `passageModel` names
 * the evaluator fit it read), not fitted values.
 */
export const PROVENANCE_FIELDS = [
  'date',
  'command',
  'fittedOn',
  'provenance',
  'passageModel',
] as const;

/** How a refitted JSON file compares with the shipped one. */
export type RefitComparison =
  | { kind: 'identical' }
  | { kind: 'provenance'; fields: string[] }
  | { kind: 'values'; differing: number; maxAbs: number; at: string }
  | { kind: 'unreadable' };

/**
 * Compares a refit with the shipped file: byte-identical; equal in every fitted value with only
 * its provenance fields changed; or the count of values that differ and the largest difference.
 */
export function compareRefit(shipped: Buffer, refit: Buffer): RefitComparison {
  if (shipped.equals(refit)) return { kind: 'identical' };
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(shipped.toString('utf8'));
    b = JSON.parse(refit.toString('utf8'));
  } catch {
    return { kind: 'unreadable' };
  }
  const diffs: Array<{ at: string; abs: number }> = [];
  const walk = (x: unknown, y: unknown, at: string): void => {
    if (typeof x === 'number' && typeof y === 'number') {
      if (x !== y) diffs.push({ at, abs: Math.abs(x - y) });
    } else if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      x.forEach((v, i) => walk(v, y[i], `${at}[${i}]`));
    } else if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys)
        walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${at}.${k}`);
    } else if (JSON.stringify(x) !== JSON.stringify(y)) diffs.push({ at, abs: Infinity });
  };
  const top = (o: unknown) => (o && typeof o === 'object' ? (o as Record<string, unknown>) : {});
  const fields = PROVENANCE_FIELDS.filter(
    (f) => JSON.stringify(top(a)[f]) !== JSON.stringify(top(b)[f]),
  );
  const strip = (o: unknown) =>
    Object.fromEntries(
      Object.entries(top(o)).filter(([k]) => !(PROVENANCE_FIELDS as readonly string[]).includes(k)),
    );
  walk(strip(a), strip(b), '');
  if (!diffs.length) return { kind: 'provenance', fields };
  const worst = diffs.reduce((m, d) => (d.abs > m.abs ? d : m));
  return { kind: 'values', differing: diffs.length, maxAbs: worst.abs, at: worst.at };
}

/** The manifest's steps with their files, in refit order, for `npm run fit`. */
export function stepsText(manifest: Manifest): string {
  return manifest.steps
    .map((s, i) => {
      const files = manifest.files.filter((f) => f.step === s.name).map((f) => `     ${f.path}`);
      const cmds = s.commands.map((c) => `     $ ${c}`);
      return [`${i + 1}. ${s.name}: ${s.about}`, ...cmds, ...files].join('\n');
    })
    .join('\n');
}
