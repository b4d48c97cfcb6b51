// `npm run fit -- --check` against the shipped files, and against tampered copies: a changed file,
// a feature list the code no longer computes, a dataset that changed, a fitted file not listed.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkManifest,
  compareRefit,
  datasetFile,
  fitPlan,
  MANIFEST_PATH,
  type CheckDeps,
  type Manifest,
} from './fit-check';
import { CODE_FEATURE_LISTS, FITTED_FILES } from './fitted-registry';

const ROOT = resolve(import.meta.dirname, '..');
const DATASETS = resolve(ROOT, '../shared/datasets');
const read = (p: string) => readFileSync(join(ROOT, p));
const manifest = JSON.parse(read(MANIFEST_PATH).toString('utf8')) as Manifest;
const deps: CheckDeps = {
  read,
  readDataset: (p) => readFileSync(datasetFile(ROOT, DATASETS, p)),
};
const PICK = 'workers/fitted/sentence-pick.json';
const PICK_COMMAND = 'npx tsx ml/sentence-pick-fit.ts --dataset ../shared/datasets/scifact';

describe('fit --check', () => {
  it('passes on the shipped files, the code and the datasets', () => {
    const r = checkManifest(manifest, deps);
    expect(r.problems).toEqual([]);
    expect(r.skippedDatasets).toBe(0);
    expect(r.checkedDatasets).toBeGreaterThan(30);
    expect(manifest.files.map((f) => f.path).sort()).toEqual(
      FITTED_FILES.map((f) => f.path).sort(),
    );
  });

  it('names the refit command of a file whose bytes changed', () => {
    const tampered = read(PICK).toString('utf8').replace('"bias": -2.05229', '"bias": -2.05');
    const r = checkManifest(manifest, {
      ...deps,
      read: (p) => (p === PICK ? Buffer.from(tampered) : read(p)),
    });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ path: PICK, command: PICK_COMMAND });
    expect(r.problems[0]!.message).toMatch(/SHA-256/);
  });

  it('fails on a file whose feature list was reordered (the weights no longer line up)', () => {
    const json = JSON.parse(read(PICK).toString('utf8')) as { features: string[] };
    json.features.reverse();
    const r = checkManifest(manifest, {
      ...deps,
      read: (p) => (p === PICK ? Buffer.from(JSON.stringify(json)) : read(p)),
    });
    expect(r.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/SHA-256/),
      'has another feature list at features than the one recorded',
    ]);
    expect(r.problems.every((p) => p.command === PICK_COMMAND)).toBe(true);
  });

  it("fails when the code's feature list changes under a fitted file", () => {
    const renamed = pickFeaturesWith('overlap', 'claimOverlap');
    const codeLists = Object.fromEntries(
      Object.entries(CODE_FEATURE_LISTS).map(([k, v]) => [k, v.names]),
    );
    const r = checkManifest(manifest, {
      ...deps,
      codeLists: { ...codeLists, PICK_FEATURES: renamed },
    });
    expect(r.problems.map((p) => p.path)).toEqual([PICK, PICK]);
    expect(r.problems.every((p) => p.command === PICK_COMMAND)).toBe(true);
    expect(r.problems[0]!.message).toMatch(/PICK_FEATURES .*changed/);
    expect(r.problems[1]!.message).toMatch(/does not compute.*: overlap/);
  });

  it('fails on a stance file of another feature version', () => {
    const path = 'workers/fitted/stance-use-lite.json';
    const json = JSON.parse(read(path).toString('utf8')) as Record<string, unknown>;
    const r = checkManifest(manifest, {
      ...deps,
      read: (p) =>
        p === path
          ? Buffer.from(JSON.stringify({ ...json, features: 'stance-features/1' }))
          : read(p),
    });
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(
      /stance-features\/1 .*computes stance-features\/2/,
    );
    expect(r.problems[0]!.command).toMatch(/^npx tsx ml\/stance-fit\.ts .*--model use-lite/);
  });

  it('fails when a dataset file changed, and names a fitted file it does not list', () => {
    const r = checkManifest(manifest, {
      ...deps,
      readDataset: (p) =>
        p === 'scifact/qrels/train.tsv'
          ? Buffer.from('query-id\tcorpus-id\tscore\n')
          : deps.readDataset(p),
      fittedOnDisk: [PICK, 'workers/fitted/extra.json'],
    });
    const paths = new Set(r.problems.map((p) => p.path));
    expect(paths).toContain('workers/fitted/evaluator-use-lite.json');
    expect(paths).toContain('workers/fitted/relevance-bands.json');
    expect(paths).not.toContain(PICK); // fitted on the claims, not the qrels
    expect(paths).toContain('workers/fitted/extra.json');
  });

  it('exits non-zero on a tampered copy of the checkout, naming the refit command', () => {
    // the copy has no ../shared/datasets beside it: only files and code are compared
    const tmp = mkdtempSync(join(tmpdir(), 'sift-fit-'));
    const root = join(tmp, 'repo');
    const copy = (p: string) => {
      mkdirSync(dirname(join(root, p)), { recursive: true });
      cpSync(join(ROOT, p), join(root, p));
    };
    copy(MANIFEST_PATH);
    for (const f of manifest.files) {
      copy(f.path);
      for (const b of f.bundleFiles ?? []) symlinkSync(join(ROOT, b.path), join(root, b.path));
    }
    const gate = 'workers/fitted/evidence-gate-use-lite.json';
    const json = JSON.parse(read(gate).toString('utf8')) as { features: string[] };
    json.features[0] = 'supportScoreV2';
    writeFileSync(join(root, gate), JSON.stringify(json));
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'ml/fit.ts'), '--check'], {
      env: { ...process.env, SIFT_FIT_ROOT: root },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${gate} has SHA-256`);
    expect(r.stderr).toContain('supportScoreV2');
    expect(r.stderr).toContain('refit: ml/refit-evidence-gate.sh use-lite');
    rmSync(tmp, { recursive: true, force: true });
  }, 30_000);
});

describe('npm run fit: the plan it runs', () => {
  it('runs every file once, in step order, with each model filled in', () => {
    const plan = fitPlan(manifest);
    const steps = [...new Set(plan.map((r) => r.step))];
    expect(steps).toEqual(manifest.steps.map((s) => s.name));
    expect(plan.flatMap((r) => r.files).sort()).toEqual(manifest.files.map((f) => f.path).sort());
    expect(plan.every((r) => !r.command.includes('<model>'))).toBe(true);
    const gate = plan.filter((r) => r.step === 'evidence-gate').map((r) => r.command);
    expect(gate).toEqual([
      expect.stringContaining('ml/refit-evidence-gate.sh all-MiniLM-L6-v2 '),
      expect.stringContaining('ml/refit-evidence-gate.sh use-lite '),
    ]);
  });

  it('keeps the order of the manifest, not of the arguments, and refuses an unknown step', () => {
    const plan = fitPlan(manifest, ['checker', 'stance']);
    expect(plan.map((r) => r.step)).toEqual(['stance', 'stance', 'checker', 'checker']);
    expect(() => fitPlan(manifest, ['stance', 'nosuch'])).toThrow(
      /No step nosuch\. Steps: stance-antonyms, stance,/,
    );
  });

  it('writes its intermediate files under .cache/, never /tmp', () => {
    for (const r of fitPlan(manifest)) expect(r.command).not.toMatch(/\/tmp\b/);
  });
});

describe('npm run fit: a refit against the shipped file', () => {
  const json = (o: unknown) => Buffer.from(JSON.stringify(o));
  const shipped = { date: '2026-11-27', command: 'a', bias: -2.05, weights: [1, 2, 3] };

  it('tells byte-identical from equal values under new provenance', () => {
    expect(compareRefit(json(shipped), json(shipped))).toEqual({ kind: 'identical' });
    expect(
      compareRefit(json(shipped), json({ ...shipped, date: '2026-12-05', command: 'b' })),
    ).toEqual({ kind: 'provenance', fields: ['date', 'command'] });
  });

  it('counts the fitted values that moved and names the largest move', () => {
    const moved = { ...shipped, bias: -2.04, weights: [1, 2.5, 3] };
    expect(compareRefit(json(shipped), json(moved))).toMatchObject({
      kind: 'values',
      differing: 2,
      maxAbs: 0.5,
      at: '.weights[1]',
    });
    expect(compareRefit(json(shipped), json({ ...shipped, extra: 1 }))).toMatchObject({
      kind: 'values',
      at: '.extra',
    });
    expect(compareRefit(json(shipped), Buffer.from('not json'))).toEqual({ kind: 'unreadable' });
  });
});

function pickFeaturesWith(from: string, to: string): string[] {
  return CODE_FEATURE_LISTS.PICK_FEATURES!.names.map((n) => (n === from ? to : n));
}
