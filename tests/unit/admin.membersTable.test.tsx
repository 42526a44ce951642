// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { LevelSelect, MembersTable } from '@/features/admin/ui/MembersTable';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

const people = [
  { accountId: 7, name: 'Li Ming', username: 'liming', level: 'member', seen: '2026-01-02 08:00' },
  { accountId: 9, name: 'Wang Fang', username: 'wangfang', level: 'admin', seen: '—' },
];

describe('MembersTable', () => {
  it('a row a member with its level and last sign-in; remove names the member', () => {
    const onRemove = vi.fn();
    const onLevel = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <MembersTable members={people} testId="members" lastLogin={(m) => m.seen} onRemove={onRemove}
          level={(m) => <LevelSelect name={m.name} value={m.level} disabled={false} onChange={(v) => onLevel(m.accountId, v)}
            levels={[{ value: 'member', label: 'Member' }, { value: 'admin', label: 'Admin' }]} />} />
      </I18nextProvider>,
    );
    const rows = screen.getByTestId('members').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.getAttribute('data-account-id'))).toEqual(['7', '9']);
    const second = within(rows[1] as HTMLElement);
    expect(second.getByText('wangfang')).toBeTruthy();
    expect(second.getByText('—')).toBeTruthy();
    fireEvent.change(second.getByRole('combobox', { name: en.admin.members.levelOf.replace('{{name}}', 'Wang Fang') }), { target: { value: 'member' } });
    expect(onLevel).toHaveBeenCalledWith(9, 'member');
    fireEvent.click(second.getByRole('button', { name: en.admin.members.remove }));
    expect(onRemove).toHaveBeenCalledWith(people[1]);
  });

  it('an empty list says its line when given one; no remove button without onRemove; stale dims', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <MembersTable members={[] as typeof people} testId="members" stale empty="No members" level={(m) => m.level} lastLogin={(m) => m.seen} />
      </I18nextProvider>,
    );
    const table = screen.getByTestId('members');
    expect(table.textContent).toContain('No members');
    expect(table.className).toContain('opacity-60');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
