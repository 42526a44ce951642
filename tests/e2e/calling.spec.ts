import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiAs } from './support/reportApi';
import { looks } from './support/looks';
import { prefer, RAW_KEY, signIn } from './support/session';

/**
 * The call queue (issue 11) end to end: an operator calls the next patient with one key (N) while a second browser
 * context shows the waiting-room screen; the screen's text and its speech request carry the number and the room and,
 * with privacy-safe calls on, no name. Then the looks of both screens.
 *
 * The server's calling endpoints are named only in the helpers below (and in src/features/calling/api.ts).
 */
const HOSPITAL = 1;
const OUT = '.tmp/screens';
mkdirSync(OUT, { recursive: true });

interface QueueType { id: number; prefix: string; name: string; modality: string | null; room: string | null }
interface Entry { id: number; queueTypeId: number; queueNo: string; patientName: string; status: string }

async function queueType(): Promise<QueueType> {
  const list = await apiAs<QueueType[]>('registrar', 'GET', `buckets/${HOSPITAL}/queue-types`);
  expect(list.status).toBe(200);
  const found = list.body.find((q) => q.modality === 'CT');
  if (found) return found;
  const made = await apiAs<QueueType>('registrar', 'POST', `buckets/${HOSPITAL}/queue-types`, { prefix: 'E', name: 'CT e2e', modality: 'CT', room: 'CT室1' });
  expect([200, 201]).toContain(made.status);
  return made.body;
}

/** `count` patients registered and checked in at the desk now (through the API, as the registrar would): they wait in `type`. */
async function checkIn(type: QueueType, count: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  const names = ['欧阳明', '司马青', '上官云', '诸葛亮', '东方白', '皇甫玉'];
  for (let i = 0; i < count; i++) {
    const made = await apiAs<{ version: number; lines: { examId: number }[] }>('registrar', 'POST', 'registry', {
      bucketId: HOSPITAL, patient: { patientName: names[i % names.length], patientGender: 'M', patientSource: 'E' },
      // Now, not in an hour: from 23:00 in the organisation's zone an hour later is tomorrow's line.
      exams: [{ modality: type.modality ?? 'CT', scheduledTime: new Date().toISOString() }],
    });
    expect(made.status).toBe(200);
    const examId = made.body.lines[0]!.examId;
    // Checking in at the desk puts the line into today's queue of its modality.
    expect((await apiAs('registrar', 'POST', 'exam/status', { examId, status: 'Arrived', version: made.body.version })).status).toBe(200);
    const board = await apiAs<{ entries: (Entry & { examId: number })[] }>('registrar', 'GET', `buckets/${HOSPITAL}/queue-exams`);
    const entry = board.body.entries.find((e) => e.examId === examId);
    expect(entry?.queueTypeId).toBe(type.id);
    entries.push(entry!);
  }
  return entries;
}

async function screenToken(): Promise<string> {
  const res = await apiAs<{ token: string }>('registrar', 'POST', `buckets/${HOSPITAL}/screen-tokens`, { name: 'e2e TV' });
  expect([200, 201]).toContain(res.status);
  return res.body.token;
}

async function setPrivacy(privacy: boolean) {
  const res = await apiAs('registrar', 'PUT', `buckets/${HOSPITAL}/calling-settings`, { privacy });
  expect([200, 204]).toContain(res.status);
}

async function waitingOf(type: QueueType): Promise<Entry[]> {
  const res = await apiAs<{ entries: Entry[] }>('registrar', 'GET', `buckets/${HOSPITAL}/queue-exams`);
  expect(res.status).toBe(200);
  return res.body.entries.filter((e) => e.queueTypeId === type.id && e.status === 'waiting');
}

/** Replaces the browser's speech with a recorder that has a zh-CN voice: what the screen asks to say lands in window.__spoken. */
const SPEECH_RECORDER = `(() => {
  window.__spoken = [];
  const voice = { lang: 'zh-CN', name: 'Recorder zh-CN', voiceURI: 'recorder', default: true, localService: true };
  window.speechSynthesis.getVoices = () => [voice];
  window.speechSynthesis.speak = (utterance) => {
    window.__spoken.push({ text: utterance.text, lang: utterance.lang });
    setTimeout(() => utterance.onstart && utterance.onstart(new Event('start')), 0);
  };
})()`;

const spoken = (page: Page) => page.evaluate('window.__spoken') as Promise<{ text: string; lang: string }[]>;

async function openScreen(browser: Browser, token: string, prefs: Parameters<typeof prefer>[1] = { language: 'chs' }) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const screen = await context.newPage();
  await prefer(screen, prefs);
  await screen.addInitScript(SPEECH_RECORDER);
  await screen.goto(`/calling/${HOSPITAL}/screen-show?token=${encodeURIComponent(token)}`);
  await expect(screen.getByTestId('screen-queue').first()).toBeVisible();
  await expect(screen.locator('[data-calling-screen]')).toHaveAttribute('data-status', 'live');
  return { context, screen };
}

/** Puts the operator's keys on the queue of `type` (1–9 by its column). */
async function onQueue(page: Page, type: QueueType) {
  const columns = page.getByTestId('calling-queue');
  await expect(columns.first()).toBeVisible();
  const keys = await columns.evaluateAll((els) => els.map((el) => el.getAttribute('data-queue')));
  const index = keys.indexOf(String(type.id));
  expect(index).toBeGreaterThanOrEqual(0);
  await page.keyboard.press(String(index + 1));
  await expect(columns.nth(index)).toHaveAttribute('data-active', 'true');
}

