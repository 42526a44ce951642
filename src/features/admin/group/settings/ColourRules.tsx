import { useId, useMemo, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { colourRuleBoolean, isBooleanColourColumn } from '../../../../../contract/colourRules';
import {
  COLOUR_RULE_COLUMNS, type ColourRule, type ColourRuleColumn, type ColourRuleCreateInput,
} from '../../../../../contract/exams';
import { http, type RequestOptions } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Dialog } from '@/ui/Dialog';
import { Section } from '../../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { DeleteConfirm, RowActions, useRowActions } from '../../ui/rowActions';
import { useWrite } from '../../ui/useWrite';
import { parseHex, READABLE_RATIO, ruleContrast, type Rgb } from './colourContrast';
import { CHECKBOX, ErrorNote, failedFields, HEAD_ROW, ROW, TABLE, TD, TH } from './parts';

/** Report-table colour rules (docs/api.md "Colour rules"): members read them, the group admin writes them. */
const colourRulesApi = {
  list: (groupId: number, options?: RequestOptions) => http.get<ColourRule[]>('report-table-colour/find-by-group', { ...options, query: { groupId } }),
  create: (input: ColourRuleCreateInput) => http.post<ColourRule>('report-table-colour/create', input),
  update: (input: Omit<ColourRuleCreateInput, 'groupId'> & { id: number }) => http.post<ColourRule>('report-table-colour/update', input),
  remove: (id: number) => http.delete(`report-table-colour/${id}`),
};

/** The worklist's tint (src/features/worklist/Grid.tsx): the rule's colours mixed into the theme's, never painted raw. */
export function tintStyle(fore: string | null, back: string | null): CSSProperties {
  const style: CSSProperties = {};
  if (back) style.backgroundColor = `color-mix(in oklab, ${back} 32%, var(--surface))`;
  if (fore) style.color = `color-mix(in oklab, ${fore} 78%, var(--fg))`;
  return style;
}

/** The current theme's surface and text colours, read from the CSS variables of src/styles.css. */
function themeColours(): { surface: Rgb; fg: Rgb } | null {
  if (typeof document === 'undefined') return null;
  const css = getComputedStyle(document.documentElement);
  const surface = parseHex(css.getPropertyValue('--surface'));
  const fg = parseHex(css.getPropertyValue('--fg'));
  return surface && fg ? { surface, fg } : null;
}

/**
 * The group's report-table colour rules (areas §3 "Colour rule", §9 "smaller number is higher priority"): the worklist
 * tints a row with the first rule, by priority, whose column matches. Listed in that order; added and changed in a
 * dialog with a live sample row; deleting asks first.
 */
