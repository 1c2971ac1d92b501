// Lint, and the rooms of the house (docs/architecture.md, "Rooms and what each may import"):
// 1. `electron` only under electron/main and electron/preload; ipcMain / ipcRenderer only in the
//    two transport helpers (electron/main/ipc-transport.ts, electron/preload/index.ts);
// 2. renderer/ and hub/dashboard/ run in a browser: shared/ and UI packages, never Node built-ins;
// 3. shared/ imports no electron, no node:*, nothing else of the repository, and uses no DOM or
//    Node globals: it runs in every process;
// 4. protocol/ imports only Node and shared/;
// 5. hub/ (the server) imports only shared/ and protocol/;
// 6. the sandbox imports only shared/ and protocol/;
// 7. nothing imports the counter's engine (core/) but its shells (electron/main, browser-shell/);
//    inside core/, a module is entered through its index.ts (../orders, never ../orders/poller), and
//    the engine reaches the sandbox (the Demo profile's provider) only through its index.
// And code that reads in one sitting: a source file at most 400 lines, a function at most 150
// (blank lines and comments not counted), a test file at most 800 (see SIZE below).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];
const noElectron = {
  name: 'electron',
  message: 'Only electron/main and electron/preload may import electron (rule 1).',
};
const ipcNames = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: 'ipcMain / ipcRenderer only in electron/main/ipc-transport.ts and electron/preload/index.ts (rule 1).',
};
const builtinPaths = (message) => NODE_BUILTINS.map((name) => ({ name, message }));

// A relative import that leaves the file's room must land in one of `allowed` (room folders at the
// repository root). `depth` is how many folders below the root the linted files sit.
const onlyRooms = (depth, allowed, message) => {
  const up = '\\.\\./'.repeat(depth);
  const ok = allowed.map((r) => r.replace(/[./-]/g, '\\$&')).join('|');
  // ../ repeated `depth` times reaches the root; anything reaching the root must continue into an allowed room.
  return [{ regex: `^${up}(?!(${ok})(/|$))`, message }];
};
// Rooms by depth: a file directly in ROOM/ is at depth 1, in ROOM/a/ at depth 2, and so on.
const byDepth = (room, maxDepth, patternsFor) =>
  Array.from({ length: maxDepth }, (_, i) => i + 1).map((depth) => ({
    files: [`${room}/${'*/'.repeat(depth - 1)}*.{ts,tsx,mts}`],
    rules: { 'no-restricted-imports': ['error', patternsFor(depth)] },
  }));

const BROWSER_MSG = 'renderer/ and hub/dashboard/ run in a browser: they import only shared/ and UI packages (rule 2).';
const SHARED_MSG = 'shared/ imports nothing of the repository but shared/, and no Node built-ins (rule 3).';
const PROTOCOL_MSG = 'protocol/ imports only Node and shared/ (rule 4).';
const HUB_MSG =
  "The Hub (hub/) imports only shared/ and protocol/: never the counter's engine, the sandbox, electron/ or renderer/ (rule 5).";
const SANDBOX_MSG = 'The sandbox imports only shared/ and protocol/ (rule 6).';
const CORE_MSG =
  'Import a core module through its index.ts (for example ../orders, not ../orders/poller), and the sandbox through sandbox/index.ts (rule 7).';
const SHELL_MSG = "The shells enter the counter's engine through a module's index.ts or a root file of core/ (rule 7).";

// Files over the size caps when the rules came (SIZE below), to be split. Only ever shorter.
/** @type {string[]} */
export const LONG_FILES_TO_SPLIT = [];
export const LONG_FUNCTIONS_TO_SPLIT = [
  'core/app-core.ts',
  'core/programme/programme-module.ts',
  'hub/http/dashboard-routes.ts',
  'hub/store/projections.ts',
  'renderer/src/components/TerminalPicker.tsx',
  'renderer/src/screens/OrderDetail.tsx',
  'renderer/src/screens/OrdersScreen.tsx',
  'renderer/src/screens/PaymentPanel.tsx',
  'renderer/src/screens/ProfileForm.tsx',
  'renderer/src/screens/settings/LayoutsPanel.tsx',
  'renderer/src/screens/topups/SingleForm.tsx',
];

