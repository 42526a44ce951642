// @vitest-environment jsdom
import { cleanup, render, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import type { ExamListItem } from '../../contract/exams';
import { PastExams } from '@/features/report/workspace/PastExams';

/** The past-exams tab asks again whenever the report changes: a joint submit changes the other exams' reports. */
const answers: ExamListItem['reportStatus'][] = [];
const asked: number[] = [];
vi.mock('@/lib/http', async (original) => ({
  ...(await original<object>()),
  http: {
    post: (path: string) => {
      asked.push(1);
      const status = answers.shift() ?? 'none';
      expect(path).toBe('exams/5/past');
      return Promise.resolve({ items: [{ id: 4, modality: 'CT', bodyPart: 'Chest', examTime: '2026-10-01T08:00:00.000Z', reportStatus: status, reportId: 9 }], total: 1 });
    },
  },
}));

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
afterEach(cleanup);

describe('past exams tab', () => {
  it('shows the new status of a past exam after a report change, without a reload', async () => {
    answers.push('none', 'final');
    const view = (version: number) => (
      <I18nextProvider i18n={i18n}><PastExams examId={5} reportVersion={version} onOpen={() => undefined} /></I18nextProvider>
    );
    const { container, rerender } = render(view(3));
    const shown = () => container.querySelector('[data-status]')?.getAttribute('data-status');
    await waitFor(() => expect(shown()).toBe('none'));
    rerender(view(4)); // the joint submit stored version 4
    await waitFor(() => expect(shown()).toBe('final'));
    expect(asked).toHaveLength(2);
  });
});
