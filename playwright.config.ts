import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (browsers cannot be downloaded here) against the real server with a fresh
 * database. Two lanes run side by side, each with its own server and embedded database, so that no file of one lane
 * ever meets the data of the other: on a 2-core machine most of a browser test is waiting, and two lanes cut the
 * suite's time by about a third. Within a lane the files run one after another on one server, as before.
 * E2E_PORT (default 8181) is the first lane's port; the second lane takes the next one. E2E_LANES=1 runs every file
 * on one server.
 */
const port = Number(process.env.E2E_PORT ?? 8181);

// The second lane: the long files, chosen so that both lanes take about as long (per-file times from the JSON report
// of `npm test`, .tmp/results/playwright.json). Every other file, new ones included, runs in the first lane.
const SECOND = [
  'share.ui.spec.ts', 'publish.spec.ts', 'screens.work.spec.ts', 'images.spec.ts', 'report.actions.spec.ts', 'calling.spec.ts',
  'viewer.samples.spec.ts', 'registry.spec.ts', 'notifications.spec.ts', 'report.xss.spec.ts', 'a11y.spec.ts',
  'viewer.syntaxes.spec.ts', 'learning.spec.ts', 'printTemplates.spec.ts', 'colourRules.spec.ts', 'consultations.flow.spec.ts', 'payments.flow.spec.ts',
].map((file) => `**/${file}`);
const laneCount = process.env.E2E_LANES === '1' ? 1 : 2;

const dataDirOf = (at: number) => (at === 8181 ? '.tmp/e2e-data' : `.tmp/e2e-data-${at}`);
/** Where a lane's server writes its texts (inside its data folder, so each run starts empty). */
export const smsOutbox = (at: number) => `${dataDirOf(at)}/sms-outbox.jsonl`;

/** The built web app the servers serve; E2E_DIST lets side-by-side runs (helpers, experiments) keep builds apart. */
const dist = process.env.E2E_DIST ?? 'dist';

function server(at: number) {
  const dataDir = dataDirOf(at);
  return {
    // scripts/test.sh builds before Playwright; a missing build is made here so the config also runs alone (the
    // lanes' servers start one after the other, so only the first can find the build missing).
    command: `rm -rf ${dataDir} && mkdir -p ${dataDir} && ([ -f ${dist}/index.html ] || npx vite build --logLevel warn --outDir ${dist}) && npx tsx server/main.ts`,
    url: `http://localhost:${at}/api/v1/domain`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      // Always a fresh embedded database in dataDir. .ci/run exports DATABASE_URL for the API suite: a server on that
      // shared database would meet the exams, files and links of earlier runs (whose files are gone).
      DATABASE_URL: '',
      PORT: String(at),
      CLIENT_DIR: dist,
      DATA_DIR: dataDir,
      SCRYPT_COST: '1024',
      TOKEN_SECRET: 'e2e-secret-not-for-production',
      LOG: '0',
      // The local SMS sender also appends each text here (tests/e2e/settings.spec.ts reads the codes): see smsOutbox().
      SMS_OUTBOX_FILE: smsOutbox(at),
    },
  };
}

const lanes = laneCount === 1
  ? [{ name: 'e2e', testMatch: '**/*.spec.ts', port }]
  : [
    { name: 'lane1', testMatch: '**/*.spec.ts', testIgnore: SECOND, port },
    { name: 'lane2', testMatch: SECOND, port: port + 1 },
  ];

export default defineConfig({
  testDir: 'tests/e2e',
  workers: lanes.length,
  fullyParallel: false,
  // CI's two cores run both lanes, their servers and two browsers: on a machine half as fast as usual (November 27:
  // the same commit failed a dozen keyboard tests at 5 s in CI and passed them alone) a step can take longer than 5 s.
  // A wait only lengthens a test that fails; one that passes is as quick as before.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: 'list',
  outputDir: '.tmp/test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    },
  },
  // One worker per lane: a lane's files share its server one after another, never two at once.
  projects: lanes.map(({ port: at, ...lane }) => ({ ...lane, workers: 1, use: { baseURL: `http://localhost:${at}` } })),
  webServer: lanes.map((lane) => server(lane.port)),
});
