// Lint rules, including the import boundaries that keep the layers of ARCHITECTURE.md honest:
//   shared <- store, ingest, embed, vector, llm, web <- search <- research <- answer <- library
//   <- *.worker.ts
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
      ...restrict([
        '(^|/)workers/(?!shared/)',
        'app/ may import only workers/shared/ (the contract); talk to workers through app/clients.ts.',
      ]),
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
    rules: restrict(['^\\.\\./', 'workers/shared is the bottom layer: it imports no other layer.']),
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
      NO_WORKER_ENTRY,
    ),
  })),
  {
    files: ['workers/embed/kernel.ts'],
    rules: restrict(
      ['^\\.\\./(?!shared/|\\.\\./wasm/)', 'kernel.ts may import only workers/shared/ and wasm/.'],
      NO_APP,
    ),
  },
  {
    files: ['workers/search/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(research|library|ingest|llm|web)/',
        'search sits below research and library; it must not import them.',
      ],
      NO_APP,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/research/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      ['^\\.\\./library/', 'research sits below the library service; it must not import it.'],
      NO_APP,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/library/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(embed|llm|web)/',
        'library composes store, ingest, search and research; embed and llm workers come in through ports (their APIs are in workers/shared).',
      ],
      NO_APP,
      NO_WORKER_ENTRY,
    ),
  },
  {
    // The answer pipeline (issue 16) may use search, research, llm and web; not ingest/store
    // internals beyond their types, never the UI or a worker entry.
    files: ['workers/answer/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      ['^\\.\\./library/', 'answer sits below the library service; it must not import it.'],
      NO_APP,
      NO_WORKER_ENTRY,
    ),
  },
  {
    // Research projects: collections, provenance, claims, stance, triangulation, audits, exports.
    files: ['workers/projects/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict(
      [
        '^\\.\\./(ingest|vector|embed|llm|library)/',
        'workers/projects may import shared, store, search, research, answer and web; inject the rest.',
      ],
      NO_APP,
      NO_WORKER_ENTRY,
    ),
  },
  {
    files: ['workers/*.worker.ts'],
    rules: restrict(NO_APP),
  },
  {
    files: [
      'bench/**/*.ts',
      'e2e/**/*.ts',
      '*.config.{ts,js}',
      '**/*.test.ts',
      'scripts/**/*.{ts,js,mjs}',
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
