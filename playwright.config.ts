import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (browsers cannot be downloaded here) against the real
 * server with a fresh database. E2E_PORT lets two people run the suite side by side.
 */
const port = Number(process.env.E2E_PORT ?? 8181);
const dataDir = port === 8181 ? '.tmp/e2e-data' : `.tmp/e2e-data-${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  fullyParallel: false,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  retries: 0,
  reporter: 'list',
  outputDir: '.tmp/test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    // scripts/test.sh builds before Playwright; a missing build is made here so the config also runs alone.
    command: `rm -rf ${dataDir} && mkdir -p ${dataDir} && ([ -f dist/index.html ] || npx vite build --logLevel warn) && npx tsx server/main.ts`,
    url: `http://localhost:${port}/api/v1/domain`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      // Always a fresh embedded database in dataDir. .ci/run exports DATABASE_URL for the API suite: a server on
      // that shared database would meet the exams, files and links of earlier runs (whose files are gone).
      DATABASE_URL: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      SCRYPT_COST: '1024',
      TOKEN_SECRET: 'e2e-secret-not-for-production',
      LOG: '0',
    },
  },
});
