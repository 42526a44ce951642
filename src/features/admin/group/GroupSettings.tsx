import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupDetail } from '../../../../contract/groups';
import { refreshSession } from '@/lib/session';
import { groupsApi } from '../api';
import { Section } from '../ui/AdminFrame';
import { SwitchList } from '../ui/SwitchList';
import { useWrite } from '../ui/useWrite';
import { FLAG_KEYS, type FlagKey } from './flags';

/**
 * /groups/{id}/settings: the feature flags as a keyboard-operable list of switches (↑ ↓ move, Space turns over). Each
 * change is saved at once; the admin's own navbar follows straight away, every other member's at their next request.
 */
export function GroupSettings({ group, onChanged }: { group: GroupDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const { run } = useWrite();
  const [pending, setPending] = useState<FlagKey | null>(null);
  const [shown, setShown] = useState<Partial<Record<FlagKey, boolean>>>({});
  const items = FLAG_KEYS.map((key) => ({ key, label: t(`admin.flags.${key}.label`), hint: t(`admin.flags.${key}.hint`), on: shown[key] ?? group[key] === true }));
  const toggle = async (key: string, on: boolean) => {
    const flag = key as FlagKey;
    setPending(flag);
    setShown((s) => ({ ...s, [flag]: on }));
    const ok = await run(() => groupsApi.patch(group.id, { [flag]: on }), t(on ? 'admin.flags.switchedOn' : 'admin.flags.switchedOff', { name: t(`admin.flags.${flag}.label`) }));
    if (!ok) setShown((s) => ({ ...s, [flag]: !on }));
    setPending(null);
    refreshSession({ force: true });
    onChanged();
  };
  return (
    <Section title={t('admin.group.flagsTitle')} hint={t('admin.group.flagsHint')}>
      <div className="max-w-xl"><SwitchList items={items} label={t('admin.group.flagsTitle')} busyKey={pending} onToggle={(k, on) => void toggle(k, on)} testId="group-flags" /></div>
    </Section>
  );
}
