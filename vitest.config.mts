import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Integration tests own ports, pseudo-terminals and child processes: one file at a time per worker.
          fileParallelism: true,
        },
      },
      // The Hub server: real HTTP on loopback, PGlite and a throwaway real PostgreSQL per file.
      { test: { name: 'hub', include: ['test/hub/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 } },
    ],
  },
});
