import type { MyOrganization } from '../../../contract/accounts';
import type { PaletteResult, SearchProvider } from '@/features/palette';
import { http } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { navigate } from '@/lib/session';
import { organizationPath, type OrganizationTab } from './paths';

/** The organisation tabs the palette goes to by name: roles and procedures first, as the administrator asks for them. */
const TABS: readonly OrganizationTab[] = ['roles', 'procedures', 'settings', 'print-templates', 'index'];

const fold = (text: string) => text.normalize('NFKC').toLocaleLowerCase();

/**
 * "Go to" an organisation's tab from anywhere (issue 32): every organisation the account administers, each tab a
 * result ("Roles: 演示医院"). Every typed word must be found in the tab's name, the organisation's name or code.
 * The server decides who administers (accounts/me/organizations: accessLevel admin); the screen checks again.
 */
export async function searchOrganizationTabs(text: string, signal: AbortSignal): Promise<PaletteResult[]> {
  const organizations = await http.get<MyOrganization[]>('accounts/me/organizations', { signal });
  const terms = fold(text).split(/\s+/).filter(Boolean);
  const results: PaletteResult[] = [];
  for (const org of organizations.filter((o) => o.accessLevel === 'admin')) {
    for (const tab of TABS) {
      const tabName = i18n.t(`admin.org.tabs.${tab}`);
      const label = i18n.t('admin.palette.goTab', { tab: i18n.t(`admin.commands.org.${tab}`), name: org.name });
      const haystack = fold([tabName, label, org.name, org.code, tab].join(' '));
      if (terms.every((term) => haystack.includes(term))) {
        results.push({ id: `${org.id}:${tab}`, label, detail: org.code, run: () => navigate(organizationPath(org.groupId, org.id, tab)) });
      }
    }
  }
  return results;
}

export const organizationSearchProvider: SearchProvider = {
  id: 'admin.organizations',
  heading: 'admin.palette.heading',
  minLength: 2,
  limit: 8,
  search: (text, context) => searchOrganizationTabs(text, context.signal),
};
