/**
 * bench:viewer-syntaxes — per transfer syntax / photometric kind of tests/fixtures/dicom (all one study, a series each):
 *  (a) first image time in Chromium: a fresh context (cold cache) opens /viewer/{examId}, then each series in turn
 *      (']'), timed from the key to that series' first drawn image (fetch, decode, draw); p50 over RUNS (10) runs;
 *  (b) GET instances/{id}/preview: made (cache emptied before each round) and kept (served from storage), p50/p95.
 * Serves the current build (dist/, `npx vite build` first) from its own server on a free loopback port.
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiToken, uploadStudy } from '../tests/e2e/support/images';
import type { FixtureEntry } from '../tests/fixtures/dicom/generate';
import { freePort, percentile } from './support/stats';
import { untilAnswering } from './support/answering';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(ROOT, 'tests/fixtures/dicom');
const RUNS = Number(process.env.RUNS ?? 10);
const manifest = JSON.parse(readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { files: FixtureEntry[] };

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const data = mkdtempSync(path.join(tmpdir(), 'bench-syntaxes-data-'));
const server = spawn('npx', ['tsx', 'server/main.ts'], {
  cwd: ROOT,
  env: { ...process.env, DATABASE_URL: '', PORT: String(port), DICOM_PORT: '0', HL7_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data, CLIENT_DIR: path.join(ROOT, 'dist'), SCRYPT_COST: '1024', TOKEN_SECRET: 'bench-syntaxes', LOG: '0' },
  stdio: 'ignore',
  detached: true,
});
try {
  await untilAnswering(`${base}/api/v1/domain`, 120_000);
  const tech = await apiToken(base, 'tech');
  const { examId } = await uploadStudy(base, tech, manifest.files.map((f) => path.join(FIXTURES, f.file)));
  const token = await apiToken(base, 'rad1');
  const series = (await (await fetch(`${base}/api/v1/exams/${examId}/series`, { headers: { authorization: `Bearer ${token}` } })).json()) as { series: { seriesNumber: number; instances: { id: number }[] }[] };
  const instanceOf = new Map(series.series.map((s) => [s.seriesNumber, s.instances[0]!.id]));

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const times = new Map<string, number[]>(manifest.files.map((f) => [f.file, []]));
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    await context.addInitScript((t) => localStorage.setItem('user-access-token', t), token);
    const page = await context.newPage();
    await page.goto(`${base}/viewer/${examId}`);
    for (const [index, f] of manifest.files.entries()) {
      const started = Date.now();
      if (index > 0) {
        await page.getByTestId('viewer-viewport').focus();
        await page.keyboard.press(']');
      }
      await page.waitForSelector(`[data-series="${f.seriesNumber}"][data-rendered=true]`, { timeout: 60_000 });
      times.get(f.file)!.push(Date.now() - started);
    }
    await context.close();
  }
  await browser.close();
  console.log(`(a) First image per kind, Chromium without GPU, cold cache, ${RUNS} runs (the first row includes the page load)`);
  console.log(`    ${'kind'.padEnd(44)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}`);
  for (const f of manifest.files) {
    const sorted = times.get(f.file)!.sort((a, b) => a - b);
    console.log(`    ${f.kind.padEnd(44)}${String(percentile(sorted, 50)).padStart(8)}${String(percentile(sorted, 95)).padStart(8)}`);
  }

  const made: number[] = [];
  const kept: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    rmSync(path.join(data, 'files', 'previews'), { recursive: true, force: true });
    for (const f of manifest.files) {
      for (const list of [made, kept]) {
        const started = performance.now();
        const res = await fetch(`${base}/api/v1/instances/${instanceOf.get(f.seriesNumber)}/preview`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${f.file}: preview ${res.status}`);
        list.push(performance.now() - started);
      }
    }
  }
  made.sort((a, b) => a - b);
  kept.sort((a, b) => a - b);
  const ms = (n: number) => n.toFixed(1).padStart(8);
  console.log(`\n(b) GET instances/{id}/preview over ${manifest.files.length} kinds × ${RUNS} rounds`);
  console.log(`    made (decode, window, PNG, store)  p50${ms(percentile(made, 50))} ms  p95${ms(percentile(made, 95))} ms`);
  console.log(`    kept (from storage)                p50${ms(percentile(kept, 50))} ms  p95${ms(percentile(kept, 95))} ms`);
} finally {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  rmSync(data, { recursive: true, force: true });
}
