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
// of `npm test`, .tmp/results/playwright.json), and the payment journeys, which need the group's expert settings as the
// demo has them (admin.group.spec.ts, in the first lane, changes them). Every other file, new ones included, runs in the
// first lane.
const SECOND = [
  'share.ui.spec.ts', 'publish.spec.ts', 'screens.work.spec.ts', 'images.spec.ts', 'report.actions.spec.ts', 'calling.spec.ts',
  'viewer.samples.spec.ts', 'registry.spec.ts', 'notifications.spec.ts', 'report.xss.spec.ts', 'a11y.spec.ts',
  'viewer.syntaxes.spec.ts', 'learning.spec.ts', 'printTemplates.spec.ts', 'colourRules.spec.ts', 'consultations.flow.spec.ts', 'payments.flow.spec.ts',
  'overflow.spec.ts', 'payments.journey.spec.ts',
].map((file) => `**/${file}`);
const laneCount = process.env.E2E_LANES === '1' ? 1 : 2;

const dataDirOf = (at: number) => (at === 8181 ? '.tmp/e2e-data' : `.tmp/e2e-data-${at}`);
/** Where a lane's server writes its texts (inside its data folder, so each run starts empty). */
export const smsOutbox = (at: number) => `${dataDirOf(at)}/sms-outbox.jsonl`;

/** The built web app the servers serve; E2E_DIST lets side-by-side runs (helpers, experiments) keep builds apart. */
const dist = process.env.E2E_DIST ?? 'dist';

/** One lane's server, its own port, data folder and SMS outbox: a fresh embedded database seeded with the demo. */
const serverOf = (at: number) => `PORT=${at} DICOM_PORT=${at + 30000} HL7_PORT=${at + 31000} DATA_DIR=${dataDirOf(at)} SMS_OUTBOX_FILE=${smsOutbox(at)} npx tsx server/main.ts`;

/**
 * The servers. Playwright starts its web servers one after another, and seeding the demo (images included) takes half
 * a minute on a slow CI machine; so the first entry's command starts every lane's server side by side (each seeding
 * on its own core), and the other lanes' entries only wait for their own address (`sleep`, killed with the run, as
 * Playwright kills the first command's whole process group, both servers in it).
 */
function server(at: number, all: readonly number[]) {
  const first = at === all[0];
  const dirs = all.map(dataDirOf).join(' ');
  return {
    // scripts/test.sh builds before Playwright; a missing build is made here so the config also runs alone.
    command: first
      ? `rm -rf ${dirs} && mkdir -p ${dirs} && ([ -f ${dist}/index.html ] || npx vite build --logLevel warn --outDir ${dist}) && ${[...all.slice(1).map((other) => `${serverOf(other)} & `), serverOf(at)].join('')}`
      : 'sleep 86400',
    url: `http://localhost:${at}/api/v1/domain`,
    // The first entry must find its port free; another lane's server, started by the first entry, may already answer.
    reuseExistingServer: !first,
    timeout: 300_000, // two lanes seed side by side; on a loaded machine that took over two minutes
    env: {
      // Always a fresh embedded database in its data folder. .ci/run exports DATABASE_URL for the API suite: a server on
      // that shared database would meet the exams, files and links of earlier runs (whose files are gone).
      DATABASE_URL: '',
      CLIENT_DIR: dist,
      SCRYPT_COST: '1024',
      TOKEN_SECRET: 'e2e-secret-not-for-production',
      LOG: '0',
      // PORT, DATA_DIR and SMS_OUTBOX_FILE (the local SMS sender also appends each text there; tests/e2e/settings.spec.ts
      // reads the codes: see smsOutbox()) are each lane's own: serverOf().
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
  // CI (CI=true) runs a failed test once more and reports it as flaky in the summary's count; locally none. November 29:
  // two keyboard tests (report.spec's template key, payments.flow's Alt+Shift+E) failed in one of two whole runs, each
  // a key pressed just as the report workspace settled (docs/decisions.md, "keys as the workspace settles"); the cause
  // is open, and a submission must not hang on it.
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  outputDir: '.tmp/test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    // A trace records every test's screencast and DOM snapshots to keep the failing ones: on CI's two cores that was
    // about a third of each test's time (screens + worklist alone: 104 → 73 s), for files CI never hands back.
    // E2E_TRACE=1 records them again when a failure needs looking into.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    },
  },
  // One worker per lane: a lane's files share its server one after another, never two at once.
  projects: lanes.map(({ port: at, ...lane }) => ({ ...lane, workers: 1, use: { baseURL: `http://localhost:${at}` } })),
  webServer: lanes.map((lane) => server(lane.port, lanes.map((l) => l.port))),
});
