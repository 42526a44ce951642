// Adds up the runners' JSON results into one closing line: "tests: N passed, N failed". The failed tests are named
// just above it, with the first lines of their message: CI keeps only the tail of the output, and a failure
// printed minutes earlier by Vitest is otherwise out of sight.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0, failed = 0, skipped = 0;
/** @type {string[]} */
const failures = [];
// eslint-disable-next-line no-control-regex -- the colour codes Playwright leaves in its messages start with ESC
const firstLines = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim()).slice(0, 4).map((l) => `      ${l.trim().slice(0, 200)}`).join('\n');
const rel = (file) => path.relative(process.cwd(), file ?? '');

/** Playwright's suites nest: walk them down to the tests whose outcome is "unexpected". */
function playwrightFailures(suites, into) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const last = test.results?.[test.results.length - 1];
        into.push(`  ✗ ${spec.file}:${spec.line} › ${spec.title}\n${firstLines(last?.error?.message)}`);
      }
    }
    playwrightFailures(suite.suites, into);
  }
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  if (r.stats && 'expected' in r.stats) { // Playwright
    passed += r.stats.expected + (r.stats.flaky ?? 0); failed += r.stats.unexpected; skipped += r.stats.skipped;
    playwrightFailures(r.suites, failures);
  } else { // Vitest (jest-compatible)
    passed += r.numPassedTests ?? 0; failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0); skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    const run = path.basename(file, '.json');
    for (const suite of r.testResults ?? []) {
      const broken = (suite.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of broken) failures.push(`  ✗ [${run}] ${rel(suite.name)} › ${a.fullName ?? a.title}\n${firstLines(a.failureMessages?.[0])}`);
      if (!broken.length && suite.status === 'failed') failures.push(`  ✗ [${run}] ${rel(suite.name)} (the file did not run)\n${firstLines(suite.message)}`);
    }
  }
}
if (failures.length) console.log(`\nfailed:\n${failures.join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
