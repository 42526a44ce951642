import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { prefer, signIn } from './support/session';
import { apiToken, uploadStudy } from './support/images';
import type { FixtureEntry } from '../fixtures/dicom/generate';

/**
 * Every transfer syntax, photometric interpretation and bit depth the upload accepts is drawn as its pixels say
 * (tests/fixtures/dicom/, made by scripts/make-dicom-fixtures.sh): one upload of all of them (one study, a series
 * each), the viewer walks the series with ']' and reads the canvas back at the centre of each of the picture's four
 * flat quadrants; each must hold the colour manifest.json computed from the file's values and window (a 1-bit or
 * low-range frame without a window: its real range). Then the header's patient name in both scripts.
 */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/dicom');
const manifest = JSON.parse(readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { size: number; files: FixtureEntry[] };

/** The canvas's colour at the centre of each quadrant of the fitted picture (3×3 pixels averaged). */
async function quadrants(page: Page, size: number): Promise<number[][]> {
  return page.getByTestId('viewer-viewport').evaluate((root, imageSize) => {
    const source = root.querySelector('canvas')!;
    const copy = document.createElement('canvas');
    copy.width = source.width;
    copy.height = source.height;
    const context = copy.getContext('2d')!;
    context.drawImage(source, 0, 0);
    const scale = Math.min(copy.width, copy.height) / imageSize;
    const left = (copy.width - imageSize * scale) / 2;
    const top = (copy.height - imageSize * scale) / 2;
    return [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].map(([fx, fy]) => {
      const x = Math.round(left + fx! * imageSize * scale) - 1;
      const y = Math.round(top + fy! * imageSize * scale) - 1;
      const { data } = context.getImageData(x, y, 3, 3);
      const sum = [0, 0, 0];
      for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
      return sum.map((s) => Math.round(s / 9));
    });
  }, size);
}

test('each transfer syntax, photometric interpretation and bit depth draws its pixels', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await prefer(page, { language: 'en', theme: 'dark' });
  const tech = await apiToken(baseURL!, 'tech');
  const { examId, completed } = await uploadStudy(baseURL!, tech, manifest.files.map((f) => path.join(FIXTURES, f.file)));
  expect(completed.instanceCount ?? manifest.files.length).toBe(manifest.files.length);
  await signIn(page, 'rad1');
  await page.goto(`/viewer/${examId}`);
  const viewport = page.getByTestId('viewer-viewport');
  await expect(page.getByTestId('viewer-patient')).toHaveText('Wang XiaoDong', { timeout: 30_000 });

  const seen: string[] = [];
  for (const [index, entry] of manifest.files.entries()) {
    if (index > 0) {
      await viewport.focus();
      await page.keyboard.press(']');
    }
    await expect(viewport, entry.kind).toHaveAttribute('data-series', String(entry.seriesNumber));
    await expect(viewport, entry.kind).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
    await expect(page.getByRole('alert'), entry.kind).toHaveCount(0);
    // The first draw of a new stack may still be the previous picture's frame: poll until the quadrants hold.
    const matches = async () => {
      const got = await quadrants(page, manifest.size);
      const off = got.flatMap((rgb, q) => rgb.map((v, c) => Math.abs(v - entry.expected[q]![c]!))).some((d) => d > entry.tolerance);
      return off ? JSON.stringify(got) : 'ok';
    };
    await expect.poll(matches, { message: `${entry.kind} (${entry.file}) expected ${JSON.stringify(entry.expected)}`, timeout: 10_000 }).toBe('ok');
    seen.push(entry.file);
  }
  expect(seen).toHaveLength(manifest.files.length);
  // The series list shows each series by its server preview, every one of them made and loaded.
  const previews = page.getByTestId('series-preview');
  await expect(previews).toHaveCount(manifest.files.length);
  for (const [index, entry] of manifest.files.entries()) {
    const preview = previews.nth(index);
    await preview.scrollIntoViewIfNeeded(); // loaded lazily, as they come into view
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: `${entry.kind} preview`, timeout: 15_000 }).toBe(true);
  }

  // The header's name follows the language: the ideographic group in Chinese.
  await page.screenshot({ path: '/tmp/viewer-shots/viewer-en-dark.png' });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('chs');
  await expect(page.getByTestId('viewer-patient')).toHaveText('王小东');

  // The exam drawer shows each series by its server preview: the first (16-bit, windowed) decoded as the viewer drew it.
  await page.goto(`/studies?exam=${examId}`);
  const thumbs = page.getByTestId('series-thumbnails').getByRole('img');
  await expect(thumbs).toHaveCount(8);
  const first = thumbs.first();
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(manifest.size);
  const corners = await first.evaluate((img: HTMLImageElement, size) => {
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0);
    return [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].map(([x, y]) => context.getImageData(x! * size, y! * size, 1, 1).data[0]);
  }, manifest.size);
  corners.forEach((v, q) => expect(Math.abs(v! - manifest.files[0]!.expected[q]![0]!), `thumbnail quadrant ${q}`).toBeLessThanOrEqual(3));
  await page.screenshot({ path: '/tmp/viewer-shots/drawer-chs-dark.png' });
  expect(errors).toEqual([]);
});
