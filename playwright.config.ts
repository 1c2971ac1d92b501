import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

// Debian's Chromium (apt-get install chromium); Playwright's own browser download is not used.
const chromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test/artifacts/playwright',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /electron\//,
      use: { browserName: 'chromium', viewport: { width: 1280, height: 860 } },
    },
    { name: 'electron', testMatch: /electron\/.*\.spec\.ts/ },
  ],
});
