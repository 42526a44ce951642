import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { KB_READ_ACTIONS } from '../../../contract/kb';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { kbApi } from './api';
import { KbScreen } from './KbScreen';
import { Loading, Problem } from './KbStates';
import { idFrom } from './paths';

/**
 * /kb (areas §3, §4, §7): an organisation's knowledge base. The tree at the left by keyboard (the `?` sheet lists
 * the keys), the current item at the right. Moves show at once and go to the server one after another; a refused
 * one reads the tree again. The address keeps the organisation and the item, so a reload (or the palette) opens it.
 */
export default function KbPage() {
  const { t } = useTranslation();
  const { can } = useSession();
  const search = new URLSearchParams(useSearch());
  const orgs = useLoad('kb:orgs', (signal) => kbApi.organisations({ signal }));
  const readable = useMemo(() => (orgs.data ?? []).filter((o) => KB_READ_ACTIONS.some((a) => can(a, o.id))), [orgs.data, can]);
  const asked = idFrom(search.get('bucketId'));
  const bucketId = readable.some((o) => o.id === asked) ? asked : readable[0]?.id ?? null;

  if (orgs.error && !isSessionEndingError(orgs.error)) return <Problem text={errorText(t, orgs.error)} onRetry={orgs.reload} />;
  if (!orgs.data) return <Loading />;
  if (bucketId === null) return <Problem text={t('kb.page.noOrganisation')} />;
  return <KbScreen key={bucketId} bucketId={bucketId} orgs={readable} initialItem={idFrom(search.get('item'))} />;
}
