import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplateNode } from '../../../contract/reports';
import { TEMPLATE_BODY_PART_MAX, TEMPLATE_MODALITY_MAX, TEMPLATE_NAME_MAX } from '../../../contract/templates';
import { cleanReportHtml, TemplateTextEditors } from '@/features/report';

/** What the editor holds for one template (or folder) until it is saved. */
export interface Draft {
  name: string;
  modality: string;
  bodyPart: string;
  finding: string;
  diagnosis: string;
}

export const draftOf = (node: TemplateNode): Draft => ({
  name: node.name, modality: node.modality ?? '', bodyPart: node.bodyPart ?? '',
  finding: cleanReportHtml(node.finding), diagnosis: cleanReportHtml(node.diagnosis),
});

/** TipTap writes an empty editor as "<p></p>": that is no change from an empty text. */
const text = (html: string) => (html === '<p></p>' ? '' : html);

export function sameDraft(a: Draft, b: Draft): boolean {
  return a.name.trim() === b.name.trim() && a.modality.trim() === b.modality.trim() && a.bodyPart.trim() === b.bodyPart.trim()
    && text(a.finding) === text(b.finding) && text(a.diagnosis) === text(b.diagnosis);
}

const MODALITIES = ['CR', 'DX', 'CT', 'MR', 'US', 'MG', 'RF', 'XA', 'NM', 'PT', 'ES'];

interface Props {
  node: TemplateNode;
  draft: Draft;
  editorKey: string;
  editable: boolean;
  dirty: boolean;
  busy: boolean;
  nameRef: Ref<HTMLInputElement>;
  onChange: (change: Partial<Draft>) => void;
  onSave: () => void;
  onRevert: () => void;
  onEscape: () => void;
}

/** The right side of the screen: a template's labels and its two texts in the report's editors, or a folder's labels. */
export function TemplateEditorPanel({ node, draft, editorKey, editable, dirty, busy, nameRef, onChange, onSave, onRevert, onEscape }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <form
      className="mx-auto flex max-w-4xl flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (editable && dirty && !busy) onSave();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && (event.target as HTMLElement).tagName === 'INPUT') onEscape();
      }}
      data-testid="template-editor"
    >
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold">{node.isFolder ? t('templates.editor.folder') : t('templates.editor.title')}</h2>
        {dirty && <span className="rounded bg-warn-soft px-1.5 text-xs text-fg" data-testid="template-unsaved">{t('templates.editor.unsaved')}</span>}
        <div className="ml-auto flex gap-2">
          {editable && <button type="button" className="btn" disabled={!dirty || busy} onClick={onRevert}>{t('templates.actions.revert')}</button>}
          {editable && <button type="submit" className="btn btn-primary" disabled={!dirty || busy}>{t('templates.actions.save')}</button>}
        </div>
      </div>
      <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)] gap-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted" htmlFor={`${id}-name`}>
          {t('templates.fields.name')}
          <input ref={nameRef} id={`${id}-name`} className="input" value={draft.name} maxLength={TEMPLATE_NAME_MAX} readOnly={!editable}
            onChange={(e) => onChange({ name: e.target.value })} data-testid="template-name" />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted" htmlFor={`${id}-modality`}>
          {t('templates.fields.modality')}
          <input id={`${id}-modality`} className="input" list={`${id}-modalities`} value={draft.modality} maxLength={TEMPLATE_MODALITY_MAX} readOnly={!editable}
            onChange={(e) => onChange({ modality: e.target.value.toUpperCase() })} data-testid="template-modality" />
          <datalist id={`${id}-modalities`}>{MODALITIES.map((m) => <option key={m} value={m} />)}</datalist>
        </label>
        {!node.isFolder && (
          <label className="flex flex-col gap-1 text-xs font-medium text-fg-muted" htmlFor={`${id}-body`}>
            {t('templates.fields.bodyPart')}
            <input id={`${id}-body`} className="input" value={draft.bodyPart} maxLength={TEMPLATE_BODY_PART_MAX} readOnly={!editable}
              onChange={(e) => onChange({ bodyPart: e.target.value })} data-testid="template-body-part" />
          </label>
        )}
      </div>
      {node.isFolder ? (
        <p className="text-sm text-fg-muted">{t('templates.editor.folderHint', { count: node.children.length })}</p>
      ) : (
        <TemplateTextEditors
          editorKey={editorKey}
          seed={{ finding: draft.finding, diagnosis: draft.diagnosis }}
          editable={editable}
          onChange={(field, html) => onChange({ [field]: html })}
          onEscape={onEscape}
        />
      )}
      <p className="text-xs text-fg-subtle">{t('templates.editor.keys')}</p>
    </form>
  );
}