test('an operator calls the next patient with N; the screen shows and says number and room, and no name with privacy on', async ({ page, browser }) => {
  const type = await queueType();
  await setPrivacy(false);
  await checkIn(type, 3);
  const token = await screenToken();
  const { context, screen } = await openScreen(browser, token);

  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await page.goto('/calling');
  await onQueue(page, type);

  // N: the first waiting patient is called; the screen paints the number and the room, and says both.
  const first = (await waitingOf(type))[0]!;
  await page.keyboard.press('n');
  const card = screen.locator(`[data-testid=screen-queue][data-queue="${type.id}"]`);
  await expect(card.getByTestId('screen-number')).toHaveText(first.queueNo);
  await expect(card).toContainText(type.room ?? '');
  await expect(card.getByTestId('screen-current')).toHaveAttribute('data-calling-fresh', 'true');
  await expect.poll(async () => (await spoken(screen)).length).toBeGreaterThan(0);
  let said = (await spoken(screen)).at(-1)!;
  expect(said.text).toContain(first.queueNo);
  expect(said.text).toContain(type.room ?? '');
  expect(said.lang).toBe('zh-CN');
  // Privacy off: the masked name is on the screen and in the sentence, never the full name.
  const shownName = await card.getByTestId('screen-name').textContent();
  expect(shownName).toBeTruthy();
  expect(said.text).toContain(shownName!);
  expect(shownName).not.toBe(first.patientName);

  // Privacy on: the next call carries number and room only.
  await setPrivacy(true);
  await expect(card.getByTestId('screen-name')).toHaveCount(0);
  const second = (await waitingOf(type))[0]!;
  const before = (await spoken(screen)).length;
  await page.keyboard.press('n');
  await expect(card.getByTestId('screen-number')).toHaveText(second.queueNo);
  await expect.poll(async () => (await spoken(screen)).length).toBeGreaterThan(before);
  said = (await spoken(screen)).at(-1)!;
  expect(said.text).toContain(second.queueNo);
  expect(said.text).toContain(type.room ?? '');
  const text = (await screen.locator('[data-calling-screen]').textContent()) ?? '';
  const surname = [...second.patientName][0]!;
  for (const part of [second.patientName, surname]) {
    expect(said.text).not.toContain(part);
    expect(text).not.toContain(part);
  }
  await expect(card.getByTestId('screen-name')).toHaveCount(0);
  await context.close();
});

test('R calls again, P passes, U brings back at a chosen place, D is done, and the keys are in the ? sheet', async ({ page }) => {
  const type = await queueType();
  await checkIn(type, 2);
  await prefer(page, { language: 'en' });
  await signIn(page, 'registrar');
  await page.goto('/calling');
  await onQueue(page, type);
  const column = page.locator(`[data-testid=calling-queue][data-queue="${type.id}"]`);
  const current = column.getByTestId('calling-current');

  // The queue may still show an earlier test's call: wait for the new number before reading it.
  const number = current.getByTestId('calling-number');
  const previous = (await number.count()) > 0 ? await number.textContent() : null;
  await page.keyboard.press('n');
  if (previous) await expect(number).not.toHaveText(previous);
  else await expect(number).toBeVisible();
  const called = (await number.textContent())!;
  await page.keyboard.press('r');
  await expect(current.getByTestId('calling-called-at')).toContainText('2');
  // The ? sheet lists what the keys do now, with a patient called.
  await page.keyboard.press('Shift+?');
  const sheet = page.getByRole('dialog');
  for (const label of ['Call the next patient', 'Call again', 'Pass (to the missed list)', 'Done', 'Remove from the queue…', 'Find a patient']) {
    await expect(sheet).toContainText(label);
  }
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await page.keyboard.press('p');
  const missed = column.locator(`[data-testid=calling-entry][data-state=passed]`, { hasText: called });
  await expect(missed).toHaveCount(1);
  // Pick the passed patient with j (it is last in the column), U and Enter: back as the next one.
  for (let i = 0; i < 30 && (await missed.getAttribute('data-picked')) !== 'true'; i++) await page.keyboard.press('j');
  await page.keyboard.press('u');
  await expect(page.getByTestId('calling-back-position')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(column.locator('[data-testid=calling-entry][data-state=waiting]').first()).toContainText(called);
  await page.keyboard.press('Escape');
  await page.keyboard.press('n');
  await expect(current.getByTestId('calling-number')).toHaveText(called);
  await page.keyboard.press('d');
  // Done: the patient leaves the column (served patients are not shown).
  await expect(column.getByText(called, { exact: true })).toHaveCount(0);
});

for (const [language, theme] of looks()) {
  test(`looks: operator and waiting-room screens, ${language} ${theme}`, async ({ page, browser }) => {
    const type = await queueType();
    await setPrivacy(false);
    await checkIn(type, 2);
    const token = await screenToken();
    await prefer(page, { language, theme });
    await signIn(page, 'registrar');
    await page.goto('/calling');
    await onQueue(page, type);
    await page.keyboard.press('n');
    await page.keyboard.press('j');
    await expect(page.locator('body')).not.toContainText(RAW_KEY);
    await page.screenshot({ path: `${OUT}/calling-desk-${language}-${theme}.png` });

    const { context, screen } = await openScreen(browser, token, { language, theme });
    await expect(screen.locator('body')).not.toContainText(RAW_KEY);
    await screen.screenshot({ path: `${OUT}/calling-screen-${language}-${theme}.png` });
    await context.close();
  });
}
