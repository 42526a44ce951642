import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { MyOrganization } from '../../../contract/accounts';
import { useSession } from '@/lib/session';
import { http } from '@/lib/http';
import { isRegistered } from '@/lib/session/routeRegistry';
import { Spinner } from '@/ui/Spinner';
import { SectionHeading, SettingsFrame } from './SettingsFrame';

interface AdminLink { id: string; href: string; label: string; hint: string }

/**
 * settings/admin: the administration screens this account may open — its groups' pages where it is a group admin
 * (home, members, settings, the accounts list), its organisations' pages where it is an organisation admin, group
 * creation when the account may create one. Only screens this build registers are listed; the screens check again.
 */
export default function AdminPage() {
  const { t } = useTranslation();
  const { user, groups } = useSession();
  const [organizations, setOrganizations] = useState<MyOrganization[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    http.get<MyOrganization[]>('accounts/me/organizations', { signal: controller.signal }).then(setOrganizations, () => setOrganizations([]));
    return () => controller.abort();
  }, []);

  const links: AdminLink[] = [];
  const adminGroups = groups.filter((g) => g.accessLevel === 1);
  for (const group of adminGroups) {
    links.push({ id: `group-${group.id}`, href: `/groups/${group.id}`, label: group.displayName, hint: t('settings.admin.group') });
    links.push({ id: `members-${group.id}`, href: `/groups/${group.id}/members`, label: t('settings.admin.members', { name: group.displayName }), hint: t('settings.admin.group') });
    links.push({ id: `settings-${group.id}`, href: `/groups/${group.id}/settings`, label: t('settings.admin.groupSettings', { name: group.displayName }), hint: t('settings.admin.group') });
  }
  if (adminGroups.length > 0) links.push({ id: 'accounts', href: '/accounts', label: t('settings.admin.accounts'), hint: t('settings.admin.group') });
  for (const org of organizations ?? []) {
    if (org.accessLevel !== 'admin' && !adminGroups.some((g) => g.id === org.groupId)) continue;
    links.push({ id: `org-${org.id}`, href: `/groups/${org.groupId}/organizations/${org.id}`, label: org.name, hint: t('settings.admin.organization') });
  }
  if (user?.canCreateGroup && groups.length === 0) links.push({ id: 'create', href: '/groups/create', label: t('settings.admin.createGroup'), hint: '' });
  const shown = links.filter((l) => isRegistered(l.href));

  return (
    <SettingsFrame>
      <section aria-labelledby="admin-title" className="max-w-xl">
        <SectionHeading id="admin-title" title={t('settings.admin.title')} />
        {organizations === null && <Spinner label={t('common.loading')} />}
        {organizations !== null && shown.length === 0 && (
          <p className="rounded-lg border border-line bg-surface p-5 text-sm text-fg-muted">{t('settings.admin.none')}</p>
        )}
        {organizations !== null && shown.length > 0 && (
          <ul className="divide-y divide-line rounded-lg border border-line bg-surface" data-testid="settings-admin-links">
            {shown.map((link) => (
              <li key={link.id}>
                <Link href={link.href} className="flex items-baseline justify-between gap-3 px-5 py-2.5 text-sm hover:bg-sunken focus-visible:bg-sunken">
                  <span className="link">{link.label}</span>
                  <span className="text-xs text-fg-muted">{link.hint}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </SettingsFrame>
  );
}
