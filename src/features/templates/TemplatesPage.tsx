import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyOrganization } from '../../../contract/accounts';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useSession } from '@/lib/session';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { templatesApi } from './api';
import type { TreeChoice } from './choices';
import { TreeWorkspace } from './TreeWorkspace';

/**
 * Template management (/templates): the tree of one organisation, or of the group's shared tree, at the left
 * (↑/↓ move, →/← open and close, Enter edit, F2 rename, N new template, Shift+N new folder, Delete, M move), the
 * chosen template's name, modality, body part, findings and conclusion at the right (Ctrl+S saves; unsaved changes
 * are asked about before anything replaces them). Export downloads the tree as JSON; import adds a document's
 * folders and templates in one go.
 */
export default function TemplatesPage() {
  const { t } = useTranslation();
  const { groups, can } = useSession();
  const [orgs, setOrgs] = useState<MyOrganization[] | null>(null);
  const [orgError, setOrgError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    templatesApi.organisations().then((list) => live && setOrgs(list), (error: unknown) => live && setOrgError(error));
    return () => {
      live = false;
    };
  }, []);

  const choices = useMemo<TreeChoice[]>(() => {
    const own = (orgs ?? []).filter((o) => can('template_upsert', o.id))
      .map((o): TreeChoice => ({ key: `b${o.id}`, owner: { bucketId: o.id }, label: o.name, canWrite: true, kind: 'bucket' }));
    const shared = groups.filter((g) => g.isGroupKb && (g.accessLevel === 1 || (orgs ?? []).some((o) => o.groupId === g.id && can('template_upsert', o.id))))
      .map((g): TreeChoice => ({ key: `g${g.id}`, owner: { groupId: g.id }, label: g.displayName, canWrite: g.accessLevel === 1, kind: 'group' }));
    return [...own, ...shared];
  }, [orgs, groups, can]);

  if (orgError && !isSessionEndingError(orgError)) return <div className="p-6"><Alert>{errorText(t, orgError)}</Alert></div>;
  if (!orgs) return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  if (choices.length === 0) return <div className="p-6"><Alert>{t('templates.page.noRight')}</Alert></div>;
  return <TemplatesScreen choices={choices} />;
}

function TemplatesScreen({ choices }: { choices: TreeChoice[] }) {
  const [choiceKey, setChoiceKey] = useState(choices[0]!.key);
  const choice = choices.find((c) => c.key === choiceKey) ?? choices[0]!;
  // One workspace per tree (keyed): switching trees starts from a fresh state; the session's periodic refresh,
  // which rebuilds `choices`, does not.
  return <TreeWorkspace key={choice.key} choice={choice} choices={choices} onSwitch={setChoiceKey} />;
}

