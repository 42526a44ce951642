// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { useRef } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { toasts } from '@/lib/toasts';
import { DeleteConfirm, RowActions, useRowActions } from '@/features/admin/ui/rowActions';
import { standInForModalDialogs } from './support/dialogs';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
  standInForModalDialogs();
});
afterEach(() => {
  cleanup();
  // The toast store is one for the whole worker: leave none for the next file.
  for (const toast of toasts.list()) toasts.dismiss(toast.id);
});

interface Rule { id: number; name: string }
const RULES: Rule[] = [{ id: 1, name: 'CT first' }, { id: 2, name: 'MR night' }];

function Table({ remove, reload }: { remove: (rule: Rule) => Promise<unknown>; reload: () => void }) {
  const addRef = useRef<HTMLButtonElement>(null);
  const rows = useRowActions<Rule, Rule | 'new'>({ reload, focusAfterDelete: addRef });
  return (
    <>
      <button type="button" ref={addRef} onClick={() => rows.setEditing('new')}>New rule</button>
      {RULES.map((rule) => (
        <RowActions key={rule.id} boxed={false} editLabel="Edit" deleteLabel="Delete" editName={`Edit ${rule.name}`} deleteName={`Delete ${rule.name}`}
          onEdit={() => rows.setEditing(rule)} onDelete={() => rows.setDeleting(rule)} />
      ))}
      <output data-testid="editing">{rows.editing === null ? '' : rows.editing === 'new' ? 'new' : rows.editing.name}</output>
      <DeleteConfirm rows={rows} title="Delete the rule?" confirmLabel="Delete it" body={`Delete ${rows.deleting?.name ?? ''}?`}
        onConfirm={() => rows.confirmDelete(remove, (rule) => `Deleted ${rule.name}`)} />
    </>
  );
}

describe('useRowActions and its dialogs', () => {
  it('edits a row or a new one; a confirmed delete sends, reloads and hands the focus to the add button', async () => {
    const remove = vi.fn(() => Promise.resolve());
    const reload = vi.fn();
    render(<I18nextProvider i18n={i18n}><Table remove={remove} reload={reload} /></I18nextProvider>);
    fireEvent.click(screen.getByRole('button', { name: 'Edit MR night' }));
    expect(screen.getByTestId('editing').textContent).toBe('MR night');
    fireEvent.click(screen.getByRole('button', { name: 'New rule' }));
    expect(screen.getByTestId('editing').textContent).toBe('new');

    fireEvent.click(screen.getByRole('button', { name: 'Delete CT first' }));
    expect(screen.getByText('Delete CT first?')).toBeTruthy();
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Delete it', hidden: true })); });
    expect(remove).toHaveBeenCalledWith(RULES[0]);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New rule' }));
  });

  it('a refused delete keeps the question open and reads nothing again', async () => {
    const reload = vi.fn();
    render(<I18nextProvider i18n={i18n}><Table remove={() => Promise.reject(new Error('refused'))} reload={reload} /></I18nextProvider>);
    fireEvent.click(screen.getByRole('button', { name: 'Delete MR night' }));
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Delete it', hidden: true })); });
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByText('Delete MR night?')).toBeTruthy();
  });
});
