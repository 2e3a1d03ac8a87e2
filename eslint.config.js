// Lint rules, including the import boundaries between layers (see ../shared/design/STYLE.md):
// core and server never import Electron; the renderer imports only shared/ and its own code;
// shared/ imports only zod.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Domains whose SQL has not yet moved behind a storage port (electron/core/store/ports.ts). Only these,
 * the store itself and the composition root may import the SQLite store; the list only shrinks
 * (store/no-sql-outside-store.test.ts fails when a file there holds no SQL any more, or one not there does).
 */
const STILL_HOLDING_SQL = JSON.parse(readFileSync(`${import.meta.dirname}/electron/core/store/still-holding-sql.json`, 'utf8'));
const MAY_IMPORT_SQLITE = [
  'electron/core/store/**',
  'electron/core/create-core.ts',
  'electron/core/core.ts',
  'electron/test-support/**',
  'electron/bench/**',
  '**/*.test.ts',
  ...STILL_HOLDING_SQL,
];

const noElectron = { name: 'electron', message: 'core and server run without Electron; pass what you need in through createCore.' };
const noHost = { group: ['**/main/*', '**/preload/*'], message: 'core and server never import the Electron host.' };
const noSqlite = {
  group: ['**/store/sqlite/*'],
  message: "Ask the domain's storage port (electron/core/store/ports.ts); only the store and the composition root open SQLite.",
};
const noServer = { group: ['**/server/*', '**/server'], message: 'core never imports the server: the server is built on the core.' };
const noRoot = {
  group: ['**/create-core'],
  message: "Only the core's face (index.ts) imports the composition root; take what you need as arguments.",
};
const noCoreType = {
  regex: '^(\\.\\.?/)+core$',
  message: 'Only the composition root and the face import core.ts: take what you use as arguments (an interface of the parts you call).',
};
const faceOnly = {
  regex: '^(\\.\\./)+core/',
  message: "The hosts use the core through its face, electron/core/index.ts (import from '../core'); what a host needs is re-exported there.",
};
const nodeBuiltins = { group: ['node:*'], message: 'This layer has no Node APIs.' };
const resultsOnly = {
  regex: '^\\.\\./evaluations/(?!results/)',
  message: "Boxes read a run's answers through the evaluations' read side (evaluations/results/), not the run book, the sender or the reports.",
};

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
    files: ['scripts/**/*.mjs', 'bin/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['electron/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost, noSqlite, faceOnly] }] },
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [faceOnly] }] },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost, noSqlite, noServer, noRoot, noCoreType] }] },
  },
  {
    files: ['electron/core/boxes/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost, noSqlite, noServer, noRoot, noCoreType, resultsOnly] }] },
  },
  // The face: what the hosts use of the core, the root and the Core type among it.
  {
    files: ['electron/core/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost, noSqlite, noServer] }] },
  },
  // What may open SQLite still keeps the other boundaries.
  {
    files: MAY_IMPORT_SQLITE.filter((f) => !f.startsWith('electron/test-support') && !f.startsWith('electron/bench')),
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost, noServer, noRoot, noCoreType] }] },
  },
  // The composition root builds the Core that core.ts declares.
  {
    files: ['electron/core/create-core.ts', 'electron/core/core.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost, noServer, noRoot] }] },
  },
  // Tests may drive the core through the server and open the file they check; a host's tests may
  // reach behind the core's face for what they set up (the SQLite file, the sandbox's profiles).
  {
    files: ['electron/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noHost] }] },
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
