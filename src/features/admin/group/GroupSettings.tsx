import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupDetail } from '../../../../contract/groups';
import { useCommands } from '@/lib/commands';
import { refreshSession } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { groupsApi } from '../api';
import { GROUP_SETTINGS_SECTIONS, groupSettingsCommands, type GroupSettingsSection } from '../commands';
import { Section } from '../ui/AdminFrame';
import { LoadState } from '@/ui/LoadState';
import { SwitchList } from '../ui/SwitchList';
import { useWrite } from '../ui/useWrite';
import { PathologySetting } from '@/features/pathology';
import { FLAG_KEYS, type FlagKey } from './flags';
import { groupPartsApi } from './groupApi';
import { AssignRules } from './settings/AssignRules';
import { ColourRules } from './settings/ColourRules';
import { ConsultationTargets } from './settings/ConsultationTargets';
import { ExpertBuckets } from './settings/ExpertBuckets';
import { NotificationUsers } from './settings/NotificationUsers';
import { RegistryBuckets } from './settings/RegistryBuckets';

/**
 * /groups/{id}/settings: the feature flags as a keyboard-operable list of switches (↑ ↓ move, Space turns over). Each
 * change is saved at once; the admin's own navbar follows straight away, every other member's at their next request.
 * Below them the lists the group's settings name (settings/): assign rules, expert organisations with their free
 * flag, consultation targets, registry desks and who is notified per organisation — all over the group's organisations
 * and radiologists, loaded once here.
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
  useCommands(groupSettingsCommands, { jump: jumpTo });
  return (
    <>
      <nav aria-label={t('admin.settingsNav.label')} data-testid="settings-jump"
        className="mb-3 flex max-w-4xl flex-wrap gap-1 border-b border-line pb-1.5 text-xs">
        {GROUP_SETTINGS_SECTIONS.map((section, i) => (
          <a key={section} href={`#section-${section}`} className="rounded px-1.5 py-0.5 text-fg hover:bg-sunken"
            onClick={(e) => {
              e.preventDefault();
              jumpTo(section);
            }}>
            {t(`admin.commands.jump.${section}`)} <kbd className="key-hint">Shift+{i + 1}</kbd>
          </a>
        ))}
      </nav>
      <Section title={t('admin.group.flagsTitle')} hint={t('admin.group.flagsHint')} testId="group-flags-section">
        <div className="max-w-xl"><SwitchList items={items} label={t('admin.group.flagsTitle')} busyKey={pending} onToggle={(k, on) => void toggle(k, on)} testId="group-flags" /></div>
      </Section>
      <Section title={t('pathology.setting.title')} testId="group-pathology-section">
        <PathologySetting groupId={group.id} value={group.pathologyUrl} />
      </Section>
      <GroupLists groupId={group.id} />
    </>
  );
}

/** Scrolls to a section and puts the keyboard on its first control (or on the section itself when it has none yet). */
function jumpTo(section: GroupSettingsSection) {
  const target = document.getElementById(`section-${section}`);
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  const first = target.querySelector<HTMLElement>('button:not([disabled]):not([tabindex="-1"]), [href], input:not([disabled]), select:not([disabled]), textarea, [tabindex="0"]');
  if (first) first.focus({ preventScroll: true });
  else {
    target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }
}

/** The sections below the flags, once the group's organisations and radiologists are in. */
function GroupLists({ groupId }: { groupId: number }) {
  const basis = useLoad(`admin:group:${groupId}:settings-basis`, async (signal) => {
    const [organizations, rads] = await Promise.all([groupsApi.organizations(groupId, { signal }), groupPartsApi.rads(groupId, { signal })]);
    return { organizations, rads };
  });
  if (!basis.data) return <LoadState error={basis.error} onRetry={basis.reload} />;
  const { organizations, rads } = basis.data;
  return (
    <>
      <AssignRules groupId={groupId} organizations={organizations} rads={rads} />
      <ExpertBuckets groupId={groupId} organizations={organizations} />
      <ConsultationTargets groupId={groupId} organizations={organizations} />
      <RegistryBuckets groupId={groupId} organizations={organizations} />
      <NotificationUsers groupId={groupId} organizations={organizations} />
      <ColourRules groupId={groupId} />
    </>
  );
}
