// Lint: mistakes a reviewer would otherwise have to find by hand, caught by the machine (`npm run lint`, and in
// `npm test`'s check step). TypeScript files are linted with type information (each file is read
// with the tsconfig of its layer: src/*/tsconfig.json, test/tsconfig.json), because the rules that
// matter most here need types: a promise nobody awaits, a promise handed to a place that ignores
// it, a switch that forgets a member of a union. Style is not lint's business: prettier owns it.
//   npm run lint            lint everything (cached in out/.eslintcache)
//   npm run lint -- --fix   apply the fixes the rules know
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What Node gives a script without an import (the scripts and esbuild.js run in plain Node). */
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'structuredClone',
    'fetch',
    'AbortController',
    'TextDecoder',
    'TextEncoder',
  ].map((name) => [name, 'readonly']),
);
const commonJsGlobals = Object.fromEntries(
  ['require', 'module', 'exports', '__dirname', '__filename'].map((name) => [name, 'readonly']),
);

const unusedVars = [
  'error',
  {
    // `_name` says "unused on purpose" (a parameter an interface requires, a skipped tuple member).
    argsIgnorePattern: '^_',
    varsIgnorePattern: '^_',
    caughtErrorsIgnorePattern: '^_',
    destructuredArrayIgnorePattern: '^_',
    ignoreRestSiblings: true,
  },
];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'dist-vsix/**',
      'media/**',
      'l10n/**',
      'test-results/**',
      'bench-results/**',
      '.vscode-test/**',
      'node_modules/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The rules this config is for.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Passing on a caught error or an abort reason unchanged is not a rejection with a non-Error.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      '@typescript-eslint/no-unused-vars': unusedVars,
      // An async function without `await` is how an interface that returns a promise is implemented
      // by something that answers at once; flagging each would only add noise.
      '@typescript-eslint/require-await': 'off',
      // Passing a method as a value is everyday VS Code API use (`register(x.dispose)` patterns are
      // bound or arrow-wrapped where it matters); the rule cannot tell the two apart.
      '@typescript-eslint/unbound-method': 'off',
      // A pattern that matches indented source or diff text reads best with the spaces it matches.
      'no-regex-spaces': 'off',
      // `import x = require('x')` is TypeScript's typed import of a CommonJS `export =` module (mocha).
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
    },
  },
  {
    // Tests read JSON answers, recorded requests and fixtures as `any` on purpose: assertions
    // are the check. The rest of the type-aware rules still apply to them.
    files: ['test/**/*.ts'],
    rules: {
      // A test that prints an unexpected value as `[object Object]` still fails, visibly.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // The build and test scripts: plain JavaScript, no type information.
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: nodeGlobals },
    rules: { 'no-unused-vars': unusedVars },
  },
  {
    files: ['esbuild.js', 'scripts/undiciEntry.js', 'test/consumerExtension/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, ...commonJsGlobals } },
  },
);