const into = (prefix) => ({ regex: `^${prefix.replace(/[./]/g, '\\$&')}[a-z0-9-]+/`, message: CORE_MSG });
const sandboxInside = (prefix) => ({ regex: `^${prefix.replace(/[./]/g, '\\$&')}sandbox/.`, message: CORE_MSG });

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test/artifacts/**', '.tmp/**', '.sandbox/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-empty-pattern': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['renderer/**/*.tsx', 'hub/dashboard/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    // Load-on-mount and effects that follow a few values use renderer/src/components/useOnChange.ts.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // SIZE. Blank lines and comments are not counted: a comment that explains is never the reason to
  // split. Tests get a file cap of 800 and no function cap: a describe block's callback holds all its
  // cases, and one file of cases for one source file reads better than the same cases cut in two.
  {
    files: ['**/*.{ts,tsx,mts,mjs}'],
    ignores: ['test/**'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['test/**/*.{ts,tsx,mts,mjs}'],
    rules: { 'max-lines': ['error', { max: 800, skipBlankLines: true, skipComments: true }] },
  },
  // Still over the caps when the rules came (issue 29), to be split: remove a file from its list when
  // it is; never add one.
  // (ESLint refuses a block with no files: none is left on the list.)
  ...(LONG_FILES_TO_SPLIT.length ? [{ files: LONG_FILES_TO_SPLIT, rules: { 'max-lines': 'off' } }] : []),
  {
    files: LONG_FUNCTIONS_TO_SPLIT,
    rules: { 'max-lines-per-function': 'off' },
  },
  // Rule 1 everywhere but electron/main and electron/preload (the rooms below repeat it, as a rule's
  // options replace those of an earlier block for the same file).
  {
    files: ['**/*.{ts,tsx,mts,mjs}'],
    ignores: ['electron/main/**', 'electron/preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  {
    files: ['electron/main/**/*.ts', 'electron/preload/**/*.ts'],
    ignores: ['electron/main/ipc-transport.ts', 'electron/preload/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ipcNames], patterns: [into('../../core/')] }] },
  },
  {
    files: ['electron/main/ipc-transport.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [into('../../core/')] }] },
  },
  // Rule 2.
  ...byDepth('renderer', 6, (d) => ({
    paths: [noElectron, ...builtinPaths(BROWSER_MSG)],
    patterns: [{ group: ['node:*'], message: BROWSER_MSG }, ...onlyRooms(d, ['shared'], BROWSER_MSG)],
  })),
  // The dashboard app: leaving src/ (d times ../), only ../../shared/ may follow.
  ...byDepth('hub/dashboard/src', 4, (d) => ({
    paths: [noElectron, ...builtinPaths(BROWSER_MSG)],
    patterns: [
      { group: ['node:*'], message: BROWSER_MSG },
      { regex: `^${'\\.\\./'.repeat(d)}(?!\\.\\./\\.\\./shared/)`, message: BROWSER_MSG },
    ],
  })),
  // Rule 3 (and no DOM or Node globals).
  ...byDepth('shared', 3, (d) => ({
    paths: [noElectron, ...builtinPaths(SHARED_MSG)],
    patterns: [{ group: ['node:*'], message: SHARED_MSG }, ...onlyRooms(d, ['shared'], SHARED_MSG)],
  })),
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'sessionStorage',
          'process',
          'Buffer',
          'require',
          '__dirname',
        ].map((name) => ({ name, message: 'shared/ runs in every process: no DOM or Node globals (rule 3).' })),
      ],
    },
  },
  // Rule 4.
  ...byDepth('protocol', 3, (d) => ({
    paths: [noElectron],
    patterns: onlyRooms(d, ['shared', 'protocol'], PROTOCOL_MSG),
  })),
  // Rule 5: the server's files (the dashboard app has its own rule above).
  ...byDepth('hub', 4, (d) => ({
    paths: [noElectron],
    patterns: onlyRooms(d, ['shared', 'protocol', 'hub'], HUB_MSG),
  })).map((c) => ({ ...c, ignores: ['hub/dashboard/**'] })),
  // Rule 6.
  ...byDepth('sandbox', 3, (d) => ({
    paths: [noElectron],
    patterns: onlyRooms(d, ['shared', 'protocol', 'sandbox'], SANDBOX_MSG),
  })),
  // Rule 7: inside core/ a module is entered through its index; records/ has rooms (printing/,
  // receipts/, shifts/) that use their sibling rooms' files and reach other modules through their index.
  {
    files: ['core/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [into('./'), sandboxInside('../')] }],
    },
  },
  {
    files: ['core/*/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [into('../'), sandboxInside('../../')] }],
    },
  },
  {
    files: ['core/*/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [into('../../'), sandboxInside('../../../')] },
      ],
    },
  },
  {
    files: ['browser-shell/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [{ ...into('../core/'), message: SHELL_MSG }] },
      ],
    },
  },
  // The composition roots (the counter's engine, a Hub instance) read in dependency order: nothing is
  // used, not even inside a callback, before it is declared (news that goes back up is wired with
  // on…/use… once both ends exist).
  {
    files: ['core/app-core.ts', 'hub/server.ts'],
    rules: {
      '@typescript-eslint/no-use-before-define': ['error', { functions: false, classes: true, variables: true }],
    },
  },
  // Rule 7, the other side: nothing but the shells (and tests) imports core/.
  ...['renderer', 'shared', 'protocol', 'sandbox', 'hub', 'scripts', 'integrations', 'examples'].map((room) => ({
    files: [`${room}/**/*.{ts,tsx,mts}`],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'ImportDeclaration[source.value=/(^|\\/)core(\\/|$)/], ExportNamedDeclaration[source.value=/(^|\\/)core(\\/|$)/], ExportAllDeclaration[source.value=/(^|\\/)core(\\/|$)/], ImportExpression[source.value=/(^|\\/)core(\\/|$)/]',
          message:
            "Nothing imports the counter's engine (core/) but its shells, electron/main and browser-shell/ (rule 7).",
        },
      ],
    },
  })),
);
