import type { ChangeEvent, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { TreeChoice } from './choices';

/**
 * The templates screen's bar: which tree (an organisation's list box when there are several, else tabs beside the
 * group trees), whether it is read-only, and the tree's actions (new template or folder, export, import).
 */
export function TreeHeader({ choice, choices, hasTree, onSwitch, onNew, onExport, onImport, fileInput, onFile }: {
  choice: TreeChoice; choices: TreeChoice[]; hasTree: boolean; onSwitch: (key: string) => void; onNew: (folder: boolean) => void;
  onExport: () => void; onImport: () => void; fileInput: RefObject<HTMLInputElement | null>; onFile: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  const orgChoices = choices.filter((c) => c.kind === 'bucket');
  const groupChoices = choices.filter((c) => c.kind === 'group');
  return (
    <header className="flex flex-wrap items-center gap-3 border-b border-line bg-surface px-4 py-2">
      <h1 className="text-base font-semibold">{t('templates.page.title')}</h1>
      {/* Several organisations are one list box beside the tabs, never inside the tab list: a tab list holds tabs only
          (axe's aria-required-children), and none is drawn when there is no tab. */}
      {orgChoices.length > 1 && (
        <label className="flex items-center gap-2 text-sm">
          <span className="text-fg-muted">{t('templates.page.organisation')}</span>
          <select
            className="input w-auto"
            value={choice.kind === 'bucket' ? choice.key : ''}
            onChange={(e) => e.target.value && onSwitch(e.target.value)}
            data-testid="templates-organisation"
          >
            {choice.kind !== 'bucket' && <option value="">—</option>}
            {orgChoices.map((c) => <option key={c.key} value={c.key}>{c.label}</option>)}
          </select>
        </label>
      )}
      {(orgChoices.length === 1 || groupChoices.length > 0) && (
        <div role="tablist" aria-label={t('templates.page.trees')} className="flex items-center gap-1">
          {orgChoices.length === 1 && (
            <button type="button" role="tab" aria-selected={choice.kind === 'bucket'} className={`btn ${choice.kind === 'bucket' ? 'btn-primary' : ''}`} onClick={() => onSwitch(orgChoices[0]!.key)}>
              {orgChoices[0]!.label}
            </button>
          )}
          {groupChoices.map((c) => (
            <button key={c.key} type="button" role="tab" aria-selected={choice.key === c.key} className={`btn ${choice.key === c.key ? 'btn-primary' : ''}`} onClick={() => onSwitch(c.key)} data-testid="templates-group-tab">
              {t('templates.page.groupTab', { name: c.label })}
            </button>
          ))}
        </div>
      )}
      {!choice.canWrite && <span className="text-xs text-fg-muted">{t('templates.page.readOnly')}</span>}
      <div className="ml-auto flex items-center gap-2">
        <button type="button" className="btn" disabled={!hasTree || !choice.canWrite} onClick={() => onNew(false)}>{t('templates.actions.newTemplate')}</button>
        <button type="button" className="btn" disabled={!hasTree || !choice.canWrite} onClick={() => onNew(true)}>{t('templates.actions.newFolder')}</button>
        <button type="button" className="btn" disabled={!hasTree} onClick={onExport}>{t('templates.actions.export')}</button>
        <button type="button" className="btn" disabled={!hasTree || !choice.canWrite} onClick={onImport}>{t('templates.actions.import')}</button>
        <input ref={fileInput} type="file" accept="application/json,.json" className="hidden" onChange={onFile} data-testid="templates-import-file" />
      </div>
    </header>
  );
}