export function ColourRules({ groupId }: { groupId: number }) {
  const { t } = useTranslation();
  const list = useLoad(`admin:group:${groupId}:colour-rules`, (signal) => colourRulesApi.list(groupId, { signal }));
  const addRef = useRef<HTMLButtonElement>(null);
  const rows = useRowActions<ColourRule, ColourRule | 'new'>({ reload: list.reload, focusAfterDelete: addRef });
  const { editing, setEditing } = rows;
  // The server answers them by priority, then the settings index, then id: the order the worklist tries them in.
  const rules = list.data ?? [];

  return (
    <Section title={t('colourRules.title')} hint={t('colourRules.hint')} testId="colour-rules"
      actions={<button type="button" className="btn btn-primary h-7 text-xs" ref={addRef} onClick={() => setEditing('new')} data-testid="colour-rule-add">{t('colourRules.add')}</button>}>
      {!list.data ? <LoadState error={list.error} onRetry={list.reload} /> : (
        <table className={TABLE} data-testid="colour-rule-table">
          <thead>
            <tr className={HEAD_ROW}>
              <th className={`${TH} w-16 text-right`}>{t('colourRules.priority')}</th>
              <th className={TH}>{t('colourRules.name')}</th>
              <th className={TH}>{t('colourRules.condition')}</th>
              <th className={`${TH} w-48`}>{t('colourRules.sample')}</th>
              <th className={`${TH} w-36`}><span className="sr-only">{t('admin.groupParts.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {rules.length === 0 && <tr><td colSpan={5} className="px-3 py-6 text-center text-fg-muted">{t('colourRules.none')}</td></tr>}
            {rules.map((rule) => (
              <tr key={rule.id} className={ROW} data-colour-rule-id={rule.id}>
                <td className={`${TD} text-right tabular-nums`}>{rule.priority}</td>
                <td className={`${TD} font-medium`} data-colour-rule-name>{rule.name}</td>
                <td className={TD}><Condition rule={rule} /></td>
                <td className={TD}>
                  <span className="block rounded border border-line/60 px-2 py-0.5 text-xs text-fg" style={tintStyle(rule.foreColor, rule.backColor)}>
                    {t('colourRules.sampleText')}
                  </span>
                </td>
                <td className={`${TD} whitespace-nowrap text-right`}>
                  <RowActions boxed={false} editLabel={t('admin.groupParts.edit')} deleteLabel={t('admin.delete')} onEdit={() => setEditing(rule)} onDelete={() => rows.setDeleting(rule)}
                    editName={t('colourRules.editOf', { name: rule.name })} deleteName={t('colourRules.deleteOf', { name: rule.name })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing !== null && (
        <ColourRuleDialog groupId={groupId} rule={editing === 'new' ? null : editing}
          nextPriority={rules.reduce((n, r) => Math.max(n, r.priority + 1), 0)}
          onClose={() => setEditing(null)} onSaved={() => { setEditing(null); list.reload(); }} />
      )}
      <DeleteConfirm rows={rows} title={t('colourRules.deleteTitle')} confirmLabel={t('admin.delete')}
        body={t('colourRules.deleteBody', { name: rows.deleting?.name ?? '' })}
        onConfirm={() => rows.confirmDelete((r) => colourRulesApi.remove(r.id), (r) => t('colourRules.deleted', { name: r.name }))} />
    </Section>
  );
}

/** "Modality = CT", "Age ≥ 70", "Reporter is empty". */
function Condition({ rule }: { rule: Pick<ColourRule, 'column' | 'value' | 'gte' | 'lte'> }) {
  const { t } = useTranslation();
  const column = t(`colourRules.columns.${rule.column}`);
  const mono = 'font-mono text-xs';
  if (rule.gte === null && rule.lte === null) {
    return rule.value === null
      ? <span>{column} <span className="text-fg-muted">{t('colourRules.isEmpty')}</span></span>
      : <span>{column} = <span className={mono}>{rule.value}</span></span>;
  }
  return (
    <span>
      {column}
      {rule.gte !== null && <> ≥ <span className={mono}>{rule.gte}</span></>}
      {rule.gte !== null && rule.lte !== null && t('admin.groupParts.listSeparator')}
      {rule.lte !== null && <> ≤ <span className={mono}>{rule.lte}</span></>}
    </span>
  );
}

type MatchKind = 'equals' | 'range' | 'empty';
// A new rule starts as an amber tint under the theme's own text: readable in both themes until the admin chooses.
const DEFAULT_FORE = '#b02525';
const DEFAULT_BACK = '#fab005';

/** One colour of the rule: whether it is used, a colour picker and the same value as text (typed by keyboard). */
function ColourField({ id, label, on, value, onToggle, onChange, invalid }: {
  id: string; label: string; on: boolean; value: string; onToggle: (on: boolean) => void; onChange: (v: string) => void; invalid: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  // The picker changed the colour: the text follows (adjusting state while rendering, not in an effect).
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 flex items-center gap-2 text-[13px] font-medium">
        <input id={`${id}-on`} type="checkbox" className={CHECKBOX} checked={on} onChange={(e) => onToggle(e.target.checked)} />
        <label htmlFor={`${id}-on`}>{label}</label>
      </legend>
      <div className="flex items-center gap-2">
        <input type="color" className="h-7 w-10 shrink-0 cursor-pointer rounded border border-line bg-surface p-0.5 disabled:opacity-40" value={value.length === 7 ? value : '#000000'}
          disabled={!on} aria-label={t('colourRules.pick', { what: label })} onChange={(e) => onChange(e.target.value)} />
        <input id={id} className="input font-mono text-xs" value={text} disabled={!on} maxLength={7} spellCheck={false} aria-invalid={invalid || undefined}
          aria-label={t('colourRules.hexOf', { what: label })}
          onChange={(e) => {
            const v = e.target.value.trim();
            setText(v);
            if (/^#[0-9a-fA-F]{6}$/.test(v)) onChange(v.toLowerCase());
          }} />
      </div>
    </fieldset>
  );
}

function ColourRuleDialog({ groupId, rule, nextPriority, onClose, onSaved }: {
  groupId: number; rule: ColourRule | null; nextPriority: number; onClose: () => void; onSaved: () => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState(rule?.name ?? '');
  const [priority, setPriority] = useState(String(rule?.priority ?? nextPriority));
  const [column, setColumn] = useState<ColourRuleColumn>(rule?.column ?? 'modality');
  const [kind, setKind] = useState<MatchKind>(rule ? (rule.gte !== null || rule.lte !== null ? 'range' : rule.value === null ? 'empty' : 'equals') : 'equals');
  const [value, setValue] = useState(rule?.value ?? '');
  const [gte, setGte] = useState(rule?.gte ?? '');
  const [lte, setLte] = useState(rule?.lte ?? '');
  const [foreOn, setForeOn] = useState(rule ? rule.foreColor !== null : false);
  const [backOn, setBackOn] = useState(rule ? rule.backColor !== null : true);
  const [fore, setFore] = useState(rule?.foreColor?.slice(0, 7) ?? DEFAULT_FORE);
  const [back, setBack] = useState(rule?.backColor?.slice(0, 7) ?? DEFAULT_BACK);
  const { busy, error, run } = useWrite({ errors: 'inline' });
  const invalid = new Set(failedFields(error));
  const labels = {
    name: t('colourRules.name'), priority: t('colourRules.priority'), column: t('colourRules.column'), value: t('colourRules.value'),
    gte: t('colourRules.gte'), lte: t('colourRules.lte'), foreColor: t('colourRules.fore'), backColor: t('colourRules.back'),
  };
  const foreColor = foreOn ? fore : null;
  const backColor = backOn ? back : null;
  const theme = useMemo(() => themeColours(), []);
  const ratio = theme && (foreColor || backColor) ? ruleContrast({ fore: foreColor, back: backColor }, theme) : null;
  const poor = ratio !== null && ratio < READABLE_RATIO;
  const noColour = !foreOn && !backOn;
  const incomplete = !name.trim() || noColour || (kind === 'equals' && !value.trim() && !isBooleanColourColumn(column)) || (kind === 'range' && !gte.trim() && !lte.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (incomplete) return;
    const fields = {
      name: name.trim(), priority: priority.trim() === '' ? 0 : Number(priority), index: rule?.index ?? 0, column,
      value: kind !== 'equals' ? null : isBooleanColourColumn(column) ? String(colourRuleBoolean(value) !== false) : value.trim(),
      gte: kind === 'range' && gte.trim() ? gte.trim() : null,
      lte: kind === 'range' && lte.trim() ? lte.trim() : null,
      foreColor, backColor,
    };
    const saved = await run(
      () => (rule ? colourRulesApi.update({ id: rule.id, ...fields }) : colourRulesApi.create({ groupId, ...fields })),
      t(rule ? 'colourRules.updated' : 'colourRules.created', { name: fields.name }),
    );
    if (saved) onSaved();
  };
  const field = 'mb-1 block text-[13px] font-medium';

  return (
    <Dialog open title={t(rule ? 'colourRules.editTitle' : 'colourRules.add')} onCancel={busy ? undefined : onClose} width={560}>
      <form onSubmit={submit} className="grid grid-cols-2 gap-x-4 gap-y-3" data-testid="colour-rule-form">
        <div>
          <label htmlFor={`${ids}-name`} className={field}>{labels.name}</label>
          <input id={`${ids}-name`} className="input" value={name} autoFocus maxLength={64} onChange={(e) => setName(e.target.value)} aria-invalid={invalid.has('name') || undefined} />
        </div>
        <div>
          <label htmlFor={`${ids}-priority`} className={field}>{labels.priority}</label>
          <input id={`${ids}-priority`} type="number" inputMode="numeric" min={0} max={9999} step={1} className="input tabular-nums" value={priority}
            onChange={(e) => setPriority(e.target.value)} aria-invalid={invalid.has('priority') || undefined} aria-describedby={`${ids}-priority-hint`} />
          <p id={`${ids}-priority-hint`} className="mt-1 text-xs text-fg-muted">{t('colourRules.priorityHint')}</p>
        </div>
        <div>
          <label htmlFor={`${ids}-column`} className={field}>{labels.column}</label>
          <select id={`${ids}-column`} className="input" value={column} onChange={(e) => setColumn(e.target.value as ColourRuleColumn)} aria-invalid={invalid.has('column') || undefined}>
            {COLOUR_RULE_COLUMNS.map((c) => <option key={c} value={c}>{t(`colourRules.columns.${c}`)}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-kind`} className={field}>{t('colourRules.match')}</label>
          <select id={`${ids}-kind`} className="input" value={kind} onChange={(e) => setKind(e.target.value as MatchKind)}>
            <option value="equals">{t('colourRules.kinds.equals')}</option>
            <option value="range">{t('colourRules.kinds.range')}</option>
            <option value="empty">{t('colourRules.kinds.empty')}</option>
          </select>
        </div>
        <div className="col-span-2 min-h-[3.75rem]">
          {kind === 'equals' && (
            <>
              <label htmlFor={`${ids}-value`} className={field}>{labels.value}</label>
              {isBooleanColourColumn(column) ? (
                // A yes/no column takes true or false (contract/colourRules.ts): chosen, not typed.
                <select id={`${ids}-value`} className="input" value={colourRuleBoolean(value) === false ? 'false' : 'true'} onChange={(e) => setValue(e.target.value)}
                  aria-invalid={invalid.has('value') || undefined} aria-describedby={`${ids}-value-hint`}>
                  <option value="true">{t('colourRules.boolean.true')}</option>
                  <option value="false">{t('colourRules.boolean.false')}</option>
                </select>
              ) : (
                <input id={`${ids}-value`} className="input" value={value} maxLength={64} onChange={(e) => setValue(e.target.value)} aria-invalid={invalid.has('value') || undefined}
                  aria-describedby={`${ids}-value-hint`} />
              )}
              <p id={`${ids}-value-hint`} className="mt-1 text-xs text-fg-muted">{t('colourRules.valueHint')}</p>
            </>
          )}
          {kind === 'range' && (
            <div className="grid grid-cols-2 gap-x-4">
              <div>
                <label htmlFor={`${ids}-gte`} className={field}>{labels.gte}</label>
                <input id={`${ids}-gte`} className="input" value={gte} maxLength={64} onChange={(e) => setGte(e.target.value)} aria-invalid={invalid.has('gte') || undefined} />
              </div>
              <div>
                <label htmlFor={`${ids}-lte`} className={field}>{labels.lte}</label>
                <input id={`${ids}-lte`} className="input" value={lte} maxLength={64} onChange={(e) => setLte(e.target.value)} aria-invalid={invalid.has('lte') || undefined} />
              </div>
              <p className="col-span-2 mt-1 text-xs text-fg-muted">{t('colourRules.rangeHint')}</p>
            </div>
          )}
          {kind === 'empty' && <p className="pt-5 text-xs text-fg-muted">{t('colourRules.emptyHint')}</p>}
        </div>
        <ColourField id={`${ids}-fore`} label={labels.foreColor} on={foreOn} value={fore} onToggle={setForeOn} onChange={setFore} invalid={invalid.has('foreColor')} />
        <ColourField id={`${ids}-back`} label={labels.backColor} on={backOn} value={back} onToggle={setBackOn} onChange={setBack} invalid={invalid.has('backColor')} />
        <div className="col-span-2">
          <p className={field}>{t('colourRules.preview')}</p>
          <div className="overflow-hidden rounded-md border border-line bg-surface text-[13px]">
            <div className="flex h-7 items-center gap-4 whitespace-nowrap border-b border-line/60 px-3 text-fg" data-testid="colour-rule-preview" style={tintStyle(foreColor, backColor)}>
              <span className="w-24 truncate font-medium">{t('colourRules.previewRow.patient')}</span>
              <span className="w-10 font-mono text-xs">CT</span>
              <span className="w-28 truncate">{t('colourRules.previewRow.bodyPart')}</span>
              <span className="tabular-nums text-xs">2026-11-26 08:30</span>
            </div>
            <div className="flex h-7 items-center gap-4 whitespace-nowrap px-3 text-fg">
              <span className="w-24 truncate font-medium">{t('colourRules.previewRow.other')}</span>
              <span className="w-10 font-mono text-xs">DX</span>
              <span className="w-28 truncate">{t('colourRules.previewRow.otherPart')}</span>
              <span className="tabular-nums text-xs">2026-11-26 08:10</span>
            </div>
          </div>
          <p className={`mt-1 min-h-4 text-xs ${poor || noColour ? 'text-warn' : 'text-fg-muted'}`} role="status" data-testid="colour-rule-contrast">
            {noColour ? t('colourRules.needColour') : ratio === null ? '' : poor ? t('colourRules.poorContrast', { ratio: ratio.toFixed(1) }) : t('colourRules.goodContrast', { ratio: ratio.toFixed(1) })}
          </p>
        </div>
        {error !== null && <ErrorNote error={error} labels={labels} testId="colour-rule-error" className="col-span-2" />}
        <div className="col-span-2 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy || incomplete}>{t('admin.groupParts.save')}</button>
        </div>
      </form>
    </Dialog>
  );
}
