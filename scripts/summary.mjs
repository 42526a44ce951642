// Adds up the runners' JSON results into one closing line: "tests: N passed, N failed".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0, failed = 0, skipped = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  if (r.stats && 'expected' in r.stats) { // Playwright
    passed += r.stats.expected + (r.stats.flaky ?? 0); failed += r.stats.unexpected; skipped += r.stats.skipped;
  } else { // Vitest (jest-compatible)
    passed += r.numPassedTests ?? 0; failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0); skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
}
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
