// Lint rules, including the import boundaries between layers (see ../shared/design/STYLE.md):
// core and server never import Electron; the renderer imports only shared/ and its own code;
// shared/ imports only zod.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noElectron = { name: 'electron', message: 'core and server run without Electron; pass what you need in through createCore.' };
const nodeBuiltins = { group: ['node:*'], message: 'This layer has no Node APIs.' };

export default tseslint.config(
  { ignores: ['dist/**', '.tsbuild/**', 'node_modules/**', 'e2e/artifacts/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['electron/core/**/*.ts', 'electron/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [{ group: ['**/main/*', '**/preload/*'], message: 'core and server never import the Electron host.' }] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer has no Electron; use renderer/src/transport.' }],
          patterns: [nodeBuiltins, { group: ['**/electron/**'], message: 'The renderer imports only shared/ and its own code.' }],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod$|\\.{1,2}/)', message: 'shared/ imports only zod and its own files.' },
            { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ imports only zod and its own files.' },
          ],
        },
      ],
    },
  },
);
