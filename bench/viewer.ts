/**
 * bench:viewer — the study viewer's cost, printed (never a pass/fail):
 *  (a) the viewer chunk (Cornerstone3D, its loader and tools) gzipped, with the decode worker and codec
 *      WASM files it may fetch, and proof that /login and /studies do not load it (their static import
 *      closures from the build manifest do not contain it);
 *  (b) time to first image in Chromium: a fresh browser context (no cache) opens /viewer/{examId} signed
 *      in, until the first image is drawn, for the CT series, the JPEG extended and the RLE samples.
 * A fresh build goes to a temporary folder; a real server runs on a loopback port with its own data.
 */
import { chromium } from '@playwright/test';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CT_SERIES_FILES, SAMPLES, apiToken, uploadStudy } from '../tests/e2e/support/images';
import { untilAnswering } from './support/answering';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_PORT ?? 8391);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.RUNS ?? 5);

interface ManifestChunk { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[]; assets?: string[] }

const kb = (n: number) => (n / 1024).toFixed(1);
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

function routeSource(routePath: string): string | null {
  const line = readFileSync(path.join(ROOT, 'src/app/routes.tsx'), 'utf8').split('\n').find((l) => l.includes(`path: '${routePath}'`));
  const spec = line && /import\('([^']+)'\)/.exec(line)?.[1];
  return spec ? spec.replace(/^@\//, 'src/') : null;
}

/** Files a page loads before anything lazy: the entries and the route screen, with their static imports. */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imp of chunk.imports ?? []) walk(imp);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key);
  keys.forEach(walk);
  return files;
}

function bundle(dir: string) {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const viewerKey = 'src/features/viewer/ViewerCore.tsx';
  if (!manifest[viewerKey]) throw new Error('no ViewerCore chunk in the manifest');
  const base = staticClosure(manifest, []);
  const viewerFiles = [...staticClosure(manifest, [viewerKey])].filter((f) => !base.has(f));
  const viewerGz = viewerFiles.reduce((n, f) => n + gz(path.join(dir, f)), 0);
  const viewerRaw = viewerFiles.reduce((n, f) => n + readFileSync(path.join(dir, f)).length, 0);
  console.log('\n(a) Viewer chunk (loaded when a viewer is first shown)');
  console.log(`    ViewerCore and the chunks only it needs: ${viewerFiles.length} files, ${kb(viewerRaw)} KB raw, ${kb(viewerGz)} KB gzipped`);
  const assets = execFileSync('ls', [path.join(dir, 'assets')], { encoding: 'utf8' }).split('\n').filter((f) => /decodeImageFrameWorker.*\.js$|\.wasm$/.test(f));
  for (const f of assets) console.log(`    on demand: ${f.padEnd(44)} ${kb(gz(path.join(dir, 'assets', f))).padStart(7)} KB gzipped`);
  for (const route of ['/login', '/studies']) {
    const screen = routeSource(route);
    const key = screen && Object.keys(manifest).find((k) => k.replace(/\.[jt]sx?$/, '') === screen);
    if (!key) {
      console.log(`    ${route}: no screen chunk found`);
      continue;
    }
    const loads = staticClosure(manifest, [key]);
    const overlap = viewerFiles.filter((f) => loads.has(f));
    const total = [...loads].reduce((n, f) => n + gz(path.join(dir, f)), 0);
    console.log(`    ${route} loads ${loads.size} JS files, ${kb(total)} KB gzipped; viewer files among them: ${overlap.length === 0 ? 'none' : overlap.join(', ')}`);
  }
}

async function firstImage(dir: string) {
  const data = mkdtempSync(path.join(tmpdir(), 'bench-viewer-data-'));
  const server = spawn('npx', ['tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), DICOM_PORT: '0', HL7_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data, CLIENT_DIR: dir, SCRYPT_COST: '1024', TOKEN_SECRET: 'bench-viewer', LOG: '0' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    await untilAnswering(`${BASE}/api/v1/domain`, 120_000);
    const tech = await apiToken(BASE, 'tech');
    const exams: [string, number][] = [
      ['CT series (4 × 16×16, explicit VR LE)', (await uploadStudy(BASE, tech, CT_SERIES_FILES)).examId],
      ['CT_small (128×128, explicit VR LE)', (await uploadStudy(BASE, tech, [path.join(SAMPLES, 'CT_small.dcm')])).examId],
      ['JPGExtended (1024×256, JPEG extended 12-bit)', (await uploadStudy(BASE, tech, [path.join(SAMPLES, 'JPGExtended.dcm')])).examId],
      ['SC_rgb_rle_2frame (RLE, RGB, 2 frames)', (await uploadStudy(BASE, tech, [path.join(SAMPLES, 'SC_rgb_rle_2frame.dcm')])).examId],
    ];
    const token = await apiToken(BASE, 'rad1');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    console.log(`\n(b) Time to first image, /viewer/{examId} in a fresh context (cold cache), ${RUNS} runs, Chromium without GPU (CPU rendering)`);
    console.log('    exam'.padEnd(52) + 'median ms'.padStart(10) + 'min'.padStart(8) + 'max'.padStart(8));
    for (const [name, examId] of exams) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext();
        await context.addInitScript((t) => localStorage.setItem('user-access-token', t), token);
        const page = await context.newPage();
        const started = Date.now();
        await page.goto(`${BASE}/viewer/${examId}`);
        await page.waitForSelector('[data-rendered=true]', { timeout: 60_000 });
        times.push(Date.now() - started);
        await context.close();
      }
      times.sort((a, b) => a - b);
      console.log(`    ${name.padEnd(48)}${String(times[Math.floor(times.length / 2)]).padStart(10)}${String(times[0]).padStart(8)}${String(times.at(-1)).padStart(8)}`);
    }
    await browser.close();
  } finally {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(data, { recursive: true, force: true });
  }
}

const out = mkdtempSync(path.join(tmpdir(), 'bench-viewer-build-'));
try {
  console.log('Building the web app into a temporary folder…');
  execFileSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(path.join(out, '.vite', 'manifest.json'))) throw new Error('the build wrote no manifest');
  bundle(out);
  await firstImage(out);
} finally {
  rmSync(out, { recursive: true, force: true });
}
