// Lint rules, including the import boundaries that keep the layers of ARCHITECTURE.md honest:
//   shared <- store, ingest, embed, vector, llm, web <- search <- query-plan <- text-features
//   <- answer <- projects <- library <- *.worker.ts
// and app/ sees only workers/shared/ (plus its own clients.ts, which creates the workers).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Node globals for scripts written in plain JavaScript (TypeScript files get them from @types/node). */
const NODE_GLOBALS = {
  console: 'readonly',
  process: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
};

const LOW_LAYERS = ['store', 'ingest', 'embed', 'vector', 'llm', 'web'];

/** A `no-restricted-imports` rule from regex patterns with one message each. */
function restrict(...patterns) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: patterns.map(([regex, message]) => ({ regex, message })) },
    ],
  };
}

const NO_APP = ['(^|/)app/', 'workers never import the UI (app/).'];
const NO_LAB = [
  '(^|/)(eval|ml|bench|experiments|lab|tools)/',
  'product code never imports the lab (eval, ml, bench, experiments, lab, tools).',
];
const NO_WORKER_ENTRY = [
  '\\.worker(\\.ts)?$',
  'only app/clients.ts starts workers; never import a *.worker.ts.',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      'runs/**',
      'wasm/build/**',
      'wasm/assembly/**',
      'public/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Type-aware rules (promises handled, switches exhaustive, no `any` leaking through), for the
  // TypeScript files of the tsconfig project only: plain JS (scripts, configs) stays untyped.
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      // Off on purpose: Sift's objects come from factories returning closures (no `this`), so
      // passing a method is safe; the rule flags every zustand selector and interface method.
      '@typescript-eslint/unbound-method': 'off',
      // Off on purpose: an `async` function without `await` is how fakes and Comlink APIs meet a
      // Promise-returning interface; unhandled promises are caught by no-floating-promises.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(
        [
          '(^|/)workers/(?!shared/)',
          'app/ may import only workers/shared/ (the contract); talk to workers through app/clients.ts.',
        ],
        NO_LAB,
      ),
      // Imported and web content is untrusted: never inject raw HTML.
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render text and <mark> ranges, never raw HTML.',
        },
        {
          selector: "AssignmentExpression[left.property.name='innerHTML']",
          message: 'Never assign innerHTML.',
        },
      ],
    },
  },
  {
    files: ['workers/shared/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict([
      '^\\.\\./(?!fitted/[^/]+\\.json$)',
      'workers/shared is the bottom layer: it imports no other layer (only fitted data from workers/fitted).',
    ]),
  },
  ...LOW_LAYERS.map((layer) => ({
    files: [`workers/${layer}/**/*.ts`],
    ignores: ['**/*.test.ts', 'workers/embed/kernel.ts'],
    rules: restrict(
      [
        '^\\.\\./(?!shared/)',
        `workers/${layer} may import only workers/shared/ (inject other layers as dependencies).`,
      ],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  })),
  {
    // The pair verifier runs on the embed layer's runtime and BERT forward pass; it is composed by
    // the embed worker's entry and reached by others through workers/shared/pair-verifier.ts.
    files: ['workers/verifier/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(?!shared/|embed/)',
        'workers/verifier may import only workers/shared/ and workers/embed/.',
      ],
      NO_APP,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/embed/kernel.ts'],
    rules: restrict(
      ['^\\.\\./(?!shared/|\\.\\./wasm/)', 'kernel.ts may import only workers/shared/ and wasm/.'],
      NO_APP,
      NO_LAB,
    ),
  },
  {
    files: ['workers/search/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(query-plan|db|ingest|llm|web)/',
        'search sits below query-plan and library; it must not import them.',
      ],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/query-plan/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      ['^\\.\\./db/', 'query-plan sits below the library service; it must not import it.'],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(embed|llm|web)/',
        'library composes store, ingest, search and query-plan; embed and llm workers come in through ports (their APIs are in workers/shared).',
      ],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  },
  {
    // The answer pipeline (issue 16) may use search, query-plan, llm and web; not ingest/store
    // internals beyond their types, never the UI or a worker entry.
    files: ['workers/answer/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      ['^\\.\\./db/', 'answer sits below the library service; it must not import it.'],
      [
        '^\\.\\./projects/',
        'answer sits below projects (projects reads the evaluator); shared text features live in workers/text-features/.',
      ],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  },
  {
    // Research projects: collections, provenance, claims, stance, triangulation, audits, exports.
    files: ['workers/projects/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(ingest|vector|embed|llm|db)/',
        'workers/projects may import shared, store, search, query-plan, answer and web; inject the rest.',
      ],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  },
  {
    // The text features answer and projects both read (stemmer, stance cues, feature vector).
    files: ['workers/text-features/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(?!query-plan/text$|shared/|fitted/[^/]+\\.json$)',
        'text-features sits below answer and projects; it imports only query-plan/text, shared and fitted data.',
      ],
      NO_APP,
      NO_LAB,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/*.worker.ts'],
    rules: restrict(NO_APP, NO_LAB),
  },
  // The lab, bottom up: lab/ (flags, Node encoders, vector cache) <- eval/ (modes, tasks) <- ml/
  // (fits) <- experiments/; bench/, tools/ and wasm/ measure or build on eval/ and lab/. Only the
  // eval CLI (eval/run.ts) imports ml/, to hand the fits it offers to the tasks.
  {
    files: ['lab/**/*.ts'],
    rules: restrict([
      '(^|/)(eval|ml|bench|experiments|tools)/',
      'lab/ is the bottom of the lab: eval, ml, bench and tools build on it.',
    ]),
  },
  {
    files: ['eval/**/*.ts'],
    ignores: ['eval/run.ts'],
    rules: restrict([
      '(^|/)(ml|bench|experiments|tools)/',
      'eval/ measures; fits (ml/), benchmarks and experiments build on it (the fits reach the tasks through eval/run.ts).',
    ]),
  },
  {
    files: ['ml/**/*.ts'],
    rules: restrict([
      '(^|/)(bench|experiments|tools)/',
      'ml/ fits on eval/ and lab/; experiments build on ml/, not the reverse.',
    ]),
  },
  {
    files: ['bench/**/*.ts', 'tools/**/*.ts', 'wasm/*.ts'],
    rules: restrict([
      '(^|/)(ml|experiments)/',
      'benchmarks and tools measure the app through eval/ and lab/; they never import fits or experiments.',
    ]),
  },
  {
    files: [
      'bench/**/*.ts',
      'eval/**/*.ts',
      'ml/**/*.ts',
      'lab/**/*.ts',
      'tools/**/*.{ts,js,mjs}',
      'experiments/**/*.ts',
      'e2e/**/*.ts',
      '*.config.{ts,js}',
      '**/*.test.ts',
    ],
    languageOptions: { globals: NODE_GLOBALS },
    rules: { 'no-console': 'off' },
  },
  {
    // clients.ts starts the workers from their script URLs (`?worker&url`), so it may name them.
    files: ['app/clients.ts'],
    rules: restrict([
      '(^|/)workers/(?!shared/|[a-z-]+\\.worker\\.ts\\?worker&url$)',
      'app/ may import only workers/shared/ (the contract); talk to workers through app/clients.ts.',
    ]),
  },
);
