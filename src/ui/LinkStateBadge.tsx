import { useTranslation } from 'react-i18next';

export type LinkState = 'active' | 'expired' | 'revoked';

/** A handed-out link or code: revoked wins over expired; `now` is Unix milliseconds, `expires` Unix seconds. */
export function linkState(link: { revoked: boolean; expires: number }, now: number): LinkState {
  if (link.revoked) return 'revoked';
  return link.expires * 1000 <= now ? 'expired' : 'active';
}

const TONE: Record<LinkState, string> = {
  active: 'border-ok/40 bg-ok-soft text-ok',
  expired: 'border-line-strong text-fg-muted',
  revoked: 'border-danger/40 text-danger',
};

export function LinkStateBadge({ state }: { state: LinkState }) {
  const { t } = useTranslation();
  return (
    <span
      data-link-state={state}
      className={`inline-flex h-[18px] shrink-0 items-center rounded border px-1.5 text-[11px] leading-none font-medium whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5 ${TONE[state]}`}
    >
      {t(`common.linkState.${state}`)}
    </span>
  );
}
