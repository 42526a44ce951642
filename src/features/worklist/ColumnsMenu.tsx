import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { moveColumn, type ColumnPrefs } from './columnPrefs';
import { COLUMN_SPECS } from './columns';

const SPEC = new Map(COLUMN_SPECS.map((s) => [s.id, s]));

/**
 * Which columns show and in what order, for this user. A small non-modal panel: Tab moves through it, Space
 * ticks, the arrow buttons move a column, Escape closes and gives focus back. Widths are set by dragging the
 * header edge (double-click resets one).
 */
export function ColumnsMenu({ prefs, onPrefs, onReset }: { prefs: ColumnPrefs; onPrefs: (c: (p: ColumnPrefs) => ColumnPrefs) => void; onReset: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('input')?.focus();
    const away = (event: MouseEvent) => {
      if (!panel.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div className="relative">
      <button ref={button} type="button" className="btn h-7 px-2.5 text-[13px]" aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen((o) => !o)}>
        {t('worklist.columnsMenu.button')}
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          role="group"
          aria-label={t('worklist.columnsMenu.title')}
          className="absolute top-full right-0 z-40 mt-1 w-64 rounded-md border border-line bg-raised p-2 shadow-lg"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close();
            }
          }}
        >
          <ul className="max-h-[60vh] overflow-auto">
            {prefs.order.map((columnId, index) => {
              const spec = SPEC.get(columnId);
              if (!spec) return null;
              const visible = !prefs.hidden.includes(columnId);
              return (
                <li key={columnId} className="flex items-center gap-1 rounded px-1 py-0.5 hover:bg-sunken">
                  <label className="flex flex-1 items-center gap-2 text-[13px]">
                    <input
                      type="checkbox"
                      checked={visible}
                      disabled={spec.fixed}
                      onChange={() =>
                        onPrefs((p) => ({ ...p, hidden: visible ? [...p.hidden, columnId] : p.hidden.filter((h) => h !== columnId) }))
                      }
                    />
                    {t(spec.header as never)}
                  </label>
                  <button type="button" className="icon-button size-6" disabled={index === 0} aria-label={t('worklist.columnsMenu.moveUp', { column: t(spec.header as never) })}
                    onClick={() => onPrefs((p) => ({ ...p, order: moveColumn(p.order, columnId, -1) }))}>↑</button>
                  <button type="button" className="icon-button size-6" disabled={index === prefs.order.length - 1} aria-label={t('worklist.columnsMenu.moveDown', { column: t(spec.header as never) })}
                    onClick={() => onPrefs((p) => ({ ...p, order: moveColumn(p.order, columnId, 1) }))}>↓</button>
                </li>
              );
            })}
          </ul>
          <div className="mt-2 flex justify-between border-t border-line pt-2">
            <button type="button" className="btn h-7 px-2 text-[13px]" onClick={onReset}>{t('worklist.columnsMenu.reset')}</button>
            <button type="button" className="btn h-7 px-2 text-[13px]" onClick={close}>{t('common.close')}</button>
          </div>
        </div>
      )}
    </div>
  );
}
