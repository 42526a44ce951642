/**
 * Upload benchmark (`npm run bench:uploads`): prints numbers, never passes or fails on a time.
 * The real server on loopback with embedded PGlite (in memory) and local-disk storage, as the test harness
 * builds it; a study of 200 files goes through the API as the wizard sends it (init, one PUT per file with
 * the session credentials, complete), at 1, 4 and 8 files in flight:
 *  (a) the four ct-series files replicated with new SOP Instance UIDs (3.8 KB each: per-request cost);
 *  (b) 200 synthetic CT slices of 512×512×16 bit (512 KB each: bytes through parsing and storage).
 * Runs beside other work on a shared machine: read the numbers as an order of magnitude.
 */
import { startServer } from '../tests/support/server';
import { CT_SERIES, asNewInstance, sample, writeDicom } from '../tests/support/dicom';
import { CT_SERIES_STUDY, initUpload, putFile } from '../tests/support/uploads';
import { printTable as table } from './support/table';

const FILES = Number(process.env.BENCH_FILES ?? 200);
const CONCURRENCY = [1, 4, 8];

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** A study of `n` files: each a new instance (own SOP UID) of one study, built in memory before the clock starts. */
function replicatedSeries(n: number, study: string): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => asNewInstance(sample(CT_SERIES[i % CT_SERIES.length]!), i + 1, { study }));
}

function syntheticCt(n: number, study: string): Uint8Array[] {
  const pixels = new Uint8Array(512 * 512 * 2).map((_, i) => (i * 31) & 0xff);
  return Array.from({ length: n }, (_, i) => writeDicom({
    transferSyntax: '1.2.840.10008.1.2.1',
    elements: [
      { tag: 0x00080016, vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
      { tag: 0x00080018, vr: 'UI', value: `1.2.826.0.1.3680043.8.498.${Date.now() % 100000}.${i + 1}` },
      { tag: 0x00080060, vr: 'CS', value: 'CT' },
      { tag: 0x00100010, vr: 'PN', value: 'Bench^Patient' },
      { tag: 0x0020000d, vr: 'UI', value: study },
      { tag: 0x0020000e, vr: 'UI', value: `${study}.1` },
      { tag: 0x00200013, vr: 'IS', value: String(i + 1) },
      { tag: 0x00280010, vr: 'US', value: 512 },
      { tag: 0x00280011, vr: 'US', value: 512 },
      { tag: 0x00280100, vr: 'US', value: 16 },
      { tag: 0x7fe00010, vr: 'OW', value: pixels },
    ],
  }));
}

async function main() {
  const s = await startServer({ exams: 20 });
  const token = await s.login('tech');
  const rows: (string | number)[][] = [];
  let run = 0;
  try {
    for (const [name, make] of [['ct-series ×200 (3.8 KB)', replicatedSeries], ['synthetic CT 512² (512 KB)', syntheticCt]] as const) {
      for (const concurrency of CONCURRENCY) {
        run += 1;
        const study = `1.2.826.0.1.3680043.8.498.77.${run}`;
        const files = make(FILES, study);
        const bytes = files.reduce((n, f) => n + f.length, 0);
        const started = performance.now();
        const session = await initUpload(s, token, s.ids.hospitalId, { ...CT_SERIES_STUDY, studyInstanceUid: study });
        const latencies: number[] = [];
        let next = 0;
        let failed = 0;
        await Promise.all(Array.from({ length: concurrency }, async () => {
          while (next < files.length) {
            const file = files[next++]!;
            const t = performance.now();
            const res = await putFile(s, session.credentials.token, file);
            latencies.push(performance.now() - t);
            if (res.status !== 200 || res.body.status !== 'stored') failed += 1;
          }
        }));
        const done = await s.request('POST', `exams/${session.exam.id}/uploaded`, { token, body: {} });
        const seconds = (performance.now() - started) / 1000;
        latencies.sort((a, b) => a - b);
        rows.push([
          name, concurrency, files.length, (bytes / 1e6).toFixed(1), seconds.toFixed(2), (bytes / 1e6 / seconds).toFixed(1),
          (files.length / seconds).toFixed(0), quantile(latencies, 0.5).toFixed(1), quantile(latencies, 0.95).toFixed(1),
          failed === 0 && done.body.instanceCount === files.length ? 'ok' : `FAILED ${failed}`,
        ]);
      }
    }
  } finally {
    await s.close();
  }
  table(`Uploads through the API on loopback (PGlite in memory, local disk; Node ${process.version})`,
    ['study', 'in flight', 'files', 'MB', 's', 'MB/s', 'files/s', 'p50 ms', 'p95 ms', 'stored'], rows);
}

await main();
