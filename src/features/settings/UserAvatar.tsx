import type { User } from '../../../contract/accounts';

/**
 * The account's picture (its avatar, an address on this server), or its first letter on the accent colour.
 * Decorative: the name is always written beside it.
 */
export function UserAvatar({ user, size = 24 }: { user: Pick<User, 'name' | 'username' | 'avatar'> | null; size?: number }) {
  const style = { width: size, height: size };
  const avatar = user?.avatar && user.avatar.startsWith('/') && !user.avatar.startsWith('//') ? user.avatar : null;
  if (avatar) return <img src={avatar} alt="" aria-hidden="true" style={style} className="shrink-0 rounded-full border border-line object-cover" data-testid="user-avatar" />;
  const initial = [...(user?.name || user?.username || '?')][0]!.toUpperCase();
  return (
    <span aria-hidden="true" style={{ ...style, fontSize: Math.round(size * 0.45) }}
      className="inline-flex shrink-0 select-none items-center justify-center rounded-full bg-accent-soft font-medium text-fg">
      {initial}
    </span>
  );
}
