import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { QR_TEXT_MAX } from '../../../../../contract/constants';
import type { Organization } from '../../../../../contract/organizations';
import {
  LOGO_RECOMMENDED_PX, PRINT_IMAGE_MAX_BYTES, PRINT_TEMPLATE_NAME_MAX, PRINT_TITLE_MAX, QR_MODES, SIGNATURE_OF,
  type PrintImage, type PrintLayout, type PrintTemplate,
} from '../../../../../contract/printTemplates';
import { CommandScope, useCommands } from '@/lib/commands';
import { isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { PrintSheet, useQrCode } from '@/features/report';
import { LoadState } from '@/ui/LoadState';
import { blurOnEscape, useWrite } from '../../ui/useWrite';
import { printTemplatesApi } from './api';
import { printTemplateCommands, type PrintTemplatesContext } from './commands';
import { Field, ImagePicker } from './fields';
import { draftOf, draftProblems, emptyDraft, inputOf, samplePrint, type Draft } from './samplePrint';

type Selection = number | 'new' | null;

/**
 * /groups/{g}/organizations/{o}/print-templates: the organisation's print templates (areas §3 "Report template").
 * The list at the left (exam layout or consultation layout, the default marked), the form in the middle, and beside
 * it the real print sheet with a sample report, redrawn as one types. N new, Delete (asks first), Ctrl+S save,
 * D makes the one in hand the default of its modality.
 */
export function PrintTemplatesTab({ org }: { org: Organization }) {
  const { t } = useTranslation();
  const ids = useId();
  const [layout, setLayout] = useState<PrintLayout>(1);
  const list = useLoad(`admin:org:${org.id}:print-templates:${layout}`, (signal) => printTemplatesApi.list(org.id, layout, { signal }));
  const [selected, setSelected] = useState<Selection>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [dirty, setDirty] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [imageErrors, setImageErrors] = useState<Partial<Record<PrintImage, unknown>>>({});
  const [uploading, setUploading] = useState<PrintImage | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  const { busy, run } = useWrite();
  const nameField = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const templates = useMemo(() => list.data ?? [], [list.data]);
  const current = typeof selected === 'number' ? templates.find((x) => x.id === selected) ?? null : null;

  const pick = useCallback((template: PrintTemplate | null) => {
    setSelected(template ? template.id : 'new');
    setDraft(template ? draftOf(template) : emptyDraft());
    setDirty(false);
    setImageErrors({});
    setPreviewFailed(false);
  }, []);

  // A fresh list (another layout, a first load) opens on its default, else its first template, else a new one.
  useEffect(() => {
    if (!list.data || list.stale) return;
    if (selected === 'new' || (typeof selected === 'number' && list.data.some((x) => x.id === selected))) return;
    pick(list.data.find((x) => x.isDefault) ?? list.data[0] ?? null);
  }, [list.data, list.stale, selected, pick]);

  /** Another template (or a new one, null) asked for while the form has unsaved edits: asks before dropping them. */
  const [leaving, setLeaving] = useState<{ to: PrintTemplate | null } | null>(null);
  const openTemplate = (template: PrintTemplate | null) => {
    if (dirty && template?.id !== selected) setLeaving({ to: template });
    else pick(template);
  };
  const edit = (patch: Partial<Draft>) => { setDraft((d) => ({ ...d, ...patch })); setDirty(true); };
  const problems = draftProblems(draft);
  const valid = Object.keys(problems).length === 0;

  const create = () => {
    if (dirty) { setLeaving({ to: null }); return; }
    pick(null);
    requestAnimationFrame(() => nameField.current?.focus());
  };
  const save = async () => {
    if (!valid || busy) return;
    const input = inputOf(draft, layout);
    await run(async () => {
      const row = selected === 'new' || selected === null ? await printTemplatesApi.create(org.id, input) : await printTemplatesApi.update(org.id, selected, input);
      list.put((rows) => (rows ? [...rows.filter((x) => x.id !== row.id), row] : [row]));
      setSelected(row.id);
      setDraft(draftOf(row));
      setDirty(false);
      list.reload();
    }, t('printTemplates.saved', { name: input.name }));
  };
  const makeDefault = async () => {
    if (!current || current.isDefault || dirty) return;
    if (await run(() => printTemplatesApi.setDefault(org.id, current.id), t('printTemplates.defaultSet', { name: current.name }))) list.reload();
  };
  const remove = async () => {
    if (!current) return;
    const name = current.name;
    if (await run(() => printTemplatesApi.remove(org.id, current.id), t('printTemplates.deleted', { name }))) {
      setDeleting(false);
      setSelected(null);
      list.reload();
    }
  };
  const upload = async (kind: PrintImage, file: File | undefined) => {
    if (!file || !current) return;
    setImageErrors((e) => ({ ...e, [kind]: undefined }));
    setUploading(kind);
    try {
      const row = await printTemplatesApi.upload(org.id, current.id, kind, file);
      list.put((rows) => rows?.map((x) => (x.id === row.id ? row : x)) ?? rows);
      setPreviewFailed(false);
    } catch (error) {
      if (!isSessionEndingError(error)) setImageErrors((e) => ({ ...e, [kind]: error }));
    } finally {
      setUploading(null);
    }
  };
  const clearImage = async (kind: PrintImage) => {
    if (!current) return;
    await run(async () => {
      const row = await printTemplatesApi.removeImage(org.id, current.id, kind);
      list.put((rows) => rows?.map((x) => (x.id === row.id ? row : x)) ?? rows);
    });
  };

  const context: PrintTemplatesContext = {
    create, remove: () => setDeleting(true), save: () => void save(), makeDefault: () => void makeDefault(),
    canRemove: current !== null && !busy, canSave: valid && !busy && (dirty || selected === 'new'),
    canMakeDefault: current !== null && !current.isDefault && !dirty && !busy,
  };
  useCommands(printTemplateCommands, context);

  const data = useMemo(() => samplePrint(t, { id: org.id, name: org.name }, draft, current), [t, org.id, org.name, draft, current]);
  const qr = useQrCode(data.qrText);

  const onListKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const next = templates[index + (event.key === 'ArrowDown' ? 1 : -1)];
    if (!next) return;
    if (dirty) { setLeaving({ to: next }); return; }
    pick(next);
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLButtonElement>(`[data-template-id="${next.id}"]`)?.focus());
  };

  if (!list.data) return <LoadState error={list.error} onRetry={list.reload} />;
  const field = (id: string) => `${ids}-${id}`;
  return (
    <CommandScope scope="printTemplates">
      <div className="grid min-h-0 grid-cols-[13rem_22rem_minmax(0,1fr)] items-start gap-4" data-testid="print-templates">
        <nav aria-label={t('printTemplates.list')} className="flex flex-col gap-2">
          <div role="group" aria-label={t('printTemplates.layout')} className="flex rounded-md border border-line bg-surface p-0.5 text-xs">
            {([1, 3] as const).map((value) => (
              <button key={value} type="button" aria-pressed={layout === value} data-layout={value}
                className={`flex-1 rounded px-2 py-1 ${layout === value ? 'bg-accent text-accent-fg' : 'text-fg-muted hover:text-fg'}`}
                onClick={() => { if (layout !== value) { setLayout(value); setSelected(null); setDirty(false); } }}>
                {t(`printTemplates.layouts.${value}` as 'printTemplates.layouts.1')}
              </button>
            ))}
          </div>
          <ul ref={listRef} className="flex flex-col gap-0.5" data-testid="print-template-list">
            {templates.map((template, index) => (
              <li key={template.id}>
                <button type="button" data-template-id={template.id} aria-current={template.id === selected ? 'true' : undefined}
                  onClick={() => openTemplate(template)} onKeyDown={(e) => onListKey(e, index)}
                  className={`flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-[13px] ${template.id === selected ? 'bg-accent-soft font-medium text-fg' : 'text-fg-muted hover:bg-surface hover:text-fg'}`}>
                  <span className="min-w-0 flex-1 truncate">{template.name}</span>
                  {template.modality && <span className="font-mono text-[11px] text-fg-subtle">{template.modality}</span>}
                  {template.isDefault && <span className="rounded bg-ok-soft px-1 text-[11px] text-ok" data-testid="default-mark">{t('printTemplates.default')}</span>}
                </button>
              </li>
            ))}
            {selected === 'new' && (
              <li><span className="flex w-full rounded bg-accent-soft px-2 py-1.5 text-[13px] font-medium italic">{draft.name.trim() || t('printTemplates.untitled')}</span></li>
            )}
          </ul>
          {templates.length === 0 && selected !== 'new' && <p className="text-[13px] text-fg-muted">{t('printTemplates.none')}</p>}
          <button type="button" className="btn h-7 text-xs" onClick={create}>{t('printTemplates.commands.new')} <span className="key-hint">N</span></button>
          {layout === 3 && <p className="text-xs text-fg-subtle">{t('printTemplates.consultationHint')}</p>}
        </nav>

        <form className="flex flex-col gap-3 rounded-md border border-line bg-surface p-3" data-testid="print-template-form" noValidate
          onSubmit={(e) => { e.preventDefault(); void save(); }}>
          <h2 className="text-sm font-semibold">{selected === 'new' ? t('printTemplates.newTitle') : t('printTemplates.editTitle')}</h2>
          <Field id={field('name')} label={t('printTemplates.fields.name')} problem={problems.name && dirty ? t('printTemplates.problems.required') : undefined}>
            <input ref={nameField} id={field('name')} className="input h-7 w-full text-[13px]" value={draft.name} maxLength={PRINT_TEMPLATE_NAME_MAX}
              onChange={(e) => edit({ name: e.target.value })} onKeyDown={blurOnEscape} />
          </Field>
          <Field id={field('modality')} label={t('printTemplates.fields.modality')} hint={t('printTemplates.hints.modality')}>
            <input id={field('modality')} className="input h-7 w-28 font-mono text-[13px] uppercase" value={draft.modality} maxLength={8}
              onChange={(e) => edit({ modality: e.target.value.replace(/[^A-Za-z0-9]/g, '').toUpperCase() })} onKeyDown={blurOnEscape} />
          </Field>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-xs text-fg-muted">{t('printTemplates.fields.titles')}</legend>
            {draft.titles.map((title, i) => (
              <input key={i} aria-label={t('printTemplates.fields.titleN', { n: i + 1 })} className="input h-7 w-full text-[13px]" value={title} maxLength={PRINT_TITLE_MAX}
                onChange={(e) => edit({ titles: draft.titles.map((x, k) => (k === i ? e.target.value : x)) as Draft['titles'] })} onKeyDown={blurOnEscape} />
            ))}
          </fieldset>
          <div className="grid grid-cols-2 gap-2">
            <Field id={field('signature')} label={t('printTemplates.fields.signatureOf')}>
              <select id={field('signature')} className="input h-7 w-full text-[13px]" value={draft.signatureOf} onChange={(e) => edit({ signatureOf: e.target.value as Draft['signatureOf'] })}>
                {SIGNATURE_OF.map((v) => <option key={v} value={v}>{t(`printTemplates.signatureOf.${v}` as 'printTemplates.signatureOf.creator')}</option>)}
              </select>
            </Field>
            <Field id={field('qrMode')} label={t('printTemplates.fields.qrMode')}>
              <select id={field('qrMode')} className="input h-7 w-full text-[13px]" value={draft.qrMode} onChange={(e) => edit({ qrMode: e.target.value as Draft['qrMode'] })}>
                {QR_MODES.map((v) => <option key={v} value={v}>{t(`printTemplates.qrModes.${v}` as 'printTemplates.qrModes.none')}</option>)}
              </select>
            </Field>
          </div>
          {draft.qrMode === 'static' && (
            <Field id={field('qrText')} label={t('printTemplates.fields.qrText')}
              problem={problems.qrText ? t(`printTemplates.problems.${problems.qrText}` as 'printTemplates.problems.required', { max: QR_TEXT_MAX }) : undefined}
              aside={<span className={`text-[11px] tabular-nums ${draft.qrText.length > QR_TEXT_MAX ? 'text-danger' : 'text-fg-subtle'}`} data-testid="qr-counter">{draft.qrText.length}/{QR_TEXT_MAX}</span>}>
              <input id={field('qrText')} className="input h-7 w-full font-mono text-[13px]" value={draft.qrText} maxLength={QR_TEXT_MAX}
                onChange={(e) => edit({ qrText: e.target.value })} onKeyDown={blurOnEscape} />
            </Field>
          )}
          {draft.qrMode === 'dynamic' && <p className="text-xs text-fg-subtle">{t('printTemplates.hints.dynamic')}</p>}
          <div className="flex flex-col gap-1 text-[13px]">
            <label className="flex items-center gap-2"><input type="checkbox" checked={draft.exactTime} onChange={(e) => edit({ exactTime: e.target.checked })} />{t('printTemplates.fields.exactTime')}</label>
            <label className="flex items-center gap-2"><input type="checkbox" checked={draft.pageNumbers} onChange={(e) => edit({ pageNumbers: e.target.checked })} />{t('printTemplates.fields.pageNumbers')}</label>
          </div>
          <ImagePicker kind="logo" template={current} error={imageErrors.logo} busy={uploading === 'logo'} onPick={upload} onClear={clearImage}
            hint={t('printTemplates.hints.logo', { px: LOGO_RECOMMENDED_PX, kb: PRINT_IMAGE_MAX_BYTES / 1024 })} />
          <ImagePicker kind="stamp" template={current} error={imageErrors.stamp} busy={uploading === 'stamp'} onPick={upload} onClear={clearImage}
            hint={t('printTemplates.hints.stamp', { kb: PRINT_IMAGE_MAX_BYTES / 1024 })} />
          <div className="flex flex-wrap items-center gap-2 border-t border-line pt-3">
            <button type="submit" className="btn btn-primary h-7 text-xs" disabled={!context.canSave}>{t('printTemplates.commands.save')} <span className="key-hint">Ctrl+S</span></button>
            {current && (
              current.isDefault
                ? <span className="text-xs text-ok">{t('printTemplates.isDefault')}</span>
                : <button type="button" className="btn h-7 text-xs" disabled={!context.canMakeDefault} onClick={() => void makeDefault()}>{t('printTemplates.commands.makeDefault')} <span className="key-hint">D</span></button>
            )}
            {current && <button type="button" className="btn btn-ghost ml-auto h-7 text-xs text-danger" onClick={() => setDeleting(true)}>{t('printTemplates.commands.delete')}</button>}
          </div>
          {dirty && current && !current.isDefault && <p className="text-[11px] text-fg-subtle">{t('printTemplates.hints.saveFirst')}</p>}
        </form>

        <section aria-label={t('printTemplates.preview')} className="min-w-0" data-testid="print-template-preview">
          <h2 className="mb-2 text-xs text-fg-muted">{t('printTemplates.preview')}</h2>
          {previewFailed && <Alert tone="warning">{t('printTemplates.previewImageFailed')}</Alert>}
          <div className="flex justify-center overflow-auto rounded-md border border-line bg-sunken p-3">
            <div style={{ zoom: 0.62 }}>
              <div className="print-preview">
                <PrintSheet data={data} qrUrl={qr.url} pageMark onImageError={() => setPreviewFailed(true)} onKeyImageError={() => undefined} />
              </div>
            </div>
          </div>
        </section>
      </div>
      <ConfirmDialog open={leaving !== null} title={t('printTemplates.discardTitle')} confirmLabel={t('printTemplates.discard')} busy={false} focus="cancel"
        onCancel={() => setLeaving(null)}
        onConfirm={() => {
          const to = leaving?.to ?? null;
          setLeaving(null);
          pick(to);
          if (to === null) requestAnimationFrame(() => nameField.current?.focus());
        }}>
        <p className="text-[13px]">{t('printTemplates.discardBody')}</p>
      </ConfirmDialog>
      <ConfirmDialog open={deleting && current !== null} title={t('printTemplates.deleteTitle')} confirmLabel={t('printTemplates.commands.delete')} busy={busy} focus="cancel"
        onCancel={() => setDeleting(false)} onConfirm={() => void remove()} testId="print-template-delete">
        <p className="text-[13px]">{t(current?.isDefault ? 'printTemplates.deleteDefaultBody' : 'printTemplates.deleteBody', { name: current?.name ?? '' })}</p>
      </ConfirmDialog>
    </CommandScope>
  );
}
