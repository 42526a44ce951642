import { useCallback, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { childrenMap, type KbItem } from '../../../contract/kb';
import { ReportEditor, ReportHtml, TemplateTextEditors } from '@/features/report';
import { folderPath } from './model';

interface Props {
  item: KbItem | null;
  items: readonly KbItem[];
  canWrite: boolean;
  /** The text as edited and not yet saved, or undefined. */
  dirty: boolean;
  saving: boolean;
  onChange: (id: number, html: string) => void;
  onSave: () => void;
  /** Esc in the editor: back to the tree. */
  onEscape: () => void;
}

/** The item at the right: a text in the report editor (Ctrl+S saves), a linked template read-only, a folder's summary. */
export function ItemPane({ item, items, canWrite, dirty, saving, onChange, onSave, onEscape }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const noop = useCallback(() => undefined, []);
  const noCommand = useCallback(() => false, []);
  const change = useCallback((_field: string, html: string) => item && onChange(item.id, html), [item, onChange]);

  if (!item) {
    return (
      <div className="flex flex-1 items-center justify-center p-6 text-center text-fg-muted" data-testid="kb-pane">
        <p className="max-w-sm">{t('kb.pane.nothing')}</p>
      </div>
    );
  }
  const path = folderPath(items, item.id);
  return (
    <section aria-labelledby={titleId} className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-4" data-testid="kb-pane">
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {path && <p className="truncate text-[11px] text-fg-muted">{path}</p>}
          <h2 id={titleId} className="truncate text-base font-semibold">{item.name}</h2>
          <p className="text-[11px] text-fg-subtle">{t(`kb.types.${item.type}`)}</p>
        </div>
        {item.type === 'text' && canWrite && (
          <div className="flex shrink-0 items-center gap-2">
            <span className="text-[12px] text-fg-muted" role="status" data-testid="kb-save-state">
              {saving ? t('kb.pane.saving') : dirty ? t('kb.pane.unsaved') : t('kb.pane.saved')}
            </span>
            <button type="button" className="btn btn-primary" onClick={onSave} disabled={!dirty || saving}>{t('kb.pane.save')}</button>
          </div>
        )}
      </header>
      {item.type === 'text' && (canWrite ? (
        <div className="report-editor-box min-h-[18rem]">
          <ReportEditor
            key={item.id}
            field="finding"
            labelId={titleId}
            initialHtml={item.content}
            onChange={change}
            onSlash={noop}
            onEscape={onEscape}
            onCommandKey={noCommand}
            onReady={noop}
          />
        </div>
      ) : (
        <ReportHtml html={item.content} labelledBy={titleId} className="report-readonly min-h-[18rem] rounded-md border border-line px-3 py-2" />
      ))}
      {item.type === 'template' && (item.template ? (
        <>
          <p className="text-[12px] text-fg-muted">
            {t('kb.pane.linkedTemplate', { name: item.template.name })}
            {item.template.modality && ` · ${item.template.modality}`}
            {item.template.bodyPart && ` · ${item.template.bodyPart}`}
          </p>
          <TemplateTextEditors editorKey={String(item.id)} seed={{ finding: item.template.finding, diagnosis: item.template.diagnosis }} editable={false} onChange={noop} onEscape={onEscape} />
        </>
      ) : (
        <p className="rounded-md border border-line bg-warn-soft px-3 py-2 text-[13px]">{t('kb.pane.templateGone')}</p>
      ))}
      {item.type === 'folder' && (
        <p className="text-[13px] text-fg-muted">{t('kb.pane.folderCount', { count: childrenMap(items).get(item.id)?.length ?? 0 })}</p>
      )}
    </section>
  );
}
