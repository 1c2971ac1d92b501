// Lint, and the import rules of the architecture (docs/architecture.md):
// 1. `electron` only under electron/main and electron/preload;
// 2. renderer/ never imports node:* or electron/ code;
// 3. shared/ imports no electron, no node:*, no DOM, nothing from electron/ or renderer/;
// 4. ipcMain / ipcRenderer only in the two transport helpers;
// 5. a core module (a folder of electron/core/) is entered only through its index.ts, from other
//    modules, the core's root files, the browser shell and main; the generic tools are imported
//    from their one home, electron/core/lib (its index), never from a file of it;
// 6. the sandbox stands apart from the app: it imports shared/, electron/core/lib and
//    electron/core/crypto, plus the Clock and Logger interfaces it is handed (core/clock, core/log);
// 7. the Hub's dashboard web app (hub/dashboard/src) runs in a manager's browser: it imports only
//    shared/ and UI packages, never Node built-ins, the Hub server's code, electron/ or renderer/.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['assert', 'buffer', 'child_process', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'https', 'net', 'os', 'path', 'process', 'stream', 'tls', 'url', 'util', 'worker_threads', 'zlib'];
const noElectron = { name: 'electron', message: 'Only electron/main and electron/preload may import electron (architecture rule 1).' };
const noNode = [
  { group: ['node:*'], message: 'renderer/ and shared/ never import Node built-ins (architecture rules 2 and 3).' },
  { group: ['**/electron/**', '../electron', '../../electron'], message: 'renderer/ and shared/ never import code from electron/ (architecture rules 2 and 3).' },
];
const builtinPaths = NODE_BUILTINS.map((name) => ({ name, message: 'renderer/ and shared/ never import Node built-ins (architecture rules 2 and 3).' }));
const throughIndex = (prefix) => ({
  regex: `^${prefix.replace(/[./]/g, '\\$&')}[a-z0-9-]+/`,
  message: 'Import a core module through its index.ts (for example ../orders, not ../orders/poller); generic tools come from electron/core/lib (architecture rule 5).',
});
const sandboxOnly = {
  regex: '^\\.\\./(?!core/(lib|crypto|clock|log)$|\\.\\./shared/)',
  message: 'The sandbox imports only shared/, electron/core/lib and electron/core/crypto (and the Clock and Logger interfaces) (architecture rule 6).',
};
const DASH_MSG = "The dashboard web app (hub/dashboard/src) imports only shared/ and UI packages (architecture rule 7).";
const dashboardOnly = (up) => [
  { group: ['node:*'], message: DASH_MSG },
  { regex: `^${'\\.\\./'.repeat(up)}(?!\\.\\./shared/)`, message: DASH_MSG },
];
const dashboardPaths = [noElectron, ...NODE_BUILTINS.map((name) => ({ name, message: DASH_MSG }))];
const ipcNames = { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'ipcMain / ipcRenderer only in electron/main/ipc-transport.ts and electron/preload/index.ts (architecture rule 4).' };

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test/artifacts/**', '.tmp/**', '.sandbox/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-empty-pattern': 'off',
    },
  },
  { files: ['scripts/**/*.mjs', '*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', URL: 'readonly' } } },
  { files: ['renderer/**/*.tsx'], plugins: { 'react-hooks': reactHooks }, rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' } },
  // Rule 1 everywhere but electron/main and electron/preload.
  { files: ['**/*.{ts,tsx,mts,mjs}'], ignores: ['electron/main/**', 'electron/preload/**'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] } },
  // Rule 4 inside electron/main and electron/preload, except the two helpers.
  { files: ['electron/main/**/*.ts', 'electron/preload/**/*.ts'], ignores: ['electron/main/ipc-transport.ts', 'electron/preload/index.ts'], rules: { 'no-restricted-imports': ['error', { paths: [ipcNames] }] } },
  // Rule 2.
  { files: ['renderer/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron, ...builtinPaths], patterns: noNode }] } },
  // Rule 3 (and no DOM globals in shared/).
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron, ...builtinPaths], patterns: [...noNode, { group: ['**/renderer/**', '../renderer'], message: 'shared/ never imports renderer/ code (architecture rule 3).' }] }],
      'no-restricted-globals': ['error', ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'process', 'Buffer', 'require', '__dirname'].map((name) => ({ name, message: 'shared/ runs in every process: no DOM or Node globals (architecture rule 3).' }))],
    },
  },
  // Rule 5. records/ has rooms (printing/, receipts/, shifts/): a room may use its sibling rooms'
  // files, and reaches other modules (two levels up) only through their index.
  { files: ['electron/core/*/**/*.ts'], ignores: ['electron/core/records/*/**'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [throughIndex('../')] }] } },
  { files: ['electron/core/records/*/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [throughIndex('../../')] }] } },
  { files: ['electron/core/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [throughIndex('./')] }] } },
  { files: ['electron/browser/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [throughIndex('../core/')] }] } },
  { files: ['electron/main/**/*.ts'], ignores: ['electron/main/ipc-transport.ts'], rules: { 'no-restricted-imports': ['error', { paths: [ipcNames], patterns: [throughIndex('../core/')] }] } },
  { files: ['electron/main/ipc-transport.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [throughIndex('../core/')] }] } },
  // Rule 7: src/*.ts reaches the repository root by three ../, src/<folder>/*.ts by four.
  { files: ['hub/dashboard/src/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { paths: dashboardPaths, patterns: dashboardOnly(2) }] } },
  { files: ['hub/dashboard/src/*/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { paths: dashboardPaths, patterns: dashboardOnly(3) }] } },
  { files: ['hub/dashboard/**/*.tsx'], plugins: { 'react-hooks': reactHooks }, rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' } },
  // Rule 6.
  { files: ['electron/sandbox/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [sandboxOnly] }] } },
);
