import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { Dialog } from '@/ui/Dialog';

/**
 * A dialog that finds something by a typed search and picks one of what it found (an exam for the visit, a
 * consultation to link): the search box (focused), the search's failure, the matches as buttons, Close.
 */
export function SearchPickDialog<Item extends { id: number }>({ title, width, searchLabel, placeholder, testId, text, onText, error, found, noMatch, busy, onPick, onClose, children }: {
  title: string;
  width: number;
  searchLabel: string;
  placeholder?: string;
  /** The search box's test id. */
  testId: string;
  text: string;
  onText: (text: string) => void;
  error: unknown;
  /** Null until a search has answered. */
  found: readonly Item[] | null | undefined;
  noMatch: string;
  busy: boolean;
  onPick: (item: Item) => void;
  onClose: () => void;
  /** What a match's button shows. */
  children: (item: Item) => ReactNode;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <Dialog open title={title} onCancel={busy ? undefined : onClose} width={width}>
      <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
        {searchLabel}
        <input ref={input} className="input" value={text} onChange={(e) => onText(e.target.value)} placeholder={placeholder} data-testid={testId} />
      </label>
      {error !== null && <p className="mt-2 text-[13px] text-danger" role="alert">{errorText(t, error)}</p>}
      <ul className="mt-2 flex max-h-64 flex-col overflow-y-auto">
        {found?.length === 0 && <li className="py-1 text-[13px] text-fg-muted">{noMatch}</li>}
        {found?.map((item) => (
          <li key={item.id}>
            <button type="button" className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-[13px] hover:bg-accent-soft focus-visible:bg-accent-soft" disabled={busy} onClick={() => onPick(item)}>
              {children(item)}
            </button>
          </li>
        ))}
      </ul>
      <div className="mt-4 flex justify-end">
        <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.close')}</button>
      </div>
    </Dialog>
  );
}
