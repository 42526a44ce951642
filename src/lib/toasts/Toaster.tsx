import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_WIDTH } from '../../../contract/constants';
import { toasts as defaultStore, type Toast, type ToastStore } from './store';

const KIND_CLASS: Record<Toast['kind'], string> = {
  info: 'border-l-accent',
  success: 'border-l-ok',
  warning: 'border-l-warn',
  error: 'border-l-danger',
};

function ToastCard({ toast, onDismiss, closeLabel }: { toast: Toast; onDismiss: () => void; closeLabel: string }) {
  return (
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border border-line border-l-4 bg-raised px-3 py-2 text-sm text-fg shadow-lg ${KIND_CLASS[toast.kind]}`}
    >
      <div className="min-w-0 flex-1">
        {toast.title && <div className="font-medium">{toast.title}</div>}
        <div className="break-words text-fg-muted">{toast.message}</div>
      </div>
      <button type="button" onClick={onDismiss} aria-label={closeLabel} className="icon-button -mr-1 shrink-0">
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** Renders the two toast areas: bottom right (core §2) and bottom centre for the re-login notices (core §8). */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const { t } = useTranslation();
  const list = useSyncExternalStore(store.subscribe, store.list, store.list);
  const corner = list.filter((toast) => toast.placement === 'corner');
  const bottom = list.filter((toast) => toast.placement === 'bottom');
  return (
    <>
      <section
        aria-label={t('common.notifications')}
        aria-live="polite"
        className="pointer-events-none fixed bottom-4 right-4 z-50 flex max-w-[calc(100vw-2rem)] flex-col gap-2"
        style={{ width: TOAST_WIDTH }}
      >
        {corner.map((toast) => (
          <ToastCard key={toast.id} toast={toast} onDismiss={() => store.dismiss(toast.id)} closeLabel={t('common.dismiss')} />
        ))}
      </section>
      <div aria-live="assertive" className="pointer-events-none fixed bottom-8 left-1/2 z-[60] flex -translate-x-1/2 flex-col items-center gap-2">
        {bottom.map((toast) => (
          <div key={toast.id} role="alert" className="rounded-md bg-fg px-4 py-2 text-sm font-medium text-bg shadow-lg">
            {toast.message}
          </div>
        ))}
      </div>
    </>
  );
}
