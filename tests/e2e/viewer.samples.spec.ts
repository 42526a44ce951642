import { expect, test } from '@playwright/test';
import path from 'node:path';
import { prefer, signIn } from './support/session';
import { SAMPLES, apiToken, coloursOnCanvas, uploadStudy } from './support/images';

/**
 * The viewer displays every file of ../shared/dicom-samples/: uncompressed CT, MR and UTF-8-named images, JPEG
 * extended, and a two-frame RGB RLE image. Each is uploaded through the API, opened at /viewer/{examId}, and
 * must draw a picture with real detail in it (not a blank or single-colour canvas); the multi-frame one shows
 * both frames.
 */
const CASES = [
  { file: 'CT_small.dcm', frames: 1 },
  { file: 'MR_small.dcm', frames: 1 },
  { file: 'chrX1.dcm', frames: 1 },
  { file: 'JPGExtended.dcm', frames: 1 },
  { file: 'SC_rgb_rle_2frame.dcm', frames: 2 },
] as const;

test.beforeEach(async ({ page }) => {
  await prefer(page, { language: 'en', theme: 'dark' });
});

test('every sample file is displayed, compressed and multi-frame included', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const tech = await apiToken(baseURL!, 'tech');
  await signIn(page, 'rad1');
  // A slow network for the first file: "rendered" must wait for the picture, not say so for an empty viewport
  // that was drawn while the file was still on its way (a slow machine's CI run once saw exactly that).
  let delayed = false;
  await page.route('**/api/v1/instances/*/file*', async (route) => {
    if (!delayed) {
      delayed = true;
      await new Promise((resolve) => setTimeout(resolve, 2500));
    }
    await route.continue();
  });
  for (const { file, frames } of CASES) {
    const { examId } = await uploadStudy(baseURL!, tech, [path.join(SAMPLES, file)]);
    await page.goto(`/viewer/${examId}`);
    const viewport = page.getByTestId('viewer-viewport');
    await expect(viewport, file).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
    expect(await coloursOnCanvas(page), `${file}: a picture with detail once rendered`).toBeGreaterThan(8);
    const position = page.getByTestId('viewer-position');
    await expect(position, file).toContainText(`Image 1 / ${frames}`);
    if (frames > 1) {
      await expect(position).toContainText(`Frame 1 / ${frames}`);
      await viewport.focus();
      await page.keyboard.press('j');
      await expect(position).toContainText(`Frame 2 / ${frames}`);
      await expect(viewport).toHaveAttribute('data-rendered', 'true');
      await expect.poll(() => coloursOnCanvas(page), { message: `${file}: the second frame`, timeout: 15_000 }).toBeGreaterThan(8);
    }
    await expect(page.getByRole('alert'), file).toHaveCount(0);
    expect(delayed, 'the slow first file was asked for').toBe(true);
    await page.screenshot({ path: `.tmp/screens/viewer-sample-${file.replace('.dcm', '')}.png` });
  }
  expect(errors).toEqual([]);
});
