import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ORGANIZATION_CODE_MAX, ORGANIZATION_CODE_MIN, isOrganizationCode, type Organization } from '../../../../contract/organizations';
import { useLoad } from '@/lib/useLoad';
import { organizationsApi, type DictionaryKind } from '../api';
import { Section } from '../ui/AdminFrame';
import { SwitchList } from '../ui/SwitchList';
import { useWrite } from '../ui/useWrite';
import { Doctors } from './settings/Doctors';
import { ExtensionPackages } from './settings/ExtensionPackages';
import { Extensions } from './settings/Extensions';
import { UploadToken } from './settings/UploadToken';

const ORG_FLAGS = ['isPrivate', 'isFocused', 'freeEfilm', 'reportFinalOnSubmit'] as const;

/** /groups/{g}/organizations/{o}/settings: the organisation's switches, its code (fixed once bound) and dictionaries. */
export function OrganizationSettings({ org, onChanged }: { org: Organization; onChanged: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const { busy, run } = useWrite();
  const [pending, setPending] = useState<string | null>(null);
  const [code, setCode] = useState(org.code);
  const items = ORG_FLAGS.map((key) => ({ key, label: t(`admin.org.flags.${key}.label`), hint: t(`admin.org.flags.${key}.hint`), on: org[key] }));
  const toggle = async (key: string, on: boolean) => {
    setPending(key);
    await run(() => organizationsApi.patch(org.id, { [key]: on }));
    setPending(null);
    onChanged();
  };
  const bind = async (event: FormEvent) => {
    event.preventDefault();
    if (isOrganizationCode(code) && await run(() => organizationsApi.bindCode(org.id, code), t('admin.org.codeBoundDone', { code }))) onChanged();
  };
  return (
    <>
      <Section title={t('admin.org.switches')}>
        <div className="max-w-xl"><SwitchList items={items} label={t('admin.org.switches')} busyKey={pending} onToggle={(k, on) => void toggle(k, on)} testId="org-flags" /></div>
      </Section>
      <Section title={t('admin.org.codeTitle')} hint={t('admin.org.codeHint', { min: ORGANIZATION_CODE_MIN, max: ORGANIZATION_CODE_MAX })}>
        <form onSubmit={bind} className="flex max-w-xl items-center gap-2" data-testid="org-bind-code">
          <label htmlFor={`${ids}-code`} className="sr-only">{t('admin.orgs.code')}</label>
          <input id={`${ids}-code`} className="input h-8 font-mono" value={code} readOnly={org.codeBound} maxLength={ORGANIZATION_CODE_MAX}
            aria-invalid={!org.codeBound && code !== '' && !isOrganizationCode(code)} onChange={(e) => setCode(e.target.value)} />
          {org.codeBound
            ? <span className="whitespace-nowrap text-xs text-fg-muted">{t('admin.orgs.codeBound')}</span>
            : <button type="submit" className="btn" disabled={busy || !isOrganizationCode(code)}>{t('admin.org.bindCode')}</button>}
        </form>
      </Section>
      <div className="mb-5 grid max-w-5xl grid-cols-[repeat(auto-fill,minmax(18rem,1fr))] gap-4">
        {(['departments', 'bodyparts', 'critical-values'] as const).map((kind) => <Dictionary key={kind} orgId={org.id} kind={kind} />)}
      </div>
      <Doctors orgId={org.id} />
      <Extensions orgId={org.id} />
      <ExtensionPackages orgId={org.id} />
      <UploadToken orgId={org.id} />
    </>
  );
}

/** A name list of the organisation (departments, body parts, critical values): add by Enter, remove by its button. */
function Dictionary({ orgId, kind }: { orgId: number; kind: DictionaryKind }) {
  const { t } = useTranslation();
  const ids = useId();
  const load = (signal: AbortSignal) => kind === 'departments' ? organizationsApi.departments(orgId, { signal })
    : kind === 'bodyparts' ? organizationsApi.bodyparts(orgId, { signal }) : organizationsApi.criticalValues(orgId, { signal });
  const list = useLoad(`admin:org:${orgId}:${kind}`, load);
  const [name, setName] = useState('');
  const { busy, run } = useWrite();
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const value = name.trim();
    if (value && await run(() => organizationsApi.addDictionary(orgId, kind, value))) {
      setName('');
      list.reload();
    }
  };
  return (
    <section className="flex h-72 flex-col rounded-md border border-line bg-surface" data-testid={`dictionary-${kind}`}>
      <h3 className="border-b border-line px-3 py-2 text-[13px] font-semibold">{t(`admin.org.dictionaries.${kind}`)}</h3>
      <ul className="min-h-0 flex-1 overflow-auto px-1 py-1">
        {list.data?.length === 0 && <li className="px-2 py-1 text-[13px] text-fg-muted">{t('admin.ordered.empty')}</li>}
        {(list.data ?? []).map((item) => (
          <li key={item.id} className="group flex items-center gap-2 rounded px-2 py-0.5 text-[13px] hover:bg-sunken">
            <span className="min-w-0 flex-1 truncate">{item.name}</span>
            <button type="button" className="icon-button h-5 w-5 text-xs" aria-label={t('admin.org.removeItem', { name: item.name })} disabled={busy}
              onClick={() => void run(() => organizationsApi.deleteDictionary(orgId, kind, item.id)).then(list.reload)}>×</button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="flex gap-1.5 border-t border-line p-2">
        <label htmlFor={`${ids}-add`} className="sr-only">{t('admin.org.addItem')}</label>
        <input id={`${ids}-add`} className="input h-7 text-[13px]" placeholder={t('admin.org.addItem')} value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn h-7 px-2 text-xs" disabled={busy || !name.trim()}>{t('admin.org.add')}</button>
      </form>
    </section>
  );
}
