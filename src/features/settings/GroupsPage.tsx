import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { GroupView } from '../../../contract/groups';
import { refreshSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { isRegistered } from '@/lib/session/routeRegistry';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { ConfirmDialog } from '@/ui/ConfirmDialog';
import { Spinner } from '@/ui/Spinner';
import { settingsApi } from './api';
import { SectionHeading, SettingsFrame } from './SettingsFrame';

/**
 * settings/groups: the groups this account belongs to (GET groups/mine), each with "quit" behind a confirmation.
 * The server's rules hold (the last admin cannot leave: LastGroupAdmin); its refusal is shown as it says.
 */
export default function GroupsPage() {
  const { t } = useTranslation();
  const [groups, setGroups] = useState<GroupView[] | null>(null);
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [quitting, setQuitting] = useState<GroupView | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    settingsApi.myGroups(controller.signal).then(
      (list) => {
        setGroups(list);
        setLoadFailure(null);
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isSessionEndingError(error)) setLoadFailure(errorText(t, error));
      },
    );
    return () => controller.abort();
  }, [reload, t]);

  async function quit() {
    if (!quitting || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await settingsApi.quitGroup(quitting.id);
      toasts.show({ message: t('settings.groups.left', { name: quitting.displayName }), kind: 'success' });
      setQuitting(null);
      setReload((n) => n + 1);
      // The navbar, permissions and pollers follow the new membership.
      refreshSession({ force: true });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsFrame>
      <section aria-labelledby="groups-title" className="max-w-xl">
        <SectionHeading id="groups-title" title={t('settings.groups.title')} />
        {loadFailure && <Alert>{loadFailure}</Alert>}
        {!groups && !loadFailure && <Spinner label={t('common.loading')} />}
        {groups && groups.length === 0 && (
          <p className="rounded-lg border border-line bg-surface p-5 text-sm text-fg-muted">{t('settings.groups.none')}</p>
        )}
        {groups && groups.length > 0 && (
          <ul className="divide-y divide-line rounded-lg border border-line bg-surface" data-testid="settings-groups">
            {groups.map((group) => (
              <li key={group.id} className="flex items-center gap-3 px-5 py-3">
                <div className="min-w-0 flex-1">
                  {isRegistered(`/groups/${group.id}`)
                    ? <Link href={`/groups/${group.id}`} className="link text-sm font-medium">{group.displayName}</Link>
                    : <span className="text-sm font-medium">{group.displayName}</span>}
                  <div className="text-xs text-fg-muted">{group.accessLevel === 1 ? t('settings.groups.admin') : t('settings.groups.member')}</div>
                </div>
                <button type="button" className="btn" onClick={() => { setFailure(null); setQuitting(group); }}>{t('settings.groups.quit')}</button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={quitting !== null}
        title={t('settings.groups.quitTitle')}
        confirmLabel={t('settings.groups.quit')}
        busyLabel={t('common.saving')}
        busy={busy}
        focus="cancel"
        onConfirm={() => void quit()}
        onCancel={() => setQuitting(null)}
      >
        <p>{t('settings.groups.quitBody', { name: quitting?.displayName ?? '' })}</p>
        {failure && <div className="mt-3"><Alert>{failure}</Alert></div>}
      </ConfirmDialog>
    </SettingsFrame>
  );
}
