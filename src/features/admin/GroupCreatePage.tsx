import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GROUP_NAME_MAX, GROUP_NAME_MIN, GROUP_NAME_RE } from '../../../contract/groups';
import { navigate, refreshSession } from '@/lib/session';
import { groupsApi } from './api';
import { groupPath } from './paths';
import { useWrite } from './ui/useWrite';

type Availability = 'unknown' | 'checking' | 'free' | 'taken' | 'invalid';

/** /groups/create (areas §5): the name's availability is asked as it is typed; creating makes the caller its admin. */
export default function GroupCreatePage() {
  const { t } = useTranslation();
  const ids = useId();
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [answer, setAnswer] = useState<{ name: string; available: boolean | null } | null>(null);
  const { busy, run } = useWrite();
  const value = name.trim();
  const valid = value.length >= GROUP_NAME_MIN && value.length <= GROUP_NAME_MAX && GROUP_NAME_RE.test(value);
  const availability: Availability = !value ? 'unknown' : !valid ? 'invalid'
    : answer?.name !== value ? 'checking' : answer.available === null ? 'unknown' : answer.available ? 'free' : 'taken';

  // The server is asked a quarter second after typing stops; an older answer never shows for a newer name.
  useEffect(() => {
    if (!valid) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      // A failed check says nothing (and Create stays off) until the name is typed again.
      groupsApi.available(value, { signal: controller.signal }).then((r) => setAnswer({ name: value, available: r.available }),
        () => !controller.signal.aborted && setAnswer({ name: value, available: null }));
    }, 250);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [value, valid]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (availability !== 'free' || !displayName.trim()) return;
    let created: { id: number } | null = null;
    const ok = await run(async () => { created = await groupsApi.create({ name: name.trim(), displayName: displayName.trim() }); }, t('admin.groups.created'));
    if (ok && created) {
      refreshSession({ force: true });
      navigate(groupPath((created as { id: number }).id));
    }
  };

  const hint = { unknown: '', checking: t('admin.groups.checking'), free: t('admin.groups.free'), taken: t('admin.groups.taken'), invalid: t('admin.groups.nameRule') }[availability];
  return (
    <div className="mx-auto w-full max-w-lg px-6 py-6">
      <h1 className="mb-4 text-base font-semibold">{t('admin.groups.create')}</h1>
      <form onSubmit={submit} className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="group-create-form">
        <div>
          <label htmlFor={`${ids}-name`} className="mb-1 block text-[13px] font-medium">{t('admin.groups.name')}</label>
          <input id={`${ids}-name`} className="input" value={name} autoFocus onChange={(e) => setName(e.target.value)}
            aria-invalid={availability === 'taken' || availability === 'invalid'} aria-describedby={`${ids}-hint`} />
          <p id={`${ids}-hint`} role="status" className={`mt-1 min-h-4 text-xs ${availability === 'free' ? 'text-ok' : availability === 'checking' || availability === 'unknown' ? 'text-fg-muted' : 'text-danger'}`}>{hint}</p>
        </div>
        <div>
          <label htmlFor={`${ids}-display`} className="mb-1 block text-[13px] font-medium">{t('admin.groups.displayName')}</label>
          <input id={`${ids}-display`} className="input" value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={128} />
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => history.back()}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn-primary" disabled={busy || availability !== 'free' || !displayName.trim()}>{t('admin.groups.createSubmit')}</button>
        </div>
      </form>
    </div>
  );
}
