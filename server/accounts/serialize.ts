import type { User } from '../../contract/accounts';
import type { AccountRow } from '../auth/plugin';

export function toUser(a: AccountRow, domainName: string | null): User {
  return {
    id: a.id,
    username: a.username,
    name: a.name,
    fullName: a.fullName,
    avatar: a.avatar,
    signature: a.signature,
    mobile: a.mobile,
    techTitle: a.techTitle,
    registry: a.registry,
    canCreateGroup: a.canCreateGroup,
    domainName: domainName ? { web: domainName } : {},
    notificationPrefs: { examSound: a.notificationPrefs?.examSound !== false, consultationSound: a.notificationPrefs?.consultationSound !== false },
  };
}
