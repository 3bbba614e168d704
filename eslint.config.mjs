// ESLint (flat config): @eslint/js's recommended rules and typescript-eslint's recommended type-checked rules.
// `npm run lint` runs it with --max-warnings 0 (scripts/test-all.sh, after the type check).
// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    'node_modules/',
    'out/',
    'dist/',
    'test-results/',
    '.vscode-test/',
    '.vscode-e2e/',
    'packages/',
    'media/',
    'schemas/',
    'syntaxes/',
    'examples/',
    'test/fixtures/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Every .ts file is in tsconfig.json's project; the type-checked rules read its program.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test() and describe() return a promise the runner itself tracks; the files call them at top level.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      // A leading underscore marks what is left unused on purpose (omitted by a rest destructuring, a required parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The webviews' scripts run in the browser (bundled by scripts/build.mjs); everything else runs in Node.
    files: ['client/src/webview/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    ignores: ['client/src/webview/**'],
    languageOptions: { globals: globals.node },
  },
  {
    // Test doubles implement the product's async interfaces (loadIncludes, credentials, save, load…) as
    // `async () => value`: the rule would have each one rewritten as Promise.resolve.
    files: ['test/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // The build and data scripts are plain JavaScript outside tsconfig.json's project: no type information.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
]);
