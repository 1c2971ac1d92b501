import { defineConfig } from 'vitest/config';

// Four projects, all run by `vitest run` (and so by `npm test`):
// - unit: pure logic, no ports or processes;
// - integration: real servers on free loopback ports, real SQLite files, socat ptys, child
//   processes. Every file picks its own port (0) and temporary folder, so files run in parallel;
// - slow: tests that take minutes on their own (the chaos run with process kills, order search at
//   100,000 orders). A file is slow when its name ends in `.slow.test.ts`. They run after the other
//   projects and one file at a time, so they neither starve nor are starved by the rest;
// - hub: the Hub server (below).
const SLOW = '**/*.slow.test.ts';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: [SLOW], environment: 'node' } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [SLOW],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'slow',
          include: [`test/${SLOW}`],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      // The Hub server: real HTTP on loopback, PGlite and a throwaway real PostgreSQL per file.
      {
        test: {
          name: 'hub',
          include: ['test/hub/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
