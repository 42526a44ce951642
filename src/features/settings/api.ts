import type { CodeSent, MaskedMobile, NotificationPrefs, User } from '../../../contract/accounts';
import type { UploadPolicy } from '../../../contract/uploads';
import type { GroupView } from '../../../contract/groups';
import { http } from '@/lib/http';
import { sendWithProgress } from '@/lib/http/form';
import { sessionActor } from '@/lib/session';

/** The settings screens' calls (core §7 accounts, uploads; groups/mine and quit). */
export const settingsApi = {
  me: (signal?: AbortSignal) => http.get<User>('accounts/me', { signal }),
  patchMe: (patch: Partial<Pick<User, 'name' | 'fullName' | 'techTitle' | 'avatar'>> & { notificationPrefs?: Partial<NotificationPrefs> }) =>
    http.patch<User>('accounts/me', patch),
  /** The avatar goes through the avatar policy (GET policies/avatars, POST uploads/avatars), then onto the account. */
  async uploadAvatar(file: File): Promise<User> {
    const policy = await http.get<UploadPolicy>('policies/avatars');
    const form = new FormData();
    form.append('token', policy.token);
    form.append('file', file);
    const { url } = await sendWithProgress<{ url: string }>({ method: 'POST', path: policy.uploadPath, body: form, onProgress: () => undefined });
    return http.patch<User>('accounts/me', { avatar: url });
  },
  /** POST accounts/me/signature: form data with the image; the bearer goes in the header (no permit for this one). */
  uploadSignature(image: Blob, name: string): Promise<User> {
    const form = new FormData();
    form.append('file', image, name);
    const token = http.tokens.read()?.accessToken;
    return sendWithProgress<User>({
      method: 'POST', path: 'accounts/me/signature', body: form, onProgress: () => undefined,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  },
  mobileOf: (id: number, signal?: AbortSignal) => http.get<MaskedMobile>(`accounts/${id}/mobile`, { signal }),
  sendBindCode: (mobile: string) => http.post<CodeSent>('accounts/me/code/bind-mobile', { mobile }),
  bindMobile: (mobile: string, code: string) => http.post<User>('accounts/me/mobile/bind', { mobile, code }),
  myGroups: (signal?: AbortSignal) => http.get<GroupView[]>('groups/mine', { signal }),
  quitGroup: (groupId: number) => http.post<void>(`groups/${groupId}/quit`),
};

/** Tells the session (navbar, pollers) about the account as the server now has it. */
export function profileUpdated(user: User): void {
  sessionActor().send({ type: 'PROFILE_UPDATED', user });
}
