import { useTranslation } from 'react-i18next';
import type { ReportAction } from '../../../../contract/reports';
import { formatShortcut } from '@/lib/commands';
import { ChevronDownIcon } from '@/ui/icons';
import { Menu } from '@/ui/Menu';
import { Spinner } from '@/ui/Spinner';
import { shortcutOf } from '../commands';
import { offeredActions, offeredManageActions, type ManageAction, type WorkspaceAction } from '../../../../machines/reportModel/actions';
import { formatTime } from '@/lib/format';

interface Props {
  transitions: readonly ReportAction[];
  busy: WorkspaceAction | ManageAction | null;
  onRun: (action: WorkspaceAction) => void;
  /** Housekeeping (assign, reset, delete...): the "More" menu, also only what `transitions` allow. */
  onManage: (action: ManageAction) => void;
  /** Left side: where the text stands (saved, unsaved but kept locally, read only). */
  state: 'saved' | 'unsaved' | 'readOnly' | 'unsavedNotKept';
  savedAt: string | null;
}

function Keys({ shortcut }: { shortcut: string }) {
  return (
    <span aria-hidden="true" className="key-hint ml-1 hidden lg:inline">
      {formatShortcut(shortcut).map((press) => press.join('+')).join(' ')}
    </span>
  );
}

/**
 * The actions the server allows now (`transitions`), each a button showing the shortcut of the command that
 * runs the same thing. Nothing else is drawn: a button that is not offered is not shown disabled either.
 */
export function ActionBar({ transitions, busy, onRun, onManage, state, savedAt }: Props) {
  const { t } = useTranslation();
  const offered = offeredActions(transitions);
  const more = offeredManageActions(transitions);
  const keys = (shortcut: string | undefined) => (shortcut ? formatShortcut(shortcut).map((press) => press.join('+')).join(' ') : undefined);
  return (
    <div className="flex min-h-12 items-center gap-3 border-t border-line bg-surface px-4 py-2">
      <p className="min-w-0 flex-1 truncate text-xs text-fg-muted" aria-live="polite" data-save-state={state}>
        {busy ? (
          <Spinner label={t('report.state.working')} className="align-middle" />
        ) : state === 'saved' ? (
          savedAt ? t('report.state.savedAt', { time: formatTime(savedAt) }) : t('report.state.nothingToSave')
        ) : state === 'unsaved' ? (
          <span className="text-warn">{t('report.state.unsaved')}</span>
        ) : state === 'unsavedNotKept' ? (
          <span className="text-danger">{t('report.state.unsavedNotKept')}</span>
        ) : (
          t('report.state.readOnly')
        )}
      </p>
      <div role="toolbar" aria-label={t('report.actions.label')} className="flex flex-wrap items-center justify-end gap-2">
        {more.length > 0 && (
          // Busy: the menu waits like the buttons do (the commands' when() refuses meanwhile as well).
          <div data-action-menu className={busy !== null ? 'pointer-events-none opacity-60' : undefined}>
            <Menu
              label={t('report.actions.more')}
              textIsLabel
              placement="above"
              buttonClassName="btn gap-1"
              buttonContent={<>{t('report.actions.more')}<ChevronDownIcon /></>}
              items={more.map((o, i) => ({
                id: o.action,
                dataId: o.action,
                label: t(o.label),
                hint: keys(shortcutOf(o.commandId)),
                tone: o.danger ? 'danger' : undefined,
                // The ones that take something away stand apart from assignment.
                separated: i > 0 && o.danger && !more[i - 1]!.danger,
                onSelect: () => onManage(o.action),
              }))}
            />
          </div>
        )}
        {offered.map((o) => {
          const shortcut = shortcutOf(o.commandId);
          return (
            <button
              key={o.action}
              type="button"
              data-action={o.action}
              className={`btn ${o.primary ? 'btn-primary' : ''} ${o.action === 'reject' || o.action === 'recall' ? 'text-danger' : ''}`}
              aria-keyshortcuts={shortcut ? formatShortcut(shortcut, false).map((p) => p.join('+')).join(' ') : undefined}
              disabled={busy !== null}
              onClick={() => onRun(o.action)}
            >
              {busy === o.action ? t('report.state.working') : t(o.label)}
              {shortcut && <Keys shortcut={shortcut} />}
            </button>
          );
        })}
      </div>
    </div>
  );
}
